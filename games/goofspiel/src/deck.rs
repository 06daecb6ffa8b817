//! The prize deck and the random numbers it is shuffled with, written down exactly in
//! docs/games/goofspiel.md so that other programs (the OpenSpiel comparison) can deal the same.

use crate::settings::{PointsOrder, Settings};

/// SplitMix64's increment (the golden ratio in 64 bits).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64: the stream every draw of the game comes from.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0): the high 64 bits of the next output times `n`.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Fisher-Yates from the last place down: place `i` swaps with place `below(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Every prize card in the order it comes up: round `r` (from 0) bids for `deck[r]`; with
/// fewer rounds than cards, the deck's tail is never turned.
pub fn deal(s: &Settings, seed: u64) -> Vec<u8> {
    let mut deck: Vec<u8> = (1..=s.cards).collect();
    match s.order {
        PointsOrder::Ascending => {}
        PointsOrder::Descending => deck.reverse(),
        PointsOrder::Random => SplitMix(seed).shuffle(&mut deck),
    }
    deck
}
