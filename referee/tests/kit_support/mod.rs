//! What the game kit's tests share: running the `arbiter` under test.

use std::process::Command;

/// Runs `arbiter ARGS...` to its end: whether it succeeded, and its stdout and stderr.
pub fn arbiter(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("arbiter runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}
