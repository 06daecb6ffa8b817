//! A judging worker: registers itself, then each of its slots claims a job under a lease,
//! fetches the bots (and a game module) by hash, plays the game (or compiles) under the same containment and
//! limits as a local match, heartbeats while it plays, and commits the replay and the outcome
//! exactly once. Workers keep no state: everything they need comes from the database.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_engine::any::GameConfig;
use arbiter_match::game::{self, BotSpec, GameSpec, Seats};
use arbiter_match::live::{Live, Observer, RemoteSeat};
use arbiter_sandbox::Containment;
use tokio::sync::{mpsc, watch, Mutex, Notify};

use crate::artefacts::Cache;
use crate::jobs::{Claimed, Commit, JobKind, Queue};
use crate::spec::{CompetitionConfig, CompileJob, GameJob, GameOutcome, JobBot, Run};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Unique among the queue's workers.
    pub id: String,
    /// Cores of each slot: one game (or compile) at a time per slot.
    /// The cores of each slot's seats (a game of more seats than a slot lists shares them).
    pub slots: Vec<Vec<Option<usize>>>,
    /// How long a claim holds without a heartbeat.
    pub lease: Duration,
    /// How often an idle slot looks for work (a [`Notify`] wakes it sooner).
    pub poll: Duration,
    /// Which jobs to take.
    pub kinds: Vec<JobKind>,
    /// Where fetched artefacts are kept.
    pub cache_dir: PathBuf,
    /// Where bots' scratch directories and builds go.
    pub scratch_dir: PathBuf,
    /// This build's version; the queue refuses workers of another version.
    pub version: String,
    /// Compilers and interpreters found on this machine (shown by `arbiter workers`).
    pub toolchains: Vec<String>,
    /// Stop after this many jobs (for tests and benchmarks).
    pub max_jobs: Option<usize>,
    /// Stop when the queue has been empty for this long.
    pub exit_when_idle: Option<Duration>,
}

impl WorkerOptions {
    /// Defaults for `slots` slots on this machine.
    pub fn local(id: String, slots: Vec<Vec<Option<usize>>>, base: PathBuf) -> WorkerOptions {
        WorkerOptions {
            id,
            slots,
            lease: Duration::from_secs(60),
            poll: Duration::from_millis(500),
            kinds: vec![JobKind::Compile, JobKind::Game, JobKind::TestGame],
            cache_dir: base.join("artefacts"),
            scratch_dir: base.join("scratch"),
            version: crate::VERSION.to_string(),
            toolchains: toolchains(),
            max_jobs: None,
            exit_when_idle: None,
        }
    }
}

/// What a worker did, for progress displays.
#[derive(Clone, Debug)]
pub enum WorkerEvent {
    Started {
        job: i64,
        kind: JobKind,
    },
    Finished {
        job: i64,
        outcome: String,
        committed: bool,
    },
    /// A job could not be run at all (bad spec, missing artefact): set to `failed`.
    Failed {
        job: i64,
        error: String,
    },
    /// The machine spoiled the job (a stall, a storage fault): back in the queue, no result.
    Voided {
        job: i64,
        why: String,
    },
}

/// What one turn of a slot came to.
enum Step {
    /// A job finished: committed, set aside, or failed for good.
    Done,
    /// Nothing to claim.
    Empty,
    /// The worker is quarantined.
    Paused,
    /// A game voided by a stall went back to the queue: claim again at once.
    Again,
    /// The database or the disk is in trouble (in words, and the error): back off.
    Trouble(String, String),
}

/// Why a claimed job could not be prepared.
enum Unready {
    /// Its own fault (an unreadable spec, a missing artefact): it fails for good.
    Job(String),
    /// The machine's (a disk that cannot be written): it goes back to the queue.
    Machine(String),
    /// The database's: the slot waits it out, the job's lease runs out.
    Db(sqlx::Error),
}

impl Unready {
    /// Sorts a queue error met while preparing.
    fn of(e: crate::Error, context: &str) -> Unready {
        match e {
            crate::Error::Sql(e) if crate::health::transient(&e).is_some() => Unready::Db(e),
            crate::Error::Io(io) => match arbiter_match::game::storage_fault(&io) {
                Some(what) => Unready::Machine(arbiter_match::game::disk_fault(what)),
                None => Unready::Job(format!("{context}: {io}")),
            },
            other => Unready::Job(format!("{context}: {other}")),
        }
    }
}

