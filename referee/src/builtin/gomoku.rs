//! Gomoku move choice: a threat-aware evaluation (fives, open fours, fours, open threes, for
//! both sides) and a shallow negamax over the best few candidate points near the stones.
//!
//! Renju is the engine's business: a candidate is only kept when the engine accepts it (black's
//! forbidden points are refused by `Gomoku::forbidden_kind` / `Game::play`).

use arbiter_engine::gomoku::{Gomoku, Point, Rule};
use arbiter_engine::{Game, Seat};

use super::Rng;

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
            Rule::Renju => [false, true],
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

/// Whether `seat` may play `p` in `game` by the engine's renju rule (any point otherwise).
fn allowed(game: &Gomoku, seat: Seat, p: Point) -> bool {
    !(game.rule() == Rule::Renju && seat == Seat::First && game.forbidden_kind(p).is_some())
}

/// The point for the side to move: random at depth 0, the best candidate by the evaluation at
/// depth 1, a `depth`-ply negamax over the best candidates otherwise. `None` when over.
pub fn choose(game: &Gomoku, depth: u32, rng: &mut Rng) -> Option<Point> {
    let me = game.to_move()?;
    if depth == 0 {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        return rng.pick(&moves);
    }
    let grid = Grid::of(game);
    let mut scored = grid.candidates(me);
    // Equal candidates in random order.
    for i in (1..scored.len()).rev() {
        let j = rng.below(i + 1);
        if scored[i].0 == scored[j].0 {
            scored.swap(i, j);
        }
    }
    let mut legal: Vec<(i64, Point, Gomoku)> = Vec::new();
    for (score, p) in scored {
        let mut child = game.clone();
        if child.play(p).is_ok() {
            if child.outcome().is_some_and(|o| o.winner == Some(me)) {
                return Some(p);
            }
            legal.push((score, p, child));
        }
    }
    if legal.is_empty() {
        // Nothing near the stones is allowed: any legal point will do.
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        return rng.pick(&moves);
    }
    if depth == 1 {
        return legal.first().map(|c| c.1);
    }
    let width = (WIDTH + 4).min(legal.len());
    let mut best = (i64::MIN, legal[0].1);
    let mut alpha = -WIN - 1;
    for (_, p, child) in legal.iter().take(width) {
        let value = -negamax(child, depth - 1, -WIN - 1, -alpha);
        if value > best.0 {
            best = (value, *p);
        }
        alpha = alpha.max(value);
    }
    Some(best.1)
}

/// The value of `game` for the side to move.
fn negamax(game: &Gomoku, depth: u32, mut alpha: i64, beta: i64) -> i64 {
    let Some(me) = game.to_move() else {
        // The previous mover won (or the board filled up): bad for the side "to move".
        return match game.outcome().and_then(|o| o.winner) {
            Some(_) => -WIN + i64::from(depth as u8),
            None => 0,
        };
    };
    let grid = Grid::of(game);
    if depth == 0 {
        return grid.board_value(me) * 6 / 5 - grid.board_value(me.other());
    }
    let mut best = -WIN - 1;
    let mut tried = 0;
    for (_, p) in grid.candidates(me) {
        if tried >= WIDTH {
            break;
        }
        if !allowed(game, me, p) {
            continue;
        }
        let mut child = game.clone();
        if child.play(p).is_err() {
            continue;
        }
        tried += 1;
        let value = -negamax(&child, depth - 1, -beta, -alpha);
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    if tried == 0 {
        return 0;
    }
    best
}
