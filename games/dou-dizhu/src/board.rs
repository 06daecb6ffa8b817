//! The view: a table of 16 columns (the ranks `3` to `R`, then `#`, the number of cards) and
//! six rows: the three seats' hands, the landlord's three cards, the play on the table, and a
//! row of buttons (`pass`, `play`, `bid1` to `bid3`). A hand shows one card per rank held,
//! labelled with how many; a hand the viewer may not see shows only its count.
//!
//! Clicks: a play is its cards, lowest rank first, one click per card in the mover's row, then
//! `play`; a pass is `pass`, a bid its button. No move's clicks begin another's: every play
//! ends on `play`, which no other click sequence holds. In the OpenSpiel rules the same cards
//! can be several plays, so the player lists the moves instead.

use arbiter_game::view::{Board, Grid, Mark, Shape, View};
use arbiter_game::{Clicks, Seat, Viewer};

use crate::cards::{Cards, RANKS, RANK_CHARS};
use crate::combo::Rules;
use crate::{DouDizhu, Move, SEATS};

/// The column of card counts.
const COUNT_COL: u16 = RANKS as u16;
const KITTY_ROW: u16 = 3;
const TABLE_ROW: u16 = 4;
const BUTTON_ROW: u16 = 5;
const PASS: [u16; 2] = [0, BUTTON_ROW];
const PLAY: [u16; 2] = [1, BUTTON_ROW];
/// `bidN` sits in column `N + 1` of the buttons.
const BID_COL: u16 = 1;

fn labelled(v: &mut View, at: [u16; 2], shape: Shape, seat: Option<u8>, label: String) {
    v.piece(at[0], at[1], shape, seat);
    if let Some(p) = v.pieces.last_mut() {
        p.label = Some(label);
    }
}

/// `cards` in `row`, one piece per rank with its count, and the total in the count column.
fn show_cards(v: &mut View, row: u16, cards: &Cards, seat: Option<u8>) {
    for r in (0..RANKS).filter(|&r| cards.count(r) > 0) {
        labelled(
            v,
            [r as u16, row],
            Shape::Square,
            seat,
            cards.count(r).to_string(),
        );
    }
    show_count(v, row, cards.total(), seat);
}

fn show_count(v: &mut View, row: u16, n: usize, seat: Option<u8>) {
    labelled(v, [COUNT_COL, row], Shape::Disc, seat, n.to_string());
}

fn row_labels(g: &DouDizhu) -> Vec<String> {
    let mut rows: Vec<String> = (0..SEATS)
        .map(|s| match g.landlord {
            Some(l) if l == s => format!("{s} landlord"),
            Some(_) => format!("{s} peasant"),
            None => format!("seat {s}"),
        })
        .collect();
    rows.extend(["kitty".into(), "table".into(), "click".into()]);
    rows
}

pub fn view(g: &DouDizhu, viewer: Viewer) -> View {
    let mut v = View::board(Grid::Cells, COUNT_COL + 1, BUTTON_ROW + 1);
    v.board = Board {
        col_labels: RANK_CHARS
            .iter()
            .map(|&c| char::from(c).to_string())
            .chain(["#".to_string()])
            .collect(),
        row_labels: row_labels(g),
        ..v.board
    };
    for s in 0..SEATS {
        let colour = Some(s as u8);
        if viewer.sees_seat(s) {
            show_cards(&mut v, s as u16, &g.hands[s], colour);
        } else {
            show_count(&mut v, s as u16, g.hands[s].total(), colour);
        }
    }
    // Face down while the bidding runs, but in the full view (the replay).
    match g.shown_kitty() {
        Some(k) => show_cards(&mut v, KITTY_ROW, k, None),
        None if viewer == Viewer::All => show_cards(&mut v, KITTY_ROW, &g.kitty, None),
        None => show_count(&mut v, KITTY_ROW, 3, None),
    }
    if let Some((by, c)) = &g.table {
        show_cards(&mut v, TABLE_ROW, &c.cards, Some(*by as u8));
        for r in (0..RANKS).filter(|&r| c.cards.count(r) > 0) {
            v.mark(r as u16, TABLE_ROW, Mark::Last, Some(*by as u8));
        }
    }
    buttons(g, &mut v);
    v.text = text(g, viewer);
    v
}

/// The buttons of the moves the table allows, from what everyone knows only (whether the
/// mover can beat the table is its own secret: `play` shows whenever it is the play).
fn buttons(g: &DouDizhu, v: &mut View) {
    if g.to_move().is_none() {
        return;
    }
    if g.bidding() || g.table.is_some() {
        labelled(v, PASS, Shape::Square, None, "pass".into());
    }
    if !g.bidding() {
        labelled(v, PLAY, Shape::Square, None, "play".into());
        return;
    }
    for b in g.bid + 1..=crate::bidding::TOP_BID {
        let at = [BID_COL + u16::from(b), BUTTON_ROW];
        labelled(v, at, Shape::Square, None, format!("bid{b}"));
    }
}

fn text(g: &DouDizhu, viewer: Viewer) -> Vec<String> {
    let mut lines = vec![status(g)];
    let (rank, holder) = g.faceup;
    lines.push(format!(
        "face-up card: {}, held by seat {holder}, who bid first",
        char::from(RANK_CHARS[rank])
    ));
    if let Some(l) = g.landlord {
        lines.push(format!(
            "landlord: seat {l}, bid {}; stake now {}",
            g.bid,
            g.stake()
        ));
    }
    let recent: Vec<String> = g
        .plays
        .iter()
        .rev()
        .take(6)
        .rev()
        .map(|(s, c)| format!("{s} {}", c.map_or("pass".into(), |c| c.text(g.rules))))
        .collect();
    if !recent.is_empty() {
        lines.push(format!("last plays: {}", recent.join(", ")));
    }
    // How to play, for whoever may: a seat's view while the game runs (spectators and the
    // replay's full view have no cards to click).
    if matches!(viewer, Viewer::Seat(_)) && g.to_move().is_some() {
        lines.push(match g.rules {
            Rules::Standard => "to play: click your cards, lowest rank first, one click per card, then play (or pass); to bid: bid1, bid2, bid3 or pass".into(),
            Rules::OpenSpiel => "OpenSpiel rules: the same cards can be several plays, so moves are picked from the list".into(),
        });
    }
    lines
}

fn status(g: &DouDizhu) -> String {
    let Some(s) = g.to_move() else {
        return arbiter_game::Game::outcome(g).map_or(String::new(), |o| o.reason);
    };
    if g.bidding() {
        return match g.bidder {
            Some(b) => format!("seat {s} to bid: the bid is {} (seat {b})", g.bid),
            None => format!("seat {s} to bid: no bid yet"),
        };
    }
    match &g.table {
        None => format!("seat {s} leads"),
        Some((by, c)) => format!(
            "seat {s} to beat seat {by}'s {} ({}) or pass",
            c.text(g.rules),
            c.describe()
        ),
    }
}

pub fn clicks(g: &DouDizhu, seat: Seat, mv: &Move) -> Option<Clicks> {
    if g.rules != Rules::Standard || seat >= SEATS {
        return None;
    }
    let seat = seat as u16;
    Some(Clicks::Cells(match mv {
        Move::Pass => vec![PASS],
        Move::Bid(b) => vec![[BID_COL + u16::from(*b), BUTTON_ROW]],
        Move::Play(c) => {
            let mut cells: Vec<[u16; 2]> = (0..RANKS)
                .flat_map(|r| std::iter::repeat_n([r as u16, seat], usize::from(c.cards.count(r))))
                .collect();
            cells.push(PLAY);
            cells
        }
    }))
}
