//! The site in both languages: every page renders in English and in Simplified Chinese with
//! no message key left in it; the language follows the switch (a cookie), then
//! `Accept-Language`, then contest.toml; the verdicts the API returns do not change with it.

use crate::support;

use std::time::Duration;

use arbiter_i18n::Lang;
use reqwest::StatusCode;
use serde_json::Value;
use support::{api_submission, bots, wait_for, Browser, TestContest};

const ROSTER: &str = "student_id,name\n2301,Ada\n2302,Alan\n";

fn source(path: &str) -> Vec<u8> {
    std::fs::read(bots().join(path)).expect("a sample bot")
}

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// A page in `lang`: the right `<html lang>`, no message key, and (in English) no Chinese but
/// the switch's own name for Chinese.
fn check_page(lang: Lang, path: &str, page: &str, keys: &[String]) {
    // The game page carries the built player in its frame's `srcdoc`: the player names its
    // messages in attributes and speaks its host page's language (its own test covers it).
    let page = &without_srcdoc(page);
    assert!(
        page.contains(&format!("<html lang=\"{}\">", lang.tag())),
        "{lang} {path}: {page}"
    );
    for key in keys {
        assert!(
            !page.contains(key.as_str()),
            "{lang} {path}: the key {key} shows instead of a text"
        );
    }
    let body = page.replace(Lang::ZhCn.name(), "");
    match lang {
        Lang::En => assert!(!has_cjk(&body), "{path}: Chinese on an English page"),
        Lang::ZhCn => {
            // A live game's title is data, set in English when its game starts ("Game 3: ada
            // vs alan"): a known gap, the one English left on the live list.
            // The similarity pair page shows two students' sources, which are data too.
            let page = body
                .split("<div class=\"pair\">")
                .next()
                .unwrap_or_default();
            let text = visible_text(&without_code(page))
                .replace("Game ", "")
                .replace(CONTEST_NAME, "");
            let english = english_words(&text);
            assert!(
                english.is_empty(),
                "{path}: English words {english:?} on a Chinese page: {text}"
            );
            // Each element's text on its own: a name in one cell and a language in the next
            // are not a phrase.
            // The staff account's name is data too, stored by `contest init` in English (a
            // known gap: "Course staff" in the header of a staff member's Chinese pages).
            let cells = visible_text(&without_code(page).replace('<', "¦<"))
                .replace("Game ", "")
                .replace(CONTEST_NAME, "")
                .replace("Course staff", "");
            // "vs" between two players is read as a sign in Chinese too ("ada vs alan").
            let runs = latin_runs(&without_glosses(&cells.replace(" vs ", " ¦ ")));
            assert!(
                runs.is_empty(),
                "{path}: English phrases {runs:?} on a Chinese page: {text}"
            );
        }
    }
}

