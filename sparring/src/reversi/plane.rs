//! 256-bit planes of 16 squares a row (the layout of `Reversi::disc_plane`), with the few
//! operations the evaluation needs: counting, and the squares next to a set.

use std::ops::{BitAnd, BitOr, Not};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plane(pub [u64; 4]);

/// Bit number of (row, col).
pub fn bit(row: u8, col: u8) -> u32 {
    16 * u32::from(row) + u32::from(col)
}

impl Plane {
    pub const EMPTY: Plane = Plane([0; 4]);

    #[cfg(test)]
    pub fn square(sq: u32) -> Plane {
        let mut p = Plane::EMPTY;
        p.0[(sq / 64) as usize] = 1 << (sq % 64);
        p
    }

    /// The N x N board's squares.
    pub fn board(n: u8) -> Plane {
        let row = (1u64 << n) - 1;
        let mut p = Plane::EMPTY;
        for r in 0..u32::from(n) {
            p.0[(r / 4) as usize] |= row << (16 * (r % 4));
        }
        p
    }

    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    pub fn has(self, sq: u32) -> bool {
        self.0[(sq / 64) as usize] >> (sq % 64) & 1 == 1
    }

    /// Towards higher bit numbers by `n` (< 64).
    fn shl(self, n: u32) -> Plane {
        let w = self.0;
        Plane([
            w[0] << n,
            w[1] << n | w[0] >> (64 - n),
            w[2] << n | w[1] >> (64 - n),
            w[3] << n | w[2] >> (64 - n),
        ])
    }

    /// Towards lower bit numbers by `n` (< 64).
    fn shr(self, n: u32) -> Plane {
        let w = self.0;
        Plane([
            w[0] >> n | w[1] << (64 - n),
            w[1] >> n | w[2] << (64 - n),
            w[2] >> n | w[3] << (64 - n),
            w[3] >> n,
        ])
    }

    /// The set and every square next to it (eight directions), before any board mask.
    pub fn dilate(self) -> Plane {
        // Column 0 and 15 bits that a sideways shift would wrap to the next row.
        const NOT_COL0: u64 = !0x0001_0001_0001_0001;
        const NOT_COL15: u64 = !0x8000_8000_8000_8000;
        let east = self.shl(1) & Plane([NOT_COL0; 4]);
        let west = self.shr(1) & Plane([NOT_COL15; 4]);
        let row = self | east | west;
        row | row.shl(16) | row.shr(16)
    }
}

impl BitAnd for Plane {
    type Output = Plane;
    fn bitand(self, o: Plane) -> Plane {
        Plane([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }
}

impl BitOr for Plane {
    type Output = Plane;
    fn bitor(self, o: Plane) -> Plane {
        Plane([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
}

impl Not for Plane {
    type Output = Plane;
    fn not(self) -> Plane {
        Plane([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilate_stays_on_its_rows_edges() {
        // (0, 15) next to (0, 14), (1, 14), (1, 15), never to (1, 0).
        let d = Plane::square(bit(0, 15)).dilate() & Plane::board(16);
        let expect = [bit(0, 14), bit(0, 15), bit(1, 14), bit(1, 15)];
        assert_eq!(d.count(), 4);
        assert!(expect.iter().all(|&b| d.has(b)));
        // (5, 0): rows 4..6, columns 0..1.
        let d = Plane::square(bit(5, 0)).dilate() & Plane::board(16);
        assert_eq!(d.count(), 6);
        assert!(!d.has(bit(4, 15)) && !d.has(bit(5, 15)));
        // The last row's neighbours do not fall off into nothing or wrap.
        let d = Plane::square(bit(15, 7)).dilate() & Plane::board(16);
        assert_eq!(d.count(), 6);
    }

    #[test]
    fn board_masks() {
        assert_eq!(Plane::board(8).count(), 64);
        assert_eq!(Plane::board(16).count(), 256);
        assert!(!Plane::board(8).has(bit(0, 8)) && Plane::board(8).has(bit(7, 7)));
    }
}
