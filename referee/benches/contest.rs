//! Contest server figures (prints them; run with `cargo bench -p arbiter --bench contest`):
//!
//! 1. scoreboard recomputation for 300 students (44,850 pairings, 89,700 games) from the
//!    database (goal under 1 s);
//! 2. the scoreboard page's latency at 200 requests a second on loopback from a bounded load
//!    generator (at most 64 requests in flight), against a real `arbiter contest serve` holding
//!    that contest (goal: p95 under 50 ms);
//! 3. the time from a submission on an idle server to its first game started (goal under 5 s).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use sqlx::Row;

const STUDENTS: usize = 300;

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn serve(dir: &Path, port: u16, workers: usize) -> Child {
    arbiter()
        .args(["contest", "serve"])
        .arg(dir)
        .args([
            "--workers",
            &workers.to_string(),
            "--listen",
            &format!("127.0.0.1:{port}"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter contest serve")
}

async fn wait_up(base: &str) {
    let t0 = Instant::now();
    while reqwest::get(format!("{base}/api/scoreboard"))
        .await
        .is_err()
    {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the server did not come up"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn init(dir: &Path, roster: &str) {
    assert!(arbiter()
        .args(["contest", "init"])
        .arg(dir)
        .args(["--game", "reversi", "--size", "8"])
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success());
    let path = dir.join("roster.csv");
    std::fs::write(&path, roster).unwrap();
    assert!(arbiter()
        .args(["contest", "users"])
        .arg(dir)
        .arg(&path)
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success());
}

/// A contest database as 300 students leave it: each with a ready submission, every pairing's
/// two games played.
async fn fill(dir: &Path) -> (arbiter_queue::Db, i64) {
    let db = arbiter_queue::Db::connect(&dir.join("contest.db").display().to_string())
        .await
        .unwrap();
    let queue = arbiter_queue::Queue::open(db.clone()).await.unwrap();
    let competition = queue
        .competition("contest", "contest:bench", "{}")
        .await
        .unwrap();
    let mut tx = db.begin().await.unwrap();
    sqlx::query("UPDATE users SET must_change = 0, nickname = 'n' || login")
        .execute(&mut *tx)
        .await
        .unwrap();
    let users: Vec<i64> = sqlx::query_scalar("SELECT id FROM users WHERE admin = 0 ORDER BY id")
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    let mut subs = Vec::new();
    for u in &users {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO submissions (user_id, language, file_name, source, size, status, artefact, run, created_at, ready_at) \
             VALUES ($1, 'c', 'bot.c', 'x', 1, 'ready', 'x', '{file}', 0, 0) RETURNING id",
        )
        .bind(u)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        subs.push(id);
    }
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for i in 0..subs.len() {
        for j in i + 1..subs.len() {
            for k in 0..2 {
                let (a, b) = if k == 0 {
                    (subs[i], subs[j])
                } else {
                    (subs[j], subs[i])
                };
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let winner = match rng % 5 {
                    0 => "null",
                    1 | 2 => "0",
                    _ => "1",
                };
                let job: i64 = sqlx::query_scalar(
                    "INSERT INTO jobs (competition, lane, kind, spec, side0, side1, state, created_at) \
                     VALUES ($1, 'l', 'game', '{}', $2, $3, 'done', 0) RETURNING id",
                )
                .bind(competition)
                .bind(format!("s{a}"))
                .bind(format!("s{b}"))
                .fetch_one(&mut *tx)
                .await
                .unwrap();
                sqlx::query(
                    "INSERT INTO results (job, competition, lease_token, worker, outcome, created_at) VALUES ($1, $2, 't', 'w', $3, 0)",
                )
                .bind(job)
                .bind(competition)
                .bind(format!("{{\"winner\":{winner},\"reason\":\"normal\",\"verdict\":\"normal end\",\"culprit\":null,\"moves\":60,\"think_ms\":[1.0,1.0],\"moves_by\":[30,30],\"wall_ms\":10.0}}"))
                .execute(&mut *tx)
                .await
                .unwrap();
            }
        }
    }
    tx.commit().await.unwrap();
    (db, competition)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

async fn scoreboard_load(base: &str) {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .unwrap();
    let rate = 200.0;
    let seconds = 10.0;
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / rate));
    let t0 = Instant::now();
    let mut sent = 0;
    let mut dropped = 0;
    while t0.elapsed().as_secs_f64() < seconds {
        ticker.tick().await;
        let Ok(permit) = Arc::clone(&gate).try_acquire_owned() else {
            dropped += 1;
            continue;
        };
        sent += 1;
        let (client, url, tx) = (client.clone(), format!("{base}/"), tx.clone());
        tokio::spawn(async move {
            let start = Instant::now();
            let ok = client
                .get(url)
                .send()
                .await
                .map(|r| r.status().is_success())
                .unwrap_or(false);
            let body_ms = start.elapsed().as_secs_f64() * 1000.0;
            let _ = tx.send((ok, body_ms));
            drop(permit);
        });
    }
    drop(tx);
    let mut lat = Vec::new();
    let mut failed = 0;
    while let Some((ok, ms)) = rx.recv().await {
        if ok {
            lat.push(ms)
        } else {
            failed += 1
        }
    }
    lat.sort_by(f64::total_cmp);
    println!(
        "scoreboard page at {rate:.0} req/s for {seconds:.0} s: {} answered, {failed} failed, {dropped} not sent (64 in flight); \
         latency p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms (goal p95 < 50 ms)",
        lat.len(),
        percentile(&lat, 0.5),
        percentile(&lat, 0.95),
        percentile(&lat, 0.99),
        lat.last().copied().unwrap_or(0.0),
    );
    assert!(sent > 0);
}

async fn first_game(tmp: &Path) {
    let dir = tmp.join("idle");
    init(&dir, "login,name\na,A\nb,B\n");
    std::fs::write(
        dir.join("contest.toml"),
        "name = \"idle\"\n[game]\nname = \"reversi\"\nsize = 8\nprotocol = \"reversi-board\"\n[submissions]\nmin_interval_s = 0\n\
         [languages.c]\nname = \"C\"\nfile = \"main.c\"\ncompile = \"gcc -O2 -o {out} {src}\"\nrun = \"{file}\"\n",
    )
    .unwrap();
    let pool = arbiter_queue::Db::connect(&dir.join("contest.db").display().to_string())
        .await
        .unwrap();
    sqlx::query("UPDATE users SET must_change = 0")
        .execute(pool.pool())
        .await
        .unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = serve(&dir, port, 1);
    wait_up(&base).await;
    let src =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots/c/reversi_greedy.c"))
            .unwrap();
    let http = reqwest::Client::new();
    let submit = |login: &'static str| {
        let (http, base, src) = (http.clone(), base.clone(), src.clone());
        async move {
            let t: Value = http
                .post(format!("{base}/api/login"))
                .json(&serde_json::json!({"login": login, "password": login}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let form = reqwest::multipart::Form::new().text("language", "c").part(
                "file",
                reqwest::multipart::Part::bytes(src).file_name("bot.c"),
            );
            let r = http
                .post(format!("{base}/api/submissions"))
                .bearer_auth(t["token"].as_str().unwrap())
                .multipart(form)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 201);
        }
    };
    submit("a").await;
    // Wait until the first submission is ready and the server idle again.
    loop {
        let ready: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE status = 'ready'")
                .fetch_one(pool.pool())
                .await
                .unwrap();
        if ready == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let t0 = Instant::now();
    submit("b").await;
    let compiled_at = loop {
        let row = sqlx::query("SELECT COUNT(*) FROM submissions WHERE status = 'ready'")
            .fetch_one(pool.pool())
            .await
            .unwrap();
        if row.get::<i64, _>(0) == 2 {
            break t0.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    loop {
        let started: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND started_at IS NOT NULL",
        )
        .fetch_one(pool.pool())
        .await
        .unwrap();
        if started > 0 {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(60));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    println!(
        "idle server, submission (C, gcc -O2) to its first game started: {:.2} s (compiled and ready at {:.2} s) (goal < 5 s)",
        t0.elapsed().as_secs_f64(),
        compiled_at.as_secs_f64()
    );
    server.kill().unwrap();
    let _ = server.wait();
}

#[tokio::main]
async fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("big");
    let roster: String = std::iter::once("login,name".to_string())
        .chain((0..STUDENTS).map(|i| format!("u{i:03},Student {i}")))
        .collect::<Vec<_>>()
        .join("\n");
    init(&dir, &roster);
    let t0 = Instant::now();
    let (db, competition) = fill(&dir).await;
    println!(
        "filled a contest of {STUDENTS} students, {} games, in {:.1} s",
        STUDENTS * (STUDENTS - 1),
        t0.elapsed().as_secs_f64()
    );
    let mut times = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let board = arbiter_server::scoreboard::compute_from(&db, competition, 2)
            .await
            .unwrap();
        times.push(t.elapsed().as_secs_f64());
        assert_eq!(board.rows.len(), STUDENTS);
        assert_eq!(board.games_done, STUDENTS * (STUDENTS - 1));
    }
    times.sort_by(f64::total_cmp);
    println!(
        "scoreboard recomputation, {STUDENTS} students ({} pairings, {} games) from SQLite: median {:.3} s, best {:.3} s (goal < 1 s)",
        STUDENTS * (STUDENTS - 1) / 2,
        STUDENTS * (STUDENTS - 1),
        times[1],
        times[0]
    );
    db.close().await;
    // The served contest's name must match the competition the fill used.
    let toml = std::fs::read_to_string(dir.join("contest.toml"))
        .unwrap()
        .replacen("name = \"big\"", "name = \"bench\"", 1);
    std::fs::write(dir.join("contest.toml"), toml).unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = serve(&dir, port, 0);
    wait_up(&base).await;
    let rows = reqwest::get(format!("{base}/api/scoreboard"))
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap()["board"]["rows"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(rows, STUDENTS, "the served board holds the filled contest");
    scoreboard_load(&base).await;
    server.kill().unwrap();
    let _ = server.wait();
    first_game(tmp.path()).await;
}
