//! Bit planes: one bit per square, rows of a fixed stride (8 bits in a `u64` for boards up to
//! 8 x 8, 16 bits in a [`U256`] for boards up to 16 x 16). Smaller boards sit in the top-left
//! corner of the plane; off-board squares stay empty, so they stop every run of discs, and the
//! board mask clears them from move sets.
//!
//! Both planes implement [`Plane`], so the search code (perft, playouts) is written once.
//!
//! The plane operations are forced inline for native builds (perft and the bots' playouts live
//! on them), but not in wasm: there the web player only replays games, and the 16 x 16 move
//! generator inlined whole was 14 KB of its wasm (1.7 KB of the gzipped page).

use core::ops::{BitAnd, BitOr, BitXor, Not};

/// What the move generator and the perft loop need from a plane.
pub(crate) trait Plane:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// Squares per row (8 or 16).
    const STRIDE: u32;
    const EMPTY: Self;

    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// The plane with only `sq` set; `sq` must be below `STRIDE * STRIDE`.
    fn square(sq: u32) -> Self;
    fn has(self, sq: u32) -> bool;
    /// Removes and returns the lowest set square.
    fn pop_lowest(&mut self) -> Option<u32>;
    /// Squares where the owner of `p` may play against `o` (before the board mask).
    fn moves(p: Self, o: Self) -> Self;
    /// The discs of `o` that a disc of `p`'s owner on `sq` flips (empty: not a legal move).
    fn flips(sq: u32, p: Self, o: Self) -> Self;
}

// ---------------------------------------------------------------------------------------------
// 8-wide plane on u64
// ---------------------------------------------------------------------------------------------

/// Every column but the first and last: a run of opponent discs that continues sideways or
/// diagonally never includes them, which also stops shifts from wrapping to the next row.
const INNER8: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Moves along one direction pair (`d` and `-d`): a parallel-prefix fill from the mover's discs
/// through `run` (the opponent discs a run may cross), one shift past its end. Runs of up to six
/// discs, the most an 8-wide board holds.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
fn moves8_dir(p: u64, run: u64, d: u32) -> u64 {
    let mut up = run & (p << d);
    let mut down = run & (p >> d);
    up |= run & (up << d);
    down |= run & (down >> d);
    let run_up = run & (run << d);
    let run_down = run_up >> d;
    up |= run_up & (up << (2 * d));
    down |= run_down & (down >> (2 * d));
    up |= run_up & (up << (2 * d));
    down |= run_down & (down >> (2 * d));
    (up << d) | (down >> d)
}

/// Rays from every square of the 8-wide plane, excluding the square itself. Directions 0..4
/// go to higher bit numbers (E, S, SE, SW), 4..8 to lower ones (W, N, NW, NE).
static RAYS8: [[u64; 64]; 8] = build_rays8();

const fn build_rays8() -> [[u64; 64]; 8] {
    const DIRS: [(i32, i32); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (-1, 1),
    ];
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (dr, dc) = DIRS[d];
            let mut r = (sq / 8) as i32 + dr;
            let mut c = (sq % 8) as i32 + dc;
            let mut ray = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                ray |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            rays[d][sq] = ray;
            sq += 1;
        }
        d += 1;
    }
    rays
}

impl Plane for u64 {
    const STRIDE: u32 = 8;
    const EMPTY: u64 = 0;

    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn square(sq: u32) -> u64 {
        1u64 << (sq & 63)
    }
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn has(self, sq: u32) -> bool {
        sq < 64 && (self >> sq) & 1 != 0
    }
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn pop_lowest(&mut self) -> Option<u32> {
        if *self == 0 {
            return None;
        }
        let sq = self.trailing_zeros();
        *self &= *self - 1;
        Some(sq)
    }

    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn moves(p: u64, o: u64) -> u64 {
        let inner = o & INNER8;
        (moves8_dir(p, inner, 1)
            | moves8_dir(p, o, 8)
            | moves8_dir(p, inner, 7)
            | moves8_dir(p, inner, 9))
            & !(p | o)
    }

