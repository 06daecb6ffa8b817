//! The places at the end. OpenSpiel gives the seat that brought its pieces home `n - 1` and
//! every other seat -1, and everyone 0 at the move bound. We keep its winner and rank the
//! rest, so that a course's table says more than "lost": seats still playing by pieces in
//! their target corner, then by fewer steps still to go (so a seat that keeps a piece at home
//! to block another's corner does not win the tie); failed seats after them, the later
//! failure better. Equal keys share a place.

use arbiter_game::{places_from, Game, Outcome, Seat};

use crate::board::CORNER_NAMES;
use crate::{ChineseCheckers, End};

/// What a seat is ranked by, best highest: won, still playing, then the tie-breaks.
fn key(g: &ChineseCheckers, seat: Seat, winner: Option<u8>) -> (u8, i64, i64) {
    match g.failed[seat] {
        0 if winner == Some(seat as u8) => (3, 0, 0),
        0 => (
            2,
            g.pieces_home(seat) as i64,
            -i64::from(g.steps_to_go(seat)),
        ),
        order => (1, i64::from(order), 0),
    }
}

pub(crate) fn outcome(g: &ChineseCheckers, end: End) -> Option<Outcome> {
    let winner = match end {
        End::Home(w) => Some(w),
        End::Alone | End::Limit => None,
    };
    let keys: Vec<_> = (0..g.seats()).map(|s| key(g, s, winner)).collect();
    let reason = match end {
        End::Home(w) => format!(
            "seat {w} ({}) has all ten pieces home",
            CORNER_NAMES[g.home(usize::from(w))]
        ),
        End::Alone => "every other seat failed".into(),
        End::Limit => format!(
            "the move limit: {} turns played; placed by pieces home, then by steps still to go",
            g.turns
        ),
    };
    Some(Outcome {
        places: places_from(&keys),
        scores: (0..g.seats()).map(|s| g.pieces_home(s) as i64).collect(),
        reason,
    })
}
