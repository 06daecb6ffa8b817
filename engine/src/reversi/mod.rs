//! Reversi (Othello) on any even N x N board, 4 <= N <= 16, on bitboards.
//!
//! # Rules
//! White starts on (N/2-1, N/2-1) and (N/2, N/2), black on (N/2-1, N/2) and (N/2, N/2-1); black
//! ([`Seat::FIRST`]) moves first. A disc must flip at least one opponent disc (along any of the
//! eight directions). A side with no such move must pass ([`Move::Pass`], offered by
//! [`Game::forced_move`]); the game ends when neither side can move, and more discs wins.
//!
//! # Notation
//! Canonical ([`Game::format_move`]): column letter then row number counted from the top,
//! `a1` = (row 0, col 0), `d3` = (row 2, col 3); and `pass`. [`Game::parse_move`] also reads
//! seed 001's `ROW COL` (0-based, `2 3`), `ROW,COL`, and `PASS` / `PA`, in any letter case.
//!
//! # Illegal moves
//! [`Game::play`] checks, in this order: [`IllegalMove::GameOver`], then for a placement
//! [`IllegalMove::OffBoard`], [`IllegalMove::Occupied`], [`IllegalMove::MustPass`] (the side has
//! no placement at all), [`IllegalMove::NoFlips`]; a pass while a placement exists is
//! [`IllegalMove::CannotPass`]. A rejected move leaves the position unchanged.
//!
//! # Speed
//! Boards up to 8 x 8 live in one `u64` per colour (8 squares a row), larger ones in 256 bits
//! (16 squares a row); see the `plane` module. Move generation is one shift-and-mask fill per direction
//! pair; [`perft`] counts its last ply in bulk.

mod plane;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::error::{ConfigError, IllegalMove, ParseMoveError};
use crate::game::{EndReason, Game, Outcome, Seat};
use plane::{Plane, U256};

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

impl Config {
    /// The smallest and largest board sizes.
    pub const MIN_SIZE: u8 = 4;
    pub const MAX_SIZE: u8 = 16;

    /// `Ok` when the size names a playable board.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let n = self.size;
        if !(Self::MIN_SIZE..=Self::MAX_SIZE).contains(&n) || n & 1 == 1 {
            return Err(ConfigError::new(alloc::format!(
                "reversi board size must be an even number from {} to {}, got {n}",
                Self::MIN_SIZE,
                Self::MAX_SIZE
            )));
        }
        Ok(())
    }
}

/// A ply: a disc at (row, col), both 0-based from the top-left (seed 001's `ROW COL`), or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Place { row: u8, col: u8 },
    Pass,
}

/// The discs per colour, on the plane that fits the board.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Board {
    /// N <= 8: 8 squares a row in a `u64`.
    Narrow { discs: [u64; 2], mask: u64 },
    /// 10 <= N <= 16: 16 squares a row in 256 bits.
    Wide { discs: [U256; 2], mask: U256 },
}

/// A set of squares of either plane (legal moves, flipped discs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Set {
    Narrow(u64),
    Wide(U256),
}

impl Set {
    fn is_empty(self) -> bool {
        match self {
            Set::Narrow(s) => s.is_empty(),
            Set::Wide(s) => s.is_empty(),
        }
    }
    fn count(self) -> u32 {
        match self {
            Set::Narrow(s) => s.count(),
            Set::Wide(s) => s.count(),
        }
    }
    fn has(self, sq: u32) -> bool {
        match self {
            Set::Narrow(s) => s.has(sq),
            Set::Wide(s) => s.has(sq),
        }
    }
    fn pop_lowest(&mut self) -> Option<u32> {
        match self {
            Set::Narrow(s) => s.pop_lowest(),
            Set::Wide(s) => s.pop_lowest(),
        }
    }
}

impl Board {
    fn new(n: u8) -> Board {
        let n = u32::from(n);
        let (lo, hi) = (n / 2 - 1, n / 2);
        if n <= 8 {
            let at = |r: u32, c: u32| <u64 as Plane>::square(r * 8 + c);
            Board::Narrow {
                discs: [at(lo, hi) | at(hi, lo), at(lo, lo) | at(hi, hi)],
                mask: plane::board_mask(n),
            }
        } else {
            let at = |r: u32, c: u32| U256::square(r * 16 + c);
            Board::Wide {
                discs: [at(lo, hi) | at(hi, lo), at(lo, lo) | at(hi, hi)],
                mask: plane::board_mask(n),
            }
        }
    }