/// Makes what follows a game a worker is about to play: a live hub's observer, the seats
/// people play through it.
pub type Observe = Arc<dyn Fn(&Claimed, &GameSpec, &[BotSpec]) -> Followed + Send + Sync>;

/// What follows one game ([`Observe`]).
#[derive(Default)]
pub struct Followed {
    pub observer: Option<Box<dyn Observer>>,
    /// One entry per seat: `Some` for a seat a person plays ([`Run::Person`]).
    pub remote: Vec<Option<RemoteSeat>>,
    /// Called on the game's thread before the game starts: waits for the people to come, so
    /// that no clock runs while nobody is there to play.
    pub ready: Option<Box<dyn FnOnce() + Send>>,
}

impl From<Option<Box<dyn Observer>>> for Followed {
    fn from(observer: Option<Box<dyn Observer>>) -> Followed {
        Followed {
            observer,
            ..Followed::default()
        }
    }
}

/// The clocks of a person's seat: a minute a move, half an hour a game.
pub fn person_time() -> arbiter_match::game::TimeControl {
    arbiter_match::game::TimeControl {
        handshake: Duration::from_secs(5),
        per_move: Some(Duration::from_secs(60)),
        per_game: Some(Duration::from_secs(30 * 60)),
        tolerance: Duration::from_millis(500),
    }
}

