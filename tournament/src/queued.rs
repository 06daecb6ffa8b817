//! A tournament played through the job queue (arbiter-queue): by `arbiter worker`s on any
//! number of machines, and by this machine too unless told otherwise.
//!
//! The tournament's own database (config, schedule, standings) stays in its output directory,
//! so `report`, `status` and `submit` work as for a tournament played on one machine. Each
//! scheduled game becomes one job in the queue's database, keyed by its game id (`side0` is
//! `game N`), so a coordinator killed at any point finds its jobs again when restarted: it
//! enqueues only games that have no job yet, and collects every result committed while it
//! was away. Bots travel as files by content hash; each result comes back with its replay,
//! which is written to `replays/` and recorded exactly as a game played here would be.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use arbiter_engine::any::GameConfig;
use arbiter_match::game;
use arbiter_match::protocol::ProtocolKind;
use arbiter_queue::jobs::{JobKind, JobRow, NewJob};
use arbiter_queue::spec::{CompetitionConfig, GameJob, GameOutcome, JobBot, Run};
use arbiter_queue::worker::{Worker, WorkerOptions};
use arbiter_queue::{Db, Queue};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::config::Resolved;
use crate::runner::{self, RunSummary};
use crate::store::{GameResultRow, GameRow, Store, Version};

/// The queue a tournament was started on (`meta` key), so `resume` finds it again.
pub const QUEUE_META: &str = "queue_url";
/// The competition's name in the queue (`meta` key): unique per tournament.
const COMPETITION_META: &str = "queue_competition";
/// A bot file larger than this is refused rather than copied into the database.
pub const MAX_BOT_FILE: u64 = 64 << 20;
/// How often the coordinator looks for finished games.
const POLL: Duration = Duration::from_millis(300);

#[derive(Clone, Debug)]
pub struct QueueOptions {
    /// The queue's database (`postgres://...`, or a SQLite file).
    pub url: String,
    /// Games this machine plays at once; 0: it only coordinates (`--no-local-workers`).
    pub local_slots: usize,
    /// Lease of the local worker's claims.
    pub lease: Duration,
    pub quiet: bool,
}

/// Enqueues every scheduled game without a job, plays on this machine's slots if any, and
/// records every result as it arrives, until no game is left in the queue.
pub async fn run(
    store: &mut Store,
    r: &Resolved,
    opts: &QueueOptions,
) -> anyhow::Result<RunSummary> {
    let _lock = runner::lock(&store.dir)?;
    store.supersede_stale()?;
    let queue = open(&opts.url).await?;
    store.set_meta(QUEUE_META, &opts.url)?;
    let competition = competition(&queue, store, r).await?;
    let jobs = enqueue_missing(&queue, competition, store, r).await?;
    let pending_before = jobs.len();

    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let local = if opts.local_slots > 0 {
        let worker = local_worker(&queue, opts).await?;
        Some(tokio::spawn(worker.run(stop_rx)))
    } else {
        None
    };
    let collected = collect(&queue, competition, store, jobs, opts.quiet).await;
    let _ = stop_tx.send(true);
    if let Some(handle) = local {
        handle.await.context("the local worker")??;
    }
    let (played, warnings, wall) = collected?;
    Ok(RunSummary {
        played,
        pending_before,
        concurrency: opts.local_slots,
        wall,
        warnings,
    })
}

async fn open(url: &str) -> anyhow::Result<Queue> {
    let redacted = arbiter_queue::db::redact(url);
    let db = Db::connect(url)
        .await
        .with_context(|| format!("cannot open the queue at {redacted}"))?;
    let queue = Queue::open(db).await?;
    match queue.version().await? {
        None => queue.set_version(arbiter_queue::VERSION).await?,
        Some(v) if v == arbiter_queue::VERSION => {}
        Some(v) => bail!(
            "the queue at {redacted} is run by arbiter {v}, this is arbiter {}: use the same version",
            arbiter_queue::VERSION
        ),
    }
    Ok(queue)
}

