//! arbiter's contest server: a course runs its whole contest on it. Students sign in, submit a
//! bot in a file or pasted, see it compile (in the sandbox) and play every other student's
//! latest bot, watch the scoreboard move and every game in the embedded player. The TA runs
//! it with one command (`arbiter contest serve DIR`).
//!
//! - [`config`]: `contest.toml`; [`store`]: the contest's tables beside the queue's.
//! - [`auth`]: passwords, sessions, CSRF, sign-in limits, and the extractors that authorise.
//! - [`submissions`]: the rules, compiles, scheduling (only the latest counts);
//!   [`scoreboard`]: standings and Elo, as the tournament report computes them;
//!   [`games`]: games and replays as a viewer may see them.
//! - [`routes`]: thin handlers for pages, course staff and the JSON API; [`pages`]: layout.
//!
//! Games are played by `arbiter-queue` workers: local ones started by `serve`, and any number
//! of `arbiter worker` processes on other machines when the database is PostgreSQL.

pub mod auth;
pub mod client;
pub mod clock;
pub mod config;
pub mod demo;
pub mod error;
pub mod export;
pub mod file_names;
pub mod games;
pub mod lang;
pub mod listen;
pub mod modules;
pub mod names;
pub mod pages;
pub mod protocol_docs;
pub mod redirect;
pub mod roster;
pub mod routes;
pub mod samples;
pub mod schedules;
pub mod scoreboard;
pub mod security;
pub mod state;
pub mod store;
pub mod submissions;
pub mod tables;
pub mod test_games;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use arbiter_queue::worker::{Worker, WorkerOptions};
use arbiter_queue::JobKind;
use tokio::sync::{watch, Notify};

use crate::config::Contest;
use crate::state::{AppState, Shared};

/// `arbiter contest serve`.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub dir: PathBuf,
    pub listen: SocketAddr,
    /// Local judging slots (0: only other machines' workers play).
    pub workers: usize,
    /// A database URL; default `DIR/contest.db` (SQLite).
    pub db: Option<String>,
    /// The web player to embed; default: the one `scripts/build-web.sh` built.
    pub player: Option<PathBuf>,
    /// Mark cookies Secure (the site is behind an HTTPS proxy).
    pub secure_cookies: bool,
    /// Reverse proxies whose `X-Forwarded-For` / `Forwarded` / `X-Forwarded-Proto` headers are
    /// believed (`--trusted-proxy`); from any other peer those headers are ignored.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Timeouts and connection bounds against slow or greedy clients.
    pub limits: listen::Limits,
    /// `arbiter contest demo`: submit the sample bots under this `bots/` once serving, and print
    /// how to sign in.
    pub demo_bots: Option<PathBuf>,
    /// A pause after each ply of this machine's games, so that people can follow them live
    /// (bots' clocks do not run meanwhile); zero: none.
    pub pace: std::time::Duration,
    /// Judge even where bots cannot be isolated from each other and the host
    /// (`--unsafe-containment`); else such a machine refuses to start its workers.
    pub unsafe_containment: bool,
}

/// `arbiter contest init DIR`: a commented contest.toml and an empty database with one course
/// staff account, whose password is printed once.
pub async fn init(
    dir: &Path,
    name: &str,
    game: &str,
    size: Option<u8>,
    rule: Option<&str>,
    db: Option<&str>,
) -> anyhow::Result<String> {
    refuse_existing(dir)?;
    let text = config::template(name, game, size, rule);
    Contest::parse(&text, "contest.toml")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    create(dir, &text, db).await
}

