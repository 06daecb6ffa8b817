//! Perft through the kit (`Rules::native`, JSON requests) against the engine: Reversi against
//! the published tables the engine is tested on, Gomoku and renju, and the duel's dice.

mod common;

use arbiter_engine::duel2048::{self, Duel, RandomSource};
use arbiter_engine::gomoku::{self, Gomoku, Rule};
use arbiter_engine::reversi::{self, Reversi};
use arbiter_engine::Game as _;
use arbiter_kit_host::{perft, Rules};
use common::{engine_perft, play_both};
use game_builtin::{Duel2048, Gomoku as KitGomoku, Reversi as KitReversi};
use serde_json::json;

/// The engine's published table (`depth nodes` lines, `#` comments), up to `max_depth`.
fn table(text: &str, max_depth: u32) -> Vec<(u32, u64)> {
    let rows: Vec<(u32, u64)> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (d, n) = l.split_once(' ')?;
            Some((d.trim().parse().ok()?, n.trim().parse().ok()?))
        })
        .take_while(|(d, _)| *d <= max_depth)
        .collect();
    assert_eq!(rows.len(), max_depth as usize, "the table has every depth");
    rows
}

fn reversi_against_table(size: u8, text: &str, max_depth: u32) {
    let mut rules = Rules::native::<KitReversi>();
    let s = rules.start(&json!({ "size": size }), 0).unwrap();
    let engine = Reversi::new(&reversi::Config { size }).unwrap();
    for (depth, want) in table(text, max_depth) {
        let kit = perft(&mut rules, s, depth).unwrap();
        assert_eq!(kit, want, "{size}x{size} perft({depth}) through the kit");
        assert_eq!(reversi::perft(&engine, depth), want, "the engine's perft");
    }
}

#[test]
fn reversi_8x8_perft_through_the_kit_is_the_published_table() {
    let text = include_str!("../../../engine/tests/data/perft_reversi_8x8.txt");
    // 4, 12, 56, 244, 1396, 8200 (55,092 at 7 in a release build: a second in debug).
    let depth = if cfg!(debug_assertions) { 6 } else { 7 };
    reversi_against_table(8, text, depth);
}

#[test]
fn reversi_6x6_perft_through_the_kit_is_the_published_table() {
    let text = include_str!("../../../engine/tests/data/perft_reversi_6x6.txt");
    reversi_against_table(6, text, 6);
}

#[test]
fn reversi_16x16_and_a_passing_4x4_agree_with_the_engine() {
    for (size, depth) in [(16u8, 4u32), (4, 9)] {
        let mut rules = Rules::native::<KitReversi>();
        let s = rules.start(&json!({ "size": size }), 0).unwrap();
        let engine = Reversi::new(&reversi::Config { size }).unwrap();
        for d in 1..=depth {
            assert_eq!(
                perft(&mut rules, s, d).unwrap(),
                engine_perft(&engine, d),
                "{size}x{size} perft({d})"
            );
        }
    }
}

/// The one place the counts differ: a game over before the last ply. The engine's tables
/// count it as a leaf at any depth (the published convention); the kit counts what is left
/// to play, nothing. 4 x 4 games end from ply 9 on, so depth 10 shows it.
#[test]
fn a_finished_game_counts_in_the_engine_tables_but_not_through_the_kit() {
    let engine = Reversi::new(&reversi::Config { size: 4 }).unwrap();
    let mut rules = Rules::native::<KitReversi>();
    let s = rules.start(&json!({"size": 4}), 0).unwrap();
    let (kit, tables) = (
        perft(&mut rules, s, 10).unwrap(),
        reversi::perft(&engine, 10),
    );
    assert_eq!(kit, engine_perft(&engine, 10));
    assert!(kit < tables, "kit {kit}, tables {tables}");
}