/// This tournament's competition in the queue, made on its first run.
async fn competition(queue: &Queue, store: &Store, r: &Resolved) -> anyhow::Result<i64> {
    let name = match store.meta(COMPETITION_META)? {
        Some(n) => n,
        None => {
            let created = store.meta("created_at")?.unwrap_or_default();
            let n = format!(
                "tournament {} {created}",
                r.file.name.as_deref().unwrap_or("tournament")
            );
            store.set_meta(COMPETITION_META, &n)?;
            n
        }
    };
    let config = CompetitionConfig {
        game: r.game.clone(),
        limits: r.file.limits.clone(),
    };
    Ok(queue
        .competition("tournament", &name, &serde_json::to_string(&config)?)
        .await?)
}

/// The job's first side names its game.
fn side_of(game: i64) -> String {
    format!("game {game}")
}

fn game_of(side: &str) -> Option<i64> {
    side.strip_prefix("game ")?.parse().ok()
}

/// Puts in the queue every scheduled game that has no job there, or whose job was given up.
/// Returns the job of every scheduled game.
async fn enqueue_missing(
    queue: &Queue,
    competition: i64,
    store: &Store,
    r: &Resolved,
) -> anyhow::Result<HashMap<i64, i64>> {
    let mut jobs: HashMap<i64, i64> = HashMap::new();
    for JobRow { id, side0, state } in queue.jobs_of(competition, JobKind::Game, false).await? {
        if let (Some(game), "queued" | "running" | "done") = (game_of(&side0), state.as_str()) {
            jobs.insert(game, id);
        }
    }
    let pending: Vec<GameRow> = store
        .games(Some("scheduled"))?
        .into_iter()
        .filter(|g| !jobs.contains_key(&g.id))
        .collect();
    let mut bots: BTreeMap<String, JobBot> = BTreeMap::new();
    for v in store.latest_versions()? {
        let bot = job_bot(queue, &v, r).await?;
        bots.insert(v.bot.clone(), bot);
    }
    let mut new = Vec::with_capacity(pending.len());
    for g in &pending {
        new.push(game_job(g, r, &bots)?);
    }
    let ids = queue.enqueue(competition, &new).await?;
    jobs.extend(pending.iter().map(|g| g.id).zip(ids));
    let scheduled: std::collections::HashSet<i64> = store
        .games(Some("scheduled"))?
        .iter()
        .map(|g| g.id)
        .collect();
    jobs.retain(|game, _| scheduled.contains(game));
    Ok(jobs)
}

/// One scheduled game as a job: what `runner::run` would play, seed and event included.
fn game_job(g: &GameRow, r: &Resolved, bots: &BTreeMap<String, JobBot>) -> anyhow::Result<NewJob> {
    let config: GameConfig = serde_json::from_str(&g.config)
        .with_context(|| format!("game {}: stored configuration", g.id))?;
    let bot = |name: &str| {
        bots.get(name)
            .cloned()
            .with_context(|| format!("game {}: unknown bot {name}", g.id))
    };
    let spec = GameJob {
        bots: [bot(&g.seats[0])?, bot(&g.seats[1])?],
        opening: g
            .opening
            .and_then(|o| r.openings.get(o as usize).cloned())
            .unwrap_or_default(),
        game: Some(config),
        event: Some(runner::event(r, g.id)),
        seed: Some(runner::seed(r, g.id)),
    };
    Ok(NewJob {
        lane: "schedule".into(),
        kind: JobKind::Game,
        spec: serde_json::to_string(&spec)?,
        sides: [side_of(g.id), format!("{} - {}", g.seats[0], g.seats[1])],
        // Higher first: the schedule's order.
        priority: -g.order,
    })
}

