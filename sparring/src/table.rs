//! The transposition table of the built-in bots' alpha-beta searches: for each position seen
//! (by its hash), the value found, how deep, whether that value is exact or a bound, and the
//! best move, searched first when the position comes again.

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    depth: u8,
    bound: Bound,
    best: u16,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

const NO_MOVE: u16 = u16::MAX;

/// What the table knows of a position.
pub struct Probe {
    /// The stored value, when it settles the node: searched at least as deep, and exact or a
    /// bound outside the window.
    pub value: Option<i32>,
    /// The best move found there before.
    pub best: Option<u16>,
}

/// A fixed number of slots (a power of two), each overwritten by the latest position.
pub struct Table {
    slots: Vec<Entry>,
}

impl Table {
    /// A table of `slots` entries (a power of two), 16 bytes each.
    pub fn new(slots: usize) -> Table {
        debug_assert!(slots.is_power_of_two());
        Table {
            slots: vec![Entry::default(); slots],
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// What is known of the position `key`, searched `depth` plies deep in `alpha..beta`.
    pub fn probe(&self, key: u64, depth: u32, alpha: i32, beta: i32) -> Probe {
        let entry = self.slots[self.slot(key)];
        if entry.key != key {
            return Probe {
                value: None,
                best: None,
            };
        }
        let settles = u32::from(entry.depth) >= depth
            && match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.value >= beta,
                Bound::Upper => entry.value <= alpha,
            };
        Probe {
            value: settles.then_some(entry.value),
            best: (entry.best != NO_MOVE).then_some(entry.best),
        }
    }

    /// Keeps the result of searching `key` `depth` plies deep: `value`, with the window's lower
    /// end `alpha0` as it was on entry and its upper end `beta`, and the best move.
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        (alpha0, beta): (i32, i32),
        value: i32,
        best: Option<u16>,
    ) {
        let bound = if value <= alpha0 {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let slot = self.slot(key);
        self.slots[slot] = Entry {
            key,
            value,
            depth: depth.min(255) as u8,
            bound,
            best: best.unwrap_or(NO_MOVE),
        };
    }
}
