//! What bots are told and what the player draws.

use arbiter_game::view::{Grid, Line, Mark, Shape};
use arbiter_game::{Game, View};

use crate::board::{CELLS, CORNER_NAMES, CORNER_SHORT, SIDE, STAR};
use crate::moves::{path_after, Move, EMPTY};
use crate::ChineseCheckers;

/// `PLAYERS n`, `TURNS played max`, `MOVER s` (or `MOVER none` once over), one `SEAT s home
/// target pieces_home` line per seat (`out` appended for a failed seat), then the rhombus's 17
/// rows from the top (row 17) down: column `a` first, `#` off the star, `.` an empty hole, a
/// digit the seat whose piece is there.
pub fn tell(g: &ChineseCheckers) -> String {
    let mut s = format!("PLAYERS {}\nTURNS {} {}\n", g.seats, g.turns, g.max_moves);
    match g.turn().seat() {
        Some(m) => s.push_str(&format!("MOVER {m}\n")),
        None => s.push_str("MOVER none\n"),
    }
    for seat in 0..g.seats() {
        s.push_str(&format!(
            "SEAT {seat} {} {} {}{}\n",
            CORNER_SHORT[g.home(seat)],
            CORNER_SHORT[g.target(seat)],
            g.pieces_home(seat),
            if g.plays(seat) { "" } else { " out" }
        ));
    }
    for row in 0..SIDE {
        if row > 0 {
            s.push('\n');
        }
        s.extend((0..SIDE).map(|col| match STAR.at_place(col, row) {
            None => '#',
            Some(c) => hole_char(g.board[usize::from(c)]),
        }));
    }
    s
}

fn hole_char(x: u8) -> char {
    if x == EMPTY {
        '.'
    } else {
        char::from(b'0' + x)
    }
}

/// The star on the kit's hex grid (a 17 x 17 rhombus, labelled as the notation names holes):
/// each seat's target corner tinted in its colour, the rest of the star grey; the pieces as discs in their seat's colour, each labelled with its
/// seat; the last move's start and end ringed and its path (the shortest chain) drawn. The
/// rhombus's places off the star are the board's `off` places: not drawn, never clicked.
pub fn view(g: &ChineseCheckers) -> View {
    let mut v = View::board(Grid::Hex, SIDE as u16, SIDE as u16).chess_labels();
    v.board.off = (0..SIDE)
        .flat_map(|row| (0..SIDE).map(move |col| (col, row)))
        .filter(|&(col, row)| STAR.at_place(col, row).is_none())
        .map(|(col, row)| [col as u16, row as u16])
        .collect();
    let target_of: Vec<Option<u8>> = (0..6)
        .map(|corner| {
            (0..g.seats())
                .find(|&s| g.target(s) == corner)
                .map(|s| s as u8)
        })
        .collect();
    for cell in 0..CELLS as u8 {
        let [c, r] = STAR.place(cell);
        let seat = STAR.corner(cell).and_then(|k| target_of[k]);
        v.mark(c, r, Mark::Owned, seat);
    }
    for cell in 0..CELLS as u8 {
        let x = g.board[usize::from(cell)];
        if x != EMPTY {
            let [c, r] = STAR.place(cell);
            v.pieces.push(arbiter_game::view::Piece {
                at: [c, r],
                shape: Shape::Disc,
                seat: Some(x),
                label: Some(hole_char(x).to_string()),
            });
        }
    }
    if let Some((seat, Move::Go { from, to })) = g.last {
        let path = path_after(&g.board, from, to);
        for pair in path.windows(2) {
            v.lines.push(Line {
                from: STAR.place(pair[0]),
                to: STAR.place(pair[1]),
                seat: Some(seat),
            });
        }
        for cell in [from, to] {
            let [c, r] = STAR.place(cell);
            v.mark(c, r, Mark::Last, None);
        }
    }
    v.text = text(g);
    v
}

fn text(g: &ChineseCheckers) -> Vec<String> {
    let mover = g.turn().seat();
    let mut lines: Vec<String> = (0..g.seats())
        .map(|s| {
            let state = match (mover == Some(s), g.plays(s)) {
                (_, false) => ", failed: its pieces are off the board",
                (true, _) => ", to move",
                _ => "",
            };
            format!(
                "seat {s} {} to {}: {} of 10 home, {} steps to go{state}",
                CORNER_NAMES[g.home(s)],
                CORNER_NAMES[g.target(s)],
                g.pieces_home(s),
                g.steps_to_go(s)
            )
        })
        .collect();
    lines.push(format!(
        "{} of at most {} turns played",
        g.turns, g.max_moves
    ));
    if let Some((seat, mv)) = g.last {
        lines.push(format!("last: seat {seat} played {}", g.format_move(&mv)));
    }
    match g.outcome() {
        Some(o) => {
            lines.push(o.reason.clone());
            let places: Vec<String> = o
                .places
                .iter()
                .enumerate()
                .map(|(s, p)| format!("seat {s} place {p}"))
                .collect();
            lines.push(places.join(", "));
        }
        None => lines.push("click a piece, then the hole it goes to".into()),
    }
    lines
}
