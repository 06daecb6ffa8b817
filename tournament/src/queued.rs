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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use arbiter_match::game;
use arbiter_match::protocol::ProtocolKind;
use arbiter_queue::jobs::{JobKind, JobRow, NewJob};
use arbiter_queue::quarantine::Policy;
use arbiter_queue::spec::{CompetitionConfig, GameOutcome, JobBot, Run};
use arbiter_queue::worker::{Worker, WorkerOptions};
use arbiter_queue::{Db, Queue};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::config::Resolved;
use crate::queued_games::{self, Games};
use crate::runner::{self, RunSummary};
use crate::store::{Store, Version};

/// The queue a tournament was started on (`meta` key), so `resume` finds it again.
pub const QUEUE_META: &str = "queue_url";
/// The competition's name in the queue (`meta` key): unique per tournament.
const COMPETITION_META: &str = "queue_competition";
/// A bot file larger than this is refused rather than copied into the database.
pub const MAX_BOT_FILE: u64 = 64 << 20;
/// Notes on workers paused while the tournament was played (`meta` key, a JSON list): the
/// report shows them.
pub const QUARANTINE_META: &str = "queue_quarantine";
/// How often the coordinator looks for finished games.
const POLL: Duration = Duration::from_millis(300);
/// How often it looks at every job again, and judges the workers (quarantine).
const SWEEP: Duration = Duration::from_secs(30);
/// How far behind the latest settled job the next look starts.
const WATERMARK_MARGIN_MS: i64 = 10_000;

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

/// Plays the tournament through the queue: [`play_scheduled`], and for a staged format round
/// after round until its last ([`crate::staged`]).
pub async fn run(
    store: &mut Store,
    r: &Resolved,
    opts: &QueueOptions,
) -> anyhow::Result<RunSummary> {
    if r.file.format.staged() {
        return crate::staged::run_queued(store, r, opts).await;
    }
    play_scheduled(store, r, opts).await
}

/// Enqueues every scheduled game without a job, plays on this machine's slots if any, and
/// records every result as it arrives, until no game is left in the queue.
pub async fn play_scheduled(
    store: &mut Store,
    r: &Resolved,
    opts: &QueueOptions,
) -> anyhow::Result<RunSummary> {
    let _lock = runner::lock(&store.dir)?;
    store.supersede_stale()?;
    let queue = open(&opts.url).await?;
    store.set_meta(QUEUE_META, &opts.url)?;
    let competition = competition(&queue, store, r).await?;
    let games = Games::of(r);
    let jobs = reconcile(&queue, competition, store, r, &games).await?;
    let pending_before = games.scheduled(store)?;

    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let local = if opts.local_slots > 0 {
        let worker = local_worker(&queue, opts, games.seats()).await?;
        Some(tokio::spawn(worker.run(stop_rx)))
    } else {
        None
    };
    let collected = Collector::new(&queue, competition, store, games, jobs, opts.quiet)?
        .run()
        .await;
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
    // Workers on other machines fetch a game module by its hash, as they fetch bots.
    arbiter_queue::modules::store(queue.db(), &r.game).await?;
    Ok(queue
        .competition("tournament", &name, &serde_json::to_string(&config)?)
        .await?)
}

/// The job's first side names its game.
pub(crate) fn side_of(game: i64) -> String {
    format!("game {game}")
}

fn game_of(side: &str) -> Option<i64> {
    side.strip_prefix("game ")?.parse().ok()
}

