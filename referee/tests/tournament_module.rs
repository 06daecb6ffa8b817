//! Tournaments of a game module (docs/game-kit.md) through the real `arbiter` binary: a round
//! robin of a Python kit bot and two built-in bots on connect-four, resumed after a new
//! submission, refused when the module file changed between runs, published as an HTML site
//! that carries the module once; and the same tournament played by an `arbiter worker` that
//! was never given the module's file, only the queue's database. Amazons, Connect6, Dots and
//! Boxes and Einstein each play a short round robin whose replays play again in `replay show`.

use crate::tournament_support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tournament_support::{arbiter, report_json};

fn module() -> PathBuf {
    arbiter_kit_host::build::game_module("game-connect-four").expect("connect-four builds")
}

fn python_bot() -> String {
    // Canonical: the jail shows the bot's own file, not the directories a `..` passes through.
    let bot = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bots/python/kit_random.py")
        .canonicalize()
        .unwrap();
    format!("python3 -u {}", bot.display())
}

/// `dir/t.toml` naming `dir/c4.wasm` (a copy of the module), three bots, 4 games a pairing.
fn tournament_dir(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(module(), dir.join("c4.wasm")).unwrap();
    let config = format!(
        r#"name = "c4"
seed = 3
games_per_pairing = 4
output = "out"
[game]
module = "c4.wasm"
config = {{ cols = 7, rows = 6 }}
[limits]
move_ms = 3000
[[bots]]
name = "py"
command = "{}"
[[bots]]
name = "random"
command = "builtin:random"
[[bots]]
name = "mc"
command = "builtin:2"
"#,
        python_bot()
    );
    let path = dir.join("t.toml");
    std::fs::write(&path, config).unwrap();
    path
}

