//! The grid: cells, directions, where the snakes start.

use arbiter_game::Seat;

/// A cell: column from the left, row from the top (OpenSpiel's `(row, col)` turned round).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Cell {
    pub col: i32,
    pub row: i32,
}

impl Cell {
    pub fn step(self, dir: Dir) -> Cell {
        let (dc, dr) = dir.delta();
        Cell {
            col: self.col + dc,
            row: self.row + dr,
        }
    }

    pub fn inside(self, cols: usize, rows: usize) -> bool {
        (0..cols as i32).contains(&self.col) && (0..rows as i32).contains(&self.row)
    }
}

/// Where a head goes: OpenSpiel's actions 0 to 3 (north, east, south, west) in its order.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Dir {
    Up,
    Right,
    Down,
    Left,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// (columns, rows) a step moves: up is toward row 0.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Right => (1, 0),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Right => "right",
            Dir::Down => "down",
            Dir::Left => "left",
        }
    }

    /// The notation's words, and OpenSpiel's compass names, in any case.
    pub fn read(word: &str) -> Option<Dir> {
        let w = word.to_ascii_lowercase();
        Dir::ALL.into_iter().find(|d| {
            let compass = match d {
                Dir::Up => "north",
                Dir::Right => "east",
                Dir::Down => "south",
                Dir::Left => "west",
            };
            w == d.name() || w == compass
        })
    }
}

/// Where `seat`'s snake starts, one cell long: OpenSpiel's places for two (the middle row, one
/// cell in from the left and right edges) and four (one cell in from each corner: top left, top
/// right, bottom left, bottom right); three take the first three corners of four.
pub fn start(seat: Seat, seats: usize, cols: usize, rows: usize) -> Cell {
    let (c, r) = (cols as i32, rows as i32);
    let (col, row) = match (seats, seat) {
        (2, 0) => (1, r / 2),
        (2, _) => (c - 2, r / 2),
        (_, 0) => (1, 1),
        (_, 1) => (c - 2, 1),
        (_, 2) => (1, r - 2),
        _ => (c - 2, r - 2),
    };
    Cell { col, row }
}
