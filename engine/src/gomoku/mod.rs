//! Gomoku on an N x N board (5 <= N <= 26, default 15) under freestyle, standard or renju rules.
//!
//! STUB: the public API the rest of the workspace builds on. Bodies are being written.
use alloc::string::String;
use alloc::vec::Vec;

pub mod renju;

use crate::error::{ConfigError, ForbiddenKind, IllegalMove, ParseMoveError};
use crate::game::{Game, Outcome, Seat};

/// The rule variant (Gomocup's `INFO rule` bitmask: 0 freestyle, 1 standard, 4 renju).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Rule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five wins; six or more wins for nobody.
    Standard,
    /// RIF renju: black may not make double-threes, double-fours or overlines; white wins with
    /// five or more.
    Renju,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Config {
    pub size: u8,
    pub rule: Rule,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            size: 15,
            rule: Rule::Freestyle,
        }
    }
}

/// A point: `x` is the column (0 = left, letter A), `y` the row (0 = top), as Gomocup numbers
/// them. In the canonical notation (`H8`, seed 003) the number is `size - y`: row 1 is the bottom.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

#[derive(Clone, Debug)]
pub struct Gomoku {
    config: Config,
}

impl Gomoku {
    pub fn stone(&self, _p: Point) -> Option<Seat> {
        todo!()
    }
    /// Stones in the order they were played.
    pub fn history(&self) -> &[Point] {
        todo!()
    }
    /// Under renju, every empty point forbidden for black (whoever is to move), with why.
    /// Empty under other rules.
    pub fn forbidden_points(&self) -> Vec<(Point, ForbiddenKind)> {
        todo!()
    }
    /// The winning line, once someone has made it.
    pub fn winning_line(&self) -> Option<Vec<Point>> {
        todo!()
    }
}

impl Game for Gomoku {
    type Move = Point;
    type Config = Config;
    const NAME: &'static str = "gomoku";
    fn new(_config: &Config) -> Result<Self, ConfigError> {
        todo!()
    }
    fn config(&self) -> &Config {
        &self.config
    }
    fn to_move(&self) -> Option<Seat> {
        todo!()
    }
    fn forced_move(&self) -> Option<Point> {
        None
    }
    fn legal_moves(&self, _out: &mut Vec<Point>) {
        todo!()
    }
    fn play(&mut self, _mv: Point) -> Result<(), IllegalMove> {
        todo!()
    }
    fn play_unchecked(&mut self, _mv: Point) {
        todo!()
    }
    fn outcome(&self) -> Option<Outcome> {
        todo!()
    }
    fn parse_move(&self, _text: &str) -> Result<Point, ParseMoveError> {
        todo!()
    }
    fn format_move(&self, _mv: Point) -> String {
        todo!()
    }
    fn ply(&self) -> usize {
        todo!()
    }
    fn scores(&self) -> [i64; 2] {
        todo!()
    }
}