/// `html` with every `srcdoc="..."` attribute emptied.
fn without_srcdoc(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("srcdoc=\"") {
        let start = i + "srcdoc=\"".len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find('"').unwrap_or(rest.len());
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The contest's name, which is data (the test contest's is in English).
const CONTEST_NAME: &str = "Test contest";

/// `html` without its code (`<code>`, `<pre>`): commands, lines of a protocol and sources are
/// the same in every language.
fn without_code(html: &str) -> String {
    let mut out = html.to_string();
    for (open, close) in [("<pre", "</pre>"), ("<code", "</code>")] {
        while let Some(i) = out.find(open) {
            let end = out[i..]
                .find(close)
                .map_or(out.len(), |e| i + e + close.len());
            out.replace_range(i..end, " ");
        }
    }
    out
}

/// `text` without glosses: a term of art in English in full-width brackets after its Chinese
/// ("贪心串匹配（greedy string tiling）"), all of it ASCII.
fn without_glosses(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('（') {
        let after = &rest[i + '（'.len_utf8()..];
        match after.find('）') {
            Some(e) if after[..e].is_ascii() => {
                out.push_str(&rest[..i]);
                rest = &after[e + '）'.len_utf8()..];
            }
            _ => {
                out.push_str(&rest[..i + '（'.len_utf8()]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Runs of two or more Latin words in a text (a phrase left in English: "in play", "every
/// game"); single words are names, moves or notation ("Elo", "Ada", "d3").
fn latin_runs(text: &str) -> Vec<String> {
    let word = |w: &str| {
        let w = w.trim_matches(|c: char| ",.:;!?()\"'".contains(c));
        // One letter is notation (a square's `r`, a column `a`), not a word.
        w.len() > 1
            && w.chars().all(|c| c.is_ascii_alphabetic())
            && w.chars().any(|c| c.is_ascii_lowercase())
    };
    // Anything not ASCII (Chinese, its punctuation) ends a run, as a tag does (`¦`).
    let text: String = text
        .chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                " ¦ ".into()
            }
        })
        .collect();
    let mut runs = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for token in text.split_whitespace().chain([""]) {
        if word(token) {
            run.push(token);
            continue;
        }
        if run.len() >= 2 {
            runs.push(run.join(" "));
        }
        run.clear();
    }
    runs
}

#[test]
fn latin_runs_find_phrases_not_names() {
    assert_eq!(latin_runs("胜 3 局 +2 in play，Ada 对 alan"), ["in play"]);
    assert!(latin_runs("Elo ± 12 d3 黑方").is_empty());
    assert_eq!(
        without_glosses("匹配（greedy string tiling）度量（另有 in play）"),
        "匹配度量（另有 in play）"
    );
    assert_eq!(
        without_code("a <code>b c</code> d <pre>e\nf</pre>"),
        "a   d  "
    );
}

/// What a reader sees of a page: no tags, scripts or styles.
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        out.push(' ');
        let after = &rest[open..];
        let skip_to = ["<script", "<style"]
            .iter()
            .find(|t| after.starts_with(**t))
            .and_then(|t| after.find(&format!("</{}>", &t[1..])))
            .unwrap_or(0);
        rest = match after[skip_to..].find('>') {
            Some(close) => &after[skip_to + close + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// Common English words in a text (a Chinese page has none but in names and notation).
fn english_words(text: &str) -> Vec<String> {
    const WORDS: [&str; 14] = [
        "the",
        "of",
        "and",
        "to",
        "game",
        "games",
        "your",
        "is",
        "not",
        "played",
        "sign",
        "submit",
        "submission",
        "frame",
    ];
    // All-capital words are names, not prose (ARBITER_GAME, the environment variable).
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.chars().any(|c| c.is_ascii_lowercase()))
        .filter(|w| WORDS.contains(&w.to_ascii_lowercase().as_str()))
        .map(str::to_string)
        .collect()
}

async fn ready(c: &TestContest, token: &str, id: i64) -> Option<Value> {
    let v = api_submission(c, token, id).await;
    (v["status"] == "ready").then_some(v)
}

/// Two students' bots, their pairing played; returns the students, a submission and a game.
async fn played(c: &TestContest) -> (Browser, String, i64, i64) {
    let mut ada = c.client();
    ada.first_sign_in("2301", "ada", "correct horse 1").await;
    let (_, token) = ada.api_token("2301", "correct horse 1").await;
    let token = token["token"].as_str().expect("a token").to_string();
    let good = ada
        .submit_file("c", "greedy.c", source("c/reversi_greedy.c"))
        .await
        .expect("accepted");
    wait_for(Duration::from_secs(60), "the compile", || {
        ready(c, &token, good)
    })
    .await;
    let mut alan = c.client();
    alan.first_sign_in("2302", "alan", "correct horse 2").await;
    alan.submit_file("python", "random.py", source("python/reversi_random.py"))
        .await
        .expect("accepted");
    let v = wait_for(Duration::from_secs(120), "two games", || async {
        let v = api_submission(c, &token, good).await;
        let games = v["games"].as_array()?;
        let done = games.iter().filter(|g| g["state"] == "done").count();
        (done == 2).then_some(v)
    })
    .await;
    let game = v["games"][0]["id"].as_i64().expect("a game id");
    (ada, token, good, game)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_page_renders_in_both_languages_with_no_key_left() {
    let c = TestContest::start(None, "", ROSTER, 1).await;
    let (mut ada, token, sub, game) = played(&c).await;
    // A test game against Alan's bot, played.
    let (_, form) = ada.get("/test-games").await;
    let alan = crate::test_games::page_user_id(&form, "alan");
    let (_, to) = crate::test_games::start(&mut ada, &format!("student:{alan}"), "0").await;
    assert_eq!(to, "/test-games/1");
    crate::test_games::replay(&ada, 1).await;
    let mut staff = support::staff(&c).await;
    let student_pages = [
        "/".to_string(),
        "/account".into(),
        "/submit".into(),
        "/submissions".into(),
        "/submissions/all".into(),
        format!("/submissions/{sub}"),
        format!("/games/{game}"),
        "/live".into(),
        "/no-such-page".into(),
        "/submissions/999999".into(),
        "/admin".into(),
        "/protocols/reversi".into(),
        "/protocols/reversi-board".into(),
        "/protocols/gomocup".into(),
        "/protocols/gobang".into(),
        "/protocols/duel".into(),
        "/protocols/kit".into(),
        "/test-games".into(),
        "/test-games/1".into(),
        "/test-games/99".into(),
    ];
    let staff_pages = [
        "/admin".to_string(),
        "/admin?done=x".into(),
        "/admin/similarity".into(),
        "/admin/similarity/pair?a=1&b=2".into(),
        "/test-games".into(),
        "/test-games/1".into(),
    ];
    let english_verdicts: Value = api_submission(&c, &token, sub).await["games"].clone();
    let replay_path = format!("/games/{game}/replay.json");
    let (_, english_replay) = ada.get(&replay_path).await;
    assert!(english_replay.contains("\"reason\""), "{english_replay}");
    for lang in Lang::ALL {
        let keys = lang.keys();
        for b in [&mut ada, &mut staff] {
            let (status, to) = b.get(&format!("/lang/{}?back=/submit", lang.tag())).await;
            assert_eq!((status, to.as_str()), (StatusCode::SEE_OTHER, "/submit"));
        }
        for path in &student_pages {
            let (_, page) = ada.get(path).await;
            check_page(lang, path, &page, &keys);
        }
        for path in &staff_pages {
            let (_, page) = staff.get(path).await;
            check_page(lang, path, &page, &keys);
        }
        let mut visitor = c.client();
        visitor.get(&format!("/lang/{}", lang.tag())).await;
        let (_, page) = visitor.get("/login").await;
        check_page(lang, "/login", &page, &keys);
        // The verdicts of the API are data: the same whatever language the site speaks.
        let v = api_submission(&c, &token, sub).await;
        assert_eq!(v["games"], english_verdicts, "{lang}");
        let (_, replay) = ada.get(&replay_path).await;
        assert_eq!(replay, english_replay, "{lang}: the replay is data");
    }
    // The live list names the contest's games in Chinese ("第 1 局：...").
    let (_, live) = ada.get("/live").await;
    assert!(live.contains("\">第 ") && live.contains(" 局："), "{live}");
    // A flash message and a refusal in Chinese.
    let (_, page) = ada.get("/account").await;
    let csrf = ada.csrf.clone();
    let fields = [
        ("csrf", csrf.as_str()),
        ("nickname", "ada"),
        ("current", "wrong"),
        ("new_password", "a new password"),
        ("confirm", "a new password"),
    ];
    assert!(page.contains("我的账户"));
    let (status, page) = ada.post_form("/account", &fields).await;
    assert!(status.is_client_error() || status.is_success(), "{status}");
    assert!(page.contains("当前密码不正确"), "{page}");
    // The game page leaves its result to the player (no spoiler); the submission page says
    // how each game went.
    let (_, page) = ada.get(&format!("/submissions/{sub}")).await;
    assert!(
        ["胜：", "负：", "平："].iter().any(|w| page.contains(w)),
        "{page}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_language_follows_the_switch_then_the_browser_then_the_contest() {
    let toml = format!("language = \"zh-CN\"\n{}", support::config(""));
    let c = TestContest::start_with(None, &toml, ROSTER, 0, |_| {}).await;
    let get = |accept: Option<&'static str>, cookie: Option<&'static str>| {
        let url = c.url("/login");
        async move {
            let mut r = reqwest::Client::new().get(url);
            if let Some(a) = accept {
                r = r.header("accept-language", a);
            }
            if let Some(k) = cookie {
                r = r.header("cookie", format!("lang={k}"));
            }
            r.send().await.unwrap().text().await.unwrap()
        }
    };
    let zh = "<html lang=\"zh-CN\">";
    let en = "<html lang=\"en\">";
    assert!(get(None, None).await.contains(zh), "contest.toml's default");
    assert!(
        get(Some("fr, de"), None).await.contains(zh),
        "nothing spoken here"
    );
    assert!(get(Some("en-GB,en;q=0.9"), None).await.contains(en));
    assert!(
        get(Some("en"), Some("zh-CN")).await.contains(zh),
        "the switch wins"
    );
    assert!(
        get(Some("zh"), Some("en")).await.contains(en),
        "the switch wins"
    );
    // The switch never sends anyone to another site.
    let mut b = c.client();
    for hostile in [
        "//evil.example/",
        "/%09/evil.example",
        "/%09%5C",
        "/%00",
        "/%7F",
    ] {
        let (status, to) = b.get(&format!("/lang/en?back={hostile}")).await;
        // Refused in words (a page, no Location), never a redirect to another host.
        assert_eq!(status, StatusCode::BAD_REQUEST, "{hostile}: {to}");
    }
    let (status, _) = b.get("/lang/fr").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// What the referee, the queue and the server write in English (void reasons, compile logs'
/// last lines, judging held up, both bots failing) is said in Chinese by arbiter-i18n's
/// `machine` module: each text as the crate that makes it writes it, so that a changed form
/// fails here instead of showing in English.
#[test]
fn the_judging_machine_s_texts_are_said_in_chinese() {
    use arbiter_i18n::machine;
    use arbiter_i18n::verdict;
    use arbiter_match::stall::Stall;

    let zh = Lang::ZhCn;
    let said = |english: &str, chinese: String| {
        assert!(
            has_cjk(&chinese) && chinese != english,
            "{english:?} is not said in Chinese: {chinese:?}"
        );
        let english_words = english_words(&chinese);
        assert!(english_words.is_empty(), "{chinese:?}: {english_words:?}");
    };
    let ms = Duration::from_millis;
    let stalls = [
        Stall {
            process: ms(8000),
            referee_wait: ms(0),
            bot_wait: ms(0),
        },
        Stall {
            process: ms(0),
            referee_wait: ms(0),
            bot_wait: ms(2500),
        },
    ];
    let mut voids: Vec<String> = stalls.iter().map(|s| s.describe(31)).collect();
    for errno in [5, 28, 30, 122] {
        let io = std::io::Error::from_raw_os_error(errno);
        let what = arbiter_match::game::storage_fault(&io).expect("a storage fault");
        voids.push(arbiter_match::game::disk_fault(what));
    }
    for why in &voids {
        said(why, machine::void_reason(zh, why));
        assert_eq!(machine::void_reason(Lang::En, why), *why);
    }

    use arbiter_queue::compile::words;
    let compiles = [
        words::failed(Some(1), None),
        words::failed(None, Some(9)),
        words::failed(None, None),
        words::timeout(10),
        words::memory(512),
        words::NO_PROGRAM.into(),
        words::CUT.into(),
        words::NO_COMMAND.into(),
        words::EMPTY_COMMAND.into(),
        arbiter_server::submissions::BUILD_NOT_RUN.into(),
    ];
    for line in &compiles {
        let log = format!("greedy.c:1:1: error: expected identifier\n{line}");
        let chinese = machine::compile_log(zh, &log);
        let last = chinese.rsplit('\n').next().unwrap_or_default().to_string();
        said(line, last);
        assert!(chinese.starts_with("greedy.c:1:1: error: expected identifier\n"));
        assert_eq!(machine::compile_log(Lang::En, &log), log);
    }
    let cannot = words::cannot_start("No such file or directory (os error 2)");
    assert!(has_cjk(&machine::compile_log(zh, &cannot)), "{cannot}");

    for what in arbiter_queue::health::TROUBLES {
        said(what, machine::judging_paused(zh, what, 20));
        assert_eq!(
            machine::judging_paused(Lang::En, what, 20),
            format!("judging paused: {what} for 20 s"),
            "the page's English is the queue's"
        );
    }

    use arbiter_engine::replay::Reason;
    use arbiter_engine::Seat;
    let results = [
        arbiter_match::game::Voided {
            why: voids[0].clone(),
            storage: false,
        }
        .result(),
        arbiter_match::game::both_failed(
            &Reason::FailedToStart {
                seat: Seat::FIRST,
                error: "No such file".into(),
            },
            &Reason::NoHandshake { seat: Seat::SECOND },
        ),
    ];
    for r in &results {
        let english = verdict::reason(Lang::En, &r.reason);
        assert_eq!(english, r.reason.to_string(), "English is the CLI's words");
        said(&english, verdict::reason(zh, &r.reason));
    }
}

/// The pages say those texts in the reader's language, from the English the database keeps:
/// a compile's failure on the submission page, a voided game on the admin page. The API's
/// compile log stays as it was written.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_chinese_page_says_a_compile_failure_and_a_void_in_chinese() {
    let c = TestContest::start(None, "", ROSTER, 1).await;
    let mut ada = c.client();
    ada.first_sign_in("2301", "ada", "correct horse 1").await;
    let (_, token) = ada.api_token("2301", "correct horse 1").await;
    let token = token["token"].as_str().expect("a token").to_string();
    let broken = ada
        .submit_file("c", "broken.c", b"int main( {\n".to_vec())
        .await
        .expect("accepted");
    let v = wait_for(Duration::from_secs(60), "the failed compile", || async {
        let v = api_submission(&c, &token, broken).await;
        (v["status"] == "failed").then_some(v)
    })
    .await;
    let english = "the compiler failed (exit code 1)";
    let api_log = v["compile_log"].as_str().expect("the author sees the log");
    assert!(api_log.ends_with(english), "{api_log}");

    let page = format!("/submissions/{broken}");
    ada.get("/lang/zh-CN").await;
    let (_, zh) = ada.get(&page).await;
    assert!(zh.contains("编译器报错（退出码 1）"), "{zh}");
    assert!(!zh.contains(english), "{zh}");
    let v = api_submission(&c, &token, broken).await;
    assert_eq!(v["compile_log"].as_str(), Some(api_log), "the API is data");
    ada.get("/lang/en").await;
    let (_, en) = ada.get(&page).await;
    assert!(en.contains(english), "{en}");

    // A void as a worker records it (queue::jobs::void): an event of the job, in English.
    let db = arbiter_queue::db::Db::connect(&c.dir.path().join("contest.db").display().to_string())
        .await
        .expect("the contest's database");
    let job: i64 = sqlx::query_scalar("SELECT MAX(id) FROM jobs")
        .fetch_one(db.pool())
        .await
        .expect("a job");
    sqlx::query(
        "INSERT INTO events (at, job, worker, kind, detail) VALUES (0, $1, 'w1', 'voided', $2)",
    )
    .bind(job)
    .bind("judging machine stalled 8.0 s at move 31")
    .execute(db.pool())
    .await
    .expect("an event");
    let mut staff = support::staff(&c).await;
    staff.get("/lang/zh-CN").await;
    let (_, zh) = staff.get("/admin").await;
    assert!(zh.contains("评测机在第 31 步卡顿了 8.0 秒"), "{zh}");
    assert!(!zh.contains("judging machine"), "{zh}");
    staff.get("/lang/en").await;
    let (_, en) = staff.get("/admin").await;
    assert!(
        en.contains("judging machine stalled 8.0 s at move 31"),
        "{en}"
    );
}

/// A refused nickname says why in the reader's language, naming the character.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_nickname_says_why_in_chinese() {
    let c = TestContest::start(None, "", ROSTER, 0).await;
    let mut ada = c.client();
    ada.first_sign_in("2301", "ada", "correct horse 1").await;
    ada.get("/lang/zh-CN").await;
    for (nickname, said) in [
        (
            "st\u{200b}aff",
            "昵称不能包含不可见字符或格式控制字符（U+200B）",
        ),
        (&"長".repeat(40)[..], "昵称最多 32 个字符"),
    ] {
        ada.get("/account").await;
        let csrf = ada.csrf.clone();
        let (_, page) = ada
            .post_form("/account", &[("csrf", &csrf), ("nickname", nickname)])
            .await;
        assert!(page.contains(said), "{nickname:?}: {page}");
    }
}
