//! The cost of one CPU-time reading of a running bot (`BotProcess::cpu_time`), from its cgroup
//! and without cgroups (the walk of the bot's own tree in `/proc`), beside the cost of reading
//! the stat of every process on the machine (what a reading without cgroups cost before).
//! The bot is a shell with two children (one of them forks again), as a bot with helpers is.
//!
//!     cargo bench -p arbiter-sandbox --bench cpu_reading
//!
//! `CPU_READINGS` (default 2000) sets the readings per line.

use std::time::{Duration, Instant};

use arbiter_sandbox::{BotCommand, BotProcess, Containment, Layer, Limits, ReadEvent};

fn bot(containment: &Containment) -> BotProcess {
    let cmd = BotCommand::new("sh")
        .arg("-c")
        .arg("sleep 600 & (sleep 600 & sleep 600) & echo ready; read x");
    let mut bot = BotProcess::spawn(&cmd, &Limits::default(), containment).expect("spawn");
    match bot.read_line(Instant::now() + Duration::from_secs(30)) {
        ReadEvent::Line(_) => bot,
        other => panic!("no ready: {other:?}"),
    }
}

fn per_call(n: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..n / 10 {
        f();
    }
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_secs_f64() * 1e6 / n as f64
}

/// The stat of every process, as the old fallback read it.
fn read_every_stat() -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|s| s.parse::<u32>().is_ok())
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .count()
}

fn main() {
    let n: usize = std::env::var("CPU_READINGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let detected = Containment::detect().without(Layer::Namespaces);
    let mut lines = Vec::new();
    if detected.enabled(Layer::Cgroups) {
        lines.push(("cgroups", detected.clone()));
    } else {
        println!("no cgroups here: their line is left out");
    }
    lines.push(("no cgroups (own tree)", detected.without(Layer::Cgroups)));
    let jailed = Containment::detect().without(Layer::Cgroups);
    if jailed.enabled(Layer::Namespaces) {
        lines.push(("jail, no cgroups", jailed));
    }
    for (name, containment) in lines {
        let mut b = bot(&containment);
        let us = per_call(n, || {
            std::hint::black_box(b.cpu_time());
        });
        println!("{name:<28} {us:>8.1} us a reading");
        b.finish(Duration::from_millis(200));
    }
    let mut processes = 0;
    let us = per_call(n / 10, || processes = read_every_stat());
    println!(
        "{:<28} {us:>8.1} us ({processes} processes on this machine)",
        "every process's stat"
    );
}
