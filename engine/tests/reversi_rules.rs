//! Reversi rules and API: configuration, start positions, passes and game end on hand-made
//! boards, notation, and property tests (random playouts, `play` accepts exactly the legal
//! moves with the right errors, parsing arbitrary text never panics, format/parse round trip).

use arbiter_engine::reversi::{Config, Move, Reversi};
use arbiter_engine::{EndReason, Game, IllegalMove, Outcome, Seat};
use proptest::prelude::*;

fn new_game(size: u8) -> Reversi {
    Reversi::new(&Config { size }).expect("valid size")
}

fn place(row: u8, col: u8) -> Move {
    Move::Place { row, col }
}

fn legal(g: &Reversi) -> Vec<Move> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v
}

/// A position from rows of `X` (black), `O` (white) and `.`.
fn from_rows(rows: &[&str], to_move: Seat) -> Reversi {
    let size = rows.len() as u8;
    let cells: Vec<Option<Seat>> = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|ch| match ch {
            'X' => Some(Seat::FIRST),
            'O' => Some(Seat::SECOND),
            _ => None,
        })
        .collect();
    Reversi::from_cells(&Config { size }, &cells, to_move).expect("valid board")
}

#[test]
fn config_accepts_exactly_even_sizes_from_4_to_16() {
    assert_eq!(Config::default().size, 16);
    for size in 0..=40u8 {
        let ok = size % 2 == 0 && (4..=16).contains(&size);
        match Reversi::new(&Config { size }) {
            Ok(g) => {
                assert!(ok, "size {size} accepted");
                assert_eq!(g.size(), size);
                assert_eq!(g.config(), &Config { size });
            }
            Err(e) => {
                assert!(!ok, "size {size} rejected: {e}");
                let text = e.to_string();
                assert!(
                    text.contains("even") && text.contains(&size.to_string()),
                    "{text}"
                );
            }
        }
    }
    assert!(Reversi::new(&Config { size: 255 }).is_err());
}

#[test]
fn start_positions_follow_the_rules_note() {
    for size in (4u8..=16).step_by(2) {
        let g = new_game(size);
        let h = size / 2;
        for r in 0..size {
            for c in 0..size {
                let want = match (r, c) {
                    _ if (r, c) == (h - 1, h - 1) || (r, c) == (h, h) => Some(Seat::SECOND),
                    _ if (r, c) == (h - 1, h) || (r, c) == (h, h - 1) => Some(Seat::FIRST),
                    _ => None,
                };
                assert_eq!(g.disc(r, c), want, "size {size} ({r},{c})");
            }
        }
        assert_eq!(g.counts(), [2, 2]);
        assert_eq!(g.scores(), [2, 2]);
        assert_eq!(g.to_move(), Some(Seat::FIRST));
        assert_eq!(g.forced_move(), None);
        assert_eq!(g.ply(), 0);
        assert_eq!(g.outcome(), None);
        // Black always has the same four openings around the centre.
        let want = vec![
            place(h - 2, h - 1),
            place(h - 1, h - 2),
            place(h, h + 1),
            place(h + 1, h),
        ];
        assert_eq!(legal(&g), want, "size {size}");
    }
}

#[test]
fn sixteen_by_sixteen_start_moves() {
    let g = new_game(16);
    assert_eq!(g.disc(7, 8), Some(Seat::FIRST));
    assert_eq!(g.disc(8, 7), Some(Seat::FIRST));
    assert_eq!(g.disc(7, 7), Some(Seat::SECOND));
    assert_eq!(g.disc(8, 8), Some(Seat::SECOND));
    let places: Vec<(u8, u8)> = g.legal_places().collect();
    assert_eq!(places, vec![(6, 7), (7, 6), (8, 9), (9, 8)]);
}

#[test]
fn eight_by_eight_openings_in_othello_notation() {
    let g = new_game(8);
    let names: Vec<String> = legal(&g).into_iter().map(|m| g.format_move(m)).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    assert_eq!(g.flipped_by(place(2, 3)), vec![(3, 3)]);
    assert_eq!(g.flipped_by(place(0, 0)), Vec::<(u8, u8)>::new());
    assert_eq!(g.flipped_by(Move::Pass), Vec::<(u8, u8)>::new());
    let mut g = g;
    g.play(g.parse_move("d3").expect("parses")).expect("legal");
    assert_eq!(g.disc(3, 3), Some(Seat::FIRST));
    assert_eq!(g.counts(), [4, 1]);
    assert_eq!(g.to_move(), Some(Seat::SECOND));
    assert_eq!(g.ply(), 1);
}

