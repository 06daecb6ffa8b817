//! `arbiter game new|check|perft` and `arbiter match GAME.wasm`, as a game author runs them.

use std::process::Command;

use arbiter_kit_host::build;
use serde_json::Value;

use crate::kit_support;
use kit_support::arbiter;

/// `game check` finds what would break a game in the referee or the player: clicks that do not
/// tell two moves apart, a move too long for the referee to carry.
#[test]
fn check_finds_broken_clicks_and_moves_too_long() {
    let module = build::game_module("game-broken").unwrap();
    let m = module.to_str().unwrap();
    let (ok, text) = arbiter(&["game", "check", m, "--playouts", "3"]);
    assert!(ok && text.contains("ok: 3 random playouts"), "{text}");
    for (fail, expect) in [
        ("clicks", "are clicked the same way"),
        ("long", "a move is at most 32 bytes"),
    ] {
        let config = format!(r#"{{"fail": "{fail}", "at": 2}}"#);
        let (ok, text) = arbiter(&["game", "check", m, "--config", &config]);
        assert!(!ok && text.contains(expect), "{fail}: {text}");
    }
}

#[test]
fn check_perft_and_match_on_a_module() {
    let module = build::game_module("game-connect-four").unwrap();
    let m = module.to_str().unwrap();
    let (ok, text) = arbiter(&["game", "check", m, "--playouts", "5"]);
    assert!(ok && text.contains("ok: 5 random playouts"), "{text}");
    let (ok, text) = arbiter(&["game", "perft", m, "--depth", "4"]);
    assert!(ok && text.contains("perft(4) = 2401"), "{text}");
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let args = [
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--games",
        "2",
        "--seed",
        "4",
        "-o",
        dir,
    ];
    let (ok, text) = arbiter(&args);
    assert!(
        ok && text.contains("game 2/2: builtin-random-b (first player)"),
        "{text}"
    );
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("game-0001.json")).unwrap()).unwrap();
    assert_eq!(record["game"]["name"], "module");
    assert_eq!(record["game"]["module"]["name"], "connect-four");
    assert_eq!(
        record["game"]["module"]["sha256"].as_str().map(str::len),
        Some(64)
    );
    // The file carries its module, so that it plays alone anywhere (the player, replay show).
    assert!(record["module_wasm"]
        .as_str()
        .is_some_and(|b| b.len() > 1000));
    let replay = out.path().join("game-0001.json");
    let (ok, text) = arbiter(&[
        "replay",
        "show",
        replay.to_str().unwrap(),
        "--frame",
        "last",
    ]);
    assert!(ok && text.contains("connect-four — "), "{text}");
    assert!(
        text.contains("four in a row") || text.contains("full"),
        "{text}"
    );
    // An SPRT on a module: the Monte Carlo ladder's rung against random, in whole pairs.
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:2",
        "builtin:random",
        "--sprt",
        "elo0=0,elo1=100",
        "--max-games",
        "400",
        "-o",
        dir,
    ]);
    assert!(ok && text.contains("decision: H1 accepted"), "{text}");
    let played = games_played(&text);
    assert!(played % 2 == 0 && played < 400, "{played} games: {text}");
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["sprt"]["decision"], "H1", "{summary}");
    // Openings are moves in the module's notation, checked through the module.
    let book = out.path().join("book.txt");
    std::fs::write(&book, "d d\nc e\n").unwrap();
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--games",
        "2",
        "--openings",
        book.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    // A bot is told the opening's plies as PLAYED lines before its first turn.
    let bot = out.path().join("opening.py");
    std::fs::write(
        &bot,
        "import sys\nseen = []\nfor line in sys.stdin:\n    w = line.split()\n    if w and w[0] == 'START': print('OK', flush=True)\n    if w and w[0] == 'PLAYED': seen.append(w[1] + ':' + w[2])\n    if w and w[0] == 'LEGAL': legal = w[1:]\n    if w and w[0] == 'TURN':\n        print('DEBUG seen ' + ' '.join(seen), flush=True)\n        print(legal[0], flush=True)\n",
    )
    .unwrap();
    let bot = format!("python3 {}", bot.display());
    let games = out.path().join("opened");
    let (ok, text) = arbiter(&[
        "match",
        m,
        &bot,
        "builtin:1",
        "--games",
        "1",
        "--openings",
        book.to_str().unwrap(),
        "-o",
        games.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(games.join("game-0001.json")).unwrap()).unwrap();
    let opening = record["opening"].as_array().expect("an opening was played");
    assert_eq!(opening.len(), 2);
    let log = record["moves"][0]["log"].as_str().unwrap_or_default();
    assert!(
        log.starts_with(&format!(
            "seen 1:{} 2:{}",
            opening[0].as_str().unwrap(),
            opening[1].as_str().unwrap()
        )),
        "{log}"
    );
    assert_eq!(
        record["result"]["reason"]["kind"], "normal",
        "builtin:1 followed the opening"
    );
    std::fs::write(&book, "d z\n").unwrap();
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--openings",
        book.to_str().unwrap(),
    ]);
    assert!(!ok && text.contains("opening move z"), "{text}");
}

