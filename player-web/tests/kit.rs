//! Game modules in the player, natively: the player's own module host (`kit::game`) over a
//! runner that stands in for the browser's (`www/kit.js`, tested in node and Chromium by
//! tests/web/kit-*.test.mjs): the module run by wasmi, bounded by wasmi's fuel and a memory
//! limit in place of the page's meter. Compared with the referee's host (kit-host) and the
//! game kit's own view as text.

use std::sync::{Mutex, Once};

use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::module::{ModuleConfig, ModuleRef};
use arbiter_engine::replay::{MoveRecord, Player, Reason, Replay};
use arbiter_engine::Seat;
use arbiter_kit_host::{build, sha256_hex, Rules};
use arbiter_player::kit::clicks::{self, Click, Clicker, Spot};
use arbiter_player::kit::game::{check_info, Host, Runner};
use arbiter_player::session::Session;
use serde_json::{json, Value};
use wasmi::core::TrapCode;
use wasmi::{
    Config, Engine, Linker, Memory, Module, Store, StoreLimits, StoreLimitsBuilder, TypedFunc,
};

/// Fuel per call (about one unit a wasm instruction): the referee's for the proof games;
/// less for the broken ones, which a debug build's wasmi runs slowly.
const GAME_FUEL: u64 = 2_000_000_000;
const BROKEN_FUEL: u64 = 20_000_000;

struct Instance {
    sha: String,
    label: String,
    store: Store<StoreLimits>,
    memory: Memory,
    alloc: TypedFunc<u32, u32>,
    free: TypedFunc<(u32, u32), ()>,
    call: TypedFunc<(u32, u32), u64>,
    fuel: u64,
    fault: Option<String>,
}

struct Wasmi(Mutex<Vec<Instance>>);

static RUNNER: Wasmi = Wasmi(Mutex::new(Vec::new()));
static HOST: Host = Host(&RUNNER);

impl Instance {
    fn exchange(&mut self, request: &str) -> Result<String, String> {
        self.store.set_fuel(self.fuel).map_err(|e| e.to_string())?;
        let len = request.len() as u32;
        let ptr = self.alloc.call(&mut self.store, len).map_err(trap)?;
        self.memory
            .write(&mut self.store, ptr as usize, request.as_bytes())
            .map_err(|_| "allocated outside its memory".to_string())?;
        let packed = self.call.call(&mut self.store, (ptr, len)).map_err(trap)?;
        let mut answer = vec![0; (packed & 0xffff_ffff) as usize];
        self.memory
            .read(&self.store, (packed >> 32) as usize, &mut answer)
            .map_err(|_| "answered outside its memory".to_string())?;
        self.free.call(&mut self.store, (ptr, len)).map_err(trap)?;
        String::from_utf8(answer).map_err(|_| "answered text that is not UTF-8".to_string())
    }
}

/// As the browser's runner says it.
fn trap(e: wasmi::Error) -> String {
    match e.as_trap_code() {
        Some(TrapCode::OutOfFuel) => {
            "ran out of fuel (an endless loop, or far too much work for one call)".into()
        }
        _ => format!("trapped: {e}"),
    }
}

impl Runner for Wasmi {
    fn find(&self, sha256: &str) -> Option<u32> {
        let all = self.0.lock().unwrap();
        all.iter().rposition(|m| m.sha == sha256).map(|i| i as u32)
    }

    fn call(&self, id: u32, request: &str) -> Result<String, String> {
        let mut all = self.0.lock().unwrap();
        let m = &mut all[id as usize];
        if let Some(f) = &m.fault {
            return Err(f.clone());
        }
        m.exchange(request).map_err(|what| {
            let f = format!("game module {} {what}", m.label);
            m.fault = Some(f.clone());
            f
        })
    }

    fn fail(&self, id: u32, what: String) {
        let mut all = self.0.lock().unwrap();
        let m = &mut all[id as usize];
        m.fault
            .get_or_insert_with(|| format!("game module {} {what}", m.label));
    }

    fn fault(&self, id: u32) -> Option<String> {
        self.0.lock().unwrap()[id as usize].fault.clone()
    }
}

