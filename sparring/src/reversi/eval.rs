//! The static evaluation: what a strong human counts before the endgame. Mobility (moves now)
//! and potential mobility (empty squares next to the opponent: moves later), few frontier
//! discs, corners and the edge discs anchored to them (they can never be flipped), the X and C
//! squares next to an empty corner (they give it away), parity late, and the disc count only
//! as the end nears (early on, fewer discs usually means more moves).

use arbiter_engine::reversi::Reversi;
use arbiter_engine::Seat;

use super::plane::{bit, Plane};

/// Above any evaluation: a finished game (plus the disc difference).
pub const WIN: i32 = 1_000_000;

/// The board's landmarks, worked out once per search.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub n: u8,
    pub board: Plane,
    squares: i32,
    /// Each corner with its X square and two C squares.
    corners: [Corner; 4],
    /// Move-ordering weight of every square, by bit number.
    order: Vec<i32>,
}

#[derive(Clone, Copy, Debug)]
struct Corner {
    sq: u32,
    x: u32,
    c: [u32; 2],
    /// Steps along the two edges away from the corner, in bit numbers (+-1 or +-16).
    steps: [i32; 2],
}

impl Geometry {
    pub fn new(n: u8) -> Geometry {
        let last = n - 1;
        let corner = |r: u8, c: u8| {
            let (dr, dc): (i8, i8) = (if r == 0 { 1 } else { -1 }, if c == 0 { 1 } else { -1 });
            let at = |rr: i8, cc: i8| bit((r as i8 + rr) as u8, (c as i8 + cc) as u8);
            Corner {
                sq: bit(r, c),
                x: at(dr, dc),
                c: [at(dr, 0), at(0, dc)],
                steps: [16 * i32::from(dr), i32::from(dc)],
            }
        };
        let corners = [
            corner(0, 0),
            corner(0, last),
            corner(last, 0),
            corner(last, last),
        ];
        let mut order = vec![0; 256];
        for r in 0..n {
            for c in 0..n {
                let edge = r == 0 || r == last || c == 0 || c == last;
                order[bit(r, c) as usize] = if edge { 10 } else { 0 };
            }
        }
        for k in &corners {
            order[k.sq as usize] = 100;
            order[k.x as usize] = -50;
            for c in k.c {
                order[c as usize] = -20;
            }
        }
        Geometry {
            n,
            board: Plane::board(n),
            squares: i32::from(n) * i32::from(n),
            corners,
            order,
        }
    }

    /// How promising a move to (row, col) looks before any search: corners first, squares
    /// that give a corner away last (unless the corner is taken).
    pub fn order_weight(&self, game: &Reversi, row: u8, col: u8) -> i32 {
        let sq = bit(row, col);
        let w = self.order[sq as usize];
        if w < 0 {
            let k = self.corners.iter().find(|k| k.x == sq || k.c.contains(&sq));
            if let Some(k) = k {
                let (r, c) = ((k.sq / 16) as u8, (k.sq % 16) as u8);
                if game.disc(r, c).is_some() {
                    return 5;
                }
            }
        }
        w
    }
}

/// The evaluation's weights (per disc, square or move; see [`evaluate`]).
#[derive(Clone, Debug)]
pub struct Weights {
    pub mobility: i32,
    pub potential: i32,
    pub frontier: i32,
    pub corner: i32,
    pub x_square: i32,
    pub c_square: i32,
    pub stable: i32,
    pub parity: i32,
    /// Disc difference weight at the end of the game (it grows from 0 over the last half).
    pub discs_late: i32,
    /// Penalty per squared disc below the board's side length: with very few discs a side
    /// can be wiped out (few discs give mobility, none lose the game).
    pub few: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            mobility: 12,
            potential: 4,
            frontier: 3,
            corner: 120,
            x_square: 60,
            c_square: 25,
            stable: 15,
            parity: 10,
            discs_late: 8,
            few: 30,
        }
    }
}