/// Brings the queue in line with the tournament's schedule: a job put back in the queue for
/// a game already recorded (its result set aside by quarantine or re-judging) reopens the
/// game; a queued job of a game no longer scheduled (its bot resubmitted) is cancelled; every
/// scheduled game without a live job gets one. Returns the job of every game, by game id.
async fn reconcile(
    queue: &Queue,
    competition: i64,
    store: &mut Store,
    r: &Resolved,
    games: &Games,
) -> anyhow::Result<HashMap<i64, i64>> {
    let mut scheduled = games.ids(store, "scheduled")?;
    let done = games.ids(store, "done")?;
    let mut jobs: HashMap<i64, i64> = HashMap::new();
    for row in queue.jobs_of(competition, JobKind::Game, None).await? {
        let Some(game) = game_of(&row.side0) else {
            continue;
        };
        let live = matches!(row.state.as_str(), "queued" | "running" | "done");
        if !live {
            // Failed or cancelled: a scheduled game gets a new job below.
            continue;
        }
        if row.state != "done" && done.contains(&game) {
            games.reopen(store, game)?;
            scheduled.insert(game);
        }
        if scheduled.contains(&game) || done.contains(&game) {
            jobs.insert(game, row.id);
        } else if row.state == "queued" {
            queue.cancel_involving(competition, &row.side0).await?;
        }
    }
    let pending: HashSet<i64> = scheduled
        .into_iter()
        .filter(|g| !jobs.contains_key(g))
        .collect();
    if pending.is_empty() {
        return Ok(jobs);
    }
    let mut bots: BTreeMap<String, JobBot> = BTreeMap::new();
    for v in store.latest_versions()? {
        let bot = job_bot(queue, &v, r).await?;
        bots.insert(v.bot.clone(), bot);
    }
    let (ids, new): (Vec<i64>, Vec<NewJob>) =
        games.jobs(store, r, &bots, &pending)?.into_iter().unzip();
    let job_ids = queue.enqueue(competition, &new).await?;
    jobs.extend(ids.into_iter().zip(job_ids));
    Ok(jobs)
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

async fn local_worker(queue: &Queue, opts: &QueueOptions, seats: usize) -> anyhow::Result<Worker> {
    let containment = arbiter_sandbox::Containment::detect();
    let cpus = containment.online_cpus().to_vec();
    let base = std::env::temp_dir().join(format!("arbiter-coordinator-{}", std::process::id()));
    let mut wo = WorkerOptions::local(
        format!("{}-coordinator", arbiter_queue::worker::default_id()),
        game::slot_cores(&cpus, opts.local_slots, seats, None),
        base,
    );
    wo.kinds = vec![JobKind::Game];
    wo.lease = opts.lease;
    Ok(Worker::join(queue.clone(), wo, containment).await?)
}

/// Records results as they arrive, until every scheduled game is recorded or given up.
struct Collector<'a> {
    queue: &'a Queue,
    competition: i64,
    store: &'a mut Store,
    /// Pairings or tables.
    games: Games,
    /// The job of every game (game id -> job id), and the reverse.
    jobs: HashMap<i64, i64>,
    game_of_job: HashMap<i64, i64>,
    /// The attempt recorded for each game played through the queue.
    recorded: HashMap<i64, String>,
    /// Games given up by the queue (too many lost leases): `resume` plays them again.
    given_up: HashSet<i64>,
    replay_dir: PathBuf,
    played: usize,
    warnings: Vec<String>,
    /// Game points so far, for the progress line, and each game's seats.
    points: BTreeMap<String, f64>,
    seats: HashMap<i64, Vec<String>>,
    bar: ProgressBar,
}

