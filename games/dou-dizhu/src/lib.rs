//! Dou Dizhu (斗地主), the proof game of hidden information: three seats, 54 cards dealt from
//! the seed (17 each, 3 for the landlord), a face-up card whose holder bids first, bidding
//! for the landlord's seat as OpenSpiel's `dou_dizhu` bids, the landlord's three cards shown
//! to all, then tricks of combinations until a seat has played all its cards: the landlord
//! alone against the two peasants.
//!
//! - [`cards`]: ranks and sets of cards; [`deal`]: the shuffle from the seed;
//! - [`combo`]: the combinations of the two rule sets (`standard`, `openspiel`);
//! - [`bidding`] and [`tricks`]: the two phases; [`notation`]: moves in one word;
//! - [`told`]: what each seat is told; [`board`]: the view and the clicks; [`sampling`]: the
//!   deals a seat cannot tell from this one.
//!
//! The rules, the notation, the deal's algorithm and the differences from OpenSpiel and
//! Botzone: docs/games/dou-dizhu.md.

pub mod bidding;
pub mod board;
pub mod cards;
pub mod combo;
pub mod deal;
pub mod notation;
pub mod sampling;
pub mod told;
pub mod tricks;

use arbiter_game::{export_game, places_from, Clicks, Game, Json, Outcome, Seat, Turn, Viewer};

use cards::Cards;
use combo::{Combo, Rules};
use deal::Deal;
pub use notation::Move;

/// The three seats.
pub const SEATS: usize = 3;

/// The position.
#[derive(Clone, Debug)]
pub struct DouDizhu {
    rules: Rules,
    /// Each seat's cards now (the landlord's with the kitty once it is taken).
    hands: [Cards; SEATS],
    /// The landlord's three cards.
    kitty: Cards,
    /// The face-up card's rank and its holder, who bid first.
    faceup: (usize, Seat),
    /// Every bid in order: the seat and its bid, 0 for a pass.
    bids: Vec<(Seat, u8)>,
    /// The highest bid so far and who made it.
    bid: u8,
    bidder: Option<Seat>,
    landlord: Option<Seat>,
    to_move: Seat,
    /// Passes in a row (in the bidding, then on the current trick).
    passes: u8,
    /// Every ply of the play in order: the seat and its play (`None`: a pass).
    plays: Vec<(Seat, Option<Combo>)>,
    /// The play to beat on the current trick and who made it; `None` when the mover leads.
    table: Option<(Seat, Combo)>,
    /// What each seat has played.
    played: [Cards; SEATS],
    /// How many plays (not passes) each seat has made: spring is counted from them.
    hands_played: [u16; SEATS],
    /// Bombs and rockets played: each doubles the stake.
    bombs: u8,
    over: bool,
    /// The seat that played out first.
    winner: Option<Seat>,
    /// Seats that failed: their turns are played by Botzone's autopilot.
    retired: [bool; SEATS],
}

const RULE_NAMES: [(&str, Rules); 2] = [
    ("standard", Rules::Standard),
    ("openspiel", Rules::OpenSpiel),
];

fn rules_of(config: &Json) -> Result<Rules, String> {
    let Some(v) = config.get("rules") else {
        return Ok(Rules::Standard);
    };
    let name = v.as_str().unwrap_or("");
    RULE_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, r)| *r)
        .ok_or_else(|| "rules must be \"standard\" or \"openspiel\"".into())
}

impl DouDizhu {
    /// The game dealt as `deal` says (a deck that is not the pack once, or a face-up position
    /// past the dealt cards, is refused).
    pub fn from_deal(rules: Rules, deal: &Deal) -> Result<DouDizhu, String> {
        if usize::from(deal.faceup) >= deal::DEALT {
            return Err("the face-up card is one of the 51 dealt".into());
        }
        let hands = [deal.hand(0), deal.hand(1), deal.hand(2)];
        let faceup = (deal.faceup_rank(), deal.first_bidder());
        DouDizhu::with_hands(rules, hands, deal.kitty(), faceup)
    }

