//! What each game tells and draws, against the engine's own answers.

use arbiter_engine::duel2048::{self, random_sequence};
use arbiter_engine::gomoku::Point;
use arbiter_engine::{ForbiddenKind, Game as _};
use arbiter_game::view::{Mark, Shape};
use arbiter_game::Viewer;
use serde_json::json;

use super::*;

fn play_all<G: Game>(g: &mut G, moves: &[&str]) {
    for m in moves {
        let mv = g.parse_move(m).unwrap();
        g.play(&mv).unwrap();
    }
}

#[test]
fn reversi_tells_the_rows_and_whose_turn() {
    let mut g = Reversi::new(&json!({"size": 8}), 0).unwrap();
    let told = g.tell(0);
    let lines: Vec<&str> = told.lines().collect();
    assert_eq!(lines[..2], ["GAME reversi 8", "TURN black"]);
    assert_eq!(
        lines[2..],
        g.engine().to_string().lines().collect::<Vec<_>>()[..]
    );
    assert_eq!(lines[5], "...OX...");
    assert_eq!(told, g.tell(1), "no hidden information");
    play_all(&mut g, &["d3"]);
    assert_eq!(g.tell(0).lines().nth(1), Some("TURN white"));
}

#[test]
fn reversi_view_marks_the_last_disc_and_the_places() {
    let mut g = Reversi::new(&json!({"size": 8}), 0).unwrap();
    let v = g.view(Viewer::All);
    assert_eq!(v.pieces.len(), 4);
    let targets: Vec<[u16; 2]> = v.highlights.iter().map(|h| h.at).collect();
    let want: Vec<[u16; 2]> = g
        .engine()
        .legal_places()
        .map(|(r, c)| [c.into(), r.into()])
        .collect();
    assert_eq!(targets, want);
    assert_eq!(v.board.row_labels[0], "1", "rows count from the top");
    play_all(&mut g, &["d3"]);
    let v = g.view(Viewer::All);
    let last: Vec<_> = v
        .highlights
        .iter()
        .filter(|h| h.mark == Mark::Last)
        .collect();
    assert_eq!((last.len(), last[0].at, last[0].seat), (1, [3, 2], Some(0)));
    assert_eq!(v.pieces.iter().filter(|p| p.seat == Some(0)).count(), 4);
    assert!(v.pieces.iter().all(|p| p.shape == Shape::Disc));
    assert_eq!(v.text[0], "White to move");
    assert_eq!(v.text[2], "black played d3, turning d4");
    v.check(2).unwrap();
}

/// Black to move with a double-three at `I8` ((8, 7)): stones on G8 H8 and I10 I9.
fn renju_double_three(rule: &str) -> Gomoku {
    let mut g = Gomoku::new(&json!({"size": 15, "rule": rule}), 0).unwrap();
    play_all(
        &mut g,
        &["6,7", "0,0", "7,7", "0,2", "8,5", "0,4", "8,6", "0,6"],
    );
    g
}

#[test]
fn renju_forbidden_points_are_refused_left_out_and_drawn() {
    let mut g = renju_double_three("renju");
    let p = Point { x: 8, y: 7 };
    assert_eq!(
        g.engine().forbidden_kind(p),
        Some(ForbiddenKind::DoubleThree)
    );
    let mut legal = Vec::new();
    arbiter_game::Game::legal_moves(&g, 0, &mut legal);
    assert!(!legal.contains(&p) && legal.len() == 15 * 15 - 9);
    let v = g.view(Viewer::All);
    let forbidden: Vec<_> = v
        .highlights
        .iter()
        .filter(|h| h.mark == Mark::Forbidden)
        .collect();
    assert_eq!(forbidden.len(), g.engine().forbidden_points().len());
    assert!(forbidden
        .iter()
        .any(|h| h.at == [8, 7] && h.seat == Some(0)));
    assert!(v.text[2].contains("I8 (double-three)"), "{:?}", v.text);
    let why = g.play(&p).unwrap_err();
    assert_eq!(why, "forbidden point for black (double-three)");
    assert_eq!(
        g.engine().history().len(),
        8,
        "a refused move changes nothing"
    );
    // Freestyle has no forbidden points: the same stone is legal.
    let mut free = renju_double_three("freestyle");
    assert!(free
        .view(Viewer::All)
        .highlights
        .iter()
        .all(|h| h.mark != Mark::Forbidden));
    free.play(&p).unwrap();
}

