//! The config: the grid, the horizon and the seats.

use arbiter_game::{config_number, players, Json};

/// The grid's sides: OpenSpiel's least, and the view's most with the wall drawn around it.
pub const SIDES: std::ops::RangeInclusive<usize> = 4..=62;
/// The most turns a game may last.
pub const MAX_HORIZON: usize = 10_000;

/// The config keys besides `players`.
pub const KEYS: &[&str] = &["cols", "rows", "horizon"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    pub seats: usize,
    pub cols: usize,
    pub rows: usize,
    /// The game ends after this many turns (OpenSpiel's `horizon`).
    pub horizon: u32,
}

impl Settings {
    pub fn read(config: &Json, seats: &[usize]) -> Result<Settings, String> {
        Ok(Settings {
            seats: players(config, seats)?,
            cols: config_number(config, "cols", 10, SIDES)?,
            rows: config_number(config, "rows", 10, SIDES)?,
            horizon: config_number(config, "horizon", 100, 1..=MAX_HORIZON)? as u32,
        })
    }
}