#[test]
fn flips_in_several_directions_at_once() {
    // Black on (2,2) flips west, north, north-west and north-east lines at once.
    let g = from_rows(
        &[
            "X.X.X.", //
            ".OOO..", //
            "XO.O..", //
            "......", //
            "......", //
            "......",
        ],
        Seat::FIRST,
    );
    // North-east: (1,3) then (0,4) black; east: (2,3) then empty, no flip.
    assert_eq!(
        g.flipped_by(place(2, 2)),
        vec![(1, 1), (1, 2), (1, 3), (2, 1)]
    );
    let mut g = g;
    g.play(place(2, 2)).expect("legal");
    assert_eq!(g.counts(), [9, 1]);
    assert_eq!(g.disc(2, 3), Some(Seat::SECOND));
}

#[test]
fn a_side_without_moves_must_pass() {
    let mut g = from_rows(
        &[
            "OOOO", //
            "OOOO", //
            "OOX.", //
            "....",
        ],
        Seat::FIRST,
    );
    assert_eq!(g.to_move(), Some(Seat::FIRST));
    assert_eq!(g.forced_move(), Some(Move::Pass));
    assert_eq!(legal(&g), vec![Move::Pass]);
    assert_eq!(g.legal_places().count(), 0);
    assert!(!g.is_legal_place(2, 3));
    assert_eq!(g.mobility(Seat::FIRST), 0);
    assert!(g.mobility(Seat::SECOND) > 0);
    let before = g.clone();
    assert_eq!(g.play(place(2, 3)), Err(IllegalMove::MustPass));
    assert_eq!(g.play(place(0, 0)), Err(IllegalMove::Occupied));
    assert_eq!(g.play(place(4, 0)), Err(IllegalMove::OffBoard));
    assert_eq!(g, before, "rejected moves leave the position unchanged");
    g.play(Move::Pass).expect("the pass is legal");
    assert_eq!(g.ply(), 1);
    assert_eq!(g.to_move(), Some(Seat::SECOND));
    assert_eq!(g.forced_move(), None);
    assert_eq!(g.play(Move::Pass), Err(IllegalMove::CannotPass));
    assert!(g.is_legal_place(2, 3));
    assert_eq!(g.flipped_by(place(2, 3)), vec![(2, 2)]);
    g.play(place(2, 3)).expect("legal");
    // White took the only black disc: nobody can move.
    assert_eq!(g.to_move(), None);
    assert_eq!(g.forced_move(), None);
    assert_eq!(legal(&g), vec![]);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Seat::SECOND),
            reason: EndReason::NoMoves { discs: [0, 12] }
        })
    );
    assert_eq!(g.play(Move::Pass), Err(IllegalMove::GameOver));
    assert_eq!(g.play(place(3, 3)), Err(IllegalMove::GameOver));
    assert_eq!(g.play(place(9, 9)), Err(IllegalMove::GameOver));
}

#[test]
fn full_board_is_over_and_equal_discs_draw() {
    let g = from_rows(
        &[
            "XXXX", //
            "XXXX", //
            "OOOO", //
            "OOOO",
        ],
        Seat::SECOND,
    );
    assert_eq!(g.to_move(), None);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: EndReason::NoMoves { discs: [8, 8] }
        })
    );
    // Black wins with more discs even with empty squares left.
    let g = from_rows(
        &[
            "XXX.", //
            "XXXX", //
            "OOOO", //
            "....",
        ],
        Seat::FIRST,
    );
    assert!(g.to_move().is_some(), "black can still play (3,x)");
    let g = from_rows(
        &[
            "XXX.", //
            "XXX.", //
            "....", //
            "....",
        ],
        Seat::SECOND,
    );
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(Seat::FIRST)));
}

#[test]
fn from_cells_rejects_bad_input() {
    assert!(Reversi::from_cells(&Config { size: 4 }, &[None; 15], Seat::FIRST).is_err());
    assert!(Reversi::from_cells(&Config { size: 5 }, &[None; 25], Seat::FIRST).is_err());
    let g = Reversi::from_cells(&Config { size: 4 }, &[None; 16], Seat::FIRST).expect("ok");
    assert_eq!(g.to_move(), None, "an empty board has no moves");
}

