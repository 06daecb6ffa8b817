//! A rating ladder's matchmaking, as plain functions (no storage): for a contest that runs for
//! weeks, where a round robin's games grow with the square of the students. A new submission
//! plays opponents near its rating (with some spread), a batch at a time, while its rating is
//! uncertain, until its 95 % interval is narrower than the ladder's width (or it has played
//! the most games allowed). So every submission costs about the same number of games, and the
//! total grows linearly with the submissions.
//!
//! The rating of the submission being placed is fitted on its own games with its opponents'
//! ratings held where they are, their uncertainty widening its interval as Glicko's does:
//! a game against an opponent rated `r ± s` counts for `g(s)² p (1 - p)` of information,
//! `g(s) = 1 / sqrt(1 + 3 s² / π²)` (s in natural units). The scoreboard itself ranks by the
//! Bradley-Terry fit of all games ([`crate::rating::fit`]).
//!
//! A table is a list of opponents: two-seat games take one, and a game of more seats would
//! take more ([`pick`] takes a count).

use serde::{Deserialize, Serialize};

use crate::rating::ELO_PER_LOGIT;

/// The ladder's rules.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Placing stops once the 95 % interval's half-width is at most this many Elo.
    pub interval: f64,
    /// The most games a submission plays while being placed.
    pub max_games: u32,
    /// Games queued at once (pairs: colours swapped).
    pub batch: u32,
    /// How far from its rating an opponent may be, in Elo (the standard deviation of the
    /// choice, widened by the submission's own uncertainty).
    pub spread: f64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            interval: 100.0,
            max_games: 200,
            batch: 8,
            spread: 150.0,
        }
    }
}

impl Rules {
    /// A message naming what is wrong, if anything.
    pub fn check(&self) -> Result<(), String> {
        if !(self.interval.is_finite() && self.interval >= 10.0) {
            return Err(format!(
                "interval = {}: at least 10 Elo (a narrower interval takes thousands of games)",
                self.interval
            ));
        }
        if self.max_games < 2 || self.max_games > 10_000 {
            return Err(format!("max_games = {}: from 2 to 10000", self.max_games));
        }
        if self.batch < 2 || self.batch % 2 != 0 || self.batch > self.max_games {
            return Err(format!(
                "batch = {}: even, at least 2 and at most max_games (colours are swapped in pairs)",
                self.batch
            ));
        }
        if !(self.spread.is_finite() && self.spread > 0.0) {
            return Err(format!(
                "spread = {}: a positive number of Elo",
                self.spread
            ));
        }
        Ok(())
    }
}

/// An opponent's rating as the ladder knows it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rated {
    pub id: i64,
    pub elo: f64,
    /// Half-width of its 95 % interval.
    pub ci95: f64,
}

/// One finished game of the submission being placed: the opponent and its score (1, 1/2, 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub opponent: i64,
    pub score: f64,
}

/// The placed submission's rating: Elo and the half-width of its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub elo: f64,
    pub ci95: f64,
    pub games: u32,
}

/// A draw against a 0-rated opponent as a prior, so that a clean sweep keeps a finite rating.
const PRIOR_GAMES: f64 = 1.0;

