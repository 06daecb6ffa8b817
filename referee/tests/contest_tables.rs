//! A contest on a game of three seats (Dou Dizhu, the carried module): four students submit
//! through the site, the server coordinates through PostgreSQL with no local worker, and two
//! `arbiter worker` processes play every table. Every 3-set of current submissions sits at
//! one table of three games, each student once in every seat; the scoreboard's points per
//! place (from contest.toml) are those of the stored results; the submission and game pages
//! show every seat. Then one student submits again: the new submission gets its tables, the
//! old one's games no longer count.
//!
//! Needs a PostgreSQL server: `ARBITER_TEST_PG` (scripts/test.sh starts one on loopback).

use crate::contest_support;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use contest_support::{api_token, arbiter, every_replay_reads_back, fresh_pg, serve_on_pg};
use serde_json::Value;
use sqlx::Row;

const STUDENTS: [&str; 4] = ["s1", "s2", "s3", "s4"];
const PER_PLACE: [f64; 3] = [3.0, 1.0, 0.0];

fn worker(url: &str, id: &str) -> Child {
    arbiter()
        .args(["worker", "--db", url, "--slots", "1", "--id", id, "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter worker")
}

async fn submit(base: &str, login: &str) -> i64 {
    let bot =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots/python/kit_random.py"))
            .unwrap();
    let form = reqwest::multipart::Form::new()
        .text("language", "python")
        .part(
            "file",
            reqwest::multipart::Part::bytes(bot).file_name("kit_random.py"),
        );
    let r = reqwest::Client::new()
        .post(format!("{base}/api/submissions"))
        .bearer_auth(api_token(base, login).await)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let v: Value = r.json().await.unwrap();
    v["id"].as_i64().expect("a submission id")
}

async fn board(base: &str) -> Value {
    let v: Value = reqwest::get(format!("{base}/api/scoreboard"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    v["board"].clone()
}

/// Waits until the board shows `subs` (and only them) with every game of their tables done.
async fn played_out(base: &str, pool: &sqlx::AnyPool, subs: &BTreeSet<i64>) -> Value {
    let t0 = Instant::now();
    loop {
        let b = board(base).await;
        let on_board: BTreeSet<i64> = b["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["submission"].as_i64())
            .collect();
        let open: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running')")
                .fetch_one(pool)
                .await
                .unwrap();
        if &on_board == subs && open == 0 && b["games_total"] == 12 && b["games_done"] == 12 {
            return b;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(400),
            "the tables were not played out: {open} jobs open, board {b}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// Every game of the contest not cancelled, with its seats (submission ids in seat order)
/// and places.
async fn games(pool: &sqlx::AnyPool) -> Vec<(Vec<i64>, Option<Vec<u32>>)> {
    let rows = sqlx::query(
        "SELECT j.id, r.outcome FROM jobs j LEFT JOIN results r ON r.job = j.id \
         WHERE j.kind = 'game' AND j.state <> 'cancelled' ORDER BY j.id",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut out = Vec::new();
    for row in rows {
        let job: i64 = row.get(0);
        let seats: Vec<String> =
            sqlx::query_scalar("SELECT side FROM job_seats WHERE job = $1 ORDER BY seat")
                .bind(job)
                .fetch_all(pool)
                .await
                .unwrap();
        let ids: Vec<i64> = seats.iter().map(|s| s[1..].parse().unwrap()).collect();
        let outcome: Option<String> = row.get(1);
        let places = outcome.and_then(|o| {
            let v: Value = serde_json::from_str(&o).unwrap();
            serde_json::from_value(v["places"].clone()).ok()
        });
        out.push((ids, places));
    }
    out
}

/// The schedule's promises for the current submissions `subs`: each 3-set one table of three
/// games, each of its students once in each seat; every game with places.
fn check_tables(all: &[(Vec<i64>, Option<Vec<u32>>)], subs: &BTreeSet<i64>) {
    let mut tables: BTreeMap<Vec<i64>, Vec<&Vec<i64>>> = BTreeMap::new();
    for (seats, places) in all {
        assert_eq!(seats.len(), 3, "every game has three seats: {seats:?}");
        if seats.iter().all(|s| subs.contains(s)) {
            assert!(places.is_some(), "a game of {seats:?} without places");
            let mut key = seats.clone();
            key.sort_unstable();
            tables.entry(key).or_default().push(seats);
        }
    }
    assert_eq!(tables.len(), 4, "C(4, 3) tables: {tables:?}");
    for (table, games) in &tables {
        assert_eq!(games.len(), 3, "table {table:?} played {games:?}");
        for seat in 0..3 {
            let sat: BTreeSet<i64> = games.iter().map(|g| g[seat]).collect();
            assert_eq!(sat.len(), 3, "table {table:?}: seat {seat} held {sat:?}");
        }
    }
}

/// The points each current submission earned, from the stored places.
fn expected_points(
    all: &[(Vec<i64>, Option<Vec<u32>>)],
    subs: &BTreeSet<i64>,
) -> HashMap<i64, f64> {
    let mut points = HashMap::new();
    for (seats, places) in all {
        let (true, Some(places)) = (seats.iter().all(|s| subs.contains(s)), places) else {
            continue;
        };
        for (s, p) in seats.iter().zip(places) {
            *points.entry(*s).or_insert(0.0) += PER_PLACE[*p as usize - 1];
        }
    }
    points
}

fn check_board(b: &Value, want: &HashMap<i64, f64>) {
    let rows = b["rows"].as_array().unwrap();
    assert_eq!(b["seats"], 3, "{b}");
    assert_eq!(b["points_per_place"], serde_json::json!(PER_PLACE), "{b}");
    let mut last = f64::INFINITY;
    for r in rows {
        let sub = r["submission"].as_i64().unwrap();
        let points = r["game_points"].as_f64().unwrap();
        assert_eq!(points, want[&sub], "submission {sub}: {r}");
        assert!(points <= last, "ranked by points: {b}");
        last = points;
        assert_eq!(r["games"], 9, "three tables of three games: {r}");
        let places: Vec<u64> = serde_json::from_value(r["places"].clone()).unwrap();
        assert_eq!(places.len(), 3, "{r}");
        assert_eq!(places.iter().sum::<u64>(), 9, "{r}");
        assert!(
            r["elo_ci95"].as_f64().unwrap() > 0.0,
            "a rating's interval: {r}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_students_at_tables_of_three_on_two_workers() {
    let Some(url) = fresh_pg().await else { return };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/dist/dou-dizhu.wasm");
    let ok = |c: &mut Command| c.status().unwrap().success();
    assert!(ok(arbiter()
        .args(["contest", "init"])
        .arg(&dir)
        .arg("--game-module")
        .arg(&module)
        .args(["--db", &url])));
    let toml = std::fs::read_to_string(dir.join("contest.toml")).unwrap();
    let toml = toml
        .replace("min_interval_s = 60", "min_interval_s = 0")
        .replace("daily_budget_s = 3600", "daily_budget_s = 0")
        .replace(
            "private_logs = true",
            "private_logs = true\npoints_per_place = [3, 1, 0]",
        );
    std::fs::write(dir.join("contest.toml"), toml).unwrap();
    let (mut server, base, pool) = serve_on_pg(
        &dir,
        &url,
        "login,name\ns1,Ada\ns2,Alan\ns3,Grace\ns4,Edsger\n",
    )
    .await;
    let mut workers = [worker(&url, "w1"), worker(&url, "w2")];
    let mut subs = BTreeSet::new();
    for login in STUDENTS {
        subs.insert(submit(&base, login).await);
    }

    let b = played_out(&base, &pool, &subs).await;
    let all = games(&pool).await;
    check_tables(&all, &subs);
    check_board(&b, &expected_points(&all, &subs));
    let by_worker: Vec<String> = sqlx::query_scalar("SELECT DISTINCT worker FROM results")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(
        by_worker.len() >= 2,
        "one worker played everything: {by_worker:?}"
    );

    // The pages show every seat: a submission's tables name the two others, a game its three
    // seats.
    let token = api_token(&base, "s1").await;
    let first = *subs.iter().next().unwrap();
    let page = reqwest::Client::new()
        .get(format!("{base}/api/submissions/{first}"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let v: Value = page.json().await.unwrap();
    let listed = v["games"].as_array().unwrap();
    assert_eq!(listed.len(), 9, "{v}");
    let game = listed[0]["id"].as_i64().unwrap();
    assert_eq!(listed[0]["seats"].as_array().unwrap().len(), 3, "{v}");
    assert_eq!(listed[0]["places"].as_array().unwrap().len(), 3, "{v}");
    let html = reqwest::get(format!("{base}/games/{game}"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for seat in ["Seat 1", "Seat 2", "Seat 3"] {
        assert!(
            html.contains(&format!("<dt>{seat}</dt>")),
            "{seat} on the game page"
        );
    }
    let html = reqwest::get(format!("{base}/"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("A game of 3 seats"),
        "the board's rules: {html}"
    );

    // s1 submits again: only its new submission counts, and it gets its own three tables.
    let again = submit(&base, "s1").await;
    subs.remove(&first);
    subs.insert(again);
    let b = played_out(&base, &pool, &subs).await;
    let all = games(&pool).await;
    check_tables(&all, &subs);
    check_board(&b, &expected_points(&all, &subs));
    let old_open: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM jobs j JOIN job_seats t ON t.job = j.id \
         WHERE t.side = $1 AND j.state IN ('queued', 'running')",
    )
    .bind(format!("s{first}"))
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(old_open, 0);

    for c in &mut workers {
        let _ = c.kill();
        let _ = c.wait();
    }
    server.kill().unwrap();
    server.wait().unwrap();
    arbiter_kit_host::host::install();
    arbiter_kit_host::host::register_file(&module).unwrap();
    every_replay_reads_back(&pool, &url).await;
}
