//! What each seat is told and what the player draws: nothing is hidden, so every seat and
//! every viewer gets the same.

use arbiter_game::view::{column_letter, Grid, Line, Mark, Shape, View};
use arbiter_game::{Game, Seat};

use crate::board::Cell;
use crate::{seat_name, SnakeGame};

fn cell_text(c: Cell) -> String {
    format!("{},{}", c.col, c.row)
}

/// The bot protocol's content (docs/games/snake.md has an example).
pub fn tell(g: &SnakeGame, seat: Seat) -> String {
    let s = g.settings();
    let mut lines = vec![
        format!(
            "SNAKE cols {} rows {} seats {} horizon {}",
            s.cols, s.rows, s.seats, s.horizon
        ),
        format!("SEAT {seat}"),
        if g.turn().is_over() {
            format!("OVER {}", g.turns())
        } else {
            format!("TURN {}", g.turns() + 1)
        },
        format!("FOOD {}", g.food().map_or("none".into(), cell_text)),
    ];
    for (i, snake) in g.snakes().iter().enumerate() {
        lines.push(match snake.fate {
            None => {
                let body: Vec<String> = snake.body.iter().map(|&c| cell_text(c)).collect();
                format!("ALIVE {i} {} {}", snake.fruits, body.join(" "))
            }
            Some(f) => format!("DEAD {i} {} {} {}", f.turn, f.cause.word(), snake.fruits),
        });
    }
    lines.join("\n")
}

/// A grid cell's place in the view: one in from the wall's ring.
pub fn at(c: Cell) -> [u16; 2] {
    [(c.col + 1) as u16, (c.row + 1) as u16]
}

/// A cells board of the grid with the wall's ring around it (the wall drawn as a frame; a
/// head steps onto the ring when it leaves the grid); each snake in its seat's colour, the head
/// a disc labelled with the seat's number, the body squares labelled with its letter (as
/// OpenSpiel prints them: `0` and `a`), the food a neutral disc labelled `*`; the snakes that
/// died in the last turn a cross where their head was. The same for every viewer (the kit's
/// rule for a game that hides nothing: a seat's own targets would be another view).
pub fn view(g: &SnakeGame) -> View {
    let s = g.settings();
    let (cols, rows) = (s.cols as u16, s.rows as u16);
    let mut v = View::board(Grid::Cells, cols + 2, rows + 2);
    // The ring is labelled `#`, the wall: `#3` is the wall left of row 3.
    let ring = |n: u16, label: &dyn Fn(u16) -> String| {
        std::iter::once("#".to_string())
            .chain((0..n).map(label))
            .chain(std::iter::once("#".to_string()))
            .collect()
    };
    v.board.col_labels = ring(cols, &column_letter);
    v.board.row_labels = ring(rows, &|r| r.to_string());
    let corners = [[1, 1], [cols + 1, 1], [cols + 1, rows + 1], [1, rows + 1]];
    for i in 0..4 {
        v.lines.push(Line {
            from: corners[i],
            to: corners[(i + 1) % 4],
            seat: None,
        });
    }
    draw_snakes(g, &mut v);
    if let Some(f) = g.food() {
        put(&mut v, at(f), Shape::Disc, None, "*".into());
    }
    v.text = texts(g);
    v
}

fn put(v: &mut View, [c, r]: [u16; 2], shape: Shape, seat: Option<Seat>, label: String) {
    v.piece(c, r, shape, seat.map(|s| s as u8));
    if let Some(p) = v.pieces.last_mut() {
        p.label = Some(label);
    }
}

fn draw_snakes(g: &SnakeGame, v: &mut View) {
    for (seat, snake) in g.snakes().iter().enumerate() {
        let letter = char::from(b'a' + seat as u8).to_string();
        for (i, &c) in snake.body.iter().enumerate() {
            match i {
                0 => put(v, at(c), Shape::Disc, Some(seat), seat.to_string()),
                _ => put(v, at(c), Shape::Square, Some(seat), letter.clone()),
            }
        }
        if snake.fate.is_some_and(|f| f.turn == g.turns()) {
            if let Some(c) = last_head(g, seat) {
                let [x, y] = at(c);
                v.mark(x, y, Mark::Last, Some(seat as u8));
                // Another snake may have stepped there since.
                if !g.snakes().iter().any(|o| o.body.contains(&c)) {
                    put(v, [x, y], Shape::Cross, Some(seat), seat.to_string());
                }
            }
        }
    }
}

/// Where `seat`'s head was before the last turn.
fn last_head(g: &SnakeGame, seat: Seat) -> Option<Cell> {
    g.heads_before().get(seat).copied().flatten()
}

fn texts(g: &SnakeGame) -> Vec<String> {
    let s = g.settings();
    let mut t = vec![match g.outcome() {
        Some(o) => format!("over after {} turns: {}", g.turns(), o.reason),
        None => format!("turn {} of {}", g.turns() + 1, s.horizon),
    }];
    for (seat, snake) in g.snakes().iter().enumerate() {
        let fruits = match snake.fruits {
            1 => "1 fruit".to_string(),
            n => format!("{n} fruits"),
        };
        t.push(match snake.fate {
            None => format!("{}: length {}, {fruits}", seat_name(seat), snake.length()),
            Some(f) => format!(
                "{}: out in turn {} ({}), length {}, {fruits}",
                seat_name(seat),
                f.turn,
                f.cause.word(),
                snake.length()
            ),
        });
    }
    if !g.turn().is_over() {
        t.push("to move, click the cell your head steps to".into());
    }
    t
}
