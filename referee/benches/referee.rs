//! Referee overhead: full 16 x 16 Reversi games between two instant C bots, against the raw
//! pipe round trip measured in the same run, and the per-game cost of starting and ending
//! both bots against bare fork and exec. Prints figures; asserts nothing.
//!
//! `cargo bench -p arbiter --bench referee` (env `REFEREE_BENCH_GAMES`, default 20).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use arbiter_engine::any::GameConfig;
use arbiter_engine::reversi;
use arbiter_match::game::{self, BotSpec, GameLimits, GameSpec, Seats};
use arbiter_match::protocol::ProtocolKind;
use arbiter_sandbox::{measure_round_trip, BotCommand, BotProcess, Containment, Limits};

fn main() {
    let games: usize = std::env::var("REFEREE_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let dir = std::env::temp_dir().join(format!("arbiter-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bot = dir.join("instant");
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/bots/reversi_misbehave.c");
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&bot)
        .arg(&src)
        .status()
        .map(|s| s.success());
    if !matches!(ok, Ok(true)) {
        eprintln!("cannot compile {} with cc", src.display());
        std::process::exit(1);
    }
    let containment = Containment::detect();
    println!("16x16 reversi between two instant C bots, {games} games per layout");
    // Contest layout: each bot on its own core, the referee wherever the scheduler puts it.
    layout(
        &bot,
        &dir,
        &containment,
        games,
        "bots on cores 0 and 1",
        [Some(0), Some(1)],
    );
    // Everything on one core: no cross-core wake-ups at all.
    let one = nix::sched::CpuSet::new();
    let mut one = one;
    let _ = one.set(0);
    let _ = nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), &one);
    layout(
        &bot,
        &dir,
        &containment,
        games,
        "referee and bots on core 0",
        [Some(0), Some(0)],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The floor for this layout: one line to `cat` placed like each bot, and back.
fn round_trip(containment: &Containment, cores: [Option<usize>; 2]) -> f64 {
    let mut medians = Vec::new();
    for core in cores {
        let limits = Limits {
            cpu_core: core,
            ..Limits::default()
        };
        let mut echo =
            BotProcess::spawn(&BotCommand::new("cat"), &limits, containment).expect("spawn cat");
        let rt = measure_round_trip(&mut echo, 3000, Duration::from_secs(1)).expect("round trip");
        echo.finish(Duration::from_millis(100));
        medians.push(rt.median.as_secs_f64() * 1e6);
    }
    medians.iter().sum::<f64>() / medians.len() as f64
}

fn layout(
    bot: &std::path::Path,
    dir: &std::path::Path,
    containment: &Containment,
    games: usize,
    name: &str,
    cores: [Option<usize>; 2],
) {
    let rt = round_trip(containment, cores);
    let config = GameConfig::Reversi(reversi::Config { size: 16 });
    let spec = GameSpec {
        config: config.clone(),
        opening: Vec::new(),
        limits: GameLimits::default_for(&config),
        event: None,
        seed: None,
        max_plies: arbiter_match::game::MAX_PLIES,
    };
    let spec_bot = |name: &str| BotSpec {
        name: name.into(),
        command: format!("{} fine 0 16", bot.display()),
        protocol: ProtocolKind::Reversi,
        working_dir: None,
        sees: None,
    };
    let (a, b) = (spec_bot("a"), spec_bot("b"));
    let seats = Seats {
        cores: cores.to_vec(),
        scratch_root: dir.join("scratch"),
    };
    let mut moves = 0usize;
    let mut loop_time = Duration::ZERO;
    let mut think = Duration::ZERO;
    let (mut setup, mut teardown) = (Duration::ZERO, Duration::ZERO);
    let start = Instant::now();
    for _ in 0..games {
        let played = game::play(&spec, &[&a, &b], &seats, containment);
        assert_eq!(
            played.replay.result.reason.code(),
            "normal",
            "{:?}",
            played.replay.result
        );
        let timed: Vec<f64> = played
            .replay
            .moves
            .iter()
            .filter_map(|m| m.time_ms)
            .collect();
        moves += timed.len();
        think += Duration::from_secs_f64(timed.iter().sum::<f64>() / 1000.0);
        loop_time += played.timing.moves;
        setup += played.timing.setup;
        teardown += played.timing.teardown;
    }
    let total = start.elapsed();
    let per_move = loop_time.as_secs_f64() * 1e6 / moves.max(1) as f64;
    let referee = loop_time.saturating_sub(think).as_secs_f64() * 1e6 / moves.max(1) as f64;
    println!("{name}:");
    println!("  raw pipe round trip to cat placed like the bots: median {rt:.1} us");
    println!(
        "  per move: {per_move:.1} us in the move loop = {:.2}x the round trip (bot answer included); referee's own work {referee:.1} us = {:.2}x",
        per_move / rt,
        referee / rt
    );
    println!(
        "  {:.2} games/s including process start and end ({moves} bot moves)",
        games as f64 / total.as_secs_f64()
    );
    let per_game = (setup + teardown).as_secs_f64() * 1e3 / games as f64;
    println!(
        "  per game: start and handshake {:.1} ms, end and cleanup {:.1} ms: {per_game:.1} ms",
        setup.as_secs_f64() * 1e3 / games as f64,
        teardown.as_secs_f64() * 1e3 / games as f64
    );
    println!(
        "  the floor: the same two bots started, sent end of input and waited for, with no \
         containment and no referee: {:.1} ms a game",
        bare_processes(bot, games)
    );
}

/// Milliseconds a game for what any judge must do: fork and exec both bots (pipes on their
/// standard streams), let each start, close its input, and wait for its exit.
fn bare_processes(bot: &std::path::Path, games: usize) -> f64 {
    use std::process::Stdio;
    let start = Instant::now();
    for _ in 0..games {
        let children: Vec<_> = (0..2)
            .map(|_| {
                Command::new(bot)
                    .args(["fine", "0", "16"])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("spawn the bot")
            })
            .collect();
        for mut c in children {
            drop(c.stdin.take());
            c.wait().expect("wait");
        }
    }
    start.elapsed().as_secs_f64() * 1e3 / games as f64
}