/// `match M builtin:1 builtin:random --sprt ...` on `package` (and `extra` arguments): the
/// games played and summary.json, after checking that the test counted whole pairs, that
/// every game ended by the rules, and that it said its decision or stopped at the limit.
fn sprt(package: &str, config: &str, test: &str, max_games: u64, extra: &[&str]) -> (u64, Value) {
    let module = build::game_module(package).unwrap();
    let out = tempfile::tempdir().unwrap();
    let max = max_games.to_string();
    let mut args = vec![
        "match",
        module.to_str().unwrap(),
        "builtin:1",
        "builtin:random",
        "--config",
        config,
        "--sprt",
        test,
        "--max-games",
        &max,
        "-o",
        out.path().to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (ok, text) = arbiter(&args);
    assert!(ok, "{package}: {text}");
    let played = games_played(&text) as u64;
    assert!(played % 2 == 0 && played <= max_games, "{package}: {text}");
    let summary: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("summary.json")).unwrap()).unwrap();
    let s = &summary["sprt"];
    assert_eq!(
        s["pairs"].as_u64(),
        Some(played / 2),
        "{package}: {summary}"
    );
    let counted: u64 = s["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_u64)
        .sum();
    assert_eq!(counted, played / 2, "{package}: every pair counted once");
    let said = match s["decision"].as_str() {
        Some("H1") => text.contains("decision: H1 accepted"),
        Some("H0") => text.contains("decision: H0 accepted"),
        Some("none") => played == max_games && text.contains("stopped at --max-games"),
        _ => false,
    };
    assert!(said, "{package}: {summary}\n{text}");
    let games = summary["games"].as_array().unwrap();
    assert_eq!(games.len() as u64, played, "{package}: {summary}");
    for g in games {
        assert_eq!(g["reason_code"], "normal", "{package}: {g}");
    }
    assert!(out.path().join(format!("game-{played:04}.json")).exists());
    (played, summary)
}

/// An SPRT on each of the other proof games: Monte Carlo's first rung against random moves,
/// in whole pairs. The bounds are wide, so that the few pairs a test here can afford decide:
/// on small boards the rung is far stronger than random, and H1 must come before the limit
/// (measured over seeds 1 to 6: Connect6 7 x 7 at 400 Elo in 10 to 14 games, Dots and
/// Boxes 2 x 2 at 200 in 14 to 32, Einstein at 200 in 14 to 24; the seeds below are fixed so
/// that each run plays the same games). Amazons' Monte Carlo is bounded by its clock and a
/// game of it takes seconds: one pair, which cannot decide, stops at the limit.
#[test]
fn an_sprt_decides_on_every_proof_game() {
    for (package, config, test, max, extra, want) in [
        (
            "game-amazons",
            "{}",
            "elo0=0,elo1=200",
            2,
            &["--move-time", "400", "--seed", "1"][..],
            "none",
        ),
        (
            "game-connect6",
            r#"{"size": 7}"#,
            "elo0=0,elo1=400",
            40,
            &["--seed", "3"][..],
            "H1",
        ),
        (
            "game-dots-and-boxes",
            r#"{"cols": 2, "rows": 2}"#,
            "elo0=0,elo1=200",
            40,
            &["--seed", "2"][..],
            "H1",
        ),
        (
            "game-einstein",
            "{}",
            "elo0=0,elo1=200",
            40,
            &["--seed", "2"][..],
            "H1",
        ),
    ] {
        let t0 = std::time::Instant::now();
        let (played, summary) = sprt(package, config, test, max, extra);
        assert_eq!(summary["sprt"]["decision"], want, "{package}: {summary}");
        eprintln!(
            "{package}: {want} after {played} games in {:.1?}",
            t0.elapsed()
        );
    }
}

