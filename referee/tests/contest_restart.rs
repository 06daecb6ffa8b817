//! `kill -9` of a contest server in the middle of games, then a restart: every scheduled game
//! is played exactly once (one result each, none lost, none twice), and every replay reads back
//! through the engine. Runs the real `arbiter contest serve` process.

use crate::contest_support;

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use contest_support::{
    arbiter, every_replay_reads_back, free_port, init_contest, submit_fixture_bot, wait_up, CONFIG,
};
use sqlx::Row;

fn serve(dir: &Path, port: u16) -> Child {
    arbiter()
        .args(["contest", "serve"])
        .arg(dir)
        .args(["--workers", "1", "--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter contest serve")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_during_games_plays_every_game_exactly_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    let pool = init_contest(&dir, CONFIG, "login,name\ns1,A\ns2,B\ns3,C\ns4,D\n").await;

    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = serve(&dir, port);
    wait_up(&base).await;
    submit_fixture_bot(&base, &["s1", "s2", "s3", "s4"]).await;

    // Kill the server while a game is being played and others are done.
    let t0 = Instant::now();
    loop {
        let row = sqlx::query("SELECT (SELECT COUNT(*) FROM results r JOIN jobs j ON j.id = r.job WHERE j.kind = 'game'), \
            (SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND state = 'running')").fetch_one(&pool).await.unwrap();
        let (done, running): (i64, i64) = (row.get(0), row.get(1));
        if done >= 2 && running == 1 {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "no game in progress to interrupt"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.kill().unwrap();
    server.wait().unwrap();
    let interrupted: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND state = 'running'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(interrupted, 1, "the kill landed during a game");

    let mut server = serve(&dir, port);
    wait_up(&base).await;
    let t0 = Instant::now();
    loop {
        let left: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND state IN ('queued', 'running')",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE kind = 'game'")
            .fetch_one(&pool)
            .await
            .unwrap();
        if left == 0 && total == 12 {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(240),
            "the games did not finish after the restart"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    server.kill().unwrap();
    server.wait().unwrap();

    // 4 students: 6 pairings of 2 games, each scheduled once, each with exactly one result.
    let per_pair = sqlx::query(
        "SELECT side0, side1, COUNT(*) FROM jobs WHERE kind = 'game' GROUP BY side0, side1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(per_pair.len(), 12, "each pairing plays each colour once");
    for row in &per_pair {
        assert_eq!(row.get::<i64, _>(2), 1, "a game scheduled twice");
    }
    let results: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM results r JOIN jobs j ON j.id = r.job WHERE j.kind = 'game'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(results, 12, "one result per game");
    let requeued: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM events WHERE kind = 'requeued'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(requeued, 1, "the interrupted game went back to the queue");
    let db_path = dir.join("contest.db").display().to_string();
    every_replay_reads_back(&pool, &db_path).await;
}