    /// Per direction: the first square along the ray that is not an opponent disc decides; if it
    /// is the mover's, every square before it flips. Found with one bit-scan per ray.
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn flips(sq: u32, p: u64, o: u64) -> u64 {
        let sq = (sq & 63) as usize;
        let mut flips = 0;
        for rays in &RAYS8[..4] {
            let ray = rays[sq];
            let stop = ray & !o;
            // The mover's disc that closes the run, if any; the run is every ray square below.
            let outflank = stop & stop.wrapping_neg() & p;
            flips |= outflank.saturating_sub(1) & ray;
        }
        for rays in &RAYS8[4..] {
            let ray = rays[sq];
            // `| 1` keeps the scan defined; bit 0 then only counts if it is on the ray.
            let stop = (ray & !o) | 1;
            let outflank = (1u64 << (63 ^ stop.leading_zeros())) & p & ray;
            // Every ray square above the closing disc (none when there is no such disc).
            flips |= (outflank.wrapping_neg() << 1) & ray;
        }
        flips
    }
}

// ---------------------------------------------------------------------------------------------
// 16-wide plane on four u64 words
// ---------------------------------------------------------------------------------------------

/// 256 bits, word 0 holding bits 0..64 (rows 0..4 of a 16-wide board).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct U256(pub(crate) [u64; 4]);

impl U256 {
    /// Shift towards higher bit numbers (`n` < 256; a constant after inlining).
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn shl(self, n: u32) -> U256 {
        let words = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        let mut i = 3;
        while i >= words {
            let src = i - words;
            out[i] = self.0[src] << bits;
            if bits != 0 && src > 0 {
                out[i] |= self.0[src - 1] >> (64 - bits);
            }
            if i == 0 {
                break;
            }
            i -= 1;
        }
        U256(out)
    }

    /// Shift towards lower bit numbers (`n` < 256; a constant after inlining).
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn shr(self, n: u32) -> U256 {
        let words = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        let mut i = 0;
        while i + words < 4 {
            let src = i + words;
            out[i] = self.0[src] >> bits;
            if bits != 0 && src < 3 {
                out[i] |= self.0[src + 1] << (64 - bits);
            }
            i += 1;
        }
        U256(out)
    }
}

impl BitAnd for U256 {
    type Output = U256;
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn bitand(self, r: U256) -> U256 {
        let (a, b) = (self.0, r.0);
        U256([a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]])
    }
}

impl BitOr for U256 {
    type Output = U256;
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn bitor(self, r: U256) -> U256 {
        let (a, b) = (self.0, r.0);
        U256([a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]])
    }
}

impl BitXor for U256 {
    type Output = U256;
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn bitxor(self, r: U256) -> U256 {
        let (a, b) = (self.0, r.0);
        U256([a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]])
    }
}

impl Not for U256 {
    type Output = U256;
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn not(self) -> U256 {
        let a = self.0;
        U256([!a[0], !a[1], !a[2], !a[3]])
    }
}

/// Every column but the first and last of each 16-wide row (see [`INNER8`]).
const INNER16: U256 = U256([0x7FFE_7FFE_7FFE_7FFE; 4]);

/// [`moves8_dir`] for 16-wide rows: runs of up to 14 discs (steps 1, 1, 2, 2, 4, 4).
#[cfg_attr(not(target_family = "wasm"), inline(always))]
fn moves16_dir(p: U256, run: U256, d: u32) -> U256 {
    let mut up = run & p.shl(d);
    let mut down = run & p.shr(d);
    up = up | (run & up.shl(d));
    down = down | (run & down.shr(d));
    let run_up = run & run.shl(d);
    let run_down = run & run.shr(d);
    up = up | (run_up & up.shl(2 * d));
    down = down | (run_down & down.shr(2 * d));
    up = up | (run_up & up.shl(2 * d));
    down = down | (run_down & down.shr(2 * d));
    let run_up2 = run_up & run_up.shl(2 * d);
    let run_down2 = run_down & run_down.shr(2 * d);
    up = up | (run_up2 & up.shl(4 * d));
    down = down | (run_down2 & down.shr(4 * d));
    up = up | (run_up2 & up.shl(4 * d));
    down = down | (run_down2 & down.shr(4 * d));
    up.shl(d) | down.shr(d)
}

