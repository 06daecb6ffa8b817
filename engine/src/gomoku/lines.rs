//! The board as line bitmasks: every row, column and diagonal is one word per colour, so the
//! pattern around a point along any direction is a shift and a mask away. Both the win check
//! and the renju detector read 11-cell windows (the point and five cells either side) from here.

/// Largest board side.
pub(crate) const MAX_SIZE: usize = 26;
/// Lines per direction: `2 * MAX_SIZE - 1` diagonals is the most.
const MAX_LINES: usize = 2 * MAX_SIZE - 1;
/// Cells of padding below position 0 of each line word, so a window may start before it.
const PAD: u32 = 5;
/// An 11-cell window: bit 5 is the point, bit 5 + k the cell k steps along the direction.
pub(crate) const WINDOW: u32 = 0x7FF;
/// Bit of the centre point in a window.
pub(crate) const CENTER: u32 = 1 << 5;

/// Step (dx, dy) of the four directions: row, column, diagonal down-right, diagonal up-right.
pub(crate) const DIRS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Colour index in [`Lines`]: 0 black, 1 white (the seat index).
pub(crate) type Colour = usize;
pub(crate) const BLACK: Colour = 0;
pub(crate) const WHITE: Colour = 1;

/// Black, white and empty cells of every line, in the four directions.
///
/// A cell off the board is in none of the three masks, so it behaves like a wall (an opponent
/// stone) for every pattern.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Lines {
    n: u8,
    stones: [[[u64; MAX_LINES]; 4]; 2],
    empty: [[u64; MAX_LINES]; 4],
}

impl core::fmt::Debug for Lines {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Lines")
            .field("n", &self.n)
            .finish_non_exhaustive()
    }
}

/// Line index and position along it of (x, y) in direction `d`.
#[inline(always)]
fn locate(n: u8, d: usize, x: u8, y: u8) -> (usize, u32) {
    let (x, y, n) = (x as usize, y as usize, n as usize);
    match d {
        0 => (y, x as u32),
        1 => (x, y as u32),
        2 => (x + n - 1 - y, x as u32),
        _ => (x + y, x as u32),
    }
}

impl Lines {
    /// An empty `n` x `n` board. The caller has checked `5 <= n <= MAX_SIZE`.
    pub(crate) fn new(n: u8) -> Lines {
        let mut lines = Lines {
            n,
            stones: [[[0; MAX_LINES]; 4]; 2],
            empty: [[0; MAX_LINES]; 4],
        };
        for y in 0..n {
            for x in 0..n {
                for d in 0..4 {
                    let (l, pos) = locate(n, d, x, y);
                    lines.empty[d][l] |= 1 << (pos + PAD);
                }
            }
        }
        lines
    }

    #[inline(always)]
    pub(crate) fn size(&self) -> u8 {
        self.n
    }

    /// The colour on (x, y), or `None` for an empty point. (x, y) must be on the board.
    #[inline]
    pub(crate) fn colour(&self, x: u8, y: u8) -> Option<Colour> {
        let bit = 1u64 << (x as u32 + PAD);
        let row = y as usize;
        if self.stones[BLACK][0][row] & bit != 0 {
            Some(BLACK)
        } else if self.stones[WHITE][0][row] & bit != 0 {
            Some(WHITE)
        } else {
            None
        }
    }

    #[inline]
    pub(crate) fn is_empty(&self, x: u8, y: u8) -> bool {
        self.empty[0][y as usize] & (1u64 << (x as u32 + PAD)) != 0
    }

    /// Puts a stone of colour `c` on the empty point (x, y).
    #[inline]
    pub(crate) fn put(&mut self, c: Colour, x: u8, y: u8) {
        for d in 0..4 {
            let (l, pos) = locate(self.n, d, x, y);
            let bit = 1u64 << (pos + PAD);
            self.stones[c][d][l] |= bit;
            self.empty[d][l] &= !bit;
        }
    }

    /// Takes the stone of colour `c` off (x, y) again (undo of [`Lines::put`]).
    #[inline]
    pub(crate) fn take(&mut self, c: Colour, x: u8, y: u8) {
        for d in 0..4 {
            let (l, pos) = locate(self.n, d, x, y);
            let bit = 1u64 << (pos + PAD);
            self.stones[c][d][l] &= !bit;
            self.empty[d][l] |= bit;
        }
    }

    /// The 11-cell windows (colour `c`, empty) around (x, y) in direction `d`.
    #[inline(always)]
    pub(crate) fn window(&self, c: Colour, d: usize, x: u8, y: u8) -> (u32, u32) {
        let (l, pos) = locate(self.n, d, x, y);
        let s = (self.stones[c][d][l] >> pos) as u32 & WINDOW;
        let e = (self.empty[d][l] >> pos) as u32 & WINDOW;
        (s, e)
    }

    /// Empty cells of row `y` as a mask over x (bit x).
    #[inline]
    pub(crate) fn empty_row(&self, y: u8) -> u32 {
        (self.empty[0][y as usize] >> PAD) as u32
    }
}

/// Length of the unbroken run through the centre of a window whose centre bit is set
/// (counted up to five cells either side, so any run of 6 or more reads as at least 6).
#[inline(always)]
pub(crate) fn run_through_center(s: u32) -> u32 {
    let left = ((s & 0x1F) << 27).leading_ones();
    let right = (s >> 5).trailing_ones();
    left + right
}
