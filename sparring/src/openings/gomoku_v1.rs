//! The first sparring bots' Gomoku search, frozen: the shipped suites (`openings/gomoku-*.txt`)
//! were balanced with it, and the generator must keep writing them byte for byte. It counts
//! only unbroken runs; the playing bots have moved on (`crate::gomoku`).

use arbiter_engine::gomoku::{Gomoku, Point, Rule};
use arbiter_engine::{Game, Seat};

use crate::gomoku::allowed;

const FIVE: i64 = 10_000_000;
const OPEN_FOUR: i64 = 500_000;
const FOUR: i64 = 20_000;
const OPEN_THREE: i64 = 15_000;
const THREE: i64 = 800;
const OPEN_TWO: i64 = 400;
const TWO: i64 = 40;
const ONE: i64 = 10;
/// Candidates searched per node below the root.
const WIDTH: usize = 8;
/// A won game, above any evaluation.
const WIN: i64 = 1 << 50;

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The board as a grid, for fast pattern reading.
struct Grid {
    n: i32,
    cells: Vec<Option<Seat>>,
    /// Whether a run longer than five wins for each seat (freestyle; white under renju).
    long_wins: [bool; 2],
}

impl Grid {
    fn of(game: &Gomoku) -> Grid {
        let n = i32::from(game.size());
        let mut cells = Vec::with_capacity((n * n) as usize);
        for y in 0..n {
            for x in 0..n {
                cells.push(game.stone(Point::new(x as u8, y as u8)));
            }
        }
        let long_wins = match game.rule() {
            Rule::Freestyle => [true, true],
            Rule::Standard => [false, false],
            Rule::Renju | Rule::RenjuGomocup => [false, true],
        };
        Grid {
            n,
            cells,
            long_wins,
        }
    }

    fn at(&self, x: i32, y: i32) -> Option<Option<Seat>> {
        if x < 0 || y < 0 || x >= self.n || y >= self.n {
            return None;
        }
        self.cells.get((y * self.n + x) as usize).copied()
    }

    /// The value of a run of `len` stones of `seat` with `open` empty ends.
    fn run_value(&self, seat: Seat, len: i32, open: i32) -> i64 {
        match (len, open) {
            (5, _) => FIVE,
            (l, _) if l > 5 => {
                if self.long_wins[seat.index()] {
                    FIVE
                } else {
                    0
                }
            }
            (_, 0) => 0,
            (4, 2) => OPEN_FOUR,
            (4, _) => FOUR,
            (3, 2) => OPEN_THREE,
            (3, _) => THREE,
            (2, 2) => OPEN_TWO,
            (2, _) => TWO,
            _ => ONE * i64::from(open),
        }
    }

    /// What a stone of `seat` on the empty point (x, y) would make, summed over the 4 lines.
    fn point_value(&self, seat: Seat, x: i32, y: i32) -> i64 {
        let mut total = 0;
        for (dx, dy) in DIRS {
            let mut len = 1;
            let mut open = 0;
            for sign in [1, -1] {
                let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
                while self.at(cx, cy) == Some(Some(seat)) {
                    len += 1;
                    cx += sign * dx;
                    cy += sign * dy;
                }
                if self.at(cx, cy) == Some(None) {
                    open += 1;
                }
            }
            total += self.run_value(seat, len, open);
        }
        total
    }

    /// Every run of `seat`'s stones on the board, valued.
    fn board_value(&self, seat: Seat) -> i64 {
        let mut total = 0;
        for y in 0..self.n {
            for x in 0..self.n {
                if self.at(x, y) != Some(Some(seat)) {
                    continue;
                }
                for (dx, dy) in DIRS {
                    // Count each run once, from its first stone.
                    if self.at(x - dx, y - dy) == Some(Some(seat)) {
                        continue;
                    }
                    let mut len = 0;
                    let (mut cx, mut cy) = (x, y);
                    while self.at(cx, cy) == Some(Some(seat)) {
                        len += 1;
                        cx += dx;
                        cy += dy;
                    }
                    let open = i32::from(self.at(x - dx, y - dy) == Some(None))
                        + i32::from(self.at(cx, cy) == Some(None));
                    total += self.run_value(seat, len, open);
                }
            }
        }
        total
    }

