//! `arbiter contest demo`, the main job, as a newcomer runs it: from a directory of their own,
//! so the demo contest lands in a directory named relative to it. Every sample submission but
//! the one written not to compile must compile, the failing one must fail for its own error,
//! and every scheduled game must be played, at a pace that lets people watch them live.

use crate::contest_support;

use std::process::Stdio;

use contest_support::{arbiter, demo_played_out, free_port, wait_up};
use sqlx::Row;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_compiles_every_sample_and_plays_every_game_from_a_relative_directory() {
    let tmp = tempfile::tempdir().unwrap();
    // The sample bots, found where a newcomer in a checkout has them, wherever cargo builds.
    let bots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots");
    std::os::unix::fs::symlink(bots.canonicalize().unwrap(), tmp.path().join("bots")).unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut demo = arbiter()
        .current_dir(tmp.path())
        .env_remove("CARGO_TARGET_DIR")
        .args([
            "contest",
            "demo",
            "--workers",
            "2",
            "--pace",
            "20",
            "--listen",
        ])
        .arg(format!("127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter contest demo");
    wait_up(&base).await;

    let (board, seen_playing) = demo_played_out(&base).await;
    let _ = demo.kill();
    let _ = demo.wait();
    assert!(seen_playing, "no game was seen in progress on /live");

    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5, "every student on the board: {board}");
    assert_eq!(board["games_total"].as_u64(), Some(5 * 4), "{board}");

    sqlx::any::install_default_drivers();
    let db = tmp.path().join("arbiter-demo-contest/contest.db");
    let pool = sqlx::AnyPool::connect(&format!("sqlite://{}?mode=ro", db.display()))
        .await
        .unwrap();
    let subs = sqlx::query("SELECT file_name, status, compile_log FROM submissions ORDER BY id")
        .fetch_all(&pool)
        .await
        .unwrap();
    let failed: Vec<(String, String)> = subs
        .iter()
        .filter(|r| r.get::<String, _>("status") != "ready")
        .map(|r| {
            (
                r.get("file_name"),
                r.get::<Option<String>, _>("compile_log")
                    .unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        failed.len(),
        1,
        "only the demo's broken submission fails: {failed:?}"
    );
    let (file, log) = &failed[0];
    assert!(file.ends_with(".c"), "{file}");
    assert!(
        log.contains("error") && !log.contains("Permission denied"),
        "it fails for its own compile error: {log}"
    );
}