    /// A game with these hands, kitty and face-up card (its rank and holder), for tests and
    /// set deals: 17 cards a seat, 3 in the kitty, the pack exactly, the holder holding the
    /// face-up rank.
    pub fn with_hands(
        rules: Rules,
        hands: [Cards; SEATS],
        kitty: Cards,
        faceup: (usize, Seat),
    ) -> Result<DouDizhu, String> {
        let mut all = kitty;
        for h in &hands {
            all.add(h);
        }
        let sizes = hands.iter().all(|h| h.total() == 17) && kitty.total() == 3;
        if !sizes || all != Cards::pack() {
            return Err(
                "a deal is 17 cards a seat and 3 for the landlord, the pack exactly".into(),
            );
        }
        let (rank, holder) = faceup;
        if holder >= SEATS || rank >= cards::RANKS || hands[holder].count(rank) == 0 {
            return Err("the face-up card's holder must hold its rank".into());
        }
        Ok(DouDizhu {
            rules,
            hands,
            kitty,
            faceup,
            bids: Vec::new(),
            bid: 0,
            bidder: None,
            landlord: None,
            to_move: holder,
            passes: 0,
            plays: Vec::new(),
            table: None,
            played: [Cards::NONE; SEATS],
            hands_played: [0; SEATS],
            bombs: 0,
            over: false,
            winner: None,
            retired: [false; SEATS],
        })
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The rule set's name in the config (`standard`, `openspiel`).
    pub fn rule_name(&self) -> &'static str {
        RULE_NAMES
            .iter()
            .find(|(_, r)| *r == self.rules)
            .map_or("standard", |(n, _)| n)
    }

    /// The seat to move, while the game runs.
    pub fn to_move(&self) -> Option<Seat> {
        (!self.over).then_some(self.to_move)
    }

    pub fn hand(&self, seat: Seat) -> &Cards {
        &self.hands[seat]
    }

    /// Every ply of the play so far: the seat and its play (`None`: a pass).
    pub fn plays(&self) -> &[(Seat, Option<Combo>)] {
        &self.plays
    }

    pub fn landlord(&self) -> Option<Seat> {
        self.landlord
    }

    /// The landlord's three cards once they are shown (after the bidding).
    pub fn shown_kitty(&self) -> Option<&Cards> {
        self.landlord.map(|_| &self.kitty)
    }

    fn next(seat: Seat) -> Seat {
        (seat + 1) % SEATS
    }

    /// Whether the game is in its bidding.
    pub fn bidding(&self) -> bool {
        !self.over && self.landlord.is_none()
    }

    /// The move Botzone's judge makes for a seat that failed: pass when it may, else its
    /// lowest card alone (a bid: pass).
    fn autopilot(&self) -> Move {
        match (self.bidding(), &self.table) {
            (false, None) => self.autopilot_lead(),
            _ => Move::Pass,
        }
    }

    /// The mover's lowest card alone.
    fn autopilot_lead(&self) -> Move {
        let lowest = self.hands[self.to_move].lowest().unwrap_or(0);
        Move::Play(
            combo::classify(&single(lowest), self.rules)
                .unwrap_or_else(|| unreachable!("one card is a solo")),
        )
    }

    /// Each seat's side: true for the landlord.
    fn is_landlord(&self, seat: Seat) -> bool {
        self.landlord == Some(seat)
    }

    /// The stake: the bid doubled for each bomb or rocket and for a spring.
    pub fn stake(&self) -> i64 {
        let doublings = u32::from(self.bombs) + u32::from(self.spring());
        i64::from(self.bid) << doublings
    }

    /// Spring (春天) as OpenSpiel counts it at the end: the landlord played one hand only, or
    /// neither peasant played a card.
    fn spring(&self) -> bool {
        let Some(l) = self.landlord.filter(|_| self.over) else {
            return false;
        };
        let peasants_silent = (0..SEATS)
            .filter(|&s| s != l)
            .all(|s| self.hands_played[s] == 0);
        self.hands_played[l] == 1 || peasants_silent
    }

    fn final_scores(&self) -> Vec<i64> {
        let (Some(l), Some(w)) = (self.landlord, self.winner) else {
            return vec![0; SEATS];
        };
        let sign = if w == l { 1 } else { -1 };
        let stake = self.stake();
        (0..SEATS)
            .map(|s| {
                if s == l {
                    2 * sign * stake
                } else {
                    -sign * stake
                }
            })
            .collect()
    }

    fn reason(&self) -> String {
        let Some(l) = self.landlord else {
            return "nobody bid: the deal is void (OpenSpiel's rule), no score".into();
        };
        let Some(w) = self.winner else {
            return "the game ended".into();
        };
        let side = if w == l {
            format!("the landlord, seat {l}, played out first and wins")
        } else {
            format!(
                "seat {w}, a peasant, played out first: the peasants beat the landlord (seat {l})"
            )
        };
        let mut why = format!("bid {}", self.bid);
        if self.bombs > 0 {
            why.push_str(&format!(", doubled by {} bomb(s)", self.bombs));
        }
        if self.spring() {
            why.push_str(", doubled for a spring");
        }
        let mut text = format!("{side}; stake {} ({why})", self.stake());
        for s in (0..SEATS).filter(|&s| self.retired[s]) {
            text.push_str(&format!("; seat {s} failed and is placed last"));
        }
        text
    }
}

