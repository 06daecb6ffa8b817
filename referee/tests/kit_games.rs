//! Module games through the same referee as the built-in games: the C and Python sample bots,
//! the built-in bots, bots that break the protocol, and modules that break.

use std::path::{Path, PathBuf};
use std::process::Command;

use arbiter_kit_host::build;
use serde_json::Value;

use crate::kit_support;
use kit_support::{arbiter, module, replay};

fn c_bot(dir: &Path) -> String {
    let bin = dir.join("kit_random");
    let src = build::workspace_root().join("bots/c/kit_random.c");
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&bin)
        .arg(&src)
        .status()
        .unwrap()
        .success();
    assert!(ok, "the C sample bot compiles");
    bin.display().to_string()
}

fn python_bot() -> String {
    let path: PathBuf = build::workspace_root().join("bots/python/kit_random.py");
    format!("python3 {}", path.display())
}

/// Plays `games` games into `dir` and returns the output.
fn play(m: &str, a: &str, b: &str, extra: &[&str], dir: &Path) -> String {
    let (ok, text) = play_status(m, a, b, extra, dir);
    assert!(ok, "{text}");
    text
}

/// [`play`] with the exit status: a match whose every game has no result fails.
fn play_status(m: &str, a: &str, b: &str, extra: &[&str], dir: &Path) -> (bool, String) {
    let mut args = vec!["match", m, a, b, "-o", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    arbiter(&args)
}

#[test]
fn the_sample_bots_play_every_proof_game() {
    let tmp = tempfile::tempdir().unwrap();
    let c = c_bot(tmp.path());
    let py = python_bot();
    for (package, config) in [
        ("game-connect-four", "{}"),
        ("game-amazons", "{}"),
        ("game-connect6", r#"{"size": 9}"#),
        ("game-dots-and-boxes", r#"{"cols": 3, "rows": 3}"#),
        ("game-einstein", "{}"),
    ] {
        let dir = tmp.path().join(package);
        let m = module(package);
        play(
            &m,
            &c,
            &py,
            &["--games", "2", "--config", config, "--seed", "7"],
            &dir,
        );
        for n in [1, 2] {
            let r = replay(&dir, n);
            assert_eq!(
                r["result"]["reason"]["kind"], "normal",
                "{package}: {}",
                r["result"]
            );
            assert!(
                r["meta"]["ending"].as_str().is_some(),
                "{package}: the module's words"
            );
            let logs: Vec<&str> = r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|m| m["log"].as_str())
                .collect();
            assert!(
                logs.iter().any(|l| l.contains("legal moves")),
                "{package}: DEBUG lines are kept"
            );
        }
    }
}

#[test]
fn a_seeded_match_of_builtin_bots_plays_again_move_for_move() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-einstein");
    let moves = |dir: &Path| {
        play(
            &m,
            "builtin:random",
            "builtin:1",
            &["--games", "2", "--seed", "5"],
            dir,
        );
        [
            replay(dir, 1)["moves"].clone(),
            replay(dir, 2)["moves"].clone(),
        ]
        .map(|ms| {
            ms.as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].clone())
                .collect::<Vec<_>>()
        })
    };
    let one = moves(&tmp.path().join("one"));
    let two = moves(&tmp.path().join("two"));
    assert!(!one[0].is_empty());
    assert_eq!(one, two);
    // Both games of a pair roll the same dice (one seed), colours swapped.
    let dir = tmp.path().join("one");
    assert_eq!(
        replay(&dir, 1)["game"]["seed"],
        replay(&dir, 2)["game"]["seed"]
    );
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("python3 {}", path.display())
}

#[test]
fn broken_bots_lose_with_the_referees_verdicts() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-connect-four");
    let head = "import sys\nfor line in sys.stdin:\n    w = line.split()\n    if w and w[0] == 'START': print('OK', flush=True)\n";
    let cases = [
        (
            "illegal",
            "    if w and w[0] == 'TURN': print('z', flush=True)\n",
            "illegal_move",
        ),
        (
            "slow",
            "    if w and w[0] == 'TURN':\n        import time; time.sleep(5)\n",
            "move_time",
        ),
        (
            "crash",
            "    if w and w[0] == 'TURN': sys.exit(3)\n",
            "crash",
        ),
        (
            "chatty",
            "    if w and w[0] == 'TURN': print('a\\na', flush=True)\n",
            "out_of_turn",
        ),
    ];
    for (name, tail, kind) in cases {
        let bot = script(tmp.path(), &format!("{name}.py"), &format!("{head}{tail}"));
        let dir = tmp.path().join(name);
        play(
            &m,
            &bot,
            "builtin:random",
            &["--games", "1", "--move-time", "700"],
            &dir,
        );
        let r = replay(&dir, 1);
        assert_eq!(
            r["result"]["reason"]["kind"], kind,
            "{name}: {}",
            r["result"]
        );
        assert_eq!(r["result"]["winner"], 1, "{name}");
    }
}

