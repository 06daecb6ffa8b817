//! The 2048 duel of seed 000 (sessdsa.2048), exactly as its original platform plays it.
//!
//! # Board
//! 4 rows x 8 columns, `(row, col)` 0-based from the top left. Columns 0..3 are the first
//! player's half ("+" in printouts), columns 4..7 the second's ("-"). A tile has a level >= 1
//! (shown as 2^level) and an owner; an empty cell belongs to its half's owner.
//!
//! # Rounds and steps
//! Each round `r` has four steps, always in this order: the first player places, the second
//! places, the first slides, the second slides ([`Step`]). The game always runs all
//! `Config::rounds` rounds; early losses (timeouts, crashes, illegal output) are the referee's
//! business. A step with no decision is still a ply ([`Move::Skip`], named by
//! [`Game::forced_move`]):
//! - a placement is skipped only when the WHOLE board is full (a player whose own half is full
//!   must place in the opponent's half);
//! - a slide is skipped when no direction changes the board for the mover.
//!
//! # Placement
//! `none(p)` = p's own empty cells in row-major order, reversed for the second player;
//! `next(p, r) = none(p)[sequence[r] % len(none(p))]` ([`Duel::next_cell`]). A placement is legal
//! on an empty cell that lies in the opponent's half, or that is exactly `next(p, r)`. The placed
//! tile has level 1 and belongs to the owner of the half it lands in.
//!
//! # Sliding
//! Only the mover's tiles move, front first (up: rows ascending, down: rows descending, left:
//! columns ascending, right: columns descending). A tile slides while the next cell is on the
//! board, empty and in the mover's half (by the cell's column). Then, if the next cell holds a
//! tile of equal level (either owner, either half) that was not produced by a merge in this same
//! slide, the two merge there: level + 1, owned by the mover. A vacated cell returns to its
//! half's owner. A slide is legal only if it changes the board.
//!
//! # End
//! Each seat's tiles are counted per level; counts are compared from the highest level down to
//! level 1 and the first difference decides ([`EndReason::Levels`]). The original compares
//! levels 13..1. Higher levels cannot occur in a game of up to 10000 rounds started from the
//! empty board (at most 40000 points of tiles are ever placed, below 2^16, and a level above 13
//! would need 16384), but a board built with [`Duel::from_board`] may hold them: such levels are
//! compared first, each at its own level, above 13. A draw reports `level: None, counts: [0, 0]`.
//!
//! # Random sequence
//! [`RandomSource::Seed`] draws the sequence with [`random_sequence`]: SplitMix64 over the seed,
//! each value = `(next_u64 as u128 * 720720) >> 64` (Lemire's multiply-shift, bias < 2^-44).
//! Integer arithmetic only, so native and wasm builds draw the same games.
//!
//! # Notation
//! Canonical ([`Game::format_move`]): a placement `row,col` (`1,3`), a slide `up` / `down` /
//! `left` / `right`, a skipped step `skip`. [`Game::parse_move`] also reads (case-insensitive,
//! trimmed) `(1, 3)`, `1 3`, `U` / `D` / `L` / `R`, and a single digit `0`..`3` for a
//! direction, numbered as the original API does (0 up, 1 down, 2 left, 3 right).
//!
//! # Printout
//! [`Duel::write_board`] writes the original platform's board printout (`+01 +00 ... -02`, sign =
//! owner of the cell, two digits = level); [`parse_board`] reads it back for importers.
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use crate::error::{ConfigError, IllegalMove, ParseMoveError, StepKind};
use crate::game::{EndReason, Game, Outcome, Seat};

pub const ROWS: u8 = 4;
pub const COLS: u8 = 8;
/// Each entry of the random sequence is uniform in `0..MODULUS` (lcm(1..16)).
pub const MODULUS: u32 = 720_720;
/// Most rounds a configuration may ask for (the original plays 500).
pub const MAX_ROUNDS: u16 = 10_000;
/// Highest level [`Duel::from_board`] and [`parse_board`] accept: the printout has two digits.
pub const MAX_LEVEL: u8 = 99;
/// The levels the original platform scores (1..=13).
pub const SCORED_LEVELS: u8 = 13;

