//! Gomoku rules outside the renju restrictions: configuration, turns, errors, wins under each
//! rule, draws, notation, and property tests over random games and arbitrary move text.

use arbiter_engine::gomoku::{Config, Gomoku, Point, Rule};
use arbiter_engine::{EndReason, Game, IllegalMove, Outcome, Seat};
use proptest::prelude::*;

const RULES: [Rule; 4] = Rule::ALL;

fn game(size: u8, rule: Rule) -> Gomoku {
    Gomoku::new(&Config { size, rule }).expect("valid config")
}

fn pt(x: u8, y: u8) -> Point {
    Point { x, y }
}

/// Plays black's and white's points in turn (black first).
fn play_all(g: &mut Gomoku, black: &[Point], white: &[Point]) {
    for i in 0..black.len().max(white.len()) {
        if let Some(&p) = black.get(i) {
            g.play(p).expect("black move");
        }
        if let Some(&p) = white.get(i) {
            g.play(p).expect("white move");
        }
    }
}

#[test]
fn config_sizes() {
    for size in [0u8, 1, 4, 27, 100, 255] {
        for rule in RULES {
            let err = Gomoku::new(&Config { size, rule }).expect_err("bad size");
            assert!(err.message.contains("size"), "{err}");
        }
    }
    for size in 5..=26 {
        for rule in RULES {
            let g = game(size, rule);
            assert_eq!(g.size(), size);
            assert_eq!(g.rule(), rule);
            assert_eq!(g.config(), &Config { size, rule });
        }
    }
    assert_eq!(
        Config::default(),
        Config {
            size: 15,
            rule: Rule::Freestyle
        }
    );
    assert_eq!(<Gomoku as Game>::NAME, "gomoku");
}

#[test]
fn start_position() {
    for rule in RULES {
        let g = game(15, rule);
        assert_eq!(g.to_move(), Some(Seat::FIRST));
        assert_eq!(g.forced_move(), None);
        assert_eq!(g.ply(), 0);
        assert_eq!(g.scores(), [0, 0]);
        assert_eq!(g.outcome(), None);
        assert!(g.history().is_empty());
        assert_eq!(g.winning_line(), None);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert_eq!(moves.len(), 225);
        assert!(g.forbidden_points().is_empty());
    }
}

#[test]
fn turns_history_scores_and_errors() {
    let mut g = game(15, Rule::Freestyle);
    g.play(pt(7, 7)).expect("first move");
    assert_eq!(g.stone(pt(7, 7)), Some(Seat::FIRST));
    assert_eq!(g.to_move(), Some(Seat::SECOND));
    assert_eq!(g.play(pt(7, 7)), Err(IllegalMove::Occupied));
    assert_eq!(g.play(pt(15, 0)), Err(IllegalMove::OffBoard));
    assert_eq!(g.play(pt(0, 15)), Err(IllegalMove::OffBoard));
    assert_eq!(g.play(pt(255, 255)), Err(IllegalMove::OffBoard));
    assert_eq!(g.ply(), 1, "refused moves change nothing");
    g.play(pt(8, 8)).expect("second move");
    assert_eq!(g.stone(pt(8, 8)), Some(Seat::SECOND));
    assert_eq!(g.stone(pt(0, 0)), None);
    assert_eq!(g.stone(pt(40, 0)), None);
    assert_eq!(g.history(), &[pt(7, 7), pt(8, 8)]);
    assert_eq!(g.scores(), [1, 1]);
    assert_eq!(g.to_move(), Some(Seat::FIRST));
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.len(), 223);
    assert!(!moves.contains(&pt(7, 7)) && !moves.contains(&pt(8, 8)));
}

