//! Negamax with alpha-beta over the most promising points, threats first: a five is played, a
//! five of the opponent is blocked (a forced block costs no depth), an open four wins, and an
//! open three of the opponent is answered (blocked, or met with a four of ours). A table keeps
//! each position's best move for the next iteration of the deepening.

use arbiter_engine::Seat;

use super::board::{Board, Class};
use super::threats::{vcf, Budget, Threats};
use crate::clock::Deadline;
use crate::table::Table;

/// A won game; a win in `ply` plies is worth `WIN - ply`.
pub const WIN: i32 = 1_000_000;
/// Evaluations stay well inside this.
const EVAL_CAP: i64 = 100_000;
const TABLE_SLOTS: usize = 1 << 16;
const CLOCK_EVERY: u64 = 256;
/// Forced blocks extend the search; this bounds the plies from the root all the same.
const MAX_PLY: u32 = 40;
/// Positions a leaf's look for a victory by fours may visit.
const LEAF_VCF_NODES: u64 = 50;
/// Points searched at a node at least, however far from the root.
const MIN_WIDTH: usize = 5;

/// The work a level may do per move.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Points searched at each node (answers to threats may add more).
    pub width: usize,
    /// Positions visited per move at most.
    pub nodes: u64,
    /// Fours of a victory by continuous fours looked for at the leaves (0: none).
    pub leaf_vcf: u32,
    /// Points fewer per ply below the root.
    pub taper: usize,
    /// A point where the opponent makes a four and an open three is answered like an open
    /// three (the search extends there instead of evaluating).
    pub answer_four_three: bool,
}

pub struct Search<'a> {
    pub board: Board,
    caps: Caps,
    deadline: &'a Deadline,
    pub nodes: u64,
    pub stopped: bool,
    table: Table,
}

