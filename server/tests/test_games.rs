//! Test games on the site (issue 38): a student plays their bot against a level of the
//! built-in bot, another student's bot, or themselves; none of it moves the scoreboard, the
//! other student's logs stay theirs, the hourly bound holds, and nobody else opens them.

use crate::support;

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;
use support::{api_submission, bots, student, wait_for, Browser, TestContest};

const ROSTER: &str = "student_id,name\n2301,Ada\n2302,Alan\n";

/// What Alan's bot writes in its DEBUG lines: only he and the course staff may read it.
const ALAN_SECRET: &str = "ALAN-SECRET-7f3a";

async fn ready(c: &TestContest, token: &str, id: i64) {
    wait_for(
        Duration::from_secs(240),
        &format!("submission {id} and its games"),
        || async {
            let v = api_submission(c, token, id).await;
            let over = v["games"]
                .as_array()?
                .iter()
                .all(|g| matches!(g["state"].as_str(), Some("done" | "cancelled")));
            (v["status"] == "ready" && over).then_some(())
        },
    )
    .await
}

async fn board(c: &TestContest) -> Value {
    let v: Value = c
        .client()
        .http
        .get(c.url("/api/scoreboard"))
        .send()
        .await
        .expect("the scoreboard")
        .json()
        .await
        .expect("JSON");
    v["board"].clone()
}

/// Starts a test game from the form; the answer (a redirect to its page, or the refusal).
pub(crate) async fn start(b: &mut Browser, opponent: &str, seat: &str) -> (StatusCode, String) {
    let (status, page) = b.get("/test-games").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let csrf = b.csrf.clone();
    b.post_form(
        "/test-games",
        &[("csrf", &csrf), ("opponent", opponent), ("seat", seat)],
    )
    .await
}

/// Waits for test game `n`'s replay, as `b` may read it.
pub(crate) async fn replay(b: &Browser, n: i64) -> Value {
    let url = format!("{}/test-games/{n}/replay.json", b.base);
    wait_for(
        Duration::from_secs(180),
        &format!("test game {n} to be played"),
        || async {
            let r = b.http.get(&url).send().await.ok()?;
            if r.status() != StatusCode::OK {
                return None;
            }
            r.json::<Value>().await.ok()
        },
    )
    .await
}

async fn job_of(db: &arbiter_queue::Db, number: i64) -> (i64, String) {
    let row: (i64, String) = sqlx::query_as(
        "SELECT id, kind FROM jobs WHERE number = $1 AND kind IN ('test_game', 'person_game')",
    )
    .bind(number)
    .fetch_one(db.pool())
    .await
    .expect("the test game's job");
    row
}

