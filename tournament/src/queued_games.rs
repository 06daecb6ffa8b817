//! What a tournament played through the queue ([`crate::queued`]) plays: the pairings' games
//! of a two-seat game (the `games` table), or the games of tables of N > 2 seats
//! (`table_games`, [`crate::tables`]). A tournament has one kind or the other; the coordinator
//! asks this for ids, jobs and records, and is the same for both.

use std::collections::{BTreeMap, HashMap, HashSet};

use anyhow::Context;
use arbiter_engine::any::GameConfig;
use arbiter_match::game;
use arbiter_queue::jobs::{JobKind, NewJob};
use arbiter_queue::spec::{GameJob, GameOutcome, JobBot};

use crate::config::Resolved;
use crate::runner;
use crate::store::{GameResultRow, Store, TableResult};

#[derive(Clone, Debug)]
pub(crate) enum Games {
    /// Pairings of a two-seat game.
    Pairings,
    /// Tables of `seats` seats, scored by place.
    Tables { seats: usize, per_place: Vec<f64> },
}

/// A scheduled game as the queue plays it: its id, its bots by seat, and its job's parts.
struct Pending {
    id: i64,
    order: i64,
    seats: Vec<String>,
    config: String,
    opening: Vec<String>,
}

impl Games {
    pub fn of(r: &Resolved) -> Games {
        if r.seats > 2 {
            Games::Tables {
                seats: r.seats,
                per_place: crate::tables::points_per_place(&r.file, r.seats),
            }
        } else {
            Games::Pairings
        }
    }

    /// Seats of each game a worker's slot plays.
    pub fn seats(&self) -> usize {
        match self {
            Games::Pairings => 2,
            Games::Tables { seats, .. } => *seats,
        }
    }

    /// The ids of the games in `state` (`scheduled` or `done`).
    pub fn ids(&self, store: &Store, state: &str) -> anyhow::Result<HashSet<i64>> {
        Ok(match self {
            Games::Pairings => store.games(Some(state))?.iter().map(|g| g.id).collect(),
            Games::Tables { .. } => store
                .table_games(Some(state))?
                .iter()
                .map(|g| g.id)
                .collect(),
        })
    }

    /// How many games are left to play.
    pub fn scheduled(&self, store: &Store) -> anyhow::Result<usize> {
        Ok(match self {
            Games::Pairings => store
                .counts()?
                .iter()
                .find(|(state, _)| state == "scheduled")
                .map_or(0, |(_, n)| usize::try_from(*n).unwrap_or(0)),
            Games::Tables { .. } => store.scheduled_tables()?,
        })
    }

    /// Every game's bots by seat.
    pub fn seats_of_games(&self, store: &Store) -> anyhow::Result<HashMap<i64, Vec<String>>> {
        Ok(match self {
            Games::Pairings => store
                .games(None)?
                .into_iter()
                .map(|g| (g.id, g.seats.to_vec()))
                .collect(),
            Games::Tables { .. } => store
                .table_games(None)?
                .into_iter()
                .map(|g| (g.id, g.seats))
                .collect(),
        })
    }

    pub fn reopen(&self, store: &mut Store, id: i64) -> anyhow::Result<bool> {
        match self {
            Games::Pairings => store.reopen(id),
            Games::Tables { .. } => store.reopen_table(id),
        }
    }

    /// The attempt recorded for each game played through the queue.
    pub fn attempts(&self, store: &Store) -> anyhow::Result<HashMap<i64, String>> {
        match self {
            Games::Pairings => store.attempts(),
            Games::Tables { .. } => store.table_attempts(),
        }
    }

    pub fn replay_file(&self, id: i64) -> String {
        match self {
            Games::Pairings => runner::replay_file(id),
            Games::Tables { .. } => crate::table_run::replay_file(id),
        }
    }

