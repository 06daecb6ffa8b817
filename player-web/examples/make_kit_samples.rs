//! Writes the module games' samples for the web player's browser tests
//! (tests/web/kit-player.test.mjs): a random game of each proof game, its replay carrying its
//! module as the referee writes it; a replay whose carried module is not the one its game
//! names; one that does not carry its module; and broken modules, each named in a replay of
//! its own, that loop, trap, answer garbage or allocate without end when asked for a view.
//! The modules themselves go to `OUT_DIR/modules/` (the node tests meter them).
//! Usage: `make_kit_samples OUT_DIR` (builds the proof games with kit-host, as the tests do).

use std::path::Path;

use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::module::{ModuleConfig, ModuleRef};
use arbiter_engine::replay::{MoveRecord, Player, Reason, Replay};
use arbiter_engine::Seat;
use arbiter_kit_host::{build, host, sha256_hex};

/// The proof games, the configuration played and a cap on the moves (Amazons through wasmi
/// in a debug build is slow; every other game ends well before its cap).
const GAMES: [(&str, &str, usize); 6] = [
    ("game-connect-four", "{}", 100),
    ("game-amazons", "{}", 200),
    ("game-connect6", r#"{"size":13}"#, 300),
    ("game-dots-and-boxes", r#"{"cols":3,"rows":3}"#, 100),
    ("game-einstein", "{}", 200),
    ("game-hex", r#"{"size":11,"swap":true}"#, 200),
];

fn players() -> [Player; 2] {
    [Seat::FIRST, Seat::SECOND].map(|seat| Player {
        name: ["Ada", "Alan"][seat.index()].to_string(),
        seat,
        command: None,
    })
}

fn config(module: ModuleRef, config: &str) -> GameConfig {
    GameConfig::Module(ModuleConfig {
        module,
        config: config.to_string(),
        seed: 11,
    })
}

/// A game of pseudo-random legal moves (xorshift), saved as the referee saves it.
fn played(config: GameConfig, max: usize) -> Replay {
    let mut r = Replay::new(config.clone(), players());
    let mut g = AnyGame::new(&config).expect("the proof game opens");
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while let (Some(seat), true) = (g.to_move(), r.moves.len() < max) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let legal = g.legal_moves();
        let mv = legal[(x % legal.len() as u64) as usize];
        let mut rec = MoveRecord::new(seat, g.format_move(mv));
        rec.time_ms = Some((x % 900) as f64);
        r.moves.push(rec);
        g.play(mv).expect("a legal move plays");
    }
    match g.outcome() {
        Some(o) => {
            r.result.winner = o.winner;
            r.result.reason = Reason::Normal;
            r.scores = Some(g.scores());
            r.meta.ending = g.end_words();
        }
        None => {
            let seat = g.to_move().expect("a side to move");
            r.result.winner = Some(seat.other());
            r.result.reason = Reason::MoveTime {
                seat,
                limit_ms: 1000,
            };
        }
    }
    host::embed_module(&mut r);
    r
}

/// A WAT data segment holding `text` at `at`.
fn data(at: u32, text: &str) -> String {
    format!(r#"(data (i32.const {at}) "{}")"#, text.replace('"', "\\\""))
}

/// Answers the text at `at` when the request's op begins with `letter`.
fn when(letter: char, at: u64, len: usize) -> String {
    format!(
        "(if (i32.eq (i32.load8_u (i32.add (local.get 0) (i32.const 7))) (i32.const {})) \
         (then (return (i64.const {}))))",
        letter as u32,
        (at << 32) | len as u64
    )
}

/// A module that answers `info`, `new`, `clone`, `drop` and `status` soundly (one game at its
/// start, first to move) and does `view` (its body) as it is broken.
fn broken(name: &str, view: &str) -> Vec<u8> {
    let info = format!(r#"{{"ok":{{"name":"{name}","version":"1","seats":2,"abi":1}}}}"#);
    let state = r#"{"ok":{"state":1}}"#;
    let none = r#"{"ok":null}"#;
    let status = r#"{"ok":{"to_move":0,"forced":null,"scores":[0,0],"outcome":null}}"#;
    let text = format!(
        r#"(module
          (memory (export "memory") 1)
          (global $next (mut i32) (i32.const 8192))
          {} {} {} {} {}
          (func (export "arbiter_abi_version") (result i32) i32.const 1)
          (func (export "arbiter_alloc") (param i32) (result i32)
            global.get $next
            global.get $next local.get 0 i32.add global.set $next)
          (func (export "arbiter_free") (param i32 i32))
          (func (export "arbiter_call") (param i32 i32) (result i64)
            {} {} {} {} {} {}
            i64.const 0)
          (func $view (result i64) {view}))"#,
        data(64, &info),
        data(200, state),
        data(300, status),
        data(500, none),
        data(600, "xyz"),
        when('i', 64, info.len()),
        when('n', 200, state.len()),
        when('c', 200, state.len()),
        when('d', 500, none.len()),
        when('s', 300, status.len()),
        "(if (i32.eq (i32.load8_u (i32.add (local.get 0) (i32.const 7))) (i32.const 118)) (then (return (call $view))))",
    );
    wat::parse_str(text).expect("a broken module assembles")
}

/// The broken modules: each fails at its first view.
fn broken_modules() -> Vec<(&'static str, Vec<u8>)> {
    let grow = "(loop (br_if 0 (i32.ne (memory.grow (i32.const 64)) (i32.const -1)))) unreachable";
    vec![
        ("loops", broken("loops", "(loop (br 0)) unreachable")),
        ("traps", broken("traps", "unreachable")),
        ("garbage", broken("garbage", "(i64.const 2576980377603)")),
        ("greedy", broken("greedy", grow)),
    ]
}

/// A sound module whose game never ends (the long replays of the player's benchmark and
/// tests): two seats take turns playing `x`, seat to move drawn as a disc. Each state's seat
/// to move is a byte at `PARITY + id` (ids wrap at 8 M: more live states than a replay of
/// millions of plies keeps).
fn endless() -> Vec<u8> {
    const PARITY: u32 = 0x2_0000;
    let strings = [
        (
            64,
            r#"{"ok":{"name":"endless","version":"1","seats":2,"abi":1}}"#,
        ),
        (200, r#"{"ok":{"state":"#),
        (240, r#"{"ok":{"to_move":"#),
        (300, r#","forced":null,"scores":[0,0],"outcome":null}}"#),
        (
            400,
            r#"{"ok":{"board":{"grid":"cells","cols":2,"rows":1},"pieces":[{"at":["#,
        ),
        (500, r#",0],"shape":"disc","seat":"#),
        (560, r#"}]}}"#),
        (600, r#"{"ok":null}"#),
        (640, r#"{"ok":["x"]}"#),
        (680, r#"{"illegal":"the only move is x"}"#),
        (740, r#"{"error":"not offered"}"#),
        (780, r#"{"ok":""}"#),
    ];
    let data: String = strings.iter().map(|(at, t)| data(*at, t)).collect();
    let len = |at: u32| {
        strings
            .iter()
            .find(|(a, _)| *a == at)
            .map_or(0, |(_, t)| t.len())
    };
    // `(call $put AT)`: appends the string at AT to the answer.
    let put = |at: u32| format!("(call $put (i32.const {at}) (i32.const {}))", len(at));
    let text = format!(
        r#"(module
          (memory (export "memory") 132)
          (global $next (mut i32) (i32.const 1))
          (global $out (mut i32) (i32.const 4096))
          {data}
          (func (export "arbiter_abi_version") (result i32) i32.const 1)
          (func (export "arbiter_alloc") (param i32) (result i32)
            (select (i32.const 0x10000) (i32.const 0) (i32.lt_u (local.get 0) (i32.const 0x10000))))
          (func (export "arbiter_free") (param i32 i32))
          (func $put (param $at i32) (param $n i32)
            (block $done (loop $byte
              (br_if $done (i32.eqz (local.get $n)))
              (i32.store8 (global.get $out) (i32.load8_u (local.get $at)))
              (global.set $out (i32.add (global.get $out) (i32.const 1)))
              (local.set $at (i32.add (local.get $at) (i32.const 1)))
              (local.set $n (i32.sub (local.get $n) (i32.const 1)))
              (br $byte))))
          (func $digits (param $n i32)
            (if (i32.ge_u (local.get $n) (i32.const 10))
              (then (call $digits (i32.div_u (local.get $n) (i32.const 10)))))
            (i32.store8 (global.get $out) (i32.add (i32.const 48) (i32.rem_u (local.get $n) (i32.const 10))))
            (global.set $out (i32.add (global.get $out) (i32.const 1))))
          (func $state (param $p i32) (param $end i32) (result i32)
            (local $n i32) (local $c i32)
            (block $found (loop $skip
              (br_if $found (i32.ge_u (local.get $p) (local.get $end)))
              (br_if $found (i32.lt_u (i32.sub (i32.load8_u (local.get $p)) (i32.const 48)) (i32.const 10)))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (br $skip)))
            (block $done (loop $digit
              (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
              (local.set $c (i32.sub (i32.load8_u (local.get $p)) (i32.const 48)))
              (br_if $done (i32.ge_u (local.get $c) (i32.const 10)))
              (local.set $n (i32.add (i32.mul (local.get $n) (i32.const 10)) (local.get $c)))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (br $digit)))
            (i32.add (i32.const {PARITY}) (i32.and (local.get $n) (i32.const 0x7fffff))))
          (func $fresh (param $seat i32)
            (i32.store8 (i32.add (i32.const {PARITY}) (i32.and (global.get $next) (i32.const 0x7fffff))) (local.get $seat))
            {state} (call $digits (global.get $next)) (call $put (i32.const 562) (i32.const 2))
            (global.set $next (i32.add (global.get $next) (i32.const 1))))
          (func (export "arbiter_call") (param $p i32) (param $len i32) (result i64)
            (local $op i32) (local $s i32) (local $end i32)
            (global.set $out (i32.const 4096))
            (local.set $end (i32.add (local.get $p) (local.get $len)))
            (local.set $op (i32.load8_u (i32.add (local.get $p) (i32.const 7))))
            (local.set $s (call $state (i32.add (local.get $p) (i32.const 8)) (local.get $end)))
            (block $answer
              (if (i32.eq (local.get $op) (i32.const 105)) (then {info} (br $answer)))
              (if (i32.eq (local.get $op) (i32.const 110)) (then (call $fresh (i32.const 0)) (br $answer)))
              (if (i32.and (i32.eq (local.get $op) (i32.const 99))
                    (i32.eq (i32.load8_u (i32.add (local.get $p) (i32.const 9))) (i32.const 111)))
                (then (call $fresh (i32.load8_u (local.get $s))) (br $answer)))
              (if (i32.eq (local.get $op) (i32.const 100)) (then {null} (br $answer)))
              (if (i32.eq (local.get $op) (i32.const 115)) (then
                {to_move} (call $digits (i32.load8_u (local.get $s))) {status} (br $answer)))
              (if (i32.eq (local.get $op) (i32.const 108)) (then {legal} (br $answer)))
              (if (i32.eq (local.get $op) (i32.const 116)) (then {tell} (br $answer)))
              (if (i32.eq (local.get $op) (i32.const 118)) (then
                {view} (call $digits (i32.load8_u (local.get $s)))
                {seat} (call $digits (i32.load8_u (local.get $s))) {close} (br $answer)))
              (if (i32.and (i32.eq (local.get $op) (i32.const 112))
                    (i32.eq (i32.load8_u (i32.add (local.get $p) (i32.const 11))) (i32.const 34)))
                (then
                  (if (i32.eq (i32.load (i32.sub (local.get $end) (i32.const 4))) (i32.const 0x7d227822))
                    (then
                      (i32.store8 (local.get $s) (i32.xor (i32.load8_u (local.get $s)) (i32.const 1)))
                      {null})
                    (else {illegal}))
                  (br $answer)))
              {error})
            (i64.or (i64.shl (i64.const 4096) (i64.const 32))
              (i64.extend_i32_u (i32.sub (global.get $out) (i32.const 4096))))))"#,
        state = put(200),
        info = put(64),
        null = put(600),
        to_move = put(240),
        status = put(300),
        legal = put(640),
        tell = put(780),
        view = put(400),
        seat = put(500),
        close = put(560),
        illegal = put(680),
        error = put(740),
    );
    wat::parse_str(text).expect("the endless module assembles")
}

/// A replay of a broken module: no move, aborted (it never got going).
fn broken_replay(name: &str, bytes: &[u8]) -> Replay {
    let module = ModuleRef {
        name: name.to_string(),
        version: "1".into(),
        sha256: sha256_hex(bytes),
    };
    let mut r = Replay::new(config(module, "{}"), players());
    use base64::Engine as _;
    r.module_wasm = Some(base64::engine::general_purpose::STANDARD.encode(bytes));
    r
}

fn write(dir: &Path, name: &str, replay: &Replay) {
    std::fs::write(dir.join(name), replay.to_json_pretty()).expect("writes the sample");
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: make_kit_samples OUT_DIR");
    let dir = Path::new(&dir);
    let modules = dir.join("modules");
    std::fs::create_dir_all(&modules).expect("creates OUT_DIR/modules");
    host::install();
    let mut four = None;
    for (package, cfg, max) in GAMES {
        let path = build::game_module(package).expect("the proof game builds");
        let module = host::register_file(&path).expect("the proof game loads");
        let replay = played(config(module.clone(), cfg), max);
        let short = package.trim_start_matches("game-");
        write(dir, &format!("kit-{short}.json"), &replay);
        std::fs::copy(&path, modules.join(format!("{short}.wasm"))).expect("copies the module");
        if short == "connect-four" {
            four = Some(replay);
        }
    }
    let four = four.expect("connect four was played");
    // Another module's bytes under connect four's name: refused, not run.
    let mut tampered = four.clone();
    let other = std::fs::read(modules.join("einstein.wasm")).expect("einstein's module");
    use base64::Engine as _;
    tampered.module_wasm = Some(base64::engine::general_purpose::STANDARD.encode(other));
    write(dir, "kit-tampered.json", &tampered);
    // No module carried: the player looks for modules/<sha256>.wasm beside its page.
    let mut bare = four.clone();
    bare.module_wasm = None;
    write(dir, "kit-bare.json", &bare);
    for (name, bytes) in broken_modules() {
        write(
            dir,
            &format!("kit-{name}.json"),
            &broken_replay(name, &bytes),
        );
        std::fs::write(modules.join(format!("{name}.wasm")), &bytes).expect("writes the module");
    }
    std::fs::write(modules.join("endless.wasm"), endless()).expect("writes the module");
    let imports = wat::parse_str(r#"(module (import "env" "f" (func)) (memory 1))"#);
    let simd = wat::parse_str("(module (memory 1) (func (drop (v128.const i32x4 0 0 0 0))))");
    for (name, bytes) in [("imports", imports), ("simd", simd)] {
        std::fs::write(
            modules.join(format!("{name}.wasm")),
            bytes.expect("assembles"),
        )
        .expect("writes the module");
    }
    println!(
        "{}",
        four.game
            .as_module()
            .map_or("", |m| m.module.sha256.as_str())
    );
}
