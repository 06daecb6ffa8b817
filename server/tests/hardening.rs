//! Issue 22: the contest site under attack. Each test here failed before its fix: races with
//! real concurrent requests, redirects, inline JSON, look-alike names, a frozen board that
//! leaked, clients behind a proxy, origins and the CSP, and slow clients.

use crate::support;

use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::Value;
use support::{staff, TestContest};

const ROSTER: &str = "student_id,name\n2301,Ada\n2302,Alan\n2303,Grace\n";

/// A student past the first sign-in, with an API token.
async fn student(c: &TestContest, login: &str, nickname: &str) -> (support::Browser, String) {
    let mut b = c.client();
    let password = format!("correct horse {login}");
    b.first_sign_in(login, nickname, &password).await;
    let (status, body) = b.api_token(login, &password).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let token = body["token"].as_str().expect("a token").to_string();
    (b, token)
}

/// Runs `n` copies of `f` at once (released together by a barrier); returns their results.
async fn at_once<T, F, Fut>(n: usize, f: F) -> Vec<T>
where
    T: Send + 'static,
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    let barrier = Arc::new(tokio::sync::Barrier::new(n));
    let mut tasks = Vec::new();
    for i in 0..n {
        let barrier = Arc::clone(&barrier);
        let fut = f(i);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            fut.await
        }));
    }
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.expect("a task"));
    }
    out
}

fn count(statuses: &[StatusCode], which: StatusCode) -> usize {
    statuses.iter().filter(|s| **s == which).count()
}

/// Item 1: ten submissions sent at once inside the 60 s interval: exactly one is accepted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_submissions_inside_the_interval_accept_exactly_one() {
    for db in support::databases().await {
        let which = if db.is_some() { "postgres" } else { "sqlite" };
        let toml = support::config("").replace("min_interval_s = 0", "min_interval_s = 60");
        let c = TestContest::start_with(db, &toml, ROSTER, 0, |_| {}).await;
        let (_, token) = student(&c, "2301", "ada").await;
        for round in 0..2 {
            let url = c.url("/api/submissions");
            let statuses = at_once(10, |i| {
                let (url, token) = (url.clone(), token.clone());
                async move {
                    let form = reqwest::multipart::Form::new()
                        .text("language", "python")
                        .text("code", format!("print({round}{i})\n"));
                    reqwest::Client::new()
                        .post(url)
                        .bearer_auth(token)
                        .multipart(form)
                        .send()
                        .await
                        .expect("POST")
                        .status()
                }
            })
            .await;
            let accepted = count(&statuses, StatusCode::CREATED);
            let refused = count(&statuses, StatusCode::TOO_MANY_REQUESTS);
            let want = if round == 0 { 1 } else { 0 };
            assert_eq!(
                (accepted, refused),
                (want, 10 - want),
                "{which}, round {round}: {statuses:?}"
            );
        }
    }
}

/// Item 2: forty wrong passwords sent at once for one account: at most the limit (5) are
/// checked against the hash; the others are refused before.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_wrong_passwords_are_counted_before_the_hash_is_checked() {
    let c = TestContest::start(None, "", ROSTER, 0).await;
    let url = c.url("/api/login");
    let statuses = at_once(40, |i| {
        let url = url.clone();
        async move {
            reqwest::Client::new()
                .post(url)
                .json(&serde_json::json!({ "login": "2302", "password": format!("guess {i}") }))
                .send()
                .await
                .expect("POST")
                .status()
        }
    })
    .await;
    let checked = count(&statuses, StatusCode::FORBIDDEN);
    let refused = count(&statuses, StatusCode::TOO_MANY_REQUESTS);
    assert!(checked <= 5, "{checked} of 40 were checked: {statuses:?}");
    assert_eq!(checked + refused, 40, "{statuses:?}");
}

/// `next` values that must never leave the site, as a form posts them and as a query sends
/// them (percent-encoded by the test).
const HOSTILE_NEXT: &[&str] = &[
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/ /evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "/\\/evil.example",
    "https://evil.example",
    "https:evil.example",
    "javascript:alert(1)",
    " //evil.example",
    "\u{0}//evil.example",
    "/\u{7f}/evil.example",
    "/\u{3000}/evil.example",
    "///evil.example",
];

/// A redirect target a browser keeps on this site: a path, no scheme or host, nothing a
/// browser strips or rewrites.
fn stays_on_site(location: &str) -> bool {
    location.starts_with('/')
        && !location.starts_with("//")
        && !location.contains('\\')
        && !location
            .chars()
            .any(|c| c.is_control() || c.is_whitespace())
}

