//! What a seat cannot know under `imp_info`, drawn afresh: the other seats' past bids (and so
//! their hands), consistently with what it knows (its own bids, the prizes and who took each).
//!
//! A round's outcome couples the seats (the taker bid more than everyone), so the draw goes in
//! two steps. First, for each round, a *top*: the highest bid `m` and the seats that bid it
//! (the taker alone, or two or more for a discarded prize); every other seat then bid less than
//! `m`. With the tops fixed, each seat's bids are independent: an interval per round (`[m, m]`
//! or `[1, m - 1]`), distinct cards, which an interval matching decides exactly. The tops are
//! chosen round by round at random, backtracking when a seat's bids could no longer be
//! matched (the rounds still open held to the bounds they must keep whatever their top);
//! then each seat's bids are drawn at random among those that keep its matching possible.
//! The result is a history the seat cannot tell from the true one; not a uniform draw among
//! them.

use arbiter_game::{Seat, SeatSet};

use crate::{Goofspiel, SplitMix};

/// A bound on the tops tried per attempt, and the attempts (each in a new random order):
/// restarts beat a long search stuck on an early wrong choice, and a history built to make
/// the search slow costs at most their product before the fallback below.
const BUDGET: u32 = 2_000;
const ATTEMPTS: u32 = 20;
/// Keys the bids' stream apart from the deck's reshuffle of the same seed.
const BIDS_KEY: u64 = 0x474F_4F46_4249_4453;

/// A bid between `lo` and `hi`, both included (`lo > hi`: no bid can be).
type Interval = (u8, u8);

/// The highest bid of a round and the seats that bid it.
type Top = (u8, SeatSet);

/// What `me` knows of one past round.
struct Known {
    mine: Option<u8>,
    winner: Option<Seat>,
    /// The seats that bid (not yet retired).
    bidders: SeatSet,
}

struct Problem {
    cards: u8,
    seats: usize,
    me: Seat,
    rounds: Vec<Known>,
}

/// Replaces every other seat's past bids in `g` by a draw consistent with what `me` knows, and
/// their hands by the cards those bids leave.
pub fn redraw_bids(g: &mut Goofspiel, me: Seat, seed: u64) {
    let problem = Problem::of(g, me);
    let mut rng = SplitMix(seed ^ BIDS_KEY);
    let bids = problem
        .draw(&mut rng)
        .unwrap_or_else(|| problem.unconstrained(&mut rng));
    let full = (1u32 << g.settings.cards) - 1;
    for seat in (0..problem.seats).filter(|&s| s != me) {
        let mut spent = 0u32;
        for (round, bid) in g.history.iter_mut().zip(&bids) {
            if let (Some(slot), Some(b)) = (round.bids[seat].as_mut(), bid[seat]) {
                *slot = b;
                spent |= bit(b);
            }
        }
        if g.retired[seat].is_none() {
            g.hands[seat] = full & !spent;
        }
    }
}

fn bit(card: u8) -> u32 {
    1 << (card - 1)
}

/// Whether distinct cards `1..=cards`, none in `used`, can be given one to each interval:
/// intervals by their upper end, each taking the lowest free card it allows (exact for
/// intervals).
pub fn matchable(intervals: &[Interval], used: u32) -> bool {
    let mut sorted = intervals.to_vec();
    sorted.sort_unstable_by_key(|&(lo, hi)| (hi, lo));
    let mut taken = used;
    for (lo, hi) in sorted {
        match (lo.max(1)..=hi).find(|&c| taken & bit(c) == 0) {
            Some(c) => taken |= bit(c),
            None => return false,
        }
    }
    true
}

impl Problem {
    fn of(g: &Goofspiel, me: Seat) -> Problem {
        Problem {
            cards: g.settings.cards,
            seats: g.settings.seats,
            me,
            rounds: g
                .history
                .iter()
                .map(|r| Known {
                    mine: r.bids.get(me).copied().flatten(),
                    winner: r.winner,
                    bidders: (0..r.bids.len()).filter(|&s| r.bids[s].is_some()).collect(),
                })
                .collect(),
        }
    }

    /// Per round, one bid for every other seat that bid, or `None` when every attempt ran
    /// out of its budget.
    fn draw(&self, rng: &mut SplitMix) -> Option<Vec<Vec<Option<u8>>>> {
        let tops = (0..ATTEMPTS).find_map(|_| self.attempt(rng))?;
        let mut bids = vec![vec![None; self.seats]; self.rounds.len()];
        for seat in self.others() {
            let (rounds, intervals): (Vec<usize>, Vec<Interval>) = (0..self.rounds.len())
                .filter(|&r| self.rounds[r].bidders.contains(seat))
                .map(|r| (r, exact(tops[r], seat)))
                .unzip();
            for (k, b) in draw_bids(&intervals, rng)?.into_iter().enumerate() {
                bids[rounds[k]][seat] = Some(b);
            }
        }
        Some(bids)
    }

    /// One search for a top per round: the rounds with the fewest tops first (ties at
    /// random), so that a wrong choice is found out early.
    fn attempt(&self, rng: &mut SplitMix) -> Option<Vec<Top>> {
        let mut order: Vec<(usize, Vec<Top>)> = (0..self.rounds.len())
            .map(|r| (r, self.options(r)))
            .collect();
        rng.shuffle(&mut order);
        order.sort_by_key(|(_, options)| options.len());
        let mut tops = vec![None; self.rounds.len()];
        let mut budget = BUDGET;
        if !self.choose_tops(&mut order, 0, &mut tops, rng, &mut budget) {
            return None;
        }
        tops.into_iter().collect()
    }

