//! Reversi move choice: iterative deepening over an alpha-beta search ([`search`]) with a
//! positional evaluation ([`eval`]), and an exact search to the end once few squares are empty.
//!
//! A level is a depth, a work cap (positions visited) and the number of empty squares from
//! which it reads the game to the end; the clock's deadline stops it earlier on short limits.

mod eval;
mod plane;
mod search;

use arbiter_engine::reversi::{Move, Reversi};
use arbiter_engine::Game;

use super::Rng;
use crate::clock::Deadline;
use eval::{Geometry, Weights};
use search::Search;

pub use eval::Weights as EvalWeights;

/// What a level may do on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Plies of the deepening's last iteration.
    pub depth: u32,
    /// Positions visited per move at most (an iteration that would pass it is dropped).
    pub nodes: u64,
    /// Empty squares from which the game is searched to its end (0: never).
    pub solve: u32,
}

impl Level {
    /// Level `depth` of `builtin:N`: 1 is greedy (one ply), 2 to 5 search deeper, read the
    /// end earlier and may visit more positions; above 5, the depth grows alone.
    pub fn of(depth: u32) -> Level {
        let (nodes, solve) = match depth {
            0 | 1 => (1_000, 0),
            2 => (20_000, 6),
            3 => (60_000, 8),
            4 => (150_000, 10),
            _ => (400_000, 12),
        };
        Level {
            depth,
            // Deeper than 5 (tests, patient players): more work as well.
            nodes: nodes.max(u64::from(depth.saturating_sub(5)) * 400_000),
            solve,
        }
    }
}

/// The move for the side to move: random at depth 0, best by the level's search otherwise
/// (random among equals). `None` when the game is over.
pub fn choose(game: &Reversi, depth: u32, rng: &mut Rng) -> Option<Move> {
    choose_within(game, Level::of(depth), rng, &Deadline::none())
}

/// [`choose`] at `level`, stopping at `deadline` at the latest.
pub fn choose_within(
    game: &Reversi,
    level: Level,
    rng: &mut Rng,
    deadline: &Deadline,
) -> Option<Move> {
    choose_weighted(game, level, rng, deadline, &Weights::default())
}

/// [`choose_within`] with other evaluation weights (for tuning).
pub fn choose_weighted(
    game: &Reversi,
    level: Level,
    rng: &mut Rng,
    deadline: &Deadline,
    weights: &Weights,
) -> Option<Move> {
    let me = game.to_move()?;
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.len() <= 1 || level.depth == 0 {
        return rng.pick(&moves);
    }
    // Shuffle first so that equal moves are chosen at random.
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    let geo = Geometry::new(game.size());
    let mut search = Search::new(&geo, weights, deadline, level.nodes);
    let discs: u32 = game.counts().iter().map(|&c| u32::from(c)).sum();
    let empties = u32::from(game.size()).pow(2) - discs;
    if empties <= level.solve {
        // Passes cost no depth, so `empties` plies reach the end.
        if let Some(values) = search.root(game, me, &moves, empties) {
            return values.first().map(|&(_, mv)| mv);
        }
        search = Search::new(&geo, weights, deadline, level.nodes);
    }
    deepen(&mut search, game, moves, level.depth)
}

/// Iterative deepening: each iteration searches the last one's best move first; the last
/// iteration that finished decides.
fn deepen(
    search: &mut Search<'_>,
    game: &Reversi,
    mut moves: Vec<Move>,
    depth: u32,
) -> Option<Move> {
    let me = game.to_move()?;
    let mut best = moves.first().copied();
    for d in 1..=depth {
        if d > 1 && !search.may_deepen() {
            break;
        }
        let Some(values) = search.root(game, me, &moves, d) else {
            break;
        };
        best = values.first().map(|&(_, mv)| mv);
        moves = values.into_iter().map(|(_, mv)| mv).collect();
    }
    best
}
