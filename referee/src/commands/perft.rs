//! `arbiter perft reversi --size N --depth D`: move-path counts, the move generator's proof.
//! Counted with a transposition table (`--hash-mb`) unless `--no-hash` asks for every path.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use arbiter_engine::reversi::{self, Config, PerftTable, Reversi};
use arbiter_engine::Game;

use crate::cli::PerftArgs;

pub fn run(a: &PerftArgs) -> anyhow::Result<ExitCode> {
    if a.game != "reversi" {
        bail!("perft is available for reversi only (got {:?})", a.game);
    }
    if a.depth > 20 {
        bail!("depth {} would run for years; use at most 20", a.depth);
    }
    let pos = Reversi::new(&Config { size: a.size })?;
    let start = Instant::now();
    // The table is allocated zeroed: pages the search never reaches cost nothing.
    let mut table = (!a.no_hash).then(|| PerftTable::with_bytes(a.hash_mb as usize * (1 << 20)));
    let mut count = |p: &Reversi, depth: u32| match table.as_mut() {
        Some(t) => reversi::perft_hashed(p, depth, t),
        None => reversi::perft(p, depth),
    };
    let total = if a.divide && a.depth > 0 {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut sum = 0;
        for mv in moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let n = count(&child, a.depth - 1);
            println!("{:>6} {n}", pos.format_move(mv));
            sum += n;
        }
        sum
    } else {
        count(&pos, a.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let how = match a.no_hash {
        true => "plain".to_string(),
        false => format!("hashed, {} MiB table", a.hash_mb),
    };
    println!(
        "perft({}) on {}x{} = {total}  ({secs:.3} s, {:.0} leaves/s, {how})",
        a.depth,
        a.size,
        a.size,
        total as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}
