//! A 200-game tournament played through PostgreSQL by three `arbiter worker`s, its coordinator
//! (`arbiter tournament CONFIG --db URL --no-local-workers`) only scheduling and recording.
//! One worker is killed with SIGKILL in the middle of a game, another frozen with SIGSTOP past
//! its lease, and the coordinator itself is killed with SIGKILL and resumed while the workers
//! play on. Every game is played exactly once, every replay reads back through the engine,
//! and the standings and every game's result equal a single-machine run of the same config.
//!
//! Needs a PostgreSQL server: `ARBITER_TEST_PG` (scripts/test.sh starts one on loopback).

use crate::contest_support;
use crate::tournament_support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arbiter_engine::replay::Replay;
use contest_support::{arbiter, every_replay_reads_back, fresh_pg};
use serde_json::Value;
use sqlx::Row;
use tournament_support::{rbot, report_json as report};

/// 5 bots: 10 pairings of 20 games. `slow` (50 ms a move) makes games long enough to be
/// caught in progress; the others are deterministic too, so both runs play the same games.
const CONFIG: &str = r#"name = "Workers tournament"
games_per_pairing = 20
seed = 11
concurrency = 2
[game]
name = "reversi"
size = 8
[limits]
move_ms = 3000
[[bots]]
name = "first"
command = "./rbot 8 0"
[[bots]]
name = "r3"
command = "./rbot 8 3"
[[bots]]
name = "r7"
command = "./rbot 8 7"
[[bots]]
name = "slow"
command = "./rbot 8 9 slow"
[[bots]]
name = "greedy"
command = "builtin:1"
"#;
const GAMES: i64 = 200;
const LEASE_S: u64 = 3;

