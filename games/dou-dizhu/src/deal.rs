//! The deal, drawn from the seed only, so that other programs can reproduce it:
//!
//! 1. `deck = [0, 1, ..., 53]` (cards in OpenSpiel's numbering, [`crate::cards::rank_of_card`]).
//! 2. Fisher-Yates from the top: for `i` from 53 down to 1, `j = next() % (i + 1)`, swap
//!    `deck[i]` and `deck[j]`.
//! 3. `faceup = next() % 51`.
//!
//! `next()` is SplitMix64 seeded with the game's seed: `state += 0x9E3779B97F4A7C15`, then
//! the finaliser of `state` ([`mix`]). Position `k` of the deck (0..51) goes to seat `k % 3`
//! (17 cards each, dealt one at a time as OpenSpiel deals them); positions 51, 52 and 53 are
//! the landlord's three cards. The card at position `faceup` is turned face up: everyone
//! sees its rank, and its holder, seat `faceup % 3`, bids first (OpenSpiel's face-up card).

use crate::cards::Cards;

/// SplitMix64's increment (the golden ratio in 64 bits).
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
/// Cards dealt to the seats; the rest (3) wait for the landlord.
pub const DEALT: usize = 51;

/// SplitMix64's output function.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix(self.0)
    }

    /// `next() % n` (the bias is below n / 2^64: nothing a deal could show).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Fisher-Yates from the top, as step 2 above.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// One deal: the deck in dealing order and the face-up position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Deal {
    /// Card ids (OpenSpiel's numbering) in dealing order.
    pub deck: [u8; 54],
    /// The position (0..51) of the face-up card.
    pub faceup: u8,
}

impl Deal {
    /// The deal of game `seed`.
    pub fn from_seed(seed: u64) -> Deal {
        let mut rng = SplitMix(seed);
        let mut deck = [0u8; 54];
        for (i, c) in deck.iter_mut().enumerate() {
            *c = i as u8;
        }
        rng.shuffle(&mut deck);
        let faceup = rng.below(DEALT) as u8;
        Deal { deck, faceup }
    }

    /// Seat `seat`'s 17 cards.
    pub fn hand(&self, seat: usize) -> Cards {
        let ids: Vec<u8> = (seat..DEALT).step_by(3).map(|k| self.deck[k]).collect();
        Cards::of_ids(&ids)
    }

    /// The landlord's three cards.
    pub fn kitty(&self) -> Cards {
        Cards::of_ids(&self.deck[DEALT..])
    }

    /// The seat that holds the face-up card and bids first.
    pub fn first_bidder(&self) -> usize {
        usize::from(self.faceup) % 3
    }

    /// The rank of the face-up card.
    pub fn faceup_rank(&self) -> usize {
        crate::cards::rank_of_card(self.deck[usize::from(self.faceup)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_is_the_whole_pack_seventeen_each() {
        for seed in 0..50 {
            let d = Deal::from_seed(seed);
            let mut all = d.kitty();
            for s in 0..3 {
                assert_eq!(d.hand(s).total(), 17);
                all.add(&d.hand(s));
            }
            assert_eq!(all, Cards::pack());
            assert!(d.faceup < 51);
            assert!(d.hand(d.first_bidder()).count(d.faceup_rank()) > 0);
            assert_eq!(d, Deal::from_seed(seed), "the same seed, the same deal");
        }
        assert_ne!(Deal::from_seed(1).deck, Deal::from_seed(2).deck);
    }

    #[test]
    fn the_shuffle_is_the_documented_one() {
        // Seed 0's first output of SplitMix64 is the published test value.
        assert_eq!(SplitMix(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        // Recomputed by hand from the rule: the last card swaps with position next() % 54.
        let mut rng = SplitMix(7);
        let j = (rng.next_u64() % 54) as usize;
        let d = Deal::from_seed(7);
        // Later swaps only touch positions below 53.
        assert_eq!(
            usize::from(d.deck[53]),
            j,
            "deck[53] holds the card from position j"
        );
    }
}
