//! What the crates above the engine ask of a game, so that none of them matches on which game
//! it is: the seed of its chance, what its seats are called, what every bot may know of it at
//! start, its default clock, and a title for pages. The tournament, the queue, the server and
//! the game runner ask these questions; only the engine answers them per game.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::time::Duration;

use crate::any::GameConfig;
use crate::duel2048::RandomSource;

/// What a game's seats are called on pages and in logs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SeatNaming {
    /// Black and White: the seats are colours (Reversi, Gomoku).
    Colours,
    /// First and second: the game has no colours (the 2048 duel, a game module).
    Order,
}

/// A game's own clock, before a contest or the command line sets limits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DefaultClock {
    pub per_move: Option<Duration>,
    pub per_game: Option<Duration>,
}

impl GameConfig {
    /// The seed its chance is drawn from: the 2048 duel's random sequence, a module's dice.
    /// `None` for games without chance (and for a duel whose sequence is given).
    pub fn chance_seed(&self) -> Option<u64> {
        match self {
            GameConfig::Duel2048(c) => match c.random {
                RandomSource::Seed(s) => Some(s),
                RandomSource::Sequence(_) => None,
            },
            GameConfig::Module(m) => Some(m.seed),
            GameConfig::Reversi(_) | GameConfig::Gomoku(_) => None,
        }
    }

    /// The same game with its chance drawn from `seed`; a game without chance is unchanged,
    /// and so is a duel whose sequence is given (a game of the original platform, replayed).
    pub fn with_chance_seed(&self, seed: u64) -> GameConfig {
        let mut config = self.clone();
        match &mut config {
            GameConfig::Duel2048(c) => {
                if let RandomSource::Seed(s) = &mut c.random {
                    *s = seed;
                }
            }
            GameConfig::Module(m) => m.seed = seed,
            GameConfig::Reversi(_) | GameConfig::Gomoku(_) => {}
        }
        config
    }

    /// The configuration of game `index` of a series of `seats`-seat games: the chance seed
    /// advances once per round of seatings (a pair in a two-seat game), so that every seating
    /// of a round sees the same chance and every round other chance.
    pub fn for_game_of_series(&self, index: usize, seats: usize) -> GameConfig {
        match self.chance_seed() {
            Some(s) => self.with_chance_seed(s.wrapping_add((index / seats.max(1)) as u64)),
            None => self.clone(),
        }
    }

    pub fn seat_naming(&self) -> SeatNaming {
        match self {
            GameConfig::Reversi(_) | GameConfig::Gomoku(_) => SeatNaming::Colours,
            GameConfig::Duel2048(_) | GameConfig::Module(_) => SeatNaming::Order,
        }
    }

    /// The game's own clock: seed 001's for Reversi (5 s a move, 180 s a game), the same for
    /// Gomoku and modules, seed 000's for the 2048 duel (5 s of thinking in all, no move limit).
    pub fn default_clock(&self) -> DefaultClock {
        match self {
            GameConfig::Duel2048(_) => DefaultClock {
                per_move: None,
                per_game: Some(Duration::from_secs(5)),
            },
            GameConfig::Reversi(_) | GameConfig::Gomoku(_) | GameConfig::Module(_) => {
                DefaultClock {
                    per_move: Some(Duration::from_secs(5)),
                    per_game: Some(Duration::from_secs(180)),
                }
            }
        }
    }

    /// What every bot may know of the game at start, whatever its protocol, as names and
    /// values: `GAME` (the game's own name), `SIZE`, `RULE`, a module's `GAME_CONFIG`. Never
    /// the chance seed: it would tell a bot every future die.
    pub fn public_facts(&self) -> Vec<(&'static str, String)> {
        let mut facts = Vec::from([("GAME", self.title().to_string())]);
        match self {
            GameConfig::Reversi(c) => facts.push(("SIZE", c.size.to_string())),
            GameConfig::Gomoku(c) => {
                facts.push(("SIZE", c.size.to_string()));
                facts.push(("RULE", c.rule.name().to_string()));
            }
            GameConfig::Duel2048(_) => {}
            GameConfig::Module(m) => facts.push(("GAME_CONFIG", m.config.clone())),
        }
        facts
    }

    /// The game and its rules for a page, without the chance seed (a contest draws one per
    /// pair): "Reversi 16 x 16", "Gomoku 15 x 15, renju", "2048 duel, 500 rounds",
    /// "connect-four 1.0.0".
    pub fn rules_title(&self) -> String {
        match self {
            GameConfig::Duel2048(c) => format!("2048 duel, {} rounds", c.rounds),
            other => other.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{duel2048, reversi};

    #[test]
    fn a_series_advances_the_chance_once_per_pair_and_leaves_other_games_alone() {
        let duel = GameConfig::Duel2048(duel2048::Config {
            rounds: 10,
            random: RandomSource::Seed(40),
        });
        let seeds: Vec<_> = (0..5)
            .map(|i| duel.for_game_of_series(i, 2).chance_seed())
            .collect();
        assert_eq!(seeds, [Some(40), Some(40), Some(41), Some(41), Some(42)]);
        let given = GameConfig::Duel2048(duel2048::Config {
            rounds: 2,
            random: RandomSource::Sequence(Vec::from([1, 2])),
        });
        assert_eq!(given.for_game_of_series(3, 2), given);
        let reversi = GameConfig::Reversi(reversi::Config { size: 8 });
        assert_eq!(reversi.with_chance_seed(9), reversi);
        assert_eq!(reversi.chance_seed(), None);
    }

    #[test]
    fn the_public_facts_name_the_board_but_never_the_seed() {
        let duel = GameConfig::Duel2048(duel2048::Config {
            rounds: 10,
            random: RandomSource::Seed(123_456),
        });
        let facts = duel.public_facts();
        assert_eq!(facts, [("GAME", String::from("duel2048"))]);
        assert!(
            !duel.rules_title().contains("123456"),
            "{}",
            duel.rules_title()
        );
        let reversi = GameConfig::Reversi(reversi::Config { size: 8 });
        assert_eq!(reversi.public_facts()[1], ("SIZE", String::from("8")));
    }
}