/// Starts and checks a module as `prepare` does in the browser; its reference.
fn load(bytes: &[u8], name: &str) -> Result<ModuleRef, String> {
    let fuel = if name.starts_with("game-") {
        GAME_FUEL
    } else {
        BROKEN_FUEL
    };
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        arbiter_engine::module::install_host(&HOST);
    });
    let label = format!("{name}.wasm");
    let mut config = Config::default();
    config.consume_fuel(true);
    let engine = Engine::new(&config);
    let module = Module::new(&engine, bytes).map_err(|e| e.to_string())?;
    let limits = StoreLimitsBuilder::new().memory_size(64 << 20).build();
    let mut store = Store::new(&engine, limits);
    store.limiter(|l| l);
    store.set_fuel(fuel).map_err(|e| e.to_string())?;
    let instance = Linker::new(&engine)
        .instantiate(&mut store, &module)
        .and_then(|pre| pre.start(&mut store))
        .map_err(|e| format!("game module {label} cannot start: {e}"))?;
    let f = |n: &str| format!("game module {label} lacks {n}");
    let inst = Instance {
        sha: sha256_hex(bytes),
        label: label.clone(),
        memory: instance
            .get_memory(&store, "memory")
            .ok_or_else(|| f("memory"))?,
        alloc: instance
            .get_typed_func(&store, "arbiter_alloc")
            .map_err(|_| f("alloc"))?,
        free: instance
            .get_typed_func(&store, "arbiter_free")
            .map_err(|_| f("free"))?,
        call: instance
            .get_typed_func(&store, "arbiter_call")
            .map_err(|_| f("call"))?,
        store,
        fuel,
        fault: None,
    };
    let reference = ModuleRef {
        name: name.to_string(),
        version: "1".into(),
        sha256: inst.sha.clone(),
    };
    let id = {
        let mut all = RUNNER.0.lock().unwrap();
        all.push(inst);
        all.len() as u32 - 1
    };
    check_info(&RUNNER, id)?;
    Ok(reference)
}

fn game_bytes(package: &str) -> Vec<u8> {
    std::fs::read(build::game_module(package).expect("the module builds")).unwrap()
}

fn config(module: ModuleRef, config: Value) -> GameConfig {
    GameConfig::Module(ModuleConfig {
        module,
        config: config.to_string(),
        seed: 5,
    })
}

/// A game of pseudo-random legal moves, through the player's host, as the referee saves it.
fn played(config: &GameConfig, max: usize) -> Replay {
    let players = [Seat::FIRST, Seat::SECOND].map(|seat| Player {
        name: format!("p{}", seat.index()),
        seat,
        command: None,
    });
    let mut r = Replay::new(config.clone(), players);
    let mut g = AnyGame::new(config).unwrap();
    let mut i = 3usize;
    while let (Some(seat), true) = (g.to_move(), r.moves.len() < max) {
        let legal = g.legal_moves();
        i = i.wrapping_mul(31).wrapping_add(7);
        let mv = legal[i % legal.len()];
        r.moves.push(MoveRecord::new(seat, g.format_move(mv)));
        g.play(mv).unwrap();
    }
    match g.outcome() {
        Some(o) => {
            r.result.winner = o.winner;
            r.result.reason = Reason::Normal;
            r.meta.ending = g.end_words();
        }
        None => {
            let seat = g.to_move().unwrap();
            r.result.winner = Some(seat.other());
            r.result.reason = Reason::MoveTime {
                seat,
                limit_ms: 1000,
            };
        }
    }
    r
}

