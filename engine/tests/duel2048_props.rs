//! Property tests: random playouts, `play` against `legal_moves`, notation round trips.

use arbiter_engine::duel2048::{
    parse_board, write_board_rows, Cell, Config, Direction, Duel, Move, RandomSource, Step,
};
use arbiter_engine::error::StepKind;
use arbiter_engine::{Game, IllegalMove, Seat};
use proptest::prelude::*;

fn config_strategy() -> impl Strategy<Value = Config> {
    prop_oneof![
        (1u16..80, any::<u64>()).prop_map(|(rounds, seed)| Config {
            rounds,
            random: RandomSource::Seed(seed),
        }),
        (1u16..40).prop_flat_map(|rounds| {
            proptest::collection::vec(0u32..720_720, rounds as usize..rounds as usize + 3).prop_map(
                move |seq| Config {
                    rounds,
                    random: RandomSource::Sequence(seq),
                },
            )
        }),
    ]
}

/// Every move the tests throw at `play`: off-board cells, all slides, skip.
fn candidates() -> Vec<Move> {
    let mut v = vec![Move::Skip];
    for d in Direction::ALL {
        v.push(Move::Slide(d));
    }
    for row in 0..6 {
        for col in 0..10 {
            v.push(Move::Place { row, col });
        }
    }
    v.push(Move::Place { row: 255, col: 255 });
    v
}

fn move_strategy() -> impl Strategy<Value = Move> {
    prop_oneof![
        Just(Move::Skip),
        (0usize..4).prop_map(|d| Move::Slide(Direction::from_index(d).unwrap())),
        (0u8..4, 0u8..8).prop_map(|(row, col)| Move::Place { row, col }),
    ]
}

/// The error `play` owes for an illegal `mv`, derived from the rules' order of checks.
fn expected_error(d: &Duel, mv: Move) -> IllegalMove {
    let place_step = d.step().kind() == StepKind::Place;
    match mv {
        Move::Skip => IllegalMove::CannotPass,
        _ if d.forced_move().is_some() => IllegalMove::MustPass,
        Move::Place { .. } if !place_step => IllegalMove::WrongStep {
            expected: StepKind::Slide,
        },
        Move::Slide(_) if place_step => IllegalMove::WrongStep {
            expected: StepKind::Place,
        },
        Move::Place { row, col } if row >= 4 || col >= 8 => IllegalMove::OffBoard,
        Move::Place { row, col } if d.cell(row, col).level != 0 => IllegalMove::Occupied,
        Move::Place { .. } => IllegalMove::NotRandomCell {
            allowed: d.to_move().and_then(|s| d.next_cell(s)),
        },
        Move::Slide(_) => IllegalMove::NoChange,
    }
}

