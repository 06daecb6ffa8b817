//! What each seat is told and what each viewer sees: with `imp_info`, another seat's bids and
//! hand are left out of both.

use arbiter_game::view::{Grid, Mark, Shape, View};
use arbiter_game::{Game, Seat, Viewer};

use crate::{seat_name, Goofspiel};

/// Whether `viewer` may see `seat`'s bids and hand.
fn sees(g: &Goofspiel, viewer: Viewer, seat: Seat) -> bool {
    !g.settings().imp_info || viewer.sees_seat(seat)
}

fn numbers<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|i| format!(" {}", i.to_string()))
        .collect()
}

/// The prize cards not turned yet, lowest first, besides the one bid for now (the pool is
/// public; with the random order its order is not).
fn pool(g: &Goofspiel) -> Vec<u8> {
    let from = (g.round() + 1).min(g.deck().len());
    let mut rest = g.deck()[from..].to_vec();
    rest.sort_unstable();
    rest
}

/// The bot protocol's content (docs/games/goofspiel.md has an example).
pub fn tell(g: &Goofspiel, seat: Seat) -> String {
    let s = g.settings();
    let mut lines = vec![
        format!(
            "GOOFSPIEL cards {} rounds {} seats {} order {} bids {}",
            s.cards,
            s.rounds,
            s.seats,
            s.order_name(),
            if s.imp_info { "hidden" } else { "open" }
        ),
        format!("SEAT {seat}"),
        match g.prize() {
            Some(p) => format!("ROUND {} PRIZE {p}", g.round() + 1),
            None => "OVER".into(),
        },
        format!("HAND{}", numbers(g.hand(seat))),
        format!("POINTS{}", numbers(g.scores())),
    ];
    for r in g.history() {
        let winner = r.winner.map_or("-".into(), |w| w.to_string());
        let bids = r.bids.iter().enumerate().map(|(by, b)| match b {
            None => "x".into(),
            Some(_) if !sees(g, Viewer::Seat(seat), by) => "?".into(),
            Some(b) => b.to_string(),
        });
        lines.push(format!("PAST {} {winner}{}", r.prize, numbers(bids)));
    }
    lines.push(format!("LEFT{}", numbers(pool(g))));
    let out: Vec<Seat> = (0..s.seats).filter(|&o| !g.active().contains(o)).collect();
    if !out.is_empty() {
        lines.push(format!("OUT{}", numbers(out)));
    }
    lines.join("\n")
}

/// The bid row's index: below the hands.
pub fn bid_row(g: &Goofspiel) -> u16 {
    g.settings().seats as u16 + 1
}

/// A cells board, a column per card: the prize row (the prize bid for now as a disc, the cards
/// still to come as squares), a row per seat's hand, the bid row (where a person clicks a
/// card's column to bid it) and the row of prizes taken (a disc in the taker's colour, a cross
/// for a prize discarded).
pub fn view(g: &Goofspiel, viewer: Viewer) -> View {
    let s = g.settings();
    let mut v = View::board(Grid::Cells, u16::from(s.cards), s.seats as u16 + 3);
    v.board.col_labels = (1..=s.cards).map(|c| c.to_string()).collect();
    v.board.row_labels = std::iter::once("prize".to_string())
        .chain((0..s.seats).map(|seat| format!("s{seat}")))
        .chain(["bid".into(), "won".into()])
        .collect();
    let col = |card: u8| u16::from(card) - 1;
    if let Some(p) = g.prize() {
        labelled(&mut v, [col(p), 0], Shape::Disc, None, p);
    }
    for c in pool(g) {
        labelled(&mut v, [col(c), 0], Shape::Square, None, c);
    }
    for seat in (0..s.seats).filter(|&seat| sees(g, viewer, seat)) {
        for c in g.hand(seat) {
            labelled(
                &mut v,
                [col(c), 1 + seat as u16],
                Shape::Square,
                Some(seat),
                c,
            );
        }
    }
    draw_won(g, &mut v);
    mark_last(g, viewer, &mut v);
    // A seat's own targets only where views differ anyway: a game that hides nothing draws
    // one view for every viewer (the kit's rule), and its player offers the clicks.
    if let (Viewer::Seat(me), Some(_), true) = (viewer, g.prize(), s.imp_info) {
        for c in g.hand(me) {
            v.mark(col(c), bid_row(g), Mark::Target, Some(me as u8));
        }
    }
    v.text = texts(g, viewer);
    v
}

fn labelled(v: &mut View, [c, r]: [u16; 2], shape: Shape, seat: Option<Seat>, card: u8) {
    v.piece(c, r, shape, seat.map(|s| s as u8));
    if let Some(p) = v.pieces.last_mut() {
        p.label = Some(card.to_string());
    }
}

fn draw_won(g: &Goofspiel, v: &mut View) {
    let row = bid_row(g) + 1;
    for r in g.history() {
        let at = [u16::from(r.prize) - 1, row];
        match r.winner {
            Some(w) => labelled(v, at, Shape::Disc, Some(w), r.prize),
            None => labelled(v, at, Shape::Cross, None, r.prize),
        }
    }
}

/// The last round: its prize in the won row and, where the viewer may see them, the cards bid
/// (framed where they were in the hands).
fn mark_last(g: &Goofspiel, viewer: Viewer, v: &mut View) {
    let Some(last) = g.history().last() else {
        return;
    };
    v.mark(u16::from(last.prize) - 1, bid_row(g) + 1, Mark::Last, None);
    for (seat, bid) in last.bids.iter().enumerate() {
        if let (Some(b), true) = (bid, sees(g, viewer, seat)) {
            v.mark(u16::from(*b) - 1, 1 + seat as u16, Mark::Last, None);
        }
    }
}

fn texts(g: &Goofspiel, viewer: Viewer) -> Vec<String> {
    let s = g.settings();
    let mut t = vec![match (g.prize(), g.outcome()) {
        (Some(p), _) => format!("round {} of {}: bidding for {p}", g.round() + 1, s.rounds),
        (None, Some(o)) => format!("over: {}", o.reason),
        (None, None) => "over".into(),
    }];
    let points: Vec<String> = (0..s.seats)
        .map(|seat| format!("{} {}", seat_name(seat), g.scores()[seat]))
        .collect();
    t.push(format!("points: {}", points.join(", ")));
    if let Some(last) = g.history().last() {
        t.push(last_round(g, viewer, last));
    }
    for seat in 0..s.seats {
        if !g.active().contains(seat) {
            t.push(format!("{} is out", seat_name(seat)));
        } else if !sees(g, viewer, seat) && g.prize().is_some() {
            let n = g.hand(seat).len();
            t.push(format!("{}'s hand is hidden: {n} cards", seat_name(seat)));
        }
    }
    if g.prize().is_some() {
        t.push("to bid, click the card's column in the bid row".into());
    }
    t
}

fn last_round(g: &Goofspiel, viewer: Viewer, last: &crate::Round) -> String {
    let mut line = match last.winner {
        Some(w) => format!(
            "round {}: prize {} to {}",
            g.round(),
            last.prize,
            seat_name(w)
        ),
        None => format!(
            "round {}: prize {} discarded (a tie)",
            g.round(),
            last.prize
        ),
    };
    let shown: Vec<String> = last
        .bids
        .iter()
        .enumerate()
        .filter(|&(seat, _)| sees(g, viewer, seat))
        .filter_map(|(seat, b)| b.map(|b| format!("{} bid {b}", seat_name(seat))))
        .collect();
    if !shown.is_empty() {
        line.push_str(&format!("; {}", shown.join(", ")));
    }
    line
}
