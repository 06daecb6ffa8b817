//! The engine's module host: module games as `AnyGame::Module`, found by sha256, copied
//! independently, and carried inside replays.

use arbiter_engine::module::{ModuleConfig, ModuleRef};
use arbiter_engine::replay::{Player, Replay};
use arbiter_engine::{AnyGame, GameConfig, Seat};
use arbiter_kit_host::{build, host};

fn connect_four() -> ModuleRef {
    let path = build::game_module("game-connect-four").expect("module builds");
    host::install();
    host::register_file(&path).expect("module registers")
}

fn game(module: ModuleRef, config: &str) -> GameConfig {
    GameConfig::Module(ModuleConfig {
        module,
        config: config.into(),
        seed: 1,
    })
}

#[test]
fn a_module_game_plays_like_a_built_in_one() {
    let m = connect_four();
    assert_eq!(m.name, "connect-four");
    assert_eq!(m.sha256.len(), 64);
    let config = game(m, "{}");
    let mut g = AnyGame::new(&config).unwrap();
    assert_eq!(g.to_move(), Some(Seat::FIRST));
    assert_eq!(g.legal_moves().len(), 7);
    g.play_text("d").unwrap();
    assert_eq!(g.to_move(), Some(Seat::SECOND));
    let copy = g.clone();
    for mv in ["c", "d", "c", "d", "c"] {
        g.play_text(mv).unwrap();
    }
    assert!(
        g.outcome().is_none(),
        "d has only three of the first seat's discs"
    );
    g.play_text("d").unwrap();
    let o = g.outcome().expect("four in a column");
    assert_eq!(o.winner, Some(Seat::FIRST));
    assert!(g.end_words().is_some_and(|w| !w.is_empty()));
    // The copy made after one ply is untouched by the moves played since.
    assert_eq!(copy.ply(), 1);
    assert_eq!(copy.legal_moves().len(), 7);
    // A refused move is the module's words, and the position stays as it was.
    let mut full = AnyGame::new(&config).unwrap();
    for _ in 0..6 {
        full.play_text("a").unwrap();
    }
    let e = full.play_text("a").unwrap_err().to_string();
    assert!(e.contains("illegal move"), "{e}");
    assert_eq!(full.ply(), 6);
    assert!(full
        .play_text("this move is far too long for a module move")
        .is_err());
    // The view is the module's JSON, and the config reached the module.
    let view: serde_json::Value =
        serde_json::from_str(&full.as_module().unwrap().view(arbiter_engine::Viewer::All)).unwrap();
    assert_eq!(view["board"]["cols"], 7);
    let wide = AnyGame::new(&game(config_module(&config), r#"{"cols": 9, "rows": 7}"#)).unwrap();
    assert_eq!(wide.legal_moves().len(), 9);
    // Its clicks as the live hub sends them: the module's list, each move with `cells` and
    // no `line` key (a null one made the player list the moves instead of offering clicks).
    let text = wide
        .as_module()
        .unwrap()
        .clicks(Seat::FIRST)
        .expect("clicks");
    let clicks: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(clicks.len(), 9);
    for c in &clicks {
        let keys: Vec<&String> = c.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["cells", "move"], "{c}");
    }
}

fn config_module(c: &GameConfig) -> ModuleRef {
    c.as_module().unwrap().module.clone()
}

#[test]
fn unknown_modules_and_refused_configs_are_clear_errors() {
    let mut m = connect_four();
    let e = AnyGame::new(&game(m.clone(), r#"{"cols": 99}"#)).unwrap_err();
    assert!(
        e.message.contains("refuses the configuration"),
        "{}",
        e.message
    );
    m.sha256 = "0".repeat(64);
    let e = AnyGame::new(&game(m, "{}")).unwrap_err();
    assert!(e.message.contains("not loaded here"), "{}", e.message);
}

#[test]
fn a_replay_carries_its_module_and_it_is_checked() {
    let m = connect_four();
    let mut r = Replay::new(
        game(m, "{}"),
        [Seat::FIRST, Seat::SECOND].map(|seat| Player {
            name: format!("p{}", seat.index()),
            seat,
            command: None,
        }),
    );
    host::embed_module(&mut r);
    let text = r.module_wasm.clone().expect("embedded");
    assert!(host::load_embedded(&r).is_ok());
    let json = r.to_json();
    let back = Replay::from_json(&json).unwrap();
    assert_eq!(back.game, r.game);
    assert_eq!(back.module_wasm.as_deref(), Some(text.as_str()));
    // Another module under this one's name and hash is refused. (Only an unregistered hash
    // is checked: use one the process does not know.)
    let mut forged = back.clone();
    if let GameConfig::Module(c) = &mut forged.game {
        c.module.sha256 = "f".repeat(64);
    }
    let e = host::load_embedded(&forged).unwrap_err().to_string();
    assert!(e.contains("not the one its game names"), "{e}");
    forged.module_wasm = Some("not base64!".into());
    let e = host::load_embedded(&forged).unwrap_err().to_string();
    assert!(e.contains("not base64"), "{e}");
    forged.module_wasm = None;
    let e = host::load_embedded(&forged).unwrap_err().to_string();
    assert!(e.contains("does not carry it"), "{e}");
}

/// `AnyGame::random_playout` lets the module play a copy to its end: the copy's ply count
/// and outcome follow, the game it was copied from does not move.
#[test]
fn a_module_game_plays_a_random_playout_by_itself() {
    let config = game(connect_four(), "{}");
    let mut g = AnyGame::new(&config).unwrap();
    g.play_text("d").unwrap();
    let mut ends = [0; 3];
    for seed in 0..20 {
        let mut copy = g.reseeded(seed);
        copy.random_playout(seed);
        let o = copy.outcome().expect("played to the end");
        assert!(copy.to_move().is_none() && copy.fault().is_none());
        assert!(copy.ply() > 1 && copy.ply() <= 42, "{}", copy.ply());
        ends[o.winner.map_or(2, |w| w.index())] += 1;
    }
    assert!(
        ends[0] > 0 && ends[1] > 0,
        "random playouts end both ways: {ends:?}"
    );
    assert_eq!((g.ply(), g.to_move()), (1, Some(Seat::SECOND)));
    // A game already over is left as it is.
    let mut over = g.reseeded(1);
    over.random_playout(1);
    let ply = over.ply();
    over.random_playout(2);
    assert_eq!(over.ply(), ply);
}