/// The built-in bot is `arbiter bot ...`: this test binary is not arbiter, so its levels run
/// the workspace's `arbiter` (`cargo test --workspace` builds it for the referee's tests).
fn use_the_arbiter_binary() {
    let exe = std::env::current_exe().unwrap();
    let bin = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|profile| profile.join("arbiter"))
        .unwrap();
    assert!(
        bin.is_file(),
        "{} is missing: build it first (cargo build --release -p arbiter), or run the \
         workspace's tests (cargo test --workspace --release)",
        bin.display()
    );
    std::env::set_var("ARBITER_EXE", &bin);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_student_s_test_games_never_move_the_scoreboard_and_stay_theirs() {
    use_the_arbiter_binary();
    for database in support::databases().await {
        let c = TestContest::start(database, "[test_games]\nper_hour = 4\n", ROSTER, 1).await;
        let (mut ada, ada_token) = student(&c, "2301", "ada").await;
        let (mut alan, alan_token) = student(&c, "2302", "alan").await;
        let greedy = std::fs::read(bots().join("c/reversi_greedy.c")).unwrap();
        // Alan's bot is the same program, its DEBUG lines his own.
        let alan_source = String::from_utf8(greedy.clone())
            .unwrap()
            .replace("DEBUG flipping", &format!("DEBUG {ALAN_SECRET}"));
        let ada_bot = ada.submit_file("c", "greedy.c", greedy).await.unwrap();
        let alan_bot = alan
            .submit_file("c", "mine.c", alan_source.into_bytes())
            .await
            .unwrap();
        ready(&c, &ada_token, ada_bot).await;
        ready(&c, &alan_token, alan_bot).await;
        // The pairing's two games, once the scoreboard shows them.
        let before = wait_for(Duration::from_secs(30), "the scoreboard", || async {
            let b = board(&c).await;
            (b["games_done"] == 2).then_some(b)
        })
        .await;

        // The form offers the levels, Alan's bot and Ada herself.
        let (_, page) = ada.get("/test-games").await;
        for option in ["value=\"level:2\"", "value=\"me\"", ">alan<"] {
            assert!(page.contains(option), "the form offers {option}: {page}");
        }

        // Against level 2, her bot second.
        let (status, to) = start(&mut ada, "level:2", "1").await;
        assert_eq!(
            (status, to.as_str()),
            (StatusCode::SEE_OTHER, "/test-games/1")
        );
        let r = replay(&ada, 1).await;
        assert_eq!(r["players"][0]["name"], "builtin:2", "{}", r["players"]);
        assert!(
            r["players"][1]["name"]
                .as_str()
                .unwrap()
                .starts_with("ada #"),
            "{}",
            r["players"]
        );
        assert!(
            r["moves"].as_array().unwrap().len() > 8,
            "a whole game: {r}"
        );
        let (_, page) = ada.get("/test-games/1").await;
        assert!(page.contains("(your bot)") && page.contains("/test-games/1/replay.json"));

        // Against Alan's latest bot: his logs are his and the staff's only.
        let alan_id: i64 = page_user_id(&ada.get("/test-games").await.1, "alan");
        let (status, to) = start(&mut ada, &format!("student:{alan_id}"), "0").await;
        assert_eq!(
            (status, to.as_str()),
            (StatusCode::SEE_OTHER, "/test-games/2")
        );
        let r = replay(&ada, 2).await;
        assert!(r["players"][1]["name"]
            .as_str()
            .unwrap()
            .starts_with("alan #"));
        assert!(
            !r.to_string().contains(ALAN_SECRET),
            "Ada reads Alan's logs in her test game's replay"
        );
        let mut staff = support::staff(&c).await;
        let (status, all) = staff.get("/test-games/2/replay.json").await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            all.contains(ALAN_SECRET),
            "the staff read every log (so the check above can fail): {all}"
        );
        let (status, _) = ada.get(&format!("/submissions/{alan_bot}/source")).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "Alan's source stays his");

        // Nobody else opens Ada's test games: page, replay, live pages, websockets.
        let db = c.database().await;
        let (job, kind) = job_of(&db, 1).await;
        assert_eq!(kind, "test_game");
        let live = (1u64 << 40) + job as u64;
        for path in [
            "/test-games/1".to_string(),
            "/test-games/1/replay.json".to_string(),
            format!("/live/{live}"),
            format!("/live/%3{}", &live.to_string()[1..]),
            format!("/live/{live}/play?seat=0&key=AAAAAAAAAAAAAAAAAAAAAA"),
            format!("/live/ws/_{live}"),
        ] {
            let (status, body) = alan.get(&path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "Alan opens {path}: {body}");
        }
        let (_, list) = alan.get("/test-games").await;
        assert!(
            !list.contains("/test-games/1\""),
            "Alan's list shows Ada's: {list}"
        );
        let (_, listed) = alan.get("/live/games.json").await;
        let listed: Value = serde_json::from_str(&listed).unwrap();
        assert!(
            listed
                .as_array()
                .unwrap()
                .iter()
                .all(|g| g["id"].as_u64().unwrap() < 1 << 40),
            "the live list shows a test game: {listed}"
        );

        // A third against the random bot; a game by clicks; the fifth in the hour is refused.
        let (status, _) = start(&mut ada, "level:0", "0").await;
        assert_eq!(status, StatusCode::SEE_OTHER);
        let (status, to) = start(&mut ada, "me", "0").await;
        assert_eq!(
            (status, to.as_str()),
            (StatusCode::SEE_OTHER, "/test-games/4")
        );
        assert_eq!(job_of(&db, 4).await.1, "person_game");
        let (status, refused) = start(&mut ada, "me", "1").await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
        assert!(
            refused.contains("a game by clicks not over yet"),
            "{refused}"
        );
        let (status, refused) = start(&mut ada, "level:1", "0").await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
        assert!(
            refused.contains("at most 4 test games an hour"),
            "the form says why: {refused}"
        );
        // Ada's seat's link is on her page once the people's worker takes the game; not on
        // the staff's.
        let link = wait_for(Duration::from_secs(60), "the seat's link", || async {
            let (_, page) = ada.peek("/test-games/4").await;
            page.split("href=\"")
                .find(|p| p.contains("/play?seat="))
                .map(|p| p.split('"').next().unwrap().replace("&#38;", "&"))
        })
        .await;
        // Her bot plays first: she plays second.
        let live4 = (1u64 << 40) + job_of(&db, 4).await.0 as u64;
        assert!(
            link.starts_with(&format!("/live/{live4}/play?seat=1&key=")),
            "{link}"
        );
        let (_, staff_page) = staff.get("/test-games/4").await;
        assert!(
            !staff_page.contains("/play?seat="),
            "the staff get Ada's seat"
        );
        let (status, _) = alan.get(&link).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "Alan opens Ada's seat");
        let (status, seat_page) = ada.get(&link).await;
        assert_eq!(status, StatusCode::OK, "Ada opens her seat");
        assert!(
            seat_page.contains("href=\"/test-games\" aria-current=\"page\""),
            "the seat's page is under Test games in the menu: {seat_page}"
        );

        // Bad requests are refused with a reason, not a failure.
        for (opponent, seat, says) in [
            ("level:9", "0", "no such opponent"),
            ("student:999999", "0", "has no bot that compiled"),
            ("student:x", "0", "no such opponent"),
            ("level:1", "7", "no such seat"),
        ] {
            let (status, body) = start(&mut alan, opponent, seat).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{opponent} {seat}: {body}");
            assert!(body.contains(says), "{opponent} {seat}: {body}");
        }

        // Nor with another student's submission as one's own.
        let (_, _) = ada.get("/test-games").await;
        let csrf = ada.csrf.clone();
        let theirs = alan_bot.to_string();
        let (status, body) = ada
            .post_form(
                "/test-games",
                &[
                    ("csrf", &csrf),
                    ("submission", &theirs),
                    ("opponent", "level:1"),
                ],
            )
            .await;
        assert_eq!(
            status,
            StatusCode::NOT_FOUND,
            "Ada plays Alan's bot as hers: {body}"
        );

        // Played, and the scoreboard is as it was.
        replay(&ada, 3).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        let after = board(&c).await;
        assert_eq!(before["games_done"], after["games_done"]);
        assert_eq!(
            before["rows"], after["rows"],
            "test games moved the scoreboard"
        );
        db.close().await;
    }
}

