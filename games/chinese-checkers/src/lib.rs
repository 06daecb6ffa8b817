//! Chinese Checkers for 2, 3, 4 or 6 seats on the 121-hole star, OpenSpiel's
//! `chinese_checkers` rules: each seat's ten pieces start in its corner and race to the
//! opposite one. A turn moves one piece: a step to an empty neighbour, or a chain of jumps
//! over single pieces (anyone's) into the empty holes beyond, stopping where the mover likes;
//! a seat with no move passes. The first seat with all ten pieces in its target corner wins
//! and the game ends; it also ends after `max_moves` turns in all (1000 by default).
//!
//! Where OpenSpiel leaves the others level (every loser -1; all 0 at the move bound), this
//! module places them by pieces home, then by steps still to go; and a seat that fails in a
//! game of three or more is taken off the board and the others play on. `docs/games/
//! chinese-checkers.md` has the rules, the notation, what bots are told and the perft figures.

pub mod board;
pub mod moves;
mod notation;
mod ranking;
mod show;

use arbiter_game::{config_number, export_game, Clicks, Game, Json, Outcome, Seat, Turn, Viewer};

use board::{homes, opposite, CELLS, CORNER, STAR};
pub use moves::Move;
use moves::EMPTY;

/// The most seats: one per corner.
pub const MAX_SEATS: usize = 6;
/// OpenSpiel's default bound on the turns of a game (all seats' together).
pub const DEFAULT_MAX_MOVES: usize = 1000;

#[derive(Clone, Debug)]
pub struct ChineseCheckers {
    seats: u8,
    max_moves: u32,
    /// Each hole: the seat whose piece is in it, or [`EMPTY`].
    board: [u8; CELLS],
    to_move: u8,
    /// Turns played, passes included (OpenSpiel's `total_moves`).
    turns: u32,
    /// The seat that brought all its pieces home.
    winner: Option<u8>,
    /// For each seat, 0 while it plays, else how many seats had failed when it failed,
    /// itself included (1 the first to fail).
    failed: [u8; MAX_SEATS],
    /// The last turn's seat and move.
    last: Option<(u8, Move)>,
}

/// Why a game is over.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    /// This seat has all its pieces in its target corner.
    Home(u8),
    /// Every other seat failed.
    Alone,
    /// `max_moves` turns were played.
    Limit,
}

impl ChineseCheckers {
    /// The start position for `seats` (2, 3, 4 or 6) seats.
    pub fn start(seats: usize, max_moves: usize) -> Result<Self, String> {
        let corners = homes(seats).ok_or_else(|| {
            format!(
                "players must be 2, 3, 4 or 6, not {seats}: each seat needs the corner \
                 opposite its own to run to (OpenSpiel's seat counts)"
            )
        })?;
        let mut board = [EMPTY; CELLS];
        for (seat, &corner) in corners.iter().enumerate() {
            for &cell in &STAR.corners[corner] {
                board[usize::from(cell)] = seat as u8;
            }
        }
        Ok(ChineseCheckers {
            seats: seats as u8,
            max_moves: u32::try_from(max_moves).map_err(|_| "max_moves is too large")?,
            board,
            to_move: 0,
            turns: 0,
            winner: None,
            failed: [0; MAX_SEATS],
            last: None,
        })
    }

    /// The corner a seat starts in (north for a seat the game lacks).
    pub fn home(&self, seat: Seat) -> usize {
        homes(usize::from(self.seats))
            .and_then(|h| h.get(seat).copied())
            .unwrap_or(0)
    }

    /// The corner a seat must fill.
    pub fn target(&self, seat: Seat) -> usize {
        opposite(self.home(seat))
    }

    /// A seat's pieces in its target corner (0 for a seat the game lacks).
    pub fn pieces_home(&self, seat: Seat) -> usize {
        STAR.corners[self.target(seat)]
            .iter()
            .filter(|&&c| usize::from(self.board[usize::from(c)]) == seat)
            .count()
    }

    /// The steps a seat's pieces still have to go: for each piece, its distance to the
    /// nearest hole of its target corner (0 inside it).
    pub fn steps_to_go(&self, seat: Seat) -> u32 {
        let target = &STAR.corners[self.target(seat)];
        (0..CELLS as u8)
            .filter(|&c| usize::from(self.board[usize::from(c)]) == seat)
            .map(|c| {
                target
                    .iter()
                    .map(|&t| STAR.distance(c, t))
                    .min()
                    .unwrap_or(0)
            })
            .sum()
    }

    /// Whether a seat is still playing (has not failed).
    pub fn plays(&self, seat: Seat) -> bool {
        self.failed.get(seat) == Some(&0)
    }

    /// The holes, each the seat whose piece is in it or [`moves::EMPTY`], OpenSpiel's order.
    pub fn holes(&self) -> &[u8; CELLS] {
        &self.board
    }

