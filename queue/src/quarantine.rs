//! Bad-worker quarantine. A worker on a broken or overloaded machine makes bots lose on time
//! or crash that would not elsewhere. Each bot's failure rate on the *other* workers predicts
//! how many of a worker's games should have ended in such a failure; a worker with far more
//! (the Poisson chance of at least that many is below [`Policy::p_value`]) is paused, its
//! failed games are played again on other workers, and both are recorded as events.
//!
//! Voided games (its machine stalled, or its disk could not be written: never a result) are
//! judged the same way: a worker that voids far more of its games than the other workers do
//! is paused too.

use std::collections::HashMap;

use serde::Serialize;
use sqlx::Row;

use crate::jobs::Queue;
use crate::spec::GameOutcome;

/// Verdicts a machine can cause: the bot ran out of time, crashed or hit its memory limit.
const MACHINE_FAILURES: [&str; 4] = ["move_time", "game_time", "crash", "memory"];

/// When a worker counts as bad.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Games a worker must have played before it is judged.
    pub min_games: usize,
    /// Failures a worker must have before it is judged (a single crash proves nothing).
    pub min_failures: usize,
    /// How unlikely its failure count must be if it were as good as the others.
    pub p_value: f64,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            min_games: 10,
            min_failures: 3,
            p_value: 1e-4,
        }
    }
}

/// A worker found bad, and what was done about it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suspect {
    pub worker: String,
    pub games: usize,
    pub failures: usize,
    /// Failures expected from the same bots' rates on the other workers.
    pub expected: f64,
    /// The chance of at least `failures` if the worker were as good as the others.
    pub p: f64,
    /// Its failed games, put back in the queue to be played by another worker.
    pub replayed: Vec<i64>,
    /// Paused for its voided games (then `failures` counts voids), not its bots' failures.
    pub voided: bool,
}

/// One committed game: who played it and which bot (side) failed, if one did.
struct Played {
    job: i64,
    worker: String,
    /// The bot of each seat: the job's two sides, or its `job_seats` when it has them (a
    /// table of more than two seats, a tournament's game).
    sides: Vec<String>,
    failed: Option<usize>,
}

/// Judges every active worker, pauses the bad ones and replays their failed games elsewhere.
pub async fn check(queue: &Queue, policy: &Policy) -> Result<Vec<Suspect>, crate::Error> {
    let games = committed_games(queue).await?;
    let mut found = Vec::new();
    for mut suspect in suspects(&games, policy) {
        let state = crate::workers::state(queue, &suspect.worker).await?;
        if state.as_deref() == Some("paused") {
            continue;
        }
        let note = format!(
            "quarantined: {} time losses or crashes in {} games where the same bots on other \
             workers make {:.1} expected (p = {:.1e}); its failed games are played again elsewhere",
            suspect.failures, suspect.games, suspect.expected, suspect.p
        );
        crate::workers::set_state(queue, &suspect.worker, "paused", Some(&note)).await?;
        for g in games
            .iter()
            .filter(|g| g.worker == suspect.worker && g.failed.is_some())
        {
            if queue.replay_elsewhere(g.job, "quarantine").await? {
                suspect.replayed.push(g.job);
            }
        }
        found.push(suspect);
    }
    for suspect in void_suspects(&void_counts(queue).await?, policy) {
        let state = crate::workers::state(queue, &suspect.worker).await?;
        if state.as_deref() == Some("paused") {
            continue;
        }
        let note = format!(
            "quarantined: {} of its {} games voided (its machine stalled or could not write \
             to its disk) where the other workers' rate makes {:.1} expected (p = {:.1e})",
            suspect.failures, suspect.games, suspect.expected, suspect.p
        );
        crate::workers::set_state(queue, &suspect.worker, "paused", Some(&note)).await?;
        found.push(suspect);
    }
    Ok(found)
}

/// Per worker: games it committed or voided, and how many it voided.
async fn void_counts(queue: &Queue) -> Result<Vec<(String, usize, usize)>, crate::Error> {
    let rows = sqlx::query(
        "SELECT worker, SUM(voided), COUNT(*) FROM ( \
           SELECT e.worker AS worker, 1 AS voided FROM events e JOIN jobs j ON j.id = e.job \
             WHERE e.kind = 'voided' AND j.kind = 'game' AND e.worker IS NOT NULL \
           UNION ALL \
           SELECT r.worker AS worker, 0 AS voided FROM results r JOIN jobs j ON j.id = r.job \
             WHERE j.kind = 'game' \
         ) t GROUP BY worker",
    )
    .fetch_all(queue.db().pool())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let voided: i64 = r.try_get(1)?;
        let attempts: i64 = r.try_get(2)?;
        out.push((
            r.try_get(0)?,
            usize::try_from(attempts).unwrap_or(0),
            usize::try_from(voided).unwrap_or(0),
        ));
    }
    Ok(out)
}

