//! Real game modules through the wasm runtime: perft and conformance match the native build.

use arbiter_kit_host::{build, check, perft, Rules};
use serde_json::json;

fn connect_four() -> Rules {
    let path = build::game_module("game-connect-four").expect("module builds");
    Rules::load(&path).expect("module loads")
}

#[test]
fn connect_four_perft_through_the_module() {
    let mut rules = connect_four();
    assert_eq!(rules.info().name, "connect-four");
    let s = rules.start(&json!({}), 0).unwrap();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&mut rules, s, d).unwrap()).collect();
    assert_eq!(counts, [7, 49, 343, 2401, 16807]);
}

#[test]
fn connect_four_passes_the_conformance_check() {
    let mut rules = connect_four();
    let plan = check::Plan {
        playouts: 10,
        ..Default::default()
    };
    let sum = check::run(&mut rules, &plan).unwrap();
    assert_eq!(sum.playouts, 10);
    assert_eq!(sum.wins[0] + sum.wins[1] + sum.draws, 10);
    let mut native = Rules::native::<game_connect_four::ConnectFour>();
    assert_eq!(
        check::run(&mut native, &plan).unwrap(),
        sum,
        "module and native agree"
    );
}

#[test]
fn illegal_moves_and_bad_configs_are_answers_not_errors() {
    let mut rules = connect_four();
    let s = rules.start(&json!({"cols": 4, "rows": 4}), 0).unwrap();
    for _ in 0..4 {
        rules.play(s, "a").unwrap().unwrap();
    }
    assert_eq!(rules.play(s, "a").unwrap(), Err("column a is full".into()));
    let e = rules.start(&json!({"cols": 99}), 0).unwrap_err();
    assert!(e.to_string().contains("cols must be"), "{e}");
    // The module still answers after a refused request.
    assert_eq!(rules.legal(s).unwrap(), ["b", "c", "d"]);
}

fn module(package: &str) -> Rules {
    let path = build::game_module(package).expect("module builds");
    Rules::load(&path).expect("module loads")
}

#[test]
fn amazons_perft_through_the_module_matches_the_published_counts() {
    let mut rules = module("game-amazons");
    let s = rules.start(&json!({}), 0).unwrap();
    assert_eq!(perft(&mut rules, s, 1).unwrap(), 2_176);
    // Depth 2 lists 4.3 million moves through the module: seconds in a release build.
    if cfg!(not(debug_assertions)) {
        assert_eq!(perft(&mut rules, s, 2).unwrap(), 4_307_152);
    }
}

#[test]
fn every_proof_game_passes_the_conformance_check_as_a_module() {
    for (package, config) in [
        ("game-amazons", json!({})),
        ("game-connect6", json!({"size": 9})),
        ("game-dots-and-boxes", json!({"cols": 3, "rows": 3})),
        ("game-einstein", json!({})),
        ("game-einstein", json!({"arrangement": "seed"})),
        ("game-hex", json!({"swap": true})),
    ] {
        let mut rules = module(package);
        let plan = check::Plan {
            playouts: 3,
            config,
            ..Default::default()
        };
        let sum = check::run(&mut rules, &plan).unwrap_or_else(|e| panic!("{package}: {e}"));
        assert_eq!(sum.playouts, 3, "{package}");
    }
}

#[test]
fn dots_and_boxes_perft_through_the_module() {
    let mut rules = module("game-dots-and-boxes");
    let s = rules.start(&json!({"cols": 2, "rows": 2}), 0).unwrap();
    // 12 edges: no box can close before the fourth edge.
    assert_eq!(perft(&mut rules, s, 3).unwrap(), 12 * 11 * 10);
}

