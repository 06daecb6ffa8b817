//! Module games in the referee: games between two instant C kit bots (`bots/c/kit_random.c`)
//! on each proof game's module, with the referee's own work per move (the module's rules, the
//! protocol, the clocks) against the bots' answers. Prints figures; asserts nothing.
//!
//! `cargo bench -p arbiter --bench kit` (env `KIT_BENCH_GAMES`, default 10).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use arbiter_engine::module::ModuleConfig;
use arbiter_engine::GameConfig;
use arbiter_kit_host::{build, host};
use arbiter_match::game::{self, BotSpec, GameLimits, GameSpec, Seats};
use arbiter_match::protocol::ProtocolKind;
use arbiter_sandbox::Containment;

fn main() {
    let games: usize = std::env::var("KIT_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let dir = std::env::temp_dir().join(format!("arbiter-kit-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bot = dir.join("kit_random");
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../bots/c/kit_random.c");
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
    host::install();
    let containment = Containment::detect();
    println!("module games between two instant C kit bots, {games} games each, one core");
    let mut one = nix::sched::CpuSet::new();
    let _ = one.set(0);
    let _ = nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), &one);
    for (package, config) in [
        ("game-connect-four", "{}"),
        ("game-amazons", "{}"),
        ("game-connect6", "{}"),
        ("game-dots-and-boxes", "{}"),
        ("game-einstein", "{}"),
    ] {
        let path = build::game_module(package).expect("module builds");
        let module = host::register_file(&path).expect("module registers");
        let config = GameConfig::Module(ModuleConfig {
            module,
            config: config.into(),
            seed: 1,
        });
        bench(package, &config, &bot, &dir, &containment, games);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn bench(
    name: &str,
    config: &GameConfig,
    bot: &std::path::Path,
    dir: &std::path::Path,
    containment: &Containment,
    games: usize,
) {
    let spec = GameSpec {
        config: config.clone(),
        opening: Vec::new(),
        limits: GameLimits::default_for(config),
        event: None,
        seed: None,
        max_plies: game::MAX_PLIES,
    };
    let spec_bot = |n: &str| BotSpec {
        name: n.into(),
        command: bot.display().to_string(),
        protocol: ProtocolKind::Kit,
        working_dir: None,
        sees: None,
    };
    let (a, b) = (spec_bot("a"), spec_bot("b"));
    let seats = Seats {
        cores: vec![Some(0), Some(0)],
        scratch_root: dir.join("scratch"),
    };
    // The rules alone: a start position (the module instantiated), and a copy of a position
    // (the game runner keeps the position before each move).
    let started = Instant::now();
    for _ in 0..20 {
        drop(arbiter_engine::AnyGame::new(config).expect("starts"));
    }
    let start_ms = started.elapsed().as_secs_f64() * 1e3 / 20.0;
    let position = arbiter_engine::AnyGame::new(config).expect("starts");
    let started = Instant::now();
    for _ in 0..1000 {
        drop(position.clone());
    }
    let copy_us = started.elapsed().as_secs_f64() * 1e6 / 1000.0;
    println!(
        "{name}: the rules start a game in {start_ms:.2} ms; a copy of a position {copy_us:.1} us"
    );
    let (mut moves, mut loop_time, mut think) = (0usize, Duration::ZERO, Duration::ZERO);
    let mut setup = Duration::ZERO;
    for _ in 0..games {
        let played = game::play(&spec, &[&a, &b], &seats, containment);
        assert_eq!(
            played.replay.result.reason.code(),
            "normal",
            "{name}: {:?}",
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
    }
    let per_move = loop_time.as_secs_f64() * 1e6 / moves.max(1) as f64;
    let referee = loop_time.saturating_sub(think).as_secs_f64() * 1e6 / moves.max(1) as f64;
    let started = Instant::now();
    drop(game::play(&spec, &[&a, &b], &seats, containment));
    let one_game = started.elapsed();
    println!(
        "{name}: {moves} moves; per move {per_move:.0} us in the move loop, of which the \
         referee's own work (rules, protocol, clocks) {referee:.0} us; start and handshake \
         {:.1} ms a game; one whole game {:.0} ms",
        setup.as_secs_f64() * 1e3 / games as f64,
        one_game.as_secs_f64() * 1e3
    );
}
