//! Renju cases derived by hand from the RIF definitions: each builds a board from a diagram and
//! asserts the exact verdict at the marked point, and where it matters what `play` does.
//!
//! Diagrams: `X` black, `O` white, `.` empty, `*` the (empty) point under test; blanks are
//! ignored. The diagram's top-left cell goes to `origin` on the board.

use arbiter_engine::gomoku::{Config, Gomoku, Point, Rule};
use arbiter_engine::{EndReason, ForbiddenKind, Game, IllegalMove, Outcome, Seat};
use ForbiddenKind::{DoubleFour, DoubleThree, Overline};

struct Setup {
    game: Gomoku,
    star: Point,
}

fn setup_with(size: u8, rule: Rule, origin: (u8, u8), rows: &[&str], to_move: Seat) -> Setup {
    let mut stones = Vec::new();
    let mut star = None;
    for (dy, row) in rows.iter().enumerate() {
        for (dx, c) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let p = Point {
                x: origin.0 + dx as u8,
                y: origin.1 + dy as u8,
            };
            match c {
                'X' => stones.push((p, Seat::FIRST)),
                'O' => stones.push((p, Seat::SECOND)),
                '*' => star = Some(p),
                '.' => {}
                other => panic!("bad diagram cell {other:?}"),
            }
        }
    }
    let game = Gomoku::from_stones(&Config { size, rule }, &stones, to_move).expect("valid setup");
    Setup {
        game,
        star: star.expect("diagram marks a point with *"),
    }
}

/// A 15 x 15 renju board, black to move.
fn renju(origin: (u8, u8), rows: &[&str]) -> Setup {
    setup_with(15, Rule::Renju, origin, rows, Seat::FIRST)
}

/// Asserts the verdict at `*`, through `forbidden_kind`, `forbidden_points`, `legal_moves` and
/// `play`.
fn assert_verdict(s: &Setup, want: Option<ForbiddenKind>) {
    assert_eq!(s.game.forbidden_kind(s.star), want, "forbidden_kind");
    let listed = s
        .game
        .forbidden_points()
        .into_iter()
        .find(|&(p, _)| p == s.star)
        .map(|(_, k)| k);
    assert_eq!(listed, want, "forbidden_points");
    let mut moves = Vec::new();
    s.game.legal_moves(&mut moves);
    assert_eq!(moves.contains(&s.star), want.is_none(), "legal_moves");
    let mut g = s.game.clone();
    match want {
        Some(kind) => {
            assert_eq!(g.play(s.star), Err(IllegalMove::Forbidden(kind)));
            assert_eq!(
                g.stone(s.star),
                None,
                "a refused move leaves the board alone"
            );
            assert_eq!(g.ply(), s.game.ply());
            assert_eq!(g.to_move(), Some(Seat::FIRST));
        }
        None => {
            assert_eq!(g.play(s.star), Ok(()));
            assert_eq!(g.stone(s.star), Some(Seat::FIRST));
        }
    }
}

/// The same diagram with colours swapped and white to move: white has no restrictions.
fn assert_white_may(origin: (u8, u8), rows: &[&str]) {
    let swapped: Vec<String> = rows
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    'X' => 'O',
                    'O' => 'X',
                    c => c,
                })
                .collect()
        })
        .collect();
    let refs: Vec<&str> = swapped.iter().map(String::as_str).collect();
    let s = setup_with(15, Rule::Renju, origin, &refs, Seat::SECOND);
    let mut g = s.game.clone();
    assert_eq!(g.play(s.star), Ok(()), "white may play any empty point");
    // And black's restrictions at that point are about black's stones only.
    assert_eq!(s.game.forbidden_kind(s.star), None);
}

fn black_wins(s: &Setup, line_len: usize) {
    let mut g = s.game.clone();
    assert_eq!(g.play(s.star), Ok(()));
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Seat::FIRST),
            reason: EndReason::Five
        })
    );
    let line = g.winning_line().expect("a winning line");
    assert_eq!(line.len(), line_len);
    assert!(line.contains(&s.star));
    assert!(line.iter().all(|&p| g.stone(p) == Some(Seat::FIRST)));
}

