//! Random playouts inside the module (the `playout` request): a Monte Carlo search's inner
//! loop without a request, a list of move texts and a parse per ply.

use alloc::vec::Vec;

use crate::Game;

/// One `playout` request plays at most this many plies...
pub const MAX_PLIES: usize = 10_000;
/// ...and lists at most this many legal moves in all: a bound on one request's work well
/// inside the host's fuel for a call (a listed move costs some hundreds of instructions). The
/// host plays on from where a cut playout stopped.
pub const MAX_LISTED: usize = 4_000_000;

/// Plays uniformly random legal moves from `g` until the game is over or a bound is reached;
/// returns how many plies it played (a simultaneous turn is one ply). The chance of the plies
/// is the game's own (a search reseeds its copy first); `seed` only picks the moves.
pub fn random_playout<G: Game>(g: &mut G, seed: u64) -> usize {
    let mut rng = SplitMix(seed);
    let mut moves = Vec::new();
    let mut joint = Vec::new();
    let (mut plies, mut listed) = (0, 0);
    while plies < MAX_PLIES && listed < MAX_LISTED {
        joint.clear();
        for seat in g.turn().movers().iter() {
            moves.clear();
            g.legal_moves(seat, &mut moves);
            listed += moves.len();
            match moves.get(rng.below(moves.len())) {
                Some(mv) => joint.push((seat, mv.clone())),
                None => return plies,
            }
        }
        // Over; or a module that refuses its own legal move stops here: the host's own
        // ply-by-ply play, which checks every move, finds and reports it.
        if joint.is_empty() || crate::play_joint(g, &joint).is_err() {
            break;
        }
        plies += 1;
    }
    plies
}

/// SplitMix64: small, fast and good enough to pick random moves.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when `n` is 0), by the high half of a 128-bit product.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix(7);
        let mut seen = [0u32; 5];
        for _ in 0..5_000 {
            seen[rng.below(5)] += 1;
        }
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
        assert_eq!(rng.below(0), 0);
    }
}
