//! The view: what the player draws for a position, in a small declarative vocabulary.
//!
//! A board is a grid of `cols x rows`. On a `cells` board (Reversi, Connect Four, Amazons)
//! pieces sit in cells; on a `points` board (Gomoku, Connect6) pieces sit on the
//! intersections of `cols x rows` points; on a `hex` board (Hex) pieces sit in hexagons, each
//! row shifted half a cell right of the one above (a rhombus). Coordinates are `[col, row]`,
//! 0-based, row 0 at the top. Pieces and highlights sit where the grid's pieces sit (a cell,
//! a point, a hexagon). Lines join two corners of cells (cells board: `0..=cols` x `0..=rows`)
//! or two points or hexagons' centres: Dots and Boxes is a cells board of boxes whose edges
//! are lines between corners.

use alloc::string::String;
use alloc::vec::Vec;

/// Whether pieces sit in square cells, on intersections or in hexagons.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grid {
    Cells,
    Points,
    /// Hexagons in a rhombus: row `r` starts `r / 2` cells right of row 0, so `[c, r]`
    /// touches `[c±1, r]`, `[c, r±1]`, `[c+1, r-1]` and `[c-1, r+1]` (Hex's board).
    Hex,
}

impl Grid {
    /// How many more line ends than cells each way: a cells board's lines join corners.
    pub fn corners(self) -> u16 {
        u16::from(self == Grid::Cells)
    }
}

/// A piece's outline.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    Disc,
    Square,
    /// A chess queen's crown (Amazons).
    Queen,
    Cross,
    /// A small dot (a blocked square, a point).
    Dot,
}

/// What a highlight means; the player picks the colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// The last move's cells.
    Last,
    /// A cell a legal move can reach.
    Target,
    /// A point the side to move may not play (renju).
    Forbidden,
    /// A cell a seat owns (a completed box): filled in the seat's colour.
    Owned,
    /// A winning line's cells.
    Win,
}

#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Board {
    pub grid: Grid,
    pub cols: u16,
    pub rows: u16,
    /// One label per column (left to right), or none.
    #[serde(default)]
    pub col_labels: Vec<String>,
    /// One label per row (top to bottom), or none.
    #[serde(default)]
    pub row_labels: Vec<String>,
    /// Places of the grid that are not part of the board (the rhombus around Chinese
    /// Checkers' star): not drawn, never clicked, printed blank.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub off: Vec<[u16; 2]>,
}

impl Board {
    /// Whether `at` is a place of the board (inside the grid and not [`Board::off`]).
    pub fn has(&self, at: [u16; 2]) -> bool {
        at[0] < self.cols && at[1] < self.rows && !self.off.contains(&at)
    }
}

#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Piece {
    pub at: [u16; 2],
    pub shape: Shape,
    /// Drawn in this seat's colour; `None` is neutral (an Amazons arrow).
    #[serde(default)]
    pub seat: Option<u8>,
    /// A short text on the piece (a tile's value, a move number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Highlight {
    pub at: [u16; 2],
    pub mark: Mark,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
}

#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Line {
    pub from: [u16; 2],
    pub to: [u16; 2],
    #[serde(default)]
    pub seat: Option<u8>,
}

/// How a person clicks one move (the `clicks` request of the ABI).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Clicks {
    /// The cells (on a points board: the points) clicked one after the other.
    Cells(Vec<[u16; 2]>),
    /// One click on the line between two corners (cells board) or points, as [`Line`] joins
    /// them.
    Line([u16; 2], [u16; 2]),
}

/// Everything the player draws for one position.
#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct View {
    pub board: Board,
    #[serde(default)]
    pub pieces: Vec<Piece>,
    #[serde(default)]
    pub highlights: Vec<Highlight>,
    #[serde(default)]
    pub lines: Vec<Line>,
    /// Lines of text beside the board (scores, the die, whose turn).
    #[serde(default)]
    pub text: Vec<String>,
    /// The seats' colours, seat 0 first (Go's and Reversi's `black`, `white`): CSS colour
    /// names or `#rgb` / `#rrggbb` ([`is_color`]), at most one per seat; none: the player's
    /// own palette.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colors: Vec<String>,
}

/// A colour the player can take from a module: a CSS colour name (3 to 20 letters) or
/// `#rgb` / `#rrggbb`. Nothing else: the player writes it into the page's styles.
pub fn is_color(c: &str) -> bool {
    match c.strip_prefix('#') {
        Some(hex) => matches!(hex.len(), 3 | 6) && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        None => (3..=20).contains(&c.len()) && c.bytes().all(|b| b.is_ascii_alphabetic()),
    }
}