fn run(args: &[&str], path: &Path) -> (bool, String) {
    let o = arbiter().args(args).arg(path).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn points(report: &Value) -> Vec<(String, f64)> {
    report["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["bot"].as_str().unwrap().to_string(),
                r["game_points"].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_module_tournament_plays_resumes_refuses_a_swapped_module_and_publishes() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tournament_dir(tmp.path());
    let out = tmp.path().join("out");
    let (ok, text) = run(&["tournament", "-q", "-j", "2"], &config);
    assert!(ok, "{text}");

    let report = report_json(&out);
    assert_eq!(report["done"], 12, "3 pairings of 4 games");
    let table = points(&report);
    assert_eq!(table.iter().map(|(_, p)| p).sum::<f64>(), 12.0, "{table:?}");
    // Flat Monte Carlo (100 playouts a move) beats random movers in Connect Four.
    assert_eq!(table[0].0, "mc", "{table:?}");
    assert!(table[0].1 >= 6.0, "{table:?}");
    // Every game ended by the rules (no failures), and each replay names the module.
    let module_sha = arbiter_kit_host::sha256_hex(&std::fs::read(module()).unwrap());
    for g in report["games"].as_array().unwrap() {
        assert_eq!(g["result"]["reason_code"], "normal", "{g}");
        let replay = out.join(g["result"]["replay"].as_str().unwrap());
        let replay: Value = serde_json::from_slice(&std::fs::read(replay).unwrap()).unwrap();
        assert_eq!(replay["game"]["module"]["sha256"], module_sha);
        assert_eq!(replay["game"]["config"]["cols"], 7);
    }

    // A new version is scheduled, and `resume` plays exactly its games.
    let (ok, text) = run(&["tournament", "submit", "--no-run"], &out);
    assert!(!ok, "submit needs a name and a command: {text}");
    let o = arbiter()
        .args(["tournament", "submit", "--no-run"])
        .arg(&out)
        .args(["py2", &python_bot()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (ok, text) = run(&["tournament", "resume", "-q"], &out);
    assert!(ok, "{text}");
    let report = report_json(&out);
    assert_eq!(report["done"], 12 + 12, "py2 against the three others");
    assert!(points(&report).iter().any(|(b, _)| b == "py2"));

    // The module's file changed: every command that reads it again refuses, naming why.
    let original = std::fs::read(tmp.path().join("c4.wasm")).unwrap();
    let mut other = original.clone();
    other.extend_from_slice(b"\x00\x02\x01x"); // a custom section: a valid, other module
    std::fs::write(tmp.path().join("c4.wasm"), &other).unwrap();
    for args in [
        &["tournament", "resume", "-q"][..],
        &["tournament", "report"][..],
    ] {
        let (ok, text) = run(args, &out);
        assert!(
            !ok && text.contains("is not the one this tournament was created with")
                && text.contains(&module_sha[..12]),
            "{args:?}: {text}"
        );
    }
    std::fs::write(tmp.path().join("c4.wasm"), &original).unwrap();

    // The site writes the module once, where the player looks for it.
    let site = tmp.path().join("site");
    let o = arbiter()
        .args(["tournament", "report"])
        .arg(&out)
        .arg("--html")
        .arg(&site)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut modules: Vec<_> = std::fs::read_dir(site.join("modules"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    modules.sort();
    assert_eq!(
        modules,
        vec![format!("{module_sha}.js"), format!("{module_sha}.wasm")]
    );
    assert_eq!(
        std::fs::read(site.join("modules").join(format!("{module_sha}.wasm"))).unwrap(),
        original
    );
    // ...and as a script the game pages load (a site opened from the disk cannot fetch).
    use base64::Engine as _;
    let js = std::fs::read_to_string(site.join("modules").join(&modules[0])).unwrap();
    let encoded = js.split('"').nth(3).unwrap();
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .unwrap();
    assert_eq!(decoded, original);
    let page = std::fs::read_to_string(site.join("games/game-000001.html")).unwrap();
    assert!(page.contains("src=\"../player.html"), "{page}");
    // The header says how the game ended in the module's own words.
    let first = report["games"][0]["result"]["replay"].as_str().unwrap();
    let replay: Value = serde_json::from_slice(&std::fs::read(out.join(first)).unwrap()).unwrap();
    let ending = replay["meta"]["ending"]
        .as_str()
        .expect("the module's words");
    let said = format!("({})", html_escape(ending));
    let pages: Vec<String> = std::fs::read_dir(site.join("games"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        pages.iter().any(|p| p.contains(&said)),
        "no page says {said}"
    );
    assert!(
        page.contains(&format!(
            "<script src=\"../modules/{module_sha}.js\"></script>"
        )),
        "{page}"
    );
}

#[test]
fn a_module_config_is_checked_before_anything_is_played() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tournament_dir(tmp.path());
    let text = std::fs::read_to_string(&config).unwrap();
    for (change, expect) in [
        (("cols = 7", "cols = 99"), "refuses the configuration"),
        (
            ("module = \"c4.wasm\"", "module = \"nope.wasm\""),
            "cannot read game module",
        ),
        (
            (
                "module = \"c4.wasm\"",
                "module = \"c4.wasm\"\nname = \"amazons\"",
            ),
            "calls itself \"connect-four\"",
        ),
        (
            (
                "module = \"c4.wasm\"",
                "module = \"c4.wasm\"\nopenings = [\"d\", \"d z9\"]",
            ),
            "game.openings[1]: move z9",
        ),
    ] {
        std::fs::write(&config, text.replace(change.0, change.1)).unwrap();
        let (ok, out) = run(&["tournament", "-q"], &config);
        assert!(!ok && out.contains(expect), "{change:?}: {out}");
        assert!(
            !tmp.path().join("out").exists(),
            "{change:?}: a tournament was made"
        );
    }
    // A module over the bound is refused before it is read whole.
    std::fs::write(&config, &text).unwrap();
    let big = std::fs::File::create(tmp.path().join("c4.wasm")).unwrap();
    big.set_len((16 << 20) + 1).unwrap();
    let (ok, out) = run(&["tournament", "-q"], &config);
    assert!(!ok && out.contains("at most 16 MiB"), "{out}");
}

/// Openings are moves in the module's notation: each pair of games starts from the next one,
/// both seatings from the same, and a kit bot is told them before its first turn.
#[test]
fn a_module_tournament_starts_its_pairs_from_the_openings() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tournament_dir(tmp.path());
    let text = std::fs::read_to_string(&config).unwrap();
    let text = text
        .replace(
            "module = \"c4.wasm\"",
            "module = \"c4.wasm\"\nopenings = [\"d d\", \"a g\"]",
        )
        .replace("command = \"builtin:2\"", "command = \"builtin:1\"");
    std::fs::write(&config, text).unwrap();
    let (ok, out) = run(&["tournament", "-q", "-j", "2"], &config);
    assert!(ok, "{out}");
    let report = report_json(&tmp.path().join("out"));
    let mut openings = std::collections::BTreeMap::<String, usize>::new();
    for g in report["games"].as_array().unwrap() {
        assert_eq!(g["result"]["reason_code"], "normal", "{g}");
        let replay = tmp
            .path()
            .join("out")
            .join(g["result"]["replay"].as_str().unwrap());
        let replay: Value = serde_json::from_slice(&std::fs::read(replay).unwrap()).unwrap();
        let opening: Vec<&str> = replay["opening"]
            .as_array()
            .expect("every game from an opening")
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        *openings.entry(opening.join(" ")).or_default() += 1;
    }
    // 3 pairings of 4 games: 2 pairs each, one per opening.
    assert_eq!(openings.get("d d"), Some(&6), "{openings:?}");
    assert_eq!(openings.get("a g"), Some(&6), "{openings:?}");
    // The output keeps the module, where `replay show` finds it for a replay (which leaves
    // it out), even once the config's file is gone.
    std::fs::remove_file(tmp.path().join("c4.wasm")).unwrap();
    let first = report["games"][0]["result"]["replay"].as_str().unwrap();
    let replay = tmp.path().join("out").join(first);
    let (ok, text) = run(&["replay", "show", "--frame", "last"], &replay);
    assert!(ok && text.contains("connect-four"), "{text}");
}

/// A module that breaks mid-game (tests/kit-broken): each game is listed with no result, and
/// gives nobody points or a rating, not half a point each as a draw would.
#[test]
fn games_whose_module_failed_give_nobody_points() {
    let tmp = tempfile::tempdir().unwrap();
    let broken = arbiter_kit_host::build::game_module("game-broken").expect("it builds");
    std::fs::copy(&broken, tmp.path().join("broken.wasm")).unwrap();
    let config = tmp.path().join("t.toml");
    std::fs::write(
        &config,
        r#"name = "broken"
seed = 5000
games_per_pairing = 2
output = "out"
[game]
module = "broken.wasm"
config = { fail = "trap", at = 3, min_seed = 1000 }
[[bots]]
name = "a"
command = "builtin:random"
[[bots]]
name = "b"
command = "builtin:random"
"#,
    )
    .unwrap();
    let (ok, out) = run(&["tournament", "-q"], &config);
    // Nothing was decided: a script must not read it as success.
    assert!(
        !ok && out.contains("none of the 2 finished games produced a result"),
        "{out}"
    );
    let report = report_json(&tmp.path().join("out"));
    assert_eq!(report["done"], 2, "{report}");
    for g in report["games"].as_array().unwrap() {
        assert_eq!(g["result"]["reason_code"], "aborted", "{g}");
    }
    for (bot, p) in points(&report) {
        assert_eq!(p, 0.0, "{bot}: a game with no result gives no points");
    }
    for row in report["standings"]["rows"].as_array().unwrap() {
        assert_eq!(row["draws"], 0, "{row}");
    }
}

/// Every other proof game plays a short round robin (one pair of games a pairing): the
/// report is whole, each game ended by its rules, and each replay names its module and plays
/// again through `replay show`. Amazons' Monte Carlo is slow, so it has no Python bot there.
#[test]
fn every_proof_game_plays_a_short_tournament() {
    // Small boards and short moves: Monte Carlo gives every legal move a playout at least
    // (Amazons has about 2,000), so its clock is what bounds it there.
    let games: [(&str, &str, &str, u32, &[&str]); 5] = [
        ("game-amazons", "amazons", "{}", 600, &["random", "mc"]),
        (
            "game-connect6",
            "connect6",
            "{ size = 7 }",
            2000,
            &["py", "random", "mc"],
        ),
        (
            "game-dots-and-boxes",
            "dots-and-boxes",
            "{ cols = 3, rows = 3 }",
            2000,
            &["py", "random", "mc"],
        ),
        (
            "game-einstein",
            "einstein",
            "{}",
            2000,
            &["py", "random", "mc"],
        ),
        (
            "game-hex",
            "hex",
            "{ size = 5, swap = true }",
            2000,
            &["py", "random", "mc"],
        ),
    ];
    for (package, name, game_config, move_ms, bots) in games {
        let t0 = Instant::now();
        let module = arbiter_kit_host::build::game_module(package).expect("it builds");
        let tmp = tempfile::tempdir().unwrap();
        std::fs::copy(&module, tmp.path().join("g.wasm")).unwrap();
        let mut config = format!(
            "name = \"{name}\"\nseed = 5\ngames_per_pairing = 2\noutput = \"out\"\n[game]\n\
             module = \"g.wasm\"\nconfig = {game_config}\n[limits]\nmove_ms = {move_ms}\n"
        );
        for bot in bots {
            let command = match *bot {
                "py" => python_bot(),
                "random" => "builtin:random".to_string(),
                _ => "builtin:1".to_string(),
            };
            config.push_str(&format!(
                "[[bots]]\nname = \"{bot}\"\ncommand = \"{command}\"\n"
            ));
        }
        let path = tmp.path().join("t.toml");
        std::fs::write(&path, config).unwrap();
        let (ok, text) = run(&["tournament", "-q", "-j", "2"], &path);
        assert!(ok, "{name}: {text}");

        let out = tmp.path().join("out");
        let report = report_json(&out);
        let pairings = bots.len() * (bots.len() - 1) / 2;
        assert_eq!(report["done"], 2 * pairings, "{name}: {report}");
        let table = points(&report);
        let mut named: Vec<&str> = table.iter().map(|(b, _)| b.as_str()).collect();
        named.sort();
        let mut want = bots.to_vec();
        want.sort();
        assert_eq!(named, want, "{name}: every bot has its row");
        let total: f64 = table.iter().map(|(_, p)| p).sum();
        assert_eq!(total, (2 * pairings) as f64, "{name}: {table:?}");

        let sha = arbiter_kit_host::sha256_hex(&std::fs::read(&module).unwrap());
        let games = report["games"].as_array().unwrap();
        assert_eq!(games.len(), 2 * pairings, "{name}");
        for g in games {
            assert_eq!(g["result"]["reason_code"], "normal", "{name}: {g}");
            let file = out.join(g["result"]["replay"].as_str().unwrap());
            let replay: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
            assert_eq!(replay["game"]["module"]["name"], name);
            assert_eq!(replay["game"]["module"]["sha256"], sha.as_str());
            let o = arbiter()
                .args(["replay", "show", "--frame", "last"])
                .arg(&file)
                .arg("--module")
                .arg(tmp.path().join("g.wasm"))
                .output()
                .unwrap();
            let shown = String::from_utf8_lossy(&o.stdout);
            assert!(
                o.status.success() && shown.contains(&format!("{name} — ")),
                "{name}: {shown}{}",
                String::from_utf8_lossy(&o.stderr)
            );
            // The last frame is the end: the module's own words for it.
            let ending = replay["meta"]["ending"].as_str().unwrap_or_default();
            assert!(
                !ending.is_empty() && shown.contains(ending),
                "{name}: {ending:?} not in {shown}"
            );
        }
        // A tournament's replay does not carry its module: `replay show` finds it in the
        // output's modules/, and refuses another module given with --module.
        let file = out.join(games[0]["result"]["replay"].as_str().unwrap());
        let c4 = self::module();
        let shown = arbiter()
            .args(["replay", "show", "--frame", "last"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(shown.status.success(), "{name}: found in modules/");
        let o = arbiter()
            .args(["replay", "show"])
            .arg(&file)
            .arg("--module")
            .arg(&c4)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && said.contains("is not the game module"),
            "{name}: {said}"
        );
        eprintln!("{name}: {} games in {:.1?}", games.len(), t0.elapsed());
    }
}

/// The queue's workers: the coordinator stores the module by its hash; a worker process,
/// given only the database, fetches it into its cache and plays every game, its built-in bots
/// loading the module from there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_that_never_saw_the_module_plays_the_tournament() {
    let mut urls = vec![None];
    if let Some(pg) = pg_url().await {
        urls.push(Some(pg));
    }
    for pg in urls {
        let tmp = tempfile::tempdir().unwrap();
        let config = tournament_dir(&tmp.path().join("t"));
        let url = pg
            .clone()
            .unwrap_or_else(|| tmp.path().join("q.db").display().to_string());
        let said = tmp.path().join("coordinator.err");
        let mut coordinator = arbiter()
            .arg("tournament")
            .arg(&config)
            .args(["--db", &url, "--no-local-workers", "-q"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&said).unwrap())
            .spawn()
            .unwrap();
        // Elsewhere: its own directory, no path to the module.
        let elsewhere = tmp.path().join("worker");
        std::fs::create_dir_all(&elsewhere).unwrap();
        let mut worker = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["worker", "--db", &url, "--slots", "2", "--games-only", "-q"])
            .arg("--dir")
            .arg(elsewhere.join("w"))
            .current_dir(&elsewhere)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let done = wait_for(&mut coordinator, Duration::from_secs(300));
        let _ = worker.kill();
        let _ = worker.wait();
        if !done {
            let _ = coordinator.kill();
            let _ = coordinator.wait();
            let said = std::fs::read_to_string(&said).unwrap_or_default();
            panic!(
                "{pg:?}: the coordinator did not finish: were the games played? It said:\n{said}"
            );
        }
        let report = report_json(&tmp.path().join("t/out"));
        assert_eq!(report["done"], 12, "{pg:?}");
        for g in report["games"].as_array().unwrap() {
            assert_eq!(g["result"]["reason_code"], "normal", "{pg:?}: {g}");
        }
        let original = std::fs::read(module()).unwrap();
        let sha = arbiter_kit_host::sha256_hex(&original);
        let cached = elsewhere.join("w/artefacts").join(format!("{sha}.wasm"));
        assert_eq!(std::fs::read(&cached).ok(), Some(original), "{pg:?}");
    }
}

/// Whether `child` ended well within `limit`.
fn wait_for(child: &mut Child, limit: Duration) -> bool {
    let t0 = Instant::now();
    while t0.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// A fresh PostgreSQL database when the test script provides a server.
async fn pg_url() -> Option<String> {
    let Ok(base) = std::env::var("ARBITER_TEST_PG") else {
        if std::env::var("ARBITER_REQUIRE_PG").as_deref() == Ok("1") {
            panic!("ARBITER_REQUIRE_PG=1 but ARBITER_TEST_PG is not set");
        }
        eprintln!("ARBITER_TEST_PG not set: the PostgreSQL part is skipped");
        return None;
    };
    let db = arbiter_queue::Db::connect(&base)
        .await
        .expect("ARBITER_TEST_PG");
    let name = format!("km{}_{}", std::process::id(), rand_suffix());
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(db.pool())
        .await
        .expect("create a database");
    db.close().await;
    let (prefix, _) = base.rsplit_once('/').expect("a database name");
    Some(format!("{prefix}/{name}"))
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}