    fn stride(&self) -> u32 {
        match self {
            Board::Narrow { .. } => 8,
            Board::Wide { .. } => 16,
        }
    }

    /// Where `seat` may place a disc.
    fn legal(&self, seat: Seat) -> Set {
        let (me, you) = (seat.index(), seat.other().index());
        match self {
            Board::Narrow { discs, mask } => Set::Narrow(u64::moves(discs[me], discs[you]) & mask),
            Board::Wide { discs, mask } => Set::Wide(U256::moves(discs[me], discs[you]) & *mask),
        }
    }

    /// The discs a disc of `seat` on `sq` would flip (`sq` empty and on the board).
    fn flips(&self, seat: Seat, sq: u32) -> Set {
        let (me, you) = (seat.index(), seat.other().index());
        match self {
            Board::Narrow { discs, .. } => Set::Narrow(u64::flips(sq, discs[me], discs[you])),
            Board::Wide { discs, .. } => Set::Wide(U256::flips(sq, discs[me], discs[you])),
        }
    }

    /// Puts a disc of `seat` on `sq` and turns `flips` over.
    fn apply(&mut self, seat: Seat, sq: u32, flips: Set) {
        match (self, flips) {
            (Board::Narrow { discs, .. }, Set::Narrow(f)) => {
                transfer(discs, seat, f | u64::square(sq));
            }
            (Board::Wide { discs, .. }, Set::Wide(f)) => {
                transfer(discs, seat, f | U256::square(sq));
            }
            // Sets always come from the same board; nothing sensible to do otherwise.
            _ => {}
        }
    }

    fn disc(&self, sq: u32) -> Option<Seat> {
        let has = |seat: Seat| match self {
            Board::Narrow { discs, .. } => discs[seat.index()].has(sq),
            Board::Wide { discs, .. } => discs[seat.index()].has(sq),
        };
        Seat::BOTH.into_iter().find(|&s| has(s))
    }

    fn counts(&self) -> [u16; 2] {
        // At most 256 discs per colour: the casts cannot truncate.
        match self {
            Board::Narrow { discs, .. } => [discs[0].count() as u16, discs[1].count() as u16],
            Board::Wide { discs, .. } => [discs[0].count() as u16, discs[1].count() as u16],
        }
    }

    /// Puts a disc of `seat` on `sq`, whatever was there.
    fn set(&mut self, sq: u32, seat: Seat) {
        match self {
            Board::Narrow { discs, .. } => transfer(discs, seat, u64::square(sq)),
            Board::Wide { discs, .. } => transfer(discs, seat, U256::square(sq)),
        }
    }
}

/// Gives the squares of `gain` to `seat` and takes them from its opponent.
fn transfer<P: Plane>(discs: &mut [P; 2], seat: Seat, gain: P) {
    let (me, you) = (seat.index(), seat.other().index());
    let mine = discs[me] | gain;
    let theirs = discs[you] & !gain;
    discs[me] = mine;
    discs[you] = theirs;
}

/// What the side to move does next.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum State {
    /// It has at least one placement.
    Place,
    /// It has none, the opponent has some: it must pass.
    Pass,
    /// Neither side can move.
    Over,
}

/// A Reversi position: board, side to move, plies played. One type for every size; the
/// bitboard behind it depends on the size.
#[derive(Clone, PartialEq, Eq)]
pub struct Reversi {
    config: Config,
    board: Board,
    /// The side to move (when the game is over: the side that would be next).
    side: Seat,
    state: State,
    /// The placements of the side to move (empty unless `state` is `Place`), kept so that
    /// `legal_moves` and `play` need no move generation of their own.
    legal: Set,
    ply: usize,
}

impl core::hash::Hash for Reversi {
    /// The board (its mask names the size), the side to move and the ply.
    fn hash<H: core::hash::Hasher>(&self, h: &mut H) {
        self.config.size.hash(h);
        self.board.hash(h);
        self.side.hash(h);
        self.ply.hash(h);
    }
}