#[test]
fn five_wins_in_every_direction_under_every_rule() {
    // (dx, dy) steps; black builds five from (5, 5), white answers along the top row.
    let dirs: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    for rule in RULES {
        for (dx, dy) in dirs {
            let mut g = game(15, rule);
            let black: Vec<Point> = [0, 2, 4, 1, 3]
                .iter()
                .map(|&k| pt((5 + k * dx) as u8, (7 + k * dy) as u8))
                .collect();
            let white: Vec<Point> = (0..4).map(|k| pt(k * 3, 0)).collect();
            play_all(&mut g, &black, &white);
            assert_eq!(
                g.outcome(),
                Some(Outcome {
                    winner: Some(Seat::FIRST),
                    reason: EndReason::Five
                }),
                "{rule:?} {dx},{dy}"
            );
            let mut line = g.winning_line().expect("line");
            line.sort();
            let mut want = black.clone();
            want.sort();
            assert_eq!(line, want);
            assert_eq!(g.to_move(), None);
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            assert!(moves.is_empty());
            assert_eq!(g.play(pt(14, 14)), Err(IllegalMove::GameOver));
            assert_eq!(g.scores(), [5, 4]);
        }
    }
}

#[test]
fn white_wins_too() {
    let mut g = game(15, Rule::Renju);
    let black = [pt(0, 0), pt(0, 2), pt(0, 4), pt(0, 6), pt(0, 8)];
    let white: Vec<Point> = (0..5).map(|k| pt(3 + k, 14)).collect();
    play_all(&mut g, &black, &white);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Seat::SECOND),
            reason: EndReason::Five
        })
    );
    assert_eq!(g.winning_line().map(|l| l.len()), Some(5));
}

#[test]
fn overline_by_play_under_each_rule() {
    // Black: five stones with a gap at x = 5 on row 7, then fills the gap: a six.
    let black = [pt(2, 7), pt(3, 7), pt(4, 7), pt(6, 7), pt(7, 7)];
    let white = [pt(0, 0), pt(2, 0), pt(4, 0), pt(6, 0), pt(8, 0)];
    for rule in RULES {
        let mut g = game(15, rule);
        play_all(&mut g, &black, &white);
        let result = g.play(pt(5, 7));
        match rule {
            Rule::Freestyle => {
                assert_eq!(result, Ok(()));
                assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Seat::FIRST)));
                assert_eq!(g.winning_line().map(|l| l.len()), Some(6));
            }
            Rule::Standard => {
                assert_eq!(result, Ok(()));
                assert_eq!(g.outcome(), None);
                assert_eq!(g.to_move(), Some(Seat::SECOND));
            }
            Rule::Renju | Rule::RenjuGomocup => {
                assert_eq!(
                    result,
                    Err(IllegalMove::Forbidden(
                        arbiter_engine::ForbiddenKind::Overline
                    ))
                );
                assert_eq!(g.to_move(), Some(Seat::FIRST));
            }
        }
    }
}

/// Black's and white's points of an n x n board (n even) filled with no five: colour by
/// `(x / 2 + y) % 2`, so rows read XXOOXX.., columns alternate, and diagonals have runs of two.
fn filling(n: u8) -> (Vec<Point>, Vec<Point>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for y in 0..n {
        for x in 0..n {
            if (x / 2 + y) % 2 == 0 {
                black.push(pt(x, y));
            } else {
                white.push(pt(x, y));
            }
        }
    }
    (black, white)
}

#[test]
fn full_board_is_a_draw() {
    for n in [6u8, 8, 16, 26] {
        for rule in RULES {
            let (black, white) = filling(n);
            assert_eq!(black.len(), white.len());
            let mut g = game(n, rule);
            play_all(&mut g, &black, &white);
            assert_eq!(
                g.outcome(),
                Some(Outcome {
                    winner: None,
                    reason: EndReason::BoardFull
                }),
                "{n} {rule:?}"
            );
            assert_eq!(g.to_move(), None);
            assert_eq!(g.ply(), n as usize * n as usize);
            assert_eq!(g.scores(), [black.len() as i64, white.len() as i64]);
            assert_eq!(g.winning_line(), None);
            assert_eq!(g.play(pt(0, 0)), Err(IllegalMove::GameOver));
        }
    }
}

