//! Reversi speed: 8 x 8 perft against the published table, 16 x 16 perft, and random playouts.
//!
//! `cargo bench -p arbiter-engine --bench reversi`
//! Env: `REVERSI_PERFT_DEPTH` (8 x 8 depth, default 12), `REVERSI_PERFT16_DEPTH` (default 10),
//! `REVERSI_PLAYOUT_SECS` (seconds of 16 x 16 playouts, default 2), `REVERSI_HASH_MB` (the
//! hashed perft's table, default 16), `REVERSI_HASHED_DEPTH` (its 8 x 8 depth, default 13),
//! `REVERSI_ONLY_HASHED=1` (skip the plain perft and playouts).

use std::time::Instant;

use arbiter_engine::reversi::{perft, perft_hashed, Config, Move, PerftTable, Reversi};
use arbiter_engine::Game;

const TABLE_8X8: &str = include_str!("../tests/data/perft_reversi_8x8.txt");

/// `depth nodes` lines of a perft table (comments start with `#`).
fn table(text: &str) -> Vec<(u32, u64)> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
        })
        .collect()
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

fn new_game(size: u8) -> Reversi {
    match Reversi::new(&Config { size }) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    }
}

/// xorshift64*: a tiny, deterministic generator for the playouts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// The hashed perft, a fresh table per depth (as `arbiter perft` makes one per run), checked
/// against the published 8 x 8 counts; 16 x 16 against the plain perft. Returns mismatches.
fn hashed(expected: &[(u32, u64)]) -> u32 {
    let mb: usize = env_or("REVERSI_HASH_MB", 16);
    let depth8: u32 = env_or("REVERSI_HASHED_DEPTH", 13);
    let mut mismatches = 0;
    println!("reversi 8x8 perft with a {mb} MiB transposition table (fresh for each depth)");
    let start8 = new_game(8);
    for depth in 8..=depth8 {
        let t = Instant::now();
        let mut table = PerftTable::with_bytes(mb << 20);
        let nodes = perft_hashed(&start8, depth, &mut table);
        let secs = t.elapsed().as_secs_f64();
        let check = match expected.iter().find(|(d, _)| *d == depth) {
            Some((_, want)) if *want == nodes => String::from("ok"),
            Some((_, want)) => {
                mismatches += 1;
                format!("MISMATCH!!! expected {want}")
            }
            None => String::from("(no published count)"),
        };
        println!("  depth {depth:2}: {nodes:>15} leaves {secs:9.3} s  {check}");
    }
    println!("reversi 16x16 perft, hashed against plain");
    let start16 = new_game(16);
    for depth in [7, 8] {
        let t = Instant::now();
        let mut table = PerftTable::with_bytes(mb << 20);
        let fast = perft_hashed(&start16, depth, &mut table);
        let hashed_secs = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let plain = perft(&start16, depth);
        let plain_secs = t.elapsed().as_secs_f64();
        if fast != plain {
            mismatches += 1;
        }
        println!(
            "  depth {depth:2}: {fast:>15} leaves hashed {hashed_secs:.3} s, plain {plain_secs:.3} s{}",
            if fast == plain { "" } else { "  MISMATCH!!!" }
        );
    }
    mismatches
}

fn main() {
    let depth8: u32 = env_or("REVERSI_PERFT_DEPTH", 12);
    let depth16: u32 = env_or("REVERSI_PERFT16_DEPTH", 10);
    let playout_secs: f64 = env_or("REVERSI_PLAYOUT_SECS", 2.0);
    let expected = table(TABLE_8X8);
    let mut mismatches = hashed(&expected);
    if env_or("REVERSI_ONLY_HASHED", 0u8) == 1 {
        std::process::exit(i32::from(mismatches > 0));
    }

    println!("reversi 8x8 perft (single thread, bulk-counted last ply)");
    let start8 = new_game(8);
    for depth in 1..=depth8 {
        let t = Instant::now();
        let nodes = perft(&start8, depth);
        let secs = t.elapsed().as_secs_f64();
        let check = match expected.iter().find(|(d, _)| *d == depth) {
            Some((_, want)) if *want == nodes => String::from("ok"),
            Some((_, want)) => {
                mismatches += 1;
                format!("MISMATCH!!! expected {want}")
            }
            None => String::from("(no published count)"),
        };
        println!(
            "  depth {depth:2}: {nodes:>15} leaves {secs:9.3} s {:>8.1} M leaves/s  {check}",
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }

    println!("reversi 16x16 perft (no published counts)");
    let start16 = new_game(16);
    for depth in 1..=depth16 {
        let t = Instant::now();
        let nodes = perft(&start16, depth);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "  depth {depth:2}: {nodes:>15} leaves {secs:9.3} s {:>8.1} M leaves/s",
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }

    for size in [16u8, 8] {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut moves: Vec<Move> = Vec::new();
        let (mut games, mut plies) = (0u64, 0u64);
        let t = Instant::now();
        while t.elapsed().as_secs_f64() < playout_secs {
            let mut g = new_game(size);
            while g.to_move().is_some() {
                moves.clear();
                g.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len())];
                if let Err(e) = g.play(mv) {
                    panic!("legal move {mv:?} rejected: {e}");
                }
            }
            games += 1;
            plies += g.ply() as u64;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "reversi {size}x{size} random playouts (Game API: legal_moves + play): \
             {games} games in {secs:.2} s = {:.0} games/s, {:.2} M plies/s",
            games as f64 / secs,
            plies as f64 / secs / 1e6
        );
    }

    if mismatches > 0 {
        println!("MISMATCH: {mismatches} 8x8 perft count(s) differ from the published table!");
        std::process::exit(1);
    }
}