#[test]
fn gomoku_tells_rule_rows_and_last_stone_and_numbers_its_stones() {
    let g = renju_double_three("renju");
    let told = g.tell(1);
    let lines: Vec<&str> = told.lines().collect();
    assert_eq!(lines[..2], ["GAME gomoku 15 renju", "TURN black"]);
    assert_eq!(lines.len(), 2 + 15 + 1);
    assert_eq!(lines[2 + 7], "......XX.......");
    assert_eq!(lines[17], "LAST A9");
    let v = g.view(Viewer::All);
    let labels: Vec<&str> = v.pieces.iter().filter_map(|p| p.label.as_deref()).collect();
    assert_eq!(labels, ["1", "2", "3", "4", "5", "6", "7", "8"]);
    assert_eq!(v.board.col_labels[8], "I");
    assert_eq!(v.board.row_labels[0], "15");
}

#[test]
fn a_five_is_marked_as_the_win() {
    let mut g = Gomoku::new(&json!({"size": 9}), 0).unwrap();
    play_all(
        &mut g,
        &[
            "0,0", "0,1", "1,0", "1,1", "2,0", "2,1", "3,0", "3,1", "4,0",
        ],
    );
    let o = g.outcome().unwrap();
    assert_eq!((o.winner(), o.reason.as_str()), (Some(0), "five in a row"));
    assert_eq!(o.scores, [5, 4]);
    let v = g.view(Viewer::All);
    let wins = v.highlights.iter().filter(|h| h.mark == Mark::Win).count();
    assert_eq!(wins, 5);
    assert_eq!(g.tell(0).lines().nth(1), Some("OVER"));
}

#[test]
fn the_duel_draws_its_sequence_from_the_kit_seed_unless_given() {
    let g = Duel2048::new(&json!({"rounds": 3}), 42).unwrap();
    assert_eq!(g.engine().sequence(), random_sequence(42, 3));
    let given = json!({"rounds": 3, "random": {"seed": 5}});
    let g = Duel2048::new(&given, 42).unwrap();
    assert_eq!(g.engine().sequence(), random_sequence(5, 3));
    let e = Duel2048::new(&json!({"rounds": 0}), 1).unwrap_err();
    assert!(e.contains("rounds must be at least 1"), "{e}");
}

#[test]
fn the_duel_tells_the_step_the_next_cell_and_the_sequence_left() {
    let mut g = Duel2048::new(&json!({"rounds": 3}), 7).unwrap();
    let next = g.engine().next_cell(arbiter_engine::Seat::FIRST).unwrap();
    let seq: Vec<String> = random_sequence(7, 3).iter().map(u32::to_string).collect();
    let told = g.tell(0);
    let lines: Vec<&str> = told.lines().collect();
    assert_eq!(lines[..2], ["GAME duel2048 3", "TURN first place 0"]);
    assert_eq!(lines[2..6].join("\n"), g.engine().board_text());
    assert_eq!(lines[6], format!("NEXT {},{}", next.0, next.1));
    assert_eq!(lines[7], format!("RANDOM {}", seq.join(" ")));
    // Both place, both slide: round 1 then tells the values from round 1 on.
    for _ in 0..4 {
        let mut legal = Vec::new();
        arbiter_game::Game::legal_moves(&g, 0, &mut legal);
        g.play(&legal[0]).unwrap();
    }
    let told = g.tell(1);
    assert_eq!(told.lines().nth(1), Some("TURN first place 1"));
    assert!(told.ends_with(&format!("RANDOM {}", seq[1..].join(" "))));
}

#[test]
fn the_duel_view_labels_tiles_by_value_and_owner() {
    let mut g = Duel2048::new(&json!({"rounds": 2}), 3).unwrap();
    let (r, c) = g.engine().next_cell(arbiter_engine::Seat::FIRST).unwrap();
    let v = g.view(Viewer::All);
    let target: Vec<_> = v
        .highlights
        .iter()
        .filter(|h| h.mark == Mark::Target)
        .collect();
    assert_eq!(
        (target[0].at, target[0].seat),
        ([c.into(), r.into()], Some(0))
    );
    assert_eq!(v.lines.len(), 1, "the line between the halves");
    // First places in second's half: the tile is second's.
    play_all(&mut g, &["0,7"]);
    let v = g.view(Viewer::All);
    assert_eq!(v.pieces.len(), 1);
    let p = &v.pieces[0];
    assert_eq!((p.at, p.shape, p.seat), ([7, 0], Shape::Square, Some(1)));
    assert_eq!(p.label.as_deref(), Some("2"));
    assert_eq!(v.text[2], "first placed at 0,7");
    v.check(2).unwrap();
    assert_eq!(g.engine().config().random, duel2048::RandomSource::Seed(3));
}
