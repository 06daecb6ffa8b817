//! Reversi (Othello) on any even N x N board, 4 <= N <= 16, on bitboards.
//!
//! STUB: the public API the rest of the workspace builds on. Bodies are being written.
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{ConfigError, IllegalMove, ParseMoveError};
use crate::game::{Game, Outcome, Seat};

/// Board size; even, 4..=16. Default 16 (seed 001's contest).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Config {
    pub size: u8,
}

impl Default for Config {
    fn default() -> Config {
        Config { size: 16 }
    }
}

/// A ply: a disc at (row, col), both 0-based from the top-left (seed 001's `ROW COL`), or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Place { row: u8, col: u8 },
    Pass,
}

#[derive(Clone, Debug)]
pub struct Reversi {
    config: Config,
}

impl Reversi {
    /// The disc on (row, col), if any.
    pub fn disc(&self, _row: u8, _col: u8) -> Option<Seat> {
        todo!()
    }
    /// Discs per seat (first = black).
    pub fn counts(&self) -> [u16; 2] {
        todo!()
    }
}

/// Leaf count at `depth` plies (a pass is a ply; a finished game is one leaf).
pub fn perft(_pos: &Reversi, _depth: u32) -> u64 {
    todo!()
}

impl Game for Reversi {
    type Move = Move;
    type Config = Config;
    const NAME: &'static str = "reversi";
    fn new(_config: &Config) -> Result<Self, ConfigError> {
        todo!()
    }
    fn config(&self) -> &Config {
        &self.config
    }
    fn to_move(&self) -> Option<Seat> {
        todo!()
    }
    fn forced_move(&self) -> Option<Move> {
        todo!()
    }
    fn legal_moves(&self, _out: &mut Vec<Move>) {
        todo!()
    }
    fn play(&mut self, _mv: Move) -> Result<(), IllegalMove> {
        todo!()
    }
    fn play_unchecked(&mut self, _mv: Move) {
        todo!()
    }
    fn outcome(&self) -> Option<Outcome> {
        todo!()
    }
    fn parse_move(&self, _text: &str) -> Result<Move, ParseMoveError> {
        todo!()
    }
    fn format_move(&self, _mv: Move) -> String {
        todo!()
    }
    fn ply(&self) -> usize {
        todo!()
    }
    fn scores(&self) -> [i64; 2] {
        todo!()
    }
}