/// A bot version as a worker on another machine can start it: arbiter's own bots by name,
/// others as the one file their command names, uploaded by content hash.
async fn job_bot(queue: &Queue, v: &Version, r: &Resolved) -> anyhow::Result<JobBot> {
    let protocol = match &v.protocol {
        Some(p) => p.parse::<ProtocolKind>().map_err(anyhow::Error::msg)?,
        None => r.protocol,
    };
    let run = if v.command == "builtin" || v.command.starts_with("builtin:") {
        Run::Builtin {
            spec: v.command.clone(),
        }
    } else {
        let dir = match &v.dir {
            Some(d) => r.base_dir.join(d),
            None => r.base_dir.clone(),
        };
        let (file, command) = bot_file(&v.bot, &v.command, &dir)?;
        let bytes =
            read_bounded(&file).with_context(|| format!("bot {}: {}", v.bot, file.display()))?;
        let hash = arbiter_queue::artefacts::put(queue.db(), &bytes).await?;
        Run::Artefact { hash, command }
    };
    Ok(JobBot {
        name: v.bot.clone(),
        protocol,
        run,
    })
}

/// The one file a bot's command names (its program, or the script an interpreter runs), and
/// the command with that word replaced by `{file}`.
pub fn bot_file(bot: &str, command: &str, dir: &Path) -> anyhow::Result<(PathBuf, String)> {
    let words =
        shell_words::split(command).with_context(|| format!("bot {bot}: command {command:?}"))?;
    let files: Vec<usize> = (0..words.len())
        .filter(|&i| dir.join(&words[i]).is_file())
        .collect();
    let i = match files.as_slice() {
        [i] => *i,
        [] => bail!(
            "bot {bot}: its command {command:?} names no file in {}, so workers on other \
             machines cannot run it: give it as a program or a script file (`./bot`, \
             `python3 bot.py`)",
            dir.display()
        ),
        _ => bail!(
            "bot {bot}: its command {command:?} names {} files in {}; a bot played on workers \
             is one file (a program, or one script)",
            files.len(),
            dir.display()
        ),
    };
    let command = words
        .iter()
        .enumerate()
        .map(|(k, w)| {
            if k == i {
                "{file}".to_string()
            } else {
                shell_words::quote(w).into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    Ok((dir.join(&words[i]), command))
}

fn read_bounded(path: &Path) -> anyhow::Result<Vec<u8>> {
    let len = std::fs::metadata(path)?.len();
    if len > MAX_BOT_FILE {
        bail!(
            "{len} bytes: more than the limit of {} MiB for a bot file",
            MAX_BOT_FILE >> 20
        );
    }
    Ok(std::fs::read(path)?)
}

async fn local_worker(queue: &Queue, opts: &QueueOptions) -> anyhow::Result<Worker> {
    let containment = arbiter_sandbox::Containment::detect();
    let cpus = containment.online_cpus().to_vec();
    let base = std::env::temp_dir().join(format!("arbiter-coordinator-{}", std::process::id()));
    let mut wo = WorkerOptions::local(
        format!("{}-coordinator", arbiter_queue::worker::default_id()),
        game::slot_cores(&cpus, opts.local_slots, None),
        base,
    );
    wo.kinds = vec![JobKind::Game];
    wo.lease = opts.lease;
    Ok(Worker::join(queue.clone(), wo, containment).await?)
}

/// Records results as they arrive until every job in `jobs` (game id -> job id) is settled.
/// Returns the games recorded, warnings, and the time it took.
async fn collect(
    queue: &Queue,
    competition: i64,
    store: &mut Store,
    mut jobs: HashMap<i64, i64>,
    quiet: bool,
) -> anyhow::Result<(usize, Vec<String>, Duration)> {
    let started = Instant::now();
    let total = jobs.len();
    let bar = progress(total, quiet);
    let mut points: BTreeMap<String, f64> = BTreeMap::new();
    for g in store.games(Some("done"))? {
        if let Some(res) = &g.result {
            runner::tally(&mut points, &g.seats, res.winner);
        }
    }
    let seats: HashMap<i64, [String; 2]> = store
        .games(Some("scheduled"))?
        .into_iter()
        .map(|g| (g.id, g.seats))
        .collect();
    let replay_dir = store.dir.join("replays");
    std::fs::create_dir_all(&replay_dir)?;
    let mut played = 0;
    let mut warnings = Vec::new();
    while !jobs.is_empty() {
        let by_job: HashMap<i64, i64> = jobs.iter().map(|(g, j)| (*j, *g)).collect();
        let mut settled = 0;
        for row in queue.jobs_of(competition, JobKind::Game, true).await? {
            let Some(&game) = by_job.get(&row.id) else {
                continue;
            };
            match row.state.as_str() {
                "done" => {
                    let res = fetch(queue, row.id, game, &replay_dir).await?;
                    if store.record(game, &res)? {
                        played += 1;
                        if let Some(s) = seats.get(&game) {
                            runner::tally(&mut points, s, res.winner);
                        }
                    }
                }
                "failed" | "cancelled" => warnings.push(format!(
                    "game {game} was given up by the queue ({}): `resume` plays it again",
                    row.state
                )),
                _ => continue,
            }
            jobs.remove(&game);
            settled += 1;
        }
        if settled > 0 {
            bar.set_position((total - jobs.len()) as u64);
            bar.set_message(runner::leaders(&points));
        } else {
            tokio::time::sleep(POLL).await;
        }
    }
    bar.finish_and_clear();
    Ok((played, warnings, started.elapsed()))
}

/// A committed game's result, with its replay written to `replay_dir`.
async fn fetch(
    queue: &Queue,
    job: i64,
    game: i64,
    replay_dir: &Path,
) -> anyhow::Result<GameResultRow> {
    let stored = queue
        .result(job)
        .await?
        .with_context(|| format!("game {game}: job {job} is done but has no result"))?;
    let o: GameOutcome = serde_json::from_str(&stored.outcome)
        .with_context(|| format!("game {game}: the stored outcome"))?;
    let replay = stored.payload.as_deref().filter(|p| !p.is_empty());
    let path = match replay {
        Some(bytes) => {
            let name = runner::replay_file(game);
            runner::write_atomic(&replay_dir.join(&name), bytes)?;
            Some(format!("replays/{name}"))
        }
        None => None,
    };
    Ok(GameResultRow {
        winner: o.winner,
        reason_code: o.reason,
        reason: o.verdict,
        culprit: o.culprit,
        moves: i64::from(o.moves),
        think_ms: o.think_ms,
        timed_moves: o.moves_by.map(i64::from),
        scores: o.scores,
        wall_ms: o.wall_ms,
        replay: path,
        finished_at: game::now_utc(),
    })
}

fn progress(total: usize, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    b.set_style(
        ProgressStyle::with_template("[{bar:25}] {pos}/{len} games on the queue | {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_is_the_one_file_its_command_names() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.py"), "print()").unwrap();
        std::fs::write(dir.path().join("rbot"), "").unwrap();
        let (f, c) = bot_file("a", "python3 -u bot.py --level 'two words'", dir.path()).unwrap();
        assert_eq!(f, dir.path().join("bot.py"));
        assert_eq!(c, "python3 -u {file} --level 'two words'");
        let (f, c) = bot_file("b", "./rbot 8 3", dir.path()).unwrap();
        assert_eq!(f, dir.path().join("./rbot"));
        assert_eq!(c, "{file} 8 3");
        let e = bot_file("c", "python3 -c 'print(1)'", dir.path()).unwrap_err();
        assert!(e.to_string().contains("names no file"), "{e}");
        let e = bot_file("d", "./rbot bot.py", dir.path()).unwrap_err();
        assert!(e.to_string().contains("names 2 files"), "{e}");
    }

    #[test]
    fn a_game_is_found_again_by_its_side() {
        assert_eq!(game_of(&side_of(42)), Some(42));
        assert_eq!(game_of("submission 42"), None);
        assert_eq!(game_of("game x"), None);
    }
}