#[test]
fn from_stones_setup() {
    let config = Config {
        size: 15,
        rule: Rule::Renju,
    };
    let g = Gomoku::from_stones(
        &config,
        &[(pt(7, 7), Seat::FIRST), (pt(8, 8), Seat::SECOND)],
        Seat::FIRST,
    )
    .expect("setup");
    assert_eq!(g.history(), &[pt(7, 7), pt(8, 8)]);
    assert_eq!(g.scores(), [1, 1]);
    assert_eq!(g.to_move(), Some(Seat::FIRST));
    assert_eq!(g.forbidden_kind(pt(15, 15)), None, "off the board");
    assert_eq!(g.forbidden_kind(pt(7, 7)), None, "taken");
    assert!(Gomoku::from_stones(&config, &[(pt(15, 7), Seat::FIRST)], Seat::FIRST).is_err());
    assert!(Gomoku::from_stones(
        &config,
        &[(pt(1, 1), Seat::FIRST), (pt(1, 1), Seat::SECOND)],
        Seat::FIRST
    )
    .is_err());
}

#[test]
fn notation_examples() {
    let g = game(15, Rule::Freestyle);
    assert_eq!(g.format_move(pt(7, 7)), "H8");
    assert_eq!(g.format_move(pt(0, 14)), "A1");
    assert_eq!(g.format_move(pt(14, 0)), "O15");
    assert_eq!(g.format_move(pt(8, 0)), "I15", "I is a column letter");
    for (text, want) in [
        ("H8", pt(7, 7)),
        ("h8", pt(7, 7)),
        ("  H8\r\n", pt(7, 7)),
        ("a1", pt(0, 14)),
        ("O15", pt(14, 0)),
        ("H08", pt(7, 7)),
        ("7,7", pt(7, 7)),
        (" 0 , 14 ", pt(0, 14)),
        ("14,0", pt(14, 0)),
    ] {
        assert_eq!(g.parse_move(text), Ok(want), "{text:?}");
    }
    for bad in [
        "",
        " ",
        "H",
        "8",
        "H0",
        "H16",
        "P8",
        "Z1",
        "15,0",
        "0,15",
        "-1,3",
        "7,7,7",
        "7,",
        ",7",
        "H8x",
        "HH8",
        "é8",
        "+7,7",
        "7,+7",
        "MOVE H8",
        "H 8",
        "1000,1",
        "H99999999999",
    ] {
        let err = g.parse_move(bad).expect_err(bad);
        assert!(!err.expected.is_empty());
    }
    let big = game(26, Rule::Standard);
    assert_eq!(big.format_move(pt(25, 0)), "Z26");
    assert_eq!(big.parse_move("z26"), Ok(pt(25, 0)));
    let small = game(5, Rule::Standard);
    assert_eq!(small.format_move(pt(2, 2)), "C3");
    assert!(small.parse_move("F1").is_err());
}

#[test]
fn notation_round_trip_every_size() {
    for size in 5..=26u8 {
        let g = game(size, Rule::Freestyle);
        for y in 0..size {
            for x in 0..size {
                let p = pt(x, y);
                let text = g.format_move(p);
                assert_eq!(g.parse_move(&text), Ok(p), "{text}");
                assert_eq!(g.parse_move(&text.to_lowercase()), Ok(p));
                assert_eq!(g.parse_move(&format!("{x},{y}")), Ok(p));
                // Row 1 is the bottom row.
                let number: u8 = text[1..].parse().expect("number");
                assert_eq!(number, size - y);
                assert_eq!(text.as_bytes()[0], b'A' + x);
            }
        }
    }
}

