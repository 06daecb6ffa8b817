//! What the rules cost per move through a module: the referee's per-move work (status, legal
//! list, tell, play) timed over random games. Prints the figures (`--nocapture`); asserts only
//! a loose bound, in release builds.

use std::time::Instant;

use arbiter_kit_host::check::Rng;
use arbiter_kit_host::{build, Rules};
use serde_json::json;

fn per_move(package: &str, games: u64) -> (f64, u64) {
    let mut rules = Rules::load(&build::game_module(package).unwrap()).unwrap();
    let mut rng = Rng::new(9);
    let (mut plies, started) = (0u64, Instant::now());
    for seed in 0..games {
        let s = rules.start(&json!({}), seed).unwrap();
        while let Some(seat) = rules.status(s).unwrap().to_move() {
            let legal = rules.legal(s).unwrap();
            rules.tell(s, seat).unwrap();
            rules
                .play(s, &legal[rng.below(legal.len())])
                .unwrap()
                .unwrap();
            plies += 1;
        }
        rules.release(s).unwrap();
    }
    (started.elapsed().as_secs_f64() * 1e6 / plies as f64, plies)
}

#[test]
fn the_rules_cost_little_per_move() {
    for (package, games) in [
        ("game-connect-four", 20),
        ("game-amazons", 2),
        ("game-dots-and-boxes", 10),
        ("game-einstein", 20),
    ] {
        let (us, plies) = per_move(package, games);
        println!("{package}: {us:.0} us per move (status + legal + tell + play), {plies} plies");
        if cfg!(not(debug_assertions)) {
            assert!(us < 20_000.0, "{package}: {us} us per move");
        }
    }
}

/// A Monte Carlo playout from the start, ply by ply through the module (a `legal` and a
/// `play` request a ply, as the ladder played them before) and as one `playout` request.
/// Prints both; asserts only that each playout ends the game.
#[test]
fn a_playout_costs_one_request_instead_of_two_a_ply() {
    for (package, n) in [
        ("game-connect-four", 40u32),
        ("game-amazons", 4),
        ("game-connect6", 10),
        ("game-dots-and-boxes", 40),
        ("game-hex", 40),
    ] {
        let mut rules = Rules::load(&build::game_module(package).unwrap()).unwrap();
        let start = rules.start(&json!({}), 1).unwrap();
        let mut rng = Rng::new(5);
        let t0 = Instant::now();
        for _ in 0..n {
            let s = rules.duplicate(start).unwrap();
            while rules.status(s).unwrap().to_move().is_some() {
                let legal = rules.legal(s).unwrap();
                rules
                    .play(s, &legal[rng.below(legal.len())])
                    .unwrap()
                    .unwrap();
            }
            rules.release(s).unwrap();
        }
        let by_ply = t0.elapsed().as_secs_f64() * 1e3 / f64::from(n);
        let t0 = Instant::now();
        for seed in 0..n {
            let s = rules.duplicate(start).unwrap();
            let (_, status) = rules.playout(s, u64::from(seed)).unwrap().unwrap();
            assert!(status.outcome.is_some(), "{package}");
            rules.release(s).unwrap();
        }
        let inside = t0.elapsed().as_secs_f64() * 1e3 / f64::from(n);
        println!(
            "{package}: a random playout takes {by_ply:.2} ms ply by ply, {inside:.3} ms as one \
             request ({:.0}x)",
            by_ply / inside
        );
    }
}
