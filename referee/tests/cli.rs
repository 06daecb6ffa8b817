//! The command line as a shell user meets it: pipes that close early and bad input end with a
//! clear message and an exit code, never a panic's backtrace.

use std::io::Read;
use std::process::{Command, Stdio};

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

/// A 16 x 16 replay, whose `replay show` prints far more than a pipe holds.
fn long_replay(dir: &std::path::Path) -> std::path::PathBuf {
    let status = arbiter()
        .args([
            "match",
            "reversi",
            "builtin:1",
            "builtin:random",
            "-n",
            "1",
            "-q",
            "-o",
        ])
        .arg(dir)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    dir.join("game-0001.json")
}

#[test]
fn a_reader_that_stops_early_ends_output_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let replay = long_replay(dir.path());
    let mut child = arbiter()
        .args(["replay", "show"])
        .arg(&replay)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one chunk, then close the pipe as `| head -1` does.
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    let n = out.read(&mut first).unwrap();
    assert!(n > 0);
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(status.code(), Some(141), "{err}");
}

#[test]
fn bad_files_get_an_error_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let not_json = dir.path().join("notes.txt");
    std::fs::write(&not_json, "hello").unwrap();
    let out = arbiter()
        .args(["replay", "show"])
        .arg(&not_json)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let missing = dir.path().join("missing.json");
    let out = arbiter()
        .args(["replay", "show"])
        .arg(&missing)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.json"), "{err}");
}

/// Runs arbiter with `args` and returns (exit code, stderr); a run that does not end within
/// `patience` is killed and fails the test (the inputs below used to hang or eat memory).
fn run_ending(args: &[&str], patience: std::time::Duration) -> (Option<i32>, String) {
    let mut child = arbiter()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            eprintln!("{args:?}: {:?}", started.elapsed());
            return (status.code(), err);
        }
        if started.elapsed() > patience {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after {patience:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn endless_or_huge_inputs_end_with_the_limit_named() {
    // Far more than the second it takes, for a debug build on a busy machine.
    let patience = std::time::Duration::from_secs(20);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    for (args, limit) in [
        (
            vec!["replay", "show", "/dev/zero"],
            "size limit for a replay file",
        ),
        (
            vec!["replay", "show", "/dev/urandom"],
            "size limit for a replay file",
        ),
        (
            vec!["import", "sessdsa", "/dev/zero", "-o", out],
            "size limit for a sessdsa record file",
        ),
        (
            vec!["import", "sessdsa", "/dev/urandom", "-o", out],
            "size limit for a sessdsa record file",
        ),
        (
            vec!["import", "gobang", "/dev/zero", "-o", out],
            "size limit for a Gobang bridge log",
        ),
        (
            vec!["import", "gobang", "/dev/urandom", "-o", out],
            "size limit for a Gobang bridge log",
        ),
    ] {
        let (code, err) = run_ending(&args, patience);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(limit), "{args:?}: {err}");
    }
    // A schedule of 2^62 games per pairing is refused before anything is stored.
    let config = dir.path().join("huge.toml");
    std::fs::write(
        &config,
        "games_per_pairing = 4611686018427387904\n[game]\nname = \"reversi\"\n\
         [[bots]]\nname = \"a\"\ncommand = \"builtin\"\n[[bots]]\nname = \"b\"\ncommand = \"builtin:random\"\n",
    )
    .unwrap();
    let (code, err) = run_ending(&["tournament", config.to_str().unwrap()], patience);
    assert_ne!(code, Some(0), "{err}");
    assert!(
        err.contains("games_per_pairing = 4611686018427387904: more than the limit of 100000"),
        "{err}"
    );
    // Many bots with many games each: the whole schedule's size is bounded too.
    let mut text = String::from("games_per_pairing = 100000\n[game]\nname = \"reversi\"\n");
    for i in 0..40 {
        text.push_str(&format!(
            "[[bots]]\nname = \"b{i}\"\ncommand = \"builtin\"\n"
        ));
    }
    std::fs::write(&config, text).unwrap();
    let (code, err) = run_ending(&["tournament", config.to_str().unwrap()], patience);
    assert_ne!(code, Some(0), "{err}");
    assert!(
        err.contains("the schedule would hold 78000000 games (780 pairings x 1 leg(s)"),
        "{err}"
    );
    assert!(
        err.contains("more than the limit of 1000000 games"),
        "{err}"
    );
    let (code, err) = run_ending(
        &[
            "match",
            "reversi",
            "builtin",
            "builtin",
            "--games",
            "4611686018427387904",
        ],
        patience,
    );
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("more than the limit of 100000 games"), "{err}");
}

