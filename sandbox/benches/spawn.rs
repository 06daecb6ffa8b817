//! The per-game cost of a bot process: spawn under containment, one line each way, then the
//! end of the game (stdin closed, exit awaited, the tree swept, the cgroup removed). Printed
//! with every layer, then with each layer left out in turn, so the dearest layer is visible.
//!
//!     cargo bench -p arbiter-sandbox --bench spawn
//!
//! `SPAWN_ROUNDS` (default 200) sets the games per line.

use std::time::{Duration, Instant};

use arbiter_sandbox::{BotCommand, BotProcess, Containment, Layer, Limits, ReadEvent};

/// One game's process: (spawn, first answer, end) durations.
fn round(containment: &Containment, limits: &Limits, command: &BotCommand) -> [Duration; 3] {
    let t0 = Instant::now();
    let mut bot = BotProcess::spawn(command, limits, containment).expect("spawn");
    let t1 = Instant::now();
    bot.send_line("ping").expect("send");
    match bot.read_line(Instant::now() + Duration::from_secs(5)) {
        ReadEvent::Line(_) => {}
        other => panic!("no answer: {other:?}"),
    }
    let t2 = Instant::now();
    bot.close_stdin();
    bot.finish(Duration::from_millis(500));
    [t1 - t0, t2 - t1, t2.elapsed()]
}

fn line(name: &str, containment: &Containment, limits: &Limits, command: &BotCommand, n: usize) {
    for _ in 0..5 {
        round(containment, limits, command);
    }
    let rounds: Vec<[Duration; 3]> = (0..n)
        .map(|_| round(containment, limits, command))
        .collect();
    let median = |f: &dyn Fn(&[Duration; 3]) -> Duration| {
        let mut v: Vec<f64> = rounds.iter().map(|r| f(r).as_secs_f64() * 1e3).collect();
        v.sort_by(f64::total_cmp);
        (v[n / 2], v[n * 9 / 10])
    };
    let (total, total90) = median(&|r| r[0] + r[1] + r[2]);
    println!(
        "{name:<24} median {total:>6.2} ms (p90 {total90:>6.2}): spawn {:>5.2}, first answer {:>5.2}, end {:>5.2}",
        median(&|r| r[0]).0,
        median(&|r| r[1]).0,
        median(&|r| r[2]).0
    );
}

/// Each layer left out in turn.
const LAYERS: [Layer; 8] = [
    Layer::Namespaces,
    Layer::Cgroups,
    Layer::Seccomp,
    Layer::Landlock,
    Layer::Subreaper,
    Layer::Rlimits,
    Layer::Affinity,
    Layer::ProcessGroup,
];

fn main() {
    let n: usize = std::env::var("SPAWN_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let scratch = tempfile::tempdir().unwrap();
    let limits = Limits {
        memory_bytes: Some(350 << 20),
        cpu_core: Some(0),
        max_tasks: Some(64),
        scratch_dir: Some(scratch.path().to_path_buf()),
        ..Limits::default()
    };
    // `head -n 1` answers the line and exits at end of input: the cheapest real bot.
    let command = BotCommand::parse("head -n 1").unwrap();
    let full = Containment::detect();
    line("all layers", &full, &limits, &command, n);
    for layer in LAYERS {
        line(
            &format!("without {layer:?}"),
            &full.clone().without(layer),
            &limits,
            &command,
            n,
        );
    }
    let bare = LAYERS
        .into_iter()
        .chain([Layer::ParentDeathSignal])
        .fold(full.clone(), |c, l| c.without(l));
    line("no containment at all", &bare, &limits, &command, n);
}