/// The eight directions as (row step, column step).
const DIRS16: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (-1, 1),
];

impl Plane for U256 {
    const STRIDE: u32 = 16;
    const EMPTY: U256 = U256([0; 4]);

    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn count(self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn square(sq: u32) -> U256 {
        let mut w = [0u64; 4];
        w[((sq >> 6) & 3) as usize] = 1u64 << (sq & 63);
        U256(w)
    }
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn has(self, sq: u32) -> bool {
        sq < 256 && (self.0[((sq >> 6) & 3) as usize] >> (sq & 63)) & 1 != 0
    }
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn pop_lowest(&mut self) -> Option<u32> {
        for (i, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let sq = w.trailing_zeros() + 64 * i as u32;
                *w &= *w - 1;
                return Some(sq);
            }
        }
        None
    }

    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn moves(p: U256, o: U256) -> U256 {
        let inner = o & INNER16;
        (moves16_dir(p, inner, 1)
            | moves16_dir(p, o, 16)
            | moves16_dir(p, inner, 15)
            | moves16_dir(p, inner, 17))
            & !(p | o)
    }

    /// Walks the eight rays square by square: runs are short in practice, and a walk costs far
    /// less than eight 256-bit fills.
    #[inline]
    fn flips(sq: u32, p: U256, o: U256) -> U256 {
        let mut flips = U256::EMPTY;
        let row = (sq / 16) as i32;
        let col = (sq % 16) as i32;
        for (dr, dc) in DIRS16 {
            let mut run = U256::EMPTY;
            let (mut r, mut c) = (row + dr, col + dc);
            while (0..16).contains(&r) && (0..16).contains(&c) {
                let s = (r * 16 + c) as u32;
                if o.has(s) {
                    run = run | U256::square(s);
                } else {
                    if p.has(s) {
                        flips = flips | run;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        flips
    }
}

/// The plane of the squares of an `n` x `n` board in the top-left corner of a `P` plane.
pub(crate) fn board_mask<P: Plane>(n: u32) -> P {
    let mut mask = P::EMPTY;
    for r in 0..n.min(P::STRIDE) {
        for c in 0..n.min(P::STRIDE) {
            mask = mask | P::square(r * P::STRIDE + c);
        }
    }
    mask
}

/// Leaf count below (`p` to move, `o`), `depth` >= 1 plies, under the standard convention:
/// a pass is a ply and a finished game is one leaf. The last ply is counted in bulk: a
/// population count of the move set, or one leaf for a pass or a finished game.
pub(crate) fn perft<P: Plane>(p: P, o: P, mask: P, depth: u32) -> u64 {
    let moves = P::moves(p, o) & mask;
    if depth <= 1 {
        return u64::from(moves.count().max(1));
    }
    if moves.is_empty() {
        if (P::moves(o, p) & mask).is_empty() {
            return 1;
        }
        return perft(o, p, mask, depth - 1);
    }
    let mut total = 0;
    let mut rest = moves;
    if depth == 2 {
        // The last two plies in one loop: no call per child.
        while let Some(sq) = rest.pop_lowest() {
            let flips = P::flips(sq, p, o);
            let child = P::moves(o ^ flips, p | flips | P::square(sq)) & mask;
            total += u64::from(child.count().max(1));
        }
        return total;
    }
    while let Some(sq) = rest.pop_lowest() {
        let flips = P::flips(sq, p, o);
        total += perft(o ^ flips, p | flips | P::square(sq), mask, depth - 1);
    }
    total
}
