//! 2048 duel move choice. The game has no hidden chance: the random sequence is known to both
//! players from the start, so a plain minimax with alpha-beta on the engine sees the future
//! exactly. The evaluation weighs tiles by level like the final count does (a higher level
//! beats any number of lower ones at the end; 4^level keeps merges worth making).

use arbiter_engine::duel2048::{Duel, Move};
use arbiter_engine::{Game, Seat};

use super::Rng;

const WIN: i64 = 1 << 60;
/// Positions visited per decision at most (the whole game has only 5 s of thinking time).
const NODE_BUDGET: u64 = 20_000;

/// The decision for the side to move: random at depth 0, best after a `depth`-ply minimax
/// otherwise (random among equals). `None` when the game is over.
pub fn choose(game: &Duel, depth: u32, rng: &mut Rng) -> Option<Move> {
    let me = game.to_move()?;
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.len() <= 1 || depth == 0 {
        return rng.pick(&moves);
    }
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
    let mut nodes = 0;
    let mut best: Option<(i64, Move)> = None;
    let mut alpha = -WIN - 1;
    for mv in moves {
        let mut child = game.clone();
        child.play_unchecked(mv);
        let value = search(&child, me, depth - 1, alpha, WIN + 1, &mut nodes);
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, mv));
        }
        alpha = alpha.max(value);
    }
    best.map(|(_, mv)| mv)
}

/// The value of `game` for `me` (minimax: `me` maximises, the opponent minimises).
fn search(
    game: &Duel,
    me: Seat,
    depth: u32,
    mut alpha: i64,
    mut beta: i64,
    nodes: &mut u64,
) -> i64 {
    *nodes += 1;
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
        return search(&child, me, depth, alpha, beta, nodes);
    }
    if depth == 0 || *nodes > NODE_BUDGET {
        return evaluate(game, me);
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if mover == me {
        let mut best = -WIN - 1;
        for mv in moves {
            let mut child = game.clone();
            child.play_unchecked(mv);
            best = best.max(search(&child, me, depth - 1, alpha, beta, nodes));
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        best
    } else {
        let mut best = WIN + 1;
        for mv in moves {
            let mut child = game.clone();
            child.play_unchecked(mv);
            best = best.min(search(&child, me, depth - 1, alpha, beta, nodes));
            beta = beta.min(best);
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
