//! Renju restrictions for black: double-three, double-four, overline, in two readings.
//!
//! Definitions (RIF), all about black and about the lines through the new stone:
//! - five: exactly five in an unbroken row; overline: six or more.
//! - four: a line that one more stone turns into a five (a completion making six is no five);
//!   straight four: an unbroken four with two such completions.
//! - three: a line that one more stone turns into a straight four; it is real only if at least
//!   one of those straight-four points is itself not forbidden, judged with the three's stone on
//!   the board (so the check recurses).
//!
//! A move that makes a five wins even when it also makes an overline, fours or threes
//! elsewhere. Otherwise: overline, then double-four (two fours, possibly in one line as in
//! `X.XXX.X`), then double-three.
//!
//! The two readings differ on one point, [`Reading`]: whether a straight-four point that also
//! completes a five on another line keeps a three real. RIF judges that point by the rule
//! above (a five is never forbidden, so the three is real); Piskvork's judge, which the
//! Gomocup renju leagues, GomocupJudge and Rapfi share, counts the point as no straight-four
//! point at all (the three is fake). `docs/rules.md` works an example.
//!
//! The public entry points are [`super::Gomoku::forbidden_points`] and
//! [`super::Gomoku::forbidden_kind`]; `play` refuses a forbidden point with
//! [`crate::IllegalMove::Forbidden`] and `legal_moves` leaves it out when black is to move.
//!
//! Speed: each direction is an 11-cell window read from the line bitmasks (see `lines`), and
//! fives, fours and threes are found with a handful of mask tests on it. A point whose windows
//! hold too few black stones to form two threes or fours is rejected before any of that, and
//! only points with two candidate threes recurse.

use super::lines::{run_through_center, Lines, BLACK, CENTER, DIRS};
use crate::error::ForbiddenKind;

/// How a three's straight-four points are judged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Reading {
    /// RIF: a straight-four point keeps the three real unless it is forbidden itself; a point
    /// that also makes a five is never forbidden.
    Rif,
    /// Piskvork's judge (`renju.cpp`, by Tianyi Hao): a straight-four point that also makes a
    /// five counts as forbidden for this purpose, at every depth of the recursion.
    Gomocup,
}

/// What black's stone on an empty point would do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Judgement {
    /// Exactly five in a row: a win, whatever else the move makes.
    Five,
    Forbidden(ForbiddenKind),
    Allowed,
}

/// What one line through a (hypothetical) black stone makes.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct LineShape {
    /// Length of the black run through the stone (6 means 6 or more).
    run: u32,
    /// Fours through the stone in this line: 0, 1 or 2 (`X.XXX.X`).
    fours: u32,
    /// Window bits of the points that turn this line into a straight four through the stone
    /// (empty when the line is no three).
    three_points: u32,
}

/// The shape of one line. `b`: black cells of the 11-cell window with the centre set; `e`:
/// empty cells of the window (the centre's bit is ignored).
#[inline(always)]
fn line_shape(b: u32, e: u32) -> LineShape {
    let run = run_through_center(b);
    if run >= 5 {
        return LineShape {
            run,
            fours: 0,
            three_points: 0,
        };
    }
    // Fours: a five-cell frame through the centre holding four black stones and one empty
    // cell, with no black stone just outside it (else the completion makes six).
    let mut completions = 0u32;
    let mut s = 1;
    while s <= 5 {
        let missing = (0x1F << s) & !b;
        if missing.is_power_of_two()
            && missing & e != 0
            && b & ((1 << (s - 1)) | (1 << (s + 5))) == 0
        {
            completions |= missing;
        }
        s += 1;
    }
    if completions != 0 {
        // At most two completions exist in one line. Five cells apart they complete the same
        // four stones (a straight four, one four); otherwise they are two fours.
        let low = completions & completions.wrapping_neg();
        let fours = if completions == low || completions == low * 0x21 {
            1
        } else {
            2
        };
        // A line with a four holds no three through the same stone (the straight four's
        // flanks would have to be empty inside the four's frame).
        return LineShape {
            run,
            fours,
            three_points: 0,
        };
    }
    // Threes: a four-cell frame through the centre missing one empty cell, flanked by empty
    // cells, with no black stone beyond the flanks (so both completions are exact fives).
    let mut points = 0u32;
    let mut a = 2;
    while a <= 5 {
        let missing = (0xF << a) & !b;
        if missing.is_power_of_two()
            && missing & e != 0
            && e & (1 << (a - 1)) != 0
            && e & (1 << (a + 4)) != 0
            && b & ((1 << (a - 2)) | (1 << (a + 5))) == 0
        {
            points |= missing;
        }
        a += 1;
    }
    LineShape {
        run,
        fours: 0,
        three_points: points,
    }
}

