//! The Similarity pages (issue 27): staff only; the ranked list puts a disguised copy first;
//! the pair page shows both sources escaped with the matched regions linked; template code and
//! earlier years' sources from the contest directory are used; results are kept.

use crate::support;

use std::path::Path;

use reqwest::StatusCode;
use support::{bots, Browser, TestContest};

const ROSTER: &str = "student_id,name\n2301,Ada\n2302,Alan\n2303,Grace\n";

fn corpus(path: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../similarity/tests/corpus")
        .join(path);
    std::fs::read(p).expect("a labelled source")
}

async fn staff(c: &TestContest) -> Browser {
    let mut staff = c.client();
    let (status, _) = staff.sign_in("admin", &c.admin_password).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    staff.get("/account").await;
    let (csrf, pw) = (staff.csrf.clone(), c.admin_password.clone());
    let fields = [
        ("csrf", csrf.as_str()),
        ("nickname", "staff"),
        ("current", pw.as_str()),
        ("new_password", "staff password"),
        ("confirm", "staff password"),
    ];
    staff.post_form("/account", &fields).await;
    staff
}

/// Three students: Ada hands in the sample bot, Alan a disguised copy with a hostile comment,
/// Grace her own bot.
async fn class(c: &TestContest) -> Browser {
    let mut copy = corpus("c/greedy.all.c");
    copy.extend_from_slice(b"\n/* </td></tr><script>alert('x')</script> */\n");
    let subs = [
        (
            "2301",
            std::fs::read(bots().join("c/reversi_greedy.c")).expect("bot"),
        ),
        ("2302", copy),
        ("2303", corpus("c/mobility.c")),
    ];
    let mut last = None;
    for (login, source) in subs {
        let mut s = c.client();
        s.first_sign_in(login, &format!("n{login}"), "a long password")
            .await;
        s.submit_file("c", "main.c", source)
            .await
            .expect("submitted");
        last = Some(s);
    }
    last.expect("a student")
}

