//! Typed errors. Each one says what was wrong in words a student understands (`Display`).

use alloc::string::String;
use core::fmt;

/// Why a renju point is forbidden for black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum ForbiddenKind {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl ForbiddenKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "double-three",
            ForbiddenKind::DoubleFour => "double-four",
            ForbiddenKind::Overline => "overline",
        }
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The 2048 duel's step kinds, named in errors.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StepKind {
    Place,
    Slide,
}

/// Why a move cannot be played here.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// The square or cell is not on the board.
    OffBoard,
    /// The square or cell is taken.
    Occupied,
    /// Reversi: the disc would flip nothing.
    NoFlips,
    /// A pass or skip while a real move is available.
    CannotPass,
    /// A real move where the only legal ply is a pass or skip.
    MustPass,
    /// Renju: black may not play here.
    Forbidden(ForbiddenKind),
    /// The 2048 duel: a move of the wrong kind for this step (a direction when placing ...).
    WrongStep { expected: StepKind },
    /// The 2048 duel: a cell in one's own half other than the random sequence's cell
    /// ("not achievable position" in the original platform).
    NotRandomCell { allowed: Option<(u8, u8)> },
    /// The 2048 duel: the direction leaves the board unchanged ("not achievable direction").
    NoChange,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is already over"),
            IllegalMove::OffBoard => f.write_str("the point is off the board"),
            IllegalMove::Occupied => f.write_str("the point is already occupied"),
            IllegalMove::NoFlips => f.write_str("the move flips no disc"),
            IllegalMove::CannotPass => f.write_str("passing is not allowed while a move exists"),
            IllegalMove::MustPass => f.write_str("there is no legal move: the side must pass"),
            IllegalMove::Forbidden(k) => write!(f, "forbidden point for black ({k})"),
            IllegalMove::WrongStep {
                expected: StepKind::Place,
            } => f.write_str("this step is a placement, not a direction"),
            IllegalMove::WrongStep {
                expected: StepKind::Slide,
            } => f.write_str("this step is a direction, not a placement"),
            IllegalMove::NotRandomCell {
                allowed: Some((r, c)),
            } => write!(
                f,
                "not achievable position: in your own half only ({r}, {c}) is allowed this round"
            ),
            IllegalMove::NotRandomCell { allowed: None } => {
                f.write_str("not achievable position: your own half is full")
            }
            IllegalMove::NoChange => {
                f.write_str("not achievable direction: it leaves the board unchanged")
            }
        }
    }
}

/// A move's text could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseMoveError {
    /// The text as given (cut to 80 characters).
    pub input: String,
    /// What the notation expects, e.g. "a square like d3 or `row col`".
    pub expected: &'static str,
}

impl ParseMoveError {
    pub fn new(input: &str, expected: &'static str) -> ParseMoveError {
        let input = match input.char_indices().nth(80) {
            Some((cut, _)) => String::from(&input[..cut]),
            None => String::from(input),
        };
        ParseMoveError { input, expected }
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read move {:?}: expected {}",
            self.input, self.expected
        )
    }
}

/// A configuration that names no playable game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConfigError {
    pub message: String,
}

impl ConfigError {
    pub fn new(message: impl Into<String>) -> ConfigError {
        ConfigError {
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid game configuration: {}", self.message)
    }
}

#[cfg(feature = "std")]
mod std_impls {
    extern crate std;
    impl std::error::Error for super::IllegalMove {}
    impl std::error::Error for super::ParseMoveError {}
    impl std::error::Error for super::ConfigError {}
}
