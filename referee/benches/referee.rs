//! Referee overhead: full 16 x 16 Reversi games between two instant C bots, against the raw
//! pipe round trip measured in the same run. Prints figures; asserts nothing.
//!
//! `cargo bench -p arbiter --bench referee` (env `REFEREE_BENCH_GAMES`, default 20).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use arbiter::game::{self, BotSpec, GameLimits, GameSpec, Seats};
use arbiter::process::{measure_round_trip, BotCommand, BotProcess, Containment, Limits};
use arbiter::protocol::ProtocolKind;
use arbiter_engine::any::GameConfig;
use arbiter_engine::reversi;

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

    // The floor: one line to `cat` and back, under the same containment.
    let limits = Limits {
        cpu_core: Some(1),
        ..Limits::default()
    };
    let mut echo =
        BotProcess::spawn(&BotCommand::new("cat"), &limits, &containment).expect("spawn cat");
    let rt = measure_round_trip(&mut echo, 5000, Duration::from_secs(1)).expect("round trip");
    echo.finish(Duration::from_millis(100));

    let config = GameConfig::Reversi(reversi::Config { size: 16 });
    let spec = GameSpec {
        config: config.clone(),
        opening: Vec::new(),
        limits: GameLimits::default_for(&config),
        event: None,
    };
    let spec_bot = |name: &str| BotSpec {
        name: name.into(),
        command: format!("{} fine 0 16", bot.display()),
        protocol: ProtocolKind::Reversi,
        working_dir: None,
    };
    let (a, b) = (spec_bot("a"), spec_bot("b"));
    let cores = if std::env::var("REFEREE_BENCH_NOPIN").is_ok() {
        [None, None]
    } else {
        [Some(0), Some(1)]
    };
    let seats = Seats {
        cores,
        scratch_root: dir.join("scratch"),
    };
    let mut moves = 0usize;
    let mut loop_time = Duration::ZERO;
    let mut think = Duration::ZERO;
    let start = Instant::now();
    for _ in 0..games {
        let played = game::play(&spec, [&a, &b], &seats, &containment);
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
    }
    let total = start.elapsed();
    let per_move = loop_time / moves.max(1) as u32;
    let overhead = loop_time.saturating_sub(think) / moves.max(1) as u32;
    let median = rt.median.as_secs_f64() * 1e6;
    println!(
        "raw pipe round trip (cat): median {median:.1} us, p99 {:.1} us ({} samples)",
        rt.p99.as_secs_f64() * 1e6,
        rt.samples
    );
    println!("16x16 reversi, {games} games, {moves} bot moves, {:.2} games/s (with process start and end)", games as f64 / total.as_secs_f64());
    println!(
        "per move: {:.1} us wall in the move loop ({:.2}x the round trip); of which referee work outside the bot's measured answer time {:.1} us",
        per_move.as_secs_f64() * 1e6,
        per_move.as_secs_f64() * 1e6 / median,
        overhead.as_secs_f64() * 1e6
    );
    let _ = std::fs::remove_dir_all(&dir);
}
