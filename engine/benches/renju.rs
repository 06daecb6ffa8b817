//! Renju detector speed: `forbidden_points()` on crowded 15 x 15 boards (about 100 stones from
//! seeded random renju play near the stones that never makes a five, so threes and fours
//! abound), and random-playout games per second under each rule.
//!
//! Run: `cargo bench -p arbiter-engine --bench renju`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use arbiter_engine::gomoku::{Config, Gomoku, Point, Rule};
use arbiter_engine::Game;

/// splitmix64: seeded, so every run measures the same boards.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn near(history: &[Point], p: Point, reach: i32) -> bool {
    history.iter().any(|q| {
        (q.x as i32 - p.x as i32).abs() <= reach && (q.y as i32 - p.y as i32).abs() <= reach
    })
}

/// A renju position of `stones` stones: each side plays a random legal point within two of a
/// stone, never one that makes a five (so the game goes on and the board fills with threats).
fn crowded_board(seed: u64, stones: usize) -> Option<Gomoku> {
    let mut rng = Rng(seed);
    let config = Config {
        size: 15,
        rule: Rule::Renju,
    };
    let mut g = Gomoku::new(&config).ok()?;
    g.play(Point { x: 7, y: 7 }).ok()?;
    let mut moves = Vec::new();
    while g.ply() < stones {
        moves.clear();
        g.legal_moves(&mut moves);
        moves.retain(|&p| near(g.history(), p, 2));
        let mut placed = false;
        for _ in 0..50 {
            if moves.is_empty() {
                break;
            }
            let p = moves[rng.below(moves.len())];
            let mut next = g.clone();
            if next.play(p).is_ok() && next.outcome().is_none() {
                g = next;
                placed = true;
                break;
            }
        }
        if !placed {
            return None;
        }
    }
    Some(g)
}

fn time_forbidden(g: &Gomoku, reps: u32) -> (f64, usize) {
    let mut found = 0;
    let start = Instant::now();
    for _ in 0..reps {
        found = black_box(black_box(g).forbidden_points()).len();
    }
    (start.elapsed().as_secs_f64() * 1e6 / reps as f64, found)
}

fn playouts_per_second(rule: Rule, budget: Duration) -> (f64, f64) {
    let config = Config { size: 15, rule };
    let mut rng = Rng(42);
    let mut moves = Vec::new();
    let mut games = 0u64;
    let mut plies = 0u64;
    let start = Instant::now();
    while start.elapsed() < budget {
        let Ok(mut g) = Gomoku::new(&config) else {
            return (0.0, 0.0);
        };
        while g.outcome().is_none() {
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let p = moves[rng.below(moves.len())];
            g.play_unchecked(p);
        }
        plies += g.ply() as u64;
        games += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    (games as f64 / secs, plies as f64 / games as f64)
}

fn main() {
    println!("renju forbidden_points() on crowded 15x15 boards (seeded random play, no fives)");
    let mut per_board = Vec::new();
    let mut seed = 1u64;
    while per_board.len() < 24 && seed < 1000 {
        let stones = [90, 100, 100, 110][per_board.len() % 4];
        if let Some(g) = crowded_board(seed, stones) {
            per_board.push(g);
        }
        seed += 1;
    }
    let reps = 2000;
    let mut times = Vec::new();
    let mut total_found = 0;
    for (i, g) in per_board.iter().enumerate() {
        let _ = time_forbidden(g, 50); // warm up
        let (us, found) = time_forbidden(g, reps);
        total_found += found;
        println!(
            "  board {i:2}: {:3} stones, {found:2} forbidden points, {us:7.2} us/call",
            g.ply()
        );
        times.push(us);
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let worst = times.iter().cloned().fold(0.0, f64::max);
    println!(
        "forbidden_points: {} boards, mean {mean:.2} us/call, worst board {worst:.2} us/call, {total_found} forbidden points in all",
        times.len()
    );

    // Harsher than play: 100 stones dropped in the central 11 x 11, 65% of them black, so
    // threes cross everywhere and the fake-three recursion runs often.
    let mut stress = Vec::new();
    let mut rng = Rng(0xBAD5EED);
    for _ in 0..12 {
        let mut stones = Vec::new();
        let mut taken = [[false; 15]; 15];
        while stones.len() < 100 {
            let (x, y) = (2 + rng.below(11) as u8, 2 + rng.below(11) as u8);
            if std::mem::replace(&mut taken[y as usize][x as usize], true) {
                continue;
            }
            let seat = if rng.below(100) < 65 {
                arbiter_engine::Seat::FIRST
            } else {
                arbiter_engine::Seat::SECOND
            };
            stones.push((Point { x, y }, seat));
        }
        let config = Config {
            size: 15,
            rule: Rule::Renju,
        };
        if let Ok(g) = Gomoku::from_stones(&config, &stones, arbiter_engine::Seat::FIRST) {
            stress.push(g);
        }
    }
    let mut times = Vec::new();
    let mut total_found = 0;
    for g in &stress {
        let _ = time_forbidden(g, 50);
        let (us, found) = time_forbidden(g, reps);
        total_found += found;
        times.push(us);
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let worst = times.iter().cloned().fold(0.0, f64::max);
    println!(
        "stress (100 random stones in 11x11, 65% black): {} boards, mean {mean:.2} us/call, worst {worst:.2} us/call, {total_found} forbidden points in all",
        times.len()
    );

    println!("random playouts on 15x15 (uniform over legal moves, 2 s per rule)");
    for rule in Rule::ALL {
        let (gps, len) = playouts_per_second(rule, Duration::from_secs(2));
        println!("  {rule:?}: {gps:.0} games/s, {len:.1} plies/game");
    }
}
