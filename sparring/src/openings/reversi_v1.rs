//! The first sparring bots' Reversi search, frozen: the shipped suites (`openings/reversi-*.txt`)
//! were balanced with it, and the generator must keep writing them byte for byte. The playing
//! bots have moved on (`crate::reversi`); this copy only values positions.

use arbiter_engine::reversi::{Move, Reversi};
use arbiter_engine::{Game, Seat};

/// Above any evaluation: a won or lost game.
const WIN: i32 = 1_000_000;
/// Work cap per valuation, in positions visited.
const NODE_BUDGET: u64 = 40_000;

struct Search {
    nodes: u64,
}

impl Search {
    /// The value of `game` for the side to move.
    fn negamax(&mut self, game: &Reversi, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let Some(me) = game.to_move() else {
            return final_value(game);
        };
        if depth == 0 || self.nodes > NODE_BUDGET {
            return evaluate(game, me);
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        order(game, &mut moves);
        let mut best = -WIN - 1;
        for mv in moves {
            let mut child = game.clone();
            child.play_unchecked(mv);
            // A pass keeps the depth so that the search does not stop on a forced ply.
            let next = if mv == Move::Pass { depth } else { depth - 1 };
            let score = -self.negamax(&child, next, -beta, -alpha);
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The finished game's value for the seat that would move next (the one after the last mover).
fn final_value(game: &Reversi) -> i32 {
    // After the game ends nobody is to move; score from the first seat and let the caller's
    // negation sort it out: negamax calls this from the child of the last mover, whose
    // "side to move" we take to be the seat that did not make the last ply.
    let [a, b] = game.counts();
    let diff = i32::from(a) - i32::from(b);
    let first_value = match diff.signum() {
        1 => WIN - 64 + diff.min(63),
        -1 => -WIN + 64 + diff.max(-63),
        _ => 0,
    };
    if last_mover_is_first(game) {
        -first_value
    } else {
        first_value
    }
}

/// Who made the last ply: plies alternate from black, passes included.
fn last_mover_is_first(game: &Reversi) -> bool {
    game.ply() % 2 == 1
}

/// Positional weight of a square: corners good, squares next to an empty corner bad, edges fair.
fn square_weight(game: &Reversi, row: u8, col: u8) -> i32 {
    let n = game.size();
    let last = n - 1;
    let edge_r = row == 0 || row == last;
    let edge_c = col == 0 || col == last;
    if edge_r && edge_c {
        return 30;
    }
    // The corner this square touches, if it is adjacent (X and C squares).
    let near = |v: u8| -> Option<u8> {
        if v <= 1 {
            Some(0)
        } else if v >= last - 1 {
            Some(last)
        } else {
            None
        }
    };
    if let (Some(cr), Some(cc)) = (near(row), near(col)) {
        if game.disc(cr, cc).is_none() {
            return if edge_r || edge_c { -8 } else { -15 };
        }
        return 3;
    }
    if edge_r || edge_c {
        return 4;
    }
    0
}

/// Static value for `me`: mobility, positional weights; discs count a little.
fn evaluate(game: &Reversi, me: Seat) -> i32 {
    let n = game.size();
    let mut position = 0;
    let mut discs = 0;
    for row in 0..n {
        for col in 0..n {
            if let Some(s) = game.disc(row, col) {
                let w = square_weight(game, row, col);
                if s == me {
                    position += w;
                    discs += 1;
                } else {
                    position -= w;
                    discs -= 1;
                }
            }
        }
    }
    let mine = game.mobility(me) as i32;
    let theirs = game.mobility(me.other()) as i32;
    let mobility = 100 * (mine - theirs) / (mine + theirs + 2);
    mobility + 3 * position + discs / 4
}

/// Corners first, then by positional weight: good moves first make alpha-beta cut more.
fn order(game: &Reversi, moves: &mut [Move]) {
    moves.sort_by_key(|&mv| match mv {
        Move::Place { row, col } => -square_weight(game, row, col),
        Move::Pass => 0,
    });
}

/// The value of `game` for the side to move by a `depth`-ply search (within the node budget):
/// the opening generator keeps positions whose value is near 0.
pub fn value(game: &Reversi, depth: u32) -> i32 {
    Search { nodes: 0 }.negamax(game, depth, -WIN - 1, WIN + 1)
}