    /// Empty points within two of a stone (the centre on an empty board), best first for
    /// `seat`: its own gain plus most of what the opponent would gain there.
    fn candidates(&self, seat: Seat) -> Vec<(i64, Point)> {
        let mut out = Vec::new();
        let mut any_stone = false;
        for y in 0..self.n {
            for x in 0..self.n {
                match self.at(x, y) {
                    Some(None) => {}
                    _ => {
                        any_stone = true;
                        continue;
                    }
                }
                let near = (-2..=2)
                    .any(|dy| (-2..=2).any(|dx| matches!(self.at(x + dx, y + dy), Some(Some(_)))));
                if !near {
                    continue;
                }
                let attack = self.point_value(seat, x, y);
                let defend = self.point_value(seat.other(), x, y);
                let centre = self.n - (x - self.n / 2).abs() - (y - self.n / 2).abs();
                out.push((
                    attack + defend * 9 / 10 + i64::from(centre),
                    Point::new(x as u8, y as u8),
                ));
            }
        }
        if !any_stone {
            let c = (self.n / 2) as u8;
            out.push((0, Point::new(c, c)));
        }
        out.sort_by_key(|c| std::cmp::Reverse(c.0));
        out
    }
}

/// What the side to move should consider: either a verdict (a forced win or loss found by the
/// threat rules) or the points worth searching, best first.
enum Plan {
    Verdict(i64),
    Search(Vec<Point>),
}

/// The threat rules, for the side to move `me`:
/// 1. a five of ours wins; 2. two fives of the opponent cannot both be blocked, one must be;
/// 3. an open four of ours (with no five of the opponent pending) wins two plies later.
fn plan(game: &Gomoku, grid: &Grid, me: Seat, width: usize) -> Plan {
    let scored = grid.candidates(me);
    let mut threats = Vec::new();
    let mut open_four = false;
    let mut moves = Vec::new();
    for &(_, p) in &scored {
        let (x, y) = (i32::from(p.x), i32::from(p.y));
        let attack = grid.point_value(me, x, y);
        let is_allowed = || allowed(game, me, p);
        if attack >= FIVE && is_allowed() {
            return Plan::Verdict(WIN);
        }
        if grid.point_value(me.other(), x, y) >= FIVE {
            threats.push(p);
        }
        if (OPEN_FOUR..FIVE).contains(&attack) && is_allowed() {
            open_four = true;
        }
        if moves.len() < width && is_allowed() {
            moves.push(p);
        }
    }
    match threats.len() {
        0 if open_four => Plan::Verdict(WIN / 2),
        0 => Plan::Search(moves),
        1 if threats.first().is_some_and(|&p| allowed(game, me, p)) => Plan::Search(threats),
        _ => Plan::Verdict(-WIN / 2),
    }
}

/// The value of `game` for the side to move.
fn negamax(game: &Gomoku, depth: u32, mut alpha: i64, beta: i64) -> i64 {
    let Some(me) = game.to_move() else {
        // The previous mover won (or the board filled up): bad for the side "to move".
        return match game.outcome().and_then(|o| o.winner) {
            Some(_) => -WIN - i64::from(depth),
            None => 0,
        };
    };
    let grid = Grid::of(game);
    let moves = match plan(game, &grid, me, WIDTH) {
        // Sooner wins and later losses are better.
        Plan::Verdict(v) => return v + i64::from(depth) * v.signum(),
        Plan::Search(moves) => moves,
    };
    if depth == 0 || moves.is_empty() {
        return grid.board_value(me) * 6 / 5 - grid.board_value(me.other());
    }
    let mut best = -WIN * 2;
    for p in moves {
        let mut child = game.clone();
        if child.play(p).is_err() {
            continue;
        }
        let value = -negamax(&child, depth - 1, -beta, -alpha);
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The value of `game` for the side to move by a `depth`-ply search over the candidates: the
/// opening generator keeps positions whose value is near 0.
pub fn value(game: &Gomoku, depth: u32) -> i64 {
    negamax(game, depth, -WIN - 1, WIN + 1)
}
