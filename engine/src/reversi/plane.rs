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

    /// 64-bit words a plane takes in a perft table entry (1 or 4).
    const WORDS: usize;
    /// Word `i` (< `WORDS`) of the plane.
    fn word(self, i: usize) -> u64;
    /// The representative of (`p`, `o`) on an `n` x `n` board among the positions its
    /// symmetries give: they have the same perft counts, so the table keeps one for all.
    fn canonical(p: Self, o: Self, n: u32) -> (Self, Self);
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

/// The rows of an `8 - shift` square board in the top-left corner, upside down.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
fn flip_rows8(x: u64, shift: u32) -> u64 {
    x.swap_bytes() >> (8 * shift)
}

/// The columns of an `8 - shift` square board in the top-left corner, right to left. Each row's
/// bits reversed land in the top of its byte, above the off-board squares (which are empty),
/// so one shift of the whole word moves every row back to the corner.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
fn mirror8(x: u64, shift: u32) -> u64 {
    x.reverse_bits().swap_bytes() >> shift
}

/// Row `r`, column `c` to row `c`, column `r`: a corner board stays in its corner.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
fn transpose8(mut x: u64) -> u64 {
    // Three delta swaps: 1 x 1 blocks inside 2 x 2, then 2 x 2 inside 4 x 4, then 4 x 4.
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

impl Plane for u64 {
    const STRIDE: u32 = 8;
    const EMPTY: u64 = 0;
    const WORDS: usize = 1;

    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn word(self, _: usize) -> u64 {
        self
    }

    /// The least of the eight images of the pair (rotations and reflections of the board).
    #[inline]
    fn canonical(p: u64, o: u64, n: u32) -> (u64, u64) {
        let mut best = (p, o);
        let mut keep = |c: (u64, u64)| {
            if c < best {
                best = c;
            }
        };
        let shift = 8 - n.min(8);
        for (a, b) in [(p, o), (transpose8(p), transpose8(o))] {
            let (va, vb) = (flip_rows8(a, shift), flip_rows8(b, shift));
            keep((a, b));
            keep((va, vb));
            keep((mirror8(a, shift), mirror8(b, shift)));
            keep((mirror8(va, shift), mirror8(vb, shift)));
        }
        best
    }

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

/// [`flip_rows8`] for 16-wide rows: the rows (16-bit lanes) in reverse order.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
fn flip_rows16(x: U256, shift: u32) -> U256 {
    // Within a word the four rows are reversed; then the words go in reverse order.
    let w = x.0;
    let rev = |w: u64| {
        let w = w.rotate_left(32);
        ((w & 0xFFFF_0000_FFFF_0000) >> 16) | ((w & 0x0000_FFFF_0000_FFFF) << 16)
    };
    U256([rev(w[3]), rev(w[2]), rev(w[1]), rev(w[0])]).shr(16 * shift)
}

/// [`mirror8`] for 16-wide rows.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
fn mirror16(x: U256, shift: u32) -> U256 {
    // Reversing a word's bits reverses its four rows too; putting them back in order leaves
    // each row's bits reversed.
    let rev = |w: u64| {
        let w = w.reverse_bits().rotate_left(32);
        ((w & 0xFFFF_0000_FFFF_0000) >> 16) | ((w & 0x0000_FFFF_0000_FFFF) << 16)
    };
    let w = x.0;
    U256([rev(w[0]), rev(w[1]), rev(w[2]), rev(w[3])]).shr(shift)
}

impl Plane for U256 {
    const STRIDE: u32 = 16;
    const EMPTY: U256 = U256([0; 4]);
    const WORDS: usize = 4;

    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn word(self, i: usize) -> u64 {
        self.0[i & 3]
    }

    /// The least of the pair and its three images by the board's reflections through its
    /// middle row and column (the diagonal ones would need a 16 x 16 transpose: left out, the
    /// table is only less shared).
    #[inline]
    fn canonical(p: U256, o: U256, n: u32) -> (U256, U256) {
        let shift = 16 - n.min(16);
        let key = |a: U256, b: U256| (a.0, b.0);
        let mut best = (p, o);
        for (a, b) in [
            (flip_rows16(p, shift), flip_rows16(o, shift)),
            (mirror16(p, shift), mirror16(o, shift)),
            (
                mirror16(flip_rows16(p, shift), shift),
                mirror16(flip_rows16(o, shift), shift),
            ),
        ] {
            if key(a, b) < key(best.0, best.1) {
                best = (a, b);
            }
        }
        best
    }

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

/// The least depth whose counts go into a perft table: below it a subtree costs about as much
/// as a probe (the last two plies are counted in bulk anyway).
const HASH_MIN_DEPTH: u32 = 3;

/// A perft transposition table in plain words, so that it is allocated zeroed (the pages the
/// search never touches cost nothing). An entry is `P::WORDS` words of the mover's discs, as
/// many of the opponent's, the count and the depth; entries go by pairs (a bucket): the first
/// keeps the deeper count, the second the latest. Depth 0 marks an empty entry.
pub(crate) struct Table<'a, P> {
    words: &'a mut [u64],
    buckets: usize,
    n: u32,
    _plane: core::marker::PhantomData<P>,
}

impl<'a, P: Plane> Table<'a, P> {
    const ENTRY: usize = 2 * P::WORDS + 2;
    const BUCKET: usize = 2 * Self::ENTRY;

    /// A table over `words` (its length rounded down to a power of two of buckets; fewer than
    /// one bucket: no table) for an `n` x `n` board.
    pub(crate) fn new(words: &'a mut [u64], n: u32) -> Table<'a, P> {
        let fit = words.len() / Self::BUCKET;
        let buckets = if fit == 0 { 0 } else { 1 << fit.ilog2() };
        Table {
            words,
            buckets,
            n,
            _plane: core::marker::PhantomData,
        }
    }

    fn bucket(&self, p: P, o: P, depth: u32) -> usize {
        let mut h = u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for i in 0..P::WORDS {
            h = (h ^ p.word(i)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
            h = (h ^ o.word(i)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        }
        h ^= h >> 32;
        // `buckets` is a power of two.
        (h as usize & (self.buckets - 1)) * Self::BUCKET
    }

    fn holds(&self, at: usize, p: P, o: P, depth: u32) -> bool {
        let e = &self.words[at..at + Self::ENTRY];
        e[Self::ENTRY - 1] == u64::from(depth)
            && (0..P::WORDS).all(|i| e[i] == p.word(i) && e[P::WORDS + i] == o.word(i))
    }

    fn probe(&self, p: P, o: P, depth: u32) -> Option<u64> {
        let b = self.bucket(p, o, depth);
        [b, b + Self::ENTRY]
            .into_iter()
            .find(|&at| self.holds(at, p, o, depth))
            .map(|at| self.words[at + Self::ENTRY - 2])
    }

    fn store(&mut self, p: P, o: P, depth: u32, count: u64) {
        let b = self.bucket(p, o, depth);
        let at = if u64::from(depth) >= self.words[b + Self::ENTRY - 1] {
            b
        } else {
            b + Self::ENTRY
        };
        let e = &mut self.words[at..at + Self::ENTRY];
        for i in 0..P::WORDS {
            e[i] = p.word(i);
            e[P::WORDS + i] = o.word(i);
        }
        e[Self::ENTRY - 2] = count;
        e[Self::ENTRY - 1] = u64::from(depth);
    }
}

/// [`perft`] with the counts of subtrees of at least [`HASH_MIN_DEPTH`] plies kept in `table`
/// under the positions' symmetric representative: a position reached again (by another move
/// order, or as a mirror image) is counted once. Exact: an entry holds the whole position.
pub(crate) fn perft_hashed<P: Plane>(
    p: P,
    o: P,
    mask: P,
    depth: u32,
    table: &mut Table<'_, P>,
) -> u64 {
    if depth < HASH_MIN_DEPTH || table.buckets == 0 {
        return perft(p, o, mask, depth);
    }
    let moves = P::moves(p, o) & mask;
    if moves.is_empty() {
        if (P::moves(o, p) & mask).is_empty() {
            return 1;
        }
        return perft_hashed(o, p, mask, depth - 1, table);
    }
    let (kp, ko) = P::canonical(p, o, table.n);
    if let Some(count) = table.probe(kp, ko, depth) {
        return count;
    }
    let mut total = 0;
    let mut rest = moves;
    while let Some(sq) = rest.pop_lowest() {
        let flips = P::flips(sq, p, o);
        total += perft_hashed(o ^ flips, p | flips | P::square(sq), mask, depth - 1, table);
    }
    table.store(kp, ko, depth, total);
    total
}
