//! The hashed perft counts every leaf the plain one does, at every board size: the table only
//! saves work. Checked against [`perft`] at each size 4..16 (depths that run fast in debug),
//! against the published 8 x 8 and 6 x 6 tables, and with tables too small to hold the tree
//! (entries overwritten all the time) or too small to hold anything.

use arbiter_engine::reversi::{perft, perft_hashed, Config, Move, PerftTable, Reversi};
use arbiter_engine::Game;

const TABLE_8X8: &str = include_str!("data/perft_reversi_8x8.txt");
const TABLE_6X6: &str = include_str!("data/perft_reversi_6x6.txt");

fn start(size: u8) -> Reversi {
    Reversi::new(&Config { size }).expect("valid size")
}

/// `depth nodes` lines; `#` starts a comment line.
fn table(text: &str) -> Vec<(u32, u64)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut it = l.split_whitespace();
            let d = it.next().and_then(|d| d.parse().ok()).expect("depth");
            let n = it.next().and_then(|n| n.parse().ok()).expect("count");
            (d, n)
        })
        .collect()
}

/// Plain and hashed counts agree at every depth up to `max` (one table for all depths, as
/// the CLI's would be reused).
fn agree(pos: &Reversi, max: u32, table: &mut PerftTable) {
    for depth in 0..=max {
        assert_eq!(
            perft_hashed(pos, depth, table),
            perft(pos, depth),
            "{0}x{0} perft({depth}) from ply {1}",
            pos.size(),
            pos.ply()
        );
    }
}

#[test]
fn hashed_equals_plain_at_every_size() {
    let mut t = PerftTable::with_bytes(4 << 20);
    // Depths of at most a few million leaves: seconds in debug. 4 x 4 ends before depth 13.
    for (size, depth) in [(4, 13), (6, 8), (8, 7), (10, 6), (12, 6), (14, 5), (16, 5)] {
        agree(&start(size), depth, &mut t);
    }
}

#[test]
fn hashed_equals_plain_from_asymmetric_positions() {
    // A few plies in, the start's symmetry is broken: the mirror images in the table must
    // still be exact images. Also crosses passes and game ends on 4 x 4.
    let mut t = PerftTable::with_bytes(1 << 20);
    for (size, plies, depth) in [(4, 3, 10), (6, 5, 6), (8, 5, 5), (10, 4, 4), (16, 3, 4)] {
        let mut pos = start(size);
        let mut moves = Vec::new();
        for k in 0..plies {
            moves.clear();
            pos.legal_moves(&mut moves);
            let Some(&mv) = moves.get(k % moves.len().max(1)) else {
                break;
            };
            pos.play(mv).expect("a legal move");
        }
        agree(&pos, depth, &mut t);
    }
}

#[test]
fn hashed_matches_the_published_tables() {
    let mut t = PerftTable::with_bytes(16 << 20);
    for (size, text, max) in [(8, TABLE_8X8, 10), (6, TABLE_6X6, 11)] {
        let pos = start(size);
        let rows = table(text);
        assert!(rows.len() >= max as usize, "table too short");
        for &(depth, want) in rows.iter().take(max as usize) {
            assert_eq!(
                perft_hashed(&pos, depth, &mut t),
                want,
                "{size}x{size} perft({depth})"
            );
        }
    }
}

#[test]
fn tiny_and_empty_tables_count_the_same() {
    let pos = start(8);
    let want = perft(&pos, 8);
    // One bucket: every store overwrites; fewer bytes than a bucket: no table at all.
    for bytes in [64, 200, 4096, 0, 7] {
        let mut t = PerftTable::with_bytes(bytes);
        assert_eq!(perft_hashed(&pos, 8, &mut t), want, "{bytes}-byte table");
    }
}

#[test]
fn a_table_reused_for_another_size_forgets_the_old_counts() {
    let mut t = PerftTable::with_bytes(1 << 20);
    // 6 x 6 and 8 x 8 share the 8-wide plane: a stale 6 x 6 count would be taken as 8 x 8's.
    let six = perft_hashed(&start(6), 7, &mut t);
    let eight = perft_hashed(&start(8), 7, &mut t);
    assert_eq!(six, perft(&start(6), 7));
    assert_eq!(eight, perft(&start(8), 7));
    assert_eq!(perft_hashed(&start(6), 7, &mut t), six);
}

#[test]
fn a_finished_game_is_one_leaf() {
    let mut g = start(4);
    let mut moves = Vec::new();
    while g.to_move().is_some() {
        moves.clear();
        g.legal_moves(&mut moves);
        let mv = moves.first().copied().unwrap_or(Move::Pass);
        g.play(mv).expect("legal");
    }
    let mut t = PerftTable::with_bytes(1 << 16);
    assert_eq!(perft_hashed(&g, 5, &mut t), 1);
}
