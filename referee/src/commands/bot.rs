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
        seed: a.bot_seed,
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    builtin::run(&opts, stdin.lock(), stdout.lock())?;
    Ok(ExitCode::SUCCESS)
}
