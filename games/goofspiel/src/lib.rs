//! Goofspiel, the proof game of simultaneous turns with sealed bids, after OpenSpiel's
//! `goofspiel` (its parameters under its names). Each seat holds the bid cards 1 to N (13 by
//! default); the prize cards 1 to N are turned one a round, in an order drawn from the seed
//! (or ascending, or descending). Every seat bids one card of its hand at once; the single
//! highest bid takes the prize's points, a tie for the highest discards it; the bids are spent.
//! After the last round the points decide the places (`returns_type`). With `imp_info` a seat
//! learns only who took each prize, never the others' bids.
//!
//! Rules, notation, what each seat is told and the exact deal: docs/games/goofspiel.md.

mod deck;
mod knowledge;
mod settings;
mod show;

use arbiter_game::{
    export_game, places_from, Clicks, Game, Json, Kind, Outcome, Seat, SeatSet, Turn, Viewer,
};

pub use deck::SplitMix;
pub use settings::{PointsOrder, Returns, Settings, MAX_CARDS};

/// One round played: the prize, each seat's bid (`None` for a seat retired before it), and the
/// single highest bidder who took the prize (`None`: a tie, the prize discarded).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Round {
    pub prize: u8,
    pub bids: Vec<Option<u8>>,
    pub winner: Option<Seat>,
}

#[derive(Clone, Debug)]
pub struct Goofspiel {
    settings: Settings,
    /// Every prize card in the order it comes up (see [`deck::deal`]).
    deck: Vec<u8>,
    /// Each seat's cards, card `c` at bit `c - 1`.
    hands: Vec<u32>,
    points: Vec<i64>,
    history: Vec<Round>,
    /// For a seat taken out ([`Game::retire`]), the number of rounds played when it was.
    retired: Vec<Option<u8>>,
}

/// The seat's name in texts.
pub fn seat_name(seat: Seat) -> String {
    format!("seat {seat}")
}

/// The single highest of the bids, if one bid is higher than all others.
pub fn highest(bids: &[Option<u8>]) -> Option<Seat> {
    let max = bids.iter().flatten().max()?;
    let mut top = bids
        .iter()
        .enumerate()
        .filter(|(_, b)| b.as_ref() == Some(max));
    match (top.next(), top.next()) {
        (Some((s, _)), None) => Some(s),
        _ => None,
    }
}

impl Goofspiel {
    pub fn settings(&self) -> Settings {
        self.settings
    }

    pub fn history(&self) -> &[Round] {
        &self.history
    }

    /// The prize cards in the order they come up (the comparison with OpenSpiel deals them so).
    pub fn deck(&self) -> &[u8] {
        &self.deck
    }

    /// The rounds played so far.
    pub fn round(&self) -> usize {
        self.history.len()
    }

    /// The prize bid for now, while the game is on.
    pub fn prize(&self) -> Option<u8> {
        (!self.is_over()).then(|| self.deck[self.round()])
    }

    /// The seats that still bid (not retired).
    pub fn active(&self) -> SeatSet {
        (0..self.settings.seats)
            .filter(|&s| self.retired[s].is_none())
            .collect()
    }

    fn is_over(&self) -> bool {
        self.round() >= usize::from(self.settings.rounds) || self.active().len() < 2
    }

    /// `seat`'s cards, lowest first.
    pub fn hand(&self, seat: Seat) -> Vec<u8> {
        cards_of(self.hands.get(seat).copied().unwrap_or(0))
    }

    /// Why `moves` is not one bid of every active seat from its hand, in seat order.
    fn check_bids(&self, moves: &[(Seat, u8)]) -> Result<(), (Seat, String)> {
        if self.is_over() {
            return Err((moves.first().map_or(0, |m| m.0), "the game is over".into()));
        }
        let active = self.active();
        let mut seen = SeatSet::EMPTY;
        for &(s, _) in moves {
            if !active.contains(s) {
                return Err((s, format!("{} does not bid in this round", seat_name(s))));
            }
            if seen.contains(s) {
                return Err((s, format!("{} bids twice", seat_name(s))));
            }
            seen.insert(s);
        }
        if let Some(missing) = active.iter().find(|&s| !seen.contains(s)) {
            return Err((missing, format!("{}'s bid is missing", seat_name(missing))));
        }
        for &(seat, bid) in moves {
            let n = self.settings.cards;
            if !(1..=n).contains(&bid) {
                return Err((
                    seat,
                    format!("there is no card {bid}: the cards are 1 to {n}"),
                ));
            }
            if self.hands[seat] & bit(bid) == 0 {
                return Err((seat, format!("{} has no card {bid} left", seat_name(seat))));
            }
        }
        Ok(())
    }

    /// Each seat's key for its place: active seats by the returns, then retired ones, the
    /// later retired the better.
    fn place_keys(&self) -> Vec<(u8, i64)> {
        let active = self.active();
        let best = active.iter().map(|s| self.points[s]).max().unwrap_or(0);
        (0..self.settings.seats)
            .map(|s| match self.retired[s] {
                Some(round) => (0, i64::from(round)),
                None => match self.settings.returns {
                    Returns::WinLoss => (1, i64::from(self.points[s] == best)),
                    _ => (1, self.points[s]),
                },
            })
            .collect()
    }

    fn reason(&self) -> String {
        let active: Vec<Seat> = self.active().iter().collect();
        if active.len() < 2 {
            let left = active.first().map_or("nobody".into(), |&s| seat_name(s));
            return format!("every other seat was taken out: {left} is left");
        }
        let best = active.iter().map(|&s| self.points[s]).max().unwrap_or(0);
        let top: Vec<String> = active
            .iter()
            .filter(|&&s| self.points[s] == best)
            .map(|&s| seat_name(s))
            .collect();
        match top.as_slice() {
            [one] => format!("{one} took the most points: {best}"),
            _ if top.len() == active.len() => format!("every seat took {best} points"),
            _ => format!("{} tied for the most points: {best}", top.join(" and ")),
        }
    }
}

