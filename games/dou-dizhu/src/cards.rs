//! Cards by rank: suits never matter in Dou Dizhu, so a set of cards is a count per rank.
//!
//! Ranks, lowest first: `3 4 5 6 7 8 9 T J Q K A 2`, then the black joker `B` and the red
//! joker `R` (OpenSpiel's "BWJ" and "CJ"). Index 0 is the 3, 11 the ace, 12 the 2.

/// The number of ranks: thirteen, then the two jokers.
pub const RANKS: usize = 15;
/// The notation of each rank, lowest first.
pub const RANK_CHARS: [u8; RANKS] = *b"3456789TJQKA2BR";
/// The ace: the highest rank a chain may reach (2s and jokers are never in a chain).
pub const ACE: usize = 11;
/// The 2, the highest rank with four cards.
pub const TWO: usize = 12;
pub const BLACK_JOKER: usize = 13;
pub const RED_JOKER: usize = 14;

/// How many cards of `rank` the pack holds: four, one of each joker.
pub fn in_pack(rank: usize) -> u8 {
    if rank <= TWO {
        4
    } else {
        1
    }
}

/// The rank of card `id` (0..54) in OpenSpiel's numbering: `id % 13` for the 52 suited cards
/// (suit `id / 13`, clubs, diamonds, hearts, spades), 52 the black joker, 53 the red one.
pub fn rank_of_card(id: u8) -> usize {
    match id {
        52 => BLACK_JOKER,
        53 => RED_JOKER,
        _ => usize::from(id % 13),
    }
}

/// The rank a character names (`t` for `T` too), if any.
pub fn rank_of_char(c: u8) -> Option<usize> {
    let c = c.to_ascii_uppercase();
    RANK_CHARS.iter().position(|&r| r == c)
}

/// A set of cards: how many of each rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Cards(pub [u8; RANKS]);

impl Cards {
    pub const NONE: Cards = Cards([0; RANKS]);

    /// The whole pack of 54.
    pub fn pack() -> Cards {
        let mut c = Cards::NONE;
        for r in 0..RANKS {
            c.0[r] = in_pack(r);
        }
        c
    }

    /// The cards of these ids (OpenSpiel's numbering).
    pub fn of_ids(ids: &[u8]) -> Cards {
        let mut c = Cards::NONE;
        for &id in ids {
            c.0[rank_of_card(id)] += 1;
        }
        c
    }

    pub fn count(&self, rank: usize) -> u8 {
        self.0[rank]
    }

    pub fn total(&self) -> usize {
        self.0.iter().map(|&n| usize::from(n)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Whether every card of `other` is here.
    pub fn holds(&self, other: &Cards) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    pub fn add(&mut self, other: &Cards) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a += b;
        }
    }

    /// Takes `other` out; the caller has checked that it is here ([`Cards::holds`]).
    pub fn remove(&mut self, other: &Cards) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.saturating_sub(*b);
        }
    }

    /// The lowest rank held.
    pub fn lowest(&self) -> Option<usize> {
        self.0.iter().position(|&n| n > 0)
    }

    /// The cards as ranks, lowest first, each repeated by its count (`33455B`).
    pub fn text(&self) -> String {
        let mut s = String::with_capacity(self.total());
        self.push_text(&mut s);
        s
    }

    pub fn push_text(&self, out: &mut String) {
        for (r, &n) in self.0.iter().enumerate() {
            for _ in 0..n {
                out.push(char::from(RANK_CHARS[r]));
            }
        }
    }

    /// Reads ranks in any order (`T` or `t` for ten); `None` for any other character or
    /// for more cards of a rank than the pack has.
    pub fn parse(text: &str) -> Option<Cards> {
        let mut c = Cards::NONE;
        for b in text.bytes() {
            let r = rank_of_char(b)?;
            c.0[r] += 1;
            if c.0[r] > in_pack(r) {
                return None;
            }
        }
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_ids_and_text() {
        assert_eq!(rank_of_card(0), 0);
        assert_eq!(rank_of_card(12), TWO);
        assert_eq!(rank_of_card(13), 0, "the 3 of diamonds");
        assert_eq!(rank_of_card(51), TWO);
        assert_eq!(rank_of_card(52), BLACK_JOKER);
        assert_eq!(rank_of_card(53), RED_JOKER);
        assert_eq!(Cards::pack().total(), 54);
        let c = Cards::parse("tR3b3").unwrap();
        assert_eq!(c.text(), "33TBR");
        assert_eq!(Cards::parse("33333"), None, "five 3s");
        assert_eq!(Cards::parse("BB"), None, "one black joker");
        assert_eq!(Cards::parse("31"), None);
        assert!(Cards::pack().holds(&c) && !c.holds(&Cards::pack()));
        assert_eq!(c.lowest(), Some(0));
    }
}