fn glicko_g(ci95: f64) -> f64 {
    let s = ci95 / 1.959_963_985 / ELO_PER_LOGIT;
    1.0 / (1.0 + 3.0 * s * s / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fits the placed submission's rating on `games` against `pool` (games against an opponent
/// not in the pool are left out), by Newton's method on one parameter.
pub fn estimate(games: &[Game], pool: &[Rated]) -> Estimate {
    let known: Vec<(f64, f64, f64)> = games
        .iter()
        .filter_map(|g| {
            let o = pool.iter().find(|r| r.id == g.opponent)?;
            Some((o.elo / ELO_PER_LOGIT, glicko_g(o.ci95), g.score))
        })
        .collect();
    let mut theta = 0.0;
    let mut info = 0.0;
    for _ in 0..50 {
        // The prior: PRIOR_GAMES draws against a 0-rated opponent.
        let p0 = sigmoid(theta);
        let mut grad = PRIOR_GAMES * (0.5 - p0);
        info = PRIOR_GAMES * p0 * (1.0 - p0);
        for &(r, g, s) in &known {
            let p = sigmoid(g * (theta - r));
            grad += g * (s - p);
            info += g * g * p * (1.0 - p);
        }
        let step = (grad / info).clamp(-2.0, 2.0);
        theta += step;
        if step.abs() < 1e-9 {
            break;
        }
    }
    Estimate {
        elo: theta * ELO_PER_LOGIT,
        ci95: 1.959_963_985 / info.sqrt() * ELO_PER_LOGIT,
        games: known.len() as u32,
    }
}

/// Whether placing is over: the interval is narrow enough, or the games are used up.
pub fn settled(e: &Estimate, rules: &Rules) -> bool {
    e.ci95 <= rules.interval || e.games >= rules.max_games
}

/// Chooses `count` opponents for the next batch (with repeats when the pool is small), near
/// `me` with the rules' spread: opponent `o` is drawn with weight exp(-d² / 2 v), d the rating
/// gap, v = spread² + (my interval / 1.96)², times 1 / (1 + games already played against it),
/// so a few opponents are not played over and over. `seed` makes the choice reproducible.
pub fn pick(
    me: &Estimate,
    pool: &[Rated],
    played: &[Game],
    count: usize,
    rules: &Rules,
    seed: u64,
) -> Vec<i64> {
    if pool.is_empty() {
        return Vec::new();
    }
    let sd = me.ci95 / 1.959_963_985;
    let v = rules.spread * rules.spread + sd * sd;
    let mut times: Vec<f64> = pool
        .iter()
        .map(|o| played.iter().filter(|g| g.opponent == o.id).count() as f64)
        .collect();
    let mut state = splitmix(seed) | 1;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let weights: Vec<f64> = pool
            .iter()
            .zip(&times)
            .map(|(o, t)| {
                let d = o.elo - me.elo;
                (-d * d / (2.0 * v)).exp() / (1.0 + t) + 1e-12
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = unit(&mut state) * total;
        let mut k = 0;
        while k + 1 < weights.len() && x >= weights[k] {
            x -= weights[k];
            k += 1;
        }
        out.push(pool[k].id);
        times[k] += 1.0;
    }
    out
}

/// splitmix64's finaliser: a seed of a few bits becomes a state of many.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A uniform number in [0, 1) from an xorshift state.
fn unit(state: &mut u64) -> f64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool() -> Vec<Rated> {
        (0..20)
            .map(|i| Rated {
                id: i,
                elo: -950.0 + 100.0 * i as f64,
                ci95: 60.0,
            })
            .collect()
    }

    #[test]
    fn opponents_are_chosen_near_the_rating() {
        let me = Estimate {
            elo: 300.0,
            ci95: 80.0,
            games: 10,
        };
        let rules = Rules::default();
        let chosen = pick(&me, &pool(), &[], 40, &rules, 7);
        let gaps: Vec<f64> = chosen
            .iter()
            .map(|id| (pool()[*id as usize].elo - me.elo).abs())
            .collect();
        let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
        assert!(mean < 250.0, "mean gap {mean}");
        assert!(gaps.iter().any(|&g| g >= 100.0), "some spread");
        assert!(gaps.iter().all(|&g| g < 800.0));
        assert_eq!(
            pick(&me, &pool(), &[], 5, &rules, 7),
            pick(&me, &pool(), &[], 5, &rules, 7)
        );
    }

    #[test]
    fn an_uncertain_rating_looks_wider() {
        let rules = Rules::default();
        let spread = |ci95: f64| {
            let me = Estimate {
                elo: 0.0,
                ci95,
                games: 0,
            };
            let chosen = pick(&me, &pool(), &[], 400, &rules, 3);
            chosen
                .iter()
                .map(|id| (pool()[*id as usize].elo).abs())
                .sum::<f64>()
                / 400.0
        };
        assert!(spread(800.0) > spread(50.0) + 100.0);
    }

    #[test]
    fn the_interval_narrows_with_games_and_the_estimate_finds_the_strength() {
        let pool = pool();
        let truth = 420.0;
        let mut games = Vec::new();
        let mut state = 99u64;
        let rules = Rules::default();
        let mut e = estimate(&games, &pool);
        assert!(e.ci95 > 500.0, "no games: wide ({})", e.ci95);
        while !settled(&e, &rules) {
            for id in pick(&e, &pool, &games, rules.batch as usize, &rules, state) {
                let o = pool[id as usize];
                let p = sigmoid((truth - o.elo) / ELO_PER_LOGIT);
                let score = if unit(&mut state) < p { 1.0 } else { 0.0 };
                games.push(Game {
                    opponent: id,
                    score,
                });
            }
            let next = estimate(&games, &pool);
            assert!(next.ci95 < e.ci95 + 1e-9);
            e = next;
        }
        assert!(
            e.ci95 <= rules.interval,
            "settled by width, not by max_games"
        );
        assert!((e.elo - truth).abs() < 2.5 * e.ci95, "{e:?}");
        assert!(e.games < 150, "{} games", e.games);
    }

    #[test]
    fn a_clean_sweep_has_a_finite_rating() {
        let pool = pool();
        let games: Vec<Game> = (0..10)
            .map(|_| Game {
                opponent: 19,
                score: 1.0,
            })
            .collect();
        let e = estimate(&games, &pool);
        assert!(e.elo.is_finite() && e.elo > pool[19].elo);
    }

    #[test]
    fn rules_are_checked() {
        assert!(Rules::default().check().is_ok());
        let odd = Rules {
            batch: 3,
            ..Rules::default()
        };
        assert!(odd.check().unwrap_err().contains("batch"));
        let narrow = Rules {
            interval: 1.0,
            ..Rules::default()
        };
        assert!(narrow.check().unwrap_err().contains("interval"));
    }
}
