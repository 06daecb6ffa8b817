//! Cross-check of the fast renju detector against a slow reference written here straight from
//! the RIF definitions: place the stone, walk whole lines cell by cell, try every completion,
//! recurse for threes. Nothing of the engine's window/mask logic is reused. The same reference
//! with one switch (`five_point_counts`) gives the Gomocup judge's reading (`renju-gomocup`).

use arbiter_engine::gomoku::{Config, Gomoku, Point, Rule};
use arbiter_engine::{ForbiddenKind, Game, Seat};
use proptest::prelude::*;

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Clone)]
struct RefBoard {
    n: i32,
    cells: Vec<u8>,
    /// Off only to measure how often the recursion changes a verdict: then every three that
    /// can become a straight four counts, allowed point or not.
    recurse: bool,
    /// RIF: a straight-four point that also makes a five keeps its three real. Off for the
    /// Gomocup reading, where such a point does not count.
    five_point_counts: bool,
}

impl RefBoard {
    fn new(n: i32) -> RefBoard {
        RefBoard {
            n,
            cells: vec![EMPTY; (n * n) as usize],
            recurse: true,
            five_point_counts: true,
        }
    }
    fn on(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.n && y < self.n
    }
    fn get(&self, x: i32, y: i32) -> Option<u8> {
        if self.on(x, y) {
            Some(self.cells[(y * self.n + x) as usize])
        } else {
            None
        }
    }
    fn set(&mut self, x: i32, y: i32, v: u8) {
        let n = self.n;
        self.cells[(y * n + x) as usize] = v;
    }
    fn is_black(&self, x: i32, y: i32) -> bool {
        self.get(x, y) == Some(BLACK)
    }
    /// The cells of the black run through (x, y) along (dx, dy), in order.
    fn black_run(&self, x: i32, y: i32, dx: i32, dy: i32) -> Vec<(i32, i32)> {
        let mut start = 0;
        while self.is_black(x + (start - 1) * dx, y + (start - 1) * dy) {
            start -= 1;
        }
        let mut run = Vec::new();
        let mut k = start;
        while self.is_black(x + k * dx, y + k * dy) {
            run.push((x + k * dx, y + k * dy));
            k += 1;
        }
        run
    }
    /// Every on-board point of the line through (x, y) along (dx, dy).
    fn line(&self, x: i32, y: i32, dx: i32, dy: i32) -> Vec<(i32, i32)> {
        (-self.n..=self.n)
            .map(|k| (x + k * dx, y + k * dy))
            .filter(|&(a, b)| self.on(a, b))
            .collect()
    }

    /// Whether placing black on the empty (qx, qy) makes an exact five through it in (dx, dy).
    fn makes_exact_five(&mut self, qx: i32, qy: i32, dx: i32, dy: i32) -> bool {
        self.set(qx, qy, BLACK);
        let five = self.black_run(qx, qy, dx, dy).len() == 5;
        self.set(qx, qy, EMPTY);
        five
    }

    /// Whether black on the empty (qx, qy) makes an exact five in any direction.
    fn makes_any_five(&mut self, qx: i32, qy: i32) -> bool {
        DIRS.iter()
            .any(|&(dx, dy)| self.makes_exact_five(qx, qy, dx, dy))
    }

    /// Whether the straight-four point (qx, qy) keeps its three real.
    fn point_counts(&mut self, qx: i32, qy: i32) -> bool {
        if !self.recurse {
            return true;
        }
        if !self.five_point_counts && self.makes_any_five(qx, qy) {
            return false;
        }
        self.forbidden(qx, qy).is_none()
    }

    /// RIF: why black may not play the empty (x, y), straight from the definitions.
    fn forbidden(&mut self, x: i32, y: i32) -> Option<ForbiddenKind> {
        assert_eq!(self.get(x, y), Some(EMPTY));
        self.set(x, y, BLACK);
        let result = self.judge_placed(x, y);
        self.set(x, y, EMPTY);
        result
    }

