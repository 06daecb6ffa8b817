//! Gomoku on an N x N board (5 <= N <= 26, default 15) under freestyle, standard or renju rules
//! (renju in the RIF reading or in the Gomocup judge's, [`Rule::RenjuGomocup`]).
//!
//! Black ([`Seat::FIRST`]) moves first; there are no passes. A five wins: five or more in a row
//! under freestyle, exactly five under standard (an overline wins for nobody, play goes on),
//! and under renju exactly five for black and five or more for white, black being barred from
//! the forbidden points of [`renju`]. A full board without a win is a draw; so is, under renju,
//! a board whose every empty point is forbidden for black when black is to move (RIF would
//! let black pass; this engine has no passes).
//!
//! Notation ([`Game::format_move`]): column letter (`A` = x 0, through `Z` on 26 x 26, `I`
//! included) then the row number counted from the bottom (`size - y`), as seed 003 writes
//! moves: the centre of 15 x 15 is `H8`. [`Game::parse_move`] also reads the Gomocup form
//! `x,y` (0-based column, row from the top).
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

mod lines;
pub mod renju;

use crate::error::{ConfigError, ForbiddenKind, IllegalMove, ParseMoveError};
use crate::game::{EndReason, Game, Outcome, Seat};
use lines::{run_through_center, Lines, CENTER, DIRS, MAX_SIZE};

/// The rule variant (Gomocup's `INFO rule` bitmask: 0 freestyle, 1 standard, 4 renju; both
/// renju readings are announced as 4).
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
    /// Renju as Piskvork's judge reads it (the Gomocup renju leagues, GomocupJudge, Rapfi):
    /// the same, except that a three whose only straight-four points also complete a five on
    /// another line is fake (see [`renju`]).
    #[cfg_attr(feature = "serde", serde(rename = "renju-gomocup"))]
    RenjuGomocup,
}

impl Rule {
    pub const ALL: [Rule; 4] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::RenjuGomocup,
    ];

    /// The name on command lines, in configs and in replays.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::RenjuGomocup => "renju-gomocup",
        }
    }

    /// The rule called `name` (as [`Rule::name`] writes it).
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Whether black is barred from forbidden points (either renju reading).
    pub const fn is_renju(self) -> bool {
        matches!(self, Rule::Renju | Rule::RenjuGomocup)
    }

    /// The renju reading, under a renju rule.
    fn reading(self) -> Option<renju::Reading> {
        match self {
            Rule::Renju => Some(renju::Reading::Rif),
            Rule::RenjuGomocup => Some(renju::Reading::Gomocup),
            Rule::Freestyle | Rule::Standard => None,
        }
    }
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

/// Smallest board side: a five must fit.
pub const MIN_SIZE: u8 = 5;
/// Largest board side: one letter per column.
pub const MAX_BOARD_SIZE: u8 = MAX_SIZE as u8;

/// A point: `x` is the column (0 = left, letter A), `y` the row (0 = top), as Gomocup numbers
/// them. In the canonical notation (`H8`, seed 003) the number is `size - y`: row 1 is the bottom.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }
}

/// The last move's winning run: where it starts and in which direction it goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct WinRun {
    start: Point,
    dir: usize,
    len: u8,
}

#[derive(Clone, Debug)]
pub struct Gomoku {
    config: Config,
    lines: Lines,
    history: Vec<Point>,
    counts: [u16; 2],
    to_move: Seat,
    outcome: Option<Outcome>,
    win: Option<WinRun>,
}

const NOTATION: &str =
    "a point like H8 (column letter, row number counted from the bottom) or x,y (0-based column and row from the top)";

impl Gomoku {
    /// A position set up from stones, for analysis or to resume a game (Gomocup's `BOARD`).
    /// The stones become the history in the order given. Lines already on the board are not
    /// judged: the game is running and `to_move` plays next, unless the board is full (or,
    /// under renju with black to move, has only forbidden points): then it is a draw.
    pub fn from_stones(
        config: &Config,
        stones: &[(Point, Seat)],
        to_move: Seat,
    ) -> Result<Gomoku, ConfigError> {
        let mut game = Gomoku::new(config)?;
        for &(p, seat) in stones {
            if !game.on_board(p) {
                return Err(ConfigError::new("a stone is off the board"));
            }
            if game.stone(p).is_some() {
                return Err(ConfigError::new("two stones on one point"));
            }
            game.lines.put(seat.index(), p.x, p.y);
            game.counts[seat.index()] += 1;
            game.history.push(p);
        }
        game.to_move = to_move;
        if !game.side_to_move_has_a_point() {
            game.outcome = Some(Outcome {
                winner: None,
                reason: EndReason::BoardFull,
            });
        }
        Ok(game)
    }

    /// Board side.
    pub fn size(&self) -> u8 {
        self.config.size
    }

    pub fn rule(&self) -> Rule {
        self.config.rule
    }

