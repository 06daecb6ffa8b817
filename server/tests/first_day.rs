//! A course's first day, on SQLite and PostgreSQL: games are numbered 1, 2, 3 ... on every page
//! although compiles were queued between them, and each page says a result once.

use crate::support;

use std::collections::BTreeSet;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;
use support::{api_submission, bots, student, wait_for, Browser, TestContest};

const ROSTER: &str = "student_id,name\n2301,Ada\n2302,Alan\n2303,Grace\n";

fn source(path: &str) -> Vec<u8> {
    std::fs::read(bots().join(path)).expect("a sample bot")
}

/// Waits until `id` is compiled (or failed) and all its games are over.
async fn settled(c: &TestContest, token: &str, id: i64) -> Value {
    wait_for(
        Duration::from_secs(240),
        &format!("submission {id} to be judged"),
        || async {
            let v = api_submission(c, token, id).await;
            let judged = matches!(v["status"].as_str(), Some("ready" | "failed"));
            let over = v["games"]
                .as_array()?
                .iter()
                .all(|g| matches!(g["state"].as_str(), Some("done" | "cancelled")));
            (judged && over).then_some(v)
        },
    )
    .await
}

async fn db(c: &TestContest) -> arbiter_queue::Db {
    let url =
        c.db.clone()
            .unwrap_or_else(|| c.dir.path().join("contest.db").display().to_string());
    arbiter_queue::Db::connect(&url)
        .await
        .expect("the contest's database")
}

async fn count(db: &arbiter_queue::Db, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(db.pool())
        .await
        .expect(sql)
}

/// What the first day left: Ada's browser, her broken and her first good submission, and every
/// submission.
struct Day {
    ada: Browser,
    broken: i64,
    ada_bot: i64,
    all: Vec<i64>,
}

