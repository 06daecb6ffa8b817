//! What a seat's bot is told: its own hand and what the table knows, never another hand.
//!
//! ```text
//! SEAT 1
//! RULES standard
//! HAND 34556778899TTQKAA2
//! FACEUP Q 0
//! BIDS 0:pass 1:bid1 2:pass 0:pass
//! LANDLORD 1 1
//! KITTY 478
//! COUNTS 16 18 15
//! STAKE 1
//! PLAYS 1:4 2:5 0:6 1:7 2:9
//! TABLE 2 9
//! TURN 0
//! ```
//!
//! Every line is always there, `-` for nothing (yet): `RULES` the rule set (`standard` or
//! `openspiel`, the config's); `HAND` the seat's cards lowest first;
//! `FACEUP` the face-up card's rank and its holder (who bid first); `BIDS` every bid in order,
//! `seat:bidN` or `seat:pass`; `LANDLORD` the landlord's seat and its bid; `KITTY` the
//! landlord's three cards (shown once the bidding is over); `COUNTS` the cards in each seat's
//! hand, seat 0 first; `STAKE` the bid doubled for each bomb or rocket so far (a spring doubles
//! it once more at the end); `PLAYS` every ply of the play in order, `seat:move`; `TABLE` the
//! play to beat and who made it (`-` when the mover leads); `TURN` the seat to move.

use crate::{DouDizhu, Move, SEATS};

fn or_dash(s: String) -> String {
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

pub fn tell(g: &DouDizhu, seat: usize) -> String {
    let bids: Vec<String> = g
        .bids
        .iter()
        .map(|&(s, b)| {
            let mv = if b == 0 { Move::Pass } else { Move::Bid(b) };
            format!("{s}:{}", crate::notation::format(&mv, g.rules))
        })
        .collect();
    let plays: Vec<String> = g
        .plays
        .iter()
        .map(|(s, c)| match c {
            Some(c) => format!("{s}:{}", c.text(g.rules)),
            None => format!("{s}:pass"),
        })
        .collect();
    let counts: Vec<String> = (0..SEATS).map(|s| g.hands[s].total().to_string()).collect();
    let landlord = g.landlord.map_or("-".into(), |l| format!("{l} {}", g.bid));
    let kitty = g.shown_kitty().map_or(String::new(), |k| k.text());
    let table = g
        .table
        .as_ref()
        .map_or("-".into(), |(s, c)| format!("{s} {}", c.text(g.rules)));
    let turn = g.to_move().map_or("-".into(), |s| s.to_string());
    let (faceup_rank, holder) = g.faceup;
    [
        format!("SEAT {seat}"),
        format!("RULES {}", g.rule_name()),
        format!("HAND {}", or_dash(g.hands[seat].text())),
        format!(
            "FACEUP {} {holder}",
            char::from(crate::cards::RANK_CHARS[faceup_rank])
        ),
        format!("BIDS {}", or_dash(bids.join(" "))),
        format!("LANDLORD {landlord}"),
        format!("KITTY {}", or_dash(kitty)),
        format!("COUNTS {}", counts.join(" ")),
        format!("STAKE {}", g.stake()),
        format!("PLAYS {}", or_dash(plays.join(" "))),
        format!("TABLE {table}"),
        format!("TURN {turn}"),
    ]
    .join("\n")
}
