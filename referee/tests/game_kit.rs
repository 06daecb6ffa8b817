//! `arbiter game new|check|perft` and `arbiter match GAME.wasm`, as a game author runs them.

use std::process::Command;

use arbiter_kit_host::build;

fn arbiter(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("arbiter runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn check_perft_and_match_on_a_module() {
    let module = build::game_module("game-connect-four").unwrap();
    let m = module.to_str().unwrap();
    let (ok, text) = arbiter(&["game", "check", m, "--playouts", "5"]);
    assert!(ok && text.contains("ok: 5 random playouts"), "{text}");
    let (ok, text) = arbiter(&["game", "perft", m, "--depth", "4"]);
    assert!(ok && text.contains("perft(4) = 2401"), "{text}");
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let args = [
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--games",
        "2",
        "--seed",
        "4",
        "-o",
        dir,
    ];
    let (ok, text) = arbiter(&args);
    assert!(ok && text.contains("game 2: B vs A"), "{text}");
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("game-1.json")).unwrap()).unwrap();
    assert_eq!(record["module"]["name"], "connect-four");
    assert_eq!(record["module"]["sha256"].as_str().map(str::len), Some(64));
    let (ok, text) = arbiter(&[
        "match",
        m,
        "builtin:random",
        "builtin:random",
        "--sprt",
        "elo0=0,elo1=5",
    ]);
    assert!(!ok && text.contains("plain matches"), "{text}");
}

#[test]
fn a_broken_module_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nonsense.wasm");
    std::fs::write(&path, b"\0asm\x01\0\0\0garbage").unwrap();
    let (ok, text) = arbiter(&["game", "check", path.to_str().unwrap()]);
    assert!(
        !ok && text.contains("game module nonsense.wasm is not a valid wasm module"),
        "{text}"
    );
}

#[test]
fn game_new_writes_a_crate() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, text) = arbiter(&[
        "game",
        "new",
        "tic-tac",
        "--dir",
        dir.path().to_str().unwrap(),
    ]);
    assert!(ok && text.contains("wrote"), "{text}");
    let lib = std::fs::read_to_string(dir.path().join("tic-tac/src/lib.rs")).unwrap();
    assert!(lib.contains("pub struct TicTac") && lib.contains("export_game!(TicTac)"));
    let (ok, text) = arbiter(&[
        "game",
        "new",
        "tic-tac",
        "--dir",
        dir.path().to_str().unwrap(),
    ]);
    assert!(!ok && text.contains("exists already"), "{text}");
}