/// Three students, a broken bot, good bots and a resubmission: compiles are queued between
/// the games all along.
async fn first_day(c: &TestContest) -> Day {
    let (mut ada, ada_token) = student(c, "2301", "ada").await;
    let broken = ada
        .submit_file("c", "bot.c", b"int main( { return 0; }\n".to_vec())
        .await
        .expect("accepted");
    let v = settled(c, &ada_token, broken).await;
    assert_eq!(v["status"], "failed", "{v}");
    let ada_bot = ada
        .submit_file("c", "greedy.c", source("c/reversi_greedy.c"))
        .await
        .expect("accepted");
    let (mut alan, alan_token) = student(c, "2302", "alan").await;
    let alan_bot = alan
        .submit_file("python", "random.py", source("python/reversi_random.py"))
        .await
        .expect("accepted");
    settled(c, &ada_token, ada_bot).await;
    settled(c, &alan_token, alan_bot).await;
    let (mut grace, grace_token) = student(c, "2303", "grace").await;
    let grace_bot = grace
        .submit_file("c", "random.c", source("c/reversi_random.c"))
        .await
        .expect("accepted");
    settled(c, &grace_token, grace_bot).await;
    // Ada's new version plays everyone again.
    let ada_v2 = ada
        .submit_file("c", "random.c", source("c/reversi_random.c"))
        .await
        .expect("accepted");
    settled(c, &ada_token, ada_v2).await;
    for sub in [ada_bot, alan_bot, grace_bot] {
        settled(c, &ada_token, sub).await;
    }
    Day {
        ada,
        broken,
        ada_bot,
        all: vec![broken, ada_bot, alan_bot, grace_bot, ada_v2],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn games_are_numbered_1_2_3_on_every_page_though_compiles_came_between() {
    for database in support::databases().await {
        let which = if database.is_some() {
            "postgres"
        } else {
            "sqlite"
        };
        let c = TestContest::start(database, "", ROSTER, 1).await;
        let mut day = first_day(&c).await;
        let db = db(&c).await;

        // The queue really did interleave: compiles were queued after the first game, so job
        // ids alone would have left gaps.
        let games = count(&db, "SELECT COUNT(*) FROM jobs WHERE kind = 'game'").await;
        let compiles_between = count(
            &db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'compile' AND id > \
             (SELECT MIN(id) FROM jobs WHERE kind = 'game')",
        )
        .await;
        assert!(compiles_between >= 2, "{which}: no compile between games");
        let played = count(
            &db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'game' AND state = 'done'",
        )
        .await;
        assert!(played >= 8, "{which}: {played} games played");

        // Every game any submission lists, by its number: exactly 1 ... N.
        let mut numbers = BTreeSet::new();
        for sub in &day.all {
            let list: Value = reqwest::get(c.url(&format!("/api/games?submission={sub}")))
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            for g in list.as_array().expect("a list") {
                numbers.insert(g["id"].as_i64().expect("a number"));
            }
        }
        assert_eq!(
            numbers,
            (1..=games).collect::<BTreeSet<i64>>(),
            "{which}: game numbers with gaps"
        );

        // Pages, links and the live list use the same numbers.
        let mut visitor = c.client();
        let (status, page) = visitor.get("/games/1").await;
        assert_eq!(status, StatusCode::OK, "{which}: {page}");
        assert!(page.contains("<h1>Game 1</h1>"), "{which}: {page}");
        let (status, _) = visitor.get(&format!("/games/{}", games + 1)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{which}");
        for sub in &day.all {
            let (_, page) = day.ada.get(&format!("/submissions/{sub}")).await;
            for link in page.split("<a href=\"/games/").skip(1) {
                let n: i64 = link
                    .split('"')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("a game link");
                assert!(numbers.contains(&n), "{which}: a link to game {n}");
            }
        }
        let live: Value = reqwest::get(c.url("/live/games.json"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let live = live.as_array().expect("a list");
        assert_eq!(
            live.len() as i64,
            played,
            "{which}: every played game was live"
        );
        for g in live {
            let n = g["id"].as_i64().unwrap();
            assert!(numbers.contains(&n), "{which}: live game {n}");
            assert!(
                g["title"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("Game {n}: ")),
                "{which}: {g}"
            );
            let (status, _) = visitor.get(&format!("/live/{n}")).await;
            assert_eq!(status, StatusCode::OK, "{which}: /live/{n}");
        }

        // A student's log download names her games by their numbers; a bot that did not
        // compile has no games, and the download says why.
        let (_, logs) = day
            .ada
            .get(&format!("/submissions/{}/logs", day.ada_bot))
            .await;
        assert!(logs.contains("=== game "), "{which}: {logs}");
        for line in logs.lines().filter(|l| l.starts_with("=== game ")) {
            let n: i64 = line["=== game ".len()..]
                .split(':')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a number");
            assert!(numbers.contains(&n), "{which}: {line}");
        }
        let (_, logs) = day
            .ada
            .get(&format!("/submissions/{}/logs", day.broken))
            .await;
        assert!(logs.contains("did not compile"), "{which}: {logs}");
        assert!(!logs.contains("No finished games"), "{which}: {logs}");

        // The staff's page counts games, not compiles.
        let mut staff = support::staff(&c).await;
        let (_, admin) = staff.get("/admin").await;
        let compiles = count(&db, "SELECT COUNT(*) FROM jobs WHERE kind = 'compile'").await;
        let cancelled = games - played;
        assert!(
            admin.contains(&format!(
                "0 queued, 0 running, {played} done, 0 failed, {cancelled} cancelled"
            )),
            "{which}: {compiles} compiles counted with the games? {admin}"
        );
        db.close().await;
    }
}

/// The text of `html` without its tags, scripts and styles, in one line.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        out.push(' ');
        rest = &rest[at..];
        let skip_to = ["<script", "<style", "<iframe"]
            .iter()
            .find(|t| rest.starts_with(**t))
            .map(|t| format!("</{}>", &t[1..]));
        rest = match skip_to.and_then(|end| rest.find(&end).map(|i| i + end.len())) {
            Some(end) => &rest[end..],
            None => rest.find('>').map_or("", |i| &rest[i + 1..]),
        };
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn each_page_says_a_result_once() {
    let c = TestContest::start(None, "", ROSTER, 1).await;
    let (mut ada, ada_token) = student(&c, "2301", "ada").await;
    let (mut alan, alan_token) = student(&c, "2302", "alan").await;
    let a = ada
        .submit_file("c", "greedy.c", source("c/reversi_greedy.c"))
        .await
        .expect("accepted");
    let b = alan
        .submit_file("python", "random.py", source("python/reversi_random.py"))
        .await
        .expect("accepted");
    settled(&c, &alan_token, b).await;
    let games = wait_for(
        Duration::from_secs(240),
        "the pairing's two games",
        || async {
            let v = settled(&c, &ada_token, a).await;
            let games = v["games"].as_array()?.clone();
            (games.len() == 2).then_some(games)
        },
    )
    .await;

    // The live list: a row per game, its number and its link once, the winner named.
    let (_, live) = c.client().get("/live").await;
    for g in &games {
        let n = g["id"].as_i64().unwrap();
        let link = format!("<a href=\"/live/{n}\">");
        assert_eq!(live.matches(&link).count(), 1, "game {n}'s link: {live}");
        let title = format!("Game {n}: ");
        assert_eq!(live.matches(&title).count(), 1, "game {n}'s number: {live}");
        let row = live
            .split("<tr>")
            .find(|r| r.contains(&link))
            .expect("a row");
        let row = text(row);
        let winner = match g["winner"].as_u64() {
            Some(w) => {
                let seat = g["seats"][w as usize].as_i64().unwrap();
                let name = if seat == a { "ada" } else { "alan" };
                format!("{name} #{seat} wins: ")
            }
            None => "draw".to_string(),
        };
        assert_eq!(
            row.matches(" wins").count() + row.matches("draw").count(),
            1,
            "{row}"
        );
        assert!(row.contains(&winner), "the winner unnamed: {row}");
    }

    // A game's page: the player says the result (on the last frame, where the page opens);
    // the page itself adds no result line and no spoiler to click.
    for g in &games {
        let n = g["id"].as_i64().unwrap();
        let (status, page) = ada.get(&format!("/games/{n}")).await;
        assert_eq!(status, StatusCode::OK);
        let words = text(&page);
        assert!(!words.contains("Result"), "a result line: {words}");
        assert!(
            !words.contains(" wins") && !words.contains("draw"),
            "{words}"
        );
        assert!(!page.contains("<details"), "a spoiler");
        // Watching it again live: the player says it, the page does not.
        let (status, page) = ada.get(&format!("/live/{n}")).await;
        assert_eq!(status, StatusCode::OK);
        let words = text(&page);
        assert!(
            !words.contains(" wins") && !words.contains("draw"),
            "{words}"
        );
    }

    // The scoreboard never shows a signed zero.
    let (_, board) = c.client().get("/").await;
    assert!(!text(&board).contains("-0 ±"), "{}", text(&board));

    // The logs of a played bot name its colour, never a seat number.
    let (_, logs) = ada.get(&format!("/submissions/{a}/logs")).await;
    assert!(logs.contains("=== game "), "{logs}");
    assert!(!logs.to_lowercase().contains("seat"), "{logs}");
    // ... in the reader's language.
    ada.get("/lang/zh-CN").await;
    let (_, zh) = ada.get(&format!("/submissions/{a}/logs")).await;
    assert!(
        zh.contains("=== 第 ") && zh.contains("局：你的程序执"),
        "{zh}"
    );
    assert!(!zh.contains("your bot played"), "{zh}");
    ada.get("/lang/en").await;

    // A page that does not exist names the contest and keeps the student's own header.
    let (status, page) = ada.get("/games/999999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        page.contains("<a class=\"brand\" href=\"/\">Test contest</a>"),
        "{page}"
    );
    assert!(
        page.contains(">ada</a>") && !page.contains("<a href=\"/login\">"),
        "a signed-in student is told to sign in: {page}"
    );
    let (_, page) = c.client().get("/no/such/page").await;
    assert!(page.contains("<a href=\"/login\">"), "{page}");

    // A password change says it worked.
    let (_, _) = alan.get("/account").await;
    let csrf = alan.csrf.clone();
    let (status, page) = alan
        .post_form(
            "/account",
            &[
                ("csrf", &csrf),
                ("nickname", "alan"),
                ("current", "2302 horse battery"),
                ("new_password", "a new horse battery"),
                ("confirm", "a new horse battery"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("your password is changed"), "{page}");
}
