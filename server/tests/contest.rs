//! The contest server end to end, in-process, on SQLite and PostgreSQL: students sign in and
//! must change their password, a broken bot shows its compiler message and costs no games, good
//! bots play each other and the scoreboard moves, sources and logs stay private, and hostile
//! requests are refused without losing anything.

use crate::support;

use std::time::Duration;

use arbiter_engine::replay::Replay;
use reqwest::StatusCode;
use serde_json::Value;
use support::{api_submission, bots, wait_for, TestContest};

const ROSTER: &str = "student_id,name\n2301,Ada\n2302,Alan\n2303,Grace\n";

fn source(path: &str) -> Vec<u8> {
    std::fs::read(bots().join(path)).expect("a sample bot")
}

async fn status_of(c: &TestContest, token: &str, id: i64) -> Option<Value> {
    let v = api_submission(c, token, id).await;
    matches!(v["status"].as_str(), Some("ready" | "failed")).then_some(v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn students_submit_bots_that_play_and_the_scoreboard_moves() {
    for db in support::databases().await {
        let which = if db.is_some() { "postgres" } else { "sqlite" };
        let c = TestContest::start(db, "", ROSTER, 1).await;
        let mut ada = c.client();
        ada.first_sign_in("2301", "ada", "correct horse 1").await;
        let (_, token) = ada.api_token("2301", "correct horse 1").await;
        let token = token["token"].as_str().expect("a token").to_string();

        // A bot that does not compile: the student sees the compiler's message; no games.
        let broken = ada
            .submit_file("c", "bot.c", b"int main( { return 0; }\n".to_vec())
            .await
            .expect("accepted");
        let v = wait_for(Duration::from_secs(60), "the broken compile", || {
            status_of(&c, &token, broken)
        })
        .await;
        assert_eq!(v["status"], "failed", "{which}: {v}");
        assert!(
            v["compile_log"].as_str().unwrap_or("").contains("error"),
            "{which}: {v}"
        );
        assert!(
            !v["compile_log"].as_str().unwrap_or("").contains("/tmp"),
            "{which}: the build directory leaks: {v}"
        );
        let (_, page) = ada.get(&format!("/submissions/{broken}")).await;
        assert!(page.contains("Why it did not compile"), "{which}");
        assert_eq!(v["games"].as_array().map(Vec::len), Some(0));

        let good = ada
            .submit_file("c", "greedy.c", source("c/reversi_greedy.c"))
            .await
            .expect("accepted");
        let v = wait_for(Duration::from_secs(60), "the good compile", || {
            status_of(&c, &token, good)
        })
        .await;
        assert_eq!(v["status"], "ready", "{which}: {v}");

        let mut alan = c.client();
        alan.first_sign_in("2302", "alan", "correct horse 2").await;
        let theirs = alan
            .submit_file("python", "random.py", source("python/reversi_random.py"))
            .await
            .expect("accepted");
        let (_, t2) = alan.api_token("2302", "correct horse 2").await;
        let t2 = t2["token"].as_str().unwrap().to_string();
        wait_for(Duration::from_secs(60), "the python check", || {
            status_of(&c, &t2, theirs)
        })
        .await;

        // Both games of the pairing are played and the scoreboard shows them.
        let board = wait_for(
            Duration::from_secs(120),
            "two games on the scoreboard",
            || async {
                let b: Value = reqwest::get(c.url("/api/scoreboard"))
                    .await
                    .ok()?
                    .json()
                    .await
                    .ok()?;
                (b["board"]["games_done"] == 2).then_some(b)
            },
        )
        .await;
        let rows = board["board"]["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 2, "{which}: {board}");
        let points: u64 = rows
            .iter()
            .map(|r| r["match_points"].as_u64().unwrap())
            .sum();
        assert!(
            points == 3 || points == 2,
            "{which}: one pairing gives 3 points, or 1 each: {board}"
        );

        // Every game's replay reads back through the engine.
        let games = api_submission(&c, &t2, theirs).await["games"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(games.len(), 2);
        for g in &games {
            let id = g["id"].as_i64().unwrap();
            let text = reqwest::get(c.url(&format!("/api/games/{id}/replay")))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            Replay::read(&text).unwrap_or_else(|e| panic!("{which}: game {id}: {e}"));
            assert!(
                !text.contains("\"command\""),
                "{which}: machine paths in a public replay"
            );
            let (status, page) = alan.get(&format!("/games/{id}")).await;
            assert_eq!(status, StatusCode::OK);
            assert!(page.contains("init_replay_player"));
        }

        // The games were followed live: the hub lists them, finished, under their numbers.
        let live: Value = reqwest::get(c.url("/live/games.json"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        for g in &games {
            let id = g["id"].as_i64().unwrap();
            let listed = live.as_array().unwrap().iter().find(|l| l["id"] == id);
            assert!(
                listed.is_some_and(|l| l["finished"] == true),
                "{which}: game {id} not on /live: {live}"
            );
        }
        // ...on pages of the site: its header and navigation, Live the current entry.
        let (_, page) = c.client().get("/live").await;
        assert!(
            page.contains("<nav aria-label=\"site\">")
                && page.contains("<a href=\"/live\" aria-current=\"page\">Live</a>")
                && page.contains(&format!("<a href=\"/live/{}\">", games[0]["id"]))
                && page.contains("<a href=\"/login\">Sign in</a>"),
            "{which}: /live is not a page of the site: {page}"
        );

        // Sources and logs are private to their author.
        for path in [
            format!("/submissions/{good}/source"),
            format!("/submissions/{good}/logs"),
        ] {
            let (status, _) = alan.get(&path).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{which}: {path}");
            let (status, body) = ada.get(&path).await;
            assert_eq!(status, StatusCode::OK, "{which}: {path}: {body}");
        }
        assert!(
            api_submission(&c, &t2, good)
                .await
                .get("compile_log")
                .is_none(),
            "{which}: the API shows another's compile log"
        );
        let (_, page) = alan.get(&format!("/submissions/{good}")).await;
        assert!(
            !page.contains("/source"),
            "{which}: a link to another's source"
        );

        // A new version replaces the old one on the board and plays again.
        let v2 = ada
            .submit_file("c", "random.c", source("c/reversi_random.c"))
            .await
            .expect("accepted");
        wait_for(
            Duration::from_secs(120),
            "the new version's games",
            || async {
                let b: Value = reqwest::get(c.url("/api/scoreboard"))
                    .await
                    .ok()?
                    .json()
                    .await
                    .ok()?;
                let rows = b["board"]["rows"].as_array()?;
                (b["board"]["games_done"] == 2 && rows.iter().any(|r| r["submission"] == v2))
                    .then_some(())
            },
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hostile_requests_are_refused_and_nothing_is_lost() {
    for db in support::databases().await {
        let which = if db.is_some() { "postgres" } else { "sqlite" };
        let c = TestContest::start(db, "", ROSTER, 1).await;
        let mut ada = c.client();
        ada.first_sign_in("2301", "<img src=x onerror=alert(1)>", "correct horse 1")
            .await;

        // Over the size cap: refused by name, nothing stored.
        let err = ada
            .submit_file("c", "big.c", vec![b'/'; 65_537])
            .await
            .unwrap_err();
        assert_eq!(err.0, StatusCode::PAYLOAD_TOO_LARGE, "{which}: {}", err.1);
        assert!(err.1.contains("limit"), "{which}: {}", err.1);
        let (_, mine) = ada.get("/submissions").await;
        assert!(
            mine.contains("No submissions yet"),
            "{which}: an over-size upload was stored"
        );

        // A path in the file name is only a label: the bot builds as main.c in its own directory.
        let id = ada
            .submit_file("c", "../../../../tmp/evil.c", source("c/reversi_greedy.c"))
            .await
            .expect("accepted");
        let (_, page) = ada.get(&format!("/submissions/{id}")).await;
        assert!(
            page.contains("../../../../tmp/evil.c"),
            "{which}: the label is shown as text"
        );
        assert!(!std::path::Path::new("/tmp/evil.c").exists());

        // A build that never ends (the preprocessor reading /dev/zero) is stopped at its limit
        // and fails with a reason; it harms nobody else.
        let endless = ada
            .submit_file(
                "c",
                "zero.c",
                b"#include \"/dev/zero\"\nint main(void) { return 0; }\n".to_vec(),
            )
            .await
            .expect("accepted");
        let (_, token) = ada.api_token("2301", "correct horse 1").await;
        let ada_token = token["token"].as_str().unwrap().to_string();
        let v = wait_for(
            Duration::from_secs(90),
            "the endless build to be stopped",
            || status_of(&c, &ada_token, endless),
        )
        .await;
        assert_eq!(v["status"], "failed", "{which}: {v}");
        let log = v["compile_log"].as_str().unwrap_or("");
        assert!(
            log.contains("stopped") || log.contains("MB") || log.contains("compiler failed"),
            "{which}: {log}"
        );

        // Forms without their CSRF token.
        let (status, _) = ada
            .post_form("/account", &[("csrf", "forged"), ("nickname", "x")])
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{which}");
        let form = reqwest::multipart::Form::new()
            .text("language", "c")
            .text("code", "int main(){}");
        let r = ada
            .http
            .post(c.url("/submit"))
            .multipart(form)
            .send()
            .await
            .unwrap();
        assert_eq!(
            r.status(),
            StatusCode::FORBIDDEN,
            "{which}: a submission without a CSRF token"
        );
        let (status, _) = c
            .client()
            .post_form(
                "/login",
                &[("csrf", "x"), ("login", "2302"), ("password", "2302")],
            )
            .await;
        assert_eq!(
            status,
            StatusCode::FORBIDDEN,
            "{which}: a sign-in from another site"
        );

        // 50 wrong passwords: refused from the 6th on, the right one too while blocked;
        // other students are not affected.
        let mut attacker = c.client();
        let mut blocked = 0;
        for _ in 0..50 {
            let (status, _) = attacker.sign_in("2302", "guess").await;
            if status == StatusCode::TOO_MANY_REQUESTS {
                blocked += 1;
            }
        }
        assert!(
            blocked >= 40,
            "{which}: only {blocked} of 50 attempts were blocked"
        );
        let (status, _) = attacker.sign_in("2302", "2302").await;
        assert_eq!(
            status,
            StatusCode::TOO_MANY_REQUESTS,
            "{which}: the account is locked for now"
        );
        let (status, to) = c.client().sign_in("2303", "2303").await;
        assert_eq!(
            (status, to.ends_with("/account")),
            (StatusCode::SEE_OTHER, true),
            "{which}: another student"
        );

        // A forged session cookie is nobody.
        let forged = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let r = forged
            .get(c.url("/submit"))
            .header("cookie", format!("arbiter_session={}", "a".repeat(64)))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{which}");
        let r = forged
            .get(c.url("/api/submissions"))
            .bearer_auth("b".repeat(64))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "{which}");
        let body: Value = r.json().await.unwrap();
        assert!(
            body["error"]
                .as_str()
                .is_some_and(|e| e.contains("/api/login")),
            "{which}: {body}"
        );

        // A script in a nickname stays text.
        wait_for(
            Duration::from_secs(60),
            "the submission on the board",
            || async {
                let b: Value = reqwest::get(c.url("/api/scoreboard"))
                    .await
                    .ok()?
                    .json()
                    .await
                    .ok()?;
                (!b["board"]["rows"].as_array()?.is_empty()).then_some(())
            },
        )
        .await;
        let html = reqwest::get(c.url("/"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            html.contains("&lt;img src=x onerror=alert(1)&gt;") || html.contains("&#60;img"),
            "{which}: the nickname is not escaped"
        );
        assert!(!html.contains("<img src=x"), "{which}");

        // Students are not course staff.
        let (status, _) = ada.get("/admin").await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let csrf = ada.csrf.clone();
        let (status, _) = ada.post_form("/admin/freeze", &[("csrf", &csrf)]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);

        // Nothing was lost: the submission is still there and ready.
        let (_, token) = ada.api_token("2301", "correct horse 1").await;
        let v = api_submission(&c, token["token"].as_str().unwrap(), id).await;
        assert_eq!(v["status"], "ready", "{which}: {v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_api_submits_and_reads_with_a_token() {
    let c = TestContest::start(None, "", ROSTER, 1).await;
    let mut grace = c.client();
    let (status, body) = grace.api_token("2303", "2303").await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "the initial password must be changed on the site first: {body}"
    );
    grace
        .first_sign_in("2303", "grace", "correct horse 3")
        .await;
    let (status, body) = grace.api_token("2303", "correct horse 3").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let token = body["token"].as_str().unwrap().to_string();
    let http = reqwest::Client::new();
    let form = reqwest::multipart::Form::new()
        .text("language", "python")
        .part(
            "file",
            reqwest::multipart::Part::bytes(source("python/reversi_greedy.py")).file_name("bot.py"),
        );
    let r = http
        .post(c.url("/api/submissions"))
        .bearer_auth(&token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let id = r.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let v = wait_for(Duration::from_secs(60), "the check", || {
        status_of(&c, &token, id)
    })
    .await;
    assert_eq!(v["status"], "ready", "{v}");
    let mine: Value = http
        .get(c.url("/api/submissions"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(mine[0]["id"], id);
    let games: Value = http
        .get(c.url(&format!("/api/games?submission={id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(games.as_array().is_some_and(Vec::is_empty), "{games}");
    // A cookie-less API call without a token cannot submit.
    let form = reqwest::multipart::Form::new()
        .text("language", "python")
        .text("code", "print(1)");
    let r = http
        .post(c.url("/api/submissions"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = http.get(c.url("/api/nothing")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert!(r.json::<Value>().await.unwrap()["error"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn course_staff_change_the_rules_freeze_and_disqualify() {
    let c = TestContest::start(None, "", ROSTER, 1).await;
    let mut staff = support::staff(&c).await;
    let csrf = staff.csrf.clone();
    // A private scoreboard and one submission an hour.
    let (status, _) = staff
        .post_form(
            "/admin/rules",
            &[
                ("csrf", &csrf),
                ("min_interval_s", "3600"),
                ("daily_budget_s", "0"),
                ("max_kb", "64"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let r = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(c.url("/"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.status(),
        StatusCode::SEE_OTHER,
        "the scoreboard is private now"
    );
    // ...and so are the live games, pages, list and websockets alike.
    for path in ["/live", "/live/games.json", "/live/1", "/live/ws/_1"] {
        let (status, _) = c.client().get(path).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{path} is private now");
    }
    let (status, page) = staff.get("/live").await;
    assert_eq!(
        status,
        StatusCode::OK,
        "signed in, the live games show: {page}"
    );
    assert!(
        page.contains("Sign out") && page.contains("href=\"/admin\""),
        "the live page's header is the signed-in user's: {page}"
    );
    let (status, _) = staff
        .post_form(
            "/admin/rules",
            &[
                ("csrf", &csrf),
                ("min_interval_s", "3600"),
                ("daily_budget_s", "0"),
                ("max_kb", "65536"),
            ],
        )
        .await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "the size limit cannot pass contest.toml's"
    );

    let mut ada = c.client();
    ada.first_sign_in("2301", "ada", "correct horse 1").await;
    ada.submit_file("c", "a.c", source("c/reversi_greedy.c"))
        .await
        .expect("the first submission");
    let err = ada
        .submit_file("c", "a.c", source("c/reversi_random.c"))
        .await
        .unwrap_err();
    assert_eq!(err.0, StatusCode::TOO_MANY_REQUESTS, "{}", err.1);
    assert!(err.1.contains("3600"), "{}", err.1);
    let mut alan = c.client();
    alan.first_sign_in("2302", "alan", "correct horse 2").await;
    alan.submit_file("python", "b.py", source("python/reversi_random.py"))
        .await
        .unwrap();
    let (_, t) = ada.api_token("2301", "correct horse 1").await;
    let ada_token = t["token"].as_str().unwrap().to_string();
    let board = |token: String| {
        let url = c.url("/api/scoreboard");
        async move {
            reqwest::Client::new()
                .get(url)
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap()
        }
    };
    wait_for(Duration::from_secs(120), "the pairing played", || async {
        let b = board(ada_token.clone()).await;
        (b["board"]["games_done"] == 2).then_some(())
    })
    .await;

    // Frozen: students see the board as it was; course staff see it live.
    let (status, _) = staff.post_form("/admin/freeze", &[("csrf", &csrf)]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(board(ada_token.clone()).await["frozen"], true);
    let (_, st) = staff.api_token("admin", "staff password").await;
    let staff_token = st["token"].as_str().unwrap().to_string();
    assert_eq!(board(staff_token.clone()).await["frozen"], false);

    // Disqualified: the student's bot leaves the (live) board.
    let users = staff.get("/admin").await.1;
    let at = users.find("/admin/users/").expect("a user action");
    let id: i64 = users[at + "/admin/users/".len()..]
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // First it asks; only the confirmation disqualifies.
    let (status, page) = staff
        .post_form(&format!("/admin/users/{id}/disqualify"), &[("csrf", &csrf)])
        .await;
    assert_eq!(status, StatusCode::OK, "a confirmation page: {page}");
    assert!(page.contains("name=\"confirm\" value=\"yes\""), "{page}");
    let (status, _) = staff
        .post_form(
            &format!("/admin/users/{id}/disqualify"),
            &[("csrf", &csrf), ("confirm", "yes")],
        )
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    wait_for(
        Duration::from_secs(20),
        "the board without the disqualified student",
        || async {
            let b = board(staff_token.clone()).await;
            (b["board"]["rows"].as_array()?.len() == 1).then_some(())
        },
    )
    .await;
}
