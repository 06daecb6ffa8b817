//! What the contest and queue process tests share: the contest, the `arbiter` binary, a fresh
//! PostgreSQL database, and students signing in and submitting the fixture bot through the API.

#![allow(dead_code)] // each test binary uses its own part of it

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use arbiter_engine::replay::Replay;
use serde_json::Value;
use sqlx::Row;

/// 8 x 8 Reversi, the C fixture bot (slow enough that games are caught in progress), two games
/// a pairing, no submission limits.
pub const CONFIG: &str = r#"name = "Test contest"
[game]
name = "reversi"
size = 8
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
run = "{file} 8 0 slow"
"#;

async fn get_json(url: &str) -> Value {
    reqwest::get(url).await.unwrap().json().await.unwrap()
}

/// Waits (3 minutes at most) until a served demo has played every game of its scoreboard;
/// returns the board, and whether a game was ever seen in progress on `/live`.
pub async fn demo_played_out(base: &str) -> (Value, bool) {
    let t0 = Instant::now();
    let mut seen_playing = false;
    loop {
        let live = get_json(&format!("{base}/live/games.json")).await;
        seen_playing |= live
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["finished"] == false && g["moves"].as_u64() > Some(0));
        let board = get_json(&format!("{base}/api/scoreboard")).await["board"].clone();
        let total = board["games_total"].as_u64().unwrap_or(0);
        if total > 0 && board["games_done"].as_u64() == Some(total) {
            return (board, seen_playing);
        }
        assert!(
            t0.elapsed() < Duration::from_secs(180),
            "the demo's games were not all played in 3 minutes: {board}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// A new contest in `dir` (8 x 8 Reversi, then `config`) with the accounts of `roster` (a
/// CSV text), who may sign in with their login as password at once. Returns its database.
pub async fn init_contest(dir: &Path, config: &str, roster: &str) -> sqlx::AnyPool {
    assert!(arbiter()
        .args(["contest", "init"])
        .arg(dir)
        .args(["--game", "reversi", "--size", "8"])
        .status()
        .unwrap()
        .success());
    std::fs::write(dir.join("contest.toml"), config).unwrap();
    let roster_file = dir.join("roster.csv");
    std::fs::write(&roster_file, roster).unwrap();
    assert!(arbiter()
        .args(["contest", "users"])
        .arg(dir)
        .arg(&roster_file)
        .status()
        .unwrap()
        .success());
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&format!(
        "sqlite://{}?mode=rw",
        dir.join("contest.db").display()
    ))
    .await
    .unwrap();
    // The tests sign their students in with the API: skip the first-sign-in password change.
    sqlx::query("UPDATE users SET must_change = 0")
        .execute(&pool)
        .await
        .unwrap();
    pool
}

/// Imports `roster` (a CSV text) into the contest in `dir` on PostgreSQL `url`, lets its
/// students sign in with their login as password at once, and serves it with no local
/// worker (workers on other machines play). Returns the server, its address and the database.
pub async fn serve_on_pg(
    dir: &Path,
    url: &str,
    roster: &str,
) -> (std::process::Child, String, sqlx::AnyPool) {
    let roster_file = dir.join("roster.csv");
    std::fs::write(&roster_file, roster).unwrap();
    assert!(arbiter()
        .args(["contest", "users"])
        .arg(dir)
        .arg(&roster_file)
        .args(["--db", url])
        .status()
        .unwrap()
        .success());
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    sqlx::query("UPDATE users SET must_change = 0")
        .execute(&pool)
        .await
        .unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let server = arbiter()
        .args(["contest", "serve"])
        .arg(dir)
        .args(["--workers", "0", "--db", url])
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_up(&base).await;
    (server, base, pool)
}

pub fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits until the server at `base` answers.
pub async fn wait_up(base: &str) {
    let t0 = Instant::now();
    while reqwest::get(format!("{base}/api/scoreboard"))
        .await
        .is_err()
    {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the server did not come up"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `login` (password = login) signs in to the API; returns the token.
pub async fn api_token(base: &str, login: &str) -> String {
    let t: Value = reqwest::Client::new()
        .post(format!("{base}/api/login"))
        .json(&serde_json::json!({"login": login, "password": login}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    t["token"].as_str().expect("a token").to_string()
}

/// Each of `logins` (password = login) signs in and submits tests/fixtures/tournament/rbot.c.
pub async fn submit_fixture_bot(base: &str, logins: &[&str]) {
    let bot = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tournament/rbot.c"),
    )
    .unwrap();
    let http = reqwest::Client::new();
    for login in logins {
        let token = api_token(base, login).await;
        let form = reqwest::multipart::Form::new().text("language", "c").part(
            "file",
            reqwest::multipart::Part::bytes(bot.clone()).file_name("rbot.c"),
        );
        let r = http
            .post(format!("{base}/api/submissions"))
            .bearer_auth(&token)
            .multipart(form)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 201);
    }
}

/// Every game with a result has a stored replay that reads back through the engine.
pub async fn every_replay_reads_back(pool: &sqlx::AnyPool, db_url: &str) {
    let queue = arbiter_queue::Queue::open(arbiter_queue::Db::connect(db_url).await.unwrap())
        .await
        .unwrap();
    let games = sqlx::query(
        "SELECT r.job FROM results r JOIN jobs j ON j.id = r.job WHERE j.kind = 'game'",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    for row in games {
        let job: i64 = row.get(0);
        let text = arbiter_queue::worker::replay_text(&queue, job)
            .await
            .unwrap()
            .expect("a stored replay");
        Replay::read(&text).unwrap_or_else(|e| panic!("game {job}: {e}"));
    }
}

/// A new, empty database on the test server, or `None` when there is no server.
pub async fn fresh_pg() -> Option<String> {
    let Ok(base) = std::env::var("ARBITER_TEST_PG") else {
        if std::env::var("ARBITER_REQUIRE_PG").as_deref() == Ok("1") {
            panic!("ARBITER_REQUIRE_PG=1 but ARBITER_TEST_PG is not set");
        }
        eprintln!("ARBITER_TEST_PG not set: skipped (scripts/test.sh sets it)");
        return None;
    };
    sqlx::any::install_default_drivers();
    let admin = sqlx::AnyPool::connect(&base)
        .await
        .expect("ARBITER_TEST_PG");
    let name = format!(
        "w{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .expect("create database");
    admin.close().await;
    let (prefix, _) = base.rsplit_once('/').expect("a database in the URL");
    Some(format!("{prefix}/{name}"))
}
