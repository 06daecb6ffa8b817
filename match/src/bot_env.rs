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
/// The game's chance seed (a module's, the duel's), given to arbiter's built-in bots only:
/// their own copy of the game draws the same chance with it. A player's bot is never told it: it would know every future
/// die (EinStein's).
pub const MODULE_SEED_VAR: &str = "ARBITER_GAME_SEED";

/// The variables every bot of `game` is given: `ARBITER_` and each of the game's public facts
/// (`ARBITER_GAME`, `ARBITER_SIZE`, `ARBITER_RULE`, a module's `ARBITER_GAME_CONFIG`), and
/// the chance seed as `ARBITER_GAME_SEED` for arbiter's own bots (`trusted`) only.
pub fn game_vars(game: &GameConfig, trusted: bool) -> Vec<(String, String)> {
    let mut vars: Vec<(String, String)> = game
        .public_facts()
        .into_iter()
        .map(|(fact, value)| (format!("ARBITER_{fact}"), value))
        .collect();
    if let (true, Some(seed)) = (trusted, game.chance_seed()) {
        vars.push((MODULE_SEED_VAR.to_string(), seed.to_string()));
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
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(r, [pair(GAME_VAR, "reversi"), pair(SIZE_VAR, "8")]);
        let g = game_vars(
            &GameConfig::Gomoku(gomoku::Config {
                size: 19,
                rule: gomoku::Rule::Renju,
            }),
            false,
        );
        assert_eq!(g[1], pair(SIZE_VAR, "19"));
        assert_eq!(g[2], pair(RULE_VAR, "renju"));
    }
}