/// The user id the form's opponent list gives `name`.
pub(crate) fn page_user_id(page: &str, name: &str) -> i64 {
    let at = page
        .find(&format!(">{name}<"))
        .expect("the student in the list");
    let before = &page[..at];
    let value = before.rsplit("value=\"student:").next().unwrap();
    value.split('"').next().unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_requests_start_no_more_test_games_than_the_hour_allows() {
    for database in support::databases().await {
        // No local worker: the games stay queued, only the bound is tried.
        let c = TestContest::start(database, "[test_games]\nper_hour = 3\n", ROSTER, 0).await;
        let (mut ada, _) = student(&c, "2301", "ada").await;
        let greedy = std::fs::read(bots().join("c/reversi_greedy.c")).unwrap();
        ada.submit_file("c", "greedy.c", greedy).await.unwrap();
        // Ready by hand: nothing compiles without a worker.
        let db = c.database().await;
        sqlx::query("UPDATE submissions SET status = 'ready', artefact = 'x', run = '{file}'")
            .execute(db.pool())
            .await
            .unwrap();
        let answers = at_once(&mut ada, &c, 16, "level:1").await;
        let started = answers
            .iter()
            .filter(|s| **s == StatusCode::SEE_OTHER)
            .count();
        let refused = answers
            .iter()
            .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
            .count();
        assert_eq!((started, refused), (3, 13), "{answers:?}");
        let queued: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE kind = 'test_game'")
            .fetch_one(db.pool())
            .await
            .unwrap();
        assert_eq!(queued, 3);
        let (_, admin) = support::staff(&c).await.get("/admin").await;
        assert!(
            admin.contains("Test games (never counted)</dt><dd>3 queued, 0 running"),
            "the staff see the test games: {admin}"
        );

        // The API says the same, and to its student only.
        let (_, ada_token) = ada.api_token("2301", "2301 horse battery").await;
        let ada_token = ada_token["token"].as_str().unwrap().to_string();
        let (_, list) = api(&c, &ada_token, "/api/test-games", None).await;
        assert_eq!(list.as_array().map(Vec::len), Some(3), "{list}");
        assert!(list
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["state"] == "queued"));
        let (_, one) = api(&c, &ada_token, "/api/test-games/1", None).await;
        assert_eq!(
            (one["number"].as_i64(), one["players"][1].as_str()),
            (Some(1), Some("builtin:1")),
            "{one}"
        );
        let level2 = serde_json::json!({"opponent": "level:2"});
        let (status, said) = api(&c, &ada_token, "/api/test-games", Some(&level2)).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert!(
            said["error"].as_str().unwrap().contains("at most 3"),
            "{said}"
        );
        let (_alan, alan_token) = student(&c, "2302", "alan").await;
        let (status, _) = api(&c, &alan_token, "/api/test-games/1", None).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (_, mine) = api(&c, &alan_token, "/api/test-games", None).await;
        assert_eq!(mine, serde_json::json!([]));
        let (status, _) = api(&c, &alan_token, "/api/test-games", Some(&level2)).await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "Alan has no bot that compiled"
        );
        db.close().await;
    }
}

