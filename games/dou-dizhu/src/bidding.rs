//! The bidding, as OpenSpiel's `dou_dizhu` bids: from the face-up card's holder, each seat in
//! turn passes or bids higher than the bid so far (1, 2 or 3), as often as its turn comes. A
//! bid of 3 takes the landlord's seat at once; otherwise the last bidder takes it when the two
//! others have passed after its bid. Three passes before any bid void the deal.

use crate::{DouDizhu, Move, SEATS};

/// The highest bid.
pub const TOP_BID: u8 = 3;

impl DouDizhu {
    pub(crate) fn bids_allowed(&self, out: &mut Vec<Move>) {
        out.push(Move::Pass);
        out.extend((self.bid + 1..=TOP_BID).map(Move::Bid));
    }

    pub(crate) fn bid_move(&mut self, mv: &Move) -> Result<(), String> {
        let seat = self.to_move;
        match *mv {
            Move::Play(_) => {
                return Err("the bidding is on: pass, or bid higher than the bid so far".into())
            }
            Move::Bid(b) if b <= self.bid || b > TOP_BID => {
                return Err(format!(
                    "bid{b} does not raise the bid of {}: bid{} or more, or pass",
                    self.bid,
                    self.bid + 1
                ))
            }
            Move::Bid(b) => {
                self.bids.push((seat, b));
                self.bid = b;
                self.bidder = Some(seat);
                self.passes = 0;
            }
            Move::Pass => {
                self.bids.push((seat, 0));
                self.passes += 1;
            }
        }
        match self.bidder {
            _ if self.bid == TOP_BID => self.take_seat(seat),
            Some(b) if self.passes == 2 => self.take_seat(b),
            None if self.passes as usize == SEATS => {
                self.over = true;
            }
            _ => self.to_move = Self::next(seat),
        }
        Ok(())
    }

    /// `landlord` takes the three cards, shown to all, and leads the first trick.
    fn take_seat(&mut self, landlord: usize) {
        self.landlord = Some(landlord);
        self.hands[landlord].add(&self.kitty);
        self.to_move = landlord;
        self.passes = 0;
        self.table = None;
    }
}
