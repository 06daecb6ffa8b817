//! arbiter's built-in games through the game kit: [`Reversi`], [`Gomoku`] and [`Duel2048`]
//! implement [`arbiter_game::Game`] by calling `arbiter-engine`, which stays the one place
//! their rules live. Linked natively (`kit_host::Rules::native::<Reversi>()`) they cost what
//! the engine costs plus the kit's JSON requests; `games/reversi`, `games/gomoku` and
//! `games/duel2048` export each as a wasm module (a module exports one game).
//!
//! - Configs are JSON as the engine's `GameConfig` reads them, without the `name`, over the
//!   engine's defaults: `{"size": 8}`, `{"size": 15, "rule": "renju"}`, `{"rounds": 500}`.
//!   The duel's random sequence is drawn from the kit's seed unless the config gives `random`.
//! - Moves are in the engine's notation (`format_move` / `parse_move`, which also reads the
//!   protocols' other forms); the forced plies (a Reversi `pass`, the duel's `skip`) are the
//!   kit's forced moves.
//! - [`Game::tell`] and [`Game::view`] are documented on each game's type and in
//!   `docs/game-kit.md` ("The built-in games through the kit").

mod config;
mod duel;
mod gomoku;
mod reversi;
mod words;

pub use duel::Duel2048;
pub use gomoku::Gomoku;
pub use reversi::Reversi;

/// The games' names, as modules, replays and `arbiter game ... builtin:NAME` call them.
pub const NAMES: [&str; 3] = [
    <Reversi as arbiter_game::Game>::NAME,
    <Gomoku as arbiter_game::Game>::NAME,
    <Duel2048 as arbiter_game::Game>::NAME,
];

#[cfg(test)]
use arbiter_game::Game;

#[cfg(test)]
mod tests;
