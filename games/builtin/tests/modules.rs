//! The three games as wasm modules (games/reversi, games/gomoku, games/duel2048, built as
//! `arbiter game` builds games/ crates): perft and random playouts through `WasmKit` agree
//! with the engine, as the native build does. Skipped, saying so, where the wasm32 target is
//! not installed.

mod common;

use std::path::Path;
use std::process::Command;

use arbiter_engine::duel2048::{self, Duel, RandomSource};
use arbiter_engine::gomoku::{self, Gomoku, Point, Rule};
use arbiter_engine::reversi::{self, Reversi};
use arbiter_engine::Game as _;
use arbiter_kit_host::{build, check, perft, Rules};
use common::{
    compare_playouts, duel_probes, engine_perft, gomoku_probes, play_both, reversi_probes,
};
use serde_json::json;

/// Whether rustc has the wasm32-unknown-unknown standard library (`scripts/setup.sh` adds it).
fn wasm_target_installed() -> bool {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc).args(["--print", "sysroot"]).output();
    let Ok(out) = out else { return false };
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    Path::new(&sysroot)
        .join("lib/rustlib/wasm32-unknown-unknown/lib")
        .is_dir()
}

/// The module of `package`, loaded; `None` (and a line saying why) without the wasm32 target.
fn module(package: &str) -> Option<Rules> {
    if !wasm_target_installed() {
        eprintln!(
            "SKIPPED: the wasm32-unknown-unknown target is not installed, so {package} cannot \
             be built as a module (rustup target add wasm32-unknown-unknown)"
        );
        return None;
    }
    let path = build::game_module(package).expect("the module builds");
    Some(Rules::load(&path).expect("the module loads"))
}

#[test]
fn reversi_module_perft_and_playouts_agree_with_the_engine() {
    let Some(mut rules) = module("game-reversi") else {
        return;
    };
    assert_eq!(rules.info().name, "reversi");
    let s = rules.start(&json!({"size": 8}), 0).unwrap();
    let counts: Vec<u64> = (1..=6).map(|d| perft(&mut rules, s, d).unwrap()).collect();
    assert_eq!(counts, [4, 12, 56, 244, 1396, 8200]);
    let start = |_| Reversi::new(&reversi::Config { size: 8 }).unwrap();
    let config = json!({"size": 8});
    let done = compare_playouts(&mut rules, &config, start, reversi_probes, 3, 21);
    assert_eq!(done.finished, 3);
}

#[test]
fn gomoku_module_refuses_forbidden_points_and_agrees_with_the_engine() {
    let Some(mut rules) = module("game-gomoku") else {
        return;
    };
    let config = json!({"size": 9, "rule": "renju"});
    let s = rules.start(&config, 0).unwrap();
    let mut engine = Gomoku::new(&gomoku::Config {
        size: 9,
        rule: Rule::Renju,
    })
    .unwrap();
    let setup = ["2,4", "0,0", "3,4", "0,2", "4,2", "0,8", "4,3", "8,8"];
    play_both(&mut rules, s, &mut engine, &setup);
    let p = Point { x: 4, y: 4 };
    assert!(engine.forbidden_kind(p).is_some());
    let why = rules.play(s, &engine.format_move(p)).unwrap();
    assert_eq!(why, Err("forbidden point for black (double-three)".into()));
    for d in 1..=2 {
        assert_eq!(perft(&mut rules, s, d).unwrap(), engine_perft(&engine, d));
    }
    let view = rules.view(s).unwrap();
    assert!(view.highlights.iter().any(|h| h.at == [4, 4]));
    let start = |_| {
        Gomoku::new(&gomoku::Config {
            size: 9,
            rule: Rule::Renju,
        })
        .unwrap()
    };
    let done = compare_playouts(&mut rules, &config, start, gomoku_probes, 3, 8);
    assert_eq!(done.finished, 3);
}

#[test]
fn duel_module_perft_playouts_and_check_agree_with_the_engine() {
    let Some(mut rules) = module("game-duel2048") else {
        return;
    };
    let s = rules.start(&json!({}), 7).unwrap();
    let engine = Duel::new(&duel2048::Config {
        rounds: 500,
        random: RandomSource::Seed(7),
    })
    .unwrap();
    for d in 1..=4 {
        assert_eq!(perft(&mut rules, s, d).unwrap(), engine_perft(&engine, d));
    }
    let start = |seed| {
        let random = RandomSource::Seed(seed);
        Duel::new(&duel2048::Config { rounds: 30, random }).unwrap()
    };
    let config = json!({"rounds": 30});
    let done = compare_playouts(&mut rules, &config, start, duel_probes, 2, 4);
    assert_eq!(done.plies, 2 * 120);
    let plan = check::Plan {
        config: json!({"rounds": 20}),
        playouts: 2,
        ..Default::default()
    };
    let module = check::run(&mut rules, &plan).unwrap();
    let mut native = Rules::native::<game_builtin::Duel2048>();
    assert_eq!(
        check::run(&mut native, &plan).unwrap(),
        module,
        "module and native agree"
    );
}
