//! What one frame shows, computed by the engine so the page only draws: the board as text
//! (the referee's symbols, for tests and screen readers) and per-game marks.

use crate::lang::ta;
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

use crate::failure::{cell_name, FailureMark};
use crate::kit::view::ModuleView;

/// One frame, ready to draw. Cells are `[row, col]` (Gomoku: `[y, x]`, row 0 at the top).
#[derive(Serialize, Default)]
pub struct FrameView {
    pub index: usize,
    /// One line per row: `X` black / first, `O` white / second, `.` empty; the duel's
    /// `+00 -01` lines. The same as `arbiter replay show --json`.
    pub board: Vec<String>,
    /// 0, 1, or null once the game is over and in a simultaneous turn.
    pub to_move: Option<u8>,
    /// Every seat that moves now (several in a simultaneous turn); for the player boxes.
    #[serde(skip)]
    pub movers: Vec<u8>,
    /// Each seat's place (1st, 2nd...) once the game is over by its rules.
    #[serde(skip)]
    pub places: Option<Vec<u32>>,
    pub scores: Vec<i64>,
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
    /// The last frame of a failure verdict: the attempted move and the words drawn.
    pub failure: Option<FailureMark>,
    /// A game module's view (`board` holds it as text).
    #[serde(skip)]
    pub module: Option<ModuleView>,
    /// The board in words, for screen readers: pieces by side in the move list's notation,
    /// the moves allowed, the last move, the marks.
    pub description: String,
}

/// Seat labels per game: colours for Reversi and Gomoku, `+`/`-` for the duel, first and
/// second for a game module of two seats (its pieces are in the duel's seat colours), `#1`
/// to `#N` for a module of more (each seat has its own colour).
pub fn seat_labels(game: &str, seats: usize) -> Vec<String> {
    use crate::lang::t_static;
    let two = if game == Duel::NAME {
        [t_static("player-first"), t_static("player-second")]
    } else if game == arbiter_engine::any::MODULE {
        if seats != 2 {
            return (1..=seats).map(|i| format!("#{i}")).collect();
        }
        // A module's seats have no sign: the duel's (+) and (−) are its halves of the board.
        [
            t_static("player-module-first"),
            t_static("player-module-second"),
        ]
    } else {
        [t_static("player-black"), t_static("player-white")]
    };
    two.iter().map(|l| String::from(*l)).collect()
}

fn stone(s: Option<Seat>) -> char {
    match s {
        Some(Seat::FIRST) => 'X',
        Some(_) => 'O',
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
    frame_view_as(index, last, after, arbiter_engine::Viewer::All)
}

/// [`frame_view`] as `viewer` sees it: a module's view asked for that viewer (a seat sees
/// its own hand only).
pub fn frame_view_as(
    index: usize,
    last: Option<(&AnyGame, AnyMove)>,
    after: &AnyGame,
    viewer: arbiter_engine::Viewer,
) -> FrameView {
    let labels = seat_labels(after.name(), after.seats());
    let mut v = FrameView {
        index,
        to_move: after.to_move().map(u8::from),
        movers: after.turn().movers().iter().map(u8::from).collect(),
        places: after.places(),
        scores: after.scores(),
        ..FrameView::default()
    };
    if let Some((before, mv)) = last {
        v.last_seat = before.to_move().map(u8::from);
        v.last_text = Some(before.format_move(mv));
    }
    v.status = match (after.outcome(), after.to_move()) {
        (Some(o), _) => {
            let who = crate::session::outcome_words(&labels, o.winner, v.places.as_deref());
            let why = match o.reason {
                arbiter_engine::EndReason::Module => after.end_words().unwrap_or_default(),
                r => crate::session::end_reason_text(&r),
            };
            ta(
                "player-game-over",
                &[("who", who.into()), ("why", why.into())],
            )
        }
        (None, Some(s)) => match after.forced_move() {
            Some(m) => ta(
                "player-must",
                &[
                    ("who", crate::session::seat_label(&labels, s).into()),
                    ("move", after.format_move(m).into()),
                ],
            ),
            None => ta(
                "player-to-move",
                &[("who", crate::session::seat_label(&labels, s).into())],
            ),
        },
        (None, None) => String::new(),
    };
    match after {
        AnyGame::Reversi(g) => reversi(&mut v, last, g),
        AnyGame::Gomoku(g) => gomoku(&mut v, g),
        AnyGame::Duel2048(g) => duel(&mut v, last, g),
        AnyGame::Module(g) => {
            let parsed = serde_json::from_str(&g.view(viewer)).ok();
            v.module = parsed.and_then(|j| ModuleView::read(&j).ok());
            v.board = v
                .module
                .as_ref()
                .map(ModuleView::text_lines)
                .unwrap_or_default();
        }
    }
    v.description = describe(&v, after);
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
                    let sign = if c.owner == Seat::FIRST { '+' } else { '-' };
                    format!("{sign}{:02}", c.level)
                })
                .collect();
            cells.join(" ")
        })
        .collect();
    v.cells = rows
        .iter()
        .flat_map(|row| row.iter().map(|c| [u8::from(c.owner), c.level]))
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
        v.next_placer = Some(u8::from(seat));
        v.next_cell = g.next_cell(seat).map(|(r, c)| [r, c]);
    }
}

fn direction_name(d: Direction) -> &'static str {
    d.as_str()
}

