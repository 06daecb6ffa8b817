//! `builtin:mc:N`, a search that knows no game: flat Monte Carlo. Each legal move gets an equal
//! share of N random playouts through the module; the move whose playouts score best for the
//! seat wins (a win 1, a draw 1/2). More playouts, more strength: the ladder.

use arbiter_kit_host::check::Rng;
use arbiter_kit_host::{KitError, Rules, State};

/// A playout longer than this is scored as a draw (a module whose game never ends is caught
/// by `arbiter game check`, not here).
const MAX_PLAYOUT_PLIES: usize = 10_000;

/// The best move for `seat` among `legal` after `playouts` random games.
pub fn best_move(
    rules: &mut Rules,
    state: State,
    seat: usize,
    legal: &[String],
    playouts: u32,
    rng: &mut Rng,
) -> Result<String, KitError> {
    let per_move = (playouts as usize / legal.len().max(1)).max(1);
    let mut best = (f64::MIN, 0);
    for (i, mv) in legal.iter().enumerate() {
        let mut total = 0.0;
        for _ in 0..per_move {
            total += playout(rules, state, mv, seat, rng)?;
        }
        if total > best.0 {
            best = (total, i);
        }
    }
    Ok(legal[best.1].clone())
}

/// Plays `mv` then random moves to the end on a copy of `state`; the result for `seat`.
fn playout(
    rules: &mut Rules,
    state: State,
    mv: &str,
    seat: usize,
    rng: &mut Rng,
) -> Result<f64, KitError> {
    // Its own dice: the copy of a game with chance must not roll the game's future.
    let s = rules.duplicate_reseeded(state, rng.next_u64())?;
    let mut next = Some(mv.to_string());
    let mut value = 0.5;
    for _ in 0..MAX_PLAYOUT_PLIES {
        if let Some(m) = next.take() {
            // A move the module lists but refuses is found by `arbiter game check`; here it
            // only ends the playout.
            if rules.play(s, &m)?.is_err() {
                break;
            }
        }
        let st = rules.status(s)?;
        if let Some(o) = st.outcome {
            value = match o.winner {
                Some(w) if w == seat => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            break;
        }
        next = match st.forced {
            Some(f) => Some(f),
            None => {
                let legal = rules.legal(s)?;
                legal.get(rng.below(legal.len())).cloned()
            }
        };
    }
    rules.release(s)?;
    Ok(value)
}