fn bit(card: u8) -> u32 {
    1 << (card - 1)
}

/// The cards of a hand's bit set, lowest first.
pub fn cards_of(hand: u32) -> Vec<u8> {
    (1..=32u8)
        .filter(|&c| hand & (1u32 << (c - 1)) != 0)
        .collect()
}

impl Game for Goofspiel {
    type Move = u8;
    const NAME: &'static str = "goofspiel";
    const VERSION: &'static str = "1.0.0";
    const SEATS: &'static [usize] = &[2, 3, 4];
    // What some config has: `hidden` with `imp_info` (a seat's bids), `chance` with the random
    // order. A game's own is [`Game::kind`].
    const KIND: Kind = Kind {
        chance: true,
        hidden: true,
        simultaneous: true,
    };
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(settings::KEYS);

    fn new(config: &Json, seed: u64) -> Result<Self, String> {
        let settings = Settings::read(config, Self::SEATS)?;
        let full = (1u32 << settings.cards) - 1;
        Ok(Goofspiel {
            deck: deck::deal(&settings, seed),
            hands: vec![full; settings.seats],
            points: vec![0; settings.seats],
            history: Vec::new(),
            retired: vec![None; settings.seats],
            settings,
        })
    }

    fn seats(&self) -> usize {
        self.settings.seats
    }

    /// Hidden only with `imp_info` (without it every bid is shown once the round is played),
    /// chance only with the random prize order; always simultaneous.
    fn kind(&self) -> Kind {
        Kind {
            chance: self.settings.order == PointsOrder::Random,
            hidden: self.settings.imp_info,
            simultaneous: true,
        }
    }

    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Over
        } else {
            Turn::Together(self.active())
        }
    }

    /// The last card of a hand.
    fn forced_move(&self, seat: Seat) -> Option<u8> {
        let hand = self.hands.get(seat)?;
        (!self.is_over() && hand.count_ones() == 1).then(|| hand.trailing_zeros() as u8 + 1)
    }

    fn legal_moves(&self, seat: Seat, out: &mut Vec<u8>) {
        if !self.is_over() && self.active().contains(seat) {
            out.extend(self.hand(seat));
        }
    }

    fn play_together(&mut self, moves: &[(Seat, u8)]) -> Result<(), (Seat, String)> {
        self.check_bids(moves)?;
        let mut bids = vec![None; self.settings.seats];
        for &(seat, bid) in moves {
            bids[seat] = Some(bid);
            self.hands[seat] &= !bit(bid);
        }
        let prize = self.deck[self.round()];
        let winner = highest(&bids);
        if let Some(w) = winner {
            self.points[w] += i64::from(prize);
        }
        self.history.push(Round {
            prize,
            bids,
            winner,
        });
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| Outcome {
            places: places_from(&self.place_keys()),
            scores: self.points.clone(),
            reason: self.reason(),
        })
    }

    fn scores(&self) -> Vec<i64> {
        self.points.clone()
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let n = self.settings.cards;
        let t = text.trim();
        t.parse::<u8>()
            .ok()
            .filter(|b| (1..=n).contains(b) && !t.starts_with('+'))
            .ok_or_else(|| {
                format!(
                    "{:?} is not a bid: a bid is a card from 1 to {n}",
                    arbiter_game::config::cut(t, 20)
                )
            })
    }

    fn format_move(&self, mv: &u8) -> String {
        mv.to_string()
    }

    fn tell(&self, seat: Seat) -> String {
        show::tell(self, seat)
    }

    fn view(&self, viewer: Viewer) -> arbiter_game::View {
        show::view(self, viewer)
    }

    /// Without `imp_info` every bid is shown once the round is played; with it, a seat learns
    /// only its own (and who took the prize, from [`Game::tell`]).
    fn reveal(&self, by: Seat, mv: &u8, to: Viewer) -> Option<String> {
        (!self.settings.imp_info || to.sees_seat(by)).then(|| self.format_move(mv))
    }

    /// The prize cards not yet turned are shuffled again from `seed`: the prize bid for now
    /// stays.
    fn reseed(&mut self, seed: u64) {
        if self.settings.order == PointsOrder::Random {
            let from = (self.round() + 1).min(self.deck.len());
            SplitMix(seed).shuffle(&mut self.deck[from..]);
        }
    }

    fn sample(&self, seat: Seat, seed: u64) -> Self {
        let mut copy = self.clone();
        copy.reseed(seed);
        if self.settings.imp_info {
            knowledge::redraw_bids(&mut copy, seat, seed);
        }
        copy
    }

    /// A seat taken out bids no more: its cards are put away, the others play on for the
    /// prizes, and it places after every seat that finished (the later out, the better).
    fn retire(&mut self, seat: Seat) -> bool {
        if seat < self.settings.seats && !self.is_over() && self.retired[seat].is_none() {
            self.retired[seat] = Some(self.round() as u8);
            self.hands[seat] = 0;
        }
        true
    }

    /// One click, on the card's column of the bid row.
    fn clicks(&self, _seat: Seat, mv: &u8) -> Option<Clicks> {
        (1..=self.settings.cards)
            .contains(mv)
            .then(|| Clicks::Cells(vec![[u16::from(*mv) - 1, show::bid_row(self)]]))
    }
}

export_game!(Goofspiel);

#[cfg(test)]
mod tests;