/// The value of `game` for `me`, the side to move (or, when it must pass, the side whose turn
/// it is).
pub fn evaluate(game: &Reversi, me: Seat, geo: &Geometry, w: &Weights) -> i32 {
    let mine = Plane(game.disc_plane(me));
    let theirs = Plane(game.disc_plane(me.other()));
    let empty = geo.board & !(mine | theirs);
    let empties = empty.count() as i32;

    // The side to move's placements are kept with the position; the other side's cost a
    // move generation.
    let moves_me = game.legal_places().len() as i32;
    let moves_op = game.mobility(me.other()) as i32;
    let mut value = w.mobility * (moves_me - moves_op);

    let near_empty = empty.dilate();
    let frontier = (theirs & near_empty).count() as i32 - (mine & near_empty).count() as i32;
    let potential =
        (empty & theirs.dilate()).count() as i32 - (empty & mine.dilate()).count() as i32;
    value += w.frontier * frontier + w.potential * potential;

    value += corners(geo, mine, theirs, w);

    let n = i32::from(geo.n);
    let shortfall = |discs: Plane| (n - discs.count() as i32).max(0).pow(2);
    value += w.few * (shortfall(theirs) - shortfall(mine));

    let filled = geo.squares - empties;
    if 2 * filled > geo.squares {
        // The disc count matters more and more over the second half.
        let late = 2 * filled - geo.squares;
        let discs = mine.count() as i32 - theirs.count() as i32;
        value += w.discs_late * discs * late / geo.squares;
        if empties % 2 == 1 {
            value += w.parity;
        }
    }
    value
}

/// Corners, their X and C squares, and edge discs anchored to a corner, for `mine`.
fn corners(geo: &Geometry, mine: Plane, theirs: Plane, w: &Weights) -> i32 {
    let mut value = 0;
    for k in &geo.corners {
        let owner = if mine.has(k.sq) {
            1
        } else if theirs.has(k.sq) {
            -1
        } else {
            0
        };
        if owner == 0 {
            let side = |sq: u32| i32::from(mine.has(sq)) - i32::from(theirs.has(sq));
            value -= w.x_square * side(k.x);
            value -= w.c_square * (side(k.c[0]) + side(k.c[1]));
            continue;
        }
        value += w.corner * owner;
        let own = if owner == 1 { mine } else { theirs };
        for step in k.steps {
            value += w.stable * owner * anchored(geo, own, k.sq, step);
        }
    }
    value
}

/// How many of `own`'s discs follow the corner `sq` along its edge without a gap.
fn anchored(geo: &Geometry, own: Plane, sq: u32, step: i32) -> i32 {
    let mut count = 0;
    let mut at = sq as i32;
    for _ in 1..geo.n {
        at += step;
        if !own.has(at as u32) {
            break;
        }
        count += 1;
    }
    count
}

/// A finished game's value for `me`: a win or loss beyond any evaluation, by the margin.
pub fn final_value(game: &Reversi, me: Seat) -> i32 {
    let counts = game.counts();
    let diff = i32::from(counts[me.index()]) - i32::from(counts[me.other().index()]);
    WIN * diff.signum() + diff
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::reversi::Config;
    use arbiter_engine::Game;

    #[test]
    fn the_start_is_even_and_a_corner_is_good() {
        let geo = Geometry::new(8);
        let w = Weights::default();
        let start = Reversi::new(&Config { size: 8 }).expect("size");
        assert_eq!(evaluate(&start, Seat::FIRST, &geo, &w), 0);
        let mut cells = vec![None; 64];
        cells[0] = Some(Seat::FIRST);
        cells[27] = Some(Seat::FIRST);
        cells[28] = Some(Seat::SECOND);
        cells[35] = Some(Seat::SECOND);
        cells[36] = Some(Seat::FIRST);
        let game = Reversi::from_cells(&Config { size: 8 }, &cells, Seat::FIRST).expect("board");
        assert!(evaluate(&game, Seat::FIRST, &geo, &w) > 60);
        assert!(evaluate(&game, Seat::SECOND, &geo, &w) < -60);
    }

    #[test]
    fn x_squares_sit_diagonally_inside_each_corner() {
        let geo = Geometry::new(16);
        let xs: Vec<u32> = geo.corners.iter().map(|k| k.x).collect();
        assert_eq!(xs, vec![bit(1, 1), bit(1, 14), bit(14, 1), bit(14, 14)]);
        assert_eq!(geo.corners[3].c, [bit(14, 15), bit(15, 14)]);
    }
}
