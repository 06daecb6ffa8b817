//! Builds a game crate of this workspace into its module (for tests and `arbiter game`):
//! `cargo build --release --target wasm32-unknown-unknown` in a target directory of its own, so
//! that it never waits on the lock of the cargo that runs the tests.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use crate::KitError;

/// One build at a time from this process; cargo's lock orders builds across processes.
static BUILDING: Mutex<()> = Mutex::new(());

/// The workspace root (where `games/` lives).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Builds the crate `package` (such as `game-connect-four`) of this workspace and returns its
/// module's path.
pub fn game_module(package: &str) -> Result<PathBuf, KitError> {
    let root = workspace_root();
    crate_module(&root, package, &root.join("target").join("kit-wasm"))
}

/// Builds the crate `package` of the workspace at `dir` into `target`.
pub fn crate_module(dir: &Path, package: &str, target: &Path) -> Result<PathBuf, KitError> {
    let _one = BUILDING.lock().unwrap_or_else(|p| p.into_inner());
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(dir)
        .args([
            "build",
            "--quiet",
            "--release",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .args(["-p", package, "--target-dir"])
        .arg(target)
        // Line tables would make a module ten times larger; a module needs no debug info.
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("CARGO_PROFILE_RELEASE_STRIP", "debuginfo")
        .output()
        .map_err(|e| KitError::Host(format!("cannot run cargo to build {package}: {e}")))?;
    if !out.status.success() {
        return Err(KitError::Host(format!(
            "building {package} for wasm32-unknown-unknown failed (is the target installed? \
             scripts/setup.sh adds it):\n{}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let file = format!("{}.wasm", package.replace('-', "_"));
    Ok(target
        .join("wasm32-unknown-unknown")
        .join("release")
        .join(file))
}
