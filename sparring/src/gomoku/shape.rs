//! What a stone makes along one line. The line through a point is read five cells each way
//! (own stone, empty, or blocked: the opponent's stone or the edge) and looked up in a table of
//! all 3^10 such lines, made once by the rules' own definitions, so broken shapes (`X.XX`,
//! `XX.XX`) count like unbroken ones:
//!
//! - a five is a run through the point of exactly five (or more, where an overline wins);
//! - a four has a point that completes a five through ours, an open four two of them (a
//!   straight four `.XXXX.`, or two fours in one line `X.XXX.X`: one block cannot stop both);
//! - a three has a point that makes an open four (open three) or only a four (closed three);
//! - a two has a point that makes an open or a closed three; a one has room for a five.
//!
//! Renju's finer point, that a three whose four points are all forbidden is no three, is left
//! to the engine (the bot's moves are checked there); here every three counts.

use std::sync::OnceLock;

/// The shape a stone makes along one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Shape {
    /// No five can ever run through the point along this line.
    #[default]
    Dead,
    One,
    ClosedTwo,
    OpenTwo,
    ClosedThree,
    OpenThree,
    Four,
    OpenFour,
    Five,
    /// Six or more in a row where that does not win (standard rule; black under renju, for
    /// whom it is forbidden).
    Overline,
}

/// Cells read on each side of the point.
pub const REACH: usize = 5;
/// Cells in a key: the point's neighbours on both sides (see [`digit`]).
const CELLS: usize = 2 * REACH;
/// Number of keys: 3^10.
pub const KEYS: usize = 59_049;

/// A cell's state as seen by one colour.
pub const EMPTY: u16 = 0;
pub const OWN: u16 = 1;
pub const BLOCKED: u16 = 2;

/// The power of 3 that the cell `offset` steps from the point (offset in -5..=5, not 0)
/// carries in a key.
pub fn digit(offset: i32) -> u16 {
    DIGITS[(offset + REACH as i32) as usize]
}

/// [`digit`] by `offset + 5` (the middle, the point itself, carries none).
const DIGITS: [u16; 2 * REACH + 1] = [1, 3, 9, 27, 81, 0, 243, 729, 2187, 6561, 19683];

/// The shape of every key, for a colour for which an overline wins (`long_wins`) or not.
pub fn table(long_wins: bool) -> &'static [Shape] {
    static TABLES: OnceLock<[Vec<Shape>; 2]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| [build(false), build(true)]);
    &tables[usize::from(long_wins)]
}

/// The 11 cells of a key's line, the point (own) in the middle.
fn line_of(key: usize) -> [u16; CELLS + 1] {
    let mut line = [OWN; CELLS + 1];
    let mut k = key;
    for i in 0..CELLS {
        let cell = (k % 3) as u16;
        k /= 3;
        let at = if i < REACH { i } else { i + 1 };
        line[at] = cell;
    }
    line
}

fn key_of(line: &[u16; CELLS + 1]) -> usize {
    let mut key = 0usize;
    for i in (0..CELLS).rev() {
        let at = if i < REACH { i } else { i + 1 };
        key = key * 3 + usize::from(line[at]);
    }
    key
}

/// The run of own stones through the middle: its length.
fn run_through_middle(line: &[u16; CELLS + 1]) -> usize {
    let mid = REACH;
    let mut lo = mid;
    while lo > 0 && line[lo - 1] == OWN {
        lo -= 1;
    }
    let mut hi = mid;
    while hi < CELLS && line[hi + 1] == OWN {
        hi += 1;
    }
    hi - lo + 1
}

/// The empty cells that would complete a five through the middle.
fn completions(line: &[u16; CELLS + 1], long_wins: bool) -> usize {
    let mut count = 0;
    for q in 1..CELLS {
        if line[q] != EMPTY {
            continue;
        }
        let mut with = *line;
        with[q] = OWN;
        let run = run_through_middle(&with);
        // The new stone must join the middle's run for the five to run through both.
        let joined = (q.min(REACH)..=q.max(REACH)).all(|i| with[i] == OWN);
        if joined && (run == 5 || (long_wins && run > 5)) {
            count += 1;
        }
    }
    count
}

