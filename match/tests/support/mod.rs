//! What the match tests share: a C test bot of tests/bots compiled once per test binary.

#![allow(dead_code)] // each test binary uses its own part of it

use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles `tests/bots/{name}.c` into a directory of this process named after `tag`, and
/// returns the directory (the program is `{dir}/{exe}`). Call it once, from a `OnceLock`.
pub fn compile_bot(tag: &str, name: &str, exe: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory for the test bot");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../tests/bots/{name}.c"));
    // Other tests of the binary sweep bots meanwhile: spawn outside their sweeps.
    let status = arbiter_sandbox::spawn_guarded(
        Command::new("cc")
            .args(["-O2", "-o"])
            .arg(dir.join(exe))
            .arg(&src),
    )
    .and_then(|mut c| c.wait())
    .expect("cc is needed for the match tests");
    assert!(status.success(), "cannot compile {}", src.display());
    dir
}