/// A bot that cannot start is reported once, before any game, with what was probably meant,
/// and the match exits non-zero; an unknown game name is refused.
#[test]
fn a_bot_that_cannot_start_stops_the_match_before_the_first_game() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("my_bot");
    std::fs::write(&bot, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = dir.path().join("plain.py");
    std::fs::write(&script, "print('hi')\n").unwrap();
    let run = |a: &str| {
        let out = arbiter()
            .current_dir(dir.path())
            .args(["match", "reversi", a, "builtin", "-n", "3"])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    for (command, says) in [
        (
            "my_bot",
            "cannot start my_bot: no such program on PATH (did you mean ./my_bot?)",
        ),
        ("./missing_bot", "cannot start ./missing_bot: no such file"),
        (
            "./plain.py",
            "cannot start ./plain.py: it is not executable (did you mean python3 ./plain.py?)",
        ),
        (
            "python3 -u missing.py",
            "python3 would not find missing.py: no such file",
        ),
    ] {
        let (code, err) = run(command);
        assert_eq!(code, Some(2), "{command}: {err}");
        assert!(err.contains(says), "{command}: {err}");
        assert_eq!(
            err.matches("cannot start")
                .count()
                .max(err.matches("would not find").count()),
            1,
            "{err}"
        );
        assert!(
            !err.contains("game 1/"),
            "{command}: games were played: {err}"
        );
    }
    let out = arbiter()
        .args(["match", "othello", "builtin", "builtin", "-n", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("unknown game \"othello\""), "{err}");
}

#[test]
fn the_gomocup_renju_reading_is_a_rule_option() {
    // docs/rules.md's worked position: H8 is a double-three under RIF only.
    let moves = "H10 A1 H9 A15 I7 O1 I6 O15 I5 A8 I4 O8 J8 C15 K8 I3";
    let inspect = |rule: &str| {
        let out = arbiter()
            .args(["inspect", "gomoku", "--rule", rule, "--moves", moves])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(inspect("renju").contains("forbidden for black (1): H8 double-three"));
    assert!(!inspect("renju-gomocup").contains("forbidden for black"));
    // Matches write the rule into every replay, and the replays read back.
    let dir = tempfile::tempdir().unwrap();
    let status = arbiter()
        .args(["match", "gomoku", "--rule", "renju-gomocup", "builtin:1"])
        .args(["builtin:random", "-n", "2", "-q", "-o"])
        .arg(dir.path())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    for game in ["game-0001.json", "game-0002.json"] {
        let text = std::fs::read_to_string(dir.path().join(game)).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["game"]["rule"], "renju-gomocup", "{text}");
        let out = arbiter()
            .args(["replay", "show"])
            .arg(dir.path().join(game))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
}

/// The moves and seed of each game of `arbiter match GAME builtin:random builtin:random`.
fn random_match(game: &[&str], seed: Option<&str>) -> (Vec<(Vec<String>, u64)>, u64) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = arbiter();
    cmd.arg("match")
        .args(game)
        .args(["builtin:random", "builtin:random", "-n", "6", "-q", "-o"])
        .arg(dir.path());
    if let Some(seed) = seed {
        cmd.args(["--seed", seed]);
    }
    let status = cmd.stdout(Stdio::null()).status().unwrap();
    assert!(status.success());
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(name)).unwrap()).unwrap()
    };
    let games = (1..=6)
        .map(|i| {
            let replay = read(&format!("game-{i:04}.json"));
            let moves = replay["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].as_str().unwrap().to_string())
                .collect();
            (moves, replay["meta"]["seed"].as_u64().expect("meta.seed"))
        })
        .collect();
    (games, read("summary.json")["seed"].as_u64().unwrap())
}

#[test]
fn builtin_random_plays_a_new_game_each_time_and_seed_plays_the_match_again() {
    for game in [
        &["reversi", "--size", "6"][..],
        &["gomoku", "--size", "7"],
        &["duel2048", "--rounds", "30"],
    ] {
        let (first, seed) = random_match(game, Some("11"));
        assert_eq!(seed, 11);
        for (i, a) in first.iter().enumerate() {
            for b in &first[i + 1..] {
                assert_ne!(a, b, "{game:?}: two games of one match are the same game");
            }
        }
        // The same seed, the same match, move for move; another seed, other games.
        let (again, _) = random_match(game, Some("11"));
        assert_eq!(first, again, "{game:?}");
        let (other, _) = random_match(game, Some("12"));
        assert_ne!(first[0].0, other[0].0, "{game:?}");
        // Without --seed, the match draws a seed and says which, so it can be played again.
        let (drawn, seed) = random_match(game, None);
        assert_ne!(seed, 11);
        assert_eq!(
            drawn,
            random_match(game, Some(&seed.to_string())).0,
            "{game:?}"
        );
    }
}