#[test]
fn a_new_game_crate_builds_into_a_module_that_passes_the_check() {
    let dir = std::env::temp_dir().join(format!("kit-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let kit = arbiter_kit_host::template::default_kit_path();
    let root = arbiter_kit_host::template::write(&dir, "take-away", &kit).unwrap();
    let target = build::workspace_root().join("target").join("kit-wasm");
    let path = build::crate_module(&root, "take-away", &target).expect("the new crate builds");
    let mut rules = Rules::load(&path).unwrap();
    assert_eq!(rules.info().name, "take-away");
    let sum = check::run(&mut rules, &check::Plan::default()).unwrap();
    assert_eq!(sum.playouts, 20);
    let s = rules.start(&json!({}), 0).unwrap();
    assert_eq!(perft(&mut rules, s, 3).unwrap(), 27);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn einstein_perft_through_the_module_matches_the_native_count() {
    let mut rules = module("game-einstein");
    // The die comes from the seed: seed 0 rolls 2, 1, 2, 5, 2, 1, ...
    let s = rules.start(&json!({}), 0).unwrap();
    let counts: Vec<u64> = (1..=6).map(|d| perft(&mut rules, s, d).unwrap()).collect();
    assert_eq!(counts, [3, 9, 27, 108, 354, 1062]);
    let s = rules.start(&json!({}), 1).unwrap();
    assert_eq!(perft(&mut rules, s, 6).unwrap(), 1296);
}

#[test]
fn the_clicks_request_lists_every_legal_move_or_says_there_are_none() {
    use arbiter_kit_host::{Kit, NativeKit};
    let mut kit = NativeKit::<game_connect_four::ConnectFour>::default();
    let s = &kit
        .call(&json!({"op": "new", "config": {"cols": 4, "rows": 4}}))
        .unwrap()["ok"]["state"];
    kit.call(&json!({"op": "play", "state": s, "move": "b"}))
        .unwrap();
    let clicks = kit.call(&json!({"op": "clicks", "state": s})).unwrap();
    // b is taken at the bottom: its disc lands one row higher (rows count from the top).
    assert_eq!(
        clicks["ok"],
        json!([
            {"move": "a", "cells": [[0, 3]]},
            {"move": "b", "cells": [[1, 2]]},
            {"move": "c", "cells": [[2, 3]]},
            {"move": "d", "cells": [[3, 3]]},
        ])
    );
    let none = kit.call(&json!({"op": "clicks", "state": 99})).unwrap();
    assert_eq!(none["error"], "no state 99");
}

/// The `playout` request plays a copy to its end inside the module, deterministically by its
/// seed, and leaves the state where its answer says.
#[test]
fn a_playout_inside_the_module_ends_the_game_where_its_answer_says() {
    for package in [
        "game-connect-four",
        "game-hex",
        "game-dots-and-boxes",
        "game-einstein",
    ] {
        let mut rules = module(package);
        let s = rules.start(&json!({}), 3).unwrap();
        let mut ends = std::collections::BTreeSet::new();
        for seed in 0..10 {
            let copy = rules.duplicate(s).unwrap();
            let (plies, status) = rules
                .playout(copy, seed)
                .unwrap()
                .expect("the Rust kit answers playout");
            assert!(
                status.outcome.is_some() && status.to_move().is_none() && plies > 0,
                "{package}: {plies} plies, {status:?}"
            );
            assert_eq!(rules.status(copy).unwrap(), status, "{package}");
            assert!(rules.legal(copy).unwrap().is_empty(), "{package}");
            let again = rules.duplicate(s).unwrap();
            assert_eq!(
                rules.playout(again, seed).unwrap(),
                Some((plies, status.clone())),
                "{package}: the same seed, the same playout"
            );
            ends.insert(format!("{plies} {:?}", status.scores));
            rules.release(copy).unwrap();
            rules.release(again).unwrap();
        }
        assert!(ends.len() > 1, "{package}: the seeds play different games");
        // The position the copies came from is untouched.
        assert_eq!(rules.status(s).unwrap().to_move(), Some(0), "{package}");
    }
}

/// A module without `playout` (an older kit's, or one in C) refuses it; the host then says it
/// has none rather than failing.
#[test]
fn a_module_without_playout_is_none_not_an_error() {
    use arbiter_kit_host::{Kit, KitError, NativeKit};
    struct Older(NativeKit<game_connect_four::ConnectFour>);
    impl Kit for Older {
        fn label(&self) -> &str {
            "older"
        }
        fn call(&mut self, request: &serde_json::Value) -> Result<serde_json::Value, KitError> {
            if request["op"] == "playout" {
                return Ok(json!({"error": "unknown op \"playout\""}));
            }
            self.0.call(request)
        }
    }
    let mut rules = Rules::new(Box::new(Older(NativeKit::default()))).unwrap();
    let s = rules.start(&json!({}), 0).unwrap();
    assert_eq!(rules.playout(s, 1).unwrap(), None);
    // And it still plays.
    rules.play(s, "d").unwrap().unwrap();
    assert_eq!(rules.status(s).unwrap().to_move(), Some(1));
}
