//! A ladder contest through the real `arbiter contest serve`: each new submission plays a batch
//! of games at a time against opponents near its rating until its interval is narrow or its
//! games are used up; the board ranks by rating.

use crate::contest_support;

use std::process::Stdio;
use std::time::{Duration, Instant};

use contest_support::{arbiter, free_port, init_contest, submit_fixture_bot, wait_up};
use serde_json::Value;
use sqlx::Row;

const CONFIG: &str = r#"name = "Ladder contest"
[game]
name = "reversi"
size = 6
[limits]
move_ms = 2000
[submissions]
min_interval_s = 0
daily_budget_s = 0
games_per_pairing = 2
[languages.c]
name = "C"
file = "main.c"
compile = "gcc -O1 -o {out} {src}"
run = "{file} 6 0"
[schedule]
format = "ladder"
[ladder]
interval = 150
max_games = 12
batch = 4
spread = 150
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ladder_places_each_submission_in_batches_and_ranks_by_rating() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    let students = ["s1", "s2", "s3", "s4"];
    let pool = init_contest(&dir, CONFIG, "login,name\ns1,A\ns2,B\ns3,C\ns4,D\n").await;
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    // The server's own words go to a file, shown if the ladder does not settle.
    let log_path = tmp.path().join("serve.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let mut server = arbiter()
        .args(["contest", "serve"])
        .arg(&dir)
        .args(["--workers", "2", "--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    wait_up(&base).await;
    submit_fixture_bot(&base, &students).await;
    // Settled: every submission has played its max_games (equal bots cannot narrow the
    // interval sooner, see below), and nothing has been queued or played for 4 s. Waiting for
    // the games themselves, not for a quiet spell alone: on a loaded machine a quiet spell
    // comes before the ladder's next batch (a tick that found the database busy).
    let t0 = Instant::now();
    let mut quiet = 0;
    let mut last = -1;
    loop {
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running') OR \
             (kind = 'compile' AND state <> 'done')",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        let all: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE kind = 'game'")
            .fetch_one(&pool)
            .await
            .unwrap();
        let fewest = fewest_done(&pool, students.len()).await;
        quiet = if open == 0 && all == last && fewest >= 12 {
            quiet + 1
        } else {
            0
        };
        last = all;
        if quiet >= 8 {
            break;
        }
        if t0.elapsed() > Duration::from_secs(420) {
            let jobs = sqlx::query(
                "SELECT kind, state, lane, COUNT(*) FROM jobs GROUP BY kind, state, lane",
            )
            .fetch_all(&pool)
            .await
            .unwrap();
            for r in &jobs {
                let (kind, state, lane, n): (String, String, Option<String>, i64) =
                    (r.get(0), r.get(1), r.get(2), r.get(3));
                eprintln!("{kind} {state} {lane:?}: {n}");
            }
            let said = std::fs::read_to_string(&log_path).unwrap_or_default();
            eprintln!("the server said:\n{said}");
            panic!("the ladder never settled: {open} open, {all} games, fewest done {fewest}");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let lanes = sqlx::query(
        "SELECT lane, COUNT(*) FROM jobs WHERE kind = 'game' GROUP BY lane ORDER BY lane",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    // A lane per student whose placing queued games; a submission may be placed by games
    // that others' placing already played against it (then it queues none): every one has
    // its games either way (below).
    assert!(
        !lanes.is_empty() && lanes.len() <= students.len(),
        "{} lanes",
        lanes.len()
    );
    for r in &lanes {
        let (lane, n): (String, i64) = (r.get(0), r.get(1));
        eprintln!("{lane}: {n} games queued for its placing");
        assert_eq!(n % 2, 0, "pairs of games, colours swapped");
        assert!(n >= 4, "{lane}: {n} games, less than a batch");
        // Queued only while fewer than max_games (12) are done: at most 10 done, plus a batch.
        assert!(n <= 10 + 4, "{lane}: {n} games, past max_games and a batch");
    }
    let v: Value = reqwest::get(format!("{base}/api/scoreboard"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let board = &v["board"];
    assert_eq!(board["by_rating"], true);
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let elos: Vec<f64> = rows.iter().map(|r| r["elo"].as_f64().unwrap()).collect();
    assert!(
        elos.windows(2).all(|w| w[0] >= w[1]),
        "ranked by rating: {elos:?}"
    );
    for r in rows {
        let ci = r["elo_ci95"].as_f64().unwrap();
        assert!(
            ci.is_finite() && ci > 0.0,
            "a rating with its interval: {r}"
        );
        // Placing stopped only once it was over: 12 games (max_games) against other students,
        // since equal bots cannot narrow a 95 % interval to +-150 Elo in fewer (it takes 20).
        let side = format!("s{}", r["submission"].as_i64().unwrap());
        let done: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND state = 'done' \
             AND (side0 = $1 OR side1 = $1)",
        )
        .bind(&side)
        .fetch_one(&pool)
        .await
        .unwrap();
        assert!(done >= 12, "{side}: placed after {done} games");
        let on_board = r["games"].as_i64().unwrap();
        assert!(
            on_board > 0 && on_board <= done,
            "{side}: {on_board} games on the board"
        );
    }
    server.kill().unwrap();
    server.wait().unwrap();
}

/// The fewest finished games any of the `n` submissions (ids 1..=n) has played.
async fn fewest_done(pool: &sqlx::AnyPool, n: usize) -> i64 {
    let mut fewest = i64::MAX;
    for id in 1..=n {
        let done: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND state = 'done' \
             AND (side0 = $1 OR side1 = $1)",
        )
        .bind(format!("s{id}"))
        .fetch_one(pool)
        .await
        .unwrap();
        fewest = fewest.min(done);
    }
    fewest
}