impl<'a> Search<'a> {
    pub fn new(board: Board, caps: Caps, deadline: &'a Deadline) -> Search<'a> {
        Search {
            board,
            caps,
            deadline,
            nodes: 0,
            stopped: false,
            table: Table::new(TABLE_SLOTS),
        }
    }

    pub fn may_deepen(&self) -> bool {
        self.deadline.may_deepen()
    }

    /// Values of the root's `moves` (searched in this order) at `depth`, best first; `None`
    /// when the node cap or the deadline stopped the iteration.
    pub fn root(&mut self, me: Seat, moves: &[usize], depth: u32) -> Option<Vec<(i32, usize)>> {
        let mut alpha = -2 * WIN;
        let mut values = Vec::with_capacity(moves.len());
        for (k, &p) in moves.iter().enumerate() {
            self.board.place(p, me);
            let value = if k == 0 {
                -self.negamax(me.other(), depth - 1, -2 * WIN, -alpha, 1)
            } else {
                let probe = -self.negamax(me.other(), depth - 1, -alpha - 1, -alpha, 1);
                if probe > alpha {
                    -self.negamax(me.other(), depth - 1, -2 * WIN, -alpha, 1)
                } else {
                    probe
                }
            };
            self.board.undo();
            if self.stopped {
                return None;
            }
            alpha = alpha.max(value);
            values.push((value, p));
        }
        values.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        Some(values)
    }

    /// The value for `me`, to move, of the board.
    fn negamax(&mut self, me: Seat, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.caps.nodes
            || (self.nodes % CLOCK_EVERY == 0 && self.deadline.expired())
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let ply_i = ply as i32;
        let b = &self.board;
        // The class counts settle most positions without reading the points.
        if b.count(me, Class::Five) > 0 {
            return WIN - ply_i;
        }
        if b.count(me.other(), Class::Five) == 0 {
            if b.count(me, Class::OpenFour) > 0 {
                return WIN - ply_i - 2;
            }
            if (depth == 0 && !facing(b, me, self.caps.answer_four_three)) || ply >= MAX_PLY {
                return self.leaf(me, ply);
            }
        }
        let t = Threats::read(&self.board, me);
        let (moves, next_depth) = match t.must_block.as_slice() {
            [] => {
                let mut moves = self.moves(me, &t);
                if !self.facing_threats(&t) {
                    // Fewer points the further from the root: the best few carry the search.
                    let width = self
                        .caps
                        .width
                        .saturating_sub(self.caps.taper * ply as usize);
                    moves.truncate(width.max(MIN_WIDTH));
                }
                (moves, depth.saturating_sub(1))
            }
            [p] if self.board.info(*p, me).class != Class::Forbidden => {
                // The one answer: it costs no depth.
                (vec![*p], depth)
            }
            _ => return -(WIN - ply_i - 1),
        };
        if moves.is_empty() {
            return self.leaf(me, ply);
        }
        let key = self.board.hash ^ (me.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let known = self.table.probe(key, depth, alpha, beta);
        if let Some(value) = known.value {
            return value;
        }
        let mut moves = moves;
        if let Some(k) = moves.iter().position(|&m| Some(m as u16) == known.best) {
            moves[..=k].rotate_right(1);
        }
        let alpha0 = alpha;
        let mut best = -2 * WIN;
        let mut best_move = None;
        for (k, &p) in moves.iter().enumerate() {
            self.board.place(p, me);
            let value = if k == 0 {
                -self.negamax(me.other(), next_depth, -beta, -alpha, ply + 1)
            } else {
                let probe = -self.negamax(me.other(), next_depth, -alpha - 1, -alpha, ply + 1);
                if probe > alpha && probe < beta {
                    -self.negamax(me.other(), next_depth, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            self.board.undo();
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(p as u16);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        self.table
            .store(key, depth, (alpha0, beta), best, best_move);
        best
    }

    /// A quiet position's value for `me`: a short look for a victory by fours, then the
    /// evaluation.
    fn leaf(&mut self, me: Seat, ply: u32) -> i32 {
        if self.caps.leaf_vcf > 0 {
            // Its positions count against the level's cap like the search's own.
            let mut budget = Budget::new(LEAF_VCF_NODES, self.deadline);
            let found = vcf(&mut self.board, me, self.caps.leaf_vcf, &mut budget);
            self.nodes += LEAF_VCF_NODES - budget.left;
            if found.is_some() {
                return WIN - ply as i32 - 2 * self.caps.leaf_vcf as i32;
            }
        }
        evaluate(&self.board, me)
    }

    /// Whether `t` holds a threat this level answers rather than evaluates.
    fn facing_threats(&self, t: &Threats) -> bool {
        t.facing_three || (self.caps.answer_four_three && t.facing_four_three)
    }

    /// The points worth searching for `me`, best first.
    pub fn moves(&self, me: Seat, t: &Threats) -> Vec<usize> {
        if self.facing_threats(t) {
            // Block the three (at a point where it would become a four) or play a four.
            let mut answers: Vec<usize> = t.their_fours.clone();
            answers.extend(t.fours.iter().copied());
            answers.retain(|&p| self.board.info(p, me).class != Class::Forbidden);
            answers.sort_unstable();
            answers.dedup();
            return self.best_first(me, answers, usize::MAX);
        }
        let all: Vec<usize> = self
            .board
            .near_points()
            .filter(|&p| {
                self.board.is_candidate(p) && self.board.info(p, me).class != Class::Forbidden
            })
            .collect();
        self.best_first(me, all, self.caps.width)
    }

    /// `points` ordered by what a stone there does for us and against the opponent; the first
    /// `width` of them.
    fn best_first(&self, me: Seat, points: Vec<usize>, width: usize) -> Vec<usize> {
        let mut scored: Vec<(i32, usize)> = points
            .into_iter()
            .map(|p| (order_score(&self.board, p, me), p))
            .collect();
        scored.sort_by_key(|&(s, p)| (std::cmp::Reverse(s), p));
        scored.truncate(width);
        scored.into_iter().map(|(_, p)| p).collect()
    }
}

/// Whether the opponent threatens to win within its next two moves (see `Threats::facing`),
/// from the class counts alone.
fn facing(b: &Board, me: Seat, four_three: bool) -> bool {
    let them = me.other();
    b.count(them, Class::OpenFour) > 0 || (four_three && b.count(them, Class::FourThree) > 0)
}

/// How good a stone of `me` on `p` looks before any search: its own shapes, and most of what
/// it takes from the opponent.
pub fn order_score(board: &Board, p: usize, me: Seat) -> i32 {
    let mine = board.info(p, me).score;
    let theirs = match board.info(p, me.other()) {
        i if i.class == Class::Forbidden => 0,
        i => i.score,
    };
    mine + theirs * 4 / 5
}

/// The static value for `me`, to move: the point scores of both sides over the empty points.
/// No bonus for the move: with one, even and odd depths disagreed more (measured).
pub fn evaluate(board: &Board, me: Seat) -> i32 {
    let v = board.sum(me) - board.sum(me.other());
    v.clamp(-EVAL_CAP, EVAL_CAP) as i32
}