fn gomoku(size: u8, rule: Rule) -> (Rules, arbiter_kit_host::State, Gomoku) {
    let mut rules = Rules::native::<KitGomoku>();
    let s = rules
        .start(&json!({"size": size, "rule": rule.name()}), 0)
        .unwrap();
    let engine = Gomoku::new(&gomoku::Config { size, rule }).unwrap();
    (rules, s, engine)
}

#[test]
fn gomoku_small_boards_perft_through_the_kit() {
    for (size, rule, depth) in [
        (5, Rule::Freestyle, 3),
        (6, Rule::Standard, 3),
        (7, Rule::Renju, 2),
    ] {
        let (mut rules, s, engine) = gomoku(size, rule);
        for d in 1..=depth {
            let want = engine_perft(&engine, d);
            let n = u64::from(size) * u64::from(size);
            // From the empty board: every point, then every point left, ...
            assert_eq!(want, (0..u64::from(d)).map(|k| n - k).product::<u64>());
            assert_eq!(
                perft(&mut rules, s, d).unwrap(),
                want,
                "{size} {rule:?} {d}"
            );
        }
    }
}

/// Black to move with forbidden points: the double-three of `E5` on 9 x 9 (black C5 D5 and
/// E7 E6, white in the corners): renju's counts leave black's forbidden points out.
#[test]
fn renju_perft_through_the_kit_leaves_black_forbidden_points_out() {
    let setup = ["2,4", "0,0", "3,4", "0,2", "4,2", "0,8", "4,3", "8,8"];
    let mut counts = Vec::new();
    for rule in [Rule::Renju, Rule::RenjuGomocup, Rule::Freestyle] {
        let (mut rules, s, mut engine) = gomoku(9, rule);
        play_both(&mut rules, s, &mut engine, &setup);
        let forbidden = engine.forbidden_points().len();
        assert_eq!(forbidden > 0, rule.is_renju(), "{rule:?}");
        let empty = 81 - setup.len() as u64;
        let kit: Vec<u64> = (1..=3).map(|d| perft(&mut rules, s, d).unwrap()).collect();
        let want: Vec<u64> = (1..=3).map(|d| engine_perft(&engine, d)).collect();
        assert_eq!(kit, want, "{rule:?}");
        assert_eq!(kit[0], empty - forbidden as u64, "{rule:?}");
        counts.push(kit);
    }
    assert!(
        counts[0][2] < counts[2][2],
        "renju counts fewer than freestyle"
    );
}

#[test]
fn duel_perft_through_the_kit_for_several_seeds() {
    for seed in [0u64, 1, 7, 2024] {
        let mut rules = Rules::native::<Duel2048>();
        let s = rules.start(&json!({}), seed).unwrap();
        let engine = Duel::new(&duel2048::Config {
            rounds: 500,
            random: RandomSource::Seed(seed),
        })
        .unwrap();
        for d in 1..=5 {
            let want = engine_perft(&engine, d);
            assert_eq!(
                perft(&mut rules, s, d).unwrap(),
                want,
                "seed {seed} perft({d})"
            );
        }
    }
}

/// A one-round duel is over after 4 plies: the kit and the engine agree past the end too, and
/// a sequence given in the config replaces the seed's.
#[test]
fn duel_perft_past_the_end_and_with_a_given_sequence() {
    let sequence = vec![5u32, 720_719, 0];
    let config = duel2048::Config {
        rounds: 1,
        random: RandomSource::Sequence(sequence.clone()),
    };
    let engine = Duel::new(&config).unwrap();
    let mut rules = Rules::native::<Duel2048>();
    let s = rules
        .start(&json!({"rounds": 1, "random": {"sequence": sequence}}), 99)
        .unwrap();
    for d in 1..=6 {
        assert_eq!(
            perft(&mut rules, s, d).unwrap(),
            engine_perft(&engine, d),
            "depth {d}"
        );
    }
    assert_eq!(
        perft(&mut rules, s, 5).unwrap(),
        0,
        "nothing to play after round 1"
    );
    assert!(engine.ply() == 0 && perft(&mut rules, s, 4).unwrap() > 0);
}
