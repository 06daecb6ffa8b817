//! Coordination throughput: how many games a second the queue can hand out and take back
//! (claim + commit, each its own transaction) with instant "games", so the figure is the
//! coordinator's alone. Runs on SQLite always and on PostgreSQL when `ARBITER_TEST_PG` names a
//! server (scripts/pg.sh starts one). Prints figures; asserts nothing about speed.
//!
//!     cargo bench -p arbiter-queue --bench claims
//!
//! `CLAIMS_JOBS` (default 3000) and `CLAIMS_WORKERS` (default 8) change the load.

use std::time::{Duration, Instant};

use arbiter_queue::{Commit, Db, JobKind, NewJob, Queue};

const LEASE: Duration = Duration::from_secs(60);

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

async fn run(name: &str, url: &str, jobs: usize, workers: usize) {
    let queue = Queue::open(Db::connect(url).await.expect("database"))
        .await
        .expect("queue");
    let competition = queue
        .competition("tournament", &format!("bench-{}", std::process::id()), "{}")
        .await
        .unwrap();
    // 300 students' lanes, as in a big class.
    let new: Vec<NewJob> = (0..jobs)
        .map(|i| NewJob {
            lane: format!("u{}", i % 300),
            kind: JobKind::Game,
            spec: format!("{{\"game\":{i}}}"),
            sides: [format!("s{}", i % 300), format!("s{}", (i + 1) % 300)],
            seats: Vec::new(),
            priority: 0,
        })
        .collect();
    for chunk in new.chunks(500) {
        queue.enqueue(competition, chunk).await.unwrap();
    }
    let replay = vec![b'x'; 4096];
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..workers {
        let queue = queue.clone();
        let replay = replay.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("bench-w{w}");
            let mut done = 0usize;
            while let Some(job) = queue.claim(&id, &[JobKind::Game], LEASE).await.unwrap() {
                let c = queue
                    .commit(&job, &id, "{\"winner\":0}", Some(&replay))
                    .await
                    .unwrap();
                assert_eq!(c, Commit::Committed);
                done += 1;
            }
            done
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += t.await.unwrap();
    }
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "{name}: {total} games claimed and committed by {workers} workers in {wall:.2} s: {:.0} games/s",
        total as f64 / wall
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let jobs = env_usize("CLAIMS_JOBS", 3000);
    let workers = env_usize("CLAIMS_WORKERS", 8);
    let dir = tempfile::tempdir().unwrap();
    let sqlite = dir.path().join("queue.db").display().to_string();
    run("SQLite", &sqlite, jobs, workers).await;
    match std::env::var("ARBITER_TEST_PG") {
        Ok(url) => run("PostgreSQL", &url, jobs, workers).await,
        Err(_) => println!("PostgreSQL: skipped (set ARBITER_TEST_PG, see scripts/pg.sh)"),
    }
}
