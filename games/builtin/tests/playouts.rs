//! Random playouts through the kit (`Rules::native`) in step with the engine: at every ply the
//! legal moves, the side to move, the forced ply, the scores and the outcome agree, and the
//! moves the engine refuses are refused with its words. Then the conformance suite behind
//! `arbiter game check` on each game.

mod common;

use arbiter_engine::duel2048::{self, Duel, RandomSource};
use arbiter_engine::gomoku::{self, Gomoku, Rule};
use arbiter_engine::reversi::{self, Reversi};
use arbiter_engine::Game as _;
use arbiter_kit_host::{check, Rules};
use common::{compare_playouts, duel_probes, gomoku_probes, reversi_probes};
use game_builtin::{Duel2048, Gomoku as KitGomoku, Reversi as KitReversi};
use serde_json::{json, Value};

#[test]
fn reversi_playouts_agree_with_the_engine_on_every_size() {
    for (size, playouts) in [(4u8, 20), (8, 6), (16, 2)] {
        let mut rules = Rules::native::<KitReversi>();
        let start = |_| Reversi::new(&reversi::Config { size }).unwrap();
        let config = json!({ "size": size });
        let done = compare_playouts(&mut rules, &config, start, reversi_probes, playouts, 11);
        assert_eq!(done.finished, playouts, "{size}: every playout ends");
        assert!(done.refusals > done.plies, "{size}: {done:?}");
    }
}

#[test]
fn gomoku_playouts_agree_with_the_engine_under_every_rule() {
    let mut forbidden_refused = 0;
    for rule in Rule::ALL {
        let mut rules = Rules::native::<KitGomoku>();
        let start = |_| Gomoku::new(&gomoku::Config { size: 9, rule }).unwrap();
        let config = json!({"size": 9, "rule": rule.name()});
        let done = compare_playouts(&mut rules, &config, start, gomoku_probes, 6, 5);
        assert_eq!(done.finished, 6, "{rule:?}");
        if rule.is_renju() {
            // Each ply probes the last stone; the rest were black's forbidden points.
            forbidden_refused += done.refusals - done.plies;
        }
    }
    assert!(forbidden_refused > 0, "the playouts met forbidden points");
}

#[test]
fn duel_playouts_agree_with_the_engine_for_several_seeds() {
    let mut rules = Rules::native::<Duel2048>();
    let rounds = 60;
    let start = |seed| {
        let random = RandomSource::Seed(seed);
        Duel::new(&duel2048::Config { rounds, random }).unwrap()
    };
    let config = json!({ "rounds": rounds });
    let done = compare_playouts(&mut rules, &config, start, duel_probes, 4, 3);
    assert_eq!(done.plies, 4 * 4 * u64::from(rounds), "every step is a ply");
    assert_eq!(done.finished, 4);
}

fn passes_the_check(rules: &mut Rules, config: Value, playouts: u32) -> check::Summary {
    let plan = check::Plan {
        config: config.clone(),
        playouts,
        ..Default::default()
    };
    let sum = check::run(rules, &plan).unwrap_or_else(|e| panic!("{config}: {e}"));
    assert_eq!(sum.playouts, playouts);
    assert_eq!(sum.wins[0] + sum.wins[1] + sum.draws, playouts);
    sum
}

#[test]
fn every_game_passes_the_conformance_check() {
    let mut reversi = Rules::native::<KitReversi>();
    for size in [4, 8, 16] {
        passes_the_check(&mut reversi, json!({ "size": size }), 3);
    }
    let mut gomoku = Rules::native::<KitGomoku>();
    for rule in Rule::ALL {
        passes_the_check(&mut gomoku, json!({"size": 9, "rule": rule.name()}), 2);
    }
    let mut duel = Rules::native::<Duel2048>();
    let sum = passes_the_check(&mut duel, json!({"rounds": 40}), 2);
    assert_eq!(sum.longest, 160);
}

#[test]
fn bad_configs_are_refused_through_the_kit() {
    let mut rules = Rules::native::<KitReversi>();
    let e = rules.start(&json!({"size": 7}), 0).unwrap_err();
    assert!(e.to_string().contains("even number from 4 to 16"), "{e}");
    let mut rules = Rules::native::<KitGomoku>();
    let e = rules.start(&json!({"rule": "go"}), 0).unwrap_err();
    assert!(e.to_string().contains("bad gomoku config"), "{e}");
    let mut rules = Rules::native::<Duel2048>();
    let short = json!({"rounds": 3, "random": {"sequence": [1, 2]}});
    let e = rules.start(&short, 0).unwrap_err();
    assert!(e.to_string().contains("2 values but 3 rounds"), "{e}");
}