/// The squares where the side to move may place a disc, as (row, col), row-major order.
/// Built by [`Reversi::legal_places`].
#[derive(Clone, Debug)]
pub struct Places {
    set: Set,
    stride: u32,
}

impl Iterator for Places {
    type Item = (u8, u8);
    fn next(&mut self) -> Option<(u8, u8)> {
        let sq = self.set.pop_lowest()?;
        // Squares are below 256 and the stride is 8 or 16: both parts fit in u8.
        Some(((sq / self.stride) as u8, (sq % self.stride) as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.set.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Places {}

impl Reversi {
    /// The board's side length N.
    pub fn size(&self) -> u8 {
        self.config.size
    }

    /// The disc on (row, col), if any (`None` also off the board).
    pub fn disc(&self, row: u8, col: u8) -> Option<Seat> {
        self.square(row, col).and_then(|sq| self.board.disc(sq))
    }

    /// Discs per seat (first = black).
    pub fn counts(&self) -> [u16; 2] {
        self.board.counts()
    }

    /// The squares where the side to move may place a disc (none when it must pass or the game
    /// is over), row-major. Cheap: the set is kept with the position; a bit scan per square.
    pub fn legal_places(&self) -> Places {
        Places {
            set: self.legal,
            stride: self.board.stride(),
        }
    }

    /// How many placements `seat` would have if it were to move now (mobility, for bots).
    pub fn mobility(&self, seat: Seat) -> u32 {
        self.board.legal(seat).count()
    }

    /// The discs of `seat` as a 256-bit plane of 16 squares a row, whatever the board size:
    /// (row, col) is bit `16 * row + col`, word 0 holding bits 0..64. For bots that evaluate
    /// positions with bit operations (reading 256 squares one by one costs more than a move).
    pub fn disc_plane(&self, seat: Seat) -> [u64; 4] {
        match &self.board {
            Board::Wide { discs, .. } => discs[seat.index()].0,
            Board::Narrow { discs, .. } => {
                let d = discs[seat.index()];
                let mut out = [0u64; 4];
                for row in 0..8 {
                    let bits = (d >> (8 * row)) & 0xFF;
                    out[row / 4] |= bits << (16 * (row % 4));
                }
                out
            }
        }
    }

    /// Whether the side to move may place a disc on (row, col).
    pub fn is_legal_place(&self, row: u8, col: u8) -> bool {
        self.square(row, col).is_some_and(|sq| self.legal.has(sq))
    }

    /// The discs `mv` would turn over, row-major; empty for a pass or an illegal move.
    pub fn flipped_by(&self, mv: Move) -> Vec<(u8, u8)> {
        let mut out = Vec::new();
        if let Ok(Some((_, mut flips))) = self.check(mv) {
            let stride = self.board.stride();
            while let Some(f) = flips.pop_lowest() {
                out.push(((f / stride) as u8, (f % stride) as u8));
            }
        }
        out
    }

    /// A position from its discs: `cells` row-major, `size * size` entries, and the side to
    /// move (who passes at once if it has no move). `ply()` starts at 0. For puzzles, tests and
    /// bots that resume from a given board.
    pub fn from_cells(
        config: &Config,
        cells: &[Option<Seat>],
        to_move: Seat,
    ) -> Result<Reversi, ConfigError> {
        config.validate()?;
        let n = usize::from(config.size);
        if cells.len() != n * n {
            return Err(ConfigError::new(alloc::format!(
                "a {n} x {n} reversi board has {} cells, got {}",
                n * n,
                cells.len()
            )));
        }
        let mut pos = Reversi::start(*config);
        for seat in Seat::BOTH {
            // Clear the start discs.
            match &mut pos.board {
                Board::Narrow { discs, .. } => discs[seat.index()] = 0,
                Board::Wide { discs, .. } => discs[seat.index()] = U256::EMPTY,
            }
        }
        let stride = pos.board.stride() as usize;
        for (i, cell) in cells.iter().enumerate() {
            if let Some(seat) = cell {
                pos.board.set(((i / n) * stride + i % n) as u32, *seat);
            }
        }
        pos.side = to_move;
        pos.settle();
        Ok(pos)
    }

    /// The start position of a valid configuration.
    fn start(config: Config) -> Reversi {
        let board = Board::new(config.size);
        let legal = board.legal(Seat::FIRST);
        let mut pos = Reversi {
            config,
            board,
            side: Seat::FIRST,
            state: State::Place,
            legal,
            ply: 0,
        };
        pos.settle();
        pos
    }

    /// The plane index of (row, col), `None` off the board.
    fn square(&self, row: u8, col: u8) -> Option<u32> {
        let n = self.config.size;
        (row < n && col < n).then(|| u32::from(row) * self.board.stride() + u32::from(col))
    }

    /// Works out what the side to move does now (place, pass, or nothing: game over).
    fn settle(&mut self) {
        self.legal = self.board.legal(self.side);
        self.state = if !self.legal.is_empty() {
            State::Place
        } else if !self.board.legal(self.side.other()).is_empty() {
            State::Pass
        } else {
            State::Over
        };
    }

    /// Checks `mv`; for a placement returns its square and the discs it flips, for a (legal)
    /// pass `None`. Order of checks: game over, off board, occupied, must pass, no flips.
    fn check(&self, mv: Move) -> Result<Option<(u32, Set)>, IllegalMove> {
        if self.state == State::Over {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Pass => match self.state {
                State::Pass => Ok(None),
                _ => Err(IllegalMove::CannotPass),
            },
            Move::Place { row, col } => {
                let sq = self.square(row, col).ok_or(IllegalMove::OffBoard)?;
                if self.board.disc(sq).is_some() {
                    return Err(IllegalMove::Occupied);
                }
                if self.state == State::Pass {
                    return Err(IllegalMove::MustPass);
                }
                if !self.legal.has(sq) {
                    return Err(IllegalMove::NoFlips);
                }
                Ok(Some((sq, self.board.flips(self.side, sq))))
            }
        }
    }

    /// Plays a checked move.
    fn apply(&mut self, checked: Option<(u32, Set)>) {
        if let Some((sq, flips)) = checked {
            self.board.apply(self.side, sq, flips);
        }
        self.side = self.side.other();
        self.settle();
        self.ply += 1;
    }
}

/// Leaf count at `depth` plies (a pass is a ply; a finished game is one leaf).
pub fn perft(pos: &Reversi, depth: u32) -> u64 {
    if depth == 0 || pos.state == State::Over {
        return 1;
    }
    let (me, you) = (pos.side.index(), pos.side.other().index());
    match &pos.board {
        Board::Narrow { discs, mask } => plane::perft(discs[me], discs[you], *mask, depth),
        Board::Wide { discs, mask } => plane::perft(discs[me], discs[you], *mask, depth),
    }
}

/// The memory of [`perft_hashed`]: counts of subtrees already walked. Allocated zeroed (the
/// operating system gives untouched pages for free), sized by its owner; kept between calls
/// for the same board size, cleared when the size changes.
pub struct PerftTable {
    words: Vec<u64>,
    /// The board size the counts belong to (0: none yet).
    size: u8,
}

impl PerftTable {
    /// A table of at most `bytes` bytes (a power of two of entries is used of it; below one
    /// pair of entries, 64 bytes for boards up to 8 x 8 or 160 beyond, it holds nothing and
    /// [`perft_hashed`] counts as [`perft`] does).
    pub fn with_bytes(bytes: usize) -> PerftTable {
        PerftTable {
            words: alloc::vec![0u64; bytes / 8],
            size: 0,
        }
    }

    /// The bytes it holds.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    fn ready_for(&mut self, size: u8) -> &mut [u64] {
        if self.size != size {
            self.words.fill(0);
            self.size = size;
        }
        &mut self.words
    }
}

/// [`perft`] with a transposition table: equal counts, much faster from depth 8 or so on, as
/// move orders that meet, and mirror images, are counted once.
pub fn perft_hashed(pos: &Reversi, depth: u32, table: &mut PerftTable) -> u64 {
    if depth == 0 || pos.state == State::Over {
        return 1;
    }
    let (me, you) = (pos.side.index(), pos.side.other().index());
    let n = u32::from(pos.config.size);
    let words = table.ready_for(pos.config.size);
    match &pos.board {
        Board::Narrow { discs, mask } => {
            let mut t = plane::Table::new(words, n);
            plane::perft_hashed(discs[me], discs[you], *mask, depth, &mut t)
        }
        Board::Wide { discs, mask } => {
            let mut t = plane::Table::new(words, n);
            plane::perft_hashed(discs[me], discs[you], *mask, depth, &mut t)
        }
    }
}

/// What `parse_move` reads, for its errors.
const NOTATION: &str = "a square like d3 (column letter, row from the top), `ROW COL` or \
                        `ROW,COL` (0-based), or pass";

/// Reads a decimal number of at most three digits (no sign).
fn parse_index(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Reads `text` as (row, col) on any board up to 16 x 16, without the board check.
fn parse_square(text: &str) -> Option<(u32, u32)> {
    let bytes = text.as_bytes();
    let first = *bytes.first()?;
    if first.is_ascii_alphabetic() {
        // Algebraic: column letter, then 1-based row.
        let col = u32::from(first.to_ascii_lowercase() - b'a');
        let row = parse_index(text.get(1..)?)?.checked_sub(1)?;
        return Some((row, col));
    }
    let (r, c) = match text.split_once(',') {
        Some((r, c)) => (r.trim(), c.trim()),
        None => {
            let mut parts = text.split_ascii_whitespace();
            let r = parts.next()?;
            let c = parts.next()?;
            if parts.next().is_some() {
                return None;
            }
            (r, c)
        }
    };
    Some((parse_index(r)?, parse_index(c)?))
}

impl Game for Reversi {
    type Move = Move;
    type Config = Config;
    const NAME: &'static str = "reversi";

    fn new(config: &Config) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Reversi::start(*config))
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn to_move(&self) -> Option<Seat> {
        match self.state {
            State::Over => None,
            State::Place | State::Pass => Some(self.side),
        }
    }

    fn forced_move(&self) -> Option<Move> {
        (self.state == State::Pass).then_some(Move::Pass)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        match self.state {
            State::Over => {}
            State::Pass => out.push(Move::Pass),
            State::Place => out.extend(
                self.legal_places()
                    .map(|(row, col)| Move::Place { row, col }),
            ),
        }
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let checked = self.check(mv)?;
        self.apply(checked);
        Ok(())
    }

    fn play_unchecked(&mut self, mv: Move) {
        // The checks cost little next to the flips; an illegal move is simply ignored.
        let _ = self.play(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.state != State::Over {
            return None;
        }
        let discs = self.counts();
        let winner = match discs[0].cmp(&discs[1]) {
            core::cmp::Ordering::Greater => Some(Seat::FIRST),
            core::cmp::Ordering::Less => Some(Seat::SECOND),
            core::cmp::Ordering::Equal => None,
        };
        Some(Outcome {
            winner,
            reason: EndReason::NoMoves { discs },
        })
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("pa") {
            return Ok(Move::Pass);
        }
        let (row, col) = parse_square(t).ok_or_else(|| ParseMoveError::new(text, NOTATION))?;
        let n = u32::from(self.config.size);
        if row >= n || col >= n {
            return Err(ParseMoveError::new(
                text,
                "a square on the board (rows and columns 0..N-1, or a1 up to the board's size)",
            ));
        }
        // Both are below 16 here.
        Ok(Move::Place {
            row: row as u8,
            col: col as u8,
        })
    }

    fn format_move(&self, mv: Move) -> String {
        match mv {
            Move::Pass => String::from("pass"),
            Move::Place { row, col } if col < 26 && row < u8::MAX => {
                alloc::format!("{}{}", char::from(b'a' + col), row + 1)
            }
            // Not a square of any board: fall back to the raw coordinates.
            Move::Place { row, col } => alloc::format!("{row} {col}"),
        }
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn scores(&self) -> [i64; 2] {
        let c = self.counts();
        [i64::from(c[0]), i64::from(c[1])]
    }
}

/// The board as text, one row a line from the top: `X` black, `O` white, `.` empty.
impl fmt::Display for Reversi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.config.size;
        for row in 0..n {
            for col in 0..n {
                f.write_str(match self.disc(row, col) {
                    Some(Seat::FIRST) => "X",
                    Some(_) => "O",
                    None => ".",
                })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Reversi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Reversi {{ size: {}, ply: {}, to_move: {:?}, discs: {:?}\n{}}}",
            self.config.size,
            self.ply,
            self.to_move(),
            self.counts(),
            self
        )
    }
}
