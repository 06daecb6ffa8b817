//! `arbiter worker` and `arbiter workers`: judging on any number of machines through the job
//! queue in PostgreSQL (docs/scale.md). A worker is the same judging code the contest server
//! runs locally; only where it gets its jobs from differs.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use arbiter_queue::jobs::JobKind;
use arbiter_queue::worker::{Worker, WorkerEvent, WorkerOptions};
use arbiter_queue::{Db, Queue};
use clap::Args;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
arbiter worker --db postgres://judge:secret@db.example/contest\n  \
arbiter worker --db postgres://judge@db.example/contest --slots 4 --id lab-pc-07\n\n\
The worker must run the same arbiter version as the server that owns the queue. Ctrl-C lets \
the games in progress finish and commit; a worker killed outright loses nothing: its games go \
back to the queue when their lease runs out. The guide: docs/scale.md")]
pub struct WorkerArgs {
    /// The queue's database, as given to `arbiter contest serve --db`
    #[arg(long, value_name = "URL")]
    pub db: String,
    /// Games at a time (default: one per two cores)
    #[arg(long)]
    pub slots: Option<usize>,
    /// This worker's name on the queue (default: HOST-PID-XXXX)
    #[arg(long)]
    pub id: Option<String>,
    /// Seconds a game stays claimed without a heartbeat before it is played elsewhere
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub lease: u64,
    /// Where fetched bots are cached and played (default: a directory in $TMPDIR)
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Play games only; leave compiles to machines with every compiler
    #[arg(long)]
    pub games_only: bool,
    /// Stop once the queue has had nothing to do for this many seconds
    #[arg(long, value_name = "SECONDS")]
    pub exit_when_idle: Option<u64>,
    /// No line per job
    #[arg(short, long)]
    pub quiet: bool,
    /// Judge even if this machine cannot isolate bots (no namespaces: a bot could then read
    /// other students' bots and this machine's files); see `arbiter doctor`
    #[arg(long)]
    pub unsafe_containment: bool,
}

#[derive(Args, Debug)]
#[command(after_help = "Example:\n  arbiter workers --db postgres://judge@db.example/contest")]
pub struct WorkersArgs {
    /// The queue's database
    #[arg(long, value_name = "URL")]
    pub db: String,
    /// JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

pub fn run_worker(a: &WorkerArgs) -> anyhow::Result<ExitCode> {
    tokio::runtime::Runtime::new()?.block_on(worker(a))
}

pub fn run_workers(a: &WorkersArgs) -> anyhow::Result<ExitCode> {
    tokio::runtime::Runtime::new()?.block_on(workers(a))
}

async fn open_queue(url: &str) -> anyhow::Result<Queue> {
    let db = Db::connect(url).await.with_context(|| {
        format!(
            "cannot open the queue at {}",
            arbiter_queue::db::redact(url)
        )
    })?;
    Ok(Queue::open(db).await?)
}

/// [`open_queue`] for a worker: a database that answers but is locked, restarting or cannot
/// be written just now is waited out, as a running worker waits it out (said on stderr). One
/// that cannot be reached or opened at all is refused at once: at start-up that is far more
/// often a wrong `--db` than a fault.
async fn open_queue_patiently(url: &str) -> anyhow::Result<Queue> {
    let mut failures = 0u32;
    loop {
        let opened = match Db::connect(url).await {
            Ok(db) => Queue::open(db).await,
            Err(e) => Err(e),
        };
        let e = match opened {
            Ok(queue) => return Ok(queue),
            Err(e) => e,
        };
        let sql = match &e {
            arbiter_queue::db::DbError::Connect { source, .. } => Some(source),
            arbiter_queue::db::DbError::Sql(source) => Some(source),
            _ => None,
        };
        match sql.and_then(|s| Some((arbiter_queue::health::transient_at_start(s)?, s))) {
            Some((what, s)) => {
                failures += 1;
                let wait = arbiter_queue::health::backoff(failures);
                eprintln!(
                    "worker: the queue at {}: {what} ({s}); retrying in {:.1} s",
                    arbiter_queue::db::redact(url),
                    wait.as_secs_f64()
                );
                tokio::time::sleep(wait).await;
            }
            _ => {
                return Err(anyhow::Error::new(e).context(format!(
                    "cannot open the queue at {}",
                    arbiter_queue::db::redact(url)
                )))
            }
        }
    }
}

async fn worker(a: &WorkerArgs) -> anyhow::Result<ExitCode> {
    let queue = open_queue_patiently(&a.db).await?;
    let containment = arbiter_sandbox::Containment::detect();
    for w in containment.warnings() {
        eprintln!("warning: {w}");
    }
    for w in containment
        .require_isolation(a.unsafe_containment)
        .map_err(anyhow::Error::msg)?
    {
        eprintln!("warning: {w}");
    }
    let cpus = containment.online_cpus().to_vec();
    let slots = a.slots.unwrap_or((cpus.len() / 2).max(1)).clamp(1, 256);
    let id =
        a.id.clone()
            .unwrap_or_else(arbiter_queue::worker::default_id);
    let base = match &a.dir {
        Some(d) => d.clone(),
        None => std::env::temp_dir().join(format!("arbiter-worker-{}", std::process::id())),
    };
    let mut opts = WorkerOptions::local(
        id.clone(),
        arbiter_match::game::slot_cores(&cpus, slots, 2, None),
        base.clone(),
    );
    opts.lease = Duration::from_secs(a.lease);
    opts.exit_when_idle = a.exit_when_idle.map(Duration::from_secs);
    if a.games_only {
        opts.kinds = vec![JobKind::Game, JobKind::TestGame];
    }
    let (events_tx, mut events_rx) = tokio::sync::mpsc::unbounded_channel();
    let worker = Worker::join(queue, opts, containment)
        .await?
        .with_events(events_tx);
    eprintln!(
        "worker {id}: {slots} slot(s) on {}",
        arbiter_queue::db::redact(&a.db)
    );
    let quiet = a.quiet;
    tokio::spawn(async move {
        while let Some(event) = events_rx.recv().await {
            if !quiet {
                eprintln!("{}", event_line(&event));
            }
        }
    });
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        let _ = tokio::signal::ctrl_c().await;
        eprintln!("stopping: games in progress finish first (Ctrl-C again to stop at once)");
        let _ = stop_tx.send(true);
        let _ = tokio::signal::ctrl_c().await;
        std::process::exit(130);
    });
    let done = worker.run(stop_rx).await?;
    eprintln!("worker {id}: {done} job(s) done");
    if a.dir.is_none() {
        let _ = std::fs::remove_dir_all(&base);
    }
    Ok(ExitCode::SUCCESS)
}