const CELLS: usize = 32;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    Up = 0,
    Down = 1,
    Left = 2,
    Right = 3,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The original API's number (0 up, 1 down, 2 left, 3 right).
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Option<Direction> {
        match i {
            0 => Some(Direction::Up),
            1 => Some(Direction::Down),
            2 => Some(Direction::Left),
            3 => Some(Direction::Right),
            _ => None,
        }
    }

    /// The word used in notation and in the original records (`up`, `down`, `left`, `right`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }
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
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Cell {
    pub owner: Seat,
    pub level: u8,
}

impl Cell {
    /// The empty cell at column `col`: it belongs to the owner of its half.
    pub const fn empty(col: u8) -> Cell {
        Cell {
            owner: half_owner(col),
            level: 0,
        }
    }
}

/// The owner of the half column `col` lies in.
#[inline]
pub const fn half_owner(col: u8) -> Seat {
    if col < COLS / 2 {
        Seat::FIRST
    } else {
        Seat::SECOND
    }
}

/// One of the four steps of a round, in playing order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Step {
    FirstPlace = 0,
    SecondPlace = 1,
    FirstSlide = 2,
    SecondSlide = 3,
}

impl Step {
    pub const ALL: [Step; 4] = [
        Step::FirstPlace,
        Step::SecondPlace,
        Step::FirstSlide,
        Step::SecondSlide,
    ];

    pub const fn seat(self) -> Seat {
        match self {
            Step::FirstPlace | Step::FirstSlide => Seat::FIRST,
            Step::SecondPlace | Step::SecondSlide => Seat::SECOND,
        }
    }

    pub const fn kind(self) -> StepKind {
        match self {
            Step::FirstPlace | Step::SecondPlace => StepKind::Place,
            Step::FirstSlide | Step::SecondSlide => StepKind::Slide,
        }
    }

