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
