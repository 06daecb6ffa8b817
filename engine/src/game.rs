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

/// A seat at the table, by its index: 0 moves first (black in Reversi and Gomoku, the first
/// player, "+", columns 0..3, in the 2048 duel). A game has from 1 to [`Seat::MAX`] seats; the
/// built-in games have two.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "u8", try_from = "u8"))]
pub struct Seat(u8);

impl Seat {
    /// The most seats a game may have.
    pub const MAX: usize = 8;
    pub const FIRST: Seat = Seat(0);
    pub const SECOND: Seat = Seat(1);
    /// The two seats of a two-seat game.
    pub const BOTH: [Seat; 2] = [Seat::FIRST, Seat::SECOND];

    /// The opponent in a two-seat game (the built-in games and every two-seat rule: a failure
    /// there is the other seat's win). Meaningless for more seats.
    #[inline]
    pub const fn other(self) -> Seat {
        Seat(1 - (self.0 & 1))
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat of index `i`, if a game can have it.
    pub const fn from_index(i: usize) -> Option<Seat> {
        if i < Seat::MAX {
            Some(Seat(i as u8))
        } else {
            None
        }
    }

    /// The seats of a game of `n` seats, in order.
    pub fn all(n: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..n.min(Seat::MAX)).map(|i| Seat(i as u8))
    }
}

impl From<Seat> for u8 {
    fn from(s: Seat) -> u8 {
        s.0
    }
}

impl TryFrom<u8> for Seat {
    type Error = &'static str;
    fn try_from(v: u8) -> Result<Seat, Self::Error> {
        Seat::from_index(v as usize).ok_or("a seat is a number from 0 (first) to 7")
    }
}

/// Ordinal names, as the built-in games and the referee's words call seats.
const ORDINALS: [&str; Seat::MAX] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
];

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(ORDINALS[self.index() % Seat::MAX])
    }
}

/// A set of seats: the movers of a simultaneous turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeatSet(u8);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    pub fn one(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }

    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat.0);
    }

    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in order, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Seat> + Clone {
        Seat::all(Seat::MAX).filter(move |s| self.contains(*s))
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        for seat in iter {
            s.insert(seat);
        }
        s
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Whose turn it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Turn {
    /// One seat moves.
    Seat(Seat),
    /// These seats move at once (a module game's simultaneous turn): each is asked without
    /// knowing what the others choose, and the moves are played together as one ply.
    Together(SeatSet),
    /// The game is over (or a module failed: see `AnyGame::fault`).
    Over,
}

impl Turn {
    pub fn of(to_move: Option<Seat>) -> Turn {
        to_move.map_or(Turn::Over, Turn::Seat)
    }

    /// The seats that move now (none once over).
    pub fn movers(self) -> SeatSet {
        match self {
            Turn::Seat(s) => SeatSet::one(s),
            Turn::Together(set) => set,
            Turn::Over => SeatSet::EMPTY,
        }
    }

    /// The seat to move in a turn of one seat.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Turn::Seat(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_over(self) -> bool {
        self == Turn::Over
    }
}

/// Who looks at a position: in a game with hidden information what is drawn depends on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Viewer {
    /// Everything: a finished game's replay, or whoever the contest lets see all.
    All,
    /// What one seat may know (its own hand and the table).
    Seat(Seat),
    /// What everyone at the table sees: spectators while the game runs.
    Public,
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
