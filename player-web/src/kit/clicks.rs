//! A module game's move built click by click (the ABI's `clicks` answer): which places
//! begin or continue a legal move, and the move once one is complete. Also where a click on
//! the board lands: a cell or point, or the nearest clickable line.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

pub use super::view::Kind;

/// One click: on a cell (or point), or on a line between two corners (or points).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Spot {
    Cell([u16; 2]),
    Line([u16; 2], [u16; 2]),
}

/// A legal move and the clicks that make it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    pub mv: String,
    pub spots: Vec<Spot>,
}

/// What a click did.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Click {
    /// A legal move is complete: send it.
    Move(String),
    /// Part of a move: more clicks to come.
    More,
    /// It begins and continues no legal move: the clicks start again.
    Nothing,
}

/// The clicks so far in one position.
#[derive(Clone, Default, Debug)]
pub struct Clicker {
    entries: Vec<Entry>,
    pub chosen: Vec<Spot>,
}

/// Reads the `clicks` answer; `None` when it is not the list the ABI describes (a module may
/// not offer clicks: the player then lists the moves).
pub fn read(answer: &Value) -> Option<Vec<Entry>> {
    let mut out = Vec::new();
    for v in answer.as_array()? {
        out.push(entry(v)?);
    }
    Some(out)
}

fn entry(v: &Value) -> Option<Entry> {
    let mv = String::from(v.get("move")?.as_str()?);
    let mut spots = Vec::new();
    // A key given as null is as good as absent.
    let key = |k: &str| v.get(k).filter(|x| !x.is_null());
    match (key("cells"), key("line")) {
        (Some(cells), None) => {
            for c in cells.as_array()?.iter().take(16) {
                spots.push(Spot::Cell(place(c)?));
            }
        }
        (None, Some(line)) => match line.as_array()?.as_slice() {
            [a, b] => spots.push(Spot::Line(place(a)?, place(b)?)),
            _ => return None,
        },
        _ => return None,
    }
    (!spots.is_empty()).then_some(Entry { mv, spots })
}

fn place(v: &Value) -> Option<[u16; 2]> {
    match v.as_array()?.as_slice() {
        [c, r] => Some([number(c)?, number(r)?]),
        _ => None,
    }
}

fn number(v: &Value) -> Option<u16> {
    v.as_u64().and_then(|n| u16::try_from(n).ok())
}

impl Clicker {
    pub fn new(entries: Vec<Entry>) -> Clicker {
        Clicker {
            entries,
            chosen: Vec::new(),
        }
    }

    /// The places that continue some legal move after the clicks so far (each once).
    pub fn next(&self) -> Vec<Spot> {
        let n = self.chosen.len();
        let mut out: Vec<Spot> = Vec::new();
        for e in &self.entries {
            if let (true, Some(s)) = (e.spots.starts_with(&self.chosen), e.spots.get(n)) {
                if !out.contains(s) {
                    out.push(*s);
                }
            }
        }
        out
    }

    /// One more click. A click that continues no move starts the clicks again, from itself
    /// when it begins one.
    pub fn click(&mut self, spot: Spot) -> Click {
        self.chosen.push(spot);
        let continues = |e: &&Entry| e.spots.starts_with(&self.chosen);
        if let Some(done) = self
            .entries
            .iter()
            .filter(continues)
            .find(|e| e.spots.len() == self.chosen.len())
        {
            let mv = done.mv.clone();
            self.chosen.clear();
            return Click::Move(mv);
        }
        if self.entries.iter().any(|e| continues(&e)) {
            return Click::More;
        }
        self.chosen.clear();
        if self.next().contains(&spot) {
            return self.click(spot);
        }
        Click::Nothing
    }
}

/// A hexagon's centre-to-corner distance, in cells (a cell: the distance between two
/// neighbours' centres along a row): 1/√3.
pub const HEX_R: f64 = 0.577_350_269_189_625_8;
/// The distance between two rows of hexagons, in cells: √3/2.
pub const HEX_ROW: f64 = 0.866_025_403_784_438_6;

/// Where the board's places are on the canvas (CSS pixels): the board's top left, the size
/// of a cell, and whether pieces sit in cells, on points or in hexagons.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Grid {
    pub ox: f64,
    pub oy: f64,
    pub cell: f64,
    pub cols: u16,
    pub rows: u16,
    pub kind: Kind,
}

