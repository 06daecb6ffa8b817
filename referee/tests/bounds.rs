//! Options that make no sense are refused before any game, with the bound named, exit code 2
//! and no panic (issue 24's list).

use std::process::Command;

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// Runs arbiter in `dir`; (exit code, stderr).
fn run(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(ARBITER)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run arbiter");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn refused(dir: &std::path::Path, args: &[&str], says: &str) {
    let (code, err) = run(dir, args);
    assert_eq!(code, Some(2), "{args:?} exited {code:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(err.contains(says), "{args:?} should say {says:?}: {err}");
}

#[test]
fn match_options_that_cannot_work_are_refused_with_their_bound() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let base = [
        "match",
        "reversi",
        "--size",
        "6",
        "builtin:random",
        "builtin:1",
    ];
    let max = u64::MAX.to_string();
    let cases: [(&[&str], &str); 8] = [
        (&["--memory", "1"], "--memory 1: from 16 to 1048576 MB"),
        (&["--memory", "18446744073709551616"], "--memory"),
        (&["--move-time", &max], "at most 86400000 ms"),
        (&["--time-tolerance", &max], "at most 86400000 ms"),
        (&["--handshake-time", &max], "at most 86400000 ms"),
        (&["--game-time", "1"], "--game-time 1: at least 10 ms"),
        (&["--cores", "99999"], "--cores 99999: not a core"),
        (&["--handshake-time", "0"], "at least 10 ms"),
    ];
    for (extra, says) in cases {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        refused(tmp.path(), &args, says);
    }
    refused(
        tmp.path(),
        &["match", "reversi", "builtin:99999", "builtin:1"],
        "the depth is at most 64",
    );
}

#[test]
fn tournament_limits_that_cannot_work_are_refused_with_their_bound() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let config = |limits: &str| {
        format!(
            "name = \"t\"\noutput = \"o\"\n[game]\nname = \"reversi\"\nsize = 6\n[limits]\n{limits}\n\
             [[bots]]\nname = \"a\"\ncommand = \"builtin:random\"\n\
             [[bots]]\nname = \"b\"\ncommand = \"builtin:1\"\n"
        )
    };
    for (limits, says) in [
        (
            "memory_mb = 9223372036854775807",
            "memory_mb = 9223372036854775807: from 16",
        ),
        ("memory_mb = 9223372036854775808", "too large"),
        ("game_ms = 1", "game_ms = 1: at least 10 ms"),
        ("move_ms = 1\nmove_ms = 2", "duplicate key"),
    ] {
        std::fs::write(tmp.path().join("t.toml"), config(limits)).expect("write config");
        refused(tmp.path(), &["tournament", "-q", "t.toml"], says);
    }
}

#[test]
fn saiblo_and_built_in_bot_options_that_cannot_work_are_refused_with_their_bound() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let max = u64::MAX.to_string();
    let judge = ["judge", "--logic", "true", "--ai", "true"];
    let with = |base: &[&'static str], extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        // An AI's message (its log lines with it) of 50 MB: no frame holds it.
        (
            with(&["logic", "reversi"], &["--length", "52428800"]),
            "--length 52428800: from 16 to 1048576 bytes",
        ),
        (
            with(&["logic", "reversi"], &["--length", "0"]),
            "from 16 to",
        ),
        (
            with(&["logic", "reversi"], &["--move-time", &max]),
            "at most 86400000 ms",
        ),
        (
            with(&["logic", "reversi"], &["--game-time", "1"]),
            "--game-time 1: at least 10 ms",
        ),
        (
            with(&["logic", "reversi"], &["--end-state-timeout", &max]),
            "at most 86400000 ms",
        ),
        (
            with(&["bot", "reversi"], &["--move-time", &max]),
            "at most 86400000 ms",
        ),
        (
            with(&["bot", "reversi"], &["--game-time", "1"]),
            "--game-time 1: at least 10 ms",
        ),
        (
            with(&["bot", "reversi"], &["--depth", "99999"]),
            "--depth 99999: at most 64",
        ),
        (with(&judge, &["--memory", "1"]), "--memory 1: from 16"),
        (with(&judge, &["--memory", &max]), "to 1048576 MB"),
        (with(&judge, &["--tolerance", &max]), "--tolerance"),
        (with(&judge, &["--logic-timeout", &max]), "at most 86400 s"),
    ];
    for (args, says) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(tmp.path(), &args, says);
    }
}
