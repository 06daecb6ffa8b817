//! What every bot learns from its environment about the game it plays, whatever its protocol:
//! seed 001's `reversi` protocol never sends the board size, and `gobang` never the rule, so a
//! bot written for one contest's board would otherwise guess it (and lose on its first move).

use arbiter_engine::any::GameConfig;
use arbiter_sandbox::BotCommand;

/// The game's name (`reversi`, `gomoku`, `duel2048`).
pub const GAME_VAR: &str = "ARBITER_GAME";
/// The board's side (Reversi and Gomoku only).
pub const SIZE_VAR: &str = "ARBITER_SIZE";
/// Gomoku's rule (`freestyle`, `standard`, `renju`, `renju-gomocup`).
pub const RULE_VAR: &str = "ARBITER_RULE";

/// A module game's configuration (JSON), for bots of kit games.
pub const MODULE_CONFIG_VAR: &str = "ARBITER_GAME_CONFIG";
/// A module game's seed, given to arbiter's built-in bots only: their own copy of the game
/// draws the same chance with it. A player's bot is never told it: it would know every future
/// die (EinStein's).
pub const MODULE_SEED_VAR: &str = "ARBITER_GAME_SEED";

/// The `ARBITER_GAME`, `ARBITER_SIZE` and `ARBITER_RULE` entries for `game` (a module game's
/// `ARBITER_GAME` is its own name, with `ARBITER_GAME_CONFIG`; and `ARBITER_GAME_SEED` for
/// arbiter's own bots, `trusted`).
pub fn game_vars(game: &GameConfig, trusted: bool) -> Vec<(&'static str, String)> {
    let mut vars = vec![(GAME_VAR, game.name().to_string())];
    match game {
        GameConfig::Reversi(c) => vars.push((SIZE_VAR, c.size.to_string())),
        GameConfig::Gomoku(c) => {
            vars.push((SIZE_VAR, c.size.to_string()));
            vars.push((RULE_VAR, c.rule.name().to_string()));
        }
        GameConfig::Duel2048(_) => {}
        // The module's own name: bots that play several kit games learn which one this is.
        GameConfig::Module(m) => {
            vars[0].1 = m.module.name.clone();
            vars.push((MODULE_CONFIG_VAR, m.config.clone()));
            if trusted {
                vars.push((MODULE_SEED_VAR, m.seed.to_string()));
            }
        }
    }
    vars
}

/// `command` with the game's variables set (see [`game_vars`]).
pub fn with_game_vars(mut command: BotCommand, game: &GameConfig, trusted: bool) -> BotCommand {
    for (var, value) in game_vars(game, trusted) {
        command = command.env(var, value);
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::gomoku;
    use arbiter_engine::reversi;

    #[test]
    fn sized_games_name_their_size_and_gomoku_its_rule() {
        let r = game_vars(&GameConfig::Reversi(reversi::Config { size: 8 }), false);
        assert_eq!(r, [(GAME_VAR, "reversi".into()), (SIZE_VAR, "8".into())]);
        let g = game_vars(
            &GameConfig::Gomoku(gomoku::Config {
                size: 19,
                rule: gomoku::Rule::Renju,
            }),
            false,
        );
        assert_eq!(g[1], (SIZE_VAR, "19".to_string()));
        assert_eq!(g[2], (RULE_VAR, "renju".to_string()));
    }
}