/// `arbiter contest init DIR --game-module FILE [--game-config JSON]`: [`init`] for a contest
/// whose game is a module. The module is copied into the contest's directory (as
/// `NAME.wasm`, its own name), where contest.toml names it: the contest does not depend on a
/// file elsewhere.
pub async fn init_module(
    dir: &Path,
    name: &str,
    module: &Path,
    module_config: Option<&str>,
    db: Option<&str>,
) -> anyhow::Result<String> {
    refuse_existing(dir)?;
    // The config as contest.toml will hold it, then the one acceptance check, before anything
    // is written: what `arbiter game check` refuses, no contest plays.
    let table = config::module_config_table(module_config)?;
    let given: serde_json::Value = match module_config {
        Some(text) => serde_json::from_str(text)
            .map_err(|e| anyhow::anyhow!("--game-config is not JSON: {e}"))?,
        None => serde_json::json!({}),
    };
    let found = arbiter_kit_host::accept::file(module, &given)?.module;
    let bytes = arbiter_kit_host::host::module_bytes(&found.sha256)
        .context("the module was registered but its bytes are gone")?;
    let file = format!("{}.wasm", found.name);
    let text = config::module_template(name, &file, &table);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let copy = dir.join(&file);
    let made = match std::fs::read(&copy) {
        Ok(there) if there != *bytes => bail!(
            "{} exists already and is another file: remove it, or choose another directory",
            copy.display()
        ),
        Ok(_) => false,
        Err(_) => {
            std::fs::write(&copy, &bytes)
                .with_context(|| format!("cannot write {}", copy.display()))?;
            true
        }
    };
    // The configuration is checked by the module itself, from the contest's copy.
    if let Err(e) = Contest::parse_in(&text, "contest.toml", dir) {
        if made {
            let _ = std::fs::remove_file(&copy);
        }
        return Err(e);
    }
    create(dir, &text, db).await
}

fn refuse_existing(dir: &Path) -> anyhow::Result<()> {
    let file = dir.join("contest.toml");
    if file.exists() {
        bail!(
            "{} exists already: edit it, or choose another directory",
            file.display()
        );
    }
    Ok(())
}

/// The database with its course staff account, then contest.toml (`text`): a directory with
/// a contest.toml is a contest. Returns the account's password.
async fn create(dir: &Path, text: &str, db: Option<&str>) -> anyhow::Result<String> {
    let file = dir.join("contest.toml");
    let (db, _) = state::open_db(dir, db).await?;
    let password = auth::random_password();
    let hash = auth::hash_password(&password);
    sqlx::query(&format!(
        "INSERT INTO users (login, name, password, must_change, admin, created_at) \
         VALUES ('admin', 'Course staff', $1, 1, 1, {}) ON CONFLICT (login) DO NOTHING",
        db.now()
    ))
    .bind(hash)
    .execute(db.pool())
    .await?;
    std::fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))?;
    db.close().await;
    Ok(password)
}

/// A file named on the command line, within `bytes` (the limit is named in the error).
pub fn read_text(path: &Path, bytes: u64, what: &'static str) -> anyhow::Result<String> {
    let limit = arbiter_match::input::Limit { bytes, what };
    Ok(arbiter_match::input::read_text(path, limit)?)
}

/// Opens a contest directory: its configuration and database.
async fn open(
    dir: &Path,
    db_url: Option<&str>,
) -> anyhow::Result<(Contest, arbiter_queue::Db, arbiter_queue::Queue)> {
    let path = dir.join("contest.toml");
    if !path.is_file() {
        bail!(
            "{} is not a contest directory (no contest.toml): run `arbiter contest init {}` first",
            dir.display(),
            dir.display()
        );
    }
    let contest = Contest::load(&path)?;
    let (db, queue) = state::open_db(dir, db_url).await?;
    Ok((contest, db, queue))
}

/// `arbiter contest users DIR roster.csv`.
pub async fn users(
    dir: &Path,
    db_url: Option<&str>,
    roster: &Path,
    passwords_out: Option<&Path>,
) -> anyhow::Result<roster::Imported> {
    let (_, db, _) = open(dir, db_url).await?;
    let text = read_text(roster, 16 << 20, "a roster")?;
    let entries = roster::parse(&text, &roster.display().to_string())?;
    let imported = roster::import(&db, &entries, passwords_out.is_some()).await?;
    if let Some(out) = passwords_out {
        roster::write_passwords(out, &imported.passwords)?;
    }
    db.close().await;
    Ok(imported)
}

