//! `arbiter bot`: a built-in bot as a real process on stdin/stdout.

use std::process::ExitCode;

use anyhow::bail;

use super::game_config;
use crate::cli::BotArgs;
use arbiter_sparring::{self as builtin, BuiltinOptions};

pub fn run(a: &BotArgs) -> anyhow::Result<ExitCode> {
    let game = game_config(&a.game)?;
    let allowed = builtin::protocols_for(&game);
    let protocol = match &a.protocol {
        Some(p) if allowed.contains(&p.as_str()) => p.clone(),
        Some(p) => bail!(
            "{} bots speak {}, not {p:?}",
            game.name(),
            allowed.join(" or ")
        ),
        None => allowed.first().copied().unwrap_or("reversi").to_string(),
    };
    let opts = BuiltinOptions {
        game,
        protocol,
        depth: a.depth,
        seed: bot_seed(a.bot_seed)?,
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    builtin::run(&opts, stdin.lock(), stdout.lock())?;
    Ok(ExitCode::SUCCESS)
}

/// `--bot-seed`, else the game's seed that arbiter gives every bot, else 0.
fn bot_seed(flag: Option<u64>) -> anyhow::Result<u64> {
    if let Some(seed) = flag {
        return Ok(seed);
    }
    let var = arbiter_match::game::SEED_VAR;
    match std::env::var(var) {
        Ok(text) => text
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("{var}={text:?} is not a seed (a whole number)")),
        Err(std::env::VarError::NotPresent) => Ok(0),
        Err(std::env::VarError::NotUnicode(_)) => bail!("{var} is not a seed (not UTF-8)"),
    }
}
