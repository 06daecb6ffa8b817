//! Playing games between bot processes.
//!
//! - [`game`]: one game: start both bots, the handshake, the move loop on the clocks, the
//!   verdict, the replay. The engine judges every move; this crate measures time and turns what
//!   the processes did into a verdict a student understands.
//! - [`protocol`]: the bot protocols (seed 001's Reversi brain protocol, seed 003's Gobang
//!   bridge, Gomocup, the 2048 duel's line protocol).
//! - [`series`]: a match of several games with colours alternating and openings.
//! - [`sprt`]: a match as a sequential test on game pairs (pentanomial SPRT).
//! - [`spec`]: what to play as a command line or config names it: games, bots, openings.
//! - [`live`]: observers of games in progress, and seats played from outside (people).
//! - [`input`]: reading the files a user names, within a size limit.
//! - [`stall`]: telling a slow bot from a stalled judge (stopped, paused, overloaded).
//! - [`bounds`]: the limits a match, tournament or contest may ask for.
//! - [`bot_env`]: the game's name, size and rule in every bot's environment.

pub mod bot_env;
pub mod bounds;
pub mod game;
pub mod input;
pub mod live;
pub mod protocol;
pub mod series;
pub mod spec;
pub mod sprt;
pub mod stall;
mod turns;
mod verdict;
