//! `arbiter game new|check|perft`: the game kit's tools for game authors.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use arbiter_engine::module::ModuleConfig;
use arbiter_engine::GameConfig;
use arbiter_kit_host::{check, perft, sha256_hex, template, Rules, State};
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
        /// The arbiter-game crate to depend on: an arbiter checkout's game-kit directory
        /// [default: the one of the checkout arbiter was built from]
        #[arg(long)]
        kit: Option<PathBuf>,
    },
    /// The games this binary carries as modules, by name (`arbiter match amazons ...`,
    /// `arbiter contest init DIR --game amazons`)
    List,
    /// Run the conformance suite on a module: determinism, notation round trips, random
    /// playouts, the view's validity.
    Check {
        /// The module (GAME.wasm), a carried game's name, or builtin:reversi, builtin:gomoku,
        /// builtin:duel2048 (the engine's games through the kit, linked in)
        #[arg(value_parser = carried_module)]
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
        /// The module (GAME.wasm), a carried game's name, or builtin:reversi, builtin:gomoku,
        /// builtin:duel2048
        #[arg(value_parser = carried_module)]
        module: PathBuf,
        #[arg(long)]
        depth: u32,
        /// The game's configuration (JSON)
        #[arg(long, default_value = "{}")]
        config: String,
        /// The seed of the start position (games with chance)
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Count from the position after these plies, in the game's notation, separated by
        /// spaces or semicolons; a simultaneous turn's ply is every mover's move in seat order
        /// joined by `+` (`up+left+down`)
        #[arg(long, value_name = "PLIES")]
        moves: Option<String>,
    },
}

/// A module as named on the command line: a carried game's name read as its file.
fn carried_module(text: &str) -> Result<PathBuf, String> {
    crate::carried::resolve(text)
        .map(PathBuf::from)
        .map_err(|e| format!("{e:#}"))
}

/// `arbiter game list`: the carried games, with the built-in ones for completeness.
fn list() -> ExitCode {
    println!("built in: reversi, gomoku, duel2048 (arbiter match reversi ...)");
    println!("carried as game modules (arbiter match NAME ..., contest init DIR --game NAME):");
    for g in crate::carried::GAMES {
        println!("  {:<18} {}", g.name, g.about);
    }
    ExitCode::SUCCESS
}

pub fn run(a: &GameArgs) -> anyhow::Result<ExitCode> {
    match &a.command {
        GameCommand::List => Ok(list()),
        GameCommand::New { name, dir, kit } => {
            let kit = kit.clone().unwrap_or_else(template::default_kit_path);
            let root = template::write(dir, name, &kit)?;
            println!("wrote {}", root.display());
            // An installed binary may outlive the checkout it was built from: the crate is
            // still written, and one line of its Cargo.toml points it at the SDK.
            if !kit.join("Cargo.toml").is_file() {
                eprintln!(
                    "warning: no arbiter-game crate at {}: give --kit the game-kit directory \
                     of an arbiter checkout, or make the arbiter-game dependency in {} a git \
                     one (docs/game-kit.md, \"Getting the SDK\")",
                    kit.display(),
                    root.join("Cargo.toml").display()
                );
            }
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
            moves,
        } => run_perft(module, config, *depth, *seed, moves.as_deref()),
    }
}

/// Plays one ply written as `--moves` writes it: a move, or in a simultaneous turn every
/// mover's move in seat order joined by `+`.
fn play_ply(rules: &mut Rules, s: State, ply: &str) -> anyhow::Result<()> {
    let movers = rules.status(s)?.movers;
    let refused = match movers.as_slice() {
        [] => bail!("{ply}: the game is over"),
        [_] => rules.play(s, ply)?.err(),
        _ => {
            let moves: Vec<&str> = ply.split('+').collect();
            if moves.len() != movers.len() {
                bail!(
                    "{ply}: a simultaneous turn of {} seats ({}) takes one move each, joined by +",
                    movers.len(),
                    movers
                        .iter()
                        .map(|m| (m + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            let joint: Vec<(usize, String)> = movers
                .iter()
                .zip(moves)
                .map(|(&seat, m)| (seat, m.to_string()))
                .collect();
            rules
                .play_together(s, &joint)?
                .err()
                .map(|(seat, why)| format!("seat {}: {why}", seat + 1))
        }
    };
    match refused {
        Some(why) => bail!("{ply}: refused: {why}"),
        None => Ok(()),
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
        i.name,
        i.version,
        i.abi,
        arbiter_game::config::counts_words(&i.seats)
    );
    Ok(rules)
}

fn load_module(module: &Path) -> anyhow::Result<Rules> {
    // The one module reader: a regular file of at most 16 MiB (never a FIFO or a device).
    let bytes = arbiter_kit_host::module_file::read(module)?;
    let rules = Rules::load(module)?;
    let i = rules.info();
    println!(
        "{} {} (ABI {}, {} seats), {} bytes, sha256 {}",
        i.name,
        i.version,
        i.abi,
        arbiter_game::config::counts_words(&i.seats),
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

/// The game a module file names, for `arbiter match GAME.wasm`, `arbiter bot GAME.wasm` and
/// the like: the module registered with this process's module host, its configuration from
/// `--config` and `--size`, and `seed` for its chance. Checked by building the start position.
pub fn module_game(
    a: &crate::cli::GameArgs,
    seed: u64,
    default_config: Option<&str>,
    players: Option<usize>,
) -> anyhow::Result<GameConfig> {
    if a.rule.is_some() || a.rounds.is_some() {
        bail!("--rule and --rounds are built-in games' flags; a game module takes --config");
    }
    let path = Path::new(&a.game);
    let mut config = module_config(a.config.as_deref().or(default_config), a.size)?;
    if let (Some(n), Some(o)) = (players, config.as_object_mut()) {
        o.entry(arbiter_game::config::PLAYERS).or_insert(n.into());
    }
    let module = arbiter_kit_host::host::register_file(path)?;
    arbiter_kit_host::host::install();
    let config = GameConfig::Module(ModuleConfig {
        module,
        config: config.to_string(),
        seed,
    });
    arbiter_engine::AnyGame::new(&config).map_err(|e| anyhow::anyhow!(e.message))?;
    Ok(config)
}

/// The one acceptance check for a command that plays the module game `config` (`match`), so
/// that what `game check` refuses no command plays. A built-in game passes.
pub fn accept_module(a: &crate::cli::GameArgs, config: &GameConfig) -> anyhow::Result<()> {
    if let Some(m) = config.as_module() {
        let given = json(&m.config)?;
        arbiter_kit_host::accept::file(Path::new(&a.game), &given)?;
    }
    Ok(())
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

fn run_perft(
    module: &Path,
    config: &str,
    depth: u32,
    seed: u64,
    moves: Option<&str>,
) -> anyhow::Result<ExitCode> {
    if depth > 12 {
        bail!("depth {depth} would run for years through a module; use at most 12");
    }
    let mut rules = load(module)?;
    let start = rules.start(&json(config)?, seed)?;
    for (i, ply) in super::split_moves(moves.unwrap_or_default())
        .into_iter()
        .enumerate()
    {
        play_ply(&mut rules, start, ply).with_context(|| format!("--moves: ply {}", i + 1))?;
    }
    let started = Instant::now();
    let total = perft(&mut rules, start, depth)?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {total}  ({secs:.3} s, {:.0} leaves/s)",
        total as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}
