//! `arbiter contest demo --game-module FILE`: the demo contest of a module game (connect-four
//! here). A module that is no module is refused before anything is written; one whose
//! configuration the module refuses leaves a directory that the next demo replaces. The demo
//! serves, its students' kit sample bots compile (but the one written not to), every game is
//! played and paced for watching, the scoreboard has a row per student, and each game's replay
//! names the module that its page's player fetches.

use crate::contest_support;

use std::process::Stdio;
use std::time::Instant;

use arbiter_engine::replay::Replay;
use contest_support::{arbiter, demo_played_out, free_port, wait_up};
use sqlx::Row;

async fn get_text(url: &str) -> String {
    reqwest::get(url).await.unwrap().text().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_module_demo_plays_the_kit_sample_bots_and_serves_its_module() {
    let module = arbiter_kit_host::build::game_module("game-connect-four").expect("it builds");
    let bytes = std::fs::read(&module).unwrap();
    let sha = arbiter_kit_host::sha256_hex(&bytes);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("demo");

    // Not a module: refused, naming the file, and nothing is written.
    let junk = tmp.path().join("junk.wasm");
    std::fs::write(&junk, b"\0asm\x01\0\0\0junk").unwrap();
    let out = arbiter()
        .args(["contest", "demo", "--dir"])
        .arg(&dir)
        .arg("--game-module")
        .arg(&junk)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("junk.wasm"), "{err}");
    assert!(!dir.exists(), "a refused module left {}", dir.display());

    // A configuration the module refuses: said, and what is left is still a demo's.
    let out = arbiter()
        .args(["contest", "demo", "--dir"])
        .arg(&dir)
        .arg("--game-module")
        .arg(&module)
        .args(["--game-config", r#"{"cols": 99}"#])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("refuses the configuration"),
        "{err}"
    );
    assert!(dir.join(".arbiter-demo").is_file(), "marked as a demo's");

    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let banner_file = tmp.path().join("banner.txt");
    let t_start = Instant::now();
    let mut demo = arbiter()
        .args(["contest", "demo", "--dir"])
        .arg(&dir)
        .arg("--game-module")
        .arg(&module)
        .args(["--game-config", r#"{"cols": 6}"#])
        .args(["--workers", "2", "--pace", "20", "--listen"])
        .arg(format!("127.0.0.1:{port}"))
        .stdout(std::fs::File::create(&banner_file).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter contest demo --game-module");
    wait_up(&base).await;
    eprintln!("served after {:.1} s", t_start.elapsed().as_secs_f64());

    let t0 = Instant::now();
    let (board, seen_playing) = demo_played_out(&base).await;
    eprintln!("all games played after {:.1} s", t0.elapsed().as_secs_f64());
    assert!(seen_playing, "no game was seen in progress on /live");
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5, "every student on the board: {board}");
    assert_eq!(board["games_total"].as_u64(), Some(5 * 4), "{board}");

    // The banner names the game; the site's title too.
    let banner = std::fs::read_to_string(&banner_file).unwrap();
    assert!(
        banner.contains("The demo contest of connect-four is served on")
            && banner.contains("kit_random.c")
            && banner.contains("2305"),
        "{banner}"
    );
    let home = get_text(&format!("{base}/")).await;
    assert!(home.contains("arbiter demo: connect-four"), "{home}");

    // Every game: the module's, with the demo's configuration; played to its end. (Reading a
    // module game's replay runs the module.)
    arbiter_kit_host::host::install();
    arbiter_kit_host::host::register_file(&module).unwrap();
    for id in 1..=20 {
        let text = get_text(&format!("{base}/api/games/{id}/replay")).await;
        let (replay, _) = Replay::read(&text).unwrap_or_else(|e| panic!("game {id}: {e}"));
        let m = replay.game.as_module().expect("a module game");
        assert_eq!(m.module.sha256, sha, "game {id}");
        assert_eq!(m.config, r#"{"cols":6}"#, "game {id}");
        assert!(
            replay.moves.len() >= 7,
            "game {id}: {} moves",
            replay.moves.len()
        );
    }
    // A game page embeds the player, which fetches the module beside /games/N; the submit
    // page links it at the site's root.
    let page = get_text(&format!("{base}/games/1")).await;
    assert!(page.contains("init_replay_player"), "{page}");
    for path in [
        format!("/games/modules/{sha}.wasm"),
        format!("/modules/{sha}.wasm"),
    ] {
        let r = reqwest::get(format!("{base}{path}")).await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(r.headers()["content-type"], "application/wasm", "{path}");
        assert_eq!(r.bytes().await.unwrap().as_ref(), &bytes[..], "{path}");
    }
    let _ = demo.kill();
    let _ = demo.wait();

    sqlx::any::install_default_drivers();
    let db = dir.join("contest.db");
    let pool = sqlx::AnyPool::connect(&format!("sqlite://{}?mode=ro", db.display()))
        .await
        .unwrap();
    let subs = sqlx::query("SELECT file_name, status, compile_log FROM submissions ORDER BY id")
        .fetch_all(&pool)
        .await
        .unwrap();
    let mut failed = Vec::new();
    for r in &subs {
        let file: String = r.get("file_name");
        if r.get::<String, _>("status") == "ready" {
            assert!(file.starts_with("kit_random."), "{file}");
        } else {
            failed.push((file, r.get::<Option<String>, _>("compile_log")));
        }
    }
    assert_eq!(subs.len(), 6, "five students, one of them twice");
    assert_eq!(
        failed.len(),
        1,
        "only the broken submission fails: {failed:?}"
    );
    let (file, log) = &failed[0];
    assert_eq!(file, "first_try.c");
    let log = log.clone().unwrap_or_default();
    assert!(
        log.contains("error"),
        "it fails for its own compile error: {log}"
    );
}