impl Grid {
    /// The centre of a cell, point or hexagon.
    pub fn centre(&self, [c, r]: [u16; 2]) -> (f64, f64) {
        let (c, r) = (f64::from(c), f64::from(r));
        match self.kind {
            Kind::Hex => (
                self.ox + (c + r / 2.0 + 0.5) * self.cell,
                self.oy + (HEX_R + r * HEX_ROW) * self.cell,
            ),
            _ => (
                self.ox + (c + 0.5) * self.cell,
                self.oy + (r + 0.5) * self.cell,
            ),
        }
    }

    /// The board's width and height, in cells.
    pub fn extent(kind: Kind, cols: u16, rows: u16) -> (f64, f64) {
        let (c, r) = (f64::from(cols), f64::from(rows));
        match kind {
            Kind::Hex => (c + (r - 1.0) / 2.0, 2.0 * HEX_R + (r - 1.0) * HEX_ROW),
            _ => (c, r),
        }
    }

    /// Where a line's end is: a cell's corner, or a point, or a hexagon's centre.
    pub fn corner(&self, [c, r]: [u16; 2]) -> (f64, f64) {
        if self.kind != Kind::Cells {
            return self.centre([c, r]);
        }
        let at = |i: u16| f64::from(i) * self.cell;
        (self.ox + at(c), self.oy + at(r))
    }

    /// The cell (or point, or hexagon) under `(x, y)`.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<[u16; 2]> {
        if self.cell <= 0.0 || !(x.is_finite() && y.is_finite()) {
            return None;
        }
        if self.kind == Kind::Hex {
            return self.hexagon_at(x, y);
        }
        if x < self.ox || y < self.oy {
            return None;
        }
        let (c, r) = ((x - self.ox) / self.cell, (y - self.oy) / self.cell);
        let (c, r) = (c as u32, r as u32);
        (c < u32::from(self.cols) && r < u32::from(self.rows)).then_some([c as u16, r as u16])
    }

    /// The hexagon whose centre is nearest `(x, y)`, if the point is within its corners'
    /// circle: the nearest centre lies in one of the two rows around the point, at the
    /// column nearest it in that row.
    fn hexagon_at(&self, x: f64, y: f64) -> Option<[u16; 2]> {
        use crate::units::floor;
        let row = floor(((y - self.oy) / self.cell - HEX_R) / HEX_ROW);
        let last = |n: u16| f64::from(n.max(1) - 1);
        let mut best: Option<(f64, [u16; 2])> = None;
        for r in [row, row + 1.0] {
            let r = r.clamp(0.0, last(self.rows));
            let c = floor((x - self.ox) / self.cell - r / 2.0);
            let at = [c.clamp(0.0, last(self.cols)) as u16, r as u16];
            let (cx, cy) = self.centre(at);
            let d = (cx - x) * (cx - x) + (cy - y) * (cy - y);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, at));
            }
        }
        let radius = HEX_R * self.cell;
        best.filter(|(d, _)| *d <= radius * radius)
            .map(|(_, at)| at)
    }
}

/// The spot a click at `(x, y)` means among `next`: the nearest of its lines within a third
/// of a cell, else the cell or point under the pointer.
pub fn pick(grid: &Grid, next: &[Spot], x: f64, y: f64) -> Option<Spot> {
    let mut best: Option<(f64, Spot)> = None;
    for s in next {
        if let Spot::Line(a, b) = *s {
            let d = distance2(grid.corner(a), grid.corner(b), (x, y));
            let near = grid.cell * grid.cell / 9.0;
            if d < near && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, *s));
            }
        }
    }
    match best {
        Some((_, s)) => Some(s),
        None => grid.cell_at(x, y).map(Spot::Cell),
    }
}

