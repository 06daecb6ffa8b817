//! Moves in one word: `pass`, `bid1` to `bid3`, or a play's ranks lowest first (`334455`,
//! `3335`, `BR` for the rocket); in the OpenSpiel rules an airplane with wings as
//! `333444-56`.

use crate::cards::Cards;
use crate::combo::{classify, parse_winged, Combo, Rules};
use arbiter_game::config::cut;

/// The longest move text: the longest play is a whole hand of 20 cards, plus OpenSpiel's dash.
pub const MAX_MOVE: usize = 32;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Move {
    /// No bid, or no play on this trick.
    Pass,
    /// A bid of 1, 2 or 3.
    Bid(u8),
    Play(Combo),
}

fn not_a_move(text: &str) -> String {
    format!(
        "{:?} is not a move: write pass, bid1 to bid3, or a play's ranks in one word \
         (3 4 5 6 7 8 9 T J Q K A 2, B and R the jokers; at most four of a rank), such as 334455",
        cut(text, 40)
    )
}

pub fn parse(text: &str, rules: Rules) -> Result<Move, String> {
    let t = text.trim();
    if t.len() > MAX_MOVE {
        return Err(format!(
            "{:?} is longer than a move ({MAX_MOVE} bytes at most)",
            cut(t, 40)
        ));
    }
    let lower = t.to_ascii_lowercase();
    if lower == "pass" {
        return Ok(Move::Pass);
    }
    if let Some(n) = lower.strip_prefix("bid") {
        return match n {
            "1" | "2" | "3" => Ok(Move::Bid(n.as_bytes()[0] - b'0')),
            _ => Err(format!("{t:?} is not a bid: bid1, bid2 or bid3")),
        };
    }
    parse_play(t, rules).map(Move::Play)
}

fn parse_play(t: &str, rules: Rules) -> Result<Combo, String> {
    if let Some((chain, wings)) = t.split_once('-') {
        if rules == Rules::Standard {
            return Err(format!(
                "{t:?}: write a play in one word without a dash, its ranks lowest first"
            ));
        }
        let (chain, wings) = (
            Cards::parse(chain).ok_or_else(|| not_a_move(t))?,
            Cards::parse(wings).ok_or_else(|| not_a_move(t))?,
        );
        let mut all = chain;
        all.add(&wings);
        if Cards::parse(&all.text()).is_none() {
            return Err(not_a_move(t));
        }
        return parse_winged(&chain, &wings).ok_or_else(|| {
            format!("{t:?} is not an airplane with wings: 2 or more trios in a row, a dash, then as many solos or distinct pairs")
        });
    }
    let cards = Cards::parse(t).ok_or_else(|| not_a_move(t))?;
    if cards.is_empty() {
        return Err(not_a_move(t));
    }
    classify(&cards, rules).ok_or_else(|| {
        let hint = match (rules, classify(&cards, Rules::Standard)) {
            (Rules::OpenSpiel, Some(c)) if c.text(Rules::OpenSpiel).contains('-') => {
                format!(
                    ": in the OpenSpiel rules write it with a dash, {}",
                    c.text(rules)
                )
            }
            (Rules::OpenSpiel, Some(c)) => {
                format!(": {} is not a play in the OpenSpiel rules", c.describe())
            }
            _ => String::new(),
        };
        format!("{} is no combination{hint}", cards.text())
    })
}

pub fn format(mv: &Move, rules: Rules) -> String {
    match mv {
        Move::Pass => "pass".into(),
        Move::Bid(b) => format!("bid{b}"),
        Move::Play(c) => c.text(rules),
    }
}
