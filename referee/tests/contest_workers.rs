//! A contest judged on several machines: the server coordinates through PostgreSQL with no
//! local worker, and three `arbiter worker` processes play every game. One worker is killed
//! with SIGKILL in the middle of a game, another is frozen with SIGSTOP past its lease and
//! then woken. Every game is still played exactly once, the late result is set aside and
//! recorded, and every replay reads back through the engine.
//!
//! Needs a PostgreSQL server: `ARBITER_TEST_PG` (scripts/test.sh starts one on loopback).

use crate::contest_support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use contest_support::{
    arbiter, every_replay_reads_back, fresh_pg, serve_on_pg, submit_fixture_bot, CONFIG,
};
use serde_json::Value;
use sqlx::Row;

const STUDENTS: [&str; 5] = ["s1", "s2", "s3", "s4", "s5"];
/// 5 students: 10 pairings, 2 games each.
const GAMES: i64 = 20;
const LEASE_S: u64 = 3;

fn worker(url: &str, id: &str) -> Child {
    arbiter()
        .args(["worker", "--db", url, "--slots", "1", "--id", id, "-q"])
        .args(["--lease", &LEASE_S.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter worker")
}

async fn count(pool: &sqlx::AnyPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

/// Waits until `worker` holds a game in progress.
async fn playing(pool: &sqlx::AnyPool, worker: &str) {
    let t0 = Instant::now();
    let sql = format!(
        "SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND state = 'running' AND worker = '{worker}'"
    );
    while count(pool, &sql).await == 0 {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "{worker} never played a game"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_spread_over_workers_survive_a_killed_and_a_frozen_one() {
    let Some(url) = fresh_pg().await else { return };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    let ok = |c: &mut Command| c.status().unwrap().success();
    assert!(ok(arbiter()
        .args(["contest", "init"])
        .arg(&dir)
        .args(["--game", "reversi", "--size", "8", "--db", &url])));
    std::fs::write(dir.join("contest.toml"), CONFIG).unwrap();
    let (mut server, base, pool) =
        serve_on_pg(&dir, &url, "login,name\ns1,A\ns2,B\ns3,C\ns4,D\ns5,E\n").await;
    let mut workers = [worker(&url, "w1"), worker(&url, "w2"), worker(&url, "w3")];
    submit_fixture_bot(&base, &STUDENTS).await;

    // w1 dies outright in the middle of a game.
    playing(&pool, "w1").await;
    workers[0].kill().unwrap();
    workers[0].wait().unwrap();
    // w2 freezes past its lease, then wakes up and tries to commit what it was playing.
    playing(&pool, "w2").await;
    let pid = workers[1].id().to_string();
    assert!(ok(Command::new("kill").args(["-STOP", &pid])));
    tokio::time::sleep(Duration::from_secs(LEASE_S * 2 + 2)).await;
    assert!(ok(Command::new("kill").args(["-CONT", &pid])));

    let t0 = Instant::now();
    loop {
        let left = count(
            &pool,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND state IN ('queued', 'running')",
        )
        .await;
        let total = count(&pool, "SELECT COUNT(*) FROM jobs WHERE kind = 'game'").await;
        if left == 0 && total == GAMES {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "{left} of {total} games unfinished"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // `arbiter workers` shows all three, with their games and the set-aside result.
    let listing = arbiter()
        .args(["workers", "--db", &url, "--json"])
        .output()
        .unwrap();
    assert!(listing.status.success());
    let rows: Vec<Value> = serde_json::from_slice(&listing.stdout).unwrap();
    let ids: Vec<&str> = rows.iter().filter_map(|r| r["id"].as_str()).collect();
    for id in ["w1", "w2", "w3"] {
        assert!(
            ids.contains(&id),
            "{id} missing from `arbiter workers`: {ids:?}"
        );
    }
    for mut c in workers.into_iter().skip(1) {
        let _ = c.kill();
        let _ = c.wait();
    }
    server.kill().unwrap();
    server.wait().unwrap();

    // Every pairing and colour scheduled once, each with exactly one result.
    let per_pair = sqlx::query(
        "SELECT side0, side1, COUNT(*) FROM jobs WHERE kind = 'game' GROUP BY side0, side1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(per_pair.len() as i64, GAMES);
    for row in &per_pair {
        assert_eq!(row.get::<i64, _>(2), 1, "a game scheduled twice");
    }
    let results = count(
        &pool,
        "SELECT COUNT(*) FROM results r JOIN jobs j ON j.id = r.job WHERE j.kind = 'game'",
    )
    .await;
    assert_eq!(results, GAMES, "one result per game");
    let requeued = count(
        &pool,
        "SELECT COUNT(*) FROM events WHERE kind = 'lease_expired'",
    )
    .await;
    assert!(
        requeued >= 2,
        "both lost leases went back to the queue ({requeued})"
    );
    let set_aside = count(&pool, "SELECT COUNT(*) FROM discarded WHERE worker = 'w2'").await;
    assert!(
        set_aside >= 1,
        "the frozen worker's late result was not recorded as set aside"
    );
    // The games were shared: no worker played them all.
    let by_worker = sqlx::query("SELECT worker, COUNT(*) FROM results GROUP BY worker")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(by_worker.len() >= 2, "one worker played everything");

    every_replay_reads_back(&pool, &url).await;
}
