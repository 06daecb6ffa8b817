//! The shipped opening suites (`openings/*.txt`) and the generator that wrote them: random
//! legal plies from the start, kept when a shallow search of the sparring bots finds the
//! position near balance. Fixed seeds make every file reproducible:
//! `cargo run --release -p arbiter-sparring --example openings -- openings/`.
//!
//! The balancing searches are the first sparring bots' ([`reversi_v1`], [`gomoku_v1`]), frozen
//! so that the shipped files stay reproducible while the playing bots improve.

mod gomoku_v1;
mod reversi_v1;

use std::collections::HashSet;

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::gomoku::{Config as GomokuConfig, Point, Rule};
use arbiter_engine::reversi::{Config as ReversiConfig, Move};
use arbiter_engine::GameConfig;

use crate::Rng;

/// One suite: where it goes and how it is made.
#[derive(Clone, Debug)]
pub struct Suite {
    pub file: &'static str,
    pub config: GameConfig,
    /// Plies from the start.
    pub plies: usize,
    pub count: usize,
    /// Depth of the balancing search, and the largest |value| kept.
    pub depth: u32,
    pub window: i64,
    pub seed: u64,
    /// Gomoku: stones within this many lines of the centre.
    pub radius: u8,
}

pub fn suites() -> Vec<Suite> {
    let reversi = |size, plies, count, depth, window, seed| Suite {
        file: if size == 8 {
            "reversi-8.txt"
        } else {
            "reversi-16.txt"
        },
        config: GameConfig::Reversi(ReversiConfig { size }),
        plies,
        count,
        depth,
        window,
        seed,
        radius: 0,
    };
    let gomoku = |file, rule, seed| Suite {
        file,
        config: GameConfig::Gomoku(GomokuConfig { size: 15, rule }),
        plies: 3,
        count: 12,
        depth: 2,
        window: 2_000,
        seed,
        radius: 3,
    };
    vec![
        reversi(8, 6, 100, 4, 12, 8),
        reversi(16, 8, 100, 2, 12, 16),
        gomoku("gomoku-freestyle.txt", Rule::Freestyle, 1),
        gomoku("gomoku-standard.txt", Rule::Standard, 2),
        gomoku("gomoku-renju.txt", Rule::Renju, 3),
    ]
}

/// The suite's openings, each a line of moves in the game's notation. Fewer than `count` only
/// if the attempts (bounded) run out.
pub fn generate(suite: &Suite) -> anyhow::Result<Vec<String>> {
    let mut rng = Rng::new(suite.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for _ in 0..suite.count * 5_000 {
        if out.len() == suite.count {
            break;
        }
        let Some((game, line)) = random_line(suite, &mut rng)? else {
            continue;
        };
        if !seen.insert(line.clone()) {
            continue;
        }
        if balance(&game, suite.depth).abs() <= suite.window {
            out.push(line);
        }
    }
    Ok(out)
}

/// The file's text: a header saying how it was made, then one opening a line.
pub fn file_text(suite: &Suite, lines: &[String]) -> String {
    let mut text = format!(
        "# {} openings for {}: {} random plies from the start, kept when a {}-ply search of \
         the sparring bots values the position within {} of even (seed {}).\n\
         # Made by: cargo run --release -p arbiter-sparring --example openings -- openings/\n\
         # See docs/openings.md.\n",
        lines.len(),
        suite.file.trim_end_matches(".txt"),
        suite.plies,
        suite.depth,
        suite.window,
        suite.seed
    );
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    text
}

/// Random legal plies; `None` when the line passes, ends the game, or leaves the centre.
fn random_line(suite: &Suite, rng: &mut Rng) -> anyhow::Result<Option<(AnyGame, String)>> {
    let mut game = AnyGame::new(&suite.config)?;
    let mut moves = Vec::new();
    for _ in 0..suite.plies {
        let legal: Vec<AnyMove> = game
            .legal_moves()
            .into_iter()
            .filter(|&m| near_centre(&suite.config, m, suite.radius))
            .collect();
        let Some(mv) = rng.pick(&legal) else {
            return Ok(None);
        };
        if matches!(mv, AnyMove::Reversi(Move::Pass)) {
            return Ok(None);
        }
        moves.push(game.format_move(mv));
        game.play(mv)?;
        if game.outcome().is_some() {
            return Ok(None);
        }
    }
    Ok(Some((game, moves.join(" "))))
}

fn near_centre(config: &GameConfig, mv: AnyMove, radius: u8) -> bool {
    match (config, mv) {
        (GameConfig::Gomoku(c), AnyMove::Gomoku(Point { x, y, .. })) => {
            let mid = c.size / 2;
            x.abs_diff(mid) <= radius && y.abs_diff(mid) <= radius
        }
        _ => true,
    }
}

fn balance(game: &AnyGame, depth: u32) -> i64 {
    match game {
        AnyGame::Reversi(g) => i64::from(reversi_v1::value(g, depth)),
        AnyGame::Gomoku(g) => gomoku_v1::value(g, depth),
        AnyGame::Duel2048(_) | AnyGame::Module(_) => 0,
    }
}