    fn others(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.seats).filter(move |&s| s != self.me)
    }

    /// Picks a top for each round of `order` from `k` on, depth first in a random order.
    fn choose_tops(
        &self,
        order: &mut [(usize, Vec<Top>)],
        k: usize,
        tops: &mut [Option<Top>],
        rng: &mut SplitMix,
        budget: &mut u32,
    ) -> bool {
        let Some((r, options)) = order.get_mut(k) else {
            return true;
        };
        let r = *r;
        rng.shuffle(options);
        let options = options.clone();
        for top in options {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            tops[r] = Some(top);
            let bidders = self.rounds[r].bidders;
            let fits = self
                .others()
                .filter(|&s| bidders.contains(s))
                .all(|s| matchable(&self.intervals(tops, s), 0));
            if fits && self.choose_tops(order, k + 1, tops, rng, budget) {
                return true;
            }
        }
        tops[r] = None;
        false
    }

    /// The tops round `r` can have given what `me` saw of it.
    fn options(&self, r: usize) -> Vec<Top> {
        let k = &self.rounds[r];
        let others: Vec<Seat> = self.others().filter(|&s| k.bidders.contains(s)).collect();
        let above = k.mine.map_or(1, |b| b + 1);
        match (k.winner, k.mine) {
            (Some(w), Some(b)) if w == self.me => vec![(b, SeatSet::one(w))],
            (Some(w), _) => (above..=self.cards).map(|m| (m, SeatSet::one(w))).collect(),
            (None, mine) => {
                let mut out = Vec::new();
                for mask in 1u32..(1 << others.len()) {
                    let set: SeatSet = (0..others.len())
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| others[i])
                        .collect();
                    if let Some(b) = mine {
                        let mut with_me = set;
                        with_me.insert(self.me);
                        out.push((b, with_me));
                    }
                    if set.len() >= 2 {
                        out.extend((above..=self.cards).map(|m| (m, set)));
                    }
                }
                out
            }
        }
    }

    /// `seat`'s interval in each round it bid: exact where the top is chosen, the bounds every
    /// top keeps elsewhere.
    fn intervals(&self, tops: &[Option<Top>], seat: Seat) -> Vec<Interval> {
        (0..self.rounds.len())
            .filter(|&r| self.rounds[r].bidders.contains(seat))
            .map(|r| match tops[r] {
                Some(top) => exact(top, seat),
                None => self.loose(r, seat),
            })
            .collect()
    }

    fn loose(&self, r: usize, seat: Seat) -> Interval {
        let k = &self.rounds[r];
        let n = self.cards;
        let b = k.mine.unwrap_or(0);
        match k.winner {
            Some(w) if w == self.me => (1, b.saturating_sub(1)),
            Some(w) if w == seat => (b + 1, n),
            Some(_) => (1, n - 1),
            // Two seats: a tie is the same card.
            None if self.seats == 2 && k.mine.is_some() => (b, b),
            None => (1, n),
        }
    }

    /// The last resort, after the budget: every other seat's bids drawn at random from its
    /// cards, whoever took the prizes (a search then plays on a history that is not quite
    /// consistent, which costs it strength, never fairness).
    fn unconstrained(&self, rng: &mut SplitMix) -> Vec<Vec<Option<u8>>> {
        let mut bids = vec![vec![None; self.seats]; self.rounds.len()];
        for seat in self.others() {
            let mut cards: Vec<u8> = (1..=self.cards).collect();
            rng.shuffle(&mut cards);
            let rounds = (0..self.rounds.len()).filter(|&r| self.rounds[r].bidders.contains(seat));
            for (r, c) in rounds.zip(cards) {
                bids[r][seat] = Some(c);
            }
        }
        bids
    }
}

/// `seat`'s interval in a round of top `(m, set)`: `m` itself in the set, below `m` outside.
fn exact((m, set): Top, seat: Seat) -> Interval {
    if set.contains(seat) {
        (m, m)
    } else {
        (1, m - 1)
    }
}

/// Distinct cards, one per interval, drawn at random among those that keep the rest matchable;
/// `None` when the intervals cannot be matched at all.
fn draw_bids(intervals: &[Interval], rng: &mut SplitMix) -> Option<Vec<u8>> {
    let mut order: Vec<usize> = (0..intervals.len()).collect();
    rng.shuffle(&mut order);
    let mut out = vec![0u8; intervals.len()];
    let mut used = 0u32;
    for (k, &i) in order.iter().enumerate() {
        let (lo, hi) = intervals[i];
        let mut cards: Vec<u8> = (lo.max(1)..=hi).filter(|&c| used & bit(c) == 0).collect();
        rng.shuffle(&mut cards);
        let rest: Vec<Interval> = order[k + 1..].iter().map(|&j| intervals[j]).collect();
        let c = cards
            .into_iter()
            .find(|&c| matchable(&rest, used | bit(c)))?;
        out[i] = c;
        used |= bit(c);
    }
    Some(out)
}

#[cfg(test)]
pub(crate) fn draw_for_test(g: &Goofspiel, me: Seat, seed: u64) -> Option<Vec<Vec<Option<u8>>>> {
    Problem::of(g, me).draw(&mut SplitMix(seed))
}