/// One card of `rank`.
fn single(rank: usize) -> Cards {
    let mut c = Cards::NONE;
    c.0[rank] = 1;
    c
}

impl Game for DouDizhu {
    type Move = Move;
    const NAME: &'static str = "dou-dizhu";
    const VERSION: &'static str = "1.0.0";
    const SEATS: &'static [usize] = &[SEATS];
    const KIND: arbiter_game::Kind = arbiter_game::Kind {
        chance: true,
        hidden: true,
        simultaneous: false,
    };
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(&["rules"]);

    fn new(config: &Json, seed: u64) -> Result<Self, String> {
        arbiter_game::players(config, Self::SEATS)?;
        let rules = rules_of(config)?;
        DouDizhu::from_deal(rules, &Deal::from_seed(seed))
    }

    fn seats(&self) -> usize {
        SEATS
    }

    fn turn(&self) -> Turn {
        Turn::of(self.to_move())
    }

    /// Forced only where everyone can see it is: the referee plays a forced move without
    /// asking, and the others could read "it could not beat that" from how fast the pass
    /// came. So a seat with nothing to beat the table is still asked (its legal list is
    /// `pass` alone); forced are a failed seat's moves, a last card led, and a pass on the
    /// rocket (in the standard rules nothing beats it).
    fn forced_move(&self, seat: Seat) -> Option<Move> {
        if self.over || seat != self.to_move {
            return None;
        }
        if self.retired[seat] {
            return Some(self.autopilot());
        }
        let rocket = matches!(&self.table, Some((_, c)) if c.category == combo::Category::Rocket);
        match &self.table {
            None if self.hands[seat].total() == 1 && !self.bidding() => Some(self.autopilot_lead()),
            Some(_) if rocket && self.rules == Rules::Standard => Some(Move::Pass),
            _ => None,
        }
    }

    fn legal_moves(&self, _seat: Seat, out: &mut Vec<Move>) {
        if self.over {
            return;
        }
        if self.retired[self.to_move] {
            out.push(self.autopilot());
        } else if self.bidding() {
            self.bids_allowed(out);
        } else {
            self.plays_allowed(out);
        }
    }

    fn play(&mut self, mv: &Move) -> Result<(), String> {
        if self.over {
            return Err("the game is over".into());
        }
        if self.retired[self.to_move] && *mv != self.autopilot() {
            return Err(format!(
                "seat {} failed: its moves are the autopilot's ({})",
                self.to_move,
                self.format_move(&self.autopilot())
            ));
        }
        if self.bidding() {
            self.bid_move(mv)
        } else {
            self.play_move(mv)
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        // Failed seats last; then the winning side before the other; a void deal ties.
        let keys: Vec<u8> = (0..SEATS)
            .map(|s| match (self.retired[s], self.winner) {
                (true, _) => 0,
                (false, Some(w)) if self.is_landlord(s) == self.is_landlord(w) => 2,
                (false, _) => 1,
            })
            .collect();
        Some(Outcome {
            places: places_from(&keys),
            scores: self.final_scores(),
            reason: self.reason(),
        })
    }

    fn scores(&self) -> Vec<i64> {
        self.final_scores()
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        notation::parse(text, self.rules)
    }

    fn format_move(&self, mv: &Move) -> String {
        notation::format(mv, self.rules)
    }

    fn tell(&self, seat: Seat) -> String {
        told::tell(self, seat)
    }

    fn view(&self, viewer: Viewer) -> arbiter_game::View {
        board::view(self, viewer)
    }

    fn sample(&self, seat: Seat, seed: u64) -> Self {
        sampling::sample(self, seat, seed)
    }

    /// The failed seat stays at the table and Botzone's autopilot plays its turns (pass, or
    /// its lowest card when it leads; pass in the bidding), forced moves the referee plays
    /// without asking; at the end it is placed last.
    fn retire(&mut self, seat: Seat) -> bool {
        if self.over || seat >= SEATS {
            return false;
        }
        self.retired[seat] = true;
        true
    }

    fn clicks(&self, seat: Seat, mv: &Move) -> Option<Clicks> {
        board::clicks(self, seat, mv)
    }
}

export_game!(DouDizhu);

#[cfg(test)]
mod tests;