/// Builds the shared state of a served contest.
async fn build_state(opts: &ServeOptions, clock: Arc<clock::Clock>) -> anyhow::Result<Shared> {
    let (contest, db, queue) = open(&opts.dir, opts.db.as_deref()).await?;
    let config = serde_json::to_string(&contest.competition_config())?;
    // Workers on other machines fetch a game module by its hash, as they fetch bots; the
    // player fetches it, and any module the contest had before, to show their games.
    modules::remember(&db, &queue, &contest.game.game).await?;
    let name = format!("contest:{}", contest.file.name);
    let competition = queue.competition("contest", &name, &config).await?;
    queue.set_competition_config(competition, &config).await?;
    queue.set_version(arbiter_queue::VERSION).await?;
    let secret = match store::setting(&db, "secret").await? {
        Some(s) => s,
        None => {
            let s = auth::random_token();
            store::set_setting(&db, "secret", &s).await?;
            s
        }
    };
    // Always a player: the binary carries one (arbiter_tournament::player). It takes orders
    // from the site's own pages only (pages::trusting_its_page).
    let player = Some(Arc::new(pages::trusting_its_page(
        &arbiter_tournament::player::load(opts.player.as_deref())?.0,
    )));
    // The site's frame goes on each request to /live (routes::live_gate), for its viewer.
    let spectators = match contest.file.live.spectators {
        config::LiveSpectators::Public => arbiter_live::game::Spectators::Public,
        config::LiveSpectators::Full => arbiter_live::game::Spectators::Full,
    };
    let hub = arbiter_live::Hub::new(
        arbiter_live::HubOptions {
            spectators,
            ..arbiter_live::HubOptions::default()
        },
        player.clone(),
    );
    let rules = admin_rules(&db, &contest).await?;
    let player_hashes = player
        .as_deref()
        .map(|p| security::script_hashes(p))
        .unwrap_or_default();
    Ok(Arc::new(AppState {
        db,
        queue,
        contest,
        competition,
        dir: opts.dir.clone(),
        secret: secret.into_bytes(),
        board: Default::default(),
        wake_workers: Arc::new(Notify::new()),
        wake_reconciler: Arc::new(Notify::new()),
        wake_board: Arc::new(Notify::new()),
        board_generation: Default::default(),
        limiter: Default::default(),
        player,
        secure_cookies: opts.secure_cookies,
        trusted_proxies: opts.trusted_proxies.clone(),
        player_hashes,
        hub,
        rules: std::sync::RwLock::new(rules),
        clock,
        people: Default::default(),
        people_games: opts.workers > 0,
    }))
}

/// contest.toml's rules with the changes course staff made on the admin page (which never raise
/// the size limit past contest.toml's, nor change the games per pairing).
async fn admin_rules(db: &arbiter_queue::Db, contest: &Contest) -> anyhow::Result<config::Rules> {
    let mut rules = contest.rules();
    if let Some(text) = store::setting(db, "rules").await? {
        if let Ok(saved) = serde_json::from_str::<config::Rules>(&text) {
            rules.submissions.min_interval_s = saved.submissions.min_interval_s;
            rules.submissions.daily_budget_s = saved.submissions.daily_budget_s;
            rules.submissions.max_bytes =
                saved.submissions.max_bytes.min(rules.submissions.max_bytes);
            rules.scoreboard = saved.scoreboard;
        }
    }
    Ok(rules)
}

/// The prefix of this machine's local workers for this contest: jobs they held when a
/// previous server died are put back at start-up.
fn local_prefix(state: &Shared) -> String {
    let host = gethostname();
    let dir = std::fs::canonicalize(&state.dir).unwrap_or_else(|_| state.dir.clone());
    let tag = arbiter_queue::artefacts::hash(dir.to_string_lossy().as_bytes());
    format!("local:{host}:{}:", &tag[..12])
}

fn gethostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "localhost".into())
}

/// `arbiter contest serve`: the site, the background tasks and the local workers, until
/// Ctrl-C (games in progress finish first) or a second Ctrl-C.
pub async fn serve(
    opts: ServeOptions,
    ready: Option<tokio::sync::oneshot::Sender<SocketAddr>>,
) -> anyhow::Result<()> {
    serve_with_clock(opts, ready, Arc::new(clock::Clock::system())).await
}