/// Why a worker cannot join a queue.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    #[error("this worker runs arbiter {mine}, but the queue at {url} is run by arbiter {theirs}: install arbiter {theirs} on this machine")]
    Version {
        mine: String,
        theirs: String,
        url: String,
    },
    #[error("a worker named {0:?} is already active on this queue: give this one another --id")]
    Duplicate(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A registered worker.
pub struct Worker {
    queue: Queue,
    opts: WorkerOptions,
    containment: Arc<Containment>,
    cache: Cache,
    configs: Mutex<HashMap<i64, CompetitionConfig>>,
    wake: Arc<Notify>,
    events: Option<mpsc::UnboundedSender<WorkerEvent>>,
    observe: Option<Observe>,
}

impl Worker {
    /// Registers the worker on the queue. Refused when the queue was set up by another
    /// version, or when an active worker already has this id.
    ///
    /// A database that is locked, restarting, unreachable or cannot be written is waited
    /// out (said on stderr), as a running worker waits it out: a worker started while its
    /// database is down joins once it is up.
    pub async fn join(
        queue: Queue,
        mut opts: WorkerOptions,
        containment: Containment,
    ) -> Result<Worker, JoinError> {
        // Bots and compilers start in directories of their own: every path handed to them
        // must be absolute.
        opts.cache_dir = std::path::absolute(&opts.cache_dir)?;
        opts.scratch_dir = std::path::absolute(&opts.scratch_dir)?;
        let mut failures = 0u32;
        loop {
            match Self::register(&queue, &opts).await {
                Err(JoinError::Db(e)) if crate::health::transient(&e).is_some() => {
                    failures += 1;
                    let wait = crate::health::backoff(failures);
                    eprintln!(
                        "worker {}: cannot join yet ({e}); retrying in {:.1} s",
                        opts.id,
                        wait.as_secs_f64()
                    );
                    tokio::time::sleep(wait).await;
                }
                other => {
                    other?;
                    break;
                }
            }
        }
        let cache = Cache::new(&opts.cache_dir)?;
        std::fs::create_dir_all(&opts.scratch_dir)?;
        Ok(Worker {
            queue,
            opts,
            containment: Arc::new(containment),
            cache,
            configs: Mutex::new(HashMap::new()),
            wake: Arc::new(Notify::new()),
            events: None,
            observe: None,
        })
    }

    /// The version check and the registration of [`Worker::join`].
    async fn register(queue: &Queue, opts: &WorkerOptions) -> Result<(), JoinError> {
        if let Some(theirs) = queue.version().await? {
            if theirs != opts.version {
                return Err(JoinError::Version {
                    mine: opts.version.clone(),
                    theirs,
                    url: queue.db().url().to_string(),
                });
            }
        }
        crate::workers::register(queue, opts).await
    }

    /// Sends progress to `tx`.
    pub fn with_events(mut self, tx: mpsc::UnboundedSender<WorkerEvent>) -> Worker {
        self.events = Some(tx);
        self
    }

    /// Lets every game be followed live: `observe` makes each game's observer.
    pub fn with_observer(mut self, observe: Observe) -> Worker {
        self.observe = Some(observe);
        self
    }

    /// A handle that wakes idle slots at once (a local server calls it after enqueuing).
    pub fn waker(&self) -> Arc<Notify> {
        Arc::clone(&self.wake)
    }

    pub fn id(&self) -> &str {
        &self.opts.id
    }

    /// Runs until `stop` turns true (jobs in progress finish and commit first), the worker
    /// is paused, or an exit condition of the options is met. Returns the jobs it finished.
    pub async fn run(self, stop: watch::Receiver<bool>) -> Result<usize, sqlx::Error> {
        let me = Arc::new(self);
        let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let beat = tokio::spawn(Arc::clone(&me).beat(stop.clone()));
        let mut slots = Vec::new();
        for slot in 0..me.opts.slots.len() {
            slots.push(tokio::spawn(Arc::clone(&me).slot(
                slot,
                stop.clone(),
                Arc::clone(&done),
            )));
        }
        let mut first_error = None;
        for s in slots {
            match s.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    first_error.get_or_insert(e);
                }
                Err(join) => {
                    first_error.get_or_insert(sqlx::Error::Protocol(format!(
                        "a worker slot ended abnormally: {join}"
                    )));
                }
            }
        }
        beat.abort();
        crate::workers::set_state(&me.queue, &me.opts.id, "gone", None).await?;
        match first_error {
            Some(e) => Err(e),
            None => Ok(done.load(std::sync::atomic::Ordering::Relaxed)),
        }
    }

    /// The worker's own heartbeat: `seen_at`, and expired leases of others put back.
    async fn beat(self: Arc<Self>, mut stop: watch::Receiver<bool>) {
        let every = (self.opts.lease / 4).max(Duration::from_millis(200));
        loop {
            let trouble = crate::health::held_up();
            let _ = crate::workers::seen(&self.queue, &self.opts.id, trouble, every * 3).await;
            let _ = self.queue.requeue_expired().await;
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                _ = stop.changed() => return,
            }
        }
    }

    async fn slot(
        self: Arc<Self>,
        slot: usize,
        stop: watch::Receiver<bool>,
        done: Arc<std::sync::atomic::AtomicUsize>,
    ) -> Result<(), sqlx::Error> {
        let mut idle_since = Instant::now();
        let mut failures = 0u32;
        loop {
            if *stop.borrow() {
                return Ok(());
            }
            if let Some(max) = self.opts.max_jobs {
                if done.load(std::sync::atomic::Ordering::Relaxed) >= max {
                    return Ok(());
                }
            }
            let step = match self.step(slot).await {
                Ok(step) => step,
                // A database that is locked, restarting, unreachable or cannot be written:
                // wait it out, for as long as it takes. Nothing is lost meanwhile: a held
                // job's lease runs out and the job goes back to the queue. An error no rule
                // knows is waited out too: a slot that ended would stop judging for good,
                // and a job that keeps failing is given up after its attempts.
                Err(e) => Step::Trouble(
                    crate::health::transient(&e)
                        .unwrap_or(crate::health::DB_ERROR)
                        .to_string(),
                    e.to_string(),
                ),
            };
            match step {
                Step::Done => {
                    crate::health::clear();
                    failures = 0;
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    idle_since = Instant::now();
                }
                Step::Empty => {
                    crate::health::clear();
                    failures = 0;
                    if let Some(limit) = self.opts.exit_when_idle {
                        if idle_since.elapsed() >= limit {
                            return Ok(());
                        }
                    }
                    self.idle(&stop).await;
                }
                Step::Paused => self.idle(&stop).await,
                Step::Again => {}
                Step::Trouble(what, detail) => {
                    failures += 1;
                    crate::health::trouble(&what);
                    let wait = crate::health::backoff(failures);
                    eprintln!(
                        "worker {} slot {slot}: {what} ({detail}); retrying in {:.1} s",
                        self.opts.id,
                        wait.as_secs_f64()
                    );
                    self.pause(&stop, wait).await;
                    idle_since = Instant::now();
                }
            }
        }
    }

    /// One turn of a slot: claim a job and run it to its commit (or its void).
    async fn step(&self, slot: usize) -> Result<Step, sqlx::Error> {
        let state = crate::health::watched(crate::workers::state(&self.queue, &self.opts.id));
        if state.await?.as_deref() == Some("paused") {
            // Quarantined: no new work until a person resumes it.
            return Ok(Step::Paused);
        }
        let claim = self
            .queue
            .claim(&self.opts.id, &self.opts.kinds, self.opts.lease);
        let claimed = crate::health::watched(claim).await?;
        let Some(job) = claimed else {
            return Ok(Step::Empty);
        };
        self.emit(WorkerEvent::Started {
            job: job.id,
            kind: job.kind,
        });
        self.run_job(slot, &job).await
    }

    /// Waits `wait`, or less if the worker is stopped.
    async fn pause(&self, stop: &watch::Receiver<bool>, wait: Duration) {
        let mut stop = stop.clone();
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = stop.changed() => {}
        }
    }

    async fn idle(&self, stop: &watch::Receiver<bool>) {
        let mut stop = stop.clone();
        tokio::select! {
            _ = tokio::time::sleep(self.opts.poll) => {}
            _ = self.wake.notified() => {}
            _ = stop.changed() => {}
        }
    }

    fn emit(&self, e: WorkerEvent) {
        if let Some(tx) = &self.events {
            let _ = tx.send(e);
        }
    }

    async fn run_job(&self, slot: usize, job: &Claimed) -> Result<Step, sqlx::Error> {
        let prepared = match job.kind {
            JobKind::Game | JobKind::TestGame | JobKind::PersonGame => self
                .prepare_game(slot, job)
                .await
                .map(|g| Prepared::Game(Box::new(g))),
            JobKind::Compile => self.prepare_compile(slot, job).await.map(Prepared::Compile),
        };
        let prepared = match prepared {
            Ok(p) => p,
            Err(Unready::Machine(why)) => return self.void(job, &why, true).await,
            Err(Unready::Db(e)) => return Err(e),
            Err(Unready::Job(error)) => {
                crate::workers::fail_job(&self.queue, job, &self.opts.id, &error).await?;
                self.emit(WorkerEvent::Failed { job: job.id, error });
                return Ok(Step::Done);
            }
        };
        let containment = Arc::clone(&self.containment);
        let work = tokio::task::spawn_blocking(move || prepared.run(&containment));
        let (outcome, payload, artefact) = match self.heartbeat_until(job, work).await? {
            Finished::Done {
                outcome,
                payload,
                artefact,
            } => (outcome, payload, artefact),
            Finished::Void { why, storage } => return self.void(job, &why, storage).await,
        };
        let commit = self
            .commit_patiently(job, &outcome, payload.as_deref(), artefact.as_deref())
            .await?;
        self.emit(WorkerEvent::Finished {
            job: job.id,
            outcome,
            committed: commit == Commit::Committed,
        });
        Ok(Step::Done)
    }

    /// Commits a played job, waiting out a locked, restarting or full database: the game was
    /// played, and playing it again costs more than waiting. Retried for as long as the
    /// fault lasts: the commit checks the lease's token, not its deadline, so a commit that
    /// comes after the lease ran out still counts unless the job was given to another
    /// worker meanwhile, and then it is set aside (never counted twice).
    async fn commit_patiently(
        &self,
        job: &Claimed,
        outcome: &str,
        payload: Option<&[u8]>,
        artefact: Option<&[u8]>,
    ) -> Result<Commit, sqlx::Error> {
        let mut failures = 0u32;
        loop {
            let tried = crate::health::watched(async {
                if let Some(bytes) = artefact {
                    crate::artefacts::put(self.queue.db(), bytes).await?;
                }
                self.queue
                    .commit(job, &self.opts.id, outcome, payload)
                    .await
            })
            .await;
            match tried {
                Ok(c) => return Ok(c),
                Err(e) => {
                    let Some(what) = crate::health::transient(&e) else {
                        return Err(e);
                    };
                    failures += 1;
                    crate::health::trouble(what);
                    eprintln!(
                        "worker {}: job {}: {what} ({e}); retrying the commit",
                        self.opts.id, job.id
                    );
                    tokio::time::sleep(crate::health::backoff(failures)).await;
                    // Kept alive meanwhile where the database lets it (a write that may
                    // fit where the commit's did not): the commit then finds it still its own.
                    let _ = self
                        .queue
                        .heartbeat(job.id, &job.lease_token, self.opts.lease)
                        .await;
                }
            }
        }
    }

    /// Gives a job the machine spoiled back to the queue (never a result), and says why. A
    /// storage fault lasts: the slot backs off before it claims again.
    async fn void(&self, job: &Claimed, why: &str, storage: bool) -> Result<Step, sqlx::Error> {
        eprintln!("worker {}: job {} voided: {why}", self.opts.id, job.id);
        self.queue.void(job, &self.opts.id, why).await?;
        self.emit(WorkerEvent::Voided {
            job: job.id,
            why: why.to_string(),
        });
        Ok(match storage {
            true => Step::Trouble(crate::health::DISK.into(), why.to_string()),
            false => Step::Again,
        })
    }

    /// Renews the lease while the blocking work runs.
    async fn heartbeat_until(
        &self,
        job: &Claimed,
        mut work: tokio::task::JoinHandle<Finished>,
    ) -> Result<Finished, sqlx::Error> {
        let every = (self.opts.lease / 4).max(Duration::from_millis(100));
        loop {
            tokio::select! {
                result = &mut work => {
                    return result.map_err(|e| sqlx::Error::Protocol(format!("job {} panicked: {e}", job.id)));
                }
                _ = tokio::time::sleep(every) => {
                    // A lost lease is not an error here: the commit will be discarded and
                    // recorded; the game cannot be interrupted cleanly mid-move anyway.
                    let _ = self.queue.heartbeat(job.id, &job.lease_token, self.opts.lease).await;
                }
            }
        }
    }

    async fn config(&self, competition: i64) -> Result<CompetitionConfig, Unready> {
        if let Some(c) = self.configs.lock().await.get(&competition) {
            return Ok(c.clone());
        }
        let text = self
            .queue
            .competition_config(competition)
            .await
            .map_err(|e| Unready::of(e.into(), "the competition"))?
            .ok_or_else(|| Unready::Job(format!("competition {competition} does not exist")))?;
        let config: CompetitionConfig = serde_json::from_str(&text).map_err(|e| {
            Unready::Job(format!(
                "competition {competition}: unreadable configuration: {e}"
            ))
        })?;
        self.configs
            .lock()
            .await
            .insert(competition, config.clone());
        Ok(config)
    }

    async fn prepare_game(&self, slot: usize, job: &Claimed) -> Result<PreparedGame, Unready> {
        let spec: GameJob = serde_json::from_str(&job.spec)
            .map_err(|e| Unready::Job(format!("job {}: unreadable game: {e}", job.id)))?;
        let voided = self
            .queue
            .voids_of(job.id)
            .await
            .map_err(|e| Unready::of(e.into(), "the job's events"))?;
        let competition = self.config(job.competition).await?;
        let config = spec.game.clone().unwrap_or(competition.game);
        // A module game's rules come from the database the first time (this machine may
        // never have seen the module's file); the built-in bots load them from the cache.
        crate::modules::fetch(&self.cache, self.queue.db(), &config)
            .await
            .map_err(|e| Unready::of(e, "the game"))?;
        let mut limits = competition.limits.apply(&config);
        let people: Vec<bool> = spec
            .bots
            .iter()
            .map(|b| matches!(b.run, Run::Person))
            .collect();
        if people.contains(&true) {
            limits.person_time = Some(person_time());
        }
        let mut bots = Vec::with_capacity(spec.bots.len());
        for bot in &spec.bots {
            bots.push(self.bot_spec(bot, &config).await?);
        }
        let spec = GameSpec {
            config,
            opening: spec.opening,
            limits,
            event: spec.event,
            // Else the job's id: unique, and kept with the job.
            seed: Some(
                spec.seed
                    .unwrap_or_else(|| arbiter_match::series::game_seed(job.id as u64, 0)),
            ),
            max_plies: arbiter_match::game::MAX_PLIES,
        };
        let followed = match &self.observe {
            Some(f) => f(job, &spec, &bots),
            None => Followed::default(),
        };
        for (i, person) in people.iter().enumerate() {
            let played = followed.remote.get(i).is_some_and(Option::is_some);
            if *person && !played {
                return Err(Unready::Job(format!(
                    "job {}: seat {} is a person's, and this worker hosts no live game for them",
                    job.id,
                    i + 1
                )));
            }
        }
        let cores = slot_seat_cores(&self.opts.slots[slot], bots.len());
        Ok(PreparedGame {
            spec,
            bots,
            seats: Seats {
                cores,
                scratch_root: self.opts.scratch_dir.join(format!("slot{slot}")),
            },
            observer: followed.observer,
            remote: followed.remote,
            ready: followed.ready,
            voided: voided
                .into_iter()
                .map(|why| format!("voided: {why}"))
                .collect(),
            private: vec![
                (self.opts.cache_dir.display().to_string(), "<artefacts>"),
                (self.opts.scratch_dir.display().to_string(), "<scratch>"),
            ],
        })
    }

    async fn bot_spec(&self, bot: &JobBot, config: &GameConfig) -> Result<BotSpec, Unready> {
        let (command, working_dir, sees) = match &bot.run {
            Run::Artefact { hash, command } => {
                let path = self
                    .cache
                    .fetch(self.queue.db(), hash)
                    .await
                    .map_err(|e| Unready::of(e, &format!("bot {}", bot.name)))?;
                let quoted = shell_words::quote(&path.to_string_lossy()).into_owned();
                // Its own artefact, and nothing else of the store.
                (command.replace("{file}", &quoted), None, Some(vec![path]))
            }
            Run::Command { command, dir } => (command.clone(), dir.clone(), None),
            // Never run: the seat is played through the live hub (`Followed::remote`).
            Run::Person => (arbiter_match::live::PERSON_COMMAND.to_string(), None, None),
            Run::Builtin { spec } => {
                let s = arbiter_match::spec::bot_spec(
                    spec,
                    Some(&bot.name),
                    bot.protocol,
                    config,
                    &bot.name,
                )
                .map_err(|e| Unready::Job(format!("bot {}: {e:#}", bot.name)))?;
                (s.command, None, s.sees)
            }
        };
        Ok(BotSpec {
            name: bot.name.clone(),
            command,
            protocol: bot.protocol,
            working_dir,
            sees,
        })
    }

    async fn prepare_compile(
        &self,
        slot: usize,
        job: &Claimed,
    ) -> Result<PreparedCompile, Unready> {
        let spec: CompileJob = serde_json::from_str(&job.spec)
            .map_err(|e| Unready::Job(format!("job {}: unreadable compile: {e}", job.id)))?;
        let source = crate::artefacts::get(self.queue.db(), &spec.source)
            .await
            .map_err(|e| Unready::of(e, "the source"))?
            .ok_or_else(|| {
                Unready::Job(format!(
                    "job {}: the source {} is missing",
                    job.id, spec.source
                ))
            })?;
        Ok(PreparedCompile {
            spec,
            source,
            scratch: self
                .opts
                .scratch_dir
                .join(format!("build-{}-{slot}-{}", job.id, job.attempt)),
        })
    }
}