#[test]
fn the_builtin_ladder_climbs() {
    let tmp = tempfile::tempdir().unwrap();
    for (package, config, games) in [
        ("game-connect-four", "{}", "8"),
        ("game-dots-and-boxes", r#"{"cols": 3, "rows": 3}"#, "6"),
    ] {
        let m = module(package);
        let dir = tmp.path().join(package);
        let args = ["--games", games, "--config", config, "--seed", "3"];
        play(&m, "builtin:2", "builtin:random", &args, &dir);
        let summary: Value =
            serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
        let wins = summary["totals"][0]["wins"].as_u64().unwrap();
        let total: u64 = games.parse().unwrap();
        assert!(
            wins + 1 >= total,
            "{package}: builtin:2 won {wins} of {total}: {summary}"
        );
    }
}

/// A module that breaks in the middle of a game (trap, endless loop, endless allocation, a
/// move it lists but refuses, a move too long to carry) ends the game with no result, naming
/// the module: never a verdict against a bot.
#[test]
fn a_module_that_breaks_mid_game_is_no_result() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-broken");
    for (fail, words) in [
        ("trap", "trapped"),
        ("loop", "ran out of fuel"),
        ("alloc", "past the limit"),
        ("liar", "which it lists as legal"),
        ("long", "at most 32 bytes"),
    ] {
        let dir = tmp.path().join(fail);
        // Past the conformance check's seeds: the match accepts the module and meets the
        // fault mid-game (the check refuses it at once otherwise: below).
        let config = format!(r#"{{"fail": "{fail}", "at": 3, "min_seed": 1000}}"#);
        for bot in ["builtin:random", "builtin:1"] {
            let (ok, text) = play_status(
                &m,
                bot,
                &python_bot(),
                // Generous clocks: on a loaded machine a late bot would decide the game
                // before the module's fault at ply 3.
                &[
                    "--games",
                    "1",
                    "--config",
                    &config,
                    "--seed",
                    "5000",
                    "--move-time",
                    "20000",
                    "--handshake-time",
                    "60000",
                ],
                &dir,
            );
            // Nothing was decided: a script must not read it as success.
            assert!(
                !ok && text.contains("none of the 1 games produced a result"),
                "{text}"
            );
            let r = replay(&dir, 1);
            assert_eq!(
                r["result"]["reason"]["kind"], "aborted",
                "{fail} {bot}: {text}"
            );
            assert_eq!(r["result"]["winner"], Value::Null, "{fail}");
            let message = r["result"]["reason"]["message"].as_str().unwrap();
            assert!(
                message.contains("game_broken.wasm") && message.contains(words),
                "{fail}: {message}"
            );
            // A failure inside the module names the request it was answering.
            if matches!(fail, "trap" | "loop" | "alloc") {
                assert!(message.contains(r#""op":"play""#), "{fail}: {message}");
            }
            // Said as no result, and counted as neither a win nor a draw.
            assert!(text.contains(": no result, aborted"), "{fail}: {text}");
            assert!(
                text.contains("1 game(s) with no result (aborted)"),
                "{fail}: {text}"
            );
            let summary: Value =
                serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
            for t in summary["totals"].as_array().unwrap() {
                assert_eq!(
                    (&t["draws"], &t["no_result"]),
                    (&0.into(), &1.into()),
                    "{fail}"
                );
            }
        }
    }
}

/// What `game check` refuses, `match` refuses before any game, with the check's words and a
/// failing exit status.
#[test]
fn match_refuses_a_module_the_check_refuses() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-broken");
    let config = r#"{"fail": "trap", "at": 3}"#;
    let out = tmp.path().to_str().unwrap();
    let (ok, text) = arbiter(&[
        "match",
        &m,
        "builtin:random",
        "builtin:random",
        "--config",
        config,
        "-o",
        out,
    ]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("failed the conformance check") && text.contains("trapped"),
        "{text}"
    );
    assert!(
        !tmp.path().join("game-0001.json").exists(),
        "no game was played"
    );
    let (ok, check) = arbiter(&["game", "check", &m, "--config", config]);
    assert!(!ok && check.contains("trapped"), "{check}");
}

/// An SPRT leaves out a pair with a game of no result: a pair is only fair whole, and a
/// module's failure is neither bot's draw.
#[test]
fn an_sprt_counts_no_pair_with_a_game_of_no_result() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-broken");
    let config = r#"{"fail": "trap", "at": 3, "min_seed": 1000}"#;
    let args = [
        "--seed",
        "5000",
        "--config",
        config,
        "--sprt",
        "elo0=0,elo1=100",
        "--max-games",
        "4",
    ];
    let (ok, text) = play_status(&m, "builtin:random", "builtin:random", &args, tmp.path());
    assert!(!ok, "no game had a result: {text}");
    assert!(text.contains("2 pair(s) not counted"), "{text}");
    assert!(text.contains("pairs 0:"), "{text}");
    let summary: Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["sprt"]["void_pairs"], 2, "{summary}");
}

