//! What the game kit's tests share: running the `arbiter` under test, the modules built from
//! the workspace's games, and the replays a match writes.

use std::path::Path;
use std::process::Command;

/// Runs `arbiter ARGS...` to its end: whether it succeeded, and its stdout and stderr.
#[allow(dead_code)]
pub fn arbiter(args: &[&str]) -> (bool, String) {
    run(Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args))
}

/// Runs a command to its end: whether it succeeded, and its stdout and stderr.
pub fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().expect("the command runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// The module of the workspace's game crate `package`, built for the tests.
#[allow(dead_code)]
pub fn module(package: &str) -> String {
    arbiter_kit_host::build::game_module(package)
        .unwrap()
        .to_str()
        .unwrap()
        .to_string()
}

/// Replay `n` (from 1) of a match written to `dir`, as JSON.
#[allow(dead_code)]
pub fn replay(dir: &Path, n: usize) -> serde_json::Value {
    let path = dir.join(format!("game-{n:04}.json"));
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}

/// A kit bot in Python that says every line it was sent as `DEBUG` lines with its next move
/// (the replay keeps them as the move's log), plays a random legal move (from `seed`), and,
/// when `crash_after` is given, exits after that many moves. On plain lines (`arbiter match`)
/// or, with `saiblo`, on Saiblo's framing; either way through bots/saiblo's SDK, copied beside
/// the script (a bot sees its own directory, not the workspace).
#[allow(dead_code)]
pub fn echo_bot(
    dir: &Path,
    name: &str,
    seed: u32,
    crash_after: Option<u32>,
    saiblo: bool,
) -> String {
    let script = dir.join(format!("{name}.py"));
    let crash = crash_after.map_or("None".to_string(), |n| n.to_string());
    let sdk = arbiter_kit_host::build::workspace_root().join("bots/saiblo/saiblo_sdk.py");
    std::fs::copy(sdk, dir.join("saiblo_sdk.py")).unwrap();
    let lines = if saiblo { "Lines" } else { "PlainLines" };
    std::fs::write(
        &script,
        format!(
            r#"import os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import saiblo_sdk
lines = saiblo_sdk.{lines}()
crash, moves, legal, seen = {crash}, 0, [], []
rng = random.Random({seed})
while True:
    line = lines.read_line()
    if line is None:
        break
    seen.append(line)
    words = line.split()
    if not words:
        continue
    if words[0] == "START":
        lines.write_line("OK")
    elif words[0] == "POSITION":
        for _ in range(int(words[1])):
            seen.append("  " + (lines.read_line() or ""))
    elif words[0] == "LEGAL":
        legal = words[1:]
    elif words[0] == "TURN":
        if crash is not None and moves >= crash:
            sys.exit(3)
        for s in seen:
            lines.write_line("DEBUG " + s)
        seen = []
        lines.write_line(rng.choice(legal))
        moves += 1
    elif words[0] == "END":
        break
"#
        ),
    )
    .unwrap();
    format!("python3 {}", script.display())
}