    /// A job for every scheduled game in `ids`, in the schedule's order.
    pub fn jobs(
        &self,
        store: &Store,
        r: &Resolved,
        bots: &BTreeMap<String, JobBot>,
        ids: &HashSet<i64>,
    ) -> anyhow::Result<Vec<(i64, NewJob)>> {
        let pending: Vec<Pending> = match self {
            Games::Pairings => store
                .games(Some("scheduled"))?
                .into_iter()
                .filter(|g| ids.contains(&g.id))
                .map(|g| Pending {
                    id: g.id,
                    order: g.order,
                    seats: g.seats.to_vec(),
                    config: g.config,
                    opening: g
                        .opening
                        .and_then(|o| r.openings.get(o as usize).cloned())
                        .unwrap_or_default(),
                })
                .collect(),
            Games::Tables { .. } => store
                .table_games(Some("scheduled"))?
                .into_iter()
                .filter(|g| ids.contains(&g.id))
                .map(|g| Pending {
                    id: g.id,
                    order: g.order,
                    seats: g.seats,
                    config: g.config,
                    opening: Vec::new(),
                })
                .collect(),
        };
        pending
            .iter()
            .map(|p| Ok((p.id, self.job(p, r, bots)?)))
            .collect()
    }

    /// One scheduled game as a job: what the runner would play here, seed and event included.
    fn job(
        &self,
        p: &Pending,
        r: &Resolved,
        bots: &BTreeMap<String, JobBot>,
    ) -> anyhow::Result<NewJob> {
        let config: GameConfig = serde_json::from_str(&p.config)
            .with_context(|| format!("game {}: stored configuration", p.id))?;
        let bots = p
            .seats
            .iter()
            .map(|name| {
                bots.get(name)
                    .cloned()
                    .with_context(|| format!("game {}: unknown bot {name}", p.id))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        if bots.len() != self.seats() {
            anyhow::bail!(
                "game {}: {} seats stored, the game has {}",
                p.id,
                bots.len(),
                self.seats()
            );
        }
        let spec = GameJob {
            bots,
            opening: p.opening.clone(),
            game: Some(config),
            event: Some(runner::event(r, p.id)),
            seed: Some(runner::seed(r, p.id)),
        };
        Ok(NewJob {
            lane: "schedule".into(),
            kind: JobKind::Game,
            spec: serde_json::to_string(&spec)?,
            sides: [super::queued::side_of(p.id), p.seats.join(" - ")],
            // Each seat's bot, for the quarantine: the sides name the game and the pairing.
            seats: p.seats.clone(),
            // Higher first: the schedule's order.
            priority: -p.order,
        })
    }

    /// Records a game's outcome from the queue (its replay already in `replay`); each seat's
    /// points when it was recorded (empty for a game that counts for nobody).
    pub fn record(
        &self,
        store: &mut Store,
        id: i64,
        o: &GameOutcome,
        replay: Option<String>,
        attempt: &str,
    ) -> anyhow::Result<Option<Vec<f64>>> {
        match self {
            Games::Pairings => {
                let res = pair_result(o, replay);
                let points = pair_points(&res);
                Ok(store.record_attempt(id, &res, attempt)?.then_some(points))
            }
            Games::Tables { per_place, .. } => {
                let res = table_result(o, replay);
                let points = if res.counts() {
                    crate::tables::points(&res.places, per_place)
                } else {
                    Vec::new()
                };
                Ok(store
                    .record_table_attempt(id, &res, attempt)?
                    .then_some(points))
            }
        }
    }

    /// Game points of every bot over the games recorded, and how many games are recorded.
    pub fn points(&self, store: &Store) -> anyhow::Result<(BTreeMap<String, f64>, usize)> {
        let mut points = BTreeMap::new();
        let mut done = 0;
        match self {
            Games::Pairings => {
                for g in store.games(Some("done"))? {
                    if let Some(res) = &g.result {
                        runner::tally(&mut points, &g.seats, res);
                        done += 1;
                    }
                }
            }
            Games::Tables { per_place, .. } => {
                for g in store.table_games(Some("done"))? {
                    crate::table_run::tally(&mut points, &g, per_place);
                    done += 1;
                }
            }
        }
        Ok((points, done))
    }
}

/// Adds each seat's points to its bot.
pub(crate) fn tally(points: &mut BTreeMap<String, f64>, seats: &[String], per_seat: &[f64]) {
    for (name, p) in seats.iter().zip(per_seat) {
        *points.entry(name.clone()).or_default() += p;
    }
}

/// A two-seat game's per-seat figure (the pairings play two seats).
fn two<T: Copy>(v: &[T], missing: T) -> [T; 2] {
    [
        v.first().copied().unwrap_or(missing),
        v.get(1).copied().unwrap_or(missing),
    ]
}

fn pair_result(o: &GameOutcome, replay: Option<String>) -> GameResultRow {
    GameResultRow {
        winner: o.winner,
        reason_code: o.reason.clone(),
        reason: o.verdict.clone(),
        culprit: o.culprit,
        moves: i64::from(o.moves),
        think_ms: two(&o.think_ms, 0.0),
        timed_moves: two(&o.moves_by, 0).map(i64::from),
        scores: o.scores.as_deref().and_then(|s| s.try_into().ok()),
        wall_ms: o.wall_ms,
        replay,
        finished_at: game::now_utc(),
    }
}

/// 1, 0.5 or 0 a seat, as [`runner::tally`] counts them.
fn pair_points(res: &GameResultRow) -> Vec<f64> {
    if !res.counts() {
        return Vec::new();
    }
    (0..2u8)
        .map(|s| match res.winner {
            None => 0.5,
            Some(w) if w == s => 1.0,
            Some(_) => 0.0,
        })
        .collect()
}

fn table_result(o: &GameOutcome, replay: Option<String>) -> TableResult {
    // A game with a result that names no places (one winner of a game reported the two-seat
    // way) still ranks its seats: the winner first, everyone else shares second.
    let places = match (&o.places, o.winner) {
        (Some(p), _) => p.clone(),
        (None, Some(w)) if o.reason != "aborted" => (0..o.think_ms.len().max(usize::from(w) + 1))
            .map(|s| if s == usize::from(w) { 1 } else { 2 })
            .collect(),
        _ => Vec::new(),
    };
    TableResult {
        places,
        culprit: o.culprit.map(usize::from),
        reason_code: o.reason.clone(),
        reason: o.verdict.clone(),
        moves: i64::from(o.moves),
        wall_ms: o.wall_ms,
        replay,
        finished_at: game::now_utc(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(places: Option<Vec<u32>>, winner: Option<u8>, reason: &str) -> GameOutcome {
        GameOutcome {
            winner,
            places,
            reason: reason.into(),
            verdict: reason.into(),
            culprit: None,
            moves: 10,
            scores: None,
            think_ms: vec![1.0; 3],
            moves_by: vec![3; 3],
            wall_ms: 5.0,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn a_table_game_keeps_its_places_and_an_aborted_one_counts_for_nobody() {
        let r = table_result(&outcome(Some(vec![2, 1, 3]), Some(1), "normal"), None);
        assert_eq!(r.places, vec![2, 1, 3]);
        assert!(r.counts());
        let r = table_result(&outcome(None, None, "aborted"), None);
        assert!(!r.counts());
        let r = table_result(&outcome(None, Some(2), "move_time"), None);
        assert_eq!(r.places, vec![2, 2, 1]);
    }

    #[test]
    fn a_pairing_s_points_are_one_half_or_nothing() {
        let res = pair_result(&outcome(None, Some(0), "normal"), None);
        assert_eq!(pair_points(&res), vec![1.0, 0.0]);
        let res = pair_result(&outcome(None, None, "normal"), None);
        assert_eq!(pair_points(&res), vec![0.5, 0.5]);
        let res = pair_result(&outcome(None, None, "aborted"), None);
        assert!(pair_points(&res).is_empty());
    }
}