// ---------------------------------------------------------------- double-three

const CROSS_THREES: &[&str] = &[
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . X . . . .",
    ". . . . X . . . .",
    ". . X X * . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
];

#[test]
fn double_three_two_open_threes() {
    assert_verdict(&renju((3, 3), CROSS_THREES), Some(DoubleThree));
    assert_white_may((3, 3), CROSS_THREES);
}

#[test]
fn double_three_split_threes() {
    // Row: X . X * (the gap is the straight-four point); up-right diagonal: * . X X.
    let rows = [
        ". . . . . . . . .",
        ". . . . . . . X .",
        ". . . . . . X . .",
        ". . . . . . . . .",
        ". X . X * . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &rows), Some(DoubleThree));
    assert_white_may((3, 3), &rows);
}

#[test]
fn double_three_middle_and_split_diagonal() {
    // Column: X * X; down-right diagonal: X . * X.
    let rows = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . X . . . . . .",
        ". . . . X . . . .",
        ". . . . * . . . .",
        ". . . . X X . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &rows), Some(DoubleThree));
}

#[test]
fn three_blocked_on_one_side_is_still_real() {
    // Row . . X * X . O: the left straight-four point still gives an open four.
    let rows = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . X . . .",
        ". . . . . X . . .",
        ". . . . X * X . O",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((2, 3), &rows), Some(DoubleThree));
}

// ---------------------------------------------------------------- fake threes