    const fn from_index(i: u8) -> Step {
        match i & 3 {
            0 => Step::FirstPlace,
            1 => Step::SecondPlace,
            2 => Step::FirstSlide,
            _ => Step::SecondSlide,
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, full-period, and the same on every target.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The documented PRNG behind `RandomSource::Seed`; identical on every target.
///
/// SplitMix64 seeded with `seed`; value i = `((x_i as u128 * 720720) >> 64) as u32` where `x_i`
/// is the i-th 64-bit output (the state is advanced by 0x9E3779B97F4A7C15 before each output).
pub fn random_sequence(seed: u64, rounds: usize) -> Vec<u32> {
    let mut rng = SplitMix64(seed);
    (0..rounds)
        .map(|_| ((u128::from(rng.next_u64()) * u128::from(MODULUS)) >> 64) as u32)
        .collect()
}

/// What every position of one game shares: kept behind an `Arc` so cloning a position (search,
/// analysis) copies 40 bytes and not the sequence.
#[derive(Debug)]
struct Shared {
    config: Config,
    sequence: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Duel {
    shared: Arc<Shared>,
    /// Row-major, index `row * 8 + col`.
    cells: [Cell; CELLS],
    round: u16,
    /// 0..=3, see [`Step`].
    step: u8,
    /// Occupied cells, bit `row * 8 + col`; kept in step with `cells`.
    occupied: u32,
    /// Directions that change the board for the mover (bit = `Direction as u8`); kept up to date
    /// whenever the current step is a slide.
    slide_mask: u8,
}

#[inline]
const fn idx(row: u8, col: u8) -> usize {
    row as usize * COLS as usize + col as usize
}

#[inline]
const fn empty_at(i: usize) -> Cell {
    Cell::empty((i % COLS as usize) as u8)
}

const fn empty_board() -> [Cell; CELLS] {
    let mut cells = [Cell {
        owner: Seat::FIRST,
        level: 0,
    }; CELLS];
    let mut i = 0;
    while i < CELLS {
        cells[i] = empty_at(i);
        i += 1;
    }
    cells
}

/// Lines of a slide, each listed front first: (first cell, stride, length, number of lines,
/// step from one line's first cell to the next's).
const fn lines(dir: Direction) -> (isize, isize, usize, usize, isize) {
    match dir {
        Direction::Up => (0, 8, 4, 8, 1),
        Direction::Down => (24, -8, 4, 8, 1),
        Direction::Left => (0, 1, 8, 4, 8),
        Direction::Right => (7, -1, 8, 4, 8),
    }
}

/// Slides `mover`'s tiles in `dir` (rules in the module docs); returns whether anything changed.
fn slide_cells(cells: &mut [Cell; CELLS], mover: Seat, dir: Direction) -> bool {
    let (start, stride, len, count, line_step) = lines(dir);
    let mine = owned_bits(cells, mover);
    let mut changed = false;
    for line in 0..count {
        let line_bits = match dir {
            Direction::Up | Direction::Down => COL0 << line,
            Direction::Left | Direction::Right => 0xFF << (8 * line),
        };
        if mine & line_bits == 0 {
            continue;
        }
        let first = start + line as isize * line_step;
        let at = |k: usize| (first + k as isize * stride) as usize;
        // Positions (within the line) of tiles produced by a merge in this slide.
        let mut merged: u8 = 0;
        for i in 1..len {
            let from = at(i);
            let tile = cells[from];
            if tile.level == 0 || tile.owner != mover {
                continue;
            }
            let mut pos = i;
            while pos > 0 {
                let n = at(pos - 1);
                if cells[n].level == 0 && half_owner((n % 8) as u8) == mover {
                    pos -= 1;
                } else {
                    break;
                }
            }
            if pos > 0 {
                let n = at(pos - 1);
                if cells[n].level == tile.level && merged & (1 << (pos - 1)) == 0 {
                    cells[n] = Cell {
                        owner: mover,
                        level: tile.level.saturating_add(1),
                    };
                    merged |= 1 << (pos - 1);
                    cells[from] = empty_at(from);
                    changed = true;
                    continue;
                }
            }
            if pos != i {
                cells[at(pos)] = tile;
                cells[from] = empty_at(from);
                changed = true;
            }
        }
    }
    changed
}

/// Directions in which `mover`'s slide would change the board (bit = direction index).
///
/// A slide changes the board exactly when some mover tile's next cell is an empty cell of the
/// mover's half or a tile of equal level: the first such tile in processing order still sees
/// that when its turn comes, since nothing before it moved. Computed on bit sets, branch-free.
fn slide_mask(cells: &[Cell; CELLS], mover: Seat) -> u8 {
    let mut occupied = 0u32;
    let mut mine = 0u32;
    // Bit i: cells i and i + 8 (vertical) / i + 1 (horizontal, same row) hold equal tiles.
    let mut eq_v = 0u32;
    let mut eq_h = 0u32;
    let mut levels = [0u8; CELLS + 8];
    for (l, c) in levels.iter_mut().zip(cells) {
        *l = c.level;
    }
    for (i, c) in cells.iter().enumerate() {
        let full = c.level != 0;
        occupied |= u32::from(full) << i;
        mine |= u32::from(full & (c.owner == mover)) << i;
        eq_v |= u32::from(full & (levels[i + 8] == c.level)) << i;
        eq_h |= u32::from(full & (levels[i + 1] == c.level)) << i;
    }
    eq_h &= !COL7;
    let open = !occupied & half_bits(mover);
    let up = mine & ((open << 8) | (eq_v << 8));
    let down = mine & ((open >> 8) | eq_v);
    let left = mine & (((open << 1) & !COL0) | (eq_h << 1));
    let right = mine & (((open >> 1) & !COL7) | eq_h);
    u8::from(up != 0)
        | u8::from(down != 0) << 1
        | u8::from(left != 0) << 2
        | u8::from(right != 0) << 3
}

/// Column 0 of every row, as a bit set.
const COL0: u32 = 0x0101_0101;
/// Column 7 of every row, as a bit set.
const COL7: u32 = 0x8080_8080;

/// `seat`'s tiles as a bit set (bit `row * 8 + col`).
fn owned_bits(cells: &[Cell; CELLS], seat: Seat) -> u32 {
    cells.iter().enumerate().fold(0, |acc, (i, c)| {
        acc | (u32::from(c.level != 0 && c.owner == seat) << i)
    })
}

/// Bit `row * 8 + col` for each cell of the first player's half (columns 0..3).
const FIRST_HALF: u32 = 0x0F0F_0F0F;

/// The cells of `seat`'s half as a bit set (bit `row * 8 + col`).
#[inline]
const fn half_bits(seat: Seat) -> u32 {
    match seat {
        Seat::FIRST => FIRST_HALF,
        _ => !FIRST_HALF,
    }
}

/// The occupied cells as a bit set (bit `row * 8 + col`).
fn occupancy(cells: &[Cell; CELLS]) -> u32 {
    cells
        .iter()
        .enumerate()
        .fold(0, |acc, (i, c)| acc | (u32::from(c.level != 0) << i))
}

/// `next(p, r)` for the sequence value `value`, given the occupied cells: the k-th free cell of
/// `seat`'s half, counting in row-major order (bit order) for the first player and backwards
/// for the second.
fn next_cell_of(occupied: u32, seat: Seat, value: u32) -> Option<(u8, u8)> {
    let mut free = !occupied & half_bits(seat);
    let n = free.count_ones();
    if n == 0 {
        return None;
    }
    let k = value % n;
    let i = match seat {
        Seat::FIRST => {
            for _ in 0..k {
                free &= free - 1;
            }
            free.trailing_zeros()
        }
        _ => {
            for _ in 0..k {
                free &= !(1u32 << (31 - free.leading_zeros()));
            }
            31 - free.leading_zeros()
        }
    };
    Some(((i / 8) as u8, (i % 8) as u8))
}

impl Duel {
    /// A position in the middle of a game, for analysis, importers and tests: `rows` as the
    /// board, the game about to play `step` of round `round` (`round == rounds` with
    /// `Step::FirstPlace`: the game is over). Empty cells must belong to their half's owner;
    /// levels are at most [`MAX_LEVEL`]. The board need not be reachable in a real game.
    /// [`Game::ply`] then counts as if every earlier step had been played (`round * 4 + step`).
    pub fn from_board(
        config: &Config,
        rows: [[Cell; 8]; 4],
        round: u16,
        step: Step,
    ) -> Result<Duel, ConfigError> {
        let mut duel = Duel::new(config)?;
        if round > config.rounds || (round == config.rounds && step != Step::FirstPlace) {
            return Err(ConfigError::new(format!(
                "round {round} step {step:?} is past the end of a {}-round game",
                config.rounds
            )));
        }
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if cell.level > MAX_LEVEL {
                    return Err(ConfigError::new(format!(
                        "cell ({r}, {c}) has level {}, above the maximum {MAX_LEVEL}",
                        cell.level
                    )));
                }
                if cell.level == 0 && cell.owner != half_owner(c as u8) {
                    return Err(ConfigError::new(format!(
                        "empty cell ({r}, {c}) must belong to its half's owner"
                    )));
                }
                duel.cells[idx(r as u8, c as u8)] = *cell;
            }
        }
        duel.occupied = occupancy(&duel.cells);
        duel.round = round;
        duel.step = step as u8;
        duel.refresh();
        Ok(duel)
    }

    /// The cell at (row, col); off-board coordinates read as an empty first-player cell.
    pub fn cell(&self, row: u8, col: u8) -> Cell {
        if row < ROWS && col < COLS {
            self.cells[idx(row, col)]
        } else {
            Cell {
                owner: Seat::FIRST,
                level: 0,
            }
        }
    }

    /// The whole board, row by row.
    pub fn board_rows(&self) -> [[Cell; 8]; 4] {
        let mut rows = [[Cell::empty(0); 8]; 4];
        for (i, cell) in self.cells.iter().enumerate() {
            rows[i / 8][i % 8] = *cell;
        }
        rows
    }

    /// The round being played (0-based), `rounds` once over.
    pub fn round(&self) -> u16 {
        self.round
    }

    /// The current step of the round (`Step::FirstPlace` once over).
    pub fn step(&self) -> Step {
        Step::from_index(self.step)
    }

    /// Whether the current step is a placement or a slide.
    pub fn step_kind(&self) -> StepKind {
        self.step().kind()
    }

    /// The cell `seat` may place on in its own half this round (`next(p, r)`), if any
    /// (`None` when that half is full or the game is over).
    pub fn next_cell(&self, seat: Seat) -> Option<(u8, u8)> {
        let value = *self.shared.sequence.get(self.round as usize)?;
        next_cell_of(self.occupied, seat, value)
    }

    /// The random sequence in use.
    pub fn sequence(&self) -> &[u32] {
        &self.shared.sequence
    }

    /// Tiles per level for `seat`: index k = level k (index 0 unused). Levels above 13 (see the
    /// module docs) are not in this table; [`Duel::tiles_at_level`] counts any level.
    pub fn level_counts(&self, seat: Seat) -> [u8; 14] {
        let mut counts = [0u8; 14];
        for c in &self.cells {
            if c.level != 0 && c.owner == seat {
                if let Some(n) = counts.get_mut(c.level as usize) {
                    *n += 1;
                }
            }
        }
        counts
    }

    /// How many tiles of `level` `seat` owns.
    pub fn tiles_at_level(&self, seat: Seat, level: u8) -> u8 {
        self.cells
            .iter()
            .filter(|c| c.level != 0 && c.level == level && c.owner == seat)
            .count() as u8
    }

    /// Whether `seat`'s slide in `dir` would change the board now (the original `move`'s
    /// return value), whoever is to move.
    pub fn slide_changes(&self, seat: Seat, dir: Direction) -> bool {
        slide_mask(&self.cells, seat) & (1 << dir as u8) != 0
    }

    /// Writes the board as the original platform prints it: 4 lines like
    /// `+01 +00 +00 +00 -00 -00 -00 -00` joined by `\n`, no final newline.
    pub fn write_board(&self, out: &mut String) {
        write_board_rows(&self.board_rows(), out);
    }

    /// [`Duel::write_board`] into a new string.
    pub fn board_text(&self) -> String {
        let mut s = String::with_capacity(4 * 32);
        self.write_board(&mut s);
        s
    }

    fn over(&self) -> bool {
        self.round >= self.shared.config.rounds
    }

    fn mover(&self) -> Seat {
        self.step().seat()
    }

    fn board_full(&self) -> bool {
        self.occupied == u32::MAX
    }

    /// Whether the current step has no decision (the game must not be over).
    fn skipped(&self) -> bool {
        match self.step_kind() {
            StepKind::Place => self.board_full(),
            StepKind::Slide => self.slide_mask == 0,
        }
    }

    /// Recomputes what the current step needs cached.
    fn refresh(&mut self) {
        self.slide_mask = if !self.over() && self.step_kind() == StepKind::Slide {
            slide_mask(&self.cells, self.mover())
        } else {
            0
        };
    }

    fn advance(&mut self) {
        if self.step == 3 {
            self.step = 0;
            self.round += 1;
        } else {
            self.step += 1;
        }
        self.refresh();
    }

    fn place_allowed(&self, row: u8, col: u8) -> Result<(), IllegalMove> {
        if row >= ROWS || col >= COLS {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[idx(row, col)].level != 0 {
            return Err(IllegalMove::Occupied);
        }
        let mover = self.mover();
        if half_owner(col) == mover {
            let next = self.next_cell(mover);
            if next != Some((row, col)) {
                return Err(IllegalMove::NotRandomCell { allowed: next });
            }
        }
        Ok(())
    }

    /// Tile counts per level 0..=255 for both seats.
    fn all_counts(&self) -> [[u8; 256]; 2] {
        let mut counts = [[0u8; 256]; 2];
        for c in &self.cells {
            if c.level != 0 {
                counts[c.owner.index()][c.level as usize] += 1;
            }
        }
        counts
    }
}

impl Game for Duel {
    type Move = Move;
    type Config = Config;
    const NAME: &'static str = "duel2048";

    fn new(config: &Config) -> Result<Self, ConfigError> {
        let rounds = config.rounds;
        if rounds == 0 {
            return Err(ConfigError::new("rounds must be at least 1"));
        }
        if rounds > MAX_ROUNDS {
            return Err(ConfigError::new(format!(
                "rounds is {rounds}, more than the maximum {MAX_ROUNDS}"
            )));
        }
        let sequence = match &config.random {
            RandomSource::Seed(seed) => random_sequence(*seed, rounds as usize),
            RandomSource::Sequence(values) => {
                if values.len() < rounds as usize {
                    return Err(ConfigError::new(format!(
                        "the random sequence has {} values but {rounds} rounds need one each",
                        values.len()
                    )));
                }
                if let Some((i, v)) = values.iter().enumerate().find(|(_, &v)| v >= MODULUS) {
                    return Err(ConfigError::new(format!(
                        "random sequence value {i} is {v}, not below {MODULUS}"
                    )));
                }
                values.clone()
            }
        };
        let mut duel = Duel {
            shared: Arc::new(Shared {
                config: config.clone(),
                sequence,
            }),
            cells: empty_board(),
            round: 0,
            step: 0,
            occupied: 0,
            slide_mask: 0,
        };
        duel.refresh();
        Ok(duel)
    }

    fn config(&self) -> &Config {
        &self.shared.config
    }

    fn to_move(&self) -> Option<Seat> {
        if self.over() {
            None
        } else {
            Some(self.mover())
        }
    }

    fn forced_move(&self) -> Option<Move> {
        if !self.over() && self.skipped() {
            Some(Move::Skip)
        } else {
            None
        }
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.over() {
            return;
        }
        if self.skipped() {
            out.push(Move::Skip);
            return;
        }
        match self.step_kind() {
            StepKind::Place => {
                let mover = self.mover();
                let mut cells = !self.occupied & half_bits(mover.other());
                if let Some((row, col)) = self.next_cell(mover) {
                    cells |= 1 << idx(row, col);
                }
                // Ascending bits: row-major order.
                while cells != 0 {
                    let i = cells.trailing_zeros() as u8;
                    out.push(Move::Place {
                        row: i / 8,
                        col: i % 8,
                    });
                    cells &= cells - 1;
                }
            }
            StepKind::Slide => {
                for d in Direction::ALL {
                    if self.slide_mask & (1 << d as u8) != 0 {
                        out.push(Move::Slide(d));
                    }
                }
            }
        }
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.over() {
            return Err(IllegalMove::GameOver);
        }
        let skipped = self.skipped();
        match (mv, self.step_kind()) {
            (Move::Skip, _) if skipped => {}
            (Move::Skip, _) => return Err(IllegalMove::CannotPass),
            (_, _) if skipped => return Err(IllegalMove::MustPass),
            (Move::Place { row, col }, StepKind::Place) => self.place_allowed(row, col)?,
            (Move::Slide(d), StepKind::Slide) => {
                if self.slide_mask & (1 << d as u8) == 0 {
                    return Err(IllegalMove::NoChange);
                }
            }
            (Move::Place { .. }, StepKind::Slide) => {
                return Err(IllegalMove::WrongStep {
                    expected: StepKind::Slide,
                })
            }
            (Move::Slide(_), StepKind::Place) => {
                return Err(IllegalMove::WrongStep {
                    expected: StepKind::Place,
                })
            }
        }
        self.play_unchecked(mv);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: Move) {
        if self.over() {
            return;
        }
        match mv {
            Move::Place { row, col } => {
                if row < ROWS && col < COLS {
                    self.cells[idx(row, col)] = Cell {
                        owner: half_owner(col),
                        level: 1,
                    };
                    self.occupied |= 1 << idx(row, col);
                }
            }
            Move::Slide(d) => {
                let mover = self.mover();
                if slide_cells(&mut self.cells, mover, d) {
                    self.occupied = occupancy(&self.cells);
                }
            }
            Move::Skip => {}
        }
        self.advance();
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let counts = self.all_counts();
        for level in (1..=255usize).rev() {
            let (a, b) = (counts[0][level], counts[1][level]);
            if a != b {
                return Some(Outcome {
                    winner: Some(if a > b { Seat::FIRST } else { Seat::SECOND }),
                    reason: EndReason::Levels {
                        level: Some(level as u8),
                        counts: [a, b],
                    },
                });
            }
        }
        Some(Outcome {
            winner: None,
            reason: EndReason::Levels {
                level: None,
                counts: [0, 0],
            },
        })
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        parse_move_text(text)
    }

    fn format_move(&self, mv: Move) -> String {
        match mv {
            Move::Place { row, col } => format!("{row},{col}"),
            Move::Slide(d) => String::from(d.as_str()),
            Move::Skip => String::from("skip"),
        }
    }

    fn ply(&self) -> usize {
        self.round as usize * 4 + self.step as usize
    }

    fn scores(&self) -> [i64; 2] {
        let mut s = [0i64; 2];
        for c in &self.cells {
            if c.level != 0 {
                let v = if c.level >= 63 {
                    i64::MAX
                } else {
                    1i64 << c.level
                };
                let t = &mut s[c.owner.index()];
                *t = t.saturating_add(v);
            }
        }
        s
    }
}

const MOVE_EXPECTED: &str =
    "a cell `row,col` (row 0..3, col 0..7), a direction up/down/left/right (or U/D/L/R, 0..3), or skip";

/// Reads a move (see the module docs); syntax and board range only.
pub fn parse_move_text(text: &str) -> Result<Move, ParseMoveError> {
    let err = || ParseMoveError::new(text, MOVE_EXPECTED);
    let t = text.trim();
    let word = |w: &str| t.eq_ignore_ascii_case(w);
    if word("skip") {
        return Ok(Move::Skip);
    }
    for d in Direction::ALL {
        let letter = &d.as_str()[..1];
        if word(d.as_str()) || word(letter) {
            return Ok(Move::Slide(d));
        }
    }
    if t.len() == 1 {
        let digit = t.bytes().next().map(|b| b.wrapping_sub(b'0'));
        return digit
            .and_then(|d| Direction::from_index(d as usize))
            .map(Move::Slide)
            .ok_or_else(err);
    }
    let inner = match t.strip_prefix('(') {
        Some(rest) => rest.strip_suffix(')').ok_or_else(err)?,
        None => t,
    };
    let (a, b) = match inner.split_once(',') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => inner
            .trim()
            .split_once(char::is_whitespace)
            .ok_or_else(err)?,
    };
    let b = b.trim();
    let num = |s: &str| -> Option<u8> {
        if s.is_empty() || s.len() > 3 || !s.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        s.parse::<u8>().ok()
    };
    match (num(a), num(b)) {
        (Some(row), Some(col)) if row < ROWS && col < COLS => Ok(Move::Place { row, col }),
        _ => Err(err()),
    }
}

/// Slides `mover`'s tiles in `dir` on a board snapshot, whoever is to move; returns whether the
/// board changed (the original `Chessboard.move`). For analysis tools and API adapters.
pub fn slide_rows(rows: &mut [[Cell; 8]; 4], mover: Seat, dir: Direction) -> bool {
    let mut cells = empty_board();
    for (i, cell) in cells.iter_mut().enumerate() {
        *cell = rows[i / 8][i % 8];
    }
    let changed = slide_cells(&mut cells, mover, dir);
    for (i, cell) in cells.iter().enumerate() {
        rows[i / 8][i % 8] = *cell;
    }
    changed
}

/// Writes `rows` as the original printout (see [`Duel::write_board`]).
pub fn write_board_rows(rows: &[[Cell; 8]; 4], out: &mut String) {
    for (r, row) in rows.iter().enumerate() {
        if r > 0 {
            out.push('\n');
        }
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                out.push(' ');
            }
            out.push(match cell.owner {
                Seat::FIRST => '+',
                _ => '-',
            });
            if cell.level < 10 {
                out.push('0');
            }
            // Levels are small; `fmt::Write` for String cannot fail.
            let _ = fmt::Write::write_fmt(out, format_args!("{}", cell.level));
        }
    }
}