/// [`serve`] reading the time from `clock`: a test steps its wall clock under the server
/// (docs/faults.md) without touching the machine's.
pub async fn serve_with_clock(
    opts: ServeOptions,
    ready: Option<tokio::sync::oneshot::Sender<SocketAddr>>,
    clock: Arc<clock::Clock>,
) -> anyhow::Result<()> {
    let state = build_state(&opts, clock).await?;
    let prefix = local_prefix(&state);
    let requeued = state.queue.requeue_held_by(&prefix).await?;
    if requeued > 0 {
        eprintln!("{requeued} game(s) interrupted by the last stop are back in the queue");
    }
    submissions::reconcile(&state).await?;
    submissions::schedule_all_missing(&state).await?;
    state.set_board(scoreboard::compute(&state).await?);

    let (stop_tx, stop_rx) = watch::channel(false);
    let tasks = [
        tokio::spawn(reconcile_loop(Arc::clone(&state), stop_rx.clone())),
        tokio::spawn(scoreboard::refresh_loop(Arc::clone(&state))),
        tokio::spawn(quarantine_loop(Arc::clone(&state), stop_rx.clone())),
        tokio::spawn(lease_loop(Arc::clone(&state), stop_rx.clone())),
    ];
    let worker = if opts.workers > 0 {
        Some(start_worker(&state, &opts, &prefix, stop_rx.clone()).await?)
    } else {
        None
    };
    // Not waited for at the end: a person may think for half an hour, and the game is
    // played again from the start after a restart (its seat's new link is on its page).
    let people_worker = match opts.workers > 0 {
        true => Some(start_people_worker(&state, &prefix, stop_rx.clone()).await?),
        false => None,
    };

    let listener = tokio::net::TcpListener::bind(opts.listen)
        .await
        .with_context(|| format!("cannot listen on {}", opts.listen))?;
    let addr = listener.local_addr()?;
    eprintln!(
        "contest {:?} served on http://{addr}/ ({} local judging slot(s))",
        state.contest.file.name, opts.workers
    );
    if let Some(tx) = ready {
        let _ = tx.send(addr);
    }
    if let Some(bots) = &opts.demo_bots {
        demo::submit_all(&state, bots).await?;
        println!(
            "{}",
            demo::banner(&format!("http://{addr}"), &state.contest)
        );
    }
    let app = routes::router(Arc::clone(&state));
    let mut shutdown = stop_rx.clone();
    let server = listen::serve(
        listener,
        app,
        opts.limits.clone(),
        opts.trusted_proxies.clone(),
        async move {
            let _ = shutdown.wait_for(|s| *s).await;
        },
    );
    let signals = tokio::spawn(async move {
        let _ = tokio::signal::ctrl_c().await;
        eprintln!("stopping: games in progress finish first (Ctrl-C again to stop at once)");
        let _ = stop_tx.send(true);
        let _ = tokio::signal::ctrl_c().await;
        std::process::exit(130);
    });
    server.await?;
    if let Some(w) = worker {
        let _ = w.await;
    }
    signals.abort();
    if let Some(w) = people_worker {
        w.abort();
    }
    for t in tasks {
        t.abort();
    }
    Ok(())
}

async fn start_worker(
    state: &Shared,
    opts: &ServeOptions,
    prefix: &str,
    stop: watch::Receiver<bool>,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let containment = arbiter_sandbox::Containment::detect();
    for w in containment.warnings() {
        eprintln!("warning: {w}");
    }
    for w in containment
        .require_isolation(opts.unsafe_containment)
        .map_err(anyhow::Error::msg)?
    {
        eprintln!("warning: {w}");
    }
    let cpus = containment.online_cpus().to_vec();
    let slots = arbiter_match::game::slot_cores(&cpus, opts.workers, 2, None);
    let id = format!("{prefix}{}", std::process::id());
    let mut wopts = WorkerOptions::local(id, slots, opts.dir.join("work"));
    wopts.kinds = vec![JobKind::Compile, JobKind::Game, JobKind::TestGame];
    let observe = live_observer(state, opts.pace, stop.clone());
    run_local(state, wopts, containment, observe, stop, "local worker").await
}

/// Joins a local worker to the contest's queue and runs it until `stop` (`what` names it in
/// errors), its events followed by [`follow_worker`].
async fn run_local(
    state: &Shared,
    wopts: WorkerOptions,
    containment: arbiter_sandbox::Containment,
    observe: arbiter_queue::worker::Observe,
    stop: watch::Receiver<bool>,
    what: &'static str,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let (events_tx, events_rx) = tokio::sync::mpsc::unbounded_channel();
    let worker = Worker::join(state.queue.clone(), wopts, containment)
        .await?
        .with_events(events_tx)
        .with_observer(observe);
    follow_worker(state, &worker, events_rx);
    Ok(tokio::spawn(async move {
        if let Err(e) = worker.run(stop).await {
            eprintln!("error: {what}: {e}");
        }
    }))
}