fn build(long_wins: bool) -> Vec<Shape> {
    let mut shapes = vec![Shape::Dead; KEYS];
    // Lines with more own stones first: a shape is read from the shapes one stone further.
    let mut keys: Vec<usize> = (0..KEYS).collect();
    keys.sort_by_key(|&k| std::cmp::Reverse(line_of(k).iter().filter(|&&c| c == OWN).count()));
    for key in keys {
        shapes[key] = classify(&line_of(key), long_wins, &shapes);
    }
    shapes
}

fn classify(line: &[u16; CELLS + 1], long_wins: bool, known: &[Shape]) -> Shape {
    let run = run_through_middle(line);
    if run == 5 || (run > 5 && long_wins) {
        return Shape::Five;
    }
    if run > 5 {
        return Shape::Overline;
    }
    match completions(line, long_wins) {
        0 => {}
        1 => return Shape::Four,
        _ => return Shape::OpenFour,
    }
    // One more stone (within four cells, where it can share a five with the point).
    let mut best = Shape::Dead;
    for q in 1..CELLS {
        if line[q] != EMPTY {
            continue;
        }
        let mut with = *line;
        with[q] = OWN;
        let next = match known[key_of(&with)] {
            Shape::OpenFour => Shape::OpenThree,
            Shape::Four => Shape::ClosedThree,
            Shape::OpenThree => Shape::OpenTwo,
            Shape::ClosedThree => Shape::ClosedTwo,
            Shape::OpenTwo | Shape::ClosedTwo => Shape::One,
            _ => Shape::Dead,
        };
        best = best.max(next);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of a written line: `X` ours, `.` empty, `O` blocked, `*` the point itself.
    fn shape(text: &str, long_wins: bool) -> Shape {
        let star = text.find('*').expect("a point");
        let mut key = 0usize;
        for (i, ch) in text.chars().enumerate() {
            let offset = i as i32 - star as i32;
            if offset == 0 || offset.abs() > REACH as i32 {
                continue;
            }
            let cell = match ch {
                'X' => OWN,
                '.' => EMPTY,
                _ => BLOCKED,
            };
            key += usize::from(cell * digit(offset));
        }
        // Cells beyond the text are edges.
        for offset in -(REACH as i32)..=REACH as i32 {
            let i = star as i32 + offset;
            if offset != 0 && (i < 0 || i >= text.len() as i32) {
                key += usize::from(BLOCKED * digit(offset));
            }
        }
        table(long_wins)[key]
    }

    #[test]
    fn fives_and_overlines() {
        assert_eq!(shape("OXX*XXO", false), Shape::Five);
        assert_eq!(shape(".XXX*XX.", false), Shape::Overline);
        assert_eq!(shape(".XXX*XX.", true), Shape::Five);
    }

    #[test]
    fn fours_open_and_closed() {
        assert_eq!(shape("..XX*X...", false), Shape::OpenFour);
        assert_eq!(shape("OXX*X....", false), Shape::Four);
        assert_eq!(shape("..X*X.X..", false), Shape::Four);
        // Two fours in one line: X.XXX.X with the point in the middle.
        assert_eq!(shape("OX.X*X.XO", false), Shape::OpenFour);
        // A four whose five would be six for a colour that needs exactly five is not one.
        assert_eq!(shape("XX.XX*....", true), Shape::Four);
        assert_eq!(shape("XX.XX*....", false), Shape::ClosedThree);
    }

    #[test]
    fn threes_broken_and_unbroken() {
        assert_eq!(shape("...X*X...", false), Shape::OpenThree);
        // The broken three that the first bots missed: F11 G10 _ I8.
        assert_eq!(shape("..X*.X...", false), Shape::OpenThree);
        assert_eq!(shape("..*X.X...", false), Shape::OpenThree);
        assert_eq!(shape("OX*X.....", false), Shape::ClosedThree);
        assert_eq!(shape("O.X*X.O", false), Shape::ClosedThree);
    }

    #[test]
    fn twos_ones_and_dead_lines() {
        assert_eq!(shape("....X*....", false), Shape::OpenTwo);
        assert_eq!(shape("OX*.......", false), Shape::ClosedTwo);
        assert_eq!(shape("....*.....", false), Shape::One);
        assert_eq!(shape("O..*.O", false), Shape::Dead);
    }
}
