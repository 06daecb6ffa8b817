//! A three-league contest whose bosses are the built-in ladder's levels (Wood: builtin:1,
//! Bronze: builtin:2, Silver on top), through the real `arbiter contest serve`: a student's
//! bot that beats level 1 and then level 2 is promoted twice, and the site says so; a random
//! mover stays in Wood.

use crate::contest_support;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use contest_support::{api_token, arbiter, free_port, init_contest, wait_up};
use serde_json::Value;

const CONFIG: &str = r#"name = "League contest"
[game]
name = "reversi"
size = 8
[limits]
move_ms = 5000
[submissions]
min_interval_s = 0
daily_budget_s = 0
games_per_pairing = 2
[languages.c]
name = "C"
file = "main.c"
compile = "gcc -O2 -o {out} {src}"
run = "{file} 8 7"
[[leagues]]
name = "Wood"
boss = "builtin:1"
[[leagues]]
name = "Bronze"
boss = "builtin:2"
[[leagues]]
name = "Silver"
[promotion]
rule = "score"
games = 4
share = 0.6
"#;

async fn submit(base: &str, login: &str, file: &str) {
    let src = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures")
            .join(file),
    )
    .unwrap();
    let token = api_token(base, login).await;
    let form = reqwest::multipart::Form::new().text("language", "c").part(
        "file",
        reqwest::multipart::Part::bytes(src).file_name("main.c"),
    );
    let r = reqwest::Client::new()
        .post(format!("{base}/api/submissions"))
        .bearer_auth(&token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
}

fn row<'a>(board: &'a Value, name: &str) -> Option<&'a Value> {
    board["rows"].as_array()?.iter().find(|r| r["name"] == name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_beats_level_two_is_promoted_and_the_site_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    let pool = init_contest(&dir, CONFIG, "login,name\n2301,Strong\n2302,Random\n").await;
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = arbiter()
        .args(["contest", "serve"])
        .arg(&dir)
        .args(["--workers", "2", "--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_up(&base).await;
    submit(&base, "2301", "contest/reversi_search.c").await;
    submit(&base, "2302", "tournament/rbot.c").await;

    let t0 = Instant::now();
    let board = loop {
        let v: Value = reqwest::get(format!("{base}/api/scoreboard"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let board = v["board"].clone();
        let strong = row(&board, "2301").and_then(|r| r["league"]["league"].as_u64());
        let weak =
            row(&board, "2302").and_then(|r| r["league"]["state"].as_str().map(String::from));
        if strong == Some(2) && weak.as_deref() == Some("stays") {
            break board;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(240),
            "no promotion to Silver in 4 minutes: {board}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let strong = row(&board, "2301").unwrap();
    assert_eq!(strong["league"]["state"], "top");
    let weak = row(&board, "2302").unwrap();
    assert_eq!(
        weak["league"]["league"], 0,
        "a random mover does not beat level 1"
    );
    assert!(weak["league"]["points"].as_f64().unwrap() < 2.5);
    assert_eq!(board["leagues"].as_array().unwrap().len(), 3);

    // The scoreboard page shows each league and says who moved up, and what moving up takes.
    let page = reqwest::get(format!("{base}/"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for words in [
        "Silver · the top league",
        "Wood · boss builtin:1",
        "moved up from Bronze (beat builtin:2)",
        "To move up to Bronze: score at least 2.5 of 4 points against builtin:1",
    ] {
        assert!(page.contains(words), "{words:?} not on the scoreboard");
    }
    assert!(
        page.find("Silver ·").unwrap() < page.find("Wood ·").unwrap(),
        "the top league first"
    );
    // Four games against each boss met, and no more: the strong bot met two, the random one.
    let boss_games: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND (side0 LIKE 'boss:%' OR side1 LIKE 'boss:%')",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(boss_games, 12);
    server.kill().unwrap();
    server.wait().unwrap();
}