/// What the local workers show live: the contest's games under their numbers, test games
/// unlisted ([`test_games::LIVE_BASE`]), a person's seat of a test game through the hub.
/// Another competition's game (workers may be shared) is not this contest's to show.
fn live_observer(
    state: &Shared,
    pace: std::time::Duration,
    stop: watch::Receiver<bool>,
) -> arbiter_queue::worker::Observe {
    use arbiter_queue::worker::Followed;
    let state = Arc::clone(state);
    Arc::new(move |job, _spec, bots| {
        if job.competition != state.competition {
            return Followed::default();
        }
        let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
        if job.kind == JobKind::Game {
            let title = format!("Game {}: {}", job.number, names.join(" vs "));
            let game = state.hub.open_as(job.number as u64, title);
            return Some(paced(Box::new(game.observer()), pace)).into();
        }
        let person = bots
            .iter()
            .position(|b| b.command == arbiter_match::live::PERSON_COMMAND);
        let title = format!("Test game {}: {}", job.number, names.join(" vs "));
        let game = state
            .hub
            .open_unlisted(test_games::live_id(job.id), title, person.is_some());
        let mut followed = Followed::from(Some(paced(Box::new(game.observer()), pace)));
        if let Some(seat) = person.and_then(arbiter_engine::Seat::from_index) {
            let (remote, key) = game.human_seat(seat);
            followed.remote = (0..bots.len()).map(|_| None).collect();
            followed.remote[seat.index()] = Some(remote);
            state.people.set(
                job.id,
                test_games::PersonLink {
                    seat: seat.index(),
                    key,
                },
            );
            let stop = stop.clone();
            followed.ready = Some(Box::new(move || {
                // Not for ever: a person who never comes loses on time. Nor past the server's
                // stop (its process would wait for this thread).
                let t0 = std::time::Instant::now();
                let step = std::time::Duration::from_millis(250);
                while !game.wait_for_seat(seat, step) && t0.elapsed() < test_games::PERSON_WAIT {
                    if stop.has_changed().is_err() || *stop.borrow() {
                        break;
                    }
                }
            }));
        }
        followed
    })
}

/// `observer`, held `pace` after each move where a pace is set.
fn paced(
    observer: Box<dyn arbiter_match::live::Observer>,
    pace: std::time::Duration,
) -> Box<dyn arbiter_match::live::Observer> {
    if pace.is_zero() {
        return observer;
    }
    Box::new(arbiter_match::live::Paced {
        inner: observer,
        pace,
    })
}

/// The worker of games a person plays by clicks: a slot of its own, so that a person thinking
/// never holds a slot the contest's games need.
async fn start_people_worker(
    state: &Shared,
    prefix: &str,
    stop: watch::Receiver<bool>,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let containment = arbiter_sandbox::Containment::detect();
    let id = format!("{prefix}people-{}", std::process::id());
    let mut wopts = WorkerOptions::local(id, vec![vec![None]], state.dir.join("work"));
    wopts.kinds = vec![JobKind::PersonGame];
    let observe = live_observer(state, std::time::Duration::ZERO, stop.clone());
    run_local(
        state,
        wopts,
        containment,
        observe,
        stop,
        "the worker of people's games",
    )
    .await
}

/// The server's enqueues wake a local worker; its results wake the reconciler and the
/// scoreboard, and a game's end forgets its person's seat link.
fn follow_worker(
    state: &Shared,
    worker: &Worker,
    mut events: tokio::sync::mpsc::UnboundedReceiver<arbiter_queue::worker::WorkerEvent>,
) {
    use arbiter_queue::worker::WorkerEvent;
    let wake = worker.waker();
    let server_wake = Arc::clone(&state.wake_workers);
    tokio::spawn(async move {
        loop {
            server_wake.notified().await;
            wake.notify_waiters();
        }
    });
    let s = Arc::clone(state);
    tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            match event {
                WorkerEvent::Finished { job, .. } => {
                    s.people.forget(job);
                    s.wake_reconciler.notify_one();
                    s.wake_board.notify_one();
                }
                WorkerEvent::Failed { job, .. } | WorkerEvent::Voided { job, .. } => {
                    s.people.forget(job)
                }
                WorkerEvent::Started { .. } => {}
            }
        }
    });
}