#[test]
fn einstein_passes_the_check_and_counts_its_dice_tree() {
    let module = build::game_module("game-einstein").unwrap();
    let m = module.to_str().unwrap();
    for config in ["{}", r#"{"arrangement": "seed"}"#] {
        let (ok, text) = arbiter(&["game", "check", m, "--config", config]);
        assert!(ok && text.contains("ok: 20 random playouts"), "{text}");
    }
    // Seed 0 rolls 2, 1, 2, 5, 2, 1: the crate's tests count this against an enumerator of
    // their own.
    let (ok, text) = arbiter(&["game", "perft", m, "--depth", "6", "--seed", "0"]);
    assert!(ok && text.contains("perft(6) = 1062"), "{text}");
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--games",
        "2",
        "--seed",
        "3",
    ]);
    assert!(ok && text.contains("game 2/2: builtin-random-b"), "{text}");
}

#[test]
fn a_broken_module_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nonsense.wasm");
    std::fs::write(&path, b"\0asm\x01\0\0\0garbage").unwrap();
    let (ok, text) = arbiter(&["game", "check", path.to_str().unwrap()]);
    assert!(
        !ok && text.contains("game module nonsense.wasm is not a valid wasm module"),
        "{text}"
    );
}

#[test]
fn game_new_writes_a_crate() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, text) = arbiter(&[
        "game",
        "new",
        "tic-tac",
        "--dir",
        dir.path().to_str().unwrap(),
    ]);
    assert!(ok && text.contains("wrote"), "{text}");
    let lib = std::fs::read_to_string(dir.path().join("tic-tac/src/lib.rs")).unwrap();
    assert!(lib.contains("pub struct TicTac") && lib.contains("export_game!(TicTac)"));
    let (ok, text) = arbiter(&[
        "game",
        "new",
        "tic-tac",
        "--dir",
        dir.path().to_str().unwrap(),
    ]);
    assert!(!ok && text.contains("exists already"), "{text}");
}

/// How docs/game-kit.md compiles the C module, word for word.
const CLANG: [&str; 7] = [
    "--target=wasm32",
    "-O2",
    "-nostdlib",
    "-Wall",
    "-Wextra",
    "-Wl,--no-entry",
    "-o",
];

/// Compiles games/c-nim/nim.c with the command docs/game-kit.md gives; `None` (a skip) when
/// clang is not installed, unless scripts/test.sh, which installs it, says it must be.
fn c_nim(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    let src = build::workspace_root().join("games/c-nim/nim.c");
    let wasm = dir.join("c-nim.wasm");
    let out = Command::new("clang")
        .args(CLANG)
        .arg(&wasm)
        .arg(&src)
        .output();
    let out = match out {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let required = std::env::var("ARBITER_REQUIRE_CLANG").as_deref() == Ok("1");
            assert!(
                !required,
                "ARBITER_REQUIRE_CLANG=1 but clang is not installed"
            );
            eprintln!(
                "SKIPPED: clang is not installed, so the C game module cannot be built \
                 (scripts/test.sh installs Debian's clang and lld)"
            );
            return None;
        }
        other => other.expect("clang runs"),
    };
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "clang failed (is Debian's lld, which has wasm-ld, installed?):\n{said}"
    );
    assert!(
        said.trim().is_empty(),
        "nim.c compiles without warnings:\n{said}"
    );
    Some(wasm)
}

