//! Text pictures of positions for the terminal (`arbiter inspect`, `arbiter replay show`) and
//! their JSON twins (`--json`).
//!
//! Reversi: algebraic labels (a.., 1..) on the top and left, the protocol's 0-based ROW/COL
//! numbers on the bottom and right. Gomoku: seed 003's letters and numbers (row 1 at the
//! bottom). The 2048 duel: the original platform's `+00 -01` lines.

use std::fmt::Write as _;

use arbiter_engine::any::AnyGame;
use arbiter_engine::duel2048::{self, Duel};
use arbiter_engine::game::{Game, Seat};
use arbiter_engine::gomoku::{Gomoku, Point};
use arbiter_engine::reversi::{Move as ReversiMove, Reversi};
use arbiter_engine::ForbiddenKind;
use serde_json::{json, Value};

pub const BLACK: char = 'X';
pub const WHITE: char = 'O';

fn stone(s: Option<Seat>) -> char {
    match s {
        Some(Seat::FIRST) => BLACK,
        Some(_) => WHITE,
        None => '.',
    }
}

/// The board, one line per row.
pub fn board_lines(game: &AnyGame) -> Vec<String> {
    match game {
        AnyGame::Reversi(g) => reversi_rows(g),
        AnyGame::Gomoku(g) => gomoku_rows(g),
        AnyGame::Duel2048(g) => duel_rows(g),
        AnyGame::Module(m) => module_rows(m.view(arbiter_engine::Viewer::All)),
    }
}

/// A module game's view as text (`arbiter_game::View::text_lines`).
fn module_rows(view: String) -> Vec<String> {
    match serde_json::from_str::<arbiter_game::View>(&view) {
        Ok(v) => v.text_lines(),
        Err(_) => vec!["(the game module gave no view)".to_string()],
    }
}