/// Item 4: `next` leads only to a path on this site, from the sign-in form and when a
/// signed-in user opens `/login?next=...`.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn next_never_leaves_the_site() {
    let c = TestContest::start(None, "", ROSTER, 0).await;
    let (mut ada, _) = student(&c, "2301", "ada").await;
    // Signed in: GET /login?next=... redirects at once.
    for next in HOSTILE_NEXT {
        let (status, to) = ada
            .get(&format!(
                "/login?next={}",
                arbiter_server::pages::url_encode(next)
            ))
            .await;
        // Refused in words (400, no Location), or sent home: never to another host, never 500.
        // (`to` is the page of an answer that is not a redirect.)
        let refused = status == StatusCode::BAD_REQUEST;
        let home = status == StatusCode::SEE_OTHER && stays_on_site(&to);
        assert!(
            refused || home,
            "GET next={next:?} -> {status} Location {to:?}"
        );
    }
    for hostile in ["%09/evil.example", "/%09/evil.example", "/%00", "/%7F"] {
        let (status, to) = ada.get(&format!("/login?next={hostile}")).await;
        assert!(
            status != StatusCode::INTERNAL_SERVER_ERROR,
            "{hostile}: {status}"
        );
        assert!(
            status == StatusCode::BAD_REQUEST || stays_on_site(&to),
            "{hostile}: {to:?}"
        );
    }
    // Good targets survive, query included.
    let (_, to) = ada.get("/login?next=/submissions/all%3Fx%3D1").await;
    assert_eq!(to, "/submissions/all?x=1");
    // The form: each sign-in posts a hostile next.
    for next in HOSTILE_NEXT {
        let mut b = c.client();
        b.get("/login").await;
        let csrf = b.csrf.clone();
        let password = "correct horse 2301";
        let (status, to) = b
            .post_form(
                "/login",
                &[
                    ("csrf", &csrf),
                    ("login", "2301"),
                    ("password", password),
                    ("next", next),
                ],
            )
            .await;
        // (`to` is the page of an answer that is not a redirect.)
        let refused = status == StatusCode::BAD_REQUEST;
        let home = status == StatusCode::SEE_OTHER && stays_on_site(&to);
        assert!(
            refused || home,
            "POST next={next:?} -> {status} Location {to:?}"
        );
    }
}

/// The contents of each `<script>` element as the HTML tokenizer reads it when nothing
/// escapes: from the start tag to the first `</script`.
fn inline_scripts(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(start) = lower[at..].find("<script") {
        let open = at + start;
        let Some(gt) = lower[open..].find('>') else {
            break;
        };
        let body = open + gt + 1;
        let end = lower[body..]
            .find("</script")
            .map_or(html.len(), |e| body + e);
        out.push(html[body..end].to_string());
        at = end;
    }
    out
}

/// Checks a page's inline scripts against the tokenizer's escapes and returns the players'
/// names the game page's script hands to the player.
fn players_of_game_page(page: &str) -> Vec<String> {
    let scripts = inline_scripts(page);
    assert!(!scripts.is_empty(), "no inline script: {page}");
    for s in &scripts {
        let lower = s.to_ascii_lowercase();
        for bad in ["<!--", "<script", "</script", "-->"] {
            assert!(!lower.contains(bad), "{bad:?} inside a script: {s}");
        }
    }
    let script = scripts
        .iter()
        .find(|s| s.contains("load_players"))
        .expect("the player's start");
    let at = script.find("players:").expect("players") + "players:".len();
    let mut values = serde_json::Deserializer::from_str(&script[at..]).into_iter::<Value>();
    let names = values
        .next()
        .expect("a JSON value")
        .unwrap_or_else(|e| panic!("the players' JSON: {e}: {script}"));
    names
        .as_array()
        .expect("an array")
        .iter()
        .map(|n| n.as_str().unwrap_or_default().to_string())
        .collect()
}

