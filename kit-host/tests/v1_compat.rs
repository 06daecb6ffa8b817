//! Modules built for version 1 of the ABI (two seats, one mover, `winner`) keep loading and
//! playing unchanged: the same games, built before version 2 (tests/fixtures/kit-v1, gzipped
//! from commit 47003ce) and now, answer alike: their info, perft counts, conformance checks and
//! every position of random games.

use std::io::Read;

use arbiter_kit_host::{build, check, perft, Bounds, Rules, State, WasmKit};
use serde_json::{json, Value};

/// The fixture's module (as built for version 1) and the same game's current build.
fn both(file: &str, package: &str) -> (Rules, Rules) {
    let path = build::workspace_root().join(format!("tests/fixtures/kit-v1/{file}.wasm.gz"));
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).expect("fixture is there"))
        .read_to_end(&mut bytes)
        .expect("fixture unpacks");
    let old = WasmKit::load(&bytes, &format!("{file}-v1.wasm"), Bounds::default()).unwrap();
    let old = Rules::new(Box::new(old)).expect("a version 1 module loads");
    let new = Rules::load(&build::game_module(package).expect("module builds")).unwrap();
    (old, new)
}

/// The proof games and the built-in games as modules, each with a config and a perft depth
/// that takes well under a second through wasmi.
const GAMES: [(&str, &str, &str, u32); 9] = [
    ("game_connect_four", "game-connect-four", "{}", 4),
    ("game_amazons", "game-amazons", "{}", 1),
    ("game_connect6", "game-connect6", r#"{"size": 9}"#, 2),
    (
        "game_dots_and_boxes",
        "game-dots-and-boxes",
        r#"{"cols": 3, "rows": 3}"#,
        3,
    ),
    ("game_einstein", "game-einstein", "{}", 4),
    ("game_hex", "game-hex", r#"{"size": 5, "swap": true}"#, 3),
    ("game_reversi", "game-reversi", r#"{"size": 8}"#, 4),
    (
        "game_gomoku",
        "game-gomoku",
        r#"{"size": 7, "rule": "renju"}"#,
        2,
    ),
    ("game_duel2048", "game-duel2048", r#"{"rounds": 20}"#, 3),
];

#[test]
fn version_one_modules_answer_as_their_version_two_builds() {
    for (file, package, config, depth) in GAMES {
        let (mut old, mut new) = both(file, package);
        let config: Value = serde_json::from_str(config).unwrap();
        assert_eq!(old.info().abi, 1, "{file}");
        assert_eq!(new.info().abi, 2, "{file}");
        assert_eq!(
            (&old.info().name, &old.info().version, &old.info().seats),
            (&new.info().name, &new.info().version, &new.info().seats),
            "{file}"
        );
        for seed in [0, 7] {
            let (a, b) = (
                old.start(&config, seed).unwrap(),
                new.start(&config, seed).unwrap(),
            );
            assert_eq!(
                perft(&mut old, a, depth).unwrap(),
                perft(&mut new, b, depth).unwrap(),
                "{file} perft({depth}) seed {seed}"
            );
        }
        let plan = check::Plan {
            config: config.clone(),
            playouts: 4,
            ..Default::default()
        };
        let (so, sn) = (
            check::run(&mut old, &plan).unwrap(),
            check::run(&mut new, &plan).unwrap(),
        );
        assert_eq!(
            (so.playouts, so.plies, &so.wins, so.draws, so.longest),
            (sn.playouts, sn.plies, &sn.wins, sn.draws, sn.longest),
            "{file}: the conformance check plays the same games"
        );
        for seed in 0..3 {
            same_random_game(&mut old, &mut new, &config, seed, file);
        }
    }
}

/// A random game played in both, compared at every ply: status, legal moves, what each seat
/// is told and the view.
fn same_random_game(old: &mut Rules, new: &mut Rules, config: &Value, seed: u64, file: &str) {
    let (a, b) = (
        old.start(config, seed).unwrap(),
        new.start(config, seed).unwrap(),
    );
    let mut rng = check::Rng::new(seed + 100);
    for ply in 0.. {
        let (sa, sb) = (old.status(a).unwrap(), new.status(b).unwrap());
        assert_eq!(sa, sb, "{file} seed {seed} ply {ply}: status");
        for seat in 0..2 {
            assert_eq!(
                old.tell(a, seat).unwrap(),
                new.tell(b, seat).unwrap(),
                "{file} seed {seed} ply {ply}: told to seat {seat}"
            );
        }
        assert_eq!(old.view(a).unwrap(), new.view(b).unwrap(), "{file}: view");
        if sa.movers.is_empty() {
            break;
        }
        let legal = old.legal(a).unwrap();
        assert_eq!(
            legal,
            new.legal(b).unwrap(),
            "{file} seed {seed} ply {ply}: legal"
        );
        let mv = &legal[rng.below(legal.len())];
        old.play(a, mv).unwrap().unwrap();
        new.play(b, mv).unwrap().unwrap();
    }
    release(old, a);
    release(new, b);
}

fn release(rules: &mut Rules, s: State) {
    rules.release(s).unwrap();
}

#[test]
fn a_version_one_module_plays_with_players_two_and_refuses_other_counts() {
    let (mut old, _) = both("game_connect_four", "game-connect-four");
    assert!(old.start(&json!({"players": 2}), 0).is_ok());
    let e = old
        .start(&json!({"players": 3}), 0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("players must be 2"), "{e}");
    // A version 1 module reveals every move and cannot retire a seat.
    let s = old.start(&json!({}), 0).unwrap();
    let told = old.reveal(s, &[(0, "d".into())], Some(1)).unwrap();
    assert_eq!(told, [Some("d".to_string())]);
    assert!(!old.retire(s, 0).unwrap());
}

#[test]
fn the_version_one_broken_module_fails_where_its_version_two_build_does() {
    for mode in ["trap", "loop", "liar", "long"] {
        let (mut old, mut new) = both("game_broken", "game-broken");
        let config = json!({"fail": mode, "at": 2});
        let run = |r: &mut Rules| {
            let s = r.start(&config, 0).unwrap();
            (0..4)
                .map(|_| r.legal(s).and_then(|l| r.play(s, &l[0])).map(|p| p.is_ok()))
                .map(|step| step.map_err(|e| e.to_string().replace("-v1.wasm", ".wasm")))
                .collect::<Vec<_>>()
        };
        let (o, n) = (run(&mut old), run(&mut new));
        assert_eq!(o.len(), n.len());
        for (x, y) in o.iter().zip(&n) {
            assert_eq!(x.is_ok(), y.is_ok(), "{mode}: {x:?} vs {y:?}");
        }
    }
}