/// The board with labels, for people.
pub fn board_picture(game: &AnyGame) -> String {
    let mut out = String::new();
    match game {
        AnyGame::Module(m) => {
            for line in module_rows(m.view(arbiter_engine::Viewer::All)) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        AnyGame::Reversi(g) => {
            let n = g.size();
            let legal = legal_squares(g);
            // Columns numbered 10 and up need a wider cell, or the numbers run together.
            let w = if n > 10 { 3 } else { 2 };
            let _ = write!(out, "    ");
            for c in 0..n {
                let _ = write!(out, "{:>w$}", (b'a' + c) as char);
            }
            out.push('\n');
            for r in 0..n {
                let _ = write!(out, "{:>3} ", r + 1);
                for c in 0..n {
                    let ch = match g.disc(r, c) {
                        None if legal.contains(&(r, c)) => '*',
                        d => stone(d),
                    };
                    let _ = write!(out, "{ch:>w$}");
                }
                let _ = writeln!(out, "  {r:>2}");
            }
            let _ = write!(out, "    ");
            for c in 0..n {
                let _ = write!(out, "{c:>w$}");
            }
            out.push('\n');
        }
        AnyGame::Gomoku(g) => {
            let n = g.config().size;
            let forbidden: Vec<(Point, ForbiddenKind)> = g.forbidden_points();
            let _ = write!(out, "   ");
            for x in 0..n {
                let _ = write!(out, " {}", (b'A' + x) as char);
            }
            out.push('\n');
            for y in 0..n {
                let _ = write!(out, "{:>3}", n - y);
                for x in 0..n {
                    let p = Point { x, y };
                    let ch = match g.stone(p) {
                        Some(s) => stone(Some(s)),
                        None => match forbidden.iter().find(|(q, _)| *q == p) {
                            Some((_, k)) => forbidden_mark(*k),
                            None => '.',
                        },
                    };
                    let _ = write!(out, " {ch}");
                }
                out.push('\n');
            }
        }
        AnyGame::Duel2048(g) => {
            for line in duel_rows(g) {
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    out
}

/// How a forbidden point shows on a Gomoku picture: 3, 4 or 6 (overline).
pub fn forbidden_mark(k: ForbiddenKind) -> char {
    match k {
        ForbiddenKind::DoubleThree => '3',
        ForbiddenKind::DoubleFour => '4',
        ForbiddenKind::Overline => '6',
    }
}

fn legal_squares(g: &Reversi) -> Vec<(u8, u8)> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter_map(|m| match m {
            ReversiMove::Place { row, col } => Some((row, col)),
            ReversiMove::Pass => None,
        })
        .collect()
}

fn reversi_rows(g: &Reversi) -> Vec<String> {
    let n = g.size();
    (0..n)
        .map(|r| (0..n).map(|c| stone(g.disc(r, c))).collect())
        .collect()
}

fn gomoku_rows(g: &Gomoku) -> Vec<String> {
    let n = g.config().size;
    (0..n)
        .map(|y| (0..n).map(|x| stone(g.stone(Point { x, y }))).collect())
        .collect()
}

fn duel_rows(g: &Duel) -> Vec<String> {
    (0..duel2048::ROWS)
        .map(|r| {
            (0..duel2048::COLS)
                .map(|c| {
                    let cell = g.cell(r, c);
                    let sign = if cell.owner == Seat::FIRST { '+' } else { '-' };
                    format!("{sign}{:02}", cell.level)
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn seat_json(s: Option<Seat>) -> Value {
    match s {
        Some(s) => json!(s.index()),
        None => Value::Null,
    }
}

/// Everything `inspect --json` and `replay show --json` say about one position.
pub fn position_json(game: &AnyGame) -> Value {
    let legal: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.format_move(m))
        .collect();
    let outcome = game.outcome().map(|o| {
        json!({ "winner": seat_json(o.winner), "reason": serde_json::to_value(o.reason).unwrap_or(Value::Null) })
    });
    let mut v = json!({
        "game": game.config(),
        "ply": game.ply(),
        "to_move": seat_json(game.to_move()),
        "board": board_lines(game),
        "legal_moves": legal,
        "scores": game.scores(),
        "outcome": outcome,
    });
    if let AnyGame::Gomoku(g) = game {
        let forbidden: Vec<Value> = g
            .forbidden_points()
            .into_iter()
            .map(|(p, k)| json!({ "point": g.format_move(p), "kind": k.as_str() }))
            .collect();
        v["forbidden"] = Value::Array(forbidden);
    }
    if let AnyGame::Duel2048(g) = game {
        v["round"] = json!(g.round());
        v["next_cells"] = json!([g.next_cell(Seat::FIRST), g.next_cell(Seat::SECOND)]);
    }
    v
}

/// A one-line summary of whose turn it is or how the game ended.
pub fn status_line(game: &AnyGame) -> String {
    match (game.outcome(), game.to_move()) {
        (Some(o), _) => {
            let who = match o.winner {
                Some(s) => format!("{} wins", seat_label(game, s)),
                None => "draw".to_string(),
            };
            let why = game
                .end_words()
                .unwrap_or_else(|| end_reason_text(&o.reason));
            format!("game over: {who} ({why})")
        }
        (None, Some(s)) => match game.forced_move() {
            Some(m) => format!(
                "{} to move: must {}",
                seat_label(game, s),
                game.format_move(m)
            ),
            None => format!("{} to move", seat_label(game, s)),
        },
        (None, None) => "no side to move".to_string(),
    }
}

/// "Black"/"White" for board games, "first"/"second" for the duel and module games.
/// The players of a module game's seats beyond the second.
const SEAT_WORDS: [&str; Seat::MAX] = [
    "first player",
    "second player",
    "third player",
    "fourth player",
    "fifth player",
    "sixth player",
    "seventh player",
    "eighth player",
];

pub fn seat_label(game: &AnyGame, s: Seat) -> &'static str {
    seat_label_of(game.name(), s)
}

/// [`seat_label`] by the game's name (`GameConfig::name`), without building a position.
pub fn seat_label_of(game: &str, s: Seat) -> &'static str {
    match (game, s) {
        (arbiter_engine::any::MODULE, Seat::FIRST) => "first player",
        (arbiter_engine::any::MODULE, Seat::SECOND) => "second player",
        ("duel2048", Seat::FIRST) => "first player (+)",
        ("duel2048", Seat::SECOND) => "second player (-)",
        (arbiter_engine::any::MODULE | "duel2048", _) => SEAT_WORDS[s.index() % SEAT_WORDS.len()],
        (_, Seat::FIRST) => "Black",
        (_, _) => "White",
    }
}

pub fn end_reason_text(r: &arbiter_engine::EndReason) -> String {
    use arbiter_engine::EndReason::*;
    match r {
        NoMoves { discs } => format!("no moves left, discs {} to {}", discs[0], discs[1]),
        Five => "five in a row".to_string(),
        BoardFull => "board full".to_string(),
        Levels {
            level: Some(l),
            counts,
        } => {
            format!("level {l} decides, {} tiles to {}", counts[0], counts[1])
        }
        Levels { level: None, .. } => "all levels equal".to_string(),
        Module => "by the game's rules".to_string(),
    }
}

/// A rough duration for people: `40 s`, `12 min`, `3 h 05 min`.
pub fn duration_words(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", (s + 30) / 60),
        _ => {
            let m = (s + 30) / 60;
            format!("{} h {:02} min", m / 60, m % 60)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{board_picture, duration_words};
    use arbiter_engine::any::{AnyGame, GameConfig};
    use arbiter_engine::reversi::Config;

    fn reversi_picture(size: u8) -> Vec<String> {
        let game = AnyGame::new(&GameConfig::Reversi(Config { size })).unwrap();
        board_picture(&game).lines().map(String::from).collect()
    }

    #[test]
    fn reversi_axis_labels_stay_apart_at_16() {
        let lines = reversi_picture(16);
        let bottom = lines.last().unwrap();
        let numbers: Vec<&str> = bottom.split_whitespace().collect();
        let expected: Vec<String> = (0..16).map(|c| c.to_string()).collect();
        assert_eq!(numbers, expected, "{bottom:?}");
        // Every label sits over its column: the letter, the stones and the number line up.
        let top = &lines[0];
        let row = &lines[8]; // row 8 from the top: "h8"-"i8" hold the centre discs
        for (c, number) in expected.iter().enumerate() {
            let end = 4 + 3 * (c + 1);
            assert_eq!(&top[end - 1..end], ((b'a' + c as u8) as char).to_string());
            assert_eq!(&bottom[end - number.len()..end], number.as_str());
            assert_ne!(&row[end - 1..end], " ");
        }
        // Small boards stay compact.
        assert_eq!(reversi_picture(8)[0], "     a b c d e f g h");
        assert_eq!(reversi_picture(8)[9], "     0 1 2 3 4 5 6 7");
    }

    #[test]
    fn durations_read_as_words() {
        assert_eq!(duration_words(-3.0), "0 s");
        assert_eq!(duration_words(59.4), "59 s");
        assert_eq!(duration_words(60.0), "1 min");
        assert_eq!(duration_words(749.0), "12 min");
        assert_eq!(duration_words(3600.0), "1 h 00 min");
        assert_eq!(duration_words(6600.0), "1 h 50 min");
    }
}
