//! arbiter-engine: the rules of the games arbiter referees, and its replay format.
//!
//! Pure and `no_std` (with `alloc`): no I/O, clocks or threads, so the same code judges games
//! in the referee and rebuilds frames in the browser player (wasm).
//!
//! - [`game`]: the [`Game`] trait every game implements.
//! - [`reversi`], [`gomoku`] (with [`gomoku::renju`]), [`duel2048`]: the games.
//! - [`any`]: one enum over all games, for code that picks the game at run time.
//! - [`module`]: games that come as game-kit modules, run by a host behind a trait.
//! - [`platform`]: what the crates above ask of any game (its chance seed, seat names, clock).
//! - [`replay`]: the versioned replay document (feature `serde`).
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod any;
pub mod duel2048;
pub mod error;
pub mod game;
pub mod gomoku;
#[cfg(feature = "serde")]
pub mod import;
pub mod module;
pub mod platform;
#[cfg(feature = "serde")]
pub mod replay;
pub mod reversi;

pub use any::{AnyGame, AnyMove, GameConfig};
pub use error::{ConfigError, ForbiddenKind, IllegalMove, ParseMoveError};
pub use game::{EndReason, Game, Outcome, Seat, SeatSet, Turn, Viewer};
