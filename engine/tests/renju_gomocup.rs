//! The two renju readings, `renju` (RIF) and `renju-gomocup` (Piskvork's judge, as the Gomocup
//! renju leagues, GomocupJudge and Rapfi judge): positions where they differ, worked by hand,
//! asserted through the engine for both rules. Each verdict was also checked against
//! GomocupJudge's `check_forbid.py` (a port of Piskvork's `renju.cpp`) and Rapfi's
//! `YXSHOWFORBID` (`docs/peers.md` tells how).
//!
//! Diagrams: `X` black, `O` white, `.` empty, `*` the (empty) point under test; blanks are
//! ignored. The diagram's top-left cell goes to `origin`; `H8` names are for 15 x 15.

use arbiter_engine::any::GameConfig;
use arbiter_engine::gomoku::{Config, Gomoku, Point, Rule};
use arbiter_engine::replay::{GameResult, MoveRecord, Player, Reason, Replay};
use arbiter_engine::{EndReason, ForbiddenKind, Game, IllegalMove, Outcome, Seat};

const READINGS: [Rule; 2] = [Rule::Renju, Rule::RenjuGomocup];

fn setup(rule: Rule, origin: (u8, u8), rows: &[&str]) -> (Gomoku, Point) {
    let mut stones = Vec::new();
    let mut star = None;
    for (dy, row) in rows.iter().enumerate() {
        for (dx, c) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let p = Point::new(origin.0 + dx as u8, origin.1 + dy as u8);
            match c {
                'X' => stones.push((p, Seat::FIRST)),
                'O' => stones.push((p, Seat::SECOND)),
                '*' => star = Some(p),
                '.' => {}
                other => panic!("bad diagram cell {other:?}"),
            }
        }
    }
    let config = Config { size: 15, rule };
    let game = Gomoku::from_stones(&config, &stones, Seat::FIRST).expect("valid setup");
    (game, star.expect("diagram marks a point with *"))
}

/// Asserts the verdict at `*` under `rule`, through every entry point of the engine.
fn assert_verdict(rule: Rule, origin: (u8, u8), rows: &[&str], want: Option<ForbiddenKind>) {
    let (game, star) = setup(rule, origin, rows);
    let name = rule.name();
    assert_eq!(game.forbidden_kind(star), want, "{name}: forbidden_kind");
    let listed = game
        .forbidden_points()
        .into_iter()
        .find(|&(p, _)| p == star)
        .map(|(_, k)| k);
    assert_eq!(listed, want, "{name}: forbidden_points");
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert_eq!(moves.contains(&star), want.is_none(), "{name}: legal_moves");
    let mut g = game.clone();
    match want {
        Some(kind) => assert_eq!(g.play(star), Err(IllegalMove::Forbidden(kind)), "{name}"),
        None => {
            assert_eq!(g.play(star), Ok(()), "{name}");
            assert_eq!(g.outcome(), None, "{name}: the move wins nothing");
        }
    }
}

// ------------------------------------------------- a three whose straight-four point is a five

/// The worked position of `docs/rules.md`. Black H8 makes two threes: up the H column
/// (H8 H9 H10, open at H7 and H11) and along row 8 (H8 . J8 K8), whose only straight-four
/// point is I8. I8 also completes black's five I4-I8 up the I column.
const FIVE_POINT_THREE: &[&str] = &[
    ". . . . . . .", // 11  (columns F..L)
    ". . X . . . .", // 10
    ". . X . . . .", // 9
    ". . * . X X .", // 8
    ". . . X . . .", // 7
    ". . . X . . .", // 6
    ". . . X . . .", // 5
    ". . . X . . .", // 4
    ". . . O . . .", // 3
];
const FIVE_POINT_ORIGIN: (u8, u8) = (5, 4);

#[test]
fn three_whose_only_straight_four_point_makes_a_five_splits_the_readings() {
    // RIF: I8 is a five, never forbidden, so the row three is real: a double-three.
    assert_verdict(
        Rule::Renju,
        FIVE_POINT_ORIGIN,
        FIVE_POINT_THREE,
        Some(ForbiddenKind::DoubleThree),
    );
    // Piskvork: a straight-four point that makes a five does not count: one real three only.
    assert_verdict(
        Rule::RenjuGomocup,
        FIVE_POINT_ORIGIN,
        FIVE_POINT_THREE,
        None,
    );
}

#[test]
fn the_five_point_itself_wins_under_both_readings() {
    for rule in READINGS {
        let (mut game, star) = setup(rule, FIVE_POINT_ORIGIN, FIVE_POINT_THREE);
        let i8 = Point::new(star.x + 1, star.y);
        assert_eq!(game.play(i8), Ok(()), "{}", rule.name());
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: Some(Seat::FIRST),
                reason: EndReason::Five
            })
        );
    }
}

#[test]
fn without_the_five_both_readings_see_a_double_three() {
    // The same position without I4 and I5: I8 makes a straight four along row 8 and a three up
    // the I column (a four-three, allowed), so the row three is real in both readings.
    let rows: Vec<String> = FIVE_POINT_THREE
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if i == 6 || i == 7 {
                ". . . . . . .".into()
            } else {
                r.to_string()
            }
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    for rule in READINGS {
        assert_verdict(
            rule,
            FIVE_POINT_ORIGIN,
            &rows,
            Some(ForbiddenKind::DoubleThree),
        );
    }
}

