//! Full 500-round random-versus-random 2048 duels: time per game and plies per second.
//! The bar: one game in under 1 ms. Run with `cargo bench -p arbiter-engine --bench duel2048`.

use std::hint::black_box;
use std::time::Instant;

use arbiter_engine::duel2048::{Config, Duel, Move, RandomSource};
use arbiter_engine::Game;

/// xorshift64*: the random decisions must cost next to nothing beside the rules.
struct Rng(u64);

impl Rng {
    #[inline]
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        ((u128::from(x >> 32) * n as u128) >> 32) as usize
    }
}

/// Plays one game from `start` (cloned) with uniformly random legal decisions; returns plies.
fn random_game(start: &Duel, rng: &mut Rng, legal: &mut Vec<Move>) -> (usize, i64) {
    let mut d = start.clone();
    let mut plies = 0;
    while d.to_move().is_some() {
        legal.clear();
        d.legal_moves(legal);
        let mv = legal[rng.below(legal.len())];
        d.play_unchecked(mv);
        plies += 1;
    }
    let o = d
        .outcome()
        .map_or(0, |o| o.winner.map_or(0, |s| s.index() as i64 + 1));
    (plies, o + d.scores()[0])
}

fn main() {
    let games = 2_000usize;
    let starts: Vec<Duel> = (0..16u64)
        .map(|seed| {
            Duel::new(&Config {
                rounds: 500,
                random: RandomSource::Seed(seed),
            })
            .expect("valid config")
        })
        .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut legal = Vec::with_capacity(40);

    // Warm up.
    for i in 0..100 {
        black_box(random_game(&starts[i % starts.len()], &mut rng, &mut legal));
    }

    // play_unchecked with legal_moves: the search/self-play path.
    let t = Instant::now();
    let mut plies = 0usize;
    let mut check = 0i64;
    for i in 0..games {
        let (p, c) = random_game(&starts[i % starts.len()], &mut rng, &mut legal);
        plies += p;
        check = check.wrapping_add(c);
    }
    let secs = t.elapsed().as_secs_f64();
    black_box(check);
    println!(
        "duel2048 random game (legal_moves + play_unchecked): {:.1} us/game (mean of {games}), {:.1} M plies/s, {} plies/game",
        secs * 1e6 / games as f64,
        plies as f64 / secs / 1e6,
        plies / games
    );

    // The referee's path: forced_move, legal_moves, checked play.
    let t = Instant::now();
    let mut plies = 0usize;
    for i in 0..games {
        let mut d = starts[i % starts.len()].clone();
        while d.to_move().is_some() {
            let mv = match d.forced_move() {
                Some(mv) => mv,
                None => {
                    legal.clear();
                    d.legal_moves(&mut legal);
                    legal[rng.below(legal.len())]
                }
            };
            d.play(mv).expect("legal");
            plies += 1;
        }
        black_box(d.outcome());
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "duel2048 random game (forced_move + legal_moves + play): {:.1} us/game (mean of {games}), {:.1} M plies/s",
        secs * 1e6 / games as f64,
        plies as f64 / secs / 1e6
    );

    // Building a game (sequence drawn from the seed).
    let t = Instant::now();
    let n = 20_000u64;
    for seed in 0..n {
        black_box(
            Duel::new(&Config {
                rounds: 500,
                random: RandomSource::Seed(seed),
            })
            .expect("valid config"),
        );
    }
    println!(
        "duel2048 new (500-value sequence): {:.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}
