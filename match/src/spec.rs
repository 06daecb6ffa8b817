//! What to play, as a command line or a config file names it: the game and its options, bots
//! (commands, or `builtin[:random|:N]` for arbiter's own sparring bots) and openings. Shared
//! by `arbiter match`, tournaments, Saiblo and the contest server, so that every front end
//! reads them the same way.

use std::path::Path;

use anyhow::{bail, Context};
use arbiter_engine::any::GameConfig;
use arbiter_engine::duel2048::RandomSource;
use arbiter_engine::gomoku::Rule;

use crate::game::BotSpec;
use crate::protocol::ProtocolKind;

/// A game as named by flags or a config file; unset options take the game's defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameChoice {
    /// `reversi`, `gomoku` or `duel2048`.
    pub game: String,
    pub size: Option<u8>,
    pub rule: Option<Rule>,
    /// 2048 duel: the seed of the random sequence.
    pub seed: Option<u64>,
    /// 2048 duel: the number of rounds.
    pub rounds: Option<u16>,
}

/// The configuration the flags ask for; flags that do not fit the game are errors, not ignored.
pub fn game_config(a: &GameChoice) -> anyhow::Result<GameConfig> {
    let mut config = GameConfig::default_for(&a.game)?;
    match &mut config {
        GameConfig::Reversi(c) => {
            reject(a.rule.is_some(), "--rule", "gomoku")?;
            reject(
                a.seed.is_some() || a.rounds.is_some(),
                "--seed/--rounds",
                "duel2048",
            )?;
            if let Some(s) = a.size {
                c.size = s;
            }
        }
        GameConfig::Gomoku(c) => {
            reject(
                a.seed.is_some() || a.rounds.is_some(),
                "--seed/--rounds",
                "duel2048",
            )?;
            if let Some(s) = a.size {
                c.size = s;
            }
            if let Some(r) = a.rule {
                c.rule = r;
            }
        }
        GameConfig::Duel2048(c) => {
            reject(a.size.is_some(), "--size", "reversi and gomoku")?;
            reject(a.rule.is_some(), "--rule", "gomoku")?;
            if let Some(s) = a.seed {
                c.random = RandomSource::Seed(s);
            }
            if let Some(r) = a.rounds {
                c.rounds = r;
            }
        }
    }
    // Building the start position validates sizes and the like with the engine's message.
    arbiter_engine::AnyGame::new(&config).context("cannot set up the game")?;
    Ok(config)
}

fn reject(given: bool, flag: &str, applies_to: &str) -> anyhow::Result<()> {
    if given {
        bail!("{flag} only applies to {applies_to}");
    }
    Ok(())
}

/// Splits a move list given on the command line: whitespace and semicolons separate moves,
/// so a two-number move is written with a comma (`2,3`).
pub fn split_moves(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ';')
        .filter(|m| !m.is_empty())
        .collect()
}

/// A bot from the command line: a command, or `builtin[:random|:N]` for arbiter's own.
pub fn bot_spec(
    text: &str,
    name: Option<&str>,
    protocol: ProtocolKind,
    config: &GameConfig,
    fallback: &str,
) -> anyhow::Result<BotSpec> {
    let (command, default_name) = match text.strip_prefix("builtin") {
        Some(rest) if rest.is_empty() || rest.starts_with(':') => {
            let depth = match rest.trim_start_matches(':') {
                "" | "greedy" => 1,
                "random" => 0,
                n => n.parse::<u32>().with_context(|| {
                    format!(
                        "builtin bot {text:?}: expected builtin, builtin:random or builtin:DEPTH"
                    )
                })?,
            };
            (
                builtin_command(config, protocol, depth)?,
                format!("builtin-{}", depth_name(depth)),
            )
        }
        _ => {
            let words =
                shell_words::split(text).with_context(|| format!("bot command {text:?}"))?;
            let Some(first) = words.iter().find(|w| !is_interpreter(w)).or(words.first()) else {
                bail!("empty bot command");
            };
            let stem = Path::new(first)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or(fallback);
            (text.to_string(), stem.to_string())
        }
    };
    Ok(BotSpec {
        name: name.map_or(default_name, str::to_string),
        command,
        protocol,
        working_dir: None,
    })
}

fn is_interpreter(word: &str) -> bool {
    let base = Path::new(word)
        .file_name()
        .and_then(|s| s.to_str())
        .unwrap_or(word);
    base.starts_with("python") || matches!(base, "node" | "java" | "pypy3" | "ruby" | "perl" | "-u")
}

fn depth_name(depth: u32) -> String {
    match depth {
        0 => "random".into(),
        1 => "greedy".into(),
        n => format!("depth{n}"),
    }
}

/// The command line that runs `arbiter bot` for this game.
fn builtin_command(
    config: &GameConfig,
    protocol: ProtocolKind,
    depth: u32,
) -> anyhow::Result<String> {
    let exe = arbiter_exe()?;
    let exe = exe
        .to_str()
        .context("the arbiter executable's path is not UTF-8")?;
    let mut cmd = format!(
        "{} bot {} --depth {depth} --protocol {protocol}",
        shell_words::quote(exe),
        config.name()
    );
    match config {
        GameConfig::Reversi(c) => cmd.push_str(&format!(" --size {}", c.size)),
        GameConfig::Gomoku(c) => {
            cmd.push_str(&format!(" --size {} --rule {}", c.size, c.rule.name()));
        }
        GameConfig::Duel2048(_) => {}
    }
    Ok(cmd)
}

pub fn read_openings(path: &Path, config: &GameConfig) -> anyhow::Result<Vec<Vec<String>>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves: Vec<String> = split_moves(line).into_iter().map(String::from).collect();
        // Check now, so a typo stops the match before any game is played.
        let mut g = arbiter_engine::AnyGame::new(config)?;
        for m in &moves {
            g.play_text(m).map_err(|e| {
                anyhow::anyhow!("{}:{}: opening move {m}: {e}", path.display(), i + 1)
            })?;
        }
        if g.outcome().is_some() {
            bail!("{}:{}: the opening ends the game", path.display(), i + 1);
        }
        out.push(moves);
    }
    if out.is_empty() {
        bail!("{} holds no opening", path.display());
    }
    Ok(out)
}

/// The `arbiter` executable that runs built-in bots (`arbiter bot ...`): `$ARBITER_EXE` when set
/// (tests and other front ends that are not the `arbiter` binary), else this executable.
pub fn arbiter_exe() -> anyhow::Result<std::path::PathBuf> {
    match std::env::var_os("ARBITER_EXE") {
        Some(path) if !path.is_empty() => Ok(path.into()),
        _ => std::env::current_exe().context("cannot find the arbiter executable"),
    }
}