/// Why black may not play the empty point (x, y) of `lines`, or `None` when it may (including
/// when the move makes a five). `lines` is used as scratch for the recursion and is left as
/// it was.
pub(crate) fn forbidden_at(
    lines: &mut Lines,
    x: u8,
    y: u8,
    reading: Reading,
) -> Option<ForbiddenKind> {
    match judge(lines, x, y, reading) {
        Judgement::Forbidden(kind) => Some(kind),
        Judgement::Five | Judgement::Allowed => None,
    }
}

/// Whether black's stone on the empty (x, y) turns a three into a straight four that counts:
/// the point is allowed, and under the Gomocup reading it makes no five either.
fn straight_four_point_counts(lines: &mut Lines, x: u8, y: u8, reading: Reading) -> bool {
    match judge(lines, x, y, reading) {
        Judgement::Allowed => true,
        Judgement::Five => reading == Reading::Rif,
        Judgement::Forbidden(_) => false,
    }
}

fn judge(lines: &mut Lines, x: u8, y: u8, reading: Reading) -> Judgement {
    let mut windows = [(0u32, 0u32); 4];
    let mut busy = 0; // directions with at least two black stones nearby
    let mut crowded = false; // a direction with at least four
    for (d, w) in windows.iter_mut().enumerate() {
        *w = lines.window(BLACK, d, x, y);
        let count = w.0.count_ones();
        busy += (count >= 2) as u32;
        crowded |= count >= 4;
    }
    if busy < 2 && !crowded {
        // Two threes or fours need two directions with two stones; an overline, a five or a
        // four pair in one line needs four stones in it.
        return Judgement::Allowed;
    }
    let mut shapes = [LineShape::default(); 4];
    let mut overline = false;
    for d in 0..4 {
        let (b, e) = windows[d];
        shapes[d] = line_shape(b | CENTER, e);
        if shapes[d].run == 5 {
            return Judgement::Five;
        }
        overline |= shapes[d].run > 5;
    }
    if overline {
        return Judgement::Forbidden(ForbiddenKind::Overline);
    }
    if shapes.iter().map(|s| s.fours).sum::<u32>() >= 2 {
        return Judgement::Forbidden(ForbiddenKind::DoubleFour);
    }
    let mut candidates = shapes.iter().filter(|s| s.three_points != 0).count();
    if candidates < 2 {
        return Judgement::Allowed;
    }
    // Two or more lines look like threes: each is real only if one of its straight-four
    // points counts, with this stone on the board.
    lines.put(BLACK, x, y);
    let mut real = 0;
    for d in 0..4 {
        let mut points = shapes[d].three_points;
        if points == 0 {
            continue;
        }
        let (dx, dy) = DIRS[d];
        while points != 0 {
            let bit = points.trailing_zeros() as i32;
            points &= points - 1;
            let k = bit - 5;
            // The point is on the board: its window bit is empty.
            let qx = (x as i32 + k * dx as i32) as u8;
            let qy = (y as i32 + k * dy as i32) as u8;
            if straight_four_point_counts(lines, qx, qy, reading) {
                real += 1;
                break;
            }
        }
        candidates -= 1;
        if real >= 2 || real + candidates < 2 {
            break;
        }
    }
    lines.take(BLACK, x, y);
    if real >= 2 {
        Judgement::Forbidden(ForbiddenKind::DoubleThree)
    } else {
        Judgement::Allowed
    }
}

/// Every empty point of `lines` that is forbidden for black, in row-major order (y, then x).
pub(crate) fn forbidden_points(
    lines: &Lines,
    reading: Reading,
) -> alloc::vec::Vec<((u8, u8), ForbiddenKind)> {
    let mut out = alloc::vec::Vec::new();
    let mut scratch = lines.clone();
    for y in 0..lines.size() {
        let mut empty = lines.empty_row(y);
        while empty != 0 {
            let x = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            if let Some(kind) = forbidden_at(&mut scratch, x, y, reading) {
                out.push(((x, y), kind));
            }
        }
    }
    out
}