    fn judge_placed(&mut self, x: i32, y: i32) -> Option<ForbiddenKind> {
        let runs: Vec<usize> = DIRS
            .iter()
            .map(|&(dx, dy)| self.black_run(x, y, dx, dy).len())
            .collect();
        if runs.contains(&5) {
            return None; // a five wins, whatever else the move makes
        }
        if runs.iter().any(|&r| r >= 6) {
            return Some(ForbiddenKind::Overline);
        }
        // Fours: distinct sets of four stones (with this one) that one more stone makes an
        // exact five of.
        let mut fours = 0;
        for &(dx, dy) in &DIRS {
            let mut sets: Vec<Vec<(i32, i32)>> = Vec::new();
            for (qx, qy) in self.line(x, y, dx, dy) {
                if self.get(qx, qy) != Some(EMPTY) {
                    continue;
                }
                self.set(qx, qy, BLACK);
                let run = self.black_run(qx, qy, dx, dy);
                self.set(qx, qy, EMPTY);
                if run.len() == 5 && run.contains(&(x, y)) {
                    let stones: Vec<(i32, i32)> =
                        run.into_iter().filter(|&c| c != (qx, qy)).collect();
                    if !sets.contains(&stones) {
                        sets.push(stones);
                    }
                }
            }
            fours += sets.len();
        }
        if fours >= 2 {
            return Some(ForbiddenKind::DoubleFour);
        }
        // Threes: lines where one more stone makes a straight four through this stone (no
        // five), counted only if some such point is itself allowed (recursively).
        let mut threes = 0;
        for &(dx, dy) in &DIRS {
            let mut real = false;
            for (qx, qy) in self.line(x, y, dx, dy) {
                if real {
                    break;
                }
                if self.get(qx, qy) != Some(EMPTY) {
                    continue;
                }
                self.set(qx, qy, BLACK);
                let run = self.black_run(qx, qy, dx, dy);
                let mut straight = false;
                if run.len() == 4 && run.contains(&(x, y)) {
                    let (fx, fy) = run[0];
                    let (lx, ly) = run[3];
                    let ends = [(fx - dx, fy - dy), (lx + dx, ly + dy)];
                    straight = ends.iter().all(|&(ex, ey)| {
                        self.get(ex, ey) == Some(EMPTY) && self.makes_exact_five(ex, ey, dx, dy)
                    });
                }
                self.set(qx, qy, EMPTY);
                if straight && self.point_counts(qx, qy) {
                    real = true;
                }
            }
            if real {
                threes += 1;
            }
        }
        if threes >= 2 {
            return Some(ForbiddenKind::DoubleThree);
        }
        None
    }
}

/// A tiny deterministic generator (splitmix64), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What one board held: forbidden points per kind, points where judging threes without the
/// recursion would give another verdict, and points the other renju reading judges otherwise.
#[derive(Default, Debug)]
struct Tally {
    kinds: [usize; 3],
    recursion_mattered: usize,
    readings_differ: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        for i in 0..3 {
            self.kinds[i] += other.kinds[i];
        }
        self.recursion_mattered += other.recursion_mattered;
        self.readings_differ += other.readings_differ;
    }
    fn total(&self) -> usize {
        self.kinds.iter().sum()
    }
}

/// Checks every empty point of `stones` on an `n` x `n` RIF renju board, both through
/// `forbidden_kind` and `forbidden_points`.
fn check(n: u8, stones: &[(Point, Seat)]) -> Tally {
    check_rule(n, stones, Rule::Renju)
}

/// [`check`] under `rule`, either renju reading.
fn check_rule(n: u8, stones: &[(Point, Seat)], rule: Rule) -> Tally {
    let config = Config { size: n, rule };
    let game = Gomoku::from_stones(&config, stones, Seat::FIRST).expect("valid setup");
    let mut reference = RefBoard::new(n as i32);
    reference.five_point_counts = rule == Rule::Renju;
    for &(p, s) in stones {
        reference.set(
            p.x as i32,
            p.y as i32,
            if s == Seat::FIRST { BLACK } else { WHITE },
        );
    }
    let mut expected = Vec::new();
    let mut tally = Tally::default();
    for y in 0..n {
        for x in 0..n {
            let p = Point { x, y };
            if game.stone(p).is_some() {
                assert_eq!(game.forbidden_kind(p), None);
                continue;
            }
            let want = reference.forbidden(x as i32, y as i32);
            assert_eq!(
                game.forbidden_kind(p),
                want,
                "point {p:?} on board {}",
                diagram(n, stones)
            );
            if let Some(k) = want {
                expected.push((p, k));
                tally.kinds[k as usize] += 1;
            }
            let mut naive = reference.clone();
            naive.recurse = false;
            if naive.forbidden(x as i32, y as i32) != want {
                tally.recursion_mattered += 1;
            }
            let mut other = reference.clone();
            other.five_point_counts = !reference.five_point_counts;
            if other.forbidden(x as i32, y as i32).is_some() != want.is_some() {
                tally.readings_differ += 1;
            }
        }
    }
    assert_eq!(game.forbidden_points(), expected);
    tally
}

fn diagram(n: u8, stones: &[(Point, Seat)]) -> String {
    let mut rows = vec![vec!['.'; n as usize]; n as usize];
    for &(p, s) in stones {
        rows[p.y as usize][p.x as usize] = if s == Seat::FIRST { 'X' } else { 'O' };
    }
    let mut out = String::from("\n");
    for r in rows {
        out.extend(r);
        out.push('\n');
    }
    out
}