/// The workers that void far more of their games than the others do: a machine that
/// stalls or whose disk fails again and again. `counts` is (worker, attempts, voids). A
/// worker is judged only against others that played enough: the only worker of a contest is
/// never paused for voids, since nobody else would judge and the voids cost only time.
fn void_suspects(counts: &[(String, usize, usize)], policy: &Policy) -> Vec<Suspect> {
    let total_n: usize = counts.iter().map(|c| c.1).sum();
    let total_v: usize = counts.iter().map(|c| c.2).sum();
    let mut out = Vec::new();
    for (worker, n, v) in counts {
        let (other_n, other_v) = (total_n - n, total_v - v);
        if *n < policy.min_games || *v < policy.min_failures || other_n < policy.min_games {
            continue;
        }
        // Laplace's rule, as for failures: other workers that never voided predict little,
        // not nothing.
        let expected = *n as f64 * (other_v as f64 + 0.5) / (other_n as f64 + 1.0);
        let p = poisson_tail(expected, *v);
        if p < policy.p_value {
            out.push(Suspect {
                worker: worker.clone(),
                games: *n,
                failures: *v,
                expected,
                p,
                replayed: Vec::new(),
                voided: true,
            });
        }
    }
    out
}

/// The seats of every committed game that has them, in seat order.
async fn seats_of_games(queue: &Queue) -> Result<HashMap<i64, Vec<String>>, crate::Error> {
    let rows = sqlx::query(
        "SELECT s.job, s.side FROM job_seats s JOIN results r ON r.job = s.job \
         ORDER BY s.job, s.seat",
    )
    .fetch_all(queue.db().pool())
    .await?;
    let mut out: HashMap<i64, Vec<String>> = HashMap::new();
    for r in rows {
        out.entry(r.try_get(0)?).or_default().push(r.try_get(1)?);
    }
    Ok(out)
}

async fn committed_games(queue: &Queue) -> Result<Vec<Played>, crate::Error> {
    let rows = sqlx::query(
        "SELECT r.job, r.worker, j.side0, j.side1, r.outcome FROM results r \
         JOIN jobs j ON j.id = r.job WHERE j.kind = 'game'",
    )
    .fetch_all(queue.db().pool())
    .await?;
    let mut seats = seats_of_games(queue).await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let outcome: String = r.try_get(4)?;
        // A result that does not parse is not evidence against anyone.
        let Ok(outcome) = serde_json::from_str::<GameOutcome>(&outcome) else {
            continue;
        };
        let job: i64 = r.try_get(0)?;
        let sides = match seats.remove(&job) {
            Some(list) if list.len() >= 2 => list,
            _ => vec![r.try_get(2)?, r.try_get(3)?],
        };
        let failed = outcome
            .culprit
            .filter(|_| MACHINE_FAILURES.contains(&outcome.reason.as_str()))
            .map(usize::from)
            .filter(|&seat| seat < sides.len());
        out.push(Played {
            job,
            worker: r.try_get(1)?,
            sides,
            failed,
        });
    }
    Ok(out)
}

/// The workers whose failures the other workers' games make very unlikely.
fn suspects(games: &[Played], policy: &Policy) -> Vec<Suspect> {
    // Per bot: appearances and failures, in all and per worker.
    let mut all: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut by_worker: HashMap<(&str, &str), (usize, usize)> = HashMap::new();
    for g in games {
        for (seat, side) in g.sides.iter().enumerate() {
            let failed = usize::from(g.failed == Some(seat));
            let a = all.entry(side).or_default();
            a.0 += 1;
            a.1 += failed;
            let w = by_worker.entry((&g.worker, side)).or_default();
            w.0 += 1;
            w.1 += failed;
        }
    }
    let mut workers: Vec<&str> = games.iter().map(|g| g.worker.as_str()).collect();
    workers.sort_unstable();
    workers.dedup();
    let mut out = Vec::new();
    for worker in workers {
        let played = games.iter().filter(|g| g.worker == worker).count();
        let (mut failures, mut expected) = (0usize, 0.0f64);
        for ((w, side), (n, f)) in &by_worker {
            if *w != worker {
                continue;
            }
            let (total_n, total_f) = all[side];
            let (other_n, other_f) = (total_n - n, total_f - f);
            // Laplace's rule keeps a bot never seen failing elsewhere from predicting zero.
            let rate = (other_f as f64 + 0.5) / (other_n as f64 + 1.0);
            failures += f;
            expected += *n as f64 * rate;
        }
        if played < policy.min_games || failures < policy.min_failures {
            continue;
        }
        let p = poisson_tail(expected, failures);
        if p < policy.p_value {
            out.push(Suspect {
                worker: worker.to_string(),
                games: played,
                failures,
                expected,
                p,
                replayed: Vec::new(),
                voided: false,
            });
        }
    }
    out
}