#[test]
fn parse_reads_every_accepted_form() {
    let g = new_game(16);
    let d3 = place(2, 3);
    for text in [
        "d3", "D3", " d3 ", "\td3\n", "2 3", "2  3", " 2\t3 ", "2,3", "2, 3", " 2 ,3 ", "02 03",
    ] {
        assert_eq!(g.parse_move(text), Ok(d3), "{text:?}");
    }
    for text in ["pass", "PASS", "Pass", "pa", "PA", " pass\r\n"] {
        assert_eq!(g.parse_move(text), Ok(Move::Pass), "{text:?}");
    }
    assert_eq!(g.parse_move("a1"), Ok(place(0, 0)));
    assert_eq!(g.parse_move("p16"), Ok(place(15, 15)));
    assert_eq!(g.parse_move("15 15"), Ok(place(15, 15)));
    assert_eq!(g.parse_move("a16"), Ok(place(15, 0)));
    assert_eq!(g.parse_move("7 8"), Ok(place(7, 8)));
    for text in [
        "",
        " ",
        "d",
        "3",
        "d0",
        "d17",
        "q1",
        "z9",
        "16 0",
        "0 16",
        "-1 2",
        "+1 2",
        "1 2 3",
        "1,2,3",
        "1,",
        ",1",
        "1 ,",
        "pass please",
        "passs",
        "p",
        "3d",
        "d3x",
        "d 3",
        "d-3",
        "é3",
        "１ ２",
        "1000 1",
        "99999999999999999999 1",
        "d99999999999999999999",
        "1;2",
        "(1,2)",
        "1\u{0}2",
    ] {
        let err = g.parse_move(text).expect_err(text);
        assert!(!err.expected.is_empty());
        assert!(err.to_string().contains("cannot read move"));
    }
    // Board range depends on the size.
    let g8 = new_game(8);
    for text in ["i1", "a9", "8 0", "0,8", "h9"] {
        assert!(g8.parse_move(text).is_err(), "{text:?} on 8x8");
    }
    assert_eq!(g8.parse_move("h8"), Ok(place(7, 7)));
    // Legality is play's job, not parse's.
    assert_eq!(g8.parse_move("a1"), Ok(place(0, 0)));
}

#[test]
fn format_parse_round_trip_on_every_square_and_size() {
    for size in (4u8..=16).step_by(2) {
        let g = new_game(size);
        for row in 0..size {
            for col in 0..size {
                let mv = place(row, col);
                let text = g.format_move(mv);
                assert_eq!(g.parse_move(&text), Ok(mv), "{text}");
                assert_eq!(g.parse_move(&text.to_uppercase()), Ok(mv), "{text}");
                assert_eq!(g.parse_move(&format!("{row} {col}")), Ok(mv));
                assert_eq!(g.parse_move(&format!("{row},{col}")), Ok(mv));
            }
        }
        assert_eq!(g.format_move(Move::Pass), "pass");
        assert_eq!(g.parse_move(&g.format_move(Move::Pass)), Ok(Move::Pass));
    }
    let g = new_game(16);
    assert_eq!(g.format_move(place(2, 3)), "d3");
    assert_eq!(g.format_move(place(15, 15)), "p16");
}

#[test]
fn display_draws_the_board() {
    let g = new_game(4);
    assert_eq!(g.to_string(), "....\n.OX.\n.XO.\n....\n");
}

/// A random playout, checking every step; returns the final position.
fn checked_playout(size: u8, choices: &[usize], candidates: &[(u8, u8, bool)]) -> Reversi {
    let mut g = new_game(size);
    let mut step = 0;
    while g.to_move().is_some() {
        let moves = legal(&g);
        assert!(!moves.is_empty());
        assert_eq!(g.forced_move().is_some(), moves == [Move::Pass]);
        // Random candidates: accepted exactly when listed, else the right error, no change.
        for &(row, col, pass) in candidates.iter().skip(step % 7).take(3) {
            let mv = if pass { Move::Pass } else { place(row, col) };
            let n = g.size();
            let want = if moves.contains(&mv) {
                Ok(())
            } else {
                Err(match mv {
                    Move::Pass => IllegalMove::CannotPass,
                    Move::Place { row, col } if row >= n || col >= n => IllegalMove::OffBoard,
                    Move::Place { row, col } if g.disc(row, col).is_some() => IllegalMove::Occupied,
                    Move::Place { .. } if moves == [Move::Pass] => IllegalMove::MustPass,
                    Move::Place { .. } => IllegalMove::NoFlips,
                })
            };
            let mut trial = g.clone();
            assert_eq!(trial.play(mv), want, "{mv:?}\n{g}");
            match want {
                Ok(()) => assert_eq!(trial.ply(), g.ply() + 1),
                Err(_) => assert_eq!(trial, g, "an illegal move changed the position"),
            }
            if let Move::Place { row, col } = mv {
                assert_eq!(g.is_legal_place(row, col), want.is_ok());
                assert_eq!(g.flipped_by(mv).is_empty(), want.is_err());
            }
        }
        let mv = moves[choices[step % choices.len()] % moves.len()];
        let (before, flips) = (g.counts(), g.flipped_by(mv));
        let mover = g.to_move().map(Seat::index).unwrap_or(0);
        g.play(mv).expect("listed moves are legal");
        // The mover gains the flipped discs plus the new one; the opponent loses the flipped.
        let placed = u16::from(mv != Move::Pass);
        let flipped = flips.len() as u16;
        let after = g.counts();
        assert_eq!(after[mover], before[mover] + flipped + placed);
        assert_eq!(after[1 - mover], before[1 - mover] - flipped);
        step += 1;
        assert!(step <= 2 * 256, "a game cannot last this long");
    }
    // Over: no legal moves for anyone, every move rejected with GameOver.
    assert!(legal(&g).is_empty());
    assert_eq!(g.play(Move::Pass), Err(IllegalMove::GameOver));
    assert_eq!(g.play(place(0, 0)), Err(IllegalMove::GameOver));
    assert!(g.outcome().is_some());
    g
}

