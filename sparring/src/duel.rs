//! 2048 duel move choice. The game has no hidden chance: the random sequence is known to both
//! players from the start, so a plain minimax with alpha-beta on the engine sees the future
//! exactly. The evaluation weighs tiles by level like the final count does (a higher level
//! beats any number of lower ones at the end; 4^level keeps merges worth making).
//!
//! Iterative deepening up to the level's depth: an iteration that passes the work cap or the
//! deadline is dropped, and the last finished one decides.

use arbiter_engine::duel2048::{Duel, Move};
use arbiter_engine::{Game, Seat};

use super::Rng;
use crate::clock::Deadline;

const WIN: i64 = 1 << 60;
/// Positions visited per decision at most (the whole game has only 5 s of thinking time).
const NODE_BUDGET: u64 = 20_000;
/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 256;

/// The decision for the side to move: random at depth 0, best after a `depth`-ply minimax
/// otherwise (random among equals). `None` when the game is over.
pub fn choose(game: &Duel, depth: u32, rng: &mut Rng) -> Option<Move> {
    choose_within(game, depth, rng, &Deadline::none())
}

/// [`choose`], stopping at `deadline` at the latest.
pub fn choose_within(game: &Duel, depth: u32, rng: &mut Rng, deadline: &Deadline) -> Option<Move> {
    let me = game.to_move()?;
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.len() <= 1 || depth == 0 {
        return rng.pick(&moves);
    }
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    let mut search = Search {
        me,
        nodes: 0,
        deadline,
        stopped: false,
    };
    let mut best = moves.first().copied();
    for d in 1..=depth {
        if d > 1 && !deadline.may_deepen() {
            break;
        }
        let Some(choice) = search.root(game, &moves, d) else {
            break;
        };
        best = Some(choice);
        // The best move first in the next iteration (ties keep the shuffled order).
        if let Some(i) = moves.iter().position(|&m| m == choice) {
            moves[..=i].rotate_right(1);
        }
    }
    best
}

struct Search<'a> {
    me: Seat,
    nodes: u64,
    deadline: &'a Deadline,
    stopped: bool,
}

impl Search<'_> {
    /// The best of `moves` at `depth`, `None` if the iteration was stopped.
    fn root(&mut self, game: &Duel, moves: &[Move], depth: u32) -> Option<Move> {
        let mut best: Option<(i64, Move)> = None;
        let mut alpha = -WIN - 1;
        for &mv in moves {
            let mut child = game.clone();
            child.play_unchecked(mv);
            let value = self.search(&child, depth - 1, alpha, WIN + 1);
            if self.stopped && depth > 1 {
                return None;
            }
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, mv));
            }
            alpha = alpha.max(value);
        }
        best.map(|(_, mv)| mv)
    }

    /// The value of `game` for `me` (minimax: `me` maximises, the opponent minimises).
    fn search(&mut self, game: &Duel, depth: u32, mut alpha: i64, mut beta: i64) -> i64 {
        self.nodes += 1;
        if self.nodes > NODE_BUDGET || (self.nodes % CLOCK_EVERY == 0 && self.deadline.expired()) {
            self.stopped = true;
        }
        let me = self.me;
        let Some(mover) = game.to_move() else {
            return match game.outcome().and_then(|o| o.winner) {
                Some(w) if w == me => WIN,
                Some(_) => -WIN,
                None => 0,
            };
        };
        if let Some(forced) = game.forced_move() {
            // A skipped step is no decision: it costs no depth.
            let mut child = game.clone();
            child.play_unchecked(forced);
            return self.search(&child, depth, alpha, beta);
        }
        if depth == 0 || self.stopped {
            return evaluate(game, me);
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let maximise = mover == me;
        let mut best = if maximise { -WIN - 1 } else { WIN + 1 };
        for mv in moves {
            let mut child = game.clone();
            child.play_unchecked(mv);
            let value = self.search(&child, depth - 1, alpha, beta);
            if maximise {
                best = best.max(value);
                alpha = alpha.max(best);
            } else {
                best = best.min(value);
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Tiles weighted 4^level, mine minus the opponent's.
pub fn evaluate(game: &Duel, me: Seat) -> i64 {
    let mine = game.level_counts(me);
    let theirs = game.level_counts(me.other());
    let mut total = 0i64;
    for level in 1..mine.len() {
        let weight = 1i64 << (2 * level);
        total += (i64::from(mine[level]) - i64::from(theirs[level])) * weight;
    }
    total
}