#[test]
fn an_open_three_with_one_five_point_keeps_its_other_straight_four_point() {
    // Row 8: . * X X . — straight-four points G8 and K8. K8 completes the K column's five
    // (K4..K7 below it); G8 is a plain straight-four point, so the three is real in both
    // readings, and with the H column three the move is a double-three in both.
    let rows = [
        ". . . . . . .", // 11 (columns F..L)
        ". . X . . . .", // 10
        ". . X . . . .", // 9
        ". . * X X . .", // 8
        ". . . . . X .", // 7
        ". . . . . X .", // 6
        ". . . . . X .", // 5
        ". . . . . X .", // 4
        ". . . . . O .", // 3
    ];
    for rule in READINGS {
        assert_verdict(
            rule,
            FIVE_POINT_ORIGIN,
            &rows,
            Some(ForbiddenKind::DoubleThree),
        );
    }
}

// ------------------------------------------------------------ one level down, the other way

/// J8 (the `*`) makes a four on the up-right diagonal (H6 I7 J8 . L10; its completion K9 is a
/// five point), an open three on the down-right diagonal (H10 I9 J8), and a split three up the
/// J column (J8 . J10 J11) whose only straight-four point is J9. Is J9 allowed, with J8 on the
/// board? J9 makes a four up the J column, a three along row 9 (I9 J9 . L9, only straight-four
/// point K9) and a three on the down-right diagonal (G12 . I10 J9, point H11).
/// - RIF: K9 is a five point, so J9's row three is real, J9 is a double-three, J8's column
///   three is fake, and J8 (four and one three) is allowed.
/// - Piskvork: K9 does not count, J9 is a four-three (allowed), J8's column three is real, and
///   J8 is a double-three. So neither reading forbids a subset of the other's points.
const NESTED: &[&str] = &[
    ". . . . . . . . .", // 13 (columns F..N)
    ". X . . . . . . .", // 12
    ". . . . X . . . .", // 11
    ". . X X X . X . .", // 10
    ". . . X . . X . .", // 9
    ". . . . * . . . .", // 8
    ". . . X . . . . .", // 7
    ". . X . . . . . .", // 6
    ". . . . . . . . .", // 5
];
const NESTED_ORIGIN: (u8, u8) = (5, 2);

#[test]
fn nested_five_point_makes_the_gomocup_reading_forbid_what_rif_allows() {
    assert_verdict(Rule::Renju, NESTED_ORIGIN, NESTED, None);
    assert_verdict(
        Rule::RenjuGomocup,
        NESTED_ORIGIN,
        NESTED,
        Some(ForbiddenKind::DoubleThree),
    );
}

#[test]
fn white_is_free_and_other_rules_ignore_the_shapes() {
    for rows in [FIVE_POINT_THREE, NESTED] {
        let origin = if rows == NESTED {
            NESTED_ORIGIN
        } else {
            FIVE_POINT_ORIGIN
        };
        for rule in [Rule::Freestyle, Rule::Standard] {
            assert_verdict(rule, origin, rows, None);
        }
        let (game, _) = setup(Rule::RenjuGomocup, origin, rows);
        let white_to_move = Gomoku::from_stones(
            game.config(),
            &game
                .history()
                .iter()
                .map(|&p| (p, game.stone(p).expect("a stone")))
                .collect::<Vec<_>>(),
            Seat::SECOND,
        )
        .expect("valid setup");
        let mut moves = Vec::new();
        white_to_move.legal_moves(&mut moves);
        assert_eq!(
            moves.len(),
            15 * 15 - game.history().len(),
            "white may play anywhere"
        );
    }
}

#[test]
fn rule_names_round_trip() {
    for rule in Rule::ALL {
        assert_eq!(Rule::from_name(rule.name()), Some(rule));
    }
    assert_eq!(Rule::from_name("renju_gomocup"), None);
    assert!(Rule::RenjuGomocup.is_renju() && Rule::Renju.is_renju());
    assert!(!Rule::Freestyle.is_renju() && !Rule::Standard.is_renju());
}

/// A replay of a game reaching `NESTED` (white on K10 instead of black's five there) in which
/// black then plays J8, judged as an illegal move: valid under `renju-gomocup` only.
fn nested_replay(rule: Rule) -> Replay {
    let black = [
        "I7", "H6", "I9", "H10", "J11", "G12", "L9", "L10", "J10", "I10",
    ];
    let white = [
        "A1", "O1", "A15", "O15", "A8", "O8", "C15", "M15", "K10", "C1",
    ];
    let config = Config { size: 15, rule };
    let mut game = Gomoku::new(&config).expect("config");
    let players = [
        Player {
            name: "black".into(),
            seat: Seat::FIRST,
            command: None,
        },
        Player {
            name: "white".into(),
            seat: Seat::SECOND,
            command: None,
        },
    ];
    let mut replay = Replay::new(GameConfig::Gomoku(config), players);
    for (b, w) in black.iter().zip(white) {
        for (seat, text) in [(Seat::FIRST, *b), (Seat::SECOND, w)] {
            let p = game.parse_move(text).expect("a point");
            game.play(p).unwrap_or_else(|e| panic!("{text}: {e}"));
            replay.moves.push(MoveRecord::new(seat, text.into()));
        }
    }
    replay.result = GameResult::lost_by(Reason::IllegalMove {
        seat: Seat::FIRST,
        mv: "J8".into(),
        why: "forbidden point (double-three)".into(),
        line: None,
    });
    replay
}

#[test]
fn replays_carry_the_reading() {
    let replay = nested_replay(Rule::RenjuGomocup);
    let json = replay.to_json();
    assert!(json.contains(r#""rule":"renju-gomocup""#), "{json}");
    let (back, _) = Replay::read(&json).expect("J8 is forbidden under renju-gomocup");
    assert_eq!(back.game, replay.game);
    // The same game under RIF: J8 is allowed there, so the verdict contradicts the rules.
    let rif = nested_replay(Rule::Renju).to_json();
    assert!(Replay::read(&rif).is_err(), "RIF allows J8");
}