/// A tiny deterministic generator (splitmix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Checks the invariants of a finished or running game.
fn check_invariants(g: &Gomoku) {
    let n = g.size();
    let [b, w] = g.scores();
    assert_eq!((b + w) as usize, g.ply());
    assert_eq!(g.history().len(), g.ply());
    for &p in g.history() {
        assert!(g.stone(p).is_some());
    }
    match g.outcome() {
        None => {
            assert!(g.to_move().is_some());
            assert!(g.ply() < n as usize * n as usize);
        }
        Some(Outcome {
            winner: Some(seat),
            reason: EndReason::Five,
        }) => {
            let line = g.winning_line().expect("line");
            let last = *g.history().last().expect("a move");
            assert!(line.contains(&last));
            assert!(line.iter().all(|&p| g.stone(p) == Some(seat)));
            let exact = g.rule() == Rule::Standard || (g.rule().is_renju() && seat == Seat::FIRST);
            if exact {
                assert_eq!(line.len(), 5);
            } else {
                assert!(line.len() >= 5);
            }
            assert_eq!(g.stone(last), Some(seat));
        }
        Some(Outcome {
            winner: None,
            reason: EndReason::BoardFull,
        }) => {
            let empty = n as usize * n as usize - g.ply();
            if empty > 0 {
                // Only renju black can be left without a point: every empty one forbidden.
                assert!(g.rule().is_renju());
                assert_eq!(
                    g.stone(*g.history().last().expect("a move")),
                    Some(Seat::SECOND)
                );
                assert_eq!(g.forbidden_points().len(), empty);
            }
        }
        Some(other) => panic!("unexpected outcome {other:?}"),
    }
}

/// Plays a random game (near the stones, so lines form), checking after every move.
fn random_game(rng: &mut Rng, size: u8, rule: Rule, check_legality_every: usize) -> Gomoku {
    let mut g = game(size, rule);
    let mut moves = Vec::new();
    while g.outcome().is_none() {
        moves.clear();
        g.legal_moves(&mut moves);
        assert!(g.forced_move().is_none());
        let forbidden = g.forbidden_points();
        if rule.is_renju() && g.to_move() == Some(Seat::FIRST) {
            for (p, _) in &forbidden {
                assert!(!moves.contains(p));
            }
        } else {
            assert!(forbidden.iter().all(|(p, _)| moves.contains(p)));
        }
        if check_legality_every > 0 && g.ply().rem_euclid(check_legality_every) == 0 {
            // play accepts exactly the legal moves.
            for y in 0..size + 1 {
                for x in 0..size + 1 {
                    let p = pt(x, y);
                    let mut h = g.clone();
                    let ok = h.play(p).is_ok();
                    assert_eq!(ok, moves.contains(&p), "{p:?} at ply {}", g.ply());
                    if !ok {
                        assert_eq!(h.ply(), g.ply());
                    }
                }
            }
        }
        assert!(!moves.is_empty(), "a running game always has a move");
        let near: Vec<Point> = moves
            .iter()
            .copied()
            .filter(|p| {
                g.history().iter().rev().take(6).any(|q| {
                    (q.x as i32 - p.x as i32).abs() <= 2 && (q.y as i32 - p.y as i32).abs() <= 2
                })
            })
            .collect();
        let pool = if near.is_empty() || rng.below(10) == 0 {
            &moves
        } else {
            &near
        };
        let p = pool[rng.below(pool.len())];
        let seat = g.to_move();
        g.play(p).expect("legal move");
        assert_eq!(g.stone(p), seat);
        check_invariants(&g);
    }
    g
}

#[test]
fn random_games_under_every_rule() {
    let mut rng = Rng(7);
    let mut ends = [0usize; 3]; // black wins, white wins, draws
    for round in 0..150 {
        let rule = RULES[round % RULES.len()];
        let size = [15u8, 5, 6, 9, 19, 26][round % 6];
        let g = random_game(&mut rng, size, rule, 0);
        match g.outcome().and_then(|o| o.winner) {
            Some(seat) => ends[seat.index()] += 1,
            None => ends[2] += 1,
        }
    }
    assert!(ends[0] > 0 && ends[1] > 0, "{ends:?}");
}