/// The square of the distance from `p` to the segment `a`-`b`.
fn distance2(a: (f64, f64), b: (f64, f64), p: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (ex, ey) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
    ex * ex + ey * ey
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn grid(kind: Kind) -> Grid {
        Grid {
            ox: 20.0,
            oy: 10.0,
            cell: 40.0,
            cols: 3,
            rows: 2,
            kind,
        }
    }

    #[test]
    fn places_on_cells_and_points_and_where_a_click_lands() {
        let (cells, points) = (grid(Kind::Cells), grid(Kind::Points));
        assert_eq!(cells.centre([1, 1]), (80.0, 70.0));
        assert_eq!(
            cells.corner([1, 1]),
            (60.0, 50.0),
            "a cells board's lines join corners"
        );
        assert_eq!(
            points.corner([1, 1]),
            (80.0, 70.0),
            "a points board's lines join points"
        );
        assert_eq!(cells.cell_at(61.0, 51.0), Some([1, 1]));
        assert_eq!(cells.cell_at(19.0, 51.0), None, "left of the board");
        assert_eq!(cells.cell_at(141.0, 51.0), None, "right of the board");
        // Lines win within a third of a cell; elsewhere the cell under the pointer counts.
        let top = Spot::Line([0, 0], [1, 0]);
        let left = Spot::Line([0, 0], [0, 1]);
        assert_eq!(pick(&cells, &[top, left], 45.0, 14.0), Some(top));
        assert_eq!(pick(&cells, &[top, left], 24.0, 35.0), Some(left));
        assert_eq!(
            pick(&cells, &[top, left], 40.0, 35.0),
            Some(Spot::Cell([0, 0]))
        );
        assert_eq!(
            pick(&cells, &[Spot::Cell([2, 1])], 130.0, 80.0),
            Some(Spot::Cell([2, 1]))
        );
    }

    #[test]
    fn on_a_hex_board_a_click_lands_in_the_hexagon_around_it() {
        let hex = Grid {
            ox: 0.0,
            oy: 0.0,
            cell: 10.0,
            cols: 4,
            rows: 4,
            kind: Kind::Hex,
        };
        let (w, h) = Grid::extent(Kind::Hex, 4, 4);
        assert!((w - 5.5).abs() < 1e-9 && (h - (2.0 * HEX_R + 3.0 * HEX_ROW)).abs() < 1e-9);
        // Each row starts half a cell right of the one above.
        assert_eq!(hex.centre([0, 0]), (5.0, HEX_R * 10.0));
        let (x, y) = hex.centre([0, 2]);
        assert!((x - 15.0).abs() < 1e-9 && (y - (HEX_R + 2.0 * HEX_ROW) * 10.0).abs() < 1e-9);
        // Every centre, and every point a little off it in any direction, is its own hexagon.
        for r in 0..4 {
            for c in 0..4 {
                let (x, y) = hex.centre([c, r]);
                for (dx, dy) in [
                    (0.0, 0.0),
                    (4.0, 0.0),
                    (-4.0, 0.0),
                    (0.0, 4.5),
                    (0.0, -4.5),
                    (3.0, 3.0),
                ] {
                    assert_eq!(
                        hex.cell_at(x + dx, y + dy),
                        Some([c, r]),
                        "{dx},{dy} off [{c},{r}]"
                    );
                }
            }
        }
        // Above a hexagon's top corner: one of the two hexagons of the row above that touch
        // it, [c, r-1] to the left and [c+1, r-1] to the right.
        let (x, y) = hex.centre([1, 1]);
        assert_eq!(hex.cell_at(x, y - 5.0), Some([1, 1]));
        assert_eq!(hex.cell_at(x - 1.0, y - 6.5), Some([1, 0]));
        assert_eq!(hex.cell_at(x + 1.0, y - 6.5), Some([2, 0]));
        // Left of the first row's first hexagon, right of the last row's last: nothing.
        assert_eq!(hex.cell_at(-1.0, HEX_R * 10.0), None);
        let (x, y) = hex.centre([3, 3]);
        assert_eq!(hex.cell_at(x + 6.0, y), None);
        assert_eq!(hex.cell_at(f64::NAN, 5.0), None);
        // A hex board's lines join centres.
        assert_eq!(hex.corner([1, 1]), hex.centre([1, 1]));
    }

    #[test]
    fn a_move_is_complete_at_its_last_click_and_a_stray_click_starts_again() {
        let e = |mv: &str, spots: Vec<Spot>| Entry {
            mv: mv.into(),
            spots,
        };
        let (a, b, c) = (Spot::Cell([0, 0]), Spot::Cell([1, 0]), Spot::Cell([2, 0]));
        let mut k = Clicker::new(vec![
            e("ab", vec![a, b]),
            e("ac", vec![a, c]),
            e("b", vec![b]),
        ]);
        assert_eq!(k.next(), [a, b], "what begins a move, each once");
        assert_eq!(k.click(a), Click::More);
        assert_eq!(k.next(), [b, c]);
        assert_eq!(k.click(c), Click::Move("ac".into()));
        assert_eq!(k.click(c), Click::Nothing, "c begins no move");
        assert_eq!(k.click(a), Click::More);
        assert_eq!(k.click(a), Click::More, "a again: a starts the move again");
        assert_eq!(k.chosen, [a]);
        assert_eq!(k.click(b), Click::Move("ab".into()));
        assert_eq!(
            k.click(b),
            Click::Move("b".into()),
            "one click can be a whole move"
        );
    }
}