fn size_strategy() -> impl Strategy<Value = u8> {
    (2u8..=8).prop_map(|h| 2 * h)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_playouts_accept_exactly_the_legal_moves(
        size in size_strategy(),
        choices in prop::collection::vec(any::<usize>(), 1..64),
        candidates in prop::collection::vec((0u8..20, 0u8..20, prop::bool::weighted(0.1)), 10),
    ) {
        let g = checked_playout(size, &choices, &candidates);
        let discs = g.counts();
        prop_assert!(usize::from(discs[0] + discs[1]) <= usize::from(size) * usize::from(size));
    }

    #[test]
    fn any_coordinates_are_handled(size in size_strategy(), row in any::<u8>(), col in any::<u8>()) {
        let mut g = new_game(size);
        let mv = place(row, col);
        let text = g.format_move(mv);
        let on_board = row < size && col < size;
        prop_assert_eq!(g.parse_move(&text).is_ok(), on_board);
        if on_board {
            prop_assert_eq!(g.parse_move(&text), Ok(mv));
        }
        prop_assert_eq!(g.disc(row, col).is_some(), on_board && g.counts() != [0, 0] && {
            let h = size / 2;
            (h - 1..=h).contains(&row) && (h - 1..=h).contains(&col)
        });
        let _ = g.flipped_by(mv);
        let _ = g.is_legal_place(row, col);
        let res = g.play(mv);
        if !on_board {
            prop_assert_eq!(res, Err(IllegalMove::OffBoard));
        }
        g.play_unchecked(place(col, row));
    }

    #[test]
    fn parsing_arbitrary_text_never_panics(size in size_strategy(), text in any::<String>()) {
        let g = new_game(size);
        if let Ok(mv) = g.parse_move(&text) {
            if let Move::Place { row, col } = mv {
                prop_assert!(row < size && col < size);
            }
            prop_assert_eq!(g.parse_move(&g.format_move(mv)), Ok(mv));
        }
    }

    #[test]
    fn parsing_move_like_text_never_panics(
        size in size_strategy(),
        text in "[ \t]{0,2}([a-zA-Z]{1,2}[0-9]{0,4}|[0-9+-]{0,5}[ ,\t]{0,3}[0-9+-]{0,5}|pa(ss)?)[ \t,]{0,2}",
    ) {
        let g = new_game(size);
        if let Ok(mv) = g.parse_move(&text) {
            prop_assert_eq!(g.parse_move(&g.format_move(mv)), Ok(mv));
        }
    }

    #[test]
    fn spaced_and_cased_forms_round_trip(
        size in size_strategy(),
        r in 0u8..16,
        c in 0u8..16,
        form in 0usize..4,
        pad in "[ \t]{0,3}",
    ) {
        let g = new_game(size);
        let (r, c) = (r % size, c % size);
        let mv = place(r, c);
        let core = match form {
            0 => g.format_move(mv),
            1 => g.format_move(mv).to_uppercase(),
            2 => format!("{r}{pad} {c}"),
            _ => format!("{r}{pad},{pad}{c}"),
        };
        let text = format!("{pad}{core}{pad}");
        prop_assert_eq!(g.parse_move(&text), Ok(mv), "{:?}", text);
    }
}

#[test]
fn disc_plane_agrees_with_disc_on_every_size() {
    let mut state = 7u64;
    for size in [4u8, 6, 8, 10, 16] {
        let mut g = new_game(size);
        for _ in 0..30 {
            for seat in Seat::BOTH {
                let plane = g.disc_plane(seat);
                for row in 0..16u8 {
                    for col in 0..16u8 {
                        let bit = 16 * usize::from(row) + usize::from(col);
                        let set = plane[bit / 64] >> (bit % 64) & 1 == 1;
                        assert_eq!(set, g.disc(row, col) == Some(seat), "{size} {row} {col}");
                    }
                }
            }
            let moves = legal(&g);
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            g.play(moves[(state >> 33) as usize % moves.len()])
                .expect("legal");
        }
    }
}