#[test]
fn a_module_written_in_c_passes_the_check_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let Some(wasm) = c_nim(dir.path()) else {
        return;
    };
    let m = wasm.to_str().unwrap();
    let (ok, text) = arbiter(&["game", "check", m]);
    assert!(
        ok && text.contains("c-nim 1.0.0 (ABI 1, 2 seats)") && text.contains("ok: 20 random"),
        "{text}"
    );
    let config = r#"{"heaps": [20, 1, 2, 3, 4, 5, 6, 7], "other": [{"x": null}]}"#;
    let (ok, text) = arbiter(&["game", "check", m, "--config", config, "--playouts", "5"]);
    assert!(ok && text.contains("ok: 5 random"), "{text}");
    // 3, 4, 5 stones: 12 moves, then 113, 810, 4338 (counted by a separate enumerator).
    let (ok, text) = arbiter(&["game", "perft", m, "--depth", "4"]);
    assert!(ok && text.contains("perft(4) = 4338"), "{text}");
    let out = dir.path().join("games");
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--games",
        "4",
        "--seed",
        "1",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        ok && text.contains("game 4/4: builtin-random-b") && text.contains("took the last stone"),
        "{text}"
    );
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("game-0001.json")).unwrap()).unwrap();
    assert_eq!(record["game"]["module"]["name"], "c-nim");
    // The Monte Carlo ladder on a module without `playout` plays its playouts ply by ply.
    let out = dir.path().join("mc");
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:2",
        "builtin:random",
        "--games",
        "2",
        "--seed",
        "1",
        "-o",
        out.to_str().unwrap(),
    ]);
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let t = &summary["totals"][0];
    assert!(ok, "{text}");
    assert_eq!(
        t["wins"].as_u64().unwrap() + t["losses"].as_u64().unwrap(),
        2,
        "{text}"
    );
}

/// The C module answers bad requests with `{"error"}` or `{"illegal"}` and keeps working.
#[test]
fn the_c_module_refuses_bad_requests_and_keeps_answering() {
    use arbiter_kit_host::{Bounds, Kit, Rules, WasmKit};
    use serde_json::json;
    let dir = tempfile::tempdir().unwrap();
    let Some(wasm) = c_nim(dir.path()) else {
        return;
    };
    let bytes = std::fs::read(&wasm).unwrap();
    let mut kit = WasmKit::load(&bytes, "c-nim.wasm", Bounds::default()).unwrap();
    let deep = (0..200).fold(json!(1), |v, _| json!([v]));
    let long = "b".repeat(1 << 20);
    for (request, error) in [
        (json!([1, 2]), "not valid JSON"),
        (json!({"op": 5}), "op must be a string"),
        (json!({"state": 1}), "no op"),
        (json!({"op": "fly"}), "unknown op \"fly\""),
        (json!({"op": "status"}), "needs a state"),
        (json!({"op": "status", "state": 9}), "no state 9"),
        (
            json!({"op": "status", "state": -1}),
            "state must be a whole number",
        ),
        (
            json!({"op": "new", "config": {"heaps": [0]}}),
            "heaps must be",
        ),
        (
            json!({"op": "new", "config": {"heaps": []}}),
            "heaps must be",
        ),
        (
            json!({"op": "new", "config": {"heaps": vec![1; 9]}}),
            "heaps must be",
        ),
        (
            json!({"op": "new", "config": 3}),
            "config must be an object",
        ),
        (json!({"op": "new", "seed": 1.5}), "seed must be"),
        (json!({"op": "info", "x": deep}), "not valid JSON"),
    ] {
        let answer = kit.call(&request).unwrap();
        let got = answer["error"].as_str().unwrap_or_default();
        assert!(got.contains(error), "{request}: {answer}");
    }
    // A long unknown field grows the request buffer; the module still answers.
    let answer = kit.call(&json!({"op": "info", "pad": long})).unwrap();
    assert_eq!(answer["ok"]["name"], "c-nim");
    let mut rules = Rules::new(Box::new(kit)).unwrap();
    let s = rules.start(&json!({"heaps": [2, 12]}), 7).unwrap();
    assert_eq!(rules.tell(s, 1).unwrap(), "HEAPS 2 12");
    for (mv, why) in [
        ("c1", "\"c1\" is not a move like b2"),
        ("a3", "\"a3\" takes more stones than the heap has"),
        ("b0", "\"b0\" is not a move"),
        ("b012", "\"b012\" is not a move"),
        ("\"\\\u{e9}", "\"\"\\??\" is not a move"),
        (long.as_str(), "\"bbbbbbbbbbbbbbb\" is not a move"),
    ] {
        let got = rules.play(s, mv).unwrap().unwrap_err();
        assert!(got.starts_with(why), "{mv:?}: {got}");
    }
    assert_eq!(rules.legal(s).unwrap().len(), 14);
    // Without the optional playout: none, not a failure, and the module goes on.
    assert_eq!(rules.playout(s, 3).unwrap(), None);
    rules.play(s, "b12").unwrap().unwrap();
    rules.play(s, "a2").unwrap().unwrap();
    let st = rules.status(s).unwrap();
    let o = st.outcome.unwrap();
    assert_eq!(
        (o.winner(), o.reason.as_str()),
        (Some(1), "second took the last stone")
    );
    assert_eq!(rules.play(s, "a1").unwrap(), Err("the game is over".into()));
    let v = rules.view(s).unwrap();
    assert_eq!((v.board.cols, v.board.rows, v.pieces.len()), (12, 2, 0));
    assert_eq!(v.highlights.len(), 2, "the two stones taken last");
    // Freed handles are reused.
    let c = rules.duplicate(s).unwrap();
    rules.release(c).unwrap();
    assert_eq!(rules.duplicate(s).unwrap(), c);
}

