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