async fn get_json(url: String, token: Option<&str>) -> (StatusCode, Value) {
    let mut r = reqwest::Client::new().get(url);
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    let r = r.send().await.expect("GET");
    let status = r.status();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn submit_python(c: &TestContest, token: &str) -> i64 {
    let bot = std::fs::read(support::bots().join("python/reversi_random.py")).expect("a bot");
    let form = reqwest::multipart::Form::new()
        .text("language", "python")
        .part(
            "file",
            reqwest::multipart::Part::bytes(bot).file_name("bot.py"),
        );
    let r = reqwest::Client::new()
        .post(c.url("/api/submissions"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .expect("POST");
    assert_eq!(r.status(), StatusCode::CREATED);
    r.json::<Value>().await.expect("JSON")["id"]
        .as_i64()
        .expect("an id")
}

/// Waits until the course staff's (live) scoreboard counts `n` games.
async fn games_done(c: &TestContest, staff_token: &str, n: u64) {
    support::wait_for(
        std::time::Duration::from_secs(180),
        &format!("{n} games played"),
        || async {
            let (_, b) = get_json(c.url("/api/scoreboard"), Some(staff_token)).await;
            (b["board"]["games_done"].as_u64() == Some(n)).then_some(())
        },
    )
    .await;
}

/// Items 5 and 7: nicknames that are the HTML tokenizer's escapes do not change the game page
/// around its inline script (the players' names still reach the player); then, with the
/// scoreboard frozen, games played after the freeze show no result to visitors or students,
/// on any page or API route, while the course staff see everything.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hostile_nicknames_and_a_frozen_board_keep_their_secrets() {
    for db in support::databases().await {
        let which = if db.is_some() { "postgres" } else { "sqlite" };
        let c = TestContest::start(db, "", ROSTER, 1).await;
        let mut staff = staff(&c).await;
        let (_, st) = staff.api_token("admin", "staff password").await;
        let staff_token = st["token"].as_str().expect("a token").to_string();
        let (_, ada) = student(&c, "2301", "<!--<script>").await;
        let (mut alan_page, alan) = student(&c, "2302", "</script><script>").await;
        let a = submit_python(&c, &ada).await;
        submit_python(&c, &alan).await;
        games_done(&c, &staff_token, 2).await;

        // Item 5: the game pages' scripts are intact and name the players.
        let (_, before) = get_json(c.url(&format!("/api/games?submission={a}")), None).await;
        let before_ids: Vec<i64> = before
            .as_array()
            .expect("games")
            .iter()
            .filter_map(|g| g["id"].as_i64())
            .collect();
        assert_eq!(before_ids.len(), 2, "{which}: {before}");
        for id in &before_ids {
            let r = reqwest::get(c.url(&format!("/games/{id}")))
                .await
                .expect("GET");
            let csp = r
                .headers()
                .get("content-security-policy")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string();
            let page = r.text().await.expect("text");
            scripts_need_the_nonce(&csp, &page);
            // The player in its srcdoc obeys this page alone and streams this site's hub alone.
            let plain = ["&quot;", "&#34;", "&#x22;"].iter().fold(
                page.replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&#60;", "<")
                    .replace("&#62;", ">"),
                |p, q| p.replace(q, "\""),
            );
            assert!(
                plain.contains(r#"<meta name="arbiter-origins" content="self" data-hubs="self">"#),
                "{which}: the game page's player is not told whom to trust"
            );
            let names = players_of_game_page(&page);
            assert_eq!(names.len(), 2, "{which}: {names:?}");
            assert!(
                names.iter().any(|n| n.starts_with("<!--<script> #"))
                    && names.iter().any(|n| n.starts_with("</script><script> #")),
                "{which}: {names:?}"
            );
        }

        // Item 7: frozen, then Grace's bot plays both of them.
        let csrf = staff.csrf.clone();
        let (status, _) = staff.post_form("/admin/freeze", &[("csrf", &csrf)]).await;
        assert_eq!(status, StatusCode::SEE_OTHER, "{which}");
        let (_, grace) = student(&c, "2303", "grace").await;
        let g = submit_python(&c, &grace).await;
        games_done(&c, &staff_token, 6).await;

        let (_, staff_view) = get_json(
            c.url(&format!("/api/games?submission={g}")),
            Some(&staff_token),
        )
        .await;
        let after: Vec<i64> = staff_view
            .as_array()
            .expect("games")
            .iter()
            .filter(|v| v["state"] == "done" && v["verdict"].is_string())
            .filter_map(|v| v["id"].as_i64())
            .collect();
        assert_eq!(
            after.len(),
            4,
            "{which}: the staff see every result: {staff_view}"
        );

        let no_result = |v: &Value, what: &str| {
            for game in v.as_array().unwrap_or(&Vec::new()) {
                if after.contains(&game["id"].as_i64().unwrap_or(0)) {
                    assert!(
                        game["winner"].is_null()
                            && game["verdict"].is_null()
                            && game["reason"].is_null()
                            && game["state"] != "done",
                        "{which}: {what} shows a result after the freeze: {game}"
                    );
                }
            }
        };
        for (who, token) in [("a visitor", None), ("a student", Some(alan.as_str()))] {
            for sub in [a, g] {
                let (_, v) = get_json(c.url(&format!("/api/games?submission={sub}")), token).await;
                no_result(&v, &format!("/api/games?submission={sub} for {who}"));
            }
            let (_, board) = get_json(c.url("/api/scoreboard"), token).await;
            assert_eq!(board["frozen"], true, "{which}: {who}");
            assert_eq!(board["board"]["games_done"], 2, "{which}: {who}");
            for id in &after {
                let (status, v) = get_json(c.url(&format!("/api/games/{id}/replay")), token).await;
                assert!(
                    !status.is_success(),
                    "{which}: the replay of game {id} for {who}: {v}"
                );
            }
            let (status, live) = get_json(c.url("/live/games.json"), token).await;
            if status.is_success() {
                for l in live.as_array().unwrap_or(&Vec::new()) {
                    assert!(
                        l["result"].is_null() && l["finished"] != true,
                        "{which}: the live list for {who}: {l}"
                    );
                }
            }
        }
        for sub in [a, g] {
            let (_, v) = get_json(c.url(&format!("/api/submissions/{sub}")), Some(&alan)).await;
            no_result(&v["games"], &format!("/api/submissions/{sub}"));
        }
        // Pages: as a visitor and as a student.
        let mut visitor = c.client();
        for id in &after {
            for b in [&mut visitor, &mut alan_page] {
                let (status, page) = b.get(&format!("/games/{id}")).await;
                assert!(
                    !page.contains(" wins: ") && !page.contains("draw: "),
                    "{which}: game {id}'s page ({status}) shows its result: {page}"
                );
                let (status, _) = b.get(&format!("/games/{id}/replay.json")).await;
                assert!(!status.is_success(), "{which}: game {id}'s replay");
            }
        }
        for sub in [a, g] {
            let (status, page) = alan_page.get(&format!("/submissions/{sub}")).await;
            assert_eq!(status, StatusCode::OK, "{which}");
            for id in &after {
                let link = format!("<a href=\"/games/{id}\"");
                if let Some(at) = page.find(&link) {
                    let mark: String = page[at..]
                        .split_once('>')
                        .map(|(_, rest)| rest.chars().take_while(|c| *c != '<').collect())
                        .unwrap_or_default();
                    assert!(
                        !["W", "L", "½"].contains(&mark.as_str()),
                        "{which}: submission {sub}'s page marks game {id} {mark:?}"
                    );
                }
            }
        }
        // The staff still see the results: the replay (which the game page's player states
        // the result from; the page itself no longer repeats it).
        let (status, replay) = staff.get(&format!("/games/{}/replay.json", after[0])).await;
        assert!(
            status.is_success() && replay.contains("\"winner\""),
            "{which}: {status} {replay}"
        );
    }
}

/// Sets a nickname on the account page; returns the page's error, if any.
async fn set_nickname(b: &mut support::Browser, nickname: &str) -> Option<String> {
    b.get("/account").await;
    let csrf = b.csrf.clone();
    let (status, page) = b
        .post_form("/account", &[("csrf", &csrf), ("nickname", nickname)])
        .await;
    assert_eq!(status, StatusCode::OK, "{nickname:?}: {page}");
    if page.contains("Saved.") {
        return None;
    }
    Some(page)
}

/// Item 6: format characters are refused, names are unique after NFKC and case folding, and
/// the course staff's names are reserved.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn look_alike_nicknames_are_refused() {
    for db in support::databases().await {
        let which = if db.is_some() { "postgres" } else { "sqlite" };
        let c = TestContest::start(db, "", ROSTER, 0).await;
        staff(&c).await;
        let (mut ada, _) = student(&c, "2301", "ada").await;
        let (mut alan, _) = student(&c, "2302", "alan").await;
        for bad in [
            "st\u{200b}aff",
            "\u{202e}nimda",
            "ad\u{200d}a",
            "a\u{2066}b",
            "\u{feff}x",
            "x\u{00ad}y",
        ] {
            assert!(
                set_nickname(&mut alan, bad).await.is_some(),
                "{which}: {bad:?} was accepted"
            );
        }
        // Taken, after NFKC and case folding.
        for same in ["ADA", "ａｄａ", "Ａda"] {
            assert!(
                set_nickname(&mut alan, same).await.is_some(),
                "{which}: {same:?} passes for \"ada\""
            );
        }
        // The staff's login and nickname are reserved.
        for reserved in ["admin", "Admin", "ａｄｍｉｎ", "staff", "STAFF"] {
            assert!(
                set_nickname(&mut alan, reserved).await.is_some(),
                "{which}: {reserved:?} is the course staff's"
            );
        }
        // Another student's login is not a nickname either ("2301" reads as Ada's number).
        assert!(set_nickname(&mut alan, "2301").await.is_some(), "{which}");
        // Fine names pass, stored in NFKC: the scoreboard shows what was checked.
        assert_eq!(
            set_nickname(&mut alan, "ｆｉｎｅ name").await,
            None,
            "{which}"
        );
        let (_, page) = alan.get("/account").await;
        assert!(page.contains("value=\"fine name\""), "{which}: {page}");
        assert_eq!(
            set_nickname(&mut ada, "Ada Lovelace").await,
            None,
            "{which}"
        );
        assert_eq!(
            set_nickname(&mut ada, "Ada Lovelace").await,
            None,
            "{which}: her own"
        );
    }
}

/// A sign-in through the form as a client behind the proxy at `xff` (X-Forwarded-For);
/// returns the status and the Retry-After header.
async fn sign_in_via(
    c: &TestContest,
    headers: &[(&str, &str)],
    login: &str,
    password: &str,
) -> (StatusCode, Option<u64>, String) {
    let http = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client");
    let mut get = http.get(c.url("/login"));
    for (k, v) in headers {
        get = get.header(*k, *v);
    }
    let page = get.send().await.expect("GET").text().await.expect("text");
    let csrf = support::scrape_csrf(&page).expect("a form");
    let mut post = http.post(c.url("/login")).form(&[
        ("csrf", csrf.as_str()),
        ("login", login),
        ("password", password),
        ("next", "/"),
    ]);
    for (k, v) in headers {
        post = post.header(*k, *v);
    }
    let r = post.send().await.expect("POST");
    let retry = r
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    let cookies = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join("\n");
    (r.status(), retry, cookies)
}

/// Item 3: behind a trusted proxy the limits key on the client the proxy names, one
/// student's failures do not lock the class out, an attacker cannot hold a victim's account,
/// and cookies are Secure when the proxy says https. Without `--trusted-proxy` the headers
/// are ignored.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn behind_a_trusted_proxy_the_limits_key_on_the_client() {
    let toml = support::config("");
    let c = TestContest::start_with(None, &toml, ROSTER, 0, |o| {
        o.trusted_proxies = vec!["127.0.0.0/8".parse().expect("a network")];
    })
    .await;
    // 35 failures with made-up logins from one client (who forges a left-hand hop each time).
    let mut refused = 0;
    for i in 0..35 {
        let xff = format!("10.9.{i}.1, 203.0.113.7");
        let (status, _, _) =
            sign_in_via(&c, &[("x-forwarded-for", &xff)], &format!("nobody{i}"), "x").await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
        }
    }
    assert!(refused >= 5, "the client itself is limited: {refused}");
    // The rest of the class, behind the same proxy, signs in.
    let (status, _, _) =
        sign_in_via(&c, &[("x-forwarded-for", "203.0.113.8")], "2303", "2303").await;
    assert_eq!(
        status,
        StatusCode::SEE_OTHER,
        "another student behind the proxy"
    );
    let (status, _, _) = sign_in_via(
        &c,
        &[("forwarded", "for=\"[2001:db8::1]:4711\";proto=http")],
        "2301",
        "2301",
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "Forwarded: for=");

    // An attacker's failures on Alan's account slow it down, for a short while only.
    for i in 0..20 {
        sign_in_via(
            &c,
            &[("x-forwarded-for", &format!("198.51.100.{i}"))],
            "2302",
            "wrong",
        )
        .await;
    }
    let (status, retry, _) =
        sign_in_via(&c, &[("x-forwarded-for", "203.0.113.9")], "2302", "2302").await;
    if status == StatusCode::TOO_MANY_REQUESTS {
        let wait = retry.expect("Retry-After");
        assert!(wait <= 60, "a delay, not a lock: {wait} s");
        tokio::time::sleep(std::time::Duration::from_secs(wait + 1)).await;
        let (status, _, _) =
            sign_in_via(&c, &[("x-forwarded-for", "203.0.113.9")], "2302", "2302").await;
        assert_eq!(status, StatusCode::SEE_OTHER, "after the delay");
    } else {
        assert_eq!(status, StatusCode::SEE_OTHER);
    }

    // Secure cookies when the proxy says https, not otherwise.
    let (_, _, cookies) = sign_in_via(
        &c,
        &[
            ("x-forwarded-for", "203.0.113.10"),
            ("x-forwarded-proto", "https"),
        ],
        "nobody",
        "x",
    )
    .await;
    let (_, _, plain) =
        sign_in_via(&c, &[("x-forwarded-for", "203.0.113.11")], "nobody", "x").await;
    assert!(!plain.contains("Secure"), "no https, no Secure: {plain}");
    let http = reqwest::Client::new();
    let r = http
        .get(c.url("/login"))
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .expect("GET");
    let set = r
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(set.contains("Secure"), "https through the proxy: {set}");
    let _ = cookies;

    // Without --trusted-proxy the headers are the client's word: ignored.
    let d = TestContest::start(None, "", ROSTER, 0).await;
    let mut refused = 0;
    for i in 0..35 {
        let xff = format!("203.0.113.{i}");
        let (status, _, _) =
            sign_in_via(&d, &[("x-forwarded-for", &xff)], &format!("nobody{i}"), "x").await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
        }
    }
    assert!(
        refused >= 5,
        "forged X-Forwarded-For escaped the limit: {refused}"
    );
    let r = http
        .get(d.url("/login"))
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .expect("GET");
    assert!(
        r.headers()
            .get_all("set-cookie")
            .iter()
            .all(|v| !v.to_str().unwrap_or("").contains("Secure")),
        "an untrusted client's X-Forwarded-Proto"
    );
}

