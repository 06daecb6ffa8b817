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
    refuse_module_config(a)?;
    arbiter_match::spec::game_config(&game_choice(a))
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
