//! "Why did my bot lose?": for every kind of failure, played by real misbehaving processes
//! (`scripts/failure-replays.sh` with the bots of `tests/bots/`), the replay keeps what the
//! bot did (its line, its DEBUG text, its stderr tail, how its process ended and who ended it)
//! and `arbiter replay show --frame fail --log` prints it.

use std::path::Path;
use std::process::Command;

use arbiter_engine::replay::{Killer, Replay};
use arbiter_engine::Seat;

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

/// Runs the generator the web tests can reuse; returns its output directory.
fn failure_replays() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/failure-replays.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg(dir.path())
        .env("ARBITER", env!("CARGO_BIN_EXE_arbiter"))
        .output()
        .expect("bash runs the generator");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

fn read(dir: &Path, name: &str) -> Replay {
    let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
    // Every replay reads back strictly, moves and result checked by the engine.
    Replay::read(&text)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .0
}

/// `arbiter replay show FILE --frame fail --log`, which must succeed.
fn show_fail(dir: &Path, name: &str) -> String {
    let out = arbiter()
        .args(["replay", "show", "--frame", "fail", "--log"])
        .arg(dir.join(format!("{name}.json")))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{name}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn every_failure_is_explained_in_the_replay_and_by_replay_show() {
    let dir = failure_replays();
    let dir = dir.path();

    // An occupied square, after a DEBUG line: the verdict quotes the line, the DEBUG line stays.
    let r = read(dir, "illegal");
    assert_eq!(
        r.result.reason.to_string(),
        "illegal move: you sent \"7 7\" (h8), which is already occupied"
    );
    let f = r.failure.as_ref().expect("a failure record");
    assert_eq!(f.seat, Seat::FIRST);
    assert_eq!(f.log.as_deref(), Some("move 20: oops\n"));
    assert!(f.time_ms.is_some() && f.clock_ms.is_some(), "{f:?}");
    let shown = show_fail(dir, "illegal");
    assert!(shown.contains("it sent: \"7 7\""), "{shown}");
    assert!(shown.contains("    move 20: oops"), "{shown}");
    // --frame fail is the position the bad move was played in: 16 x 16 labels stay apart.
    assert!(
        shown.contains(&format!("frame {}:", r.moves.len())),
        "{shown}"
    );
    assert!(shown.contains(" 9 10 11 12 13 14 15\n"), "{shown}");

    let shown = show_fail(dir, "malformed");
    assert!(shown.contains("it sent: \"move e5 please\""), "{shown}");

    // A Python bot's ValueError: the whole traceback, and the DEBUG line before it.
    let r = read(dir, "traceback");
    assert_eq!(r.result.reason.to_string(), "crashed (exit code 1)");
    let f = r.failure.as_ref().expect("a failure record");
    let stderr = f.stderr.as_deref().expect("the stderr tail");
    assert!(
        stderr.starts_with("Traceback (most recent call last):"),
        "{stderr}"
    );
    assert!(stderr.contains("in parse_square"), "{stderr}");
    assert!(
        stderr.ends_with("ValueError: invalid literal for int() with base 10: 'e'"),
        "{stderr}"
    );
    assert_eq!(f.exit.as_ref().and_then(|e| e.code), Some(1));
    let shown = show_fail(dir, "traceback");
    assert!(
        shown.contains("    turn 4: reading my opening book"),
        "{shown}"
    );
    assert!(
        shown.contains("    Traceback (most recent call last):"),
        "{shown}"
    );
    assert!(shown.contains("    ValueError: invalid literal"), "{shown}");
    assert!(
        shown.contains("its process ended with exit code 1"),
        "{shown}"
    );

    // Who ended the process, and why.
    let cases = [
        (
            "timeout",
            "move_time",
            Killer::Arbiter,
            "signal 9 (SIGKILL), killed by arbiter: move time exceeded",
        ),
        (
            "memory",
            "memory",
            Killer::Arbiter,
            "signal 9 (SIGKILL), killed by arbiter: memory limit",
        ),
        (
            "segfault",
            "crash",
            Killer::Itself,
            "signal 11 (SIGSEGV), from the program itself",
        ),
        (
            "killed",
            "crash",
            Killer::Outside,
            "signal 9 (SIGKILL), sent from outside",
        ),
    ];
    for (name, code, killer, exit_text) in cases {
        let r = read(dir, name);
        assert_eq!(r.result.reason.code(), code, "{name}: {:?}", r.result);
        let exit = r.failure.and_then(|f| f.exit).expect("how it ended");
        assert_eq!(exit.killed_by, Some(killer), "{name}: {exit:?}");
        assert_eq!(exit.to_string(), exit_text, "{name}");
        let shown = show_fail(dir, name);
        assert!(
            shown.contains(&format!("its process ended with {exit_text}\n")),
            "{name}: {shown}"
        );
    }
    let r = read(dir, "timeout");
    let f = r.failure.expect("a failure record");
    assert!(f.time_ms.is_some_and(|t| t >= 300.0), "{f:?}");
}

#[test]
fn frame_choices() {
    let dir = tempfile::tempdir().unwrap();
    let status = arbiter()
        .args([
            "match",
            "reversi",
            "--size",
            "6",
            "builtin:1",
            "builtin:random",
        ])
        .args(["-n", "1", "-q", "-o"])
        .arg(dir.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let replay = dir.path().join("game-0001.json");
    let frames = read(dir.path(), "game-0001").moves.len();
    let show = |frame: &str| {
        arbiter()
            .args(["replay", "show", "--frame", frame])
            .arg(&replay)
            .output()
            .unwrap()
    };
    let last = show("last");
    assert!(last.status.success());
    let text = String::from_utf8_lossy(&last.stdout);
    assert!(text.contains(&format!("\nframe {frames}: ")), "{text}");
    // A normal end has no failure to show: a clear error, not a panic.
    let fail = show("fail");
    let err = String::from_utf8_lossy(&fail.stderr);
    assert_eq!(fail.status.code(), Some(2), "{err}");
    assert!(err.contains("no player failed in this game"), "{err}");
    let bad = show("first");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success());
    assert!(err.contains("give a number"), "{err}");
}
