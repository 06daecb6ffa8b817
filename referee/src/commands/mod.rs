//! One module per subcommand.

pub mod bot;
pub mod contest;
pub mod demo;
pub mod doctor;
pub mod game;
pub mod import;
pub mod inspect;
pub mod live;
pub mod matches;
pub mod perft;
pub mod replay;
pub mod saiblo;
pub mod similarity;
pub mod tournament;
pub mod worker;

use arbiter_engine::any::GameConfig;
use arbiter_engine::gomoku::Rule;
pub use arbiter_match::spec::split_moves;
use arbiter_match::spec::GameChoice;

use crate::cli::{GameArgs, RuleArg};

/// The configuration the game flags ask for; flags that do not fit the game are errors.
pub fn game_config(a: &GameArgs) -> anyhow::Result<GameConfig> {
    if is_module(a) {
        // A bot arbiter started learns the game's configuration from its environment.
        let given = std::env::var(arbiter_match::bot_env::MODULE_CONFIG_VAR).ok();
        let seed = match a.seed {
            Some(s) => s,
            None => module_seed()?,
        };
        return game::module_game(a, seed, given.as_deref(), None);
    }
    refuse_module_config(a)?;
    arbiter_match::spec::game_config(&game_choice(a))
}

/// Whether the game named is a module file (`connect-four.wasm`), not a built-in game.
pub fn is_module(a: &GameArgs) -> bool {
    a.game.ends_with(".wasm")
}

/// A module game's seed for a program arbiter starts as a bot (`arbiter bot GAME.wasm`): the
/// one arbiter gives it, so that its copy of the game draws the same chance; else 0.
fn module_seed() -> anyhow::Result<u64> {
    match std::env::var(arbiter_match::bot_env::MODULE_SEED_VAR) {
        Ok(t) => t.trim().parse().map_err(|_| {
            anyhow::anyhow!(
                "{}={t:?} is not a seed",
                arbiter_match::bot_env::MODULE_SEED_VAR
            )
        }),
        Err(_) => Ok(0),
    }
}

/// `--config` configures a game module; a built-in game takes its own flags.
pub fn refuse_module_config(a: &GameArgs) -> anyhow::Result<()> {
    if a.config.is_some() {
        anyhow::bail!(
            "--config configures a game module (GAME.wasm); {} takes --size, --rule, --rounds",
            a.game
        );
    }
    Ok(())
}

/// The game flags as the library reads them.
pub fn game_choice(a: &GameArgs) -> GameChoice {
    GameChoice {
        game: a.game.clone(),
        size: a.size,
        rule: a.rule.map(|r| match r {
            RuleArg::Freestyle => Rule::Freestyle,
            RuleArg::Standard => Rule::Standard,
            RuleArg::Renju => Rule::Renju,
            RuleArg::RenjuGomocup => Rule::RenjuGomocup,
        }),
        seed: a.seed,
        rounds: a.rounds,
    }
}
