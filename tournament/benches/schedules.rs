//! Simulations of the schedules with bots of known strength (Bradley-Terry: P(a beats b) =
//! 1 / (1 + 10^((r_b - r_a) / 400)), no draws), printing figures; it asserts nothing.
//!
//! - Swiss: 300 bots, 9 rounds of 8 games (colours swapped), against a round robin of the
//!   same 8 games a pairing: Kendall's tau of each ranking against the truth, and the games.
//! - Ladder: contests of 10 to 160 students, each submitting 3 versions over the weeks: the
//!   games each submission took to bring its 95 % interval under the ladder's width, and the
//!   total games per student (flat = linear in the students).
//!
//! `cargo bench -p arbiter-tournament --bench schedules` (SPREAD=400 sets the strengths'
//! standard deviation in Elo, SEEDS=5 the number of runs, GAMES=8 the games of a round).

use arbiter_tournament::ladder::{self, Game, Rated, Rules};
use arbiter_tournament::rating::{self, Results};
use arbiter_tournament::swiss::{self, Played};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.unit().max(1e-300), self.unit());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

fn p_win(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

/// Kendall's tau between an order (best first) and the true strengths.
fn tau(order: &[usize], truth: &[f64]) -> f64 {
    let (mut concordant, mut discordant) = (0i64, 0i64);
    for i in 0..order.len() {
        for j in i + 1..order.len() {
            // order[i] is ranked above order[j].
            match truth[order[i]].total_cmp(&truth[order[j]]) {
                std::cmp::Ordering::Greater => concordant += 1,
                std::cmp::Ordering::Less => discordant += 1,
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    (concordant - discordant) as f64 / (concordant + discordant).max(1) as f64
}

/// Plays `games` games between a and b (colours swapped; colour makes no difference here):
/// a's points.
fn play(rng: &mut Rng, truth: &[f64], a: usize, b: usize, games: u32) -> f64 {
    (0..games)
        .map(|_| f64::from(u8::from(rng.unit() < p_win(truth[a], truth[b]))))
        .sum()
}

fn by_fit(results: &Results) -> Vec<usize> {
    let fit = rating::fit(results, 1.0);
    let mut order: Vec<usize> = (0..results.len()).collect();
    order.sort_by(|&a, &b| fit.elo[b].total_cmp(&fit.elo[a]));
    order
}

fn swiss_run(seed: u64, n: usize, rounds: usize, games: u32, spread: f64) -> [f64; 5] {
    let mut rng = Rng(seed);
    // Seeds are in no order of strength: the Swiss knows nothing at the start.
    let truth: Vec<f64> = (0..n).map(|_| rng.normal() * spread).collect();
    let mut played = Vec::new();
    let mut byes = Vec::new();
    let mut results = Results::new(n);
    let g = f64::from(games);
    for r in 0..rounds {
        let round = swiss::pair_round(&swiss::players(n, &played, &byes, g));
        for p in &round.pairings {
            let a = play(&mut rng, &truth, p.first, p.second, games);
            played.push(Played {
                round: r,
                first: p.first,
                second: p.second,
                points: [a, g - a],
                games,
            });
            for k in 0..games {
                let s = f64::from(u8::from(f64::from(k) < a));
                results.add(p.first, p.second, s);
            }
        }
        byes.extend(round.bye);
    }
    let standings: Vec<usize> = swiss::standings(n, &played, &byes, g)
        .iter()
        .map(|r| r.player)
        .collect();
    let swiss_games = played.len() as f64 * g;
    // The round robin of the same games a pairing.
    let mut rr = Results::new(n);
    let mut points = vec![0.0; n];
    for a in 0..n {
        for b in a + 1..n {
            let s = play(&mut rng, &truth, a, b, games);
            points[a] += s;
            points[b] += g - s;
            for k in 0..games {
                rr.add(a, b, f64::from(u8::from(f64::from(k) < s)));
            }
        }
    }
    let mut rr_order: Vec<usize> = (0..n).collect();
    rr_order.sort_by(|&a, &b| points[b].total_cmp(&points[a]));
    let rr_games = (n * (n - 1) / 2) as f64 * g;
    [
        tau(&standings, &truth),
        tau(&by_fit(&results), &truth),
        tau(&rr_order, &truth),
        swiss_games,
        rr_games,
    ]
}

/// One ladder contest's figures.
struct LadderRun {
    /// Games each placed submission played, in the order they were submitted.
    games: Vec<u32>,
    /// The positions (1 = the first submission) of those placed by `max_games`, not by width.
    unclosed: Vec<usize>,
}

/// One ladder contest: `students` students, each submitting `versions` versions in turn, the
/// later ones stronger.
fn ladder_run(seed: u64, students: usize, versions: usize, rules: &Rules) -> LadderRun {
    let mut rng = Rng(seed);
    let base: Vec<f64> = (0..students).map(|_| rng.normal() * 300.0).collect();
    // Current submissions: (student, true strength, estimate).
    let mut pool: Vec<(usize, f64, Rated)> = Vec::new();
    let mut run = LadderRun {
        games: Vec::new(),
        unclosed: Vec::new(),
    };
    let mut id = 0i64;
    for v in 0..versions {
        for (s, &b) in base.iter().enumerate() {
            let strength = b + 80.0 * v as f64 + rng.normal() * 50.0;
            id += 1;
            let others: Vec<Rated> = pool.iter().filter(|p| p.0 != s).map(|p| p.2).collect();
            let truth_of = |oid: i64, pool: &[(usize, f64, Rated)]| {
                pool.iter().find(|p| p.2.id == oid).map_or(0.0, |p| p.1)
            };
            let mut games: Vec<Game> = Vec::new();
            let mut e = ladder::estimate(&games, &others);
            if !others.is_empty() {
                while !ladder::settled(&e, rules) {
                    let picks = ladder::pick(
                        &e,
                        &others,
                        &games,
                        rules.batch as usize,
                        rules,
                        id as u64 * 1000 + games.len() as u64,
                    );
                    for o in picks {
                        let p = p_win(strength, truth_of(o, &pool));
                        let score = f64::from(u8::from(rng.unit() < p));
                        games.push(Game { opponent: o, score });
                    }
                    e = ladder::estimate(&games, &others);
                }
                if e.ci95 > rules.interval {
                    run.unclosed.push(id as usize);
                }
                run.games.push(e.games);
            }
            let rated = Rated {
                id,
                elo: e.elo,
                ci95: e.ci95,
            };
            pool.retain(|p| p.0 != s);
            pool.push((s, strength, rated));
        }
    }
    run
}

/// The `q` quantile of `xs` (nearest rank).
fn quantile(xs: &[u32], q: f64) -> u32 {
    let mut v = xs.to_vec();
    v.sort_unstable();
    let k = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len().max(1));
    v.get(k - 1).copied().unwrap_or(0)
}

fn main() {
    let spread: f64 = std::env::var("SPREAD")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400.0);
    let seeds: u64 = std::env::var("SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let games: u32 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    println!("Swiss of 300 bots, 9 rounds of {games} games (a pairing's games in the round robin too), strengths normal with sd {spread} Elo:");
    println!("seed  tau(Swiss standings)  tau(Bradley-Terry on the Swiss games)  tau(round robin)  games: Swiss / round robin");
    let mut sum = [0.0; 3];
    for seed in 1..=seeds {
        let t0 = std::time::Instant::now();
        let f = swiss_run(seed, 300, 9, games, spread);
        for k in 0..3 {
            sum[k] += f[k];
        }
        println!(
            "{seed:>4}  {:>20.3}  {:>37.3}  {:>16.3}  {:.0} / {:.0} = 1/{:.1}  ({:.1} s)",
            f[0],
            f[1],
            f[2],
            f[3],
            f[4],
            f[4] / f[3],
            t0.elapsed().as_secs_f64()
        );
    }
    let s = seeds as f64;
    println!(
        "mean  {:>20.3}  {:>37.3}  {:>16.3}",
        sum[0] / s,
        sum[1] / s,
        sum[2] / s
    );

    let rules = Rules::default();
    println!(
        "\nLadder: interval {} Elo, batch {}, spread {} Elo, at most {} games; each student submits 3 versions:",
        rules.interval, rules.batch, rules.spread, rules.max_games
    );
    println!("students  submissions placed  closed by width  games per submission: mean  median  90 %  most  total games  per student  placed by max_games (n-th submission)");
    for students in [10, 20, 40, 80, 160] {
        let run = ladder_run(7, students, 3, &rules);
        let total: u64 = run.games.iter().map(|&g| u64::from(g)).sum();
        let subs = run.games.len();
        println!(
            "{students:>8}  {subs:>18}  {:>15}  {:>26.1}  {:>6}  {:>4}  {:>4}  {total:>11}  {:>11.1}  {:?}",
            subs - run.unclosed.len(),
            total as f64 / subs.max(1) as f64,
            quantile(&run.games, 0.5),
            quantile(&run.games, 0.9),
            run.games.iter().max().copied().unwrap_or(0),
            total as f64 / students as f64,
            run.unclosed
        );
    }
}
