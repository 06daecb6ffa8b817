//! Gomoku move choice: a threat-aware evaluation (fives, open fours, fours, open threes, for
//! both sides) and a shallow negamax over the best few candidate points near the stones.
//!
//! Renju is the engine's business: a candidate is only kept when the engine accepts it (black's
//! forbidden points are refused by `Gomoku::forbidden_kind` / `Game::play`) and, as black, when
//! neither renju reading forbids it (`allowed`).

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

/// Whether `seat` may play `p` in `game`. Under renju black keeps off the points that either
/// reading forbids (RIF's and the Gomocup judge's): through the Gomocup protocol the bot only
/// hears "renju" (`INFO rule 4`), not which reading the referee applies.
fn allowed(game: &Gomoku, seat: Seat, p: Point) -> bool {
    seat != Seat::First
        || !game.rule().is_renju()
        || [Rule::Renju, Rule::RenjuGomocup]
            .into_iter()
            .all(|rule| game.forbidden_kind_under(p, rule).is_none())
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

/// The point for the side to move: random at depth 0, the best candidate by the evaluation at
/// depth 1, a `depth`-ply negamax over the best candidates otherwise. `None` when over.
pub fn choose(game: &Gomoku, depth: u32, rng: &mut Rng) -> Option<Point> {
    let me = game.to_move()?;
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    // Points safe under both renju readings, unless there are none (see `allowed`).
    let safe: Vec<Point> = legal
        .iter()
        .copied()
        .filter(|&p| allowed(game, me, p))
        .collect();
    if !safe.is_empty() {
        legal = safe;
    }
    if depth == 0 {
        return rng.pick(&legal);
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
    let mut children: Vec<(Point, Gomoku)> = Vec::new();
    for (_, p) in scored {
        let mut child = game.clone();
        if allowed(game, me, p) && child.play(p).is_ok() {
            if child.outcome().is_some_and(|o| o.winner == Some(me)) {
                return Some(p);
            }
            children.push((p, child));
        }
    }
    let Some(first) = children.first().map(|c| c.0) else {
        // Nothing near the stones is allowed: any legal point will do.
        return rng.pick(&legal);
    };
    if depth == 1 {
        return Some(first);
    }
    // The threat rules narrow the root too (a single pending five must be blocked).
    let keep: Vec<Point> = match plan(game, &grid, me, WIDTH + 4) {
        Plan::Search(points) => points,
        Plan::Verdict(_) => children.iter().take(WIDTH + 4).map(|c| c.0).collect(),
    };
    let mut best = (i64::MIN, first);
    let mut alpha = -WIN - 1;
    for (p, child) in children.iter().filter(|c| keep.contains(&c.0)) {
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
