//! `arbiter bot`: a built-in bot as a real process on stdin/stdout.

use std::process::ExitCode;

use anyhow::bail;

use super::game_config;
use crate::cli::BotArgs;
use arbiter_sparring::clock::TimeLimits;
use arbiter_sparring::{self as builtin, BuiltinOptions};

pub fn run(a: &BotArgs) -> anyhow::Result<ExitCode> {
    let max_depth = arbiter_match::bounds::MAX_BUILTIN_DEPTH;
    if a.depth > max_depth {
        bail!(
            "--depth {}: at most {max_depth} (the ladder's levels are 1 to 5; docs/sparring.md)",
            a.depth
        );
    }
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
    let (move_ms, game_ms) = (
        millis(a.move_time, arbiter_match::game::MOVE_TIME_VAR)?,
        millis(a.game_time, arbiter_match::game::GAME_TIME_VAR)?,
    );
    // Times that cannot work are refused with their bound, as `arbiter match` refuses them.
    arbiter_match::game::LimitOverrides {
        move_ms: Some(move_ms),
        game_ms: Some(game_ms),
        ..Default::default()
    }
    .check()
    .map_err(|e| anyhow::anyhow!(arbiter_match::bounds::flag_name(&e)))?;
    let opts = BuiltinOptions {
        game,
        protocol,
        depth: a.depth,
        seed: bot_seed(a.bot_seed)?,
        limits: TimeLimits {
            move_time: TimeLimits::ms(move_ms),
            game_time: TimeLimits::ms(game_ms),
        },
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    builtin::run(&opts, stdin.lock(), stdout.lock())?;
    Ok(ExitCode::SUCCESS)
}

/// `--bot-seed`, else the game's seed that arbiter gives every bot, else 0.
fn bot_seed(flag: Option<u64>) -> anyhow::Result<u64> {
    Ok(flag_or_var(flag, arbiter_match::game::SEED_VAR, "a seed")?.unwrap_or(0))
}

/// A time limit in ms from its flag, else from the variable arbiter sets, else 0 (none).
fn millis(flag: Option<u64>, var: &str) -> anyhow::Result<u64> {
    Ok(flag_or_var(flag, var, "a time in milliseconds")?.unwrap_or(0))
}

/// The flag's value, else the environment variable's (a whole number), else `None`.
fn flag_or_var(flag: Option<u64>, var: &str, what: &str) -> anyhow::Result<Option<u64>> {
    if flag.is_some() {
        return Ok(flag);
    }
    match std::env::var(var) {
        Ok(text) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| anyhow::anyhow!("{var}={text:?} is not {what} (a whole number)")),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => bail!("{var} is not {what} (not UTF-8)"),
    }
}