/// `count` stones dropped at random within `spread` of the centre, black with probability
/// `black_pct` percent (more black makes more forbidden shapes).
fn random_stones(
    rng: &mut Rng,
    n: u8,
    count: usize,
    spread: u8,
    black_pct: u64,
) -> Vec<(Point, Seat)> {
    let mut taken = vec![false; n as usize * n as usize];
    let mut out = Vec::new();
    let lo = (n / 2).saturating_sub(spread);
    let width = (2 * spread + 1).min(n - lo) as u64;
    let mut tries = 0;
    while out.len() < count && tries < 100_000 {
        tries += 1;
        let x = lo + rng.below(width) as u8;
        let y = lo + rng.below(width) as u8;
        let i = y as usize * n as usize + x as usize;
        if taken[i] {
            continue;
        }
        taken[i] = true;
        let seat = if rng.below(100) < black_pct {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        out.push((Point { x, y }, seat));
    }
    out
}

/// A position from random renju play near the stones, avoiding moves that make a five, so
/// the board fills with the threes and fours real games have.
fn random_game_stones(rng: &mut Rng, n: u8, count: usize) -> Vec<(Point, Seat)> {
    let config = Config {
        size: n,
        rule: Rule::Renju,
    };
    let mut game = Gomoku::new(&config).expect("valid config");
    let mut moves = Vec::new();
    let mut out = Vec::new();
    while out.len() < count {
        let Some(seat) = game.to_move() else { break };
        moves.clear();
        game.legal_moves(&mut moves);
        let near: Vec<Point> = moves
            .iter()
            .copied()
            .filter(|p| {
                game.history().is_empty()
                    || game.history().iter().any(|q| {
                        (q.x as i32 - p.x as i32).abs() <= 2 && (q.y as i32 - p.y as i32).abs() <= 2
                    })
            })
            .collect();
        let pool = if near.is_empty() { &moves } else { &near };
        if pool.is_empty() {
            break;
        }
        let mut played = false;
        for _ in 0..20 {
            let p = pool[rng.below(pool.len() as u64) as usize];
            let mut next = game.clone();
            next.play(p).expect("legal move");
            if next.outcome().is_none() {
                game = next;
                out.push((p, seat));
                played = true;
                break;
            }
        }
        if !played {
            break;
        }
    }
    out
}

#[test]
fn random_scattered_boards_match_reference() {
    let mut rng = Rng(0x5EED_0001);
    let mut tally = Tally::default();
    for round in 0..120 {
        let n = [15u8, 15, 15, 9, 19][round % 5];
        let count = rng.below(90) as usize + 10;
        let spread = 3 + rng.below(5) as u8;
        let black_pct = 45 + rng.below(30);
        let stones = random_stones(&mut rng, n, count, spread, black_pct);
        tally.add(check(n, &stones));
    }
    // The boards are dense in black: a detector finding nothing would be no test. Every kind
    // must occur, and so must threes made fake by a forbidden straight-four point.
    println!("{tally:?}");
    assert!(tally.kinds.iter().all(|&k| k > 20), "{tally:?}");
    assert!(tally.recursion_mattered > 0, "{tally:?}");
}

#[test]
fn random_game_boards_match_reference() {
    let mut rng = Rng(0x5EED_0002);
    let mut tally = Tally::default();
    for round in 0..40 {
        let count = [40, 70, 100, 110][round % 4];
        let stones = random_game_stones(&mut rng, 15, count);
        tally.add(check(15, &stones));
    }
    println!("{tally:?}");
    assert!(tally.total() > 20, "{tally:?}");
}

#[test]
fn small_and_edge_boards_match_reference() {
    let mut rng = Rng(0x5EED_0003);
    for round in 0..200 {
        let n = 5 + (round % 8) as u8;
        let count = rng.below((n as u64 * n as u64) / 2) as usize;
        let stones = random_stones(&mut rng, n, count, n, 65);
        check(n, &stones);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn proptest_boards_match_reference(seed in any::<u64>(), count in 0usize..120, black_pct in 40u64..80) {
        let mut rng = Rng(seed);
        let stones = random_stones(&mut rng, 15, count, 5, black_pct);
        check(15, &stones);
    }
}

#[test]
fn gomocup_reading_matches_reference_on_random_boards() {
    let mut rng = Rng(0x5EED_0004);
    let mut tally = Tally::default();
    for round in 0..120 {
        let stones = if round % 2 == 0 {
            let count = rng.below(90) as usize + 10;
            let spread = 3 + rng.below(5) as u8;
            let black_pct = 45 + rng.below(30);
            random_stones(&mut rng, 15, count, spread, black_pct)
        } else {
            random_game_stones(&mut rng, 15, [40, 70, 100, 110][round % 4])
        };
        tally.add(check_rule(15, &stones, Rule::RenjuGomocup));
    }
    // Boards where the readings part must occur, or this would test RIF twice.
    println!("{tally:?}");
    assert!(tally.kinds.iter().all(|&k| k > 20), "{tally:?}");
    assert!(tally.readings_differ > 0, "{tally:?}");
}

#[test]
fn gomocup_reading_matches_reference_on_small_and_edge_boards() {
    let mut rng = Rng(0x5EED_0005);
    for round in 0..100 {
        let n = 5 + (round % 8) as u8;
        let count = rng.below((n as u64 * n as u64) / 2) as usize;
        let stones = random_stones(&mut rng, n, count, n, 65);
        check_rule(n, &stones, Rule::RenjuGomocup);
    }
}