fn event_line(event: &WorkerEvent) -> String {
    match event {
        WorkerEvent::Started { job, kind } => format!("job {job}: {kind:?} started"),
        WorkerEvent::Finished {
            job,
            outcome,
            committed: true,
        } => format!("job {job}: {outcome}"),
        WorkerEvent::Finished { job, outcome, .. } => {
            format!("job {job}: {outcome} (set aside: its lease had been taken over)")
        }
        WorkerEvent::Failed { job, error } => format!("job {job}: failed: {error}"),
        WorkerEvent::Voided { job, why } => {
            format!("job {job}: voided: {why}; back in the queue to be played again")
        }
    }
}

/// Seconds without a heartbeat after which `arbiter workers` calls an active worker lost
/// (workers heartbeat every quarter of their lease, 15 s by default).
const SILENT_S: f64 = 60.0;

async fn workers(a: &WorkersArgs) -> anyhow::Result<ExitCode> {
    let queue = open_queue(&a.db).await?;
    let rows = arbiter_queue::workers::list(&queue).await?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        println!("no worker has joined this queue yet");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:<28} {:<8} {:>5} {:>7} {:>7} {:>9} {:>6} {:>7} {:>9}  note",
        "worker", "state", "slots", "running", "games", "games/min", "time", "crashes", "set aside"
    );
    for w in rows {
        // A worker that stopped heartbeating (killed, frozen, cut off) still reads `active`
        // in the table until it comes back or its games' leases run out.
        let lost = w.state == "active" && w.silent_s > SILENT_S;
        println!(
            "{:<28} {:<8} {:>5} {:>7} {:>7} {:>9.1} {:>6} {:>7} {:>9}  {}{}",
            w.id,
            if lost { "lost" } else { w.state.as_str() },
            w.slots,
            w.running,
            w.games,
            w.pace,
            w.time_losses,
            w.crashes,
            w.discarded,
            w.note.unwrap_or_default(),
            if w.silent_s > SILENT_S {
                format!(" (no heartbeat for {:.0} s)", w.silent_s)
            } else {
                String::new()
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}