#[test]
fn fake_three_blocked_by_white() {
    // Row O . X X * . O: either extension is a four with a white stone at one end.
    let blocked = [
        ". . . . . . . . .",
        ". . . . X . . . .",
        ". . . . X . . . .",
        "O . X X * . O . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &blocked), None);
    let open = [
        ". . . . . . . . .",
        ". . . . X . . . .",
        ". . . . X . . . .",
        ". . X X * . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &open), Some(DoubleThree));
}

#[test]
fn fake_three_blocked_by_edge_and_white() {
    // Row starting at the left edge: . X * X . O. Its left straight-four point leaves a four
    // against the edge, its right one a four against the white stone.
    let blocked = [
        ". . . . . .",
        ". . X . . .",
        ". . X . . .",
        ". X * X . O",
        ". . . . . .",
        ". . . . . .",
    ];
    assert_verdict(&renju((0, 4), &blocked), None);
    let open = [
        ". . . . . .",
        ". . X . . .",
        ". . X . . .",
        ". X * X . .",
        ". . . . . .",
        ". . . . . .",
    ];
    assert_verdict(&renju((0, 4), &open), Some(DoubleThree));
}

#[test]
fn fake_threes_between_two_edges() {
    // On 5 x 5, . X * X . in both directions touches the edges: no straight four is possible.
    let rows = [
        ". . . . .",
        ". . X . .",
        ". X * X .",
        ". . X . .",
        ". . . . .",
    ];
    let small = setup_with(5, Rule::Renju, (0, 0), &rows, Seat::FIRST);
    assert_verdict(&small, None);
    // On 7 x 7 there is room on both sides: a real double-three.
    let big = setup_with(7, Rule::Renju, (1, 1), &rows, Seat::FIRST);
    assert_verdict(&big, Some(DoubleThree));
}

// Relative layout shared by the next cases: the move S, the split three S X . X along the row
// (its only straight-four point q1 is the gap), an open three up the column.

#[test]
fn three_whose_only_straight_four_point_is_an_overline_is_fake() {
    // Column through q1: X X q1 X X X, so q1 (with S on the board) is an overline.
    let fake = [
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . X . X . . .",
        ". . X . X . . .",
        ". . * X . X . .",
        ". . . . X . . .",
        ". . . . X . . .",
        ". . . . X . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    ];
    let s = renju((3, 2), &fake);
    assert_verdict(&s, None);
    // The straight-four point, judged with S on the board, is an overline.
    let q1 = Point {
        x: s.star.x + 2,
        y: s.star.y,
    };
    let mut with_s = s.game.clone();
    with_s.play(s.star).expect("S is allowed");
    with_s
        .play(Point { x: 0, y: 14 })
        .expect("a white move far away");
    assert_eq!(with_s.forbidden_kind(q1), Some(Overline));

    let real = [
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . X . . . . .",
        ". . X . . . . .",
        ". . * X . X . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    ];
    assert_verdict(&renju((3, 2), &real), Some(DoubleThree));
}

/// Second level: q1 (with S) makes a four along the row and two threes: down the column
/// (q1 X . X, whose only straight-four point is q2) and up-right (q1 X X). With
/// `level_two_overline`, five more stones make q2 (with S and q1) an overline.
fn nested(level_two_overline: bool) -> [&'static str; 11] {
    [
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . X . . . X . . .",
        ". . X . . X . . . .",
        ". . * X . X . . . .",
        ". . . . X . . . . .",
        if level_two_overline {
            ". . . X . X X X X ."
        } else {
            ". . . . . . . . . ."
        },
        ". . . . X . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
    ]
}

#[test]
fn three_whose_only_straight_four_point_is_a_double_three_is_fake() {
    // q1 is a four-three-three: a double-three, so S's row is a fake three and S is allowed.
    let s = renju((3, 2), &nested(false));
    assert_verdict(&s, None);
    let q1 = Point {
        x: s.star.x + 2,
        y: s.star.y,
    };
    let mut with_s = s.game.clone();
    with_s.play(s.star).expect("S is allowed");
    with_s
        .play(Point { x: 14, y: 14 })
        .expect("a white move far away");
    assert_eq!(with_s.forbidden_kind(q1), Some(DoubleThree));
}

#[test]
fn nested_fake_three_makes_the_outer_three_real_again() {
    // q2 is an overline, so q1's column three is fake, so q1 is only a four-three (allowed),
    // so S's row three is real: S is a double-three.
    let s = renju((3, 2), &nested(true));
    assert_verdict(&s, Some(DoubleThree));
    let q1 = Point {
        x: s.star.x + 2,
        y: s.star.y,
    };
    let q2 = Point {
        x: q1.x,
        y: q1.y + 2,
    };
    let mut with_s = s.game.clone();
    with_s.play_unchecked(s.star);
    with_s
        .play(Point { x: 14, y: 14 })
        .expect("a white move far away");
    assert_eq!(with_s.forbidden_kind(q1), None);
    let mut with_q1 = with_s.clone();
    with_q1.play(q1).expect("q1 is allowed");
    with_q1
        .play(Point { x: 14, y: 13 })
        .expect("a white move far away");
    assert_eq!(with_q1.forbidden_kind(q2), Some(Overline));
}

// ---------------------------------------------------------------- fours

#[test]
fn four_three_is_allowed() {
    let rows = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . X . . . .",
        ". . . . X . . . .",
        "O X X X * . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    let s = renju((3, 3), &rows);
    assert_verdict(&s, None);
    let mut g = s.game.clone();
    g.play(s.star).expect("four-three");
    assert_eq!(g.outcome(), None);
}

#[test]
fn double_four_in_two_lines() {
    let rows = [
        ". . . . . . . . .",
        ". . . . O . . . .",
        ". . . . X . . . .",
        ". . . . X . . . .",
        "O X X X * . . . .",
        ". . . . X . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &rows), Some(DoubleFour));
    assert_white_may((3, 3), &rows);
}

#[test]
fn straight_four_and_four_is_a_double_four() {
    let rows = [
        ". . . . . . . . .",
        ". . . . O . . . .",
        ". . . . X . . . .",
        ". . . . X . . . .",
        ". X X X * . . . .",
        ". . . . X . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &rows), Some(DoubleFour));
}

#[test]
fn double_four_in_one_line_x_xxx_x() {
    let rows = [". X . X * X . X ."];
    assert_verdict(&renju((3, 7), &rows), Some(DoubleFour));
    assert_white_may((3, 7), &rows);
    // With the far end blocked only one four is left.
    assert_verdict(&renju((3, 7), &[". X . X * X . O ."]), None);
}

#[test]
fn double_four_in_one_line_xx_xx_xx() {
    let rows = [". X X . X * . X X ."];
    assert_verdict(&renju((2, 7), &rows), Some(DoubleFour));
    assert_white_may((2, 7), &rows);
}

#[test]
fn double_four_in_one_line_xxx_x_xxx() {
    let rows = [". X X X . * . X X X ."];
    assert_verdict(&renju((2, 7), &rows), Some(DoubleFour));
    assert_white_may((2, 7), &rows);
}

#[test]
fn diagonal_one_line_double_four() {
    let rows = [
        ". . . . . . . . .",
        ". X . . . . . . .",
        ". . . . . . . . .",
        ". . . X . . . . .",
        ". . . . * . . . .",
        ". . . . . X . . .",
        ". . . . . . . . .",
        ". . . . . . . X .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &rows), Some(DoubleFour));
}

#[test]
fn a_completion_making_six_is_no_four() {
    // X X . X X * . X X is two fours in one line; with one more stone on the left the left
    // gap would make six, so only the right four is left.
    assert_verdict(&renju((2, 7), &[". . X X . X * . X X ."]), Some(DoubleFour));
    assert_verdict(&renju((2, 7), &[". X X X . X * . X X ."]), None);
}

#[test]
fn three_whose_extension_only_makes_a_six_threat_is_fake() {
    // Row O . X X * . . X: the left straight-four point is walled by white; the right one
    // gives X X X X . X, whose right completion would make six: not a straight four.
    let fake = [
        ". . . . . . . . .",
        ". . . . X . . . .",
        ". . . . X . . . .",
        "O . X X * . . X .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &fake), None);
    let real = [
        ". . . . . . . . .",
        ". . . . X . . . .",
        ". . . . X . . . .",
        "O . X X * . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &real), Some(DoubleThree));
}

// ---------------------------------------------------------------- overline and five

#[test]
fn overline_is_forbidden() {
    let rows = [". X X X * X X ."];
    assert_verdict(&renju((3, 7), &rows), Some(Overline));
    let rows = [". X X X X X * ."];
    assert_verdict(&renju((3, 7), &rows), Some(Overline));
}

#[test]
fn overline_outranks_double_four() {
    let rows = [
        ". . . . . . . . .",
        ". . . . O . . . .",
        ". . . . X . . . .",
        ". . . . X . . . .",
        "O X X X * X X . .",
        ". . . . X . . . .",
        ". . . . . . . . .",
    ];
    // Row: six. Column: a four. The overline is what is reported.
    assert_verdict(&renju((3, 3), &rows), Some(Overline));
}

#[test]
fn five_with_overline_elsewhere_wins() {
    // Row: O X X X X * O, an exact five. Column: X X * X X X, six.
    let rows = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . X . . .",
        ". . . . . X . . .",
        "O X X X X * O . .",
        ". . . . . X . . .",
        ". . . . . X . . .",
        ". . . . . X . . .",
        ". . . . . . . . .",
    ];
    let s = renju((2, 3), &rows);
    assert_verdict(&s, None);
    black_wins(&s, 5);
    let mut g = s.game.clone();
    g.play(s.star).expect("five");
    let line = g.winning_line().expect("line");
    assert!(
        line.iter().all(|p| p.y == s.star.y),
        "the row's five is the winning line"
    );
}

#[test]
fn five_with_double_four_wins() {
    // Row: an exact five. Column O X X * X: a four. Up-right diagonal X * X X: a straight four.
    let rows = [
        ". . . . . . . . .",
        ". . . . O . . . .",
        ". . . . X . X . .",
        ". . . . X X . . .",
        "X X X X * . . . .",
        ". . . X X . . . .",
        ". . . . . . . . .",
    ];
    let s = renju((3, 3), &rows);
    assert_verdict(&s, None);
    black_wins(&s, 5);
    // Without the row's five the same point is a double-four.
    let no_five = [
        ". . . . . . . . .",
        ". . . . O . . . .",
        ". . . . X . X . .",
        ". . . . X X . . .",
        "O X X . * . . . .",
        ". . . X X . . . .",
        ". . . . . . . . .",
    ];
    assert_verdict(&renju((3, 3), &no_five), Some(DoubleFour));
}

#[test]
fn five_with_double_four_and_double_three_wins() {
    // Row: five. Column: a four (. X X * X O). Down-right and up-right diagonals: threes.
    let rows = [
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . X . X . X . . .",
        ". . . X X X . . . .",
        "X X X X * . . . . .",
        ". . . . X . . . . .",
        ". . . . O . . . . .",
        ". . . . . . . . . .",
    ];
    let s = renju((3, 3), &rows);
    assert_verdict(&s, None);
    black_wins(&s, 5);
}

#[test]
fn black_five_on_the_edge_wins() {
    let rows = ["X X X X *"];
    let s = renju((10, 14), &rows);
    assert_verdict(&s, None);
    black_wins(&s, 5);
}

// ---------------------------------------------------------------- white and other rules

#[test]
fn white_overline_wins_under_renju() {
    let rows = [". O O O * O O ."];
    let s = setup_with(15, Rule::Renju, (3, 7), &rows, Seat::SECOND);
    let mut g = s.game.clone();
    assert_eq!(g.play(s.star), Ok(()));
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Seat::SECOND),
            reason: EndReason::Five
        })
    );
    assert_eq!(g.winning_line().map(|l| l.len()), Some(6));
    assert_eq!(g.to_move(), None);
}

#[test]
fn standard_overline_wins_for_nobody() {
    for (rows, seat) in [
        (". X X X * X X .", Seat::FIRST),
        (". O O O * O O .", Seat::SECOND),
    ] {
        let s = setup_with(15, Rule::Standard, (3, 7), &[rows], seat);
        assert_eq!(s.game.forbidden_kind(s.star), None, "no restrictions");
        assert!(s.game.forbidden_points().is_empty());
        let mut g = s.game.clone();
        assert_eq!(g.play(s.star), Ok(()));
        assert_eq!(
            g.outcome(),
            None,
            "six in a row does not win under standard"
        );
        assert_eq!(g.to_move(), Some(seat.other()));
        assert_eq!(g.winning_line(), None);
    }
    // An exact five does win under standard.
    let s = setup_with(15, Rule::Standard, (3, 7), &[". O O * O O ."], Seat::SECOND);
    let mut g = s.game.clone();
    g.play(s.star).expect("five");
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Seat::SECOND)));
}

#[test]
fn freestyle_overline_wins() {
    for (rows, seat) in [
        (". X X X * X X .", Seat::FIRST),
        (". O O O * O O .", Seat::SECOND),
    ] {
        let s = setup_with(15, Rule::Freestyle, (3, 7), &[rows], seat);
        let mut g = s.game.clone();
        assert_eq!(g.play(s.star), Ok(()));
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(seat),
                reason: EndReason::Five
            })
        );
        assert_eq!(g.winning_line().map(|l| l.len()), Some(6));
    }
}

#[test]
fn forbidden_shapes_are_free_under_other_rules() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        let s = setup_with(15, rule, (3, 3), CROSS_THREES, Seat::FIRST);
        assert_eq!(s.game.forbidden_kind(s.star), None);
        assert!(s.game.forbidden_points().is_empty());
        let mut g = s.game.clone();
        assert_eq!(g.play(s.star), Ok(()));
    }
}

#[test]
fn forbidden_points_listed_whoever_is_to_move() {
    let black = renju((3, 3), CROSS_THREES);
    let white = setup_with(15, Rule::Renju, (3, 3), CROSS_THREES, Seat::SECOND);
    assert!(black
        .game
        .forbidden_points()
        .contains(&(black.star, DoubleThree)));
    assert_eq!(black.game.forbidden_points(), white.game.forbidden_points());
    // White to move: the point is an ordinary legal move for white.
    let mut moves = Vec::new();
    white.game.legal_moves(&mut moves);
    assert!(moves.contains(&white.star));
}