impl View {
    /// An empty board.
    pub fn board(grid: Grid, cols: u16, rows: u16) -> View {
        View {
            board: Board {
                grid,
                cols,
                rows,
                col_labels: Vec::new(),
                row_labels: Vec::new(),
                off: Vec::new(),
            },
            pieces: Vec::new(),
            highlights: Vec::new(),
            lines: Vec::new(),
            text: Vec::new(),
            colors: Vec::new(),
        }
    }

    /// Letters for columns (a, b, ...) and numbers for rows, bottom row 1 (chess style).
    pub fn chess_labels(mut self) -> View {
        let (c, r) = (self.board.cols, self.board.rows);
        self.board.col_labels = (0..c).map(column_letter).collect();
        self.board.row_labels = (0..r).map(|i| alloc::format!("{}", r - i)).collect();
        self
    }

    pub fn piece(&mut self, col: u16, row: u16, shape: Shape, seat: Option<u8>) {
        self.pieces.push(Piece {
            at: [col, row],
            shape,
            seat,
            label: None,
        });
    }

    pub fn mark(&mut self, col: u16, row: u16, mark: Mark, seat: Option<u8>) {
        self.highlights.push(Highlight {
            at: [col, row],
            mark,
            seat,
        });
    }

    /// Why the view cannot be drawn for a game of `seats` seats, if it cannot.
    pub fn check(&self, seats: usize) -> Result<(), String> {
        let b = &self.board;
        if b.cols == 0 || b.rows == 0 || b.cols > 64 || b.rows > 64 {
            return Err(alloc::format!(
                "board of {} x {}: 1..64 each",
                b.cols,
                b.rows
            ));
        }
        if !b.col_labels.is_empty() && b.col_labels.len() != usize::from(b.cols) {
            return Err("col_labels must have one label per column".into());
        }
        if !b.row_labels.is_empty() && b.row_labels.len() != usize::from(b.rows) {
            return Err("row_labels must have one label per row".into());
        }
        if self.colors.len() > seats {
            return Err(alloc::format!(
                "{} colors for {seats} seats",
                self.colors.len()
            ));
        }
        if let Some(c) = self.colors.iter().find(|c| !is_color(c)) {
            let c: String = c.chars().take(24).collect();
            return Err(alloc::format!(
                "color {c:?} is not a CSS colour name, #rgb or #rrggbb"
            ));
        }
        let seat_ok = |s: Option<u8>| s.is_none_or(|s| usize::from(s) < seats);
        let in_grid = |[c, r]: [u16; 2], extra: u16| c < b.cols + extra && r < b.rows + extra;
        let corner = b.grid.corners();
        if let Some(o) = b.off.iter().find(|&&o| !in_grid(o, 0)) {
            return Err(alloc::format!("off place {o:?} is outside the grid"));
        }
        for p in &self.pieces {
            if !b.has(p.at) || !seat_ok(p.seat) {
                return Err(alloc::format!(
                    "piece {p:?} is off the board or has no seat"
                ));
            }
        }
        for h in &self.highlights {
            if !b.has(h.at) || !seat_ok(h.seat) {
                return Err(alloc::format!("highlight {h:?} is off the board"));
            }
        }
        for l in &self.lines {
            if !in_grid(l.from, corner) || !in_grid(l.to, corner) || !seat_ok(l.seat) {
                return Err(alloc::format!("line {l:?} is off the board"));
            }
        }
        Ok(())
    }
}

/// `a`..`z`, then `aa`, `ab`... for wide boards.
pub fn column_letter(i: u16) -> String {
    let mut s = String::new();
    if i >= 26 {
        s.push(char::from(b'a' + (i / 26 - 1) as u8));
    }
    s.push(char::from(b'a' + (i % 26) as u8));
    s
}

