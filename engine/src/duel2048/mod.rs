//! The 2048 duel of seed 000 (sessdsa.2048), exactly as its original platform plays it.
//!
//! STUB: the public API the rest of the workspace builds on. Bodies are being written.
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{ConfigError, IllegalMove, ParseMoveError, StepKind};
use crate::game::{Game, Outcome, Seat};

pub const ROWS: u8 = 4;
pub const COLS: u8 = 8;
/// Each entry of the random sequence is uniform in `0..MODULUS` (lcm(1..16)).
pub const MODULUS: u32 = 720_720;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    Up = 0,
    Down = 1,
    Left = 2,
    Right = 3,
}

/// A decision: place a level-1 tile, slide one's tiles, or skip (when the step is skipped).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Place { row: u8, col: u8 },
    Slide(Direction),
    Skip,
}

/// Where the per-round random numbers come from.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RandomSource {
    /// Drawn by [`random_sequence`] from this seed.
    Seed(u64),
    /// Given explicitly (a game of the original platform): at least `rounds` values < MODULUS.
    Sequence(Vec<u32>),
}

#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Config {
    pub rounds: u16,
    pub random: RandomSource,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            rounds: 500,
            random: RandomSource::Seed(0),
        }
    }
}

/// One cell: its owner (the half's owner when empty) and tile level (0 = empty).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cell {
    pub owner: Seat,
    pub level: u8,
}

/// The documented PRNG behind `RandomSource::Seed`; identical on every target.
pub fn random_sequence(_seed: u64, _rounds: usize) -> Vec<u32> {
    todo!()
}

#[derive(Clone, Debug)]
pub struct Duel {
    config: Config,
}

impl Duel {
    pub fn cell(&self, _row: u8, _col: u8) -> Cell {
        todo!()
    }
    /// The round being played (0-based), `rounds` once over.
    pub fn round(&self) -> u16 {
        todo!()
    }
    /// Whether the current step is a placement or a slide.
    pub fn step_kind(&self) -> StepKind {
        todo!()
    }
    /// The cell `seat` may place on in its own half this round (`next(p, r)`), if any.
    pub fn next_cell(&self, _seat: Seat) -> Option<(u8, u8)> {
        todo!()
    }
    /// The random sequence in use.
    pub fn sequence(&self) -> &[u32] {
        todo!()
    }
    /// Tiles per level for `seat`: index k = level k (index 0 unused).
    pub fn level_counts(&self, _seat: Seat) -> [u8; 14] {
        todo!()
    }
}

impl Game for Duel {
    type Move = Move;
    type Config = Config;
    const NAME: &'static str = "duel2048";
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
        let _ = StepKind::Place;
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