#[test]
fn play_accepts_exactly_legal_moves() {
    let mut rng = Rng(11);
    for rule in RULES {
        for _ in 0..3 {
            random_game(&mut rng, 15, rule, 7);
        }
        random_game(&mut rng, 7, rule, 1);
    }
}

proptest! {
    #[test]
    fn parse_never_panics(text in any::<String>(), size in 5u8..=26) {
        let g = game(size, Rule::Freestyle);
        if let Ok(p) = g.parse_move(&text) {
            prop_assert!(p.x < size && p.y < size);
        }
    }

    #[test]
    fn parse_never_panics_on_move_like_text(text in "[ a-zA-Z0-9,+-]{0,8}", size in 5u8..=26) {
        let g = game(size, Rule::Renju);
        if let Ok(p) = g.parse_move(&text) {
            prop_assert!(p.x < size && p.y < size);
            // What parses is a point the canonical form names too.
            prop_assert_eq!(g.parse_move(&g.format_move(p)), Ok(p));
        }
    }

    #[test]
    fn random_playouts_never_panic(seed in any::<u64>(), size in 5u8..=26, rule in 0usize..4) {
        let mut rng = Rng(seed);
        let g = random_game(&mut rng, size, RULES[rule], 0);
        prop_assert!(g.outcome().is_some());
    }

    #[test]
    fn play_unchecked_never_panics(points in proptest::collection::vec((0u8..30, 0u8..30), 0..80), rule in 0usize..4) {
        let mut g = game(9, RULES[rule]);
        for (x, y) in points {
            g.play_unchecked(pt(x, y));
            let _ = g.forbidden_points();
            let _ = g.winning_line();
        }
        prop_assert!(g.ply() <= 81);
    }
}

#[test]
fn renju_black_left_with_only_forbidden_points_is_a_draw() {
    // 7 x 7, filled but for (3, 3) and (0, 0); row 3 is X X X . X X X, so (3, 3) is an
    // overline for black.
    let mut stones = Vec::new();
    for y in 0..7u8 {
        for x in 0..7u8 {
            if (x, y) == (3, 3) || (x, y) == (0, 0) {
                continue;
            }
            let black = if y == 3 { true } else { (x / 2 + y) % 2 == 0 };
            stones.push((pt(x, y), if black { Seat::FIRST } else { Seat::SECOND }));
        }
    }
    let config = Config {
        size: 7,
        rule: Rule::Renju,
    };
    let running = Gomoku::from_stones(&config, &stones, Seat::SECOND).expect("setup");
    assert_eq!(running.outcome(), None);
    assert_eq!(
        running.forbidden_kind(pt(3, 3)),
        Some(arbiter_engine::ForbiddenKind::Overline)
    );
    assert_eq!(running.forbidden_kind(pt(0, 0)), None);
    let mut g = running.clone();
    g.play(pt(0, 0)).expect("white fills a point");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: EndReason::BoardFull
        }),
        "black has no point left"
    );
    check_invariants(&g);
    // The same stones with black to move: over before it starts.
    stones.push((pt(0, 0), Seat::SECOND));
    let stuck = Gomoku::from_stones(&config, &stones, Seat::FIRST).expect("setup");
    assert_eq!(
        stuck.outcome().map(|o| o.reason),
        Some(EndReason::BoardFull)
    );
    // White to move may still play there (and makes no five).
    let mut white = Gomoku::from_stones(&config, &stones, Seat::SECOND).expect("setup");
    assert_eq!(white.play(pt(3, 3)), Ok(()));
    assert_eq!(
        white.outcome().map(|o| o.reason),
        Some(EndReason::BoardFull)
    );
}
