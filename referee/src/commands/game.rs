//! `arbiter game new|check|perft`: the game kit's tools for game authors.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use arbiter_kit_host::{check, perft, sha256_hex, template, Rules};
use clap::{Args, Subcommand};

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  arbiter game new nim\n  \
cd nim && cargo build --release --target wasm32-unknown-unknown\n  \
arbiter game check target/wasm32-unknown-unknown/release/nim.wasm\n  \
arbiter game perft amazons.wasm --depth 2\n  \
arbiter game check builtin:reversi --config '{\"size\": 8}'\n  \
arbiter game perft builtin:gomoku --depth 3 --config '{\"size\": 15, \"rule\": \"renju\"}'")]
pub struct GameArgs {
    #[command(subcommand)]
    pub command: GameCommand,
}

#[derive(Subcommand, Debug)]
pub enum GameCommand {
    /// Write a ready crate for a new game: a tiny example (Nim) and its tests.
    New {
        /// The game's name: lowercase letters, digits and dashes
        name: String,
        /// Where to write it
        #[arg(long, default_value = ".")]
        dir: PathBuf,
        /// The arbiter-game crate to depend on [default: the one of this checkout]
        #[arg(long)]
        kit: Option<PathBuf>,
    },
    /// Run the conformance suite on a module: determinism, notation round trips, random
    /// playouts, the view's validity.
    Check {
        /// The module (GAME.wasm), or builtin:reversi, builtin:gomoku, builtin:duel2048 (the
        /// engine's games through the kit, linked in)
        module: PathBuf,
        /// The game's configuration (JSON)
        #[arg(long, default_value = "{}")]
        config: String,
        #[arg(long, default_value_t = 20)]
        playouts: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Count the move tree's leaves to a depth (forced plies count).
    Perft {
        /// The module (GAME.wasm), or builtin:reversi, builtin:gomoku, builtin:duel2048
        module: PathBuf,
        #[arg(long)]
        depth: u32,
        /// The game's configuration (JSON)
        #[arg(long, default_value = "{}")]
        config: String,
        /// The seed of the start position (games with chance)
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

pub fn run(a: &GameArgs) -> anyhow::Result<ExitCode> {
    match &a.command {
        GameCommand::New { name, dir, kit } => {
            let kit = kit.clone().unwrap_or_else(template::default_kit_path);
            let root = template::write(dir, name, &kit)?;
            println!("wrote {}", root.display());
            println!(
                "next: cd {} && cargo test && cargo build --release --target \
                 wasm32-unknown-unknown && arbiter game check \
                 target/wasm32-unknown-unknown/release/{}.wasm",
                root.display(),
                name.replace('-', "_")
            );
            Ok(ExitCode::SUCCESS)
        }
        GameCommand::Check {
            module,
            config,
            playouts,
            seed,
        } => run_check(module, config, *playouts, *seed),
        GameCommand::Perft {
            module,
            depth,
            config,
            seed,
        } => run_perft(module, config, *depth, *seed),
    }
}

/// The prefix that names one of the engine's games instead of a module file.
const BUILTIN: &str = "builtin:";

/// One of the engine's games through the kit (`game-builtin`), linked into arbiter: the same
/// requests and checks as a module, at native speed.
fn builtin_rules(name: &str) -> Option<Rules> {
    match name {
        "reversi" => Some(Rules::native::<game_builtin::Reversi>()),
        "gomoku" => Some(Rules::native::<game_builtin::Gomoku>()),
        "duel2048" => Some(Rules::native::<game_builtin::Duel2048>()),
        _ => None,
    }
}

/// `builtin:NAME` as a built-in game, anything else as a module file.
fn load(module: &Path) -> anyhow::Result<Rules> {
    let Some(name) = module.to_str().and_then(|m| m.strip_prefix(BUILTIN)) else {
        return load_module(module);
    };
    let Some(rules) = builtin_rules(name) else {
        bail!(
            "no built-in game {name:?}: the kit links {}",
            game_builtin::NAMES
                .map(|n| format!("{BUILTIN}{n}"))
                .join(", ")
        );
    };
    let i = rules.info();
    println!(
        "{} {} (ABI {}, {} seats), built in: the engine's rules, linked natively",
        i.name, i.version, i.abi, i.seats
    );
    Ok(rules)
}

fn load_module(module: &Path) -> anyhow::Result<Rules> {
    let bytes = std::fs::read(module).with_context(|| format!("reading {}", module.display()))?;
    let rules = Rules::load(module)?;
    let i = rules.info();
    println!(
        "{} {} (ABI {}, {} seats), {} bytes, sha256 {}",
        i.name,
        i.version,
        i.abi,
        i.seats,
        bytes.len(),
        sha256_hex(&bytes)
    );
    Ok(rules)
}

/// The longest `--config` taken: a game's configuration is a few keys.
const MAX_CONFIG_BYTES: usize = 64 << 10;

/// `arbiter match GAME.wasm`'s configuration: `--config` (a JSON object), with `--size N` as
/// `"size": N`.
fn module_config(config: Option<&str>, size: Option<u8>) -> anyhow::Result<serde_json::Value> {
    let text = config.unwrap_or("{}");
    if text.len() > MAX_CONFIG_BYTES {
        anyhow::bail!(
            "--config is {} bytes: at most {MAX_CONFIG_BYTES}",
            text.len()
        );
    }
    let mut value = json(text)?;
    let Some(object) = value.as_object_mut() else {
        anyhow::bail!("--config must be a JSON object, like '{{\"size\": 9}}': {text}");
    };
    if let Some(n) = size {
        object.insert("size".into(), n.into());
    }
    Ok(value)
}

fn json(config: &str) -> anyhow::Result<serde_json::Value> {
    serde_json::from_str(config).with_context(|| format!("--config is not JSON: {config}"))
}

fn run_check(module: &Path, config: &str, playouts: u32, seed: u64) -> anyhow::Result<ExitCode> {
    let mut rules = load(module)?;
    let plan = check::Plan {
        config: json(config)?,
        playouts,
        seed,
        ..Default::default()
    };
    let started = Instant::now();
    match check::run(&mut rules, &plan) {
        Ok(s) => {
            let secs = started.elapsed().as_secs_f64();
            println!(
                "ok: {} random playouts, {} plies (longest {}), first won {}, second won {}, \
                 {} drawn; {:.1} ms per ply checked",
                s.playouts,
                s.plies,
                s.longest,
                s.wins[0],
                s.wins[1],
                s.draws,
                1e3 * secs / s.plies.max(1) as f64
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("FAILED: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

fn run_perft(module: &Path, config: &str, depth: u32, seed: u64) -> anyhow::Result<ExitCode> {
    if depth > 12 {
        bail!("depth {depth} would run for years through a module; use at most 12");
    }
    let mut rules = load(module)?;
    let start = rules.start(&json(config)?, seed)?;
    let started = Instant::now();
    let total = perft(&mut rules, start, depth)?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {total}  ({secs:.3} s, {:.0} leaves/s)",
        total as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

/// `arbiter match GAME.wasm BOT BOT`: games of a module over the kit's line protocol, colours
/// alternating, each game's record written to `--output` as `game-N.json`.
pub fn run_match(a: &crate::cli::MatchArgs, seed: u64) -> anyhow::Result<ExitCode> {
    use arbiter_kit_match::{play, Clock, ModuleRef, SeatSpec};
    use arbiter_match::sprt::SprtRun;
    use std::time::Duration;
    let unsupported = [a.openings.is_some(), a.live.is_some()];
    let protocols = [&a.protocol, &a.protocol_a, &a.protocol_b];
    if unsupported.iter().any(|u| *u) || protocols.iter().any(|p| p.is_some()) {
        bail!("game modules play matches and SPRTs for now: no --openings, --live or --protocol");
    }
    let mut sprt = a
        .sprt
        .as_deref()
        .map(arbiter_match::sprt::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?
        .map(SprtRun::new);
    // An SPRT plays whole pairs (each bot first once) until it decides, or its game limit.
    let games = match &sprt {
        Some(_) => {
            a.max_games
                .unwrap_or(super::matches::SPRT_GAMES)
                .div_ceil(2)
                * 2
        }
        None => a.games,
    };
    let path = Path::new(&a.game.game);
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let mut rules = load_module(path)?;
    let module = ModuleRef {
        name: rules.info().name.clone(),
        version: rules.info().version.clone(),
        sha256: sha256_hex(&bytes),
    };
    let config = module_config(a.game.config.as_deref(), a.game.size)?;
    let ms = |v: Option<u64>, default: u64| Duration::from_millis(v.unwrap_or(default));
    let clock = Clock {
        handshake: ms(a.limits.handshake_time, 5000),
        per_move: ms(a.limits.move_time, 5000),
        memory_bytes: Some(a.limits.memory.unwrap_or(350) << 20).filter(|b| *b > 0),
    };
    let spec = |cmd: &str, name: &Option<String>, dflt: &str| SeatSpec {
        name: name.clone().unwrap_or_else(|| dflt.to_string()),
        command: cmd.to_string(),
        working_dir: None,
    };
    let bots = [
        spec(&a.bot_a, &a.name_a, "A"),
        spec(&a.bot_b, &a.name_b, "B"),
    ];
    if let Some(dir) = &a.output {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut points = [0.0f64; 2];
    for g in 0..games {
        // Colours alternate: game 0 has A first.
        let first = g % 2;
        let seats = [&bots[first], &bots[1 - first]];
        let record = play(
            &mut rules,
            &module,
            &config,
            seed.wrapping_add(g as u64),
            seats,
            clock,
        )?;
        let r = &record.result;
        match r.winner {
            Some(w) => points[(w + first) % 2] += 1.0,
            None => points.iter_mut().for_each(|p| *p += 0.5),
        }
        let winner = r
            .winner
            .map_or("draw".to_string(), |w| format!("{} won", seats[w].name));
        let mut line = format!(
            "game {}: {} vs {}: {winner}, {} ({} plies)",
            g + 1,
            seats[0].name,
            seats[1].name,
            r.reason,
            record.moves.len()
        );
        let mut decided = false;
        if let Some(run) = &mut sprt {
            let seat = r.winner.and_then(arbiter_engine::Seat::from_index);
            if run.add_game(SprtRun::result_of(g, seat)) {
                line = format!("{line} | {}", run.progress());
                decided = run.decision.is_some();
            }
        }
        println!("{line}");
        if let Some(dir) = &a.output {
            let file = dir.join(format!("game-{}.json", g + 1));
            std::fs::write(&file, serde_json::to_vec_pretty(&record)?)
                .with_context(|| format!("writing {}", file.display()))?;
        }
        if decided {
            break;
        }
    }
    println!(
        "{} {} - {} {} (seed {seed})",
        bots[0].name, points[0], points[1], bots[1].name
    );
    if let Some(report) = sprt.map(|run| run.report()) {
        for line in report.lines() {
            println!("{line}");
        }
        if let Some(dir) = &a.output {
            let file = dir.join("sprt.json");
            std::fs::write(&file, serde_json::to_vec_pretty(&report)?)
                .with_context(|| format!("writing {}", file.display()))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
