//! Importers for the seeds' own game records, so existing users keep their history.
//!
//! - [`sessdsa`]: seed 000's 2048-duel record files (`&d/&p/&e` text).
//! - [`gobang`]: seed 003's Gobang bridge JSON logs.
//!
//! Both are pure text-to-[`Replay`](crate::replay::Replay) conversions; each checks every
//! board the record shows against the engine and reports the first mismatch.

use alloc::string::String;
use core::fmt;

pub mod gobang;
pub mod sessdsa;

/// Why a record cannot be imported.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ImportError {
    /// Something on `line` (1-based; 0 = the file as a whole) is wrong.
    Syntax { line: usize, message: String },
    /// After move `move_number` the record's board differs from the engine's.
    BoardMismatch {
        line: usize,
        move_number: usize,
        expected: String,
        actual: String,
    },
    /// Game `game` (0-based, in a file holding several) is wrong.
    Game { game: usize, message: String },
}

impl ImportError {
    pub(crate) fn at(line: usize, message: impl Into<String>) -> ImportError {
        ImportError::Syntax {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Syntax { line: 0, message } => f.write_str(message),
            ImportError::Syntax { line, message } => write!(f, "line {line}: {message}"),
            ImportError::BoardMismatch {
                line,
                move_number,
                expected,
                actual,
            } => write!(
                f,
                "line {line}: the board after move {move_number} differs from the rules.\n\
                 record says:\n{expected}engine says:\n{actual}"
            ),
            ImportError::Game { game, message } => write!(f, "game {}: {message}", game + 1),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ImportError {}