/// Follows the first link of a piece of a page (its `&` escaped by the template).
async fn follow_first_link(browser: &mut Browser, html: &str) -> (StatusCode, String) {
    let link = html
        .split("href=\"")
        .nth(1)
        .and_then(|h| h.split('"').next())
        .expect("a link");
    browser
        .get(&link.replace("&amp;", "&").replace("&#38;", "&"))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn staff_see_copies_ranked_and_side_by_side_and_no_one_else_does() {
    for db in support::databases().await {
        check(db).await;
    }
}

async fn check(db: Option<String>) {
    let c = TestContest::start(db, "", ROSTER, 0).await;
    let mut grace = class(&c).await;

    // Students are refused; visitors are sent to sign in; neither sees the nav link.
    for path in [
        "/admin/similarity",
        "/admin/similarity/pair?a=1&b=2",
        "/admin/similarity?format=csv",
    ] {
        let (status, _) = grace.get(path).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
        let (status, to) = c.client().get(path).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{path}");
        assert!(to.starts_with("/login"), "{to}");
    }
    let (_, page) = grace.get("/").await;
    assert!(!page.contains("/admin/similarity"));

    let mut staff = staff(&c).await;
    let (_, page) = staff.get("/").await;
    assert!(
        page.contains("href=\"/admin/similarity\""),
        "the staff's nav links the page"
    );
    let (status, page) = staff.get("/admin/similarity").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let first = page
        .split("<tbody>")
        .nth(1)
        .and_then(|t| t.split("</tr>").next())
        .expect("a row");
    assert!(first.contains("2301") && first.contains("2302"), "{first}");
    assert!(page.contains("3 sources"), "{page}");

    // The pair page: both sources, escaped, matched regions coloured and linked across.
    let (status, pair) = follow_first_link(&mut staff, first).await;
    assert_eq!(status, StatusCode::OK, "{pair}");
    assert!(pair.contains("class=\"m0\""), "a coloured region");
    assert!(
        pair.contains("href=\"#b-L") && pair.contains("href=\"#a-L"),
        "links both ways"
    );
    assert!(
        pair.contains("&lt;script&gt;") || pair.contains("&#60;script&#62;"),
        "escaped"
    );
    assert!(
        !pair.contains("<script>alert"),
        "the hostile comment stays text"
    );
    assert!(pair.contains("Longest fragment"));

    // Exports, and the kept results: a second run compares nothing.
    let (status, csv) = staff.get("/admin/similarity?format=csv").await;
    assert_eq!(status, StatusCode::OK);
    assert!(csv.starts_with("rank,language,a,"), "{csv}");
    assert!(c.dir.path().join("similarity-cache.json").is_file());
    let (_, page) = staff.get("/admin/similarity").await;
    assert!(page.contains("(0 compared now"), "{page}");

    // Ada's bot named as template code: the copy of it is no longer a finding.
    let template = c.dir.path().join("similarity/template");
    std::fs::create_dir_all(&template).expect("template dir");
    std::fs::copy(
        bots().join("c/reversi_greedy.c"),
        template.join("starter.c"),
    )
    .expect("template");
    let (_, page) = staff.get("/admin/similarity?format=json").await;
    let report: serde_json::Value = serde_json::from_str(&page).expect("json");
    let top = report["pairs"][0]["similarity"].as_f64().unwrap_or(0.0);
    assert!(top < 0.3, "template code counted: {top}");

    // An earlier year's copy is shown as such.
    std::fs::remove_dir_all(&template).expect("template gone");
    let earlier = c.dir.path().join("similarity/earlier/2025");
    std::fs::create_dir_all(&earlier).expect("earlier dir");
    std::fs::write(earlier.join("bob.c"), corpus("c/mobility.c")).expect("earlier");
    let (_, page) = staff.get("/admin/similarity").await;
    assert!(page.contains("earlier year</span> 2025/bob.c"), "{page}");
    let row = page
        .split("</tr>")
        .find(|r| r.contains("earlier year</span>"))
        .expect("its row");
    let (status, pair) = follow_first_link(&mut staff, row).await;
    assert_eq!(status, StatusCode::OK, "{pair}");
    assert!(pair.contains("earlier year: 2025/bob.c"));
}

/// Issue 32: two students handed in garbage that held the report for good (199,000 `}`, and
/// `}}}}}}}}}}}}+` 15,000 times: 19 minutes and 980 MB, unfinished, and every try of the page
/// answered 408). The report now reads such sources with the lexer, tiles the pair within a
/// budget linear in its tokens, and neither the scoreboard nor a pair page waits for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_students_garbage_neither_stops_nor_holds_the_report() {
    let roster = "student_id,name\n2301,Ada\n2302,Alan\n2303,Mallory\n2304,Eve\n";
    // The default limit of a source, 1 MB: the two attackers' files are within it.
    let toml = support::config("").replace("max_bytes = 65536", "max_bytes = 1048576");
    let c = TestContest::start_with(None, &toml, roster, 0, |_| {}).await;
    let subs = [
        (
            "2301",
            std::fs::read(bots().join("c/reversi_greedy.c")).expect("bot"),
        ),
        ("2302", corpus("c/greedy.all.c")),
        ("2303", "}".repeat(199_000).into_bytes()),
        ("2304", "}}}}}}}}}}}}+".repeat(15_000).into_bytes()),
    ];
    let mut ids = Vec::new();
    for (login, source) in subs {
        let mut s = c.client();
        s.first_sign_in(login, &format!("n{login}"), "a long password")
            .await;
        ids.push(
            s.submit_file("c", "main.c", source)
                .await
                .expect("submitted"),
        );
    }
    let mut staff = staff(&c).await;
    let list = {
        let mut b = c.client();
        b.http = staff.http.clone();
        tokio::spawn(async move { b.get("/admin/similarity").await })
    };
    // While the report runs: the scoreboard answers, and so does a pair page (it tiles its
    // pair itself rather than wait for the report).
    let (status, _) = c.client().get("/").await;
    assert_eq!(status, StatusCode::OK);
    let (status, pair) = staff
        .get(&format!("/admin/similarity/pair?a={}&b={}", ids[0], ids[1]))
        .await;
    assert_eq!(status, StatusCode::OK, "{pair}");
    assert!(pair.contains("class=\"m0\""));

    let (status, mut page) = list.await.expect("the list request");
    assert_eq!(status, StatusCode::OK, "{page}");
    // A loaded machine may take longer than the page waits: it then reloads itself.
    for _ in 0..60 {
        let Some(reload) = page
            .split("<a href=\"")
            .find(|s| s.starts_with("/admin/similarity?job="))
            .and_then(|s| s.split('"').next())
        else {
            break;
        };
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        page = staff.get(&reload.replace("&amp;", "&")).await.1;
    }
    let rows: Vec<&str> = page
        .split("<tbody>")
        .nth(1)
        .expect("a ranked list")
        .split("</tr>")
        .collect();
    assert!(
        rows[0].contains("2301") && rows[0].contains("2302"),
        "{page}"
    );
    let garbage = rows
        .iter()
        .find(|r| r.contains("2303") && r.contains("2304"))
        .expect("the two garbage sources are a pair, listed");
    assert!(garbage.contains("91%"), "{garbage}");
    // Both were read by the lexer, and the page says so.
    assert!(page.contains("Read by the lexer"), "{page}");
    let notes = page.split("Read by the lexer").nth(1).unwrap_or_default();
    assert!(notes.contains("2303") && notes.contains("2304"));

    // The pair page of the garbage: its regions, the longest 500 of 15,000 coloured.
    let (status, pair) = follow_first_link(&mut staff, garbage).await;
    assert_eq!(status, StatusCode::OK);
    assert!(pair.contains("500 longest of its 15000 regions"), "{pair}");

    // The exports say whether each pair's measure is complete.
    let (_, json) = staff.get("/admin/similarity?format=json").await;
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    let pairs = report["pairs"].as_array().expect("pairs");
    assert!(pairs.iter().all(|p| p["complete"].as_bool() == Some(true)));
    assert_eq!(report["counts"]["lexed"].as_u64(), Some(2));

    jobs_are_joined_and_outlive_their_requests(&c).await;
}

