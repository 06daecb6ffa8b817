//! Tournament throughput: the same round robin of instant bots (the fixture Reversi bot) played
//! with 1 and with 2 games at once; prints games per second and the speed-up (the bar:
//! at least 1.8x with concurrency 2 on 2 cores).
//!
//! `cargo bench -p arbiter --bench tournament [-- SIZE GAMES_PER_PAIRING]`

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use arbiter_tournament::runner::{self, RunOptions};
use arbiter_tournament::Tournament;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let size: u8 = args.first().and_then(|a| a.parse().ok()).unwrap_or(8);
    let gpp: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    let tmp = std::env::temp_dir().join(format!("arbiter-bench-tournament-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tournament/rbot.c");
    let bot = tmp.join("rbot");
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&bot)
        .arg(&src)
        .status()?
        .success();
    anyhow::ensure!(ok, "cannot compile {}", src.display());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("tournament bench: {size}x{size} Reversi, 6 instant bots, round robin, {gpp} games per pairing, {cores} cores");
    // (games at once, both bots of a game on one core?)
    let layouts = [(1usize, false), (1, true), (2, true)];
    let mut rates = [0.0f64; 3];
    // The machine is shared: the layouts take turns for a few rounds and each keeps its best.
    let rounds = 3;
    for round in 0..rounds {
        for (which, &(concurrency, share)) in layouts.iter().enumerate() {
            let dir = tmp.join(format!("r{round}-c{concurrency}-{share}"));
            std::fs::create_dir_all(&dir)?;
            let mut cfg = format!(
            "seed = 1\ngames_per_pairing = {gpp}\noutput = \"out\"\n[game]\nname = \"reversi\"\nsize = {size}\n[limits]\nmove_ms = 5000\n"
        );
            for i in 0..6 {
                cfg.push_str(&format!(
                    "[[bots]]\nname = \"b{i}\"\ncommand = \"{} {size} {i}\"\n",
                    bot.display()
                ));
            }
            let path = dir.join("t.toml");
            std::fs::write(&path, cfg)?;
            let mut t = Tournament::create(&path)?;
            let t0 = Instant::now();
            let s = runner::run(
                &mut t.store,
                &t.resolved,
                &RunOptions {
                    concurrency: Some(concurrency),
                    quiet: true,
                    max_games: None,
                    share_cores: Some(share),
                    observe: None,
                },
            )?;
            let wall = t0.elapsed().as_secs_f64();
            let games = t.store.games(Some("done"))?;
            let moves: i64 = games
                .iter()
                .filter_map(|g| g.result.as_ref())
                .map(|r| r.moves)
                .sum();
            let game_ms: f64 = games
                .iter()
                .filter_map(|g| g.result.as_ref())
                .map(|r| r.wall_ms)
                .sum::<f64>()
                / games.len().max(1) as f64;
            let rate = s.played as f64 / wall;
            println!(
            "concurrency {concurrency}, {}: {} games ({moves} moves) in {wall:.2} s = {rate:.1} games/s, {:.1} ms per game, {:.0} us per move",
            if share { "both bots on one core" } else { "each bot on its own core" },
            s.played,
            game_ms,
            game_ms * 1000.0 / (moves as f64 / games.len().max(1) as f64)
        );
            rates[which] = rates[which].max(rate);
        }
    }
    println!(
        "best of {rounds}: {:.1} / {:.1} / {:.1} games/s",
        rates[0], rates[1], rates[2]
    );
    if let [own, shared, two] = rates[..] {
        println!(
            "speed-up with concurrency 2: {:.2}x over concurrency 1 with a core per bot, {:.2}x over the faster concurrency-1 layout (bar: >= 1.8x on 2 cores)",
            two / own,
            two / own.max(shared)
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}
