//! A one-machine tournament whose own storage fails while it plays: its database held by
//! another process longer than SQLite's busy wait, and its disk kept full. The run waits the
//! fault out, loses no game, plays none twice, and ends as a run without the fault
//! (deterministic bots). Mounting the tmpfs needs root, as in queue/tests/faults.rs.

use crate::tournament_support;

use crate::faults;

use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use faults::Tmpfs;
use tournament_support::*;

const BOTS: [(&str, &str); 3] = [("r1", "1 slow"), ("r2", "2 slow"), ("r3", "3 slow")];

fn config_text() -> String {
    config(6, "round-robin", 2, 11, "move_ms = 3000", &BOTS)
}

fn start(cfg: &Path) -> Child {
    arbiter()
        .args(["tournament", "run", "-q", "-j", "2"])
        .arg(cfg)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter tournament")
}

fn finish(child: Child) -> (Output, String) {
    let out = child.wait_with_output().expect("the tournament's end");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "the run stopped: {stderr}");
    (out, stderr)
}

/// Waits until `path` exists (the runner made its database).
fn wait_for(path: &Path) {
    let t0 = Instant::now();
    while !path.exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The uninterrupted run, for comparison.
fn clean_run(root: &Path) -> serde_json::Value {
    let cfg = write_config(&root.join("clean"), &config_text());
    finish(start(&cfg));
    report_json(&root.join("clean/out"))
}

fn same_as_clean(report: &serde_json::Value, clean: &serde_json::Value) {
    assert_eq!(report["scheduled"], 6);
    assert_eq!(report["done"], 6, "every game recorded");
    assert_eq!(
        results(report),
        results(clean),
        "the same games and results"
    );
    assert_eq!(report["standings"], clean["standings"]);
}

#[test]
fn a_database_locked_longer_than_the_busy_wait_is_waited_out() {
    let tmp = tempfile::tempdir().unwrap();
    let clean = clean_run(tmp.path());

    let cfg = write_config(&tmp.path().join("locked"), &config_text());
    let child = start(&cfg);
    let db = tmp.path().join("locked/out/tournament.db");
    wait_for(&db);
    // SQLite's busy wait is 10 s: a 14 s hold makes the runner's writes fail, not just wait.
    std::thread::sleep(Duration::from_millis(300));
    let mut holder = faults::hold_sqlite_lock(&db, 14);
    let (_, stderr) = finish(child);
    assert!(holder.wait().unwrap().success());
    assert!(
        stderr.contains("cannot write (database locked); trying again"),
        "the wait is told: {stderr}"
    );
    assert!(stderr.contains("written after"), "{stderr}");
    same_as_clean(&report_json(&tmp.path().join("locked/out")), &clean);
}

#[test]
fn a_full_disk_is_waited_out() {
    let tmp = tempfile::tempdir().unwrap();
    let clean = clean_run(tmp.path());

    let dir = tmp.path().join("full");
    let fs = Tmpfs::mount(&dir, "size=64m,nr_inodes=2048");
    let cfg = write_config(&dir, &config_text());
    let child = start(&cfg);
    wait_for(&dir.join("out/tournament.db"));
    std::thread::sleep(Duration::from_millis(500));
    let filler = fs.fill();
    // Two games of about 1.7 s each are in flight: they end while the disk is full.
    std::thread::sleep(Duration::from_secs(4));
    filler.stop();
    let (_, stderr) = finish(child);
    assert!(
        stderr.contains("(disk full); trying again"),
        "the wait is told: {stderr}"
    );
    same_as_clean(&report_json(&dir.join("out")), &clean);
    drop(fs);
}