#[test]
fn a_replay_without_its_module_says_what_is_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-connect-four");
    play(
        &m,
        "builtin:random",
        "builtin:random",
        &["--games", "1"],
        tmp.path(),
    );
    let mut r = replay(tmp.path(), 1);
    r.as_object_mut().unwrap().remove("module_wasm");
    let bare = tmp.path().join("bare.json");
    std::fs::write(&bare, r.to_string()).unwrap();
    let (ok, text) = arbiter(&["replay", "show", bare.to_str().unwrap()]);
    assert!(!ok && text.contains("does not carry it"), "{text}");
    // Given with --module, or found where a report or a contest export puts it.
    let named = r["game"]["module"]["sha256"].as_str().unwrap().to_string();
    let (ok, text) = arbiter(&["replay", "show", bare.to_str().unwrap(), "--module", &m]);
    assert!(ok && text.contains("connect-four"), "{text}");
    let wrong = module("game-amazons");
    let (ok, text) = arbiter(&["replay", "show", bare.to_str().unwrap(), "--module", &wrong]);
    assert!(
        !ok && text.contains("is not the game module") && text.contains("amazons"),
        "{text}"
    );
    let export = tmp.path().join("export");
    std::fs::create_dir_all(export.join("games")).unwrap();
    std::fs::create_dir_all(export.join("modules")).unwrap();
    std::fs::copy(&m, export.join(format!("modules/{named}.wasm"))).unwrap();
    let inside = export.join("games/game-1.json");
    std::fs::copy(&bare, &inside).unwrap();
    let (ok, text) = arbiter(&[
        "replay",
        "show",
        inside.to_str().unwrap(),
        "--frame",
        "last",
    ]);
    assert!(ok && text.contains("connect-four"), "{text}");
    // A module that is not the one named is refused.
    let other = std::fs::read(module("game-amazons")).unwrap();
    use base64::Engine as _;
    r["module_wasm"] = base64::engine::general_purpose::STANDARD
        .encode(other)
        .into();
    std::fs::write(&bare, r.to_string()).unwrap();
    let (ok, text) = arbiter(&["replay", "show", bare.to_str().unwrap()]);
    assert!(!ok && text.contains("not the one its game names"), "{text}");
}

/// `arbiter logic GAME.wasm` serves any module game to a Saiblo judger (ours here), with AIs
/// on Saiblo's framing (`bots/saiblo/kit_bot.py`); the seed comes from the judger's init.
#[test]
fn a_module_game_under_a_saiblo_judger() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-dots-and-boxes");
    let exe = env!("CARGO_BIN_EXE_arbiter");
    let logic = format!("{exe} logic {m} --config '{{\"cols\": 2, \"rows\": 2}}'");
    let ai = |seed: u32| {
        let path = build::workspace_root().join("bots/saiblo/kit_bot.py");
        format!("python3 {} {seed}", path.display())
    };
    let replay = tmp.path().join("saiblo.json");
    let (ok, text) = arbiter(&[
        "judge",
        "--json",
        "--logic",
        &logic,
        "--ai",
        &ai(1),
        "--ai",
        &ai(2),
        "--config",
        r#"{"random_seed": 9}"#,
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let out: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(out["end_state"], serde_json::json!(["OK", "OK"]), "{text}");
    let r: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    assert_eq!(r["game"]["module"]["name"], "dots-and-boxes");
    assert_eq!(r["game"]["seed"], 9);
    assert_eq!(
        r["game"]["config"],
        serde_json::json!({"cols": 2, "rows": 2})
    );
    assert_eq!(r["result"]["reason"]["kind"], "normal");
    // 2 x 2 boxes have 12 edges: every one is drawn before the end.
    assert_eq!(r["moves"].as_array().map(Vec::len), Some(12));
    assert!(r["meta"]["ending"].as_str().is_some());
}

/// A player's bot learns the game and its configuration, never the seed of its chance (it
/// would know every future die); arbiter's own bots get it, to keep their copy in step.
#[test]
fn a_bot_is_not_told_the_seed_of_the_dice() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-einstein");
    let body = "import os, sys\nfor line in sys.stdin:\n    w = line.split()\n    if w and w[0] == 'START': print('OK', flush=True)\n    if w and w[0] == 'LEGAL': legal = w[1:]\n    if w and w[0] == 'TURN':\n        print('DEBUG game=%s config=%s seed=%s' % (os.environ.get('ARBITER_GAME'), os.environ.get('ARBITER_GAME_CONFIG'), os.environ.get('ARBITER_GAME_SEED')), flush=True)\n        print(legal[0], flush=True)\n";
    let bot = script(tmp.path(), "env.py", body);
    play(
        &m,
        &bot,
        "builtin:1",
        &["--games", "1", "--seed", "11"],
        tmp.path(),
    );
    let r = replay(tmp.path(), 1);
    let log = r["moves"][0]["log"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(log.contains("game=einstein config={}"), "{log}");
    assert!(log.contains("seed=None"), "{log}");
    // builtin:1 followed the dice with the seed it was given: the game ended normally.
    assert_eq!(r["result"]["reason"]["kind"], "normal", "{}", r["result"]);
}
