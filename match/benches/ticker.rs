//! What the stall ticker (`arbiter_match::stall`, a thread that wakes every 5 ms) costs: the
//! ticker thread's own CPU time over 5 idle seconds, from /proc/self/task/*/schedstat.
//! Run: `cargo bench -p arbiter-match --bench ticker`.

use std::time::{Duration, Instant};

/// The ticker thread's CPU time (ns, from its own `schedstat` line).
fn ticker_cpu() -> Option<Duration> {
    let dir = std::fs::read_dir("/proc/self/task").ok()?;
    for task in dir.flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        // Thread names are cut to 15 bytes: "arbiter-stall-t".
        if comm.trim().starts_with("arbiter-stall") {
            let text = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
            return Some(Duration::from_nanos(ns));
        }
    }
    None
}

fn main() {
    arbiter_match::stall::start_ticker();
    std::thread::sleep(Duration::from_millis(100));
    let Some(before) = ticker_cpu() else {
        eprintln!("the ticker thread was not found in /proc/self/task");
        std::process::exit(1);
    };
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_secs(5));
    let wall = t0.elapsed();
    let used = ticker_cpu().unwrap_or(before).saturating_sub(before);
    let per_second = used.as_secs_f64() / wall.as_secs_f64();
    println!(
        "stall ticker: {:.0} us of CPU per second ({:.3} % of one core); {:.1} us per 10 ms move",
        per_second * 1e6,
        per_second * 100.0,
        per_second * 1e6 / 100.0
    );
}
