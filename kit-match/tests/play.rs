//! Kit games between real bot processes: the C and Python sample bots, builtin:random, and bots
//! that break the protocol.

use std::path::{Path, PathBuf};
use std::time::Duration;

use arbiter_kit_host::{build, sha256_hex, Rules};
use arbiter_kit_match::{play, Clock, ModuleRef, Record, SeatSpec};
use serde_json::json;

fn root() -> PathBuf {
    build::workspace_root()
}

fn load(package: &str) -> (Rules, ModuleRef) {
    let path = build::game_module(package).unwrap();
    let rules = Rules::load(&path).unwrap();
    let m = ModuleRef {
        name: rules.info().name.clone(),
        version: rules.info().version.clone(),
        sha256: sha256_hex(&std::fs::read(&path).unwrap()),
    };
    (rules, m)
}

fn seat(name: &str, command: &str) -> SeatSpec {
    SeatSpec {
        name: name.into(),
        command: command.into(),
        working_dir: None,
    }
}

fn c_bot(dir: &Path) -> String {
    let bin = dir.join("kit_random");
    let src = root().join("bots/c/kit_random.c");
    let ok = std::process::Command::new("cc")
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
    format!(
        "python3 {}",
        root().join("bots/python/kit_random.py").display()
    )
}

fn quick() -> Clock {
    Clock {
        per_move: Duration::from_secs(5),
        ..Clock::default()
    }
}

fn check_finished(r: &Record) {
    assert!(!r.moves.is_empty());
    assert!(
        !r.result.reason.contains("did not") && !r.result.reason.contains("illegal"),
        "{:?}",
        r.result
    );
}

#[test]
fn the_sample_bots_play_every_proof_game() {
    let dir = tempfile::tempdir().unwrap();
    let c = c_bot(dir.path());
    let py = python_bot();
    for (package, config) in [
        ("game-connect-four", json!({})),
        ("game-amazons", json!({})),
        ("game-connect6", json!({"size": 9})),
        ("game-dots-and-boxes", json!({"cols": 3, "rows": 3})),
        ("game-einstein", json!({})),
    ] {
        let (mut rules, m) = load(package);
        let (a, b) = (seat("c", &c), seat("python", &py));
        let r = play(&mut rules, &m, &config, 7, [&a, &b], quick()).unwrap();
        check_finished(&r);
        assert!(
            r.logs[0].contains("legal moves"),
            "DEBUG lines are kept: {:?}",
            r.logs
        );
        let rnd = seat("random", "builtin:random");
        let r = play(&mut rules, &m, &config, 8, [&rnd, &a], quick()).unwrap();
        check_finished(&r);
    }
}

#[test]
fn builtin_random_games_are_reproducible() {
    let (mut rules, m) = load("game-connect-four");
    let rnd = seat("random", "builtin:random");
    let one = play(&mut rules, &m, &json!({}), 3, [&rnd, &rnd], quick()).unwrap();
    let two = play(&mut rules, &m, &json!({}), 3, [&rnd, &rnd], quick()).unwrap();
    assert_eq!(one.moves, two.moves);
    assert_eq!(one.result, two.result);
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("python3 {}", path.display())
}

#[test]
fn broken_bots_lose_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (mut rules, m) = load("game-connect-four");
    let rnd = seat("random", "builtin:random");
    let head = "import sys\nfor line in sys.stdin:\n    w = line.split()\n    if w and w[0] == 'START': print('OK', flush=True)\n";
    let cases = [
        (
            "illegal",
            "    if w and w[0] == 'TURN': print('z', flush=True)\n",
            "illegal move \"z\"",
        ),
        (
            "slow",
            "    if w and w[0] == 'TURN':\n        import time; time.sleep(5)\n",
            "did not answer in time",
        ),
        (
            "crash",
            "    if w and w[0] == 'TURN': sys.exit(3)\n",
            "ended",
        ),
        // Two lines in one write: the second is there before the referee asks again (a line
        // written on PLAYED could still be in flight when the next TURN goes out).
        (
            "chatty",
            "    if w and w[0] == 'TURN': print('a\\na', flush=True)\n",
            "when no answer was expected",
        ),
    ];
    for (name, tail, expected) in cases {
        let bot = seat(
            name,
            &script(dir.path(), &format!("{name}.py"), &format!("{head}{tail}")),
        );
        let clock = Clock {
            per_move: Duration::from_millis(700),
            ..Clock::default()
        };
        let r = play(&mut rules, &m, &json!({}), 1, [&bot, &rnd], clock).unwrap();
        assert_eq!(r.result.winner, Some(1), "{name}: {:?}", r.result);
        assert!(
            r.result.reason.starts_with("first ") && r.result.reason.contains(expected),
            "{name}: {}",
            r.result.reason
        );
    }
    let missing = seat("missing", "/nonexistent/bot");
    let r = play(&mut rules, &m, &json!({}), 1, [&rnd, &missing], quick()).unwrap();
    assert_eq!(r.result.winner, Some(0));
    assert!(
        r.result.reason.contains("did not start"),
        "{}",
        r.result.reason
    );
}

/// Points of `a` against `b` over `games` games, colours alternating.
fn score(
    rules: &mut Rules,
    m: &ModuleRef,
    config: &serde_json::Value,
    a: &str,
    b: &str,
    games: u64,
) -> f64 {
    let (a, b) = (seat("a", a), seat("b", b));
    let mut points = 0.0;
    for g in 0..games {
        let seats = if g % 2 == 0 { [&a, &b] } else { [&b, &a] };
        let r = play(rules, m, config, g, seats, quick()).unwrap();
        points += match r.result.winner {
            None => 0.5,
            Some(w) if seats[w].name == "a" => 1.0,
            Some(_) => 0.0,
        };
    }
    points
}

#[test]
fn the_monte_carlo_ladder_climbs() {
    let (mut rules, m) = load("game-connect-four");
    let config = json!({});
    let over_random = score(
        &mut rules,
        &m,
        &config,
        "builtin:mc:70",
        "builtin:random",
        8,
    );
    assert!(
        over_random >= 7.0,
        "mc:70 scored {over_random}/8 against random"
    );
    let (mut rules, m) = load("game-dots-and-boxes");
    let config = json!({"cols": 3, "rows": 3});
    let over_random = score(
        &mut rules,
        &m,
        &config,
        "builtin:mc:50",
        "builtin:random",
        6,
    );
    assert!(
        over_random >= 5.0,
        "mc:50 scored {over_random}/6 against random at dots and boxes"
    );
    let bad = seat("bad", "builtin:mc:lots");
    let r = play(&mut rules, &m, &config, 1, [&bad, &bad], quick()).unwrap();
    assert!(
        r.result.reason.contains("builtin:mc:N wants"),
        "{}",
        r.result.reason
    );
}
