//! Random 15 x 15 renju positions with black's forbidden points under both readings, one JSON
//! line each, for `scripts/renju-crosscheck.py` to compare with Piskvork's judge and Rapfi:
//!
//! `{"stones": [[x, y, 1 black | 2 white], ...], "renju": [[x, y], ...], "renju-gomocup": [...]}`
//!
//! Half the positions are stones dropped at random near the centre (dense in black, so
//! forbidden shapes abound), half come from random renju play that avoids fives.
//!
//! Run: `cargo run --release -p arbiter-engine --example renju_positions -- SEED COUNT`.

use arbiter_engine::gomoku::{Config, Gomoku, Point, Rule};
use arbiter_engine::{Game, Seat};

/// splitmix64: deterministic, so a disagreement can be reproduced from its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

const N: u8 = 15;

fn scattered(rng: &mut Rng) -> Vec<(Point, Seat)> {
    let count = rng.below(90) as usize + 10;
    let spread = 3 + rng.below(5) as u8;
    let black_pct = 45 + rng.below(30);
    let lo = N / 2 - spread;
    let width = u64::from(2 * spread + 1);
    let mut out: Vec<(Point, Seat)> = Vec::new();
    for _ in 0..count * 20 {
        if out.len() == count {
            break;
        }
        let p = Point::new(lo + rng.below(width) as u8, lo + rng.below(width) as u8);
        if out.iter().any(|(q, _)| *q == p) {
            continue;
        }
        let seat = if rng.below(100) < black_pct {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        out.push((p, seat));
    }
    out
}

fn played(rng: &mut Rng) -> Vec<(Point, Seat)> {
    let count = [40, 70, 100, 110][rng.below(4) as usize];
    let config = Config {
        size: N,
        rule: Rule::Renju,
    };
    let Ok(mut game) = Gomoku::new(&config) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let Some(seat) = game.to_move() else { break };
        moves.clear();
        game.legal_moves(&mut moves);
        let near = |p: &Point| {
            game.history().is_empty()
                || game.history().iter().any(|q| {
                    (i32::from(q.x) - i32::from(p.x)).abs() <= 2
                        && (i32::from(q.y) - i32::from(p.y)).abs() <= 2
                })
        };
        let pool: Vec<Point> = moves.iter().copied().filter(near).collect();
        let next = (0..20).find_map(|_| {
            let p = *pool.get(rng.below(pool.len().max(1) as u64) as usize)?;
            let mut g = game.clone();
            (g.play(p).is_ok() && g.outcome().is_none()).then_some((p, g))
        });
        let Some((p, g)) = next else { break };
        game = g;
        out.push((p, seat));
    }
    out
}

fn forbidden(stones: &[(Point, Seat)], rule: Rule) -> String {
    let config = Config { size: N, rule };
    let points = match Gomoku::from_stones(&config, stones, Seat::FIRST) {
        Ok(g) => g.forbidden_points(),
        Err(_) => Vec::new(),
    };
    let list: Vec<String> = points
        .iter()
        .map(|(p, _)| format!("[{},{}]", p.x, p.y))
        .collect();
    format!("[{}]", list.join(","))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mut rng = Rng(seed);
    for i in 0..count {
        let stones = if i % 2 == 0 {
            scattered(&mut rng)
        } else {
            played(&mut rng)
        };
        let list: Vec<String> = stones
            .iter()
            .map(|(p, s)| format!("[{},{},{}]", p.x, p.y, s.index() + 1))
            .collect();
        println!(
            "{{\"stones\":[{}],\"renju\":{},\"renju-gomocup\":{}}}",
            list.join(","),
            forbidden(&stones, Rule::Renju),
            forbidden(&stones, Rule::RenjuGomocup)
        );
    }
}