impl View {
    /// The view as text, one line per row, for terminals and logs: `X` and `O` for the seats'
    /// pieces (a label instead when it is one character), `#` for a neutral piece, `.` for an
    /// empty cell, `*` for a legal target; row and column labels when the view has them (a
    /// hex board's rows indented one more character each); then the view's text lines.
    /// Lines between points are left out.
    pub fn text_lines(&self) -> Vec<String> {
        let b = &self.board;
        let (cols, rows) = (usize::from(b.cols), usize::from(b.rows));
        let mut cells = alloc::vec![alloc::vec!['.'; cols]; rows];
        let mut put = |at: [u16; 2], ch: char| {
            if let Some(cell) = cells
                .get_mut(usize::from(at[1]))
                .and_then(|r| r.get_mut(usize::from(at[0])))
            {
                *cell = ch;
            }
        };
        for &o in &b.off {
            put(o, ' ');
        }
        for h in &self.highlights {
            if h.mark == Mark::Target {
                put(h.at, '*');
            }
        }
        for p in &self.pieces {
            let label = p.label.as_deref().filter(|l| l.chars().count() == 1);
            let ch = match (label, p.seat) {
                (Some(l), _) => l.chars().next().unwrap_or('?'),
                (None, Some(0)) => 'X',
                (None, Some(_)) => 'O',
                (None, None) => '#',
            };
            put(p.at, ch);
        }
        let width = b
            .row_labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        let mut out = Vec::new();
        if !b.col_labels.is_empty() {
            let mut head = alloc::format!("{:width$}", "");
            for l in &b.col_labels {
                head.push(' ');
                head.push_str(l);
            }
            out.push(head);
        }
        for (r, row) in cells.iter().enumerate() {
            let label = b.row_labels.get(r).map_or("", String::as_str);
            let mut line = alloc::format!("{label:>width$}");
            // A hex board's rows step right half a cell (one character) each.
            if b.grid == Grid::Hex {
                line.extend(core::iter::repeat_n(' ', r));
            }
            for ch in row {
                line.push(' ');
                line.push(*ch);
            }
            out.push(line);
        }
        out.extend(self.text.iter().cloned());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hex_board_is_checked_like_points_and_printed_with_its_rows_stepping_right() {
        let mut v = View::board(Grid::Hex, 3, 3).chess_labels();
        v.piece(0, 0, Shape::Disc, Some(0));
        v.piece(2, 2, Shape::Disc, Some(1));
        assert_eq!(
            v.text_lines(),
            ["  a b c", "3 X . .", "2  . . .", "1   . . O"]
        );
        v.lines.push(Line {
            from: [0, 0],
            to: [2, 2],
            seat: Some(0),
        });
        assert_eq!(v.check(2), Ok(()));
        // Lines join centres, as on points: no corner past the last hexagon.
        v.lines[0].to = [3, 2];
        assert!(v.check(2).unwrap_err().contains("off the board"));
        let json = serde_json::to_string(&v.board).unwrap();
        assert!(json.contains(r#""grid":"hex""#), "{json}");
    }

    #[test]
    fn seat_colours_are_names_or_hex_and_one_per_seat_at_most() {
        let mut v = View::board(Grid::Points, 3, 3);
        v.colors = alloc::vec!["black".into(), "#fff".into()];
        assert_eq!(v.check(2), Ok(()));
        let json = serde_json::to_string(&v).unwrap();
        assert!(json.contains(r##""colors":["black","#fff"]"##), "{json}");
        assert!(v.check(1).unwrap_err().contains("2 colors for 1 seats"));
        for bad in [
            "red;background:url(x)",
            "#12345",
            "#ggg",
            "",
            "var(--p0)",
            "rgb(1,2,3)",
        ] {
            v.colors = alloc::vec![bad.into()];
            assert!(v.check(2).is_err(), "{bad:?} taken");
        }
        v.colors = alloc::vec!["#A0b1C2".into()];
        assert_eq!(v.check(2), Ok(()));
        // A view without colours writes none (older views stay byte for byte).
        let plain = serde_json::to_string(&View::board(Grid::Cells, 2, 2)).unwrap();
        assert!(!plain.contains("colors"), "{plain}");
    }

    #[test]
    fn off_places_are_not_part_of_the_board() {
        let mut v = View::board(Grid::Hex, 3, 2);
        v.board.off = alloc::vec![[0, 0]];
        v.piece(1, 0, Shape::Disc, Some(0));
        assert_eq!(v.text_lines(), ["   X .", "  . . ."]);
        assert!(v.check(2).is_ok());
        v.piece(0, 0, Shape::Disc, Some(1));
        assert!(v.check(2).is_err(), "a piece on an off place");
        v.pieces.pop();
        v.board.off.push([5, 0]);
        assert!(v.check(2).unwrap_err().contains("outside the grid"));
        // A board without off places writes none (version 1 views stay byte for byte).
        let plain = serde_json::to_string(&View::board(Grid::Cells, 2, 2).board).unwrap();
        assert!(!plain.contains("off"), "{plain}");
    }
}