/// A report is a task of its own: a request that stops waiting leaves it running, a second
/// request joins it rather than start another, and the page that reloads naming it gets its
/// result; a request naming no report gets a new one (from the cache).
async fn jobs_are_joined_and_outlive_their_requests(c: &TestContest) {
    use arbiter_server::routes::similarity::{report, Options, Progress};
    use std::sync::Arc;
    use std::time::Duration;
    let dir = c.dir.path();
    let (db, _) = arbiter_server::state::open_db(dir, None)
        .await
        .expect("the contest's database");
    let contest =
        arbiter_server::config::Contest::load(&dir.join("contest.toml")).expect("the contest");
    // Template code changes the cache's settings: this report tiles (and parses) afresh, so
    // it runs for a while.
    let opts = Options {
        templates: vec![bots().join("c/reversi_random.c")],
        ..Options::default()
    };
    let now = Some(Duration::ZERO);
    let started = report(&db, &contest, dir, &opts, now, None).await;
    let Ok(Progress::Running { id, .. }) = started else {
        panic!("a report is not done the moment it starts");
    };
    let joined = report(&db, &contest, dir, &opts, now, None).await;
    assert!(
        matches!(joined, Ok(Progress::Running { id: same, .. }) if same == id),
        "a second request joins the report being computed"
    );
    let Ok(Progress::Done(done)) = report(&db, &contest, dir, &opts, None, Some(id)).await else {
        panic!("the report finishes");
    };
    assert!(done.counts.compared > 0);
    let Ok(Progress::Done(again)) = report(&db, &contest, dir, &opts, None, Some(id)).await else {
        panic!("the finished report");
    };
    assert!(
        Arc::ptr_eq(&done, &again),
        "a page naming it gets the same report"
    );
    let Ok(Progress::Done(fresh)) = report(&db, &contest, dir, &opts, None, None).await else {
        panic!("a new report");
    };
    assert!(!Arc::ptr_eq(&done, &fresh));
    assert_eq!(fresh.counts.compared, 0, "its pairs come from the cache");
}
