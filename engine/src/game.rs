//! The interface every game implements.
//!
//! A game is a value: `new` builds the start position from a configuration, `play` advances it.
//! The side to move may have no real decision (a Reversi pass, a skipped step of the 2048 duel);
//! such plies are still moves, so that perft, replays and frames count them, but
//! [`Game::forced_move`] names them so a referee plays them without asking a bot.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::error::{ConfigError, IllegalMove, ParseMoveError};

/// A seat at the table. `First` moves first: black in Reversi and Gomoku, the first player
/// ("+", columns 0..3) in the 2048 duel.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "u8", try_from = "u8"))]
pub enum Seat {
    First = 0,
    Second = 1,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    #[inline]
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Option<Seat> {
        match i {
            0 => Some(Seat::First),
            1 => Some(Seat::Second),
            _ => None,
        }
    }
}

impl From<Seat> for u8 {
    fn from(s: Seat) -> u8 {
        s as u8
    }
}

impl TryFrom<u8> for Seat {
    type Error = &'static str;
    fn try_from(v: u8) -> Result<Seat, Self::Error> {
        Seat::from_index(v as usize).ok_or("a seat is 0 (first) or 1 (second)")
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::First => "first",
            Seat::Second => "second",
        })
    }
}

/// Why a game ended by its own rules (not by a bot's failure, which the replay records).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum EndReason {
    /// Reversi: neither side can move; the disc count (first, second) decides.
    NoMoves { discs: [u16; 2] },
    /// Gomoku: the winner made five in a row (or more, where the rule lets an overline win).
    Five,
    /// Gomoku: the board filled up with no winning line.
    BoardFull,
    /// The 2048 duel: all rounds played. Tile counts (first, second) were compared from level
    /// 13 down to 1; `level` is the first level where they differ, `None` when all are equal.
    Levels { level: Option<u8>, counts: [u8; 2] },
    /// A game module's rules ended the game; the module says why in words
    /// (`AnyGame::end_words`).
    Module,
}

/// The end of a game by its rules: a winner, or a draw (`winner == None`), and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    pub winner: Option<Seat>,
    pub reason: EndReason,
}

/// One game's rules. Implementations: [`crate::reversi::Reversi`], [`crate::gomoku::Gomoku`],
/// [`crate::duel2048::Duel`].
pub trait Game: Clone + fmt::Debug {
    /// A ply, including the forced ones (pass, skipped step).
    type Move: Copy + Eq + fmt::Debug;
    /// Size, rule variant, random sequence: everything needed to build the start position.
    type Config: Clone + fmt::Debug;

    /// The name used in replays and on the command line (`reversi`, `gomoku`, `duel2048`).
    const NAME: &'static str;

    /// The start position, or why the configuration is unusable.
    fn new(config: &Self::Config) -> Result<Self, ConfigError>;

    fn config(&self) -> &Self::Config;

    /// The seat that makes the next ply, `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;

    /// The ply the side to move must make when it has no choice (a pass, a skipped step);
    /// `None` when it has a real decision or the game is over.
    fn forced_move(&self) -> Option<Self::Move>;

    /// Appends every legal ply (the forced one alone, when there is one) to `out`.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays `mv` if it is legal; otherwise leaves the position unchanged and says why not.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMove>;

    /// Plays a move already known to be legal (from `legal_moves`). Unspecified but memory-safe
    /// results for an illegal move.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// `Some` once the game is over by its rules.
    fn outcome(&self) -> Option<Outcome>;

    /// Reads a move in this game's notation (see each game's module docs). The position is
    /// given because some notations depend on it (the 2048 duel's step kind).
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// Writes a move in this game's canonical notation; `parse_move` reads it back.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Plies played so far (forced ones included).
    fn ply(&self) -> usize;

    /// Final or running score per seat, as shown to people (discs, stones, tile sum).
    fn scores(&self) -> [i64; 2];
}
