//! `arbiter perft reversi --size N --depth D`: move-path counts, the move generator's proof.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;
use arbiter_engine::reversi::{self, Config, Reversi};
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
    let total = if a.divide && a.depth > 0 {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut sum = 0;
        for mv in moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let n = reversi::perft(&child, a.depth - 1);
            println!("{:>6} {n}", pos.format_move(mv));
            sum += n;
        }
        sum
    } else {
        reversi::perft(&pos, a.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft({}) on {}x{} = {total}  ({secs:.3} s, {:.0} leaves/s)",
        a.depth,
        a.size,
        a.size,
        total as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}