/// Every proof game run through the player's host answers as through the referee's: the
/// same legal moves, and every frame's board text is the game kit's own text of the
/// referee's view.
#[test]
fn proof_games_play_and_draw_as_the_referee_sees_them() {
    for (package, cfg, max) in [
        ("game-connect-four", json!({}), 60),
        ("game-amazons", json!({}), 12),
        ("game-connect6", json!({"size": 9}), 90),
        ("game-dots-and-boxes", json!({"cols": 2, "rows": 2}), 60),
        ("game-einstein", json!({}), 60),
        ("game-hex", json!({"size": 7, "swap": true}), 60),
    ] {
        let bytes = game_bytes(package);
        let module = load(&bytes, package).unwrap();
        let config = config(module, cfg.clone());
        let replay = played(&config, max);
        let session = Session::load(&replay.to_json()).unwrap_or_else(|e| panic!("{e:?}"));
        let mut rules = Rules::new(Box::new(
            arbiter_kit_host::WasmKit::load(&bytes, package, Default::default()).unwrap(),
        ))
        .unwrap();
        let s = rules.start(&cfg, 5).unwrap();
        for k in 0..session.frame_count() {
            if k > 0 {
                rules.play(s, &replay.moves[k - 1].mv).unwrap().unwrap();
            }
            let frame = session.frame(k).unwrap();
            let want = rules.view(s).unwrap().text_lines();
            assert_eq!(frame.board, want, "{package} frame {k}");
            let g = session.position(k).unwrap();
            let mine: Vec<String> = g.legal_moves().iter().map(|m| g.format_move(*m)).collect();
            assert_eq!(mine, rules.legal(s).unwrap(), "{package} frame {k}");
        }
        assert!(session.fault().is_none());
        let last = session.frame(session.frame_count() - 1).unwrap();
        if let Some(words) = &replay.meta.ending {
            assert!(last.status.contains(words.as_str()), "{}", last.status);
            assert_eq!(&session.info().result_text, words);
        }
        assert!(
            last.module.is_some(),
            "{package}: the view is kept for drawing"
        );
    }
}

/// A WAT data segment holding `text` at `at`.
fn data(at: u32, text: &str) -> String {
    format!(r#"(data (i32.const {at}) "{}")"#, text.replace('"', "\\\""))
}

/// The packed answer of `len` bytes at `at`.
fn answer(at: u64, len: usize) -> u64 {
    (at << 32) | len as u64
}

/// Returns the answer at `at` (`len` bytes) when the request's op begins with `letter`
/// (every request the player writes begins `{"op":"`).
fn when(letter: char, at: u64, len: usize) -> String {
    format!(
        "(if (i32.eq (i32.load8_u (i32.add (local.get 0) (i32.const 7))) (i32.const {})) \
         (then (return (i64.const {}))))",
        letter as u32,
        answer(at, len)
    )
}

const INFO: &str = r#"{"ok":{"name":"b","version":"1","seats":2,"abi":1}}"#;
const NEW: &str = r#"{"ok":{"state":1}}"#;
const STATUS: &str = r#"{"ok":{"to_move":0,"forced":null,"scores":[0,0],"outcome":null}}"#;

/// A module with the ABI's exports whose `arbiter_call` body is `call_body` (after `info`,
/// which it answers, so that it loads).
fn broken(call_body: &str, extra: &str) -> Vec<u8> {
    let text = format!(
        r#"(module
          (memory (export "memory") 1)
          (global $next (mut i32) (i32.const 4096))
          {info_data}
          (func (export "arbiter_abi_version") (result i32) i32.const 1)
          (func (export "arbiter_alloc") (param i32) (result i32)
            global.get $next
            global.get $next local.get 0 i32.add global.set $next)
          (func (export "arbiter_free") (param i32 i32))
          (func (export "arbiter_call") (param i32 i32) (result i64)
            {info}
            {call_body})
          {extra})"#,
        info_data = data(64, INFO),
        info = when('i', 64, INFO.len()),
    );
    wat::parse_str(text).expect("test module assembles")
}

/// What opening a game of a broken module says.
fn open_error(bytes: &[u8], name: &str) -> String {
    let module = load(bytes, name).unwrap();
    let e = AnyGame::new(&config(module, json!({}))).expect_err("refused");
    assert!(e.message.contains(&format!("{name}.wasm")), "{}", e.message);
    e.message
}

/// The runner's failure (an endless loop here) ends the game as the module's, named, and
/// the module is not asked again.
#[test]
fn a_runner_failure_is_the_module_s_named_and_final() {
    let e = open_error(&broken("(loop (br 0)) unreachable", ""), "loops");
    assert!(e.contains("ran out of fuel"), "{e}");
    let e = open_error(&broken("unreachable", ""), "panics");
    assert!(e.contains("trapped"), "{e}");
    let again = AnyGame::new(&config(load_known("panics"), json!({}))).unwrap_err();
    assert_eq!(
        again.message, e,
        "a failed module fails the same way, uncalled"
    );
}