    /// Turns played so far, passes included.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    fn playing(&self) -> usize {
        (0..usize::from(self.seats))
            .filter(|&s| self.plays(s))
            .count()
    }

    fn end(&self) -> Option<End> {
        if let Some(w) = self.winner {
            Some(End::Home(w))
        } else if self.playing() <= 1 {
            Some(End::Alone)
        } else if self.turns >= self.max_moves {
            Some(End::Limit)
        } else {
            None
        }
    }

    /// The next seat still playing after `to_move`, in seat order.
    fn pass_turn(&mut self) {
        let n = self.seats;
        for k in 1..=n {
            let next = (self.to_move + k) % n;
            if self.plays(usize::from(next)) {
                self.to_move = next;
                return;
            }
        }
    }

    /// Why `mv` is not a legal move for `seat` now, if it is not.
    fn check(&self, seat: u8, mv: &Move) -> Result<(), String> {
        let Move::Go { from, to } = *mv else {
            return match moves::can_move(&self.board, seat) {
                true => Err("pass is only for a seat none of whose pieces can move".into()),
                false => Ok(()),
            };
        };
        if usize::from(from.max(to)) >= CELLS {
            return Err("no such hole".into());
        }
        match self.board[usize::from(from)] {
            s if s == seat => {}
            EMPTY => return Err(format!("{} is empty", STAR.name(from))),
            other => {
                return Err(format!(
                    "{} holds seat {other}'s piece, not yours",
                    STAR.name(from)
                ))
            }
        }
        if moves::destinations(&self.board, from) & moves::bit(to) == 0 {
            return Err(format!(
                "{} is no step or chain of jumps from {}",
                STAR.name(to),
                STAR.name(from)
            ));
        }
        Ok(())
    }
}

impl Game for ChineseCheckers {
    type Move = Move;
    const NAME: &'static str = "chinese-checkers";
    const VERSION: &'static str = "1.0.0";
    const SEATS: &'static [usize] = &[2, 3, 4, 6];
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["max_moves"]);

    fn new(config: &Json, _seed: u64) -> Result<Self, String> {
        let seats = arbiter_game::players(config, Self::SEATS)?;
        let max_moves = config_number(config, "max_moves", DEFAULT_MAX_MOVES, 1..=100_000)?;
        ChineseCheckers::start(seats, max_moves)
    }

    fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    fn turn(&self) -> Turn {
        Turn::of(self.end().is_none().then_some(usize::from(self.to_move)))
    }

    fn forced_move(&self, seat: Seat) -> Option<Move> {
        let mover = self.turn().seat().filter(|&s| s == seat)?;
        (!moves::can_move(&self.board, mover as u8)).then_some(Move::Pass)
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<Move>) {
        if let Turn::Seat(s) = self.turn() {
            moves::legal(&self.board, s as u8, out);
        }
    }

    fn play(&mut self, mv: &Move) -> Result<(), String> {
        let Turn::Seat(seat) = self.turn() else {
            return Err("the game is over".into());
        };
        let seat = seat as u8;
        self.check(seat, mv)?;
        if let Move::Go { from, to } = *mv {
            self.board[usize::from(from)] = EMPTY;
            self.board[usize::from(to)] = seat;
        }
        self.last = Some((seat, *mv));
        self.turns += 1;
        if self.pieces_home(usize::from(seat)) == CORNER {
            self.winner = Some(seat);
        }
        self.pass_turn();
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        ranking::outcome(self, self.end()?)
    }

    fn scores(&self) -> Vec<i64> {
        (0..self.seats())
            .map(|s| self.pieces_home(s) as i64)
            .collect()
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        notation::parse(&self.board, text)
    }

    fn format_move(&self, mv: &Move) -> String {
        notation::format(mv)
    }

    fn tell(&self, _seat: Seat) -> String {
        show::tell(self)
    }

    fn view(&self, _viewer: Viewer) -> arbiter_game::View {
        show::view(self)
    }

    /// The failed seat's pieces leave the board (so that they block nobody's corner for the
    /// rest of the game), its turns are skipped, and it is placed after every seat still
    /// playing: of two failed seats, the later one better. The last seat playing wins.
    fn retire(&mut self, seat: Seat) -> bool {
        if seat >= self.seats() || self.turn().is_over() {
            return false;
        }
        if !self.plays(seat) {
            return true;
        }
        let order = self.failed.iter().filter(|&&f| f > 0).count() as u8 + 1;
        self.failed[seat] = order;
        for cell in self.board.iter_mut().filter(|c| usize::from(**c) == seat) {
            *cell = EMPTY;
        }
        if self.last.is_some_and(|(s, _)| usize::from(s) == seat) {
            self.last = None;
        }
        if usize::from(self.to_move) == seat {
            self.pass_turn();
        }
        true
    }

    /// The piece, then the hole it goes to (a chain's intermediate holes are not clicked:
    /// every chain to a hole is the same move).
    fn clicks(&self, _seat: Seat, mv: &Move) -> Option<Clicks> {
        match *mv {
            Move::Go { from, to } => Some(Clicks::Cells(vec![STAR.place(from), STAR.place(to)])),
            Move::Pass => None,
        }
    }
}

export_game!(ChineseCheckers);

#[cfg(test)]
mod tests;