/// The CSP's script sources and nonce: `'unsafe-inline'` is not among them.
fn script_src(csp: &str) -> (String, Option<String>) {
    let src = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("script-src"))
        .unwrap_or_default()
        .to_string();
    let nonce = src
        .split_whitespace()
        .find_map(|s| s.strip_prefix("'nonce-"))
        .map(|n| n.trim_end_matches('\'').to_string());
    (src, nonce)
}

/// Checks that a page's every inline script carries the response's nonce, and that the CSP
/// allows no other inline script.
fn scripts_need_the_nonce(csp: &str, page: &str) {
    let (src, nonce) = script_src(csp);
    assert!(!src.contains("unsafe-inline"), "{src}");
    let nonce = nonce.expect("a nonce");
    let lower = page.to_ascii_lowercase();
    for (at, _) in lower.match_indices("<script") {
        let tag = &page[at..at + page[at..].find('>').expect("a tag")];
        assert!(
            tag.contains(&format!("nonce=\"{nonce}\"")),
            "a script without this response's nonce: {tag}"
        );
    }
}

/// Item 9: a request that changes something, or a websocket upgrade, from another site's page
/// is refused even with a valid token; scripts need the response's nonce (or are the player's,
/// by hash).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn origins_are_checked_and_inline_scripts_need_a_nonce() {
    let player = tempfile::NamedTempFile::new().expect("a file");
    std::fs::write(
        player.path(),
        "<!DOCTYPE html><title>p</title><script>window.started = 1;</script>",
    )
    .expect("write");
    let path = player.path().to_path_buf();
    let c = TestContest::start_with(None, &support::config(""), ROSTER, 0, move |o| {
        o.player = Some(path);
    })
    .await;
    let (mut ada, _) = student(&c, "2301", "ada").await;
    ada.get("/account").await;
    let csrf = ada.csrf.clone();
    let form = [("csrf", csrf.as_str()), ("nickname", "ada two")];
    let site = c.url("");
    for (origin, want, what) in [
        (
            "http://evil.example",
            StatusCode::FORBIDDEN,
            "a cross-site form post",
        ),
        ("null", StatusCode::FORBIDDEN, "Origin: null"),
        (site.as_str(), StatusCode::OK, "from the site itself"),
    ] {
        let r = ada
            .http
            .post(c.url("/account"))
            .header("origin", origin)
            .form(&form)
            .send()
            .await
            .expect("POST");
        assert_eq!(r.status(), want, "{what}");
    }
    // The API answers in JSON.
    let r = reqwest::Client::new()
        .post(c.url("/api/login"))
        .header("origin", "http://evil.example")
        .json(&serde_json::json!({ "login": "2301", "password": "x" }))
        .send()
        .await
        .expect("POST");
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let body: Value = r.json().await.expect("JSON");
    assert!(body["error"].is_string(), "{body}");
    // Websocket upgrades of the live hub, with the visitor's cookie.
    for path in ["/live/ws/_1", "/live/ws/1.aaaaaaaaaaaaaaaaaaaaaa/0"] {
        let upgrade = |origin: &str| {
            ada.http
                .get(c.url(path))
                .header("origin", origin)
                .header("connection", "Upgrade")
                .header("upgrade", "websocket")
                .header("sec-websocket-version", "13")
                .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
                .send()
        };
        let r = upgrade("http://evil.example").await.expect("GET");
        assert_eq!(
            r.status(),
            StatusCode::FORBIDDEN,
            "{path} from another site"
        );
        let r = upgrade(&c.url("")).await.expect("GET");
        assert_ne!(r.status(), StatusCode::FORBIDDEN, "{path} from the site");
    }
    // The CSP: a nonce for the page's scripts, the player's scripts by hash.
    for path in ["/", "/login", "/live", "/submissions"] {
        let r = ada.http.get(c.url(path)).send().await.expect("GET");
        let csp = r
            .headers()
            .get("content-security-policy")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let page = r.text().await.unwrap_or_default();
        scripts_need_the_nonce(&csp, &page);
        // sha256 of "window.started = 1;"
        let hash = {
            use sha2::Digest;
            let d = sha2::Sha256::digest(b"window.started = 1;");
            let b64 = base64_std(&d);
            format!("'sha256-{b64}'")
        };
        assert!(csp.contains(&hash), "{path}: the player's script: {csp}");
        // Connections (the player's websocket too) go to the site's own host alone (issue 32).
        assert!(csp.contains("connect-src 'self' blob:;"), "{path}: {csp}");
        assert!(!csp.contains("ws:"), "{path}: any websocket allowed: {csp}");
    }
    let a = reqwest::get(c.url("/login")).await.expect("GET");
    let b = reqwest::get(c.url("/login")).await.expect("GET");
    let nonce = |r: &reqwest::Response| {
        script_src(
            r.headers()
                .get("content-security-policy")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default(),
        )
        .1
    };
    assert_ne!(nonce(&a), nonce(&b), "a nonce per response");
}

