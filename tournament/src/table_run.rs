//! Plays the games of tables (a game of N > 2 seats, crate::tables), several at once, each
//! recorded as it finishes: its replay written whole first, then its row and every seat's
//! place in one transaction ([`Store::record_table`]). A run killed at any moment loses only
//! the games in flight, and the next run plays exactly the games not recorded.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use arbiter_engine::any::GameConfig;
use arbiter_match::game::{self, slot_cores, BotSpec, GameSpec, Played, Seats};
use arbiter_match::live::{Live, Observer};
use arbiter_sandbox::Containment;

use super::config::Resolved;
use super::runner::{self, RunOptions, RunSummary};
use super::storage;
use super::store::{Store, TableGameRow, TableResult};

struct Job {
    row: TableGameRow,
    spec: GameSpec,
    bots: Vec<BotSpec>,
}

struct Done {
    id: i64,
    result: anyhow::Result<TableResult>,
    warnings: Vec<String>,
}

/// A game of a table's replay file in `replays/`.
pub fn replay_file(game: i64) -> String {
    format!("table-game-{game:06}.json")
}

/// Plays every scheduled game of the tables.
pub fn play_tables(
    store: &mut Store,
    r: &Resolved,
    opts: &RunOptions,
) -> anyhow::Result<RunSummary> {
    let _lock = runner::lock(&store.dir)?;
    let mut specs: BTreeMap<String, BotSpec> = BTreeMap::new();
    for v in store.latest_versions()? {
        specs.insert(v.bot.clone(), runner::bot_spec(&v, r)?);
    }
    let mut pending = store.table_games(Some("scheduled"))?;
    let pending_before = pending.len();
    if let Some(m) = opts.max_games {
        pending.truncate(m);
    }
    let mut jobs = VecDeque::new();
    for row in pending {
        jobs.push_back(job(row, r, &specs)?);
    }
    let total = jobs.len();
    let containment = Containment::detect();
    let cpus: Vec<usize> = containment.online_cpus().to_vec();
    let concurrency = opts
        .concurrency
        .or(r.file.concurrency)
        .unwrap_or(cpus.len().max(1))
        .clamp(1, crate::config::MAX_CONCURRENCY)
        .min(total.max(1));
    let slots = slot_cores(&cpus, concurrency, r.seats, opts.share_cores);
    let replay_dir = store.dir.join("replays");
    std::fs::create_dir_all(&replay_dir)?;
    runner::remove_partial_files(&replay_dir);
    let scratch_root = std::env::temp_dir().join(format!("arbiter-tables-{}", std::process::id()));
    let per_place = crate::tables::points_per_place(&r.file, r.seats);
    let mut points: BTreeMap<String, f64> = BTreeMap::new();
    for g in store.table_games(Some("done"))? {
        tally(&mut points, &g, &per_place);
    }

    let started = Instant::now();
    let queue = Arc::new(Mutex::new(jobs));
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Done>();
    let mut played = 0usize;
    let mut warnings: Vec<String> = containment.warnings();
    let mut first_error: Option<anyhow::Error> = None;
    let rows: BTreeMap<i64, TableGameRow> = queue
        .lock()
        .map_err(|_| anyhow::anyhow!("queue poisoned"))?
        .iter()
        .map(|j| (j.row.id, j.row.clone()))
        .collect();

    std::thread::scope(|scope| {
        for cores in slots.iter().cloned() {
            let tx = tx.clone();
            let queue = Arc::clone(&queue);
            let (containment, replay_dir, stop) = (&containment, &replay_dir, &stop);
            let observe = opts.observe.clone();
            let seats = Seats {
                cores,
                scratch_root: scratch_root.clone(),
            };
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let job = match queue.lock() {
                    Ok(mut q) => q.pop_front(),
                    Err(_) => None,
                };
                let Some(job) = job else { break };
                let done = play_one(&job, &seats, containment, replay_dir, observe.as_ref());
                let last = done.result.is_err();
                if tx.send(done).is_err() || last {
                    break;
                }
            });
        }
        drop(tx);
        for done in rx {
            for w in done.warnings {
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
            let outcome = done.result.and_then(|res| {
                let ok = storage::until_written(
                    &format!("table game {}: the result", done.id),
                    || store.record_table(done.id, &res),
                    |said| eprintln!("{said}"),
                )?;
                Ok((ok, res))
            });
            match outcome {
                Ok((true, res)) => {
                    played += 1;
                    if let Some(row) = rows.get(&done.id) {
                        let mut row = row.clone();
                        row.result = Some(res);
                        tally(&mut points, &row, &per_place);
                    }
                    if !opts.quiet && (played % (total / 20).max(1) == 0 || played == total) {
                        eprintln!(
                            "{played}/{total} games, {:.0} s, {}",
                            started.elapsed().as_secs_f64(),
                            runner::leaders(&points)
                        );
                    }
                }
                Ok((false, _)) => warnings.push(format!("game {} was already recorded", done.id)),
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    let _ = std::fs::remove_dir_all(&scratch_root);
    if let Some(e) = first_error {
        return Err(e);
    }
    Ok(RunSummary {
        played,
        pending_before,
        concurrency,
        wall: started.elapsed(),
        warnings,
    })
}

fn job(row: TableGameRow, r: &Resolved, specs: &BTreeMap<String, BotSpec>) -> anyhow::Result<Job> {
    let config: GameConfig = serde_json::from_str(&row.config)
        .with_context(|| format!("table game {}: stored configuration", row.id))?;
    let bots = row
        .seats
        .iter()
        .map(|name| {
            specs
                .get(name)
                .cloned()
                .ok_or_else(|| anyhow::anyhow!("table game {}: unknown bot {name}", row.id))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    if bots.len() != r.seats {
        anyhow::bail!(
            "table game {}: {} seats stored, the game has {}",
            row.id,
            bots.len(),
            r.seats
        );
    }
    Ok(Job {
        spec: GameSpec {
            config,
            opening: Vec::new(),
            limits: r.limits.clone(),
            event: Some(runner::event(r, row.id)),
            // Apart from the pairings' seeds: a tournament has one kind or the other.
            seed: Some(runner::seed(r, row.id)),
            max_plies: arbiter_match::game::MAX_PLIES,
        },
        bots,
        row,
    })
}

/// Plays one game (again while the machine spoils it) and writes its replay.
fn play_one(
    job: &Job,
    seats: &Seats,
    containment: &Containment,
    replay_dir: &Path,
    observe: Option<&runner::Observe>,
) -> Done {
    let t0 = Instant::now();
    let bots: Vec<&BotSpec> = job.bots.iter().collect();
    let played = game::play_unvoided(
        || {
            let mut observer = observe.and_then(|o| (o.0)(job.row.id, &job.spec, &job.bots));
            let live = Live {
                observer: observer.as_deref_mut().map(|o| o as &mut dyn Observer),
                remote: Vec::new(),
            };
            game::play_live(&job.spec, &bots, seats, containment, live)
        },
        |v| {
            eprintln!(
                "table game {}: voided: {}; playing it again",
                job.row.id, v.why
            )
        },
    );
    if let Some(v) = &played.voided {
        return Done {
            id: job.row.id,
            result: Err(anyhow::anyhow!(
                "table game {}: voided {} times, last: {}; stopped (resume plays it again)",
                job.row.id,
                game::MAX_REPLAYS + 1,
                v.why
            )),
            warnings: played.warnings,
        };
    }
    let wall = t0.elapsed();
    let result = storage::until_written(
        &format!("table game {}: the replay", job.row.id),
        || save(replay_dir, job, &played, wall),
        |said| eprintln!("{said}"),
    );
    Done {
        id: job.row.id,
        result,
        warnings: played.warnings,
    }
}

/// Writes the replay (temporary file, then rename) and reduces the game to its result.
fn save(dir: &Path, job: &Job, played: &Played, wall: Duration) -> anyhow::Result<TableResult> {
    let name = replay_file(job.row.id);
    runner::write_atomic(&dir.join(&name), played.replay.to_json().as_bytes())?;
    let result = &played.replay.result;
    Ok(TableResult {
        places: result.places(job.bots.len()).unwrap_or_default(),
        culprit: result.reason.culprit().map(|s| s.index()),
        reason_code: result.reason.code().to_string(),
        reason: result.reason.to_string(),
        moves: played.replay.moves.len() as i64,
        wall_ms: wall.as_secs_f64() * 1000.0,
        replay: Some(format!("replays/{name}")),
        finished_at: game::now_utc(),
    })
}

/// Adds a finished game's points (from its places) to each seat's bot.
pub fn tally(points: &mut BTreeMap<String, f64>, g: &TableGameRow, per_place: &[f64]) {
    let Some(res) = g.result.as_ref().filter(|r| r.counts()) else {
        return;
    };
    for (name, p) in g
        .seats
        .iter()
        .zip(crate::tables::points(&res.places, per_place))
    {
        *points.entry(name.clone()).or_default() += p;
    }
}
