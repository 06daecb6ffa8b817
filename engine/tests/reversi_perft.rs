//! Perft against the published tables in `tests/data/` (standard convention: a pass is a ply,
//! a finished game is one leaf at any depth). Every depth of at most 30 million leaves runs,
//! in debug builds too (about a second); the bench does 8 x 8 depth 12.

use arbiter_engine::reversi::{perft, Config, Reversi};
use arbiter_engine::Game;

const TABLE_8X8: &str = include_str!("data/perft_reversi_8x8.txt");
const TABLE_6X6: &str = include_str!("data/perft_reversi_6x6.txt");

/// Depths with more leaves are left to the bench.
const LIMIT: u64 = 30_000_000;

/// `depth nodes` lines; `#` starts a comment line.
fn table(text: &str) -> Vec<(u32, u64)> {
    let rows: Vec<(u32, u64)> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut it = l.split_whitespace();
            let depth = it.next().and_then(|d| d.parse().ok());
            let nodes = it.next().and_then(|n| n.parse().ok());
            match (depth, nodes, it.next()) {
                (Some(d), Some(n), None) => (d, n),
                _ => panic!("bad perft table line {l:?}"),
            }
        })
        .collect();
    // Depths 1, 2, 3, ... without gaps: a damaged table shows up here.
    for (i, (d, _)) in rows.iter().enumerate() {
        assert_eq!(
            *d as usize,
            i + 1,
            "perft table depths must be 1, 2, 3, ..."
        );
    }
    rows
}

fn check(size: u8, text: &str) -> usize {
    let pos = Reversi::new(&Config { size }).expect("valid size");
    let mut checked = 0;
    for (depth, want) in table(text) {
        if want <= LIMIT {
            assert_eq!(perft(&pos, depth), want, "{size}x{size} perft({depth})");
            checked += 1;
        }
    }
    checked
}

#[test]
fn tables_hold_the_published_counts() {
    let t8 = table(TABLE_8X8);
    assert_eq!(t8.len(), 15);
    assert_eq!(t8[11], (12, 1_939_886_636));
    let t6 = table(TABLE_6X6);
    assert_eq!(t6.len(), 15);
    assert_eq!(t6[14], (15, 348_280_731_608));
}

#[test]
fn perft_8x8_depths_1_to_10() {
    assert_eq!(check(8, TABLE_8X8), 10);
}

#[test]
fn perft_6x6_depths_1_to_10() {
    assert_eq!(check(6, TABLE_6X6), 10);
}

#[test]
fn perft_of_depth_zero_and_of_a_finished_game_is_one() {
    let pos = Reversi::new(&Config { size: 8 }).expect("valid size");
    assert_eq!(perft(&pos, 0), 1);
    // A 4 x 4 game played to its end by always taking the first move.
    let mut g = Reversi::new(&Config { size: 4 }).expect("valid size");
    let mut moves = Vec::new();
    while g.to_move().is_some() {
        moves.clear();
        g.legal_moves(&mut moves);
        g.play(moves[0]).expect("legal");
    }
    for depth in 0..5 {
        assert_eq!(perft(&g, depth), 1, "finished game, depth {depth}");
    }
}
