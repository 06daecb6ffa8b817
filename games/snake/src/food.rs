//! The food's cells, drawn from the seed: written down exactly in docs/games/snake.md so that
//! other programs (the OpenSpiel comparison) place the same.

/// SplitMix64's increment (the golden ratio in 64 bits).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Which of `empty` cells (counted row by row from the top left) the `k`-th food of the game
/// with `seed` goes to (`k` from 0): output `k + 1` of SplitMix64 seeded with `seed`, times
/// `empty`, its high 64 bits.
pub fn pick(seed: u64, k: u64, empty: usize) -> usize {
    let x = mix(seed.wrapping_add(k.wrapping_add(1).wrapping_mul(GOLDEN)));
    ((u128::from(x) * empty as u128) >> 64) as usize
}
