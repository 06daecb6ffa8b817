//! What one frame shows, computed by the engine so the page only draws: the board as text
//! (the referee's symbols, for tests and screen readers) and per-game marks.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::duel2048::{self, Direction, Duel};
use arbiter_engine::error::StepKind;
use arbiter_engine::gomoku::{Gomoku, Point};
use arbiter_engine::reversi::{Move as ReversiMove, Reversi};
use arbiter_engine::{ForbiddenKind, Game, Seat};
use serde::Serialize;

/// One frame, ready to draw. Cells are `[row, col]` (Gomoku: `[y, x]`, row 0 at the top).
#[derive(Serialize, Default)]
pub struct FrameView {
    pub index: usize,
    /// One line per row: `X` black / first, `O` white / second, `.` empty; the duel's
    /// `+00 -01` lines. The same as `arbiter replay show --json`.
    pub board: Vec<String>,
    /// 0, 1, or null once the game is over.
    pub to_move: Option<u8>,
    pub scores: [i64; 2],
    /// `Black to move`, `White must pass`, `Game over: ...`.
    pub status: String,
    /// The move that led here (frame > 0): who played it and how it reads.
    pub last_seat: Option<u8>,
    pub last_text: Option<String>,
    /// Reversi / Gomoku: the cell of the last move.
    pub last_cell: Option<[u8; 2]>,
    /// Reversi: discs turned over by the last move.
    pub flipped: Vec<[u8; 2]>,
    /// Reversi: where the side to move may place.
    pub legal: Vec<[u8; 2]>,
    /// Reversi: the last move was a pass; Duel: a skipped step.
    pub passed: bool,
    /// Gomoku: stones in playing order (move numbers).
    pub order: Vec<[u8; 2]>,
    /// Gomoku: the winning run.
    pub winning: Vec<[u8; 2]>,
    /// Gomoku renju: black's forbidden points, with `3`, `4` or `6`.
    pub forbidden: Vec<(u8, u8, char)>,
    /// Duel: the 32 cells row-major, `[owner, level]`.
    pub cells: Vec<[u8; 2]>,
    /// Duel: the round being played (0-based) and the total.
    pub round: u16,
    /// Duel: the last slide's direction (`up` ...).
    pub slide: Option<&'static str>,
    /// Duel: the cell the player about to place would get in its own half.
    pub next_cell: Option<[u8; 2]>,
    /// Duel: the player about to place (0/1), when the next step is a placement.
    pub next_placer: Option<u8>,
}

/// Seat labels per game: colours for the board games, `+`/`-` for the duel.
pub fn seat_labels(game: &str) -> [&'static str; 2] {
    if game == Duel::NAME {
        ["First (+)", "Second (−)"]
    } else {
        ["Black", "White"]
    }
}

fn stone(s: Option<Seat>) -> char {
    match s {
        Some(Seat::First) => 'X',
        Some(Seat::Second) => 'O',
        None => '.',
    }
}

fn forbidden_mark(k: ForbiddenKind) -> char {
    match k {
        ForbiddenKind::DoubleThree => '3',
        ForbiddenKind::DoubleFour => '4',
        ForbiddenKind::Overline => '6',
    }
}

/// The view of `after`, the position of frame `index`; `last` is the position before and the
/// move that led here.
pub fn frame_view(index: usize, last: Option<(&AnyGame, AnyMove)>, after: &AnyGame) -> FrameView {
    let labels = seat_labels(after.name());
    let mut v = FrameView {
        index,
        to_move: after.to_move().map(|s| s as u8),
        scores: after.scores(),
        ..FrameView::default()
    };
    if let Some((before, mv)) = last {
        v.last_seat = before.to_move().map(|s| s as u8);
        v.last_text = Some(before.format_move(mv));
    }
    v.status = match (after.outcome(), after.to_move()) {
        (Some(o), _) => {
            let who = match o.winner {
                Some(s) => format!("{} wins", labels[s.index()]),
                None => String::from("Draw"),
            };
            format!(
                "Game over: {who} ({})",
                crate::session::end_reason_text(&o.reason)
            )
        }
        (None, Some(s)) => match after.forced_move() {
            Some(m) => format!(
                "{} to move: must {}",
                labels[s.index()],
                after.format_move(m)
            ),
            None => format!("{} to move", labels[s.index()]),
        },
        (None, None) => String::new(),
    };
    match after {
        AnyGame::Reversi(g) => reversi(&mut v, last, g),
        AnyGame::Gomoku(g) => gomoku(&mut v, g),
        AnyGame::Duel2048(g) => duel(&mut v, last, g),
    }
    v
}

fn reversi(v: &mut FrameView, last: Option<(&AnyGame, AnyMove)>, g: &Reversi) {
    let n = g.size();
    v.board = (0..n)
        .map(|r| (0..n).map(|c| stone(g.disc(r, c))).collect())
        .collect();
    v.legal = g.legal_places().map(|(r, c)| [r, c]).collect();
    if let Some((AnyGame::Reversi(before), AnyMove::Reversi(mv))) = last {
        match mv {
            ReversiMove::Place { row, col } => {
                v.last_cell = Some([row, col]);
                v.flipped = before
                    .flipped_by(mv)
                    .into_iter()
                    .map(|(r, c)| [r, c])
                    .collect();
            }
            ReversiMove::Pass => v.passed = true,
        }
    }
}

fn gomoku(v: &mut FrameView, g: &Gomoku) {
    let n = g.size();
    v.board = (0..n)
        .map(|y| (0..n).map(|x| stone(g.stone(Point { x, y }))).collect())
        .collect();
    v.order = g.history().iter().map(|p| [p.y, p.x]).collect();
    v.last_cell = v.order.last().copied();
    v.winning = g
        .winning_line()
        .unwrap_or_default()
        .into_iter()
        .map(|p| [p.y, p.x])
        .collect();
    if g.outcome().is_none() {
        v.forbidden = g
            .forbidden_points()
            .into_iter()
            .map(|(p, k)| (p.y, p.x, forbidden_mark(k)))
            .collect();
    }
}

fn duel(v: &mut FrameView, last: Option<(&AnyGame, AnyMove)>, g: &Duel) {
    let rows = g.board_rows();
    v.board = rows
        .iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|c| {
                    let sign = if c.owner == Seat::First { '+' } else { '-' };
                    format!("{sign}{:02}", c.level)
                })
                .collect();
            cells.join(" ")
        })
        .collect();
    v.cells = rows
        .iter()
        .flat_map(|row| row.iter().map(|c| [c.owner as u8, c.level]))
        .collect();
    v.round = g.round();
    if let Some((_, AnyMove::Duel2048(mv))) = last {
        match mv {
            duel2048::Move::Place { row, col } => v.last_cell = Some([row, col]),
            duel2048::Move::Slide(d) => v.slide = Some(direction_name(d)),
            duel2048::Move::Skip => v.passed = true,
        }
    }
    if g.outcome().is_none() && g.step_kind() == StepKind::Place {
        let seat = g.step().seat();
        v.next_placer = Some(seat as u8);
        v.next_cell = g.next_cell(seat).map(|(r, c)| [r, c]);
    }
}

fn direction_name(d: Direction) -> &'static str {
    d.as_str()
}
