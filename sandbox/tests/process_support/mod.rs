//! Shared helpers of the process-layer tests: compiling the misbehaving bots
//! of `tests/bots/` and scanning `/proc` for leftovers.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use arbiter_sandbox::{BotCommand, Containment, Layer};

/// Path of the compiled bot `name` (from `tests/bots/<name>.c`), compiled once
/// per test binary with `cc -O2`.
pub fn bot(name: &str) -> PathBuf {
    static BUILT: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let built = BUILT.get_or_init(|| Mutex::new(HashMap::new()));
    let mut built = built.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = built.get(name) {
        return p.clone();
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/bots")
        .join(format!("{name}.c"));
    let out_dir = std::env::var_os("ARBITER_TEST_BOT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("bots"));
    std::fs::create_dir_all(&out_dir).expect("create bot dir");
    let out = out_dir.join(name);
    // Compile under a private name, then rename: atomic for concurrent runs.
    let tmp = out_dir.join(format!("{name}.{}.tmp", std::process::id()));
    // Other tests of this binary sweep bots meanwhile; between fork and exec cc holds copies
    // of their pipes and would be taken for an escapee: spawn outside their sweeps.
    let status = arbiter_sandbox::spawn_guarded(
        Command::new("cc")
            .arg("-O2")
            .arg("-pthread")
            .arg("-o")
            .arg(&tmp)
            .arg(&src),
    )
    .and_then(|mut c| c.wait())
    .expect("run cc");
    assert!(status.success(), "cc failed for {}", src.display());
    std::fs::rename(&tmp, &out).expect("rename bot");
    built.insert(name.to_owned(), out.clone());
    out
}

/// A command running the compiled bot with a unique marker in its environment.
pub fn bot_command(name: &str, marker: &str) -> BotCommand {
    BotCommand::new(bot(name)).env("ARBITER_TEST_MARKER", marker)
}

/// A unique marker string for one test.
pub fn marker(test: &str) -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    format!(
        "{test}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// Pids (other than ours) whose environment or command line contains `marker`.
pub fn processes_with(marker: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    let needle = format!("ARBITER_TEST_MARKER={marker}");
    let mut found = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        // Zombies have an empty environ; count them too via the stat state.
        let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let hit = |hay: &[u8]| {
            hay.windows(needle.len()).any(|w| w == needle.as_bytes())
                || hay.windows(marker.len()).any(|w| w == marker.as_bytes())
        };
        if hit(&environ) || hit(&cmdline) {
            found.push(pid);
        }
    }
    found
}

/// Whether a process exists at all (zombie included).
pub fn pid_exists(pid: i32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// The containment probe, once per test binary: every layer but the jail, whose own tests
/// are referee/tests/hostile.rs. These tests watch the bot's processes and files from the
/// host (pids it prints, files it writes in its scratch), which a jail hides on purpose.
pub fn full() -> Containment {
    static C: OnceLock<Containment> = OnceLock::new();
    C.get_or_init(|| {
        let c = Containment::detect().without(Layer::Namespaces);
        for w in c.warnings() {
            eprintln!("{w}");
        }
        c
    })
    .clone()
}

/// Process group, subreaper and rlimits only.
pub fn minimal() -> Containment {
    full()
        .without(Layer::Landlock)
        .without(Layer::Seccomp)
        .without(Layer::Cgroups)
        .without(Layer::Affinity)
}

/// Generous deadline for a loaded 2-core machine.
pub fn soon(secs: u64) -> Instant {
    Instant::now() + Duration::from_secs(secs)
}

/// Polls `f` until it returns true or `budget` runs out.
pub fn eventually(budget: Duration, mut f: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + budget;
    loop {
        if f() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
