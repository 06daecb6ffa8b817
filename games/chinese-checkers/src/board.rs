//! The star: 121 holes, a hexagon of 61 with a corner of ten on each of its six sides.
//!
//! Holes are numbered 0 to 120 as OpenSpiel numbers them: row by row from the top corner's tip,
//! left to right in each row. A hole's place is in axial coordinates from the centre: `q` to
//! the right along a row, `r` down the rows (`s = -q - r` the third axis). The star is every
//! place whose three coordinates are all at least -4 (a triangle pointing down) or all at most
//! 4 (one pointing up). Drawn on the view's hex grid, `q + 8` is the column and `r + 8` the row
//! of a 17 x 17 rhombus: the kit's hex rows step half a hexagon right each, which is exactly
//! the axial layout.

use arbiter_game::notation::{parse_square, push_square};

/// Holes on the star.
pub const CELLS: usize = 121;
/// A corner's holes (a seat's pieces).
pub const CORNER: usize = 10;
/// The side of the rhombus the star is drawn in.
pub const SIDE: usize = 17;
/// No hole (off the star) in the tables below.
pub const NONE: u8 = u8::MAX;

/// The six directions in OpenSpiel's order: up-left, up-right, left, right, down-left,
/// down-right, as `(dq, dr)`.
pub const DIRECTIONS: [(i8, i8); 6] = [(0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1)];

/// The corners in OpenSpiel's order (clockwise from the top), long and short names.
pub const CORNER_NAMES: [&str; 6] = [
    "north",
    "north-east",
    "south-east",
    "south",
    "south-west",
    "north-west",
];
pub const CORNER_SHORT: [&str; 6] = ["n", "ne", "se", "s", "sw", "nw"];

/// The star's geometry, built once at compile time.
pub struct Star {
    /// Each hole's `(q, r)`.
    pub axial: [(i8, i8); CELLS],
    /// The neighbour in each direction, or [`NONE`].
    pub step: [[u8; 6]; CELLS],
    /// Two holes away in each direction (a jump's landing), or [`NONE`].
    pub jump: [[u8; 6]; CELLS],
    /// The six corners' holes, each in ascending order.
    pub corners: [[u8; CORNER]; 6],
    /// The hole at `[row][col]` of the rhombus, or [`NONE`].
    by_place: [[u8; SIDE]; SIDE],
}

pub static STAR: Star = Star::build();

const fn on_star(q: i8, r: i8) -> bool {
    let s = -q - r;
    let within = q >= -8 && q <= 8 && r >= -8 && r <= 8;
    within && ((q >= -4 && r >= -4 && s >= -4) || (q <= 4 && r <= 4 && s <= 4))
}

/// The corner a place lies in, if any: 0 north (`r < -4`), 1 north-east (`q > 4`), 2
/// south-east (`s < -4`), 3 south, 4 south-west, 5 north-west, the opposite of each three on.
const fn corner_of(q: i8, r: i8) -> u8 {
    let s = -q - r;
    if r < -4 {
        0
    } else if q > 4 {
        1
    } else if s < -4 {
        2
    } else if r > 4 {
        3
    } else if q < -4 {
        4
    } else if s > 4 {
        5
    } else {
        NONE
    }
}

impl Star {
    const fn build() -> Star {
        let mut axial = [(0i8, 0i8); CELLS];
        let mut by_place = [[NONE; SIDE]; SIDE];
        let mut n = 0;
        let mut r = -8i8;
        while r <= 8 {
            let mut q = -8i8;
            while q <= 8 {
                if on_star(q, r) {
                    axial[n] = (q, r);
                    by_place[(r + 8) as usize][(q + 8) as usize] = n as u8;
                    n += 1;
                }
                q += 1;
            }
            r += 1;
        }
        let mut step = [[NONE; 6]; CELLS];
        let mut jump = [[NONE; 6]; CELLS];
        let mut corners = [[NONE; CORNER]; 6];
        let mut filled = [0usize; 6];
        let mut i = 0;
        while i < CELLS {
            let (q, r) = axial[i];
            let mut d = 0;
            while d < 6 {
                let (dq, dr) = DIRECTIONS[d];
                step[i][d] = lookup(&by_place, q + dq, r + dr);
                if step[i][d] != NONE {
                    jump[i][d] = lookup(&by_place, q + 2 * dq, r + 2 * dr);
                }
                d += 1;
            }
            let c = corner_of(q, r);
            if c != NONE {
                corners[c as usize][filled[c as usize]] = i as u8;
                filled[c as usize] += 1;
            }
            i += 1;
        }
        Star {
            axial,
            step,
            jump,
            corners,
            by_place,
        }
    }