fn same_position(a: &Duel, b: &Duel) -> bool {
    a.board_rows() == b.board_rows() && a.ply() == b.ply() && a.to_move() == b.to_move()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_playouts_never_panic(config in config_strategy(), picks in proptest::collection::vec(any::<u32>(), 0..64)) {
        let mut d = Duel::new(&config).unwrap();
        let mut legal = Vec::new();
        let mut i = 0usize;
        while d.to_move().is_some() {
            legal.clear();
            d.legal_moves(&mut legal);
            prop_assert!(!legal.is_empty());
            prop_assert_eq!(d.forced_move().is_some(), legal == [Move::Skip]);
            let pick = picks.get(i % picks.len().max(1)).copied().unwrap_or(0) as usize ^ i;
            let mv = legal[pick % legal.len()];
            let ply = d.ply();
            prop_assert_eq!(d.play(mv), Ok(()));
            prop_assert_eq!(d.ply(), ply + 1);
            let _ = d.scores();
            let _ = d.board_text();
            prop_assert!(d.outcome().is_none() || d.to_move().is_none());
            i += 1;
        }
        prop_assert_eq!(i, config.rounds as usize * 4);
        prop_assert!(d.outcome().is_some());
        prop_assert_eq!(d.round(), config.rounds);
        // Every tile is owned by someone and each empty cell by its half's owner.
        for (r, row) in d.board_rows().iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if cell.level == 0 {
                    prop_assert_eq!(cell.owner, if c < 4 { Seat::FIRST } else { Seat::SECOND }, "({}, {})", r, c);
                }
            }
        }
        for mv in candidates() {
            prop_assert_eq!(d.clone().play(mv), Err(IllegalMove::GameOver));
        }
    }

    #[test]
    fn play_accepts_exactly_legal_moves(config in config_strategy(), picks in proptest::collection::vec(any::<u16>(), 1..200)) {
        let mut d = Duel::new(&config).unwrap();
        let mut legal = Vec::new();
        for pick in &picks {
            if d.to_move().is_none() {
                break;
            }
            legal.clear();
            d.legal_moves(&mut legal);
            for mv in candidates() {
                let mut tried = d.clone();
                match tried.play(mv) {
                    Ok(()) => {
                        prop_assert!(legal.contains(&mv), "{:?} accepted, not in {:?}", mv, legal);
                        let mut unchecked = d.clone();
                        unchecked.play_unchecked(mv);
                        prop_assert!(same_position(&tried, &unchecked));
                    }
                    Err(e) => {
                        prop_assert!(!legal.contains(&mv), "{:?} refused ({}), in {:?}", mv, e, legal);
                        prop_assert!(same_position(&tried, &d));
                        prop_assert_eq!(e, expected_error(&d, mv), "{:?}", mv);
                    }
                }
            }
            let mv = legal[*pick as usize % legal.len()];
            d.play(mv).unwrap();
        }
    }

    #[test]
    fn format_parse_round_trip(mv in move_strategy()) {
        let d = Duel::new(&Config::default()).unwrap();
        let text = d.format_move(mv);
        prop_assert_eq!(d.parse_move(&text), Ok(mv));
        prop_assert_eq!(d.parse_move(&text.to_uppercase()), Ok(mv));
        prop_assert_eq!(d.parse_move(&format!("  {text}\t")), Ok(mv));
        if let Move::Place { row, col } = mv {
            prop_assert_eq!(d.parse_move(&format!("({row}, {col})")), Ok(mv));
            prop_assert_eq!(d.parse_move(&format!("{row} {col}")), Ok(mv));
        }
    }

    #[test]
    fn parse_never_panics(text in any::<String>()) {
        let d = Duel::new(&Config::default()).unwrap();
        if let Ok(mv) = d.parse_move(&text) {
            prop_assert_eq!(d.parse_move(&d.format_move(mv)), Ok(mv));
            if let Move::Place { row, col } = mv {
                prop_assert!(row < 4 && col < 8);
            }
        }
        let _ = parse_board(&text);
    }

    #[test]
    fn parse_never_panics_on_move_like_text(text in "[ (]{0,2}[0-9udlrskipUDLR]{0,4}[ ,]{0,3}[0-9]{0,4}[ )]{0,2}") {
        let d = Duel::new(&Config::default()).unwrap();
        if let Ok(mv) = d.parse_move(&text) {
            prop_assert_eq!(d.parse_move(&d.format_move(mv)), Ok(mv));
        }
    }

    #[test]
    fn board_text_round_trip(levels in proptest::collection::vec((0u8..100, any::<bool>()), 32)) {
        let mut rows = [[Cell { owner: Seat::FIRST, level: 0 }; 8]; 4];
        for (i, (level, flip)) in levels.iter().enumerate() {
            let (r, c) = (i / 8, i % 8);
            let half = if c < 4 { Seat::FIRST } else { Seat::SECOND };
            let owner = if *flip && *level > 0 { half.other() } else { half };
            rows[r][c] = Cell { owner, level: *level };
        }
        let mut text = String::new();
        write_board_rows(&rows, &mut text);
        prop_assert_eq!(parse_board(&text), Ok(rows));
        let d = Duel::from_board(&Config::default(), rows, 0, Step::FirstSlide).unwrap();
        prop_assert_eq!(d.board_text(), text);
    }
}