/// The reference of a module loaded already.
fn load_known(name: &str) -> ModuleRef {
    let all = RUNNER.0.lock().unwrap();
    let m = all
        .iter()
        .rev()
        .find(|m| m.label == format!("{name}.wasm"))
        .unwrap();
    ModuleRef {
        name: name.to_string(),
        version: "1".into(),
        sha256: m.sha.clone(),
    }
}

#[test]
fn garbage_answers_are_the_module_s_failure_named() {
    let xyz = broken(&format!("i64.const {}", answer(16, 3)), &data(16, "xyz"));
    let e = open_error(&xyz, "liar");
    assert!(e.contains("not JSON"), "{e}");
    // A view with a piece off the board.
    let view = r#"{"ok":{"board":{"grid":"cells","cols":3,"rows":3},"pieces":[{"at":[7,0],"shape":"disc","seat":0}]}}"#;
    let body = format!(
        "{} {} {} i64.const 0",
        when('n', 200, NEW.len()),
        when('s', 300, STATUS.len()),
        when('v', 600, view.len())
    );
    let extra = format!(
        "{} {} {}",
        data(200, NEW),
        data(300, STATUS),
        data(600, view)
    );
    let module = load(&broken(&body, &extra), "offboard").unwrap();
    let g = AnyGame::new(&config(module, json!({}))).unwrap();
    let view = g.as_module().unwrap().view(arbiter_engine::Viewer::All);
    assert_eq!(view, "", "an undrawable view is not passed on");
    let fault = g.fault().unwrap();
    assert!(
        fault.contains("offboard.wasm") && fault.contains("cannot be drawn"),
        "{fault}"
    );
    assert_eq!(g.to_move(), None, "a failed module's game goes no further");
}

/// Amazons' queen, target and arrow: after each click only the places that continue a
/// legal move are offered, and the move is complete at the third.
#[test]
fn an_amazons_move_is_built_in_three_clicks() {
    let module = load(&game_bytes("game-amazons"), "game-amazons").unwrap();
    let g = AnyGame::new(&config(module, json!({}))).unwrap();
    let answer: Value = serde_json::from_str(
        &g.as_module()
            .unwrap()
            .clicks(g.to_move().unwrap_or(arbiter_engine::Seat::FIRST))
            .unwrap(),
    )
    .unwrap();
    let entries = clicks::read(&answer).unwrap();
    assert_eq!(entries.len(), 2176);
    let mut c = Clicker::new(entries);
    // First's queens: a4 d1 g1 j4 (row 0 at the top of ten).
    let mut queens = c.next();
    queens.sort_by_key(|s| format!("{s:?}"));
    let want = [[0, 6], [3, 9], [6, 9], [9, 6]].map(Spot::Cell);
    assert_eq!(queens.len(), 4);
    assert!(want.iter().all(|q| queens.contains(q)), "{queens:?}");
    assert_eq!(c.click(Spot::Cell([3, 9])), Click::More);
    let targets = c.next();
    assert!(targets.contains(&Spot::Cell([3, 3])), "d1 reaches d7");
    assert!(!targets.contains(&Spot::Cell([0, 6])), "not another queen");
    assert_eq!(c.click(Spot::Cell([3, 3])), Click::More);
    assert!(
        c.next().contains(&Spot::Cell([3, 9])),
        "the arrow may go back to d1"
    );
    assert_eq!(c.click(Spot::Cell([6, 3])), Click::Move("d1-d7/g7".into()));
    assert!(c.chosen.is_empty(), "a sent move starts the clicks again");
    // A click that continues nothing starts again; one on another queen starts from it.
    assert_eq!(c.click(Spot::Cell([3, 9])), Click::More);
    assert_eq!(c.click(Spot::Cell([5, 5])), Click::Nothing);
    assert!(c.chosen.is_empty());
    assert_eq!(c.click(Spot::Cell([3, 9])), Click::More);
    assert_eq!(
        c.click(Spot::Cell([6, 9])),
        Click::More,
        "g1: another queen"
    );
    assert_eq!(c.chosen, [Spot::Cell([6, 9])]);
}