/// What a job's blocking work came to.
enum Finished {
    /// Outcome JSON, payload, and an artefact to store.
    Done {
        outcome: String,
        payload: Option<Vec<u8>>,
        artefact: Option<Vec<u8>>,
    },
    /// The machine spoiled it: no result (see [`arbiter_match::game::Voided`]).
    Void { why: String, storage: bool },
}

enum Prepared {
    Game(Box<PreparedGame>),
    Compile(PreparedCompile),
}

struct PreparedGame {
    spec: GameSpec,
    bots: Vec<BotSpec>,
    seats: Seats,
    observer: Option<Box<dyn Observer>>,
    remote: Vec<Option<RemoteSeat>>,
    ready: Option<Box<dyn FnOnce() + Send>>,
    /// Why earlier attempts were voided, for the replay.
    voided: Vec<String>,
    /// This machine's directories, as results must not show them: (path, what to say).
    private: Vec<(String, &'static str)>,
}

/// The cores of a game of `seats` seats in a slot of these cores: each seat its own where the
/// slot has enough, else they take turns.
fn slot_seat_cores(slot: &[Option<usize>], seats: usize) -> Vec<Option<usize>> {
    (0..seats)
        .map(|s| match slot.len() {
            0 => None,
            n => slot[s % n],
        })
        .collect()
}

/// `text` without this machine's directories: results and replays are shown to students and
/// visitors, and a verdict ("failed to start: /srv/contest/work/artefacts/...") must not
/// carry the server's paths. JSON writes such paths as they are (a path holding a quote or a
/// backslash, which JSON escapes, is left as it is).
fn redact(text: String, private: &[(String, &'static str)]) -> String {
    private
        .iter()
        .filter(|(path, _)| path.len() > 1)
        .fold(text, |t, (path, name)| t.replace(path.as_str(), name))
}

struct PreparedCompile {
    spec: CompileJob,
    source: Vec<u8>,
    scratch: PathBuf,
}

impl Prepared {
    fn run(self, containment: &Containment) -> Finished {
        match self {
            Prepared::Game(mut g) => {
                if let Some(ready) = g.ready.take() {
                    ready();
                }
                let t0 = Instant::now();
                let live = Live {
                    observer: g.observer.as_deref_mut().map(|o| o as &mut dyn Observer),
                    remote: std::mem::take(&mut g.remote),
                };
                let bots: Vec<&BotSpec> = g.bots.iter().collect();
                let mut played = game::play_live(&g.spec, &bots, &g.seats, containment, live);
                if let Some(v) = played.voided {
                    return Finished::Void {
                        why: v.why,
                        storage: v.storage,
                    };
                }
                played.replay.meta.voided = std::mem::take(&mut g.voided);
                let wall = t0.elapsed().as_secs_f64() * 1000.0;
                let outcome = GameOutcome::of(&played.replay, wall, played.warnings.clone());
                let outcome = serde_json::to_string(&outcome).unwrap_or_default();
                Finished::Done {
                    outcome: redact(outcome, &g.private),
                    payload: Some(redact(played.replay.to_json(), &g.private).into_bytes()),
                    artefact: None,
                }
            }
            Prepared::Compile(c) => {
                match crate::compile::compile(&c.spec, &c.source, containment, &c.scratch) {
                    Ok((outcome, artefact)) => Finished::Done {
                        outcome: serde_json::to_string(&outcome).unwrap_or_default(),
                        payload: None,
                        artefact,
                    },
                    Err(why) => Finished::Void { why, storage: true },
                }
            }
        }
    }
}

/// The compilers and interpreters on this machine that contests use.
pub fn toolchains() -> Vec<String> {
    ["gcc", "g++", "python3", "java", "node"]
        .into_iter()
        .filter(|t| which(t))
        .map(String::from)
        .collect()
}

fn which(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// A worker id that is unique and says where it runs: `HOST-PID-XXXX`.
pub fn default_id() -> String {
    let host = gethostname::gethostname().to_string_lossy().into_owned();
    format!(
        "{host}-{}-{:04x}",
        std::process::id(),
        rand::random::<u16>()
    )
}

/// Reads a committed game's replay text.
pub async fn replay_text(queue: &Queue, job: i64) -> Result<Option<String>, crate::Error> {
    let Some(result) = queue.result(job).await? else {
        return Ok(None);
    };
    match result.payload {
        Some(bytes) => Ok(Some(String::from_utf8(bytes).map_err(|_| {
            crate::Error::Corrupt(format!("the replay of game {job} is not UTF-8"))
        })?)),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_lose_the_machine_s_paths() {
        let private = vec![("/srv/c/work/artefacts".to_string(), "<artefacts>")];
        let text = r#"{"verdict":"failed to start: /srv/c/work/artefacts/ab12: denied"}"#;
        assert_eq!(
            super::redact(text.to_string(), &private),
            r#"{"verdict":"failed to start: <artefacts>/ab12: denied"}"#
        );
    }
}