    /// The hole at view place `[col, row]` (row 0 at the top), if that place is on the star.
    pub fn at_place(&self, col: usize, row: usize) -> Option<u8> {
        let i = *self.by_place.get(row)?.get(col)?;
        (i != NONE).then_some(i)
    }

    /// A hole's place in the view: `[col, row]`, row 0 at the top.
    pub fn place(&self, cell: u8) -> [u16; 2] {
        let (q, r) = self.axial[usize::from(cell)];
        [(q + 8) as u16, (r + 8) as u16]
    }

    /// Steps between two holes along the grid (the hex distance).
    pub fn distance(&self, a: u8, b: u8) -> u32 {
        let (qa, ra) = self.axial[usize::from(a)];
        let (qb, rb) = self.axial[usize::from(b)];
        let (dq, dr) = (i32::from(qa - qb), i32::from(ra - rb));
        (dq.unsigned_abs() + dr.unsigned_abs() + (dq + dr).unsigned_abs()) / 2
    }

    /// The corner a hole lies in (0 to 5), or `None` for the central hexagon.
    pub fn corner(&self, cell: u8) -> Option<usize> {
        let (q, r) = self.axial[usize::from(cell)];
        let c = corner_of(q, r);
        (c != NONE).then_some(usize::from(c))
    }

    /// Appends a hole's name: the rhombus column's letter (`a` to `q`) and its row counted
    /// from the bottom (`1` to `17`), as the view labels them: the top corner's tip is `m17`,
    /// the bottom one's `e1`.
    pub fn push_name(&self, out: &mut String, cell: u8) {
        let [c, r] = self.place(cell);
        push_square(out, usize::from(c), SIDE - 1 - usize::from(r));
    }

    pub fn name(&self, cell: u8) -> String {
        let mut s = String::with_capacity(3);
        self.push_name(&mut s, cell);
        s
    }

    /// Reads a hole's name.
    pub fn parse(&self, text: &str) -> Result<u8, String> {
        let (c, r) = parse_square(text, SIDE, SIDE).ok_or_else(|| {
            format!(
                "{:?} is not a hole: a letter a to q and a row 1 to 17",
                arbiter_game::config::cut(text, 20)
            )
        })?;
        self.at_place(c, SIDE - 1 - r)
            .ok_or_else(|| format!("{text} is off the star"))
    }
}

const fn lookup(by_place: &[[u8; SIDE]; SIDE], q: i8, r: i8) -> u8 {
    if on_star(q, r) {
        by_place[(r + 8) as usize][(q + 8) as usize]
    } else {
        NONE
    }
}

/// The home corner of each seat (the target is the opposite corner, three on), as OpenSpiel
/// seats them: two face each other north and south; three take every other corner; four leave
/// the north-west and south-east empty; six fill the star. `None` for other counts.
pub fn homes(seats: usize) -> Option<&'static [usize]> {
    match seats {
        2 => Some(&[0, 3]),
        3 => Some(&[0, 2, 4]),
        4 => Some(&[0, 1, 3, 4]),
        6 => Some(&[0, 1, 2, 3, 4, 5]),
        _ => None,
    }
}

/// The corner opposite `corner`.
pub fn opposite(corner: usize) -> usize {
    (corner + 3) % 6
}
