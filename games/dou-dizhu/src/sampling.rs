//! `sample`: a deal the seat cannot tell from the real one. It keeps what the seat knows (its
//! own hand, every card played and by whom, each hand's count, the landlord's three cards once
//! shown, the face-up card's rank in its holder's deal) and deals everything else afresh.
//!
//! What the others must still hold: a seat's known cards at the deal (the face-up card for its
//! holder; the three shown cards for the landlord) less what it has played of those ranks. The
//! rest of the unseen cards are shuffled (SplitMix64 from the sample's seed) and dealt to fill
//! each other hand to its count, and, while the bidding runs, the three hidden cards. Every
//! deal consistent with what the seat knows can come out; the draw does not weigh them by
//! what the bids and plays suggest.

use crate::cards::{Cards, RANKS};
use crate::deal::SplitMix;
use crate::{DouDizhu, SEATS};

/// Keys the sample's shuffle apart from the game's own deal with the same seed.
const SAMPLE_KEY: u64 = 0x5341_4D50_4C45_4444;

/// The cards `seat` is known to have been dealt.
fn known_at_deal(g: &DouDizhu, seat: usize) -> Cards {
    let mut c = Cards::NONE;
    let (rank, holder) = g.faceup;
    if holder == seat {
        c.0[rank] += 1;
    }
    if g.landlord == Some(seat) {
        c.add(&g.kitty);
    }
    c
}

/// The cards `seat` must still hold: known at the deal and not played since.
fn still_held(g: &DouDizhu, seat: usize) -> Cards {
    let mut c = known_at_deal(g, seat);
    c.remove(&g.played[seat]);
    c
}

pub fn sample(g: &DouDizhu, seat: usize, seed: u64) -> DouDizhu {
    let mut out = g.clone();
    let others: Vec<usize> = (0..SEATS).filter(|&s| s != seat).collect();
    let mut pool = Cards::pack();
    pool.remove(&g.hands[seat]);
    for s in 0..SEATS {
        pool.remove(&g.played[s]);
    }
    for &s in &others {
        let keep = still_held(g, s);
        pool.remove(&keep);
        out.hands[s] = keep;
    }
    let mut cards: Vec<usize> = (0..RANKS)
        .flat_map(|r| std::iter::repeat_n(r, usize::from(pool.count(r))))
        .collect();
    SplitMix(seed ^ SAMPLE_KEY).shuffle(&mut cards);
    let mut next = cards.into_iter();
    let mut fill = |hand: &mut Cards, want: usize| {
        while hand.total() < want {
            match next.next() {
                Some(r) => hand.0[r] += 1,
                None => break,
            }
        }
    };
    for &s in &others {
        fill(&mut out.hands[s], g.hands[s].total());
    }
    if g.landlord.is_none() {
        out.kitty = Cards::NONE;
        fill(&mut out.kitty, 3);
    }
    out
}