fn base64_std(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(A[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
        for _ in chunk.len()..3 {
            out.push('=');
        }
    }
    out
}

/// The resident memory of this process (the server runs in it), in MiB.
fn rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// A connection from `source` (a loopback address of its own) to `to`.
async fn connect_from(source: &str, to: std::net::SocketAddr) -> Option<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket.bind(format!("{source}:0").parse().ok()?).ok()?;
    socket.connect(to).await.ok()
}

/// Item 8: a bounded slowloris on loopback. `SLOWLORIS` connections (default 200, at most
/// 2000), spread over loopback addresses, send a request's headers one byte every 2 s (for at
/// most 24 s); meanwhile a scoreboard request is timed every half second. The server cuts them
/// off at its header timeout (10 s), and answers the scoreboard all along. Then 300 idle
/// connections from one address: those past the per-address bound (256) are closed at once.
/// Prints the figures.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn slow_clients_are_cut_off_and_the_scoreboard_keeps_answering() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let n: usize = std::env::var("SLOWLORIS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
        .min(2000);
    let c = TestContest::start(None, "", ROSTER, 0).await;
    let addr = c.addr;
    let rss_before = rss_mib();
    let t0 = std::time::Instant::now();
    let mut slow = Vec::new();
    for i in 0..n {
        // 200 per source address, below the per-address bound.
        let source = format!("127.0.{}.2", 1 + i / 200);
        slow.push(tokio::spawn(async move {
            let mut s = connect_from(&source, addr).await?;
            let opened = std::time::Instant::now();
            s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.ok()?;
            let mut buf = [0u8; 256];
            // One header byte every 2 s, 12 at most; the server's close ends it earlier.
            for _ in 0..12 {
                tokio::select! {
                    r = s.read(&mut buf) => {
                        if matches!(r, Ok(0) | Err(_)) {
                            return Some(opened.elapsed());
                        }
                    }
                    _ = tokio::time::sleep(std::time::Duration::from_secs(2)) => {
                        if s.write_all(b"X").await.is_err() {
                            return Some(opened.elapsed());
                        }
                    }
                }
            }
            None
        }));
    }
    // The scoreboard meanwhile, from an address of its own.
    let mut latencies = Vec::new();
    let mut held_max = 0;
    let mut rss_max = rss_before;
    while t0.elapsed() < std::time::Duration::from_secs(16) {
        let t = std::time::Instant::now();
        let r = reqwest::Client::new()
            .get(c.url("/api/scoreboard"))
            .timeout(std::time::Duration::from_secs(10))
            .send()
            .await;
        assert!(
            r.as_ref().is_ok_and(|r| r.status().is_success()),
            "the scoreboard during the slowloris: {r:?}"
        );
        latencies.push(t.elapsed());
        held_max = held_max.max(slow.iter().filter(|h| !h.is_finished()).count());
        rss_max = rss_max.max(rss_mib());
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    let mut cut = Vec::new();
    for h in slow {
        cut.push(h.await.expect("a task"));
    }
    let still_open = cut.iter().filter(|c| c.is_none()).count();
    let slowest_cut = cut.iter().flatten().max().copied().unwrap_or_default();
    latencies.sort();
    let median = latencies[latencies.len() / 2];
    let worst = latencies[latencies.len() - 1];
    eprintln!(
        "slowloris: {n} connections, at most {held_max} held at once, {still_open} never cut off, \
         the last cut after {slowest_cut:.1?}; scoreboard latency median {median:.1?}, worst \
         {worst:.1?} ({} requests); RSS {rss_before:.0} MiB before, {rss_max:.0} MiB at most",
        latencies.len()
    );
    assert_eq!(still_open, 0, "connections never cut off");
    assert!(
        slowest_cut < std::time::Duration::from_secs(14),
        "{slowest_cut:?}"
    );
    assert!(worst < std::time::Duration::from_secs(2), "{worst:?}");

    // Idle connections from one address: past the bound they are closed at once.
    let mut idle = Vec::new();
    for _ in 0..300 {
        if let Some(s) = connect_from("127.0.9.9", addr).await {
            idle.push(s);
        }
    }
    let opened = idle.len();
    let reads: Vec<_> = idle
        .into_iter()
        .map(|mut s| {
            tokio::spawn(async move {
                let mut buf = [0u8; 16];
                let r =
                    tokio::time::timeout(std::time::Duration::from_millis(500), s.read(&mut buf))
                        .await;
                matches!(r, Ok(Ok(0) | Err(_)))
            })
        })
        .collect();
    let mut closed = 0;
    for r in reads {
        if r.await.expect("a task") {
            closed += 1;
        }
    }
    eprintln!("idle connections from one address: {opened} opened, {closed} closed at once");
    assert!(
        closed >= 40,
        "only {closed} of 300 idle connections were refused"
    );
    let r = reqwest::get(c.url("/api/scoreboard")).await.expect("GET");
    assert!(r.status().is_success());
}

