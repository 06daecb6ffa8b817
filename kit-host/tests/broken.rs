//! Deliberately broken modules: each is a clear error naming the module, never a panic or a
//! hang.

use arbiter_kit_host::{Bounds, KitError, Rules, WasmKit};
use serde_json::json;

/// A module with the ABI's exports whose `arbiter_call` body is `call_body`; `extra` adds
/// fields (data segments, other functions).
fn module(call_body: &str, extra: &str) -> Vec<u8> {
    let text = format!(
        r#"(module
          (memory (export "memory") 1)
          (global $next (mut i32) (i32.const 4096))
          (func (export "arbiter_abi_version") (result i32) i32.const 1)
          (func (export "arbiter_alloc") (param i32) (result i32)
            global.get $next
            global.get $next local.get 0 i32.add global.set $next)
          (func (export "arbiter_free") (param i32 i32))
          (func (export "arbiter_call") (param i32 i32) (result i64) {call_body})
          {extra})"#
    );
    wat::parse_str(text).expect("test module assembles")
}

/// An answer of `len` bytes at address 16.
fn answer_at_16(len: u32) -> String {
    format!("i64.const {}", (16u64 << 32) | u64::from(len))
}

fn load(bytes: &[u8]) -> Result<Rules, KitError> {
    let bounds = Bounds {
        fuel_per_call: 50_000_000,
        memory_bytes: 8 << 20,
        ..Bounds::default()
    };
    Rules::new(Box::new(WasmKit::load(bytes, "broken.wasm", bounds)?))
}

fn error_of(bytes: &[u8]) -> String {
    let e = load(bytes).expect_err("a broken module is refused");
    let text = e.to_string();
    assert!(text.contains("broken.wasm"), "names the module: {text}");
    text
}

#[test]
fn an_endless_loop_runs_out_of_fuel() {
    let started = std::time::Instant::now();
    let text = error_of(&module("(loop (br 0)) unreachable", ""));
    assert!(text.contains("ran out of fuel"), "{text}");
    assert!(started.elapsed().as_secs() < 20, "stopped quickly");
}

#[test]
fn a_trap_is_named() {
    let text = error_of(&module("unreachable", ""));
    assert!(text.contains("unreachable"), "{text}");
}

#[test]
fn endless_allocation_hits_the_memory_limit() {
    let body = "(loop (drop (memory.grow (i32.const 16))) (br 0)) unreachable";
    let text = error_of(&module(body, ""));
    assert!(text.contains("past the limit"), "{text}");
}

#[test]
fn garbage_answers_are_refused() {
    let data = |s: &str| format!(r#"(data (i32.const 16) "{s}")"#);
    let text = error_of(&module(&answer_at_16(5), &data("\\ff\\fe{{{{")));
    assert!(text.contains("not JSON"), "{text}");
    let text = error_of(&module(&answer_at_16(6), &data("[1,2]!")));
    assert!(text.contains("not JSON"), "{text}");
    let text = error_of(&module(&answer_at_16(14), &data(r#"{\"ok\":[1,2,3]}"#)));
    assert!(text.contains("wrong shape"), "{text}");
    let text = error_of(&module("i64.const 0xffff000000000010", ""));
    assert!(text.contains("outside its memory"), "{text}");
    let text = error_of(&module("i64.const 0x00000010ffffffff", ""));
    assert!(text.contains("more than the limit"), "{text}");
}

#[test]
fn a_plausible_liar_is_caught_by_the_status_check() {
    // Answers every request with the same object: a valid `info`, and a status whose side to
    // move is a seat the game does not have.
    let info = r#"{\"ok\":{\"name\":\"liar\",\"version\":\"1\",\"seats\":2,\"abi\":1,\"state\":1,\"to_move\":7,\"forced\":null,\"scores\":[0,0],\"outcome\":null}}"#;
    let len = info.len() - info.matches('\\').count();
    let bytes = module(
        &answer_at_16(len as u32),
        &format!(r#"(data (i32.const 16) "{info}")"#),
    );
    let mut rules = load(&bytes).expect("info is fine");
    let s = rules.start(&json!({}), 0).expect("new is fine");
    let e = rules.status(s).unwrap_err().to_string();
    assert!(
        e.contains("broken.wasm") && e.contains("impossible status"),
        "{e}"
    );
}

#[test]
fn imports_missing_exports_and_non_wasm_are_refused_at_load() {
    let wasi = r#"(import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))"#;
    let text = error_of(&wat::parse_str(format!("(module {wasi})")).unwrap());
    assert!(text.contains("must import nothing"), "{text}");
    let text = error_of(&wat::parse_str(r#"(module (memory (export "memory") 1))"#).unwrap());
    assert!(
        text.contains("lacks the export arbiter_abi_version"),
        "{text}"
    );
    let text = error_of(b"\0asm garbage");
    assert!(text.contains("not a valid wasm module"), "{text}");
    let huge = r#"(module (memory (export "memory") 1000))"#;
    let text = error_of(&wat::parse_str(huge).unwrap());
    assert!(text.contains("failed to start"), "{text}");
}

#[test]
fn a_failed_module_is_not_called_again() {
    let mut rules = Rules::native::<game_connect_four::ConnectFour>();
    assert!(rules.start(&json!({}), 0).is_ok());
    let bytes = module("unreachable", "");
    let mut kit = WasmKit::load(&bytes, "broken.wasm", Bounds::default()).unwrap();
    use arbiter_kit_host::Kit;
    assert!(kit.call(&json!({"op": "info"})).is_err());
    let again = kit.call(&json!({"op": "info"})).unwrap_err().to_string();
    assert!(again.contains("failed earlier"), "{again}");
}

#[test]
fn the_default_fuel_stops_an_endless_loop_within_seconds() {
    let started = std::time::Instant::now();
    let bytes = module("(loop (br 0)) unreachable", "");
    let e = WasmKit::load(&bytes, "loop.wasm", Bounds::default())
        .and_then(|k| Rules::new(Box::new(k)))
        .unwrap_err()
        .to_string();
    let secs = started.elapsed().as_secs_f64();
    println!("the default fuel ran out after {secs:.2} s");
    assert!(
        e.contains("loop.wasm") && e.contains("ran out of fuel"),
        "{e}"
    );
    assert!(secs < 30.0, "{secs} s");
}