/// Dots and Boxes: an edge is one click near its line; the click nearest to a line wins.
#[test]
fn a_dots_and_boxes_edge_is_one_click_on_its_line() {
    let module = load(&game_bytes("game-dots-and-boxes"), "game-dots-and-boxes").unwrap();
    let g = AnyGame::new(&config(module, json!({"cols": 2, "rows": 2}))).unwrap();
    let answer: Value = serde_json::from_str(
        &g.as_module()
            .unwrap()
            .clicks(g.to_move().unwrap_or(arbiter_engine::Seat::FIRST))
            .unwrap(),
    )
    .unwrap();
    let mut c = Clicker::new(clicks::read(&answer).unwrap());
    let next = c.next();
    assert_eq!(next.len(), 12, "every edge of 2 x 2 boxes");
    let grid = clicks::Grid {
        ox: 10.0,
        oy: 10.0,
        cell: 100.0,
        cols: 2,
        rows: 2,
        kind: arbiter_player::kit::view::Kind::Cells,
    };
    // Just below the middle of the top-left box's top edge (corners [0,0]-[1,0]).
    let spot = clicks::pick(&grid, &next, 62.0, 18.0).unwrap();
    assert_eq!(spot, Spot::Line([0, 0], [1, 0]));
    // The left edge of the same box.
    let spot = clicks::pick(&grid, &next, 14.0, 55.0).unwrap();
    assert_eq!(spot, Spot::Line([0, 1], [0, 0]));
    match c.click(spot) {
        Click::Move(mv) => assert_eq!(mv, "a2-a3"),
        other => panic!("{other:?}"),
    }
}

/// A module game without clicks (the C Nim does not give them) answers an error: no clicks,
/// and the module goes on (the player lists its moves).
#[test]
fn a_module_without_clicks_gives_none_and_goes_on() {
    let refused = r#"{"error":"unknown op"}"#;
    let legal = r#"{"ok":["a","b"]}"#;
    let body = format!(
        "{} {} {} {} i64.const 0",
        when('n', 200, NEW.len()),
        when('s', 300, STATUS.len()),
        when('c', 400, refused.len()),
        when('l', 500, legal.len())
    );
    let extra = [(200, NEW), (300, STATUS), (400, refused), (500, legal)]
        .map(|(at, text)| data(at, text))
        .join(" ");
    let module = load(&broken(&body, &extra), "quiet").unwrap();
    let g = AnyGame::new(&config(module, json!({}))).unwrap();
    assert_eq!(
        g.as_module()
            .unwrap()
            .clicks(g.to_move().unwrap_or(arbiter_engine::Seat::FIRST)),
        None
    );
    assert_eq!(g.fault(), None);
    assert_eq!(g.legal_moves().len(), 2);
    assert!(clicks::read(&json!({"error": "unknown op"})).is_none());
    assert!(clicks::read(&json!([{"move": "a", "cells": []}])).is_none());
    assert!(clicks::read(&json!([{"move": "a", "cells": [[1, 2]]}])).is_some());
    // A key given as null is absent (the referee's host sent `"line": null` with every move).
    assert!(clicks::read(&json!([{"move": "a", "cells": [[1, 2]], "line": null}])).is_some());
    assert!(
        clicks::read(&json!([{"move": "a", "cells": [[1, 2]], "line": [[0, 0], [0, 1]]}]))
            .is_none()
    );
}