/// Item 9 in a browser (`ARBITER_BROWSER=1`; needs Debian's chromium and `npm ci` in
/// tests/web): with a stand-in player holding an inline script, the game page's and the live
/// page's scripts run under the CSP, the player's too, and an injected script does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn browser_runs_every_inline_script_under_the_csp() {
    if std::env::var("ARBITER_BROWSER").as_deref() != Ok("1") {
        eprintln!("ARBITER_BROWSER not set: the browser check is skipped");
        return;
    }
    let player = tempfile::NamedTempFile::new().expect("a file");
    std::fs::write(
        player.path(),
        "<!DOCTYPE html><title>stand-in player</title><body>stand-in</body>\n<script>\
         window.addEventListener(\"message\", (e) => { const m = e.data || {};\
         if (m.message === \"init_replay_player\") parent.postMessage({ message: \"init_successfully\", number_of_frames: 3 }, \"*\");\
         if (m.message === \"load_players\") document.body.dataset.players = JSON.stringify(m.players); });\
         </script>",
    )
    .expect("write");
    let path = player.path().to_path_buf();
    let c = TestContest::start_with(None, &support::config(""), ROSTER, 1, move |o| {
        o.player = Some(path);
    })
    .await;
    let (_, ada) = student(&c, "2301", "<!--<script>").await;
    let (_, alan) = student(&c, "2302", "</script><script>").await;
    let a = submit_python(&c, &ada).await;
    submit_python(&c, &alan).await;
    support::wait_for(
        std::time::Duration::from_secs(180),
        "two games played",
        || async {
            let (_, b) = get_json(c.url("/api/scoreboard"), None).await;
            (b["board"]["games_done"].as_u64() == Some(2)).then_some(())
        },
    )
    .await;
    let (_, games) = get_json(c.url(&format!("/api/games?submission={a}")), None).await;
    let game = games[0]["id"].as_i64().expect("a game");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/web/contest-csp.mjs");
    let base = c.url("");
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new("node")
            .arg(&script)
            .arg(base)
            .arg(game.to_string())
            .output()
    })
    .await
    .expect("a task")
    .expect("node");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    eprintln!("{text}");
    assert!(out.status.success(), "{text}");
}