    /// The stone on `p`; `None` for an empty point or one off the board.
    pub fn stone(&self, p: Point) -> Option<Seat> {
        if !self.on_board(p) {
            return None;
        }
        self.lines.colour(p.x, p.y).and_then(Seat::from_index)
    }

    /// Stones in the order they were played.
    pub fn history(&self) -> &[Point] {
        &self.history
    }

    /// Under renju, every empty point forbidden for black (whoever is to move), with why, in
    /// row-major order (top row first). Empty under other rules.
    pub fn forbidden_points(&self) -> Vec<(Point, ForbiddenKind)> {
        let Some(reading) = self.config.rule.reading() else {
            return Vec::new();
        };
        renju::forbidden_points(&self.lines, reading)
            .into_iter()
            .map(|((x, y), k)| (Point { x, y }, k))
            .collect()
    }

    /// Under renju, why black may not play `p` now (whoever is to move); `None` when black may,
    /// when `p` is taken or off the board, and under other rules.
    pub fn forbidden_kind(&self, p: Point) -> Option<ForbiddenKind> {
        self.forbidden_kind_under(p, self.config.rule)
    }

    /// Why black may not play `p` on this board under `rule`, whatever this game's rule is:
    /// `None` under freestyle and standard, as [`Gomoku::forbidden_kind`] otherwise. A bot that
    /// is told only "renju" can keep clear of both readings' forbidden points with it.
    pub fn forbidden_kind_under(&self, p: Point, rule: Rule) -> Option<ForbiddenKind> {
        let reading = rule.reading()?;
        if !self.on_board(p) || !self.lines.is_empty(p.x, p.y) {
            return None;
        }
        let mut scratch = self.lines.clone();
        renju::forbidden_at(&mut scratch, p.x, p.y, reading)
    }

    /// The winning line (every stone of the run the last move made), once someone has made it.
    pub fn winning_line(&self) -> Option<Vec<Point>> {
        let run = self.win?;
        let (dx, dy) = DIRS[run.dir];
        Some(
            (0..run.len as i32)
                .map(|i| Point {
                    x: (run.start.x as i32 + i * dx as i32) as u8,
                    y: (run.start.y as i32 + i * dy as i32) as u8,
                })
                .collect(),
        )
    }

    fn on_board(&self, p: Point) -> bool {
        p.x < self.config.size && p.y < self.config.size
    }

    fn is_full(&self) -> bool {
        self.history.len() == self.config.size as usize * self.config.size as usize
    }

    /// Whether a run of `len` (6 meaning 6 or more) wins for `seat` under the rule.
    fn run_wins(&self, seat: Seat, len: u32) -> bool {
        match (self.config.rule, seat) {
            (Rule::Freestyle, _) => len >= 5,
            (Rule::Standard, _) => len == 5,
            (Rule::Renju | Rule::RenjuGomocup, Seat::FIRST) => len == 5,
            (Rule::Renju | Rule::RenjuGomocup, _) => len >= 5,
        }
    }

    /// The full run through `p` in direction `d` for colour `c`.
    fn run_at(&self, c: usize, d: usize, p: Point) -> WinRun {
        let (dx, dy) = DIRS[d];
        let n = self.config.size as i32;
        let same = |k: i32| {
            let x = p.x as i32 + k * dx as i32;
            let y = p.y as i32 + k * dy as i32;
            (0..n).contains(&x)
                && (0..n).contains(&y)
                && self.lines.colour(x as u8, y as u8) == Some(c)
        };
        let mut back = 0;
        while same(-(back + 1)) {
            back += 1;
        }
        let mut fwd = 0;
        while same(fwd + 1) {
            fwd += 1;
        }
        WinRun {
            start: Point {
                x: (p.x as i32 - back * dx as i32) as u8,
                y: (p.y as i32 - back * dy as i32) as u8,
            },
            dir: d,
            len: (back + fwd + 1) as u8,
        }
    }

    /// Puts the side to move's stone on the empty point `p` and judges the result.
    fn place(&mut self, p: Point) {
        let seat = self.to_move;
        let c = seat.index();
        self.lines.put(c, p.x, p.y);
        self.counts[c] += 1;
        self.history.push(p);
        for d in 0..4 {
            let (s, _) = self.lines.window(c, d, p.x, p.y);
            if self.run_wins(seat, run_through_center(s | CENTER)) {
                self.win = Some(self.run_at(c, d, p));
                self.outcome = Some(Outcome {
                    winner: Some(seat),
                    reason: EndReason::Five,
                });
                return;
            }
        }
        self.to_move = seat.other();
        if self.is_full() || !self.side_to_move_has_a_point() {
            self.outcome = Some(Outcome {
                winner: None,
                reason: EndReason::BoardFull,
            });
        }
    }