/// A four-snake game (a simultaneous turn a ply) read as the referee saves it: four seats
/// with their names and thinking times, one frame per ply whose movers are every snake
/// alive, and whose move text lists every seat's move.
#[test]
fn four_snakes_show_one_frame_per_simultaneous_turn_with_every_move() {
    let bytes = game_bytes("game-snake");
    let module = load(&bytes, "game-snake").unwrap();
    let config = config(module, json!({"players": 4}));
    let players = (0..4u8).map(|s| Player {
        name: format!("snake{s}"),
        seat: Seat::try_from(s).unwrap(),
        command: None,
    });
    let mut r = Replay::new(config.clone(), players.collect::<Vec<_>>());
    let mut g = AnyGame::new(&config).unwrap();
    let mut i = 3usize;
    while !g.turn().is_over() && r.moves.len() < 40 {
        let mut ply = Vec::new();
        for seat in g.turn().movers().iter() {
            let legal = g.legal_moves_of(seat);
            i = i.wrapping_mul(31).wrapping_add(7);
            ply.push((seat, legal[i % legal.len()]));
        }
        let mut records = ply.iter().map(|&(seat, mv)| {
            let mut rec = MoveRecord::new(seat, g.format_move(mv));
            rec.time_ms = Some(f64::from(u8::from(seat)) + 1.0);
            rec
        });
        let mut first = records.next().unwrap();
        first.with = records.collect();
        r.moves.push(first);
        g.play_together(&ply).unwrap();
    }
    let (seats, plies) = (g.seats(), r.moves.len());
    assert_eq!(seats, 4);
    r.result.places = g.places();
    r.result.winner = g.outcome().and_then(|o| o.winner);
    r.meta.ending = g.end_words();
    if g.outcome().is_none() {
        r.result.reason = Reason::Aborted {
            message: "40 plies".into(),
        };
    }
    let session = Session::load(&r.to_json()).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(session.frame_count(), plies + 1, "a frame per ply");
    let info = session.info();
    assert_eq!(info.seats, ["#1", "#2", "#3", "#4"]);
    assert_eq!(info.players, ["snake0", "snake1", "snake2", "snake3"]);
    for (s, total) in info.total_ms.iter().enumerate() {
        let moves = r.moves.iter().flat_map(MoveRecord::records);
        let want = moves.filter(|m| m.seat.index() == s).count() as f64 * (s as f64 + 1.0);
        assert_eq!(*total, want, "seat {s}'s thinking time");
    }
    let first = session.frame(1).unwrap();
    assert_eq!(first.movers.len(), 4, "the next turn moves every snake");
    let text = first.last_text.unwrap();
    for m in r.moves[0].records() {
        assert!(
            text.contains(&m.mv),
            "{text} lacks seat {}'s {}",
            m.seat.index(),
            m.mv
        );
    }
    assert_eq!(r.moves[0].with.len(), 3);
}

/// Dou Dizhu's peasants win together: both are first, which the player says as such, not as
/// a draw; a landlord's win is a win.
#[test]
fn places_shared_at_the_top_are_not_a_draw() {
    let bytes = game_bytes("game-dou-dizhu");
    let module = load(&bytes, "game-dou-dizhu").unwrap();
    let mut heads = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let GameConfig::Module(mut m) = config(module.clone(), json!({})) else {
            unreachable!()
        };
        m.seed = seed;
        let config = GameConfig::Module(m);
        let players = (0..3u8).map(|s| Player {
            name: format!("p{s}"),
            seat: Seat::try_from(s).unwrap(),
            command: None,
        });
        let mut r = Replay::new(config.clone(), players.collect::<Vec<_>>());
        let mut g = AnyGame::new(&config).unwrap();
        let mut i = seed as usize + 3;
        while let Some(seat) = g.to_move() {
            let legal = g.legal_moves();
            i = i.wrapping_mul(31).wrapping_add(7);
            let mv = legal[i % legal.len()];
            r.moves.push(MoveRecord::new(seat, g.format_move(mv)));
            g.play(mv).unwrap();
        }
        r.result.places = g.places();
        r.result.winner = g.outcome().and_then(|o| o.winner);
        r.meta.ending = g.end_words();
        let places = r.result.places.clone().expect("places");
        let session = Session::load(&r.to_json()).unwrap();
        let head = session.info().result_head;
        let last = session.frame(session.frame_count() - 1).unwrap();
        assert!(
            last.status.contains(&head),
            "{head} in the last frame: {}",
            last.status
        );
        let first: Vec<usize> = (0..3).filter(|&k| places[k] == 1).collect();
        match first.len() {
            1 => assert!(head.ends_with(" wins"), "{places:?}: {head}"),
            _ => {
                assert!(!head.contains("Draw"), "{places:?}: {head}");
                assert!(head.ends_with("share first place"), "{places:?}: {head}");
            }
        }
        heads.insert(first.len());
    }
    assert_eq!(
        heads.len(),
        2,
        "both a landlord's and the peasants' win were seen"
    );
}