/// Why a board printout could not be read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardTextError {
    /// 1-based line of the board (0: the text as a whole).
    pub line: usize,
    pub problem: &'static str,
}

impl fmt::Display for BoardTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "cannot read the board: {}", self.problem)
        } else {
            write!(f, "cannot read board line {}: {}", self.line, self.problem)
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BoardTextError {}

/// Reads the original board printout: 4 lines of 8 cells `+LL` / `-LL` (sign = owner, LL =
/// level, 0..=99). Blank lines around the board are ignored; an empty cell must carry its
/// half's sign.
pub fn parse_board(text: &str) -> Result<[[Cell; 8]; 4], BoardTextError> {
    let mut rows = [[Cell::empty(0); 8]; 4];
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    for (r, row) in rows.iter_mut().enumerate() {
        let line = lines.next().ok_or(BoardTextError {
            line: 0,
            problem: "fewer than 4 lines",
        })?;
        let e = |problem| BoardTextError {
            line: r + 1,
            problem,
        };
        let mut tokens = line.split_whitespace();
        for (c, cell) in row.iter_mut().enumerate() {
            let tok = tokens.next().ok_or(e("fewer than 8 cells"))?;
            let (owner, digits) = if let Some(d) = tok.strip_prefix('+') {
                (Seat::FIRST, d)
            } else if let Some(d) = tok.strip_prefix('-') {
                (Seat::SECOND, d)
            } else {
                return Err(e("a cell starts with + or -"));
            };
            if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(e("a cell is a sign and a two-digit level"));
            }
            let level = digits.parse::<u8>().map_err(|_| e("bad level"))?;
            if level == 0 && owner != half_owner(c as u8) {
                return Err(e("an empty cell belongs to its half's owner"));
            }
            *cell = Cell { owner, level };
        }
        if tokens.next().is_some() {
            return Err(e("more than 8 cells"));
        }
    }
    if lines.next().is_some() {
        return Err(BoardTextError {
            line: 0,
            problem: "more than 4 lines",
        });
    }
    Ok(rows)
}