fn worker(url: &str, id: &str) -> Child {
    arbiter()
        .args(["worker", "--db", url, "--slots", "1", "--id", id, "-q"])
        .args(["--lease", &LEASE_S.to_string(), "--games-only"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter worker")
}

fn coordinator(dir: &Path, args: &[&str]) -> Child {
    arbiter()
        .arg("tournament")
        .args(args)
        .args(["--no-local-workers", "-q"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter tournament")
}

async fn count(pool: &sqlx::AnyPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

/// Waits until `sql` counts at least `n`.
async fn at_least(pool: &sqlx::AnyPool, sql: &str, n: i64, what: &str) {
    let t0 = Instant::now();
    while count(pool, sql).await < n {
        assert!(t0.elapsed() < Duration::from_secs(180), "never: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until `worker` plays a game of the slow bot, so that a signal lands mid-game.
async fn playing_slow(pool: &sqlx::AnyPool, worker: &str) {
    let sql = format!(
        "SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND state = 'running' \
         AND worker = '{worker}' AND spec LIKE '%slow%'"
    );
    at_least(pool, &sql, 1, &format!("{worker} plays the slow bot")).await;
}

/// Each game's id, seats and what decided it.
fn games(report: &Value) -> Vec<(i64, Value, Value, Value, Value)> {
    let mut v: Vec<_> = report["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let r = &g["result"];
            (
                g["id"].as_i64().unwrap(),
                g["seats"].clone(),
                r["winner"].clone(),
                r["reason_code"].clone(),
                r["scores"].clone(),
            )
        })
        .collect();
    v.sort_by_key(|g| g.0);
    v
}

/// `dir` with the fixture bot (`./rbot`) and each (file name, text) written.
fn tournament_dir(dir: &Path, files: &[(&str, String)]) {
    std::fs::copy(rbot(), dir.join("rbot")).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// Waits until the queue at `url` holds `n` jobs; the pool to read it.
async fn enqueued(url: &str, n: i64) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    let t0 = Instant::now();
    loop {
        if let Ok(p) = sqlx::AnyPool::connect(url).await {
            let jobs = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM jobs")
                .fetch_one(&p)
                .await;
            if jobs.is_ok_and(|k| k == n) {
                return p;
            }
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "nothing enqueued");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_on_three_workers_equals_one_machine_through_kills() {
    let Some(url) = fresh_pg().await else { return };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let ok = |c: &mut Command| c.status().unwrap().success();
    tournament_dir(
        dir,
        &[
            ("queue.toml", format!("output = \"queue-out\"\n{CONFIG}")),
            ("local.toml", format!("output = \"local-out\"\n{CONFIG}")),
        ],
    );
    let mut coord = coordinator(dir, &["queue.toml", "--db", &url]);
    let pool = enqueued(&url, GAMES).await;
    let mut workers = [worker(&url, "w1"), worker(&url, "w2"), worker(&url, "w3")];

    // w1 dies outright in the middle of a game.
    playing_slow(&pool, "w1").await;
    workers[0].kill().unwrap();
    workers[0].wait().unwrap();
    // w2 freezes past its lease, then wakes up and tries to commit what it was playing.
    playing_slow(&pool, "w2").await;
    let pid = workers[1].id().to_string();
    assert!(ok(Command::new("kill").args(["-STOP", &pid])));
    tokio::time::sleep(Duration::from_secs(LEASE_S * 2 + 2)).await;
    assert!(ok(Command::new("kill").args(["-CONT", &pid])));

    // The coordinator dies; the workers play on, and a new one picks up what they did.
    let results = "SELECT COUNT(*) FROM results";
    let before = count(&pool, results).await;
    at_least(&pool, results, before + 20, "games recorded").await;
    coord.kill().unwrap();
    coord.wait().unwrap();
    let at_kill = count(&pool, results).await;
    at_least(&pool, results, at_kill + 10, "games played meanwhile").await;
    assert!(
        at_kill < GAMES,
        "the coordinator was killed after the last game"
    );
    // `resume` finds the queue the tournament was started on.
    let resumed = arbiter()
        .args([
            "tournament",
            "resume",
            "queue-out",
            "--no-local-workers",
            "-q",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        resumed.status.success(),
        "the resumed coordinator failed: {}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    for mut w in workers.into_iter().skip(1) {
        let _ = w.kill();
        let _ = w.wait();
    }

    // Every game enqueued once, each with exactly one result.
    let jobs = sqlx::query("SELECT side0, COUNT(*) FROM jobs WHERE kind = 'game' GROUP BY side0")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(jobs.len() as i64, GAMES, "a game missing from the queue");
    for row in &jobs {
        assert_eq!(
            row.get::<i64, _>(1),
            1,
            "{} enqueued twice",
            row.get::<String, _>(0)
        );
    }
    assert_eq!(count(&pool, results).await, GAMES, "one result per game");
    let lost = count(
        &pool,
        "SELECT COUNT(*) FROM events WHERE kind = 'lease_expired'",
    )
    .await;
    assert!(
        lost >= 2,
        "both lost leases went back to the queue ({lost})"
    );
    let set_aside = count(&pool, "SELECT COUNT(*) FROM discarded WHERE worker = 'w2'").await;
    assert!(set_aside >= 1, "the frozen worker's late result was kept");
    every_replay_reads_back(&pool, &url).await;

    // The same tournament on one machine.
    assert!(ok(arbiter()
        .args(["tournament", "local.toml", "-q"])
        .current_dir(dir)));
    let queued = report(&dir.join("queue-out"));
    let local = report(&dir.join("local-out"));
    assert_eq!(queued["done"], GAMES);
    assert_eq!(queued["pending"], 0);
    assert_eq!(queued["standings"], local["standings"]);
    assert_eq!(games(&queued), games(&local));
    for g in queued["games"].as_array().unwrap() {
        let file = g["result"]["replay"].as_str().expect("a replay file");
        let text = std::fs::read_to_string(dir.join("queue-out").join(file)).unwrap();
        Replay::read(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    }
}

/// Three bots, one pairing each way: 6 games.
const SMALL: &str = r#"name = "Small"
output = "out"
games_per_pairing = 2
seed = 5
[game]
name = "reversi"
size = 8
[[bots]]
name = "first"
command = "./rbot 8 0"
[[bots]]
name = "r3"
command = "./rbot 8 3"
[[bots]]
name = "greedy"
command = "builtin:1"
"#;

fn run_ok(dir: &Path, args: &[&str]) {
    let out = arbiter().args(args).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "arbiter {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The queue and the tournament's own record stay in agreement: a resubmitted bot's queued
/// games are cancelled (not played for nothing), and a result played again (course staff
/// re-judging, or quarantine) replaces the one recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resubmissions_cancel_queued_games_and_results_played_again_replace_old_ones() {
    let Some(url) = fresh_pg().await else { return };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    tournament_dir(dir, &[("t.toml", SMALL.to_string())]);

    // A coordinator with no workers enqueues the 6 games, then dies before any is played.
    let mut coord = coordinator(dir, &["t.toml", "--db", &url]);
    let pool = enqueued(&url, 6).await;
    coord.kill().unwrap();
    coord.wait().unwrap();

    // r3 is resubmitted: its 4 queued games are cancelled and 4 new ones played.
    run_ok(
        dir,
        &[
            "tournament",
            "submit",
            "out",
            "r3",
            "./rbot 8 5",
            "--no-run",
        ],
    );
    run_ok(dir, &["tournament", "resume", "out", "-q"]);
    let cancelled = count(&pool, "SELECT COUNT(*) FROM jobs WHERE state = 'cancelled'").await;
    assert_eq!(cancelled, 4, "the old r3's games were cancelled");
    assert_eq!(count(&pool, "SELECT COUNT(*) FROM results").await, 6);
    let r = report(&dir.join("out"));
    assert_eq!(r["done"], 6);
    assert_eq!(r["pending"], 0);

    // A game played again replaces its result.
    let job: i64 = sqlx::query_scalar("SELECT MIN(job) FROM results")
        .fetch_one(&pool)
        .await
        .unwrap();
    let old: String = sqlx::query_scalar("SELECT lease_token FROM results WHERE job = $1")
        .bind(job)
        .fetch_one(&pool)
        .await
        .unwrap();
    let queue = arbiter_queue::Queue::open(arbiter_queue::Db::connect(&url).await.unwrap())
        .await
        .unwrap();
    assert!(queue.replay(job, "re-judged", false).await.unwrap());
    run_ok(dir, &["tournament", "resume", "out", "-q"]);
    let new: String = sqlx::query_scalar("SELECT lease_token FROM results WHERE job = $1")
        .bind(job)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_ne!(old, new, "the game was played again");
    let store = rusqlite::Connection::open(dir.join("out/tournament.db")).unwrap();
    let recorded: String = store
        .query_row(
            "SELECT attempt FROM queue_attempts WHERE attempt = ?1",
            [&new],
            |r| r.get(0),
        )
        .expect("the new attempt is the one recorded");
    assert_eq!(recorded, new);
    assert_eq!(count(&pool, "SELECT COUNT(*) FROM discarded").await, 1);
    let r = report(&dir.join("out"));
    assert_eq!(r["done"], 6);
    every_replay_reads_back(&pool, &url).await;
}