    /// Whether the side to move has an empty point it may play. Only renju black can lack one
    /// on a board with empty points (all of them forbidden); with no passes, that ends the
    /// game as a full board would.
    fn side_to_move_has_a_point(&self) -> bool {
        let reading = match self.config.rule.reading() {
            Some(r) if self.to_move == Seat::FIRST => r,
            _ => return !self.is_full(),
        };
        let mut scratch = self.lines.clone();
        (0..self.config.size).any(|y| {
            let mut empty = self.lines.empty_row(y);
            while empty != 0 {
                let x = empty.trailing_zeros() as u8;
                empty &= empty - 1;
                if renju::forbidden_at(&mut scratch, x, y, reading).is_none() {
                    return true;
                }
            }
            false
        })
    }

    fn parse_number(text: &str) -> Option<u32> {
        if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        text.parse().ok()
    }
}

impl Game for Gomoku {
    type Move = Point;
    type Config = Config;
    const NAME: &'static str = "gomoku";

    fn new(config: &Config) -> Result<Self, ConfigError> {
        if !(MIN_SIZE..=MAX_BOARD_SIZE).contains(&config.size) {
            return Err(ConfigError::new(alloc::format!(
                "gomoku board size must be {MIN_SIZE}..={MAX_BOARD_SIZE}, not {}",
                config.size
            )));
        }
        Ok(Gomoku {
            config: *config,
            lines: Lines::new(config.size),
            history: Vec::new(),
            counts: [0; 2],
            to_move: Seat::FIRST,
            outcome: None,
            win: None,
        })
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn to_move(&self) -> Option<Seat> {
        match self.outcome {
            Some(_) => None,
            None => Some(self.to_move),
        }
    }

    /// Gomoku has no passes.
    fn forced_move(&self) -> Option<Point> {
        None
    }

    /// Every empty point, less black's forbidden points under renju.
    fn legal_moves(&self, out: &mut Vec<Point>) {
        if self.outcome.is_some() {
            return;
        }
        let reading = self
            .config
            .rule
            .reading()
            .filter(|_| self.to_move == Seat::FIRST);
        let mut scratch = reading.map(|_| self.lines.clone());
        for y in 0..self.config.size {
            let mut empty = self.lines.empty_row(y);
            while empty != 0 {
                let x = empty.trailing_zeros() as u8;
                empty &= empty - 1;
                if let (Some(scratch), Some(reading)) = (scratch.as_mut(), reading) {
                    if renju::forbidden_at(scratch, x, y, reading).is_some() {
                        continue;
                    }
                }
                out.push(Point { x, y });
            }
        }
    }

    fn play(&mut self, mv: Point) -> Result<(), IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if !self.on_board(mv) {
            return Err(IllegalMove::OffBoard);
        }
        if !self.lines.is_empty(mv.x, mv.y) {
            return Err(IllegalMove::Occupied);
        }
        if self.to_move == Seat::FIRST {
            if let Some(kind) = self.forbidden_kind(mv) {
                return Err(IllegalMove::Forbidden(kind));
            }
        }
        self.place(mv);
        Ok(())
    }

    /// Skips the renju check; an off-board or taken point, or a finished game, is ignored.
    fn play_unchecked(&mut self, mv: Point) {
        if self.outcome.is_none() && self.on_board(mv) && self.lines.is_empty(mv.x, mv.y) {
            self.place(mv);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Reads `H8` (column letter, row number from the bottom) or Gomocup's `x,y` (0-based,
    /// row from the top), case-insensitive, surrounding blanks ignored.
    fn parse_move(&self, text: &str) -> Result<Point, ParseMoveError> {
        let err = || ParseMoveError::new(text, NOTATION);
        let t = text.trim();
        let n = self.config.size as u32;
        let (x, y) = if let Some((a, b)) = t.split_once(',') {
            let x = Self::parse_number(a.trim()).ok_or_else(err)?;
            let y = Self::parse_number(b.trim()).ok_or_else(err)?;
            if x >= n || y >= n {
                return Err(err());
            }
            (x, y)
        } else {
            let mut chars = t.chars();
            let letter = chars.next().ok_or_else(err)?;
            if !letter.is_ascii_alphabetic() {
                return Err(err());
            }
            let x = (letter.to_ascii_uppercase() as u32) - ('A' as u32);
            let number = Self::parse_number(chars.as_str()).ok_or_else(err)?;
            if x >= n || number == 0 || number > n {
                return Err(err());
            }
            (x, n - number)
        };
        Ok(Point {
            x: x as u8,
            y: y as u8,
        })
    }

    /// `H8` style; a point off this board (which no legal move is) is written `x,y`.
    fn format_move(&self, mv: Point) -> String {
        let mut s = String::new();
        if self.on_board(mv) {
            s.push((b'A' + mv.x) as char);
            let _ = write!(s, "{}", self.config.size - mv.y);
        } else {
            let _ = write!(s, "{},{}", mv.x, mv.y);
        }
        s
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    /// Stones on the board per seat.
    fn scores(&self) -> [i64; 2] {
        [self.counts[0] as i64, self.counts[1] as i64]
    }
}