/// docs/game-kit.md's C section is what the tests build: its command, and every line of its
/// excerpt is a line of games/c-nim/nim.c.
#[test]
fn the_c_section_of_the_docs_is_the_tested_code() {
    let root = build::workspace_root();
    let doc = std::fs::read_to_string(root.join("docs/game-kit.md")).unwrap();
    let src = std::fs::read_to_string(root.join("games/c-nim/nim.c")).unwrap();
    let section = &doc[doc.find("### C with clang").unwrap()..];
    let command = format!("clang {} c-nim.wasm games/c-nim/nim.c", CLANG.join(" "));
    assert!(
        section.contains(&command),
        "the docs compile with {command}"
    );
    let excerpt = section.split("```c\n").nth(1).unwrap();
    let excerpt = &excerpt[..excerpt.find("```").unwrap()];
    let lines: std::collections::HashSet<&str> = src.lines().map(str::trim).collect();
    for line in excerpt.lines().map(str::trim).filter(|l| !l.is_empty()) {
        assert!(lines.contains(line), "not in nim.c: {line}");
    }
    assert!(!section.contains("not tested"));
}

/// `--config` gives a module its configuration (with `--size` as `"size"`), is refused when it
/// is not a JSON object or too long, and is refused for a built-in game.
#[test]
fn a_module_match_takes_its_config() {
    let module = build::game_module("game-connect-four").unwrap();
    let m = module.to_str().unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--games",
        "1",
        "--config",
        r#"{"cols": 9, "rows": 7}"#,
        "-o",
        dir,
    ]);
    assert!(ok, "{text}");
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("game-0001.json")).unwrap()).unwrap();
    assert_eq!(
        record["game"]["config"],
        serde_json::json!({"cols": 9, "rows": 7})
    );
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--config",
        "[1]",
    ]);
    assert!(!ok && text.contains("must be a JSON object"), "{text}");
    let long = format!(r#"{{"x": "{}"}}"#, "a".repeat(70_000));
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--config",
        &long,
    ]);
    assert!(!ok && text.contains("at most 65536"), "{text}");
    let (ok, text) = arbiter(&[
        "match",
        "reversi",
        "builtin:random",
        "builtin:random",
        "--config",
        "{}",
    ]);
    assert!(
        !ok && text.contains("--config configures a game module"),
        "{text}"
    );
}

/// The games a match's output says were played: "game 2/6: ..." each; "game 2: voided: ..."
/// (a game the loaded machine spoiled, played again) is not one.
fn games_played(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            l.strip_prefix("game ")
                .and_then(|rest| rest.split_whitespace().next())
                .is_some_and(|n| n.contains('/'))
        })
        .count()
}
