//! The play: the landlord leads the first trick; whoever leads plays any combination; each
//! next seat beats the play on the table or passes; when two pass in a row, the last to play
//! leads the next trick. The first seat to play all its cards ends the game.

use crate::combo::{self, Combo, Want};
use crate::{DouDizhu, Move};

impl DouDizhu {
    /// The plays the mover may make: any on a lead, else a pass and what beats the table.
    pub(crate) fn plays_allowed(&self, out: &mut Vec<Move>) {
        let hand = &self.hands[self.to_move];
        let mut combos = Vec::new();
        match &self.table {
            None => combo::plays(hand, self.rules, Want::All, &mut combos),
            Some((_, top)) => {
                out.push(Move::Pass);
                combo::plays(hand, self.rules, Want::Beating(top.category), &mut combos);
                combos.retain(|c| c.beats(top, self.rules));
            }
        }
        out.extend(combos.into_iter().map(Move::Play));
    }

    pub(crate) fn play_move(&mut self, mv: &Move) -> Result<(), String> {
        let seat = self.to_move;
        match mv {
            Move::Bid(_) => Err("the bidding is over: play cards or pass".into()),
            Move::Pass => self.pass(seat),
            Move::Play(c) => {
                self.check_play(seat, c)?;
                self.put_down(seat, c);
                Ok(())
            }
        }
    }

    fn pass(&mut self, seat: usize) -> Result<(), String> {
        let Some((last, _)) = self.table else {
            return Err(format!("seat {seat} leads this trick and may not pass"));
        };
        self.plays.push((seat, None));
        self.passes += 1;
        if self.passes == 2 {
            self.to_move = last;
            self.table = None;
            self.passes = 0;
        } else {
            self.to_move = Self::next(seat);
        }
        Ok(())
    }

    /// Why `seat` may not play `c` now, if it may not.
    fn check_play(&self, seat: usize, c: &Combo) -> Result<(), String> {
        let hand = &self.hands[seat];
        let text = c.text(self.rules);
        // The reason may reach a replay that others watch: it names no card of the hand.
        if !hand.holds(&c.cards) {
            return Err(format!("seat {seat} does not hold all of {text}"));
        }
        if let Some((by, top)) = &self.table {
            if !c.beats(top, self.rules) {
                return Err(format!(
                    "{text} does not beat {} ({}) from seat {by}: {}, or pass",
                    top.text(self.rules),
                    top.describe(),
                    combo::what_beats(top)
                ));
            }
        }
        let mut allowed = Vec::new();
        self.plays_allowed(&mut allowed);
        if !allowed.contains(&Move::Play(*c)) {
            // The OpenSpiel rules' generator refuses a chain whose lowest rank the hand holds
            // four of; nothing else reaches here.
            return Err(format!(
                "{text} is not a legal play here in the {} rules",
                self.rule_name()
            ));
        }
        Ok(())
    }

    fn put_down(&mut self, seat: usize, c: &Combo) {
        self.hands[seat].remove(&c.cards);
        self.played[seat].add(&c.cards);
        self.hands_played[seat] += 1;
        if c.is_bomb() {
            self.bombs += 1;
        }
        self.plays.push((seat, Some(*c)));
        self.table = Some((seat, *c));
        self.passes = 0;
        if self.hands[seat].is_empty() {
            self.winner = Some(seat);
            self.over = true;
        } else {
            self.to_move = Self::next(seat);
        }
    }
}