/// The board in words: `Black to move. Black, 12 discs: d4 e5; White, 10 discs: ...; legal
/// for Black: c3 d6. Last move: White f5, turned e5.`
pub fn describe(v: &FrameView, g: &AnyGame) -> String {
    let labels = seat_labels(g.name(), g.seats());
    let labels = &labels[..];
    let mut out = String::new();
    if !v.status.is_empty() {
        out.push_str(&v.status);
        out.push_str(". ");
    }
    if let Some(m) = &v.module {
        out.push_str(&module_pieces(m, labels));
    } else if let AnyGame::Duel2048(_) = g {
        out.push_str(&duel_pieces(v, labels));
    } else {
        out.push_str(&pieces(v, g, labels));
    }
    let names = |cells: &[[u8; 2]]| -> String {
        let list: Vec<String> = cells.iter().map(|&c| cell_name(g, c)).collect();
        list.join(" ")
    };
    if let (Some(seat), false) = (v.to_move, v.legal.is_empty()) {
        let who = label_of(labels, seat);
        out.push_str(&format!(" Legal for {who}: {}.", names(&v.legal)));
    }
    if let (Some(seat), Some(text)) = (v.last_seat, &v.last_text) {
        out.push_str(&format!(" Last move: {} {text}", label_of(labels, seat)));
        if !v.flipped.is_empty() {
            out.push_str(&format!(", turned {}", names(&v.flipped)));
        }
        out.push('.');
    }
    if !v.forbidden.is_empty() {
        let list: Vec<String> = v
            .forbidden
            .iter()
            .map(|&(y, x, k)| format!("{} ({})", cell_name(g, [y, x]), forbidden_word(k)))
            .collect();
        out.push_str(&format!(" Forbidden for Black: {}.", list.join(", ")));
    }
    if !v.winning.is_empty() {
        out.push_str(&format!(" Winning line: {}.", names(&v.winning)));
    }
    out
}

fn forbidden_word(k: char) -> &'static str {
    match k {
        '3' => "double-three",
        '4' => "double-four",
        _ => "overline",
    }
}

/// `Black, 2 discs: d5 e4; White, 2 discs: d4 e5.` (stones for Gomoku).
fn pieces(v: &FrameView, g: &AnyGame, labels: &[String]) -> String {
    let unit = if let AnyGame::Reversi(_) = g {
        "disc"
    } else {
        "stone"
    };
    let mut lists = [Vec::new(), Vec::new()];
    for (r, line) in v.board.iter().enumerate() {
        for (c, ch) in line.bytes().enumerate() {
            let seat = match ch {
                b'X' => 0,
                b'O' => 1,
                _ => continue,
            };
            lists[seat].push(cell_name(g, [r as u8, c as u8]));
        }
    }
    let side = |s: usize| {
        let n = lists[s].len();
        let plural = if n == 1 { "" } else { "s" };
        let list = if n == 0 {
            String::from("none")
        } else {
            lists[s].join(" ")
        };
        format!("{}, {n} {unit}{plural}: {list}", label_of(labels, s as u8))
    };
    format!("{}; {}.", side(0), side(1))
}

/// `First, 4 pieces: d1 g1 a4 j4; Second, 4 pieces: ...; also: d7 (neutral). ply 3.`: the
/// pieces by seat in the view's labels, then the view's text.
fn module_pieces(m: &ModuleView, labels: &[String]) -> String {
    // One list per seat, then the neutral pieces' (a piece's seat is below the seat count:
    // `ModuleView::read` checks it against the most seats a game has).
    let neutral = labels.len();
    let mut lists = alloc::vec![Vec::new(); neutral + 1];
    for p in &m.pieces {
        let mut name = m.place_name(p.at);
        if let Some(l) = &p.label {
            name = format!("{l} {name}");
        }
        let s = p.seat.map_or(neutral, usize::from).min(neutral);
        lists[s].push(name);
    }
    let mut out = String::new();
    for (s, label) in labels.iter().enumerate() {
        let n = lists[s].len();
        out.push_str(&format!("{label}, {n} pieces: {}; ", lists[s].join(" ")));
    }
    if !lists[neutral].is_empty() {
        out.push_str(&format!("neutral: {}. ", lists[neutral].join(" ")));
    }
    out.push_str(&m.text.join(". "));
    out
}

/// `First (+) tiles: 0,1 = 2, 2,3 = 8; Second (−) tiles: none. Next placement: 1,2.`
fn duel_pieces(v: &FrameView, labels: &[String]) -> String {
    let mut lists = [Vec::new(), Vec::new()];
    for (i, &[owner, level]) in v.cells.iter().enumerate() {
        if level == 0 {
            continue;
        }
        let value = if level < 40 {
            format!("{}", 1u64 << level)
        } else {
            format!("2^{level}")
        };
        lists[usize::from(owner & 1)].push(format!("{},{} = {value}", i / 8, i % 8));
    }
    let side = |s: usize| {
        let list = if lists[s].is_empty() {
            String::from("none")
        } else {
            lists[s].join(", ")
        };
        format!("{} tiles: {list}", label_of(labels, s as u8))
    };
    let mut out = format!("{}; {}.", side(0), side(1));
    if let (Some([r, c]), Some(p)) = (v.next_cell, v.next_placer) {
        out.push_str(&format!(
            " Next placement for {} in its half: {r},{c}.",
            label_of(labels, p)
        ));
    }
    out
}

/// The label of `seat` among `labels` (`?` past them: a seat number from a stranger).
pub fn label_of(labels: &[String], seat: u8) -> &str {
    labels.get(usize::from(seat)).map_or("?", String::as_str)
}