impl<'a> Collector<'a> {
    fn new(
        queue: &'a Queue,
        competition: i64,
        store: &'a mut Store,
        games: Games,
        jobs: HashMap<i64, i64>,
        quiet: bool,
    ) -> anyhow::Result<Collector<'a>> {
        let replay_dir = store.dir.join("replays");
        std::fs::create_dir_all(&replay_dir)?;
        let recorded = games.attempts(store)?;
        let seats = games.seats_of_games(store)?;
        let bar = progress(seats.len(), quiet);
        let mut c = Collector {
            queue,
            competition,
            games,
            game_of_job: jobs.iter().map(|(g, j)| (*j, *g)).collect(),
            jobs,
            recorded,
            given_up: HashSet::new(),
            store,
            replay_dir,
            played: 0,
            warnings: Vec::new(),
            points: BTreeMap::new(),
            seats,
            bar,
        };
        c.count_points()?;
        Ok(c)
    }

    /// Returns the games recorded, warnings, and the time it took.
    async fn run(mut self) -> anyhow::Result<(usize, Vec<String>, Duration)> {
        let started = Instant::now();
        // Settled jobs are asked for since a watermark on the database's clock, less a margin
        // for a commit that took its time; a full sweep now and then catches anything else.
        let mut since = 0;
        let mut sweep_at = Instant::now() + SWEEP;
        while !self.finished()? {
            let mut changed = false;
            for row in self
                .queue
                .jobs_of(self.competition, JobKind::Game, Some(since))
                .await?
            {
                if let Some(t) = row.finished_at {
                    since = since.max(t - WATERMARK_MARGIN_MS);
                }
                changed |= self.settle(&row).await?;
            }
            if Instant::now() >= sweep_at {
                sweep_at = Instant::now() + SWEEP;
                since = 0;
                self.quarantine().await?;
            }
            if !changed {
                tokio::time::sleep(POLL).await;
            }
        }
        self.bar.finish_and_clear();
        let mut warnings = self.warnings;
        warnings.extend(self.given_up.iter().map(|game| {
            format!("game {game} was given up by the queue (its workers kept failing): `resume` plays it again")
        }));
        Ok((self.played, warnings, started.elapsed()))
    }

    /// Done when every scheduled game is recorded or given up.
    fn finished(&self) -> anyhow::Result<bool> {
        Ok(self.games.scheduled(self.store)? <= self.given_up.len())
    }

    /// Records a settled job's result if it is new. Returns whether anything changed.
    async fn settle(&mut self, row: &JobRow) -> anyhow::Result<bool> {
        let Some(&game) = self.game_of_job.get(&row.id) else {
            return Ok(false);
        };
        if self.jobs.get(&game) != Some(&row.id) {
            return Ok(false);
        }
        match row.state.as_str() {
            "done" => {
                if row.attempt.is_none() || self.recorded.get(&game) == row.attempt.as_ref() {
                    return Ok(false);
                }
                let Some((outcome, replay, attempt)) = self.fetch(row.id, game).await? else {
                    return Ok(false);
                };
                let again = self.recorded.contains_key(&game);
                let recorded = self
                    .games
                    .record(self.store, game, &outcome, replay, &attempt)?;
                if let Some(per_seat) = recorded {
                    if again {
                        self.count_points()?;
                    } else {
                        self.played += 1;
                        if let Some(seats) = self.seats.get(&game) {
                            queued_games::tally(&mut self.points, seats, &per_seat);
                        }
                        self.bar.inc(1);
                    }
                    self.bar.set_message(runner::leaders(&self.points));
                }
                self.recorded.insert(game, attempt);
                Ok(true)
            }
            "failed" | "cancelled" => Ok(self.given_up.insert(game)),
            _ => Ok(false),
        }
    }

    /// A committed game's outcome, with its replay written to `replays/` (its path), and its
    /// attempt.
    async fn fetch(
        &self,
        job: i64,
        game: i64,
    ) -> anyhow::Result<Option<(GameOutcome, Option<String>, String)>> {
        // Gone again if the result was set aside meanwhile: it comes back when replayed.
        let Some(stored) = self.queue.result(job).await? else {
            return Ok(None);
        };
        let o: GameOutcome = serde_json::from_str(&stored.outcome)
            .with_context(|| format!("game {game}: the stored outcome"))?;
        let replay = stored.payload.as_deref().filter(|p| !p.is_empty());
        let path = match replay {
            Some(bytes) => {
                let name = self.games.replay_file(game);
                runner::write_atomic(&self.replay_dir.join(&name), bytes)?;
                Some(format!("replays/{name}"))
            }
            None => None,
        };
        Ok(Some((o, path, stored.attempt)))
    }

    /// Pauses workers whose bots fail far more than the same bots elsewhere (see
    /// [`arbiter_queue::quarantine`]); their failed games are played again by other workers,
    /// and this tournament's report names them.
    async fn quarantine(&mut self) -> anyhow::Result<()> {
        let suspects = arbiter_queue::quarantine::check(self.queue, &Policy::default()).await?;
        for s in suspects {
            // Their old results are taken back until the games are played again.
            let mut ours = 0;
            for job in &s.replayed {
                if let Some(&game) = self.game_of_job.get(job) {
                    self.games.reopen(self.store, game)?;
                    self.recorded.remove(&game);
                    ours += 1;
                }
            }
            if ours > 0 {
                self.count_points()?;
            }
            let note = if s.voided {
                format!(
                    "worker {} was paused: {} of its {} games voided (its machine stalled or \
                     could not write to its disk), where the other workers make {:.1} expected \
                     (p = {:.1e})",
                    s.worker, s.failures, s.games, s.expected, s.p
                )
            } else {
                format!(
                    "worker {} was paused: {} time losses or crashes in {} games, where the same \
                     bots on other workers make {:.1} expected (p = {:.1e}); {ours} of this \
                     tournament's games it lost that way were played again elsewhere",
                    s.worker, s.failures, s.games, s.expected, s.p
                )
            };
            self.warnings.push(note.clone());
            let mut notes: Vec<String> = match self.store.meta(QUARANTINE_META)? {
                Some(text) => serde_json::from_str(&text).unwrap_or_default(),
                None => Vec::new(),
            };
            notes.push(note);
            self.store
                .set_meta(QUARANTINE_META, &serde_json::to_string(&notes)?)?;
        }
        Ok(())
    }

    /// Game points and games done, counted again from the store.
    fn count_points(&mut self) -> anyhow::Result<()> {
        let (points, done) = self.games.points(self.store)?;
        self.points = points;
        self.bar.set_position(done as u64);
        self.bar.set_message(runner::leaders(&self.points));
        Ok(())
    }
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