/// `n` requests for a test game against `opponent` sent at once; their statuses in order.
async fn at_once(b: &mut Browser, c: &TestContest, n: usize, opponent: &str) -> Vec<StatusCode> {
    b.get("/test-games").await;
    let tries = (0..n).map(|_| {
        let post = b
            .http
            .post(c.url("/test-games"))
            .form(&[("csrf", b.csrf.as_str()), ("opponent", opponent)]);
        tokio::spawn(async move { post.send().await.expect("POST").status() })
    });
    let handles: Vec<_> = tries.collect();
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.expect("a request"));
    }
    out
}

/// An API call with a bearer token: a GET, or a POST of `body`; the status and the JSON.
async fn api(
    c: &TestContest,
    token: &str,
    path: &str,
    body: Option<&Value>,
) -> (StatusCode, Value) {
    let http = &c.client().http;
    let request = match body {
        Some(b) => http.post(c.url(path)).json(b),
        None => http.get(c.url(path)),
    };
    let r = request.bearer_auth(token).send().await.expect("the API");
    (r.status(), r.json().await.unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_requests_for_games_by_clicks_start_one() {
    for database in support::databases().await {
        let c = TestContest::start(database, "", ROSTER, 1).await;
        let (mut ada, token) = student(&c, "2301", "ada").await;
        let greedy = std::fs::read(bots().join("c/reversi_greedy.c")).unwrap();
        let id = ada.submit_file("c", "greedy.c", greedy).await.unwrap();
        ready(&c, &token, id).await;
        let answers = at_once(&mut ada, &c, 8, "me").await;
        let started = answers
            .iter()
            .filter(|s| **s == StatusCode::SEE_OTHER)
            .count();
        assert_eq!(started, 1, "one game by clicks at a time: {answers:?}");
        let db = c.database().await;
        let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE kind = 'person_game'")
            .fetch_one(db.pool())
            .await
            .unwrap();
        assert_eq!(games, 1);
        db.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn at_a_table_of_three_a_person_takes_one_seat_and_the_game_is_played() {
    let module =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/dist/goofspiel.wasm");
    let c = TestContest::start_module(None, &module, Some(r#"{"players": 3}"#), ROSTER, 1).await;
    let (mut ada, token) = student(&c, "2301", "ada").await;
    let bot = std::fs::read(bots().join("python/kit_random.py")).unwrap();
    let id = ada
        .submit_file("python", "kit_random.py", bot)
        .await
        .unwrap();
    ready(&c, &token, id).await;
    let (status, to) = start(&mut ada, "me", "0").await;
    assert_eq!(
        (status, to.as_str()),
        (StatusCode::SEE_OTHER, "/test-games/1")
    );
    // The people's worker takes it and waits for her (a job it cannot seat fails at once).
    let db = c.database().await;
    let (state, spec): (String, String) =
        wait_for(Duration::from_secs(30), "the game taken", || async {
            let row: (String, String) =
                sqlx::query_as("SELECT state, spec FROM jobs WHERE kind = 'person_game'")
                    .fetch_one(db.pool())
                    .await
                    .ok()?;
            (row.0 != "queued").then_some(row)
        })
        .await;
    assert_eq!(state, "running", "{spec}");
    let spec: Value = serde_json::from_str(&spec).unwrap();
    let people: Vec<usize> = (0..3)
        .filter(|&i| {
            spec["bots"][i]["run"] == "person" || spec["bots"][i]["run"].get("person").is_some()
        })
        .collect();
    assert_eq!(
        people,
        vec![1],
        "one person's seat, after her bot's: {spec}"
    );
    db.close().await;
}
