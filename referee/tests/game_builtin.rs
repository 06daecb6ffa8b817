//! `arbiter game check|perft builtin:NAME`: the engine's games through the game kit, linked
//! natively, under the tools a game author uses on a module.

use crate::kit_support;
use kit_support::arbiter;

/// The number after `marker` in `text` (`perft(6) = 8200`, `... on 8x8 = 8200`).
fn count_after(text: &str, marker: &str) -> u64 {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in {text}"));
    let digits: String = text[at + marker.len()..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no count after {marker:?}: {text}"))
}

#[test]
fn builtin_reversi_perft_through_the_kit_is_the_engines() {
    for (size, depth) in [("8", "6"), ("6", "5"), ("16", "3")] {
        let config = format!(r#"{{"size": {size}}}"#);
        let (ok, kit) = arbiter(&[
            "game",
            "perft",
            "builtin:reversi",
            "--depth",
            depth,
            "--config",
            &config,
        ]);
        assert!(ok && kit.contains("built in: the engine's rules"), "{kit}");
        let (ok, engine) = arbiter(&["perft", "reversi", "--size", size, "--depth", depth]);
        assert!(ok, "{engine}");
        let kit_count = count_after(&kit, &format!("perft({depth}) ="));
        let engine_count = count_after(&engine, &format!("on {size}x{size} ="));
        assert_eq!(kit_count, engine_count, "{kit}\n{engine}");
        assert!(kit_count > 0);
    }
}

#[test]
fn builtin_gomoku_perft_counts_every_point_then_every_point_left() {
    let (ok, text) = arbiter(&[
        "game",
        "perft",
        "builtin:gomoku",
        "--depth",
        "2",
        "--config",
        r#"{"size": 15, "rule": "renju"}"#,
    ]);
    assert!(ok, "{text}");
    assert!(text.starts_with("gomoku "), "{text}");
    let points = 15 * 15;
    assert_eq!(
        count_after(&text, "perft(2) ="),
        points * (points - 1),
        "{text}"
    );
}

#[test]
fn every_builtin_game_passes_the_check() {
    for (game, config) in [
        ("builtin:reversi", r#"{"size": 8}"#),
        ("builtin:gomoku", r#"{"size": 9, "rule": "renju"}"#),
        ("builtin:duel2048", r#"{"rounds": 30}"#),
    ] {
        let args = ["game", "check", game, "--config", config, "--playouts", "4"];
        let (ok, text) = arbiter(&args);
        assert!(
            ok && text.contains("ok: 4 random playouts"),
            "{game}: {text}"
        );
    }
}

#[test]
fn unknown_builtin_games_and_bad_configs_are_errors_in_words() {
    let (ok, text) = arbiter(&["game", "check", "builtin:chess"]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("no built-in game \"chess\"") && text.contains("builtin:duel2048"),
        "{text}"
    );
    let bad = [
        "game",
        "perft",
        "builtin:reversi",
        "--depth",
        "1",
        "--config",
        r#"{"size": 7}"#,
    ];
    let (ok, text) = arbiter(&bad);
    assert!(!ok && text.contains("even number from 4 to 16"), "{text}");
}
