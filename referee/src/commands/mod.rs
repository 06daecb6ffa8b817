//! One module per subcommand.

pub mod bot;
pub mod demo;
pub mod doctor;
pub mod import;
pub mod inspect;
pub mod matches;
pub mod perft;
pub mod replay;
pub mod saiblo;
pub mod tournament;

use anyhow::{bail, Context};
use arbiter_engine::any::GameConfig;
use arbiter_engine::duel2048::RandomSource;
use arbiter_engine::gomoku::Rule;

use crate::cli::{GameArgs, RuleArg};

/// The configuration the flags ask for; flags that do not fit the game are errors, not ignored.
pub fn game_config(a: &GameArgs) -> anyhow::Result<GameConfig> {
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
                c.rule = match r {
                    RuleArg::Freestyle => Rule::Freestyle,
                    RuleArg::Standard => Rule::Standard,
                    RuleArg::Renju => Rule::Renju,
                };
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
