//! Negamax with alpha-beta (principal variation search), a transposition table, and move
//! ordering by the table's best move, then by a shallow evaluation where the subtree is deep
//! enough to pay for it. The engine plays every move: the search never sees a position the
//! rules do not allow.

use arbiter_engine::reversi::{Move, Reversi};
use arbiter_engine::{Game, Seat};

use super::eval::{evaluate, final_value, Geometry, Weights, WIN};
use super::plane::bit;
use crate::clock::Deadline;
use crate::table::Table;

/// Table slots (a power of two); 16 bytes each.
const TABLE_SLOTS: usize = 1 << 17;
/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 1024;
/// Remaining depth from which children are ordered by their evaluation.
const SORT_DEPTH: u32 = 3;

/// One move's search: its caps, the table, and whether it had to stop.
pub struct Search<'a> {
    pub geo: &'a Geometry,
    pub weights: &'a Weights,
    deadline: &'a Deadline,
    node_cap: u64,
    pub nodes: u64,
    /// Set when the node cap or the deadline stopped the search: its values are then unusable.
    pub stopped: bool,
    table: Table,
}

impl<'a> Search<'a> {
    pub fn new(
        geo: &'a Geometry,
        weights: &'a Weights,
        deadline: &'a Deadline,
        node_cap: u64,
    ) -> Search<'a> {
        Search {
            geo,
            weights,
            deadline,
            node_cap,
            nodes: 0,
            stopped: false,
            table: Table::new(TABLE_SLOTS),
        }
    }

    /// Whether another iteration may start (the clock's soft limit).
    pub fn may_deepen(&self) -> bool {
        self.deadline.may_deepen()
    }

    /// Searches the root's `moves` (in this order first) to `depth`; returns each move's
    /// value in the order searched (the best first), or `None` when stopped.
    pub fn root(
        &mut self,
        game: &Reversi,
        me: Seat,
        moves: &[Move],
        depth: u32,
    ) -> Option<Vec<(i32, Move)>> {
        let mut alpha = -2 * WIN;
        let mut values = Vec::with_capacity(moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            let child = played(game, mv);
            let value = if i == 0 {
                -self.negamax(&child, me.other(), depth - 1, -2 * WIN, -alpha)
            } else {
                // A move is only interesting when it beats the best so far.
                let probe = -self.negamax(&child, me.other(), depth - 1, -alpha - 1, -alpha);
                if probe > alpha {
                    -self.negamax(&child, me.other(), depth - 1, -2 * WIN, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped {
                return None;
            }
            alpha = alpha.max(value);
            values.push((value, mv));
        }
        // Stable: among equal values the earlier (shuffled) move stays first.
        values.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        Some(values)
    }

    /// The value of `game` for `me`, the side whose turn it is.
    pub fn negamax(&mut self, game: &Reversi, me: Seat, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.node_cap || (self.nodes % CLOCK_EVERY == 0 && self.deadline.expired())
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if game.to_move().is_none() {
            return final_value(game, me);
        }
        if let Some(pass) = game.forced_move() {
            // A pass is no choice: it costs no depth.
            let child = played(game, pass);
            return -self.negamax(&child, me.other(), depth, -beta, -alpha);
        }
        if depth == 0 {
            return evaluate(game, me, self.geo, self.weights);
        }
        self.inner(game, me, depth, alpha, beta)
    }

    fn inner(&mut self, game: &Reversi, me: Seat, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        let key = key(game, me);
        let known = self.table.probe(key, depth, alpha, beta);
        if let Some(value) = known.value {
            return value;
        }
        let hint = known.best.map(|sq| sq as u8);
        let children = self.ordered_children(game, me, depth, hint);
        let alpha0 = alpha;
        let mut best = -2 * WIN;
        let mut best_sq = None;
        for (i, (sq, child)) in children.iter().enumerate() {
            let value = if i == 0 {
                -self.negamax(child, me.other(), depth - 1, -beta, -alpha)
            } else {
                let probe = -self.negamax(child, me.other(), depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.negamax(child, me.other(), depth - 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_sq = Some(*sq);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        // Square 255 (p16) is not kept as a best move: it stood for "none" when the ladder in
        // docs/sparring.md was measured.
        let best_sq = best_sq.filter(|&sq| sq != 255).map(u16::from);
        self.table.store(key, depth, (alpha0, beta), best, best_sq);
        best
    }

    /// The children of `game`, the table's best move first, then the most promising.
    fn ordered_children(
        &self,
        game: &Reversi,
        me: Seat,
        depth: u32,
        hint: Option<u8>,
    ) -> Vec<(u8, Reversi)> {
        let mut scored: Vec<(i32, u8, Reversi)> = game
            .legal_places()
            .map(|(row, col)| {
                let child = played(game, Move::Place { row, col });
                let sq = bit(row, col) as u8;
                let score = if Some(sq) == hint {
                    i32::MAX
                } else if depth >= SORT_DEPTH {
                    -evaluate(&child, me.other(), self.geo, self.weights)
                } else {
                    self.geo.order_weight(game, row, col)
                };
                (score, sq, child)
            })
            .collect();
        scored.sort_by_key(|&(score, sq, _)| (std::cmp::Reverse(score), sq));
        scored.into_iter().map(|(_, sq, c)| (sq, c)).collect()
    }
}

pub fn played(game: &Reversi, mv: Move) -> Reversi {
    let mut child = game.clone();
    child.play_unchecked(mv);
    child
}

/// The table key of a position: both disc planes and the side to move, mixed.
fn key(game: &Reversi, me: Seat) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64 ^ me.index() as u64;
    for w in game
        .disc_plane(me)
        .into_iter()
        .chain(game.disc_plane(me.other()))
    {
        h = (h ^ w).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 29;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;
    use arbiter_engine::reversi::Config;

    /// Plain minimax over the engine's moves with the same evaluation: what alpha-beta, the
    /// table and the ordering must not change.
    fn minimax(game: &Reversi, me: Seat, depth: u32, geo: &Geometry, w: &Weights) -> i32 {
        if game.to_move().is_none() {
            return final_value(game, me);
        }
        if let Some(pass) = game.forced_move() {
            return -minimax(&played(game, pass), me.other(), depth, geo, w);
        }
        if depth == 0 {
            return evaluate(game, me, geo, w);
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| -minimax(&played(game, mv), me.other(), depth - 1, geo, w))
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn alpha_beta_agrees_with_minimax() {
        let mut rng = Rng::new(5);
        let w = Weights::default();
        let deadline = Deadline::none();
        for (size, plies) in [(8u8, 10), (8, 30), (6, 12), (10, 20)] {
            let geo = Geometry::new(size);
            for _ in 0..6 {
                let mut game = Reversi::new(&Config { size }).expect("size");
                for _ in 0..plies {
                    let mut moves = Vec::new();
                    game.legal_moves(&mut moves);
                    let Some(mv) = rng.pick(&moves) else { break };
                    game.play(mv).expect("legal");
                }
                let Some(me) = game.to_move() else { continue };
                for depth in 1..=4 {
                    let mut search = Search::new(&geo, &w, &deadline, u64::MAX);
                    let fast = search.negamax(&game, me, depth, -2 * WIN, 2 * WIN);
                    let slow = minimax(&game, me, depth, &geo, &w);
                    assert_eq!(fast, slow, "depth {depth} on\n{game}");
                }
            }
        }
    }
}