/// P(X >= k) for X ~ Poisson(lambda).
fn poisson_tail(lambda: f64, k: usize) -> f64 {
    let mut term = (-lambda).exp();
    let mut below = 0.0;
    for i in 0..k {
        below += term;
        term *= lambda / (i + 1) as f64;
    }
    (1.0 - below).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(job: i64, worker: &str, sides: &[&str], failed: Option<usize>) -> Played {
        Played {
            job,
            worker: worker.into(),
            sides: sides.iter().map(|s| s.to_string()).collect(),
            failed,
        }
    }

    #[test]
    fn poisson_tail_matches_the_closed_form() {
        assert!((poisson_tail(2.0, 0) - 1.0).abs() < 1e-12);
        // P(X >= 1) = 1 - e^-2; P(X >= 3) = 1 - e^-2 (1 + 2 + 2).
        assert!((poisson_tail(2.0, 1) - (1.0 - (-2.0f64).exp())).abs() < 1e-12);
        assert!((poisson_tail(2.0, 3) - (1.0 - 5.0 * (-2.0f64).exp())).abs() < 1e-12);
    }

    #[test]
    fn a_worker_failing_bots_that_do_not_fail_elsewhere_is_a_suspect() {
        let mut games = Vec::new();
        for i in 0..40 {
            games.push(game(i, "good-a", &["x", "y"], None));
            games.push(game(100 + i, "good-b", &["x", "y"], (i == 7).then_some(0)));
            games.push(game(200 + i, "bad", &["x", "y"], (i % 2 == 0).then_some(1)));
        }
        let found = suspects(&games, &Policy::default());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].worker, "bad");
        assert_eq!(found[0].failures, 20);
    }

    #[test]
    fn a_worker_that_voids_again_and_again_is_a_suspect_but_never_the_only_one() {
        let counts = |bad: usize| {
            vec![
                ("good-a".to_string(), 50, 1),
                ("good-b".to_string(), 50, 0),
                ("stalls".to_string(), 50, bad),
            ]
        };
        let found = void_suspects(&counts(12), &Policy::default());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].worker, "stalls");
        assert_eq!(found[0].failures, 12);
        // A void now and then is no evidence.
        assert!(void_suspects(&counts(2), &Policy::default()).is_empty());
        // Alone, a worker is never paused: nobody else would judge.
        let alone = vec![("only".to_string(), 200, 150)];
        assert!(void_suspects(&alone, &Policy::default()).is_empty());
    }

    #[test]
    fn a_bot_that_fails_everywhere_makes_no_worker_a_suspect() {
        let mut games = Vec::new();
        for i in 0..40 {
            for (k, w) in ["a", "b", "c"].iter().enumerate() {
                let id = i * 3 + k as i64;
                games.push(game(id, w, &["slow", "y"], (i % 2 == 0).then_some(0)));
            }
        }
        assert!(suspects(&games, &Policy::default()).is_empty());
    }

    #[test]
    fn a_table_s_third_seat_counts_as_the_first_two_do() {
        let mut games = Vec::new();
        for i in 0..40 {
            games.push(game(i, "good-a", &["x", "y", "z"], None));
            games.push(game(100 + i, "good-b", &["y", "z", "x"], None));
            // z fails only on this worker, always from the third seat.
            let failed = (i % 2 == 0).then_some(2);
            games.push(game(200 + i, "bad", &["x", "y", "z"], failed));
        }
        let found = suspects(&games, &Policy::default());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].worker.as_str(), found[0].failures), ("bad", 20));
        // The same failures by z on every worker accuse none.
        for g in games.iter_mut().filter(|g| g.worker != "bad") {
            let z = g.sides.iter().position(|s| s == "z");
            g.failed = z.filter(|_| g.job % 2 == 0);
        }
        assert!(suspects(&games, &Policy::default()).is_empty());
    }
}