/// Item 8, the other slow clients: a body sent one byte at a time is cut off at the request
/// timeout (408), and a kept-alive connection that sends nothing more is closed at the header
/// timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn slow_bodies_and_idle_connections_are_cut_off() {
    use std::time::{Duration, Instant};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let c = TestContest::start_with(None, &support::config(""), ROSTER, 0, |o| {
        o.limits.header_timeout = Duration::from_secs(2);
        o.limits.request_timeout = Duration::from_secs(3);
    })
    .await;
    // A body of 1000 bytes, one byte every 300 ms (5 minutes in all).
    let mut s = tokio::net::TcpStream::connect(c.addr)
        .await
        .expect("connect");
    s.write_all(
        b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n\
          Content-Length: 1000\r\n\r\n",
    )
    .await
    .expect("write");
    let t0 = Instant::now();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while t0.elapsed() < Duration::from_secs(15) {
        tokio::select! {
            r = s.read(&mut buf) => match r {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            },
            _ = tokio::time::sleep(Duration::from_millis(300)) => {
                if s.write_all(b"a").await.is_err() {
                    break;
                }
            }
        }
        if answer.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&answer).to_string();
    assert!(
        text.starts_with("HTTP/1.1 408") && t0.elapsed() < Duration::from_secs(6),
        "after {:?}: {text:?}",
        t0.elapsed()
    );

    // A kept-alive connection, idle after its first request.
    let mut s = tokio::net::TcpStream::connect(c.addr)
        .await
        .expect("connect");
    s.write_all(b"GET /api/scoreboard HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let t0 = Instant::now();
    let mut closed = false;
    while t0.elapsed() < Duration::from_secs(10) {
        match tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => {
                closed = true;
                break;
            }
            Ok(Ok(_)) => {}
            Err(_) => break,
        }
    }
    assert!(
        closed && t0.elapsed() < Duration::from_secs(5),
        "an idle kept-alive connection is still open after {:?}",
        t0.elapsed()
    );
}
