//! Real faults for the fault tests (queue/tests/faults.rs, referee/tests/contest_faults.rs,
//! which includes this file by path): SQLite's write lock held by another process, and a
//! tmpfs of the test's own that can be kept full. Mounting needs root.

#![allow(dead_code)] // each test binary uses its own part of it

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// `BEGIN EXCLUSIVE` on the SQLite database at `path` by a Python process for `secs` (as a
/// backup tool or a TA's `sqlite3` session would); returns once it holds the lock.
pub fn hold_sqlite_lock(path: &Path, secs: u64) -> Child {
    let script = "import sqlite3, sys, time\n\
        c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)\n\
        c.execute('BEGIN EXCLUSIVE')\n\
        print('locked', flush=True)\n\
        time.sleep(float(sys.argv[2]))\n\
        c.execute('COMMIT')\n";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .arg(secs.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.as_mut().expect("piped"))
        .read_line(&mut line)
        .expect("python3's answer");
    assert_eq!(line.trim(), "locked");
    child
}

/// Whether this process runs as root (mounting a tmpfs needs it): a test that mounts one
/// skips, saying why, when it does not.
pub fn root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|ids| ids.split_whitespace().nth(1).map(|e| e == "0"))
        })
        .unwrap_or(false)
}

/// A tmpfs mounted at a directory (created if missing), unmounted when dropped.
pub struct Tmpfs(PathBuf);

impl Tmpfs {
    pub fn mount(dir: &Path, options: &str) -> Tmpfs {
        std::fs::create_dir_all(dir).expect("the mount point");
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(dir)
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            ok,
            "mount a tmpfs at {} (the test needs root)",
            dir.display()
        );
        Tmpfs(dir.to_path_buf())
    }

    /// Keeps it full until [`Filler::stop`]: empty files take every inode, including those a
    /// game frees when it ends. (A read-only remount would wait for the files open for
    /// writing in it, that is, for the games to end.)
    pub fn fill(&self) -> Filler {
        Filler::start(&self.0)
    }

    /// Keeps its space full until [`SpaceFiller::stop`]: one file takes every free block,
    /// and blocks freed meanwhile are taken again. What a database's disk full is: a file
    /// that exists can be read and rewritten in place, nothing can grow.
    pub fn fill_space(&self) -> SpaceFiller {
        SpaceFiller::start(&self.0)
    }
}

/// A file system whose space is kept full; [`SpaceFiller::stop`] frees it.
pub struct SpaceFiller {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl SpaceFiller {
    fn start(dir: &Path) -> SpaceFiller {
        use std::io::Write;
        let path = dir.join("space-filler");
        let mut file = std::fs::File::create(&path).expect("the filler's file");
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        // Full once not one block more can be written.
        let take = |file: &mut std::fs::File| {
            for size in [1 << 20, 64 << 10, 4 << 10, 512, 1] {
                let chunk = vec![0u8; size];
                loop {
                    match file.write(&chunk) {
                        Ok(n) if n > 0 => {}
                        Ok(_) => break,
                        Err(e) if e.raw_os_error() == Some(28) => break,
                        Err(e) => panic!("filling the tmpfs: {e}"),
                    }
                }
            }
        };
        take(&mut file);
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                take(&mut file);
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(file);
            std::fs::remove_file(&path).expect("emptying the tmpfs");
        });
        SpaceFiller { stop, thread }
    }

    pub fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the filler");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// A file system kept full; [`Filler::stop`] makes room again.
pub struct Filler {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl Filler {
    fn start(dir: &Path) -> Filler {
        let filler = dir.join("filler");
        std::fs::create_dir_all(&filler).expect("the filler's directory");
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut i = 0u64;
            while !stopped.load(Ordering::Relaxed) {
                match std::fs::File::create(filler.join(i.to_string())) {
                    Ok(_) => i += 1,
                    // ENOSPC: full; wait for an inode to be freed.
                    Err(e) if e.raw_os_error() == Some(28) => {
                        std::thread::sleep(Duration::from_millis(1))
                    }
                    Err(e) => panic!("filling the tmpfs: {e}"),
                }
            }
            std::fs::remove_dir_all(&filler).expect("emptying the tmpfs");
        });
        // Full once nothing more can be made.
        while std::fs::create_dir(dir.join("probe")).is_ok() {
            let _ = std::fs::remove_dir(dir.join("probe"));
            std::thread::sleep(Duration::from_millis(1));
        }
        Filler { stop, thread }
    }

    pub fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the filler");
    }
}