/// Every half minute, pauses workers whose games fail far more often than the same bots' games
/// on the other workers, and has their failed games played again elsewhere.
async fn quarantine_loop(state: Shared, mut stop: watch::Receiver<bool>) {
    let policy = arbiter_queue::quarantine::Policy::default();
    loop {
        match arbiter_queue::quarantine::check(&state.queue, &policy).await {
            Ok(found) => {
                for s in found.iter().filter(|s| s.voided) {
                    eprintln!(
                        "worker {} paused: {} of its {} games voided ({:.1} expected)",
                        s.worker, s.failures, s.games, s.expected
                    );
                }
                for s in found.iter().filter(|s| !s.voided) {
                    eprintln!(
                        "worker {} paused: {} time losses or crashes in {} games ({:.1} expected); {} game(s) to be played again",
                        s.worker, s.failures, s.games, s.expected, s.replayed.len()
                    );
                }
            }
            Err(e) => eprintln!("warning: quarantine check: {e}"),
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(30)) => {}
            _ = stop.changed() => return,
        }
    }
}

/// Every 5 s, puts back in the queue the jobs whose leases ran out: a worker killed, frozen,
/// cut off, or one that gave up, here or on another machine. Workers do it too, but judging
/// must not wait for a live worker to take back what a dead one held.
async fn lease_loop(state: Shared, mut stop: watch::Receiver<bool>) {
    loop {
        match state.queue.requeue_expired().await {
            Ok(0) => {}
            Ok(n) => eprintln!("{n} job(s) whose lease ran out are back in the queue"),
            Err(e) => match arbiter_queue::health::transient(&e) {
                Some(what) => arbiter_queue::health::trouble_briefly(what),
                None => eprintln!("warning: taking back expired leases: {e}"),
            },
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(5)) => {}
            _ = stop.changed() => return,
        }
    }
}

/// Finished compiles become ready submissions and games, as soon as a local worker says so
/// or, for other machines' workers, at the next poll.
async fn reconcile_loop(state: Shared, mut stop: watch::Receiver<bool>) {
    loop {
        if let Err(e) = submissions::reconcile(&state).await {
            eprintln!("warning: {e}");
        }
        // The ladder's and the leagues' next games, once the games before are in.
        if let Err(e) = schedules::tick(&state).await {
            eprintln!("warning: {e}");
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = state.wake_reconciler.notified() => {}
            _ = stop.changed() => return,
        }
    }
}

/// `arbiter contest backup DIR FILE`: a consistent copy of the SQLite database, taken while
/// the server runs.
pub async fn backup(dir: &Path, db_url: Option<&str>, out: &Path) -> anyhow::Result<()> {
    let (_, db, _) = open(dir, db_url).await?;
    if db.dialect() != arbiter_queue::Dialect::Sqlite {
        bail!(
            "the contest's database is PostgreSQL: back it up with pg_dump (see docs/contest.md)"
        );
    }
    if out.exists() {
        bail!("{} exists already: choose a new file", out.display());
    }
    let path = out.to_str().context("the backup path is not UTF-8")?;
    sqlx::query("VACUUM INTO $1")
        .bind(path)
        .execute(db.pool())
        .await?;
    db.close().await;
    Ok(())
}

/// `arbiter contest similarity`: the copied-code report over the contest's submissions.
pub async fn similarity(
    dir: &Path,
    db_url: Option<&str>,
    opts: &routes::similarity::Options,
) -> anyhow::Result<arbiter_similarity::Report> {
    let (contest, db, _) = open(dir, db_url).await?;
    routes::similarity::compute(&db, &contest, dir, opts).await
}

/// `arbiter contest export DIR`: standings (JSON, CSV), submissions (CSV) and every replay
/// (JSON) into `out`.
pub async fn export(dir: &Path, db_url: Option<&str>, out: &Path) -> anyhow::Result<usize> {
    let opts = ServeOptions {
        dir: dir.to_path_buf(),
        listen: ([127, 0, 0, 1], 0).into(),
        workers: 0,
        db: db_url.map(str::to_string),
        player: None,
        secure_cookies: false,
        trusted_proxies: Vec::new(),
        limits: listen::Limits::default(),
        demo_bots: None,
        pace: std::time::Duration::ZERO,
        unsafe_containment: false,
    };
    let state = build_state(&opts, Arc::new(clock::Clock::system())).await?;
    export::export(&state, out).await
}
