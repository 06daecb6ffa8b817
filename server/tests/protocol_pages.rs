//! The protocol pages students read: `/protocols/NAME` is an HTML page of the site for every
//! protocol, in the viewer's language, with the line table and a transcript rendered (no
//! Markdown left), the page it extends carried in it, and linked from the submit page.

use crate::support;

use arbiter_i18n::Lang;
use arbiter_match::protocol::ProtocolKind;
use reqwest::StatusCode;
use support::TestContest;

const ROSTER: &str = "student_id,name\n2301,Ada\n";

/// The page at `path` asked in `lang` (`Accept-Language`): its status, type and body.
async fn fetch(c: &TestContest, path: &str, lang: &str) -> (StatusCode, String, String) {
    let r = reqwest::Client::new()
        .get(c.url(path))
        .header("Accept-Language", lang)
        .send()
        .await
        .expect("the page");
    let status = r.status();
    let kind = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (status, kind, r.text().await.expect("a body"))
}

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_protocol_page_is_html_in_both_languages() {
    let c = TestContest::start(None, "", ROSTER, 1).await;
    for p in ProtocolKind::ALL {
        let path = format!("/protocols/{}", p.name());
        for (lang, tag) in [("en", "en"), ("zh-CN,zh;q=0.9", "zh-CN")] {
            let (status, kind, page) = fetch(&c, &path, lang).await;
            assert_eq!(status, StatusCode::OK, "{path} {lang}");
            assert!(kind.starts_with("text/html"), "{path} {lang}: {kind}");
            assert!(page.contains(&format!("<html lang=\"{tag}\">")), "{page}");
            // The site's frame, a table of the lines, and a transcript.
            assert!(page.contains("<nav") && page.contains("<table>"), "{page}");
            assert!(
                page.contains("<pre><code>") && page.contains("\n&lt; "),
                "{path}: a transcript"
            );
            // No Markdown left: no fences, table rules or backticks around code.
            for raw in ["```", "|---|", "| --- |", "`START", "# The", "# `"] {
                assert!(!page.contains(raw), "{path} {lang}: raw Markdown {raw}");
            }
            assert_eq!(
                has_cjk(&page.replace(Lang::ZhCn.name(), "")),
                tag == "zh-CN",
                "{path} {lang}"
            );
            // The rules for every bot, whatever the protocol.
            assert!(page.contains("fflush(stdout)"), "{path} {lang}");
        }
    }
    // A page that extends another carries it and links it.
    let (_, _, board) = fetch(&c, "/protocols/reversi-board", "en").await;
    assert!(board.contains("href=\"/protocols/reversi\""), "{board}");
    for line in ["BOARD n s cells", "START 1", "PLACE r c", "END f"] {
        assert!(board.contains(line), "reversi-board: {line} missing");
    }
    let (status, _, _) = fetch(&c, "/protocols/nonsense", "en").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_submit_page_and_the_starter_link_the_page() {
    let c = TestContest::start(None, "", ROSTER, 1).await;
    let mut ada = c.client();
    ada.first_sign_in("2301", "ada", "correct horse 1").await;
    let (_, submit) = ada.get("/submit").await;
    // The contest's protocol (the test contest's is reversi-board): its page, linked, and
    // named in the starter bot's first comment.
    let at = submit.find("href=\"/protocols/").expect("a protocol link") + "href=\"".len();
    let link = &submit[at..at + submit[at..].find('"').expect("a link's end")];
    let (status, kind, _) = fetch(&c, link, "en").await;
    assert_eq!(
        (status, kind.starts_with("text/html")),
        (StatusCode::OK, true),
        "{link}"
    );
    for language in ["python", "c"] {
        let (_, starter) = ada.get(&format!("/starters/{language}")).await;
        let first = starter
            .lines()
            .find(|l| !l.starts_with("#!"))
            .unwrap_or_default();
        assert!(first.contains(link), "{language}: {first}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_icon_is_served() {
    let c = TestContest::start(None, "", ROSTER, 1).await;
    for path in ["/favicon.ico", "/favicon.svg"] {
        let (status, kind, body) = fetch(&c, path, "en").await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(kind, "image/svg+xml", "{path}");
        assert!(body.starts_with("<svg"), "{path}");
    }
}

/// A student who read only `/protocols/reversi-board`, the test contest's (its tables, its
/// transcripts and the rules for every bot), wrote `bots/reversi_from_the_page.py`: it plays
/// whole games against the greedy starter, with no failure of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bot_written_from_the_page_plays_whole_games() {
    use std::time::Duration;
    let c = TestContest::start(None, "", "student_id,name\n2301,Ada\n2302,Alan\n", 1).await;
    let (_, _, page) = fetch(&c, "/protocols/reversi-board", "en").await;
    for line in [
        "START 1",
        "BOARD n s cells",
        "PLACE r c",
        "TURN",
        "END f",
        "flush=True",
    ] {
        assert!(
            page.contains(line),
            "the bot relies on {line}, which the page must say"
        );
    }
    let mut ada = c.client();
    ada.first_sign_in("2301", "ada", "correct horse 1").await;
    let (_, token) = ada.api_token("2301", "correct horse 1").await;
    let token = token["token"].as_str().expect("a token").to_string();
    let from_page = include_bytes!("bots/reversi_from_the_page.py").to_vec();
    let mine = ada
        .submit_file("python", "from_the_page.py", from_page)
        .await
        .expect("accepted");
    let mut alan = c.client();
    alan.first_sign_in("2302", "alan", "correct horse 2").await;
    let greedy = std::fs::read(support::bots().join("c/reversi_greedy.c")).expect("a sample");
    alan.submit_file("c", "greedy.c", greedy)
        .await
        .expect("accepted");
    let games = support::wait_for(Duration::from_secs(180), "the pairing's games", || async {
        let v = support::api_submission(&c, &token, mine).await;
        let games = v["games"].as_array()?.clone();
        let done = games.iter().filter(|g| g["state"] == "done").count();
        (done >= 2).then_some(games)
    })
    .await;
    for g in &games {
        let seats = &g["seats"];
        let my_seat = if seats[0] == mine { 0 } else { 1 };
        assert_ne!(g["culprit"], my_seat, "the page's bot failed: {g}");
        assert!(g["moves"].as_u64().unwrap_or(0) >= 20, "a whole game: {g}");
    }
}
