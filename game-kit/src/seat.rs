//! Seats, turns and viewers: who plays, who moves now, and who looks.

/// A seat at the table: 0 moves first. A game has from 1 to [`MAX_SEATS`] of them.
pub type Seat = usize;

/// The most seats a game may have (CodinGame's and Battlesnake's eight).
pub const MAX_SEATS: usize = 8;

/// A set of seats (a simultaneous turn's movers).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeatSet(u32);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The seats `0..n`.
    pub fn first(n: usize) -> SeatSet {
        SeatSet(if n >= 32 { u32::MAX } else { (1u32 << n) - 1 })
    }

    /// One seat alone.
    pub fn one(seat: Seat) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        s.insert(seat);
        s
    }

    /// Adds `seat` (seats of 32 and over cannot be in a set; [`MAX_SEATS`] is far below).
    pub fn insert(&mut self, seat: Seat) {
        if seat < 32 {
            self.0 |= 1 << seat;
        }
    }

    pub fn remove(&mut self, seat: Seat) {
        if seat < 32 {
            self.0 &= !(1 << seat);
        }
    }

    pub fn contains(self, seat: Seat) -> bool {
        seat < 32 && self.0 & (1 << seat) != 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in order, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..32).filter(move |&s| self.contains(s))
    }

    /// The set as bits, seat `s` at bit `s` (the ABI's fast path carries it so).
    pub fn bits(self) -> u32 {
        self.0
    }

    pub fn from_bits(bits: u32) -> SeatSet {
        SeatSet(bits)
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        for seat in iter {
            s.insert(seat);
        }
        s
    }
}

impl core::fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Whose turn it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Turn {
    /// One seat moves (most games' every turn).
    Seat(Seat),
    /// These seats move at once: each chooses without knowing what the others choose, and
    /// their moves are played together ([`crate::Game::play_together`]) as one ply.
    Together(SeatSet),
    /// The game is over.
    Over,
}

impl Turn {
    /// `Seat(s)` for `Some(s)`, `Over` for `None`: a sequential game's turn from its side to
    /// move.
    pub fn of(to_move: Option<Seat>) -> Turn {
        to_move.map_or(Turn::Over, Turn::Seat)
    }

    /// The seats that move now (empty once the game is over).
    pub fn movers(self) -> SeatSet {
        match self {
            Turn::Seat(s) => SeatSet::one(s),
            Turn::Together(set) => set,
            Turn::Over => SeatSet::EMPTY,
        }
    }

    pub fn is_over(self) -> bool {
        self == Turn::Over
    }

    /// The one seat to move in a sequential turn.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Turn::Seat(s) => Some(s),
            _ => None,
        }
    }
}

/// Who looks at a position: the view and what each ply reveals depend on it in a game with
/// hidden information.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Viewer {
    /// Everything: the replay once the game is over, and whoever the contest lets see it all.
    All,
    /// What one seat may know: its own hand and the table.
    Seat(Seat),
    /// What everyone at the table sees (spectators while the game runs).
    Public,
}

impl Viewer {
    /// Whether this viewer may see what only `seat` knows.
    pub fn sees_seat(self, seat: Seat) -> bool {
        match self {
            Viewer::All => true,
            Viewer::Seat(s) => s == seat,
            Viewer::Public => false,
        }
    }
}

/// Facts about a game's shape (OpenSpiel's axes): whether it has chance, hidden information
/// or simultaneous turns. They tell arbiter what to check and what to keep from whom.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Kind {
    /// Dice, deals, shuffles: drawn from the game's seed only.
    #[serde(default)]
    pub chance: bool,
    /// Some seat does not see everything (a hand, a sealed bid): the game implements
    /// [`crate::Game::sample`], and its views and reveals depend on the viewer.
    #[serde(default)]
    pub hidden: bool,
    /// Some turns are [`Turn::Together`].
    #[serde(default)]
    pub simultaneous: bool,
}

impl Kind {
    /// No chance, nothing hidden, one mover at a time (Connect Four, Hex).
    pub const PLAIN: Kind = Kind {
        chance: false,
        hidden: false,
        simultaneous: false,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_sets_hold_seats_in_order() {
        let s: SeatSet = [3, 0, 5].into_iter().collect();
        assert_eq!(s.iter().collect::<alloc::vec::Vec<_>>(), [0, 3, 5]);
        assert_eq!(s.len(), 3);
        assert!(s.contains(3) && !s.contains(1) && !s.contains(99));
        assert_eq!(SeatSet::first(3).bits(), 0b111);
        assert_eq!(Turn::Together(s).movers(), s);
        assert_eq!(Turn::of(Some(1)).movers(), SeatSet::one(1));
        assert!(Turn::of(None).movers().is_empty());
        assert!(Viewer::All.sees_seat(2) && !Viewer::Public.sees_seat(0));
        assert!(Viewer::Seat(1).sees_seat(1) && !Viewer::Seat(1).sees_seat(0));
    }
}
