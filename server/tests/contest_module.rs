//! A contest whose game is a module (docs/game-kit.md), end to end, in-process, on SQLite and
//! PostgreSQL: `contest init --game-module` copies the module into the contest and names it in
//! contest.toml; two students submit the kit starter bots (C and Python), which are judged
//! and play each other; the scoreboard shows both; the submit page names the kit protocol and
//! links its description and the module; the game pages' player finds the module where it
//! looks for it, and no other file is served there. The other proof games (Amazons, Connect6,
//! Dots and Boxes, Einstein) each play the same contest of two students.

use crate::support;

use std::time::Duration;

use arbiter_engine::replay::Replay;
use reqwest::StatusCode;
use serde_json::Value;
use support::{api_submission, bots, wait_for, TestContest};

const ROSTER: &str = "student_id,name\n2301,Ada\n2302,Alan\n";

async fn ready(c: &TestContest, token: &str, id: i64) -> Option<Value> {
    let v = api_submission(c, token, id).await;
    matches!(v["status"].as_str(), Some("ready" | "failed")).then_some(v)
}

/// Signs a student in for the first time and submits `file` of `language`; returns the
/// browser, the API token and the submission.
async fn student(
    c: &TestContest,
    login: &str,
    language: &str,
    file: &str,
) -> (support::Browser, String, i64) {
    let mut b = c.client();
    let password = format!("correct horse {login}");
    b.first_sign_in(login, login, &password).await;
    let (_, token) = b.api_token(login, &password).await;
    let token = token["token"].as_str().expect("a token").to_string();
    let source = std::fs::read(bots().join(file)).expect("a starter bot");
    let name = file.rsplit('/').next().unwrap();
    let id = b
        .submit_file(language, name, source)
        .await
        .expect("accepted");
    (b, token, id)
}

/// A module contest after two students' games: the contest, Ada's browser, both students'
/// API tokens and submissions, and the games as the API lists them.
struct Played {
    c: TestContest,
    ada: support::Browser,
    tokens: [String; 2],
    subs: [i64; 2],
    games: Vec<Value>,
}

/// Makes a contest of `package`'s module with `config` on `db`; two students submit the kit
/// starter bots (C and Python), which are judged and play their pair of games; checks what
/// every module contest must show: the module in the contest, both students on the
/// scoreboard, each game ended by the rules, its replay naming the module and config and
/// reading back through it, its page embedding the player, both colours sharing the
/// pairing's chance.
async fn two_students_play(
    db: Option<String>,
    package: &str,
    config: Option<&str>,
    which: &str,
) -> Played {
    let module = arbiter_kit_host::build::game_module(package).expect("it builds");
    let bytes = std::fs::read(&module).unwrap();
    let sha = arbiter_kit_host::sha256_hex(&bytes);
    let name = package.strip_prefix("game-").unwrap();
    let c = TestContest::start_module(db, &module, config, ROSTER, 1).await;

    // What init wrote: the module beside contest.toml, which names it.
    let toml = std::fs::read_to_string(c.dir.path().join("contest.toml")).unwrap();
    assert!(
        toml.contains(&format!("module = \"{name}.wasm\"")),
        "{which}: {toml}"
    );
    let copy = std::fs::read(c.dir.path().join(format!("{name}.wasm"))).unwrap();
    assert_eq!(copy, bytes, "{which}: the module copied into the contest");

    let (mut ada, t1, s1) = student(&c, "2301", "c", "c/kit_random.c").await;
    let (_, t2, s2) = student(&c, "2302", "python", "python/kit_random.py").await;
    for (t, s) in [(&t1, s1), (&t2, s2)] {
        let v = wait_for(Duration::from_secs(90), "a judged submission", || {
            ready(&c, t, s)
        })
        .await;
        assert_eq!(v["status"], "ready", "{which}: {v}");
    }

    // Both games of the pairing are played; the scoreboard shows both students.
    let board = wait_for(Duration::from_secs(120), "two games", || async {
        let b: Value = reqwest::get(c.url("/api/scoreboard"))
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        (b["board"]["games_done"] == 2).then_some(b)
    })
    .await;
    let rows = board["board"]["rows"].as_array().unwrap();
    let subs: Vec<i64> = rows
        .iter()
        .map(|r| r["submission"].as_i64().unwrap())
        .collect();
    assert!(subs.contains(&s1) && subs.contains(&s2), "{which}: {board}");

    // Each game: its replay reads back through the module, its page embeds the player.
    let games = api_submission(&c, &t2, s2).await["games"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(games.len(), 2, "{which}");
    let want_config: Value = serde_json::from_str(config.unwrap_or("{}")).unwrap();
    let mut seeds = Vec::new();
    for g in &games {
        let id = g["id"].as_i64().unwrap();
        let text = reqwest::get(c.url(&format!("/api/games/{id}/replay")))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let (replay, _) = Replay::read(&text).unwrap_or_else(|e| panic!("{which}: {e}"));
        let m = replay.game.as_module().expect("a module game");
        assert_eq!(m.module.sha256, sha, "{which}");
        assert_eq!(m.module.name, name, "{which}");
        let config: Value = serde_json::from_str(&m.config).unwrap();
        assert_eq!(config, want_config, "{which}");
        assert!(!replay.moves.is_empty(), "{which}: moves were played");
        seeds.push(m.seed);
        assert_eq!(g["reason"], "normal", "{which}: {g}");
        let (status, page) = ada.get(&format!("/games/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("init_replay_player"), "{which}");
        // A module's seats have no colours: first and second, not Black and White.
        assert!(page.contains("<dt>First</dt>"), "{which}");
        assert!(!page.contains("Black"), "{which}");
    }

    // Both colours of a pair share the pairing's chance, which is not the contest's seed.
    assert_eq!(seeds[0], seeds[1], "{which}");
    assert_ne!(seeds[0], 0, "{which}: the pairing's seed");
    Played {
        c,
        ada,
        tokens: [t1, t2],
        subs: [s1, s2],
        games,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_students_play_a_module_contest() {
    let module = arbiter_kit_host::build::game_module("game-connect-four").expect("it builds");
    let bytes = std::fs::read(&module).unwrap();
    let sha = arbiter_kit_host::sha256_hex(&bytes);
    for db in support::databases().await {
        let which = if db.is_some() { "postgres" } else { "sqlite" };
        let config = Some(r#"{"cols": 7}"#);
        let Played {
            c, mut ada, games, ..
        } = two_students_play(db, "game-connect-four", config, which).await;
        let toml = std::fs::read_to_string(c.dir.path().join("contest.toml")).unwrap();
        assert!(toml.contains("config = { cols = 7 }"), "{which}: {toml}");
        for g in &games {
            let text = reqwest::get(c.url(&format!("/api/games/{}/replay", g["id"])))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            let (replay, _) = Replay::read(&text).unwrap();
            // The config as the contest wrote it, byte for byte.
            assert_eq!(replay.game.as_module().unwrap().config, r#"{"cols":7}"#);
        }

        // The submit page: the kit protocol, its description, the module and its variables.
        let (_, page) = ada.get("/submit").await;
        for expect in [
            "/protocols/kit",
            &format!("/modules/{sha}.wasm"),
            "ARBITER_GAME_CONFIG",
            "/starters/c",
        ] {
            assert!(
                page.contains(expect),
                "{which}: {expect} not on the submit page"
            );
        }
        let (status, text) = ada.get("/protocols/kit").await;
        assert_eq!(status, StatusCode::OK, "{which}");
        assert!(
            text.contains("<code>kit</code>") && text.contains("LEGAL m1 m2"),
            "{text}"
        );
        let (_, starter) = ada.get("/starters/python").await;
        assert!(
            starter.contains("LEGAL"),
            "{which}: the kit starter: {starter}"
        );

        // The module, where the game page's player looks for it (relative to /games/N) and
        // at the site's root; immutable. Nothing else is served there.
        for path in [
            format!("/modules/{sha}.wasm"),
            format!("/games/modules/{sha}.wasm"),
        ] {
            let r = reqwest::get(c.url(&path)).await.unwrap();
            assert_eq!(r.status(), StatusCode::OK, "{which}: {path}");
            let h = r.headers().clone();
            assert_eq!(h["content-type"], "application/wasm", "{which}: {path}");
            let cache = h["cache-control"].to_str().unwrap();
            assert!(cache.contains("immutable"), "{which}: {cache}");
            assert_eq!(
                r.bytes().await.unwrap().as_ref(),
                &bytes[..],
                "{which}: {path}"
            );
        }
        for path in [
            format!("/modules/{}.wasm", "0".repeat(64)),
            format!("/modules/{sha}"),
            "/modules/contest.toml".to_string(),
            "/modules/..%2Fcontest.toml".to_string(),
        ] {
            let r = reqwest::get(c.url(&path)).await.unwrap();
            assert_eq!(r.status(), StatusCode::NOT_FOUND, "{which}: {path}");
        }
        let ids: Vec<i64> = games.iter().map(|g| g["id"].as_i64().unwrap()).collect();
        a_fixed_module_leaves_the_old_games_playable(&c, &bytes, &ids, which).await;
    }
}

/// The course staff fix their game between two restarts (the module's bytes change): games
/// played before still get the module they were played with, the new one is served too, a
/// student's source (also in the artefact store, by its sha256) never is, and an export puts
/// the old module where `replay show` finds it.
async fn a_fixed_module_leaves_the_old_games_playable(
    c: &TestContest,
    old: &[u8],
    games: &[i64],
    which: &str,
) {
    // The same rules with one more custom section: other bytes, another sha256.
    let mut fixed = old.to_vec();
    let payload = b"\x0carbiter-testfixed";
    fixed.push(0);
    fixed.push(payload.len() as u8);
    fixed.extend_from_slice(payload);
    let (old_sha, new_sha) = (
        arbiter_kit_host::sha256_hex(old),
        arbiter_kit_host::sha256_hex(&fixed),
    );
    assert_ne!(old_sha, new_sha);
    std::fs::write(c.dir.path().join("connect-four.wasm"), &fixed).unwrap();
    let again = c.serve_again().await;
    let get = |path: String| async move {
        let r = reqwest::get(format!("http://{again}{path}")).await.unwrap();
        (r.status(), r.bytes().await.unwrap())
    };
    let (status, body) = get(format!("/modules/{old_sha}.wasm")).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{which}: the old module after a restart"
    );
    assert_eq!(&body[..], old, "{which}");
    let (status, body) = get(format!("/games/modules/{new_sha}.wasm")).await;
    assert_eq!(status, StatusCode::OK, "{which}: the new module");
    assert_eq!(&body[..], &fixed[..], "{which}");
    // Attack: a student's source is an artefact too, by its sha256; it is not a module.
    let source = std::fs::read(bots().join("python/kit_random.py")).unwrap();
    let student = arbiter_kit_host::sha256_hex(&source);
    let (status, _) = get(format!("/modules/{student}.wasm")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{which}: a student's source");
    // The old games' replays still name the old module, and play from an export.
    let out = tempfile::tempdir().unwrap();
    let n = arbiter_server::export(c.dir.path(), c.db.as_deref(), out.path())
        .await
        .unwrap();
    assert!(n >= games.len(), "{which}: {n} games exported");
    let kept = std::fs::read(out.path().join(format!("modules/{old_sha}.wasm"))).unwrap();
    assert_eq!(kept, old, "{which}: the export's module");
    let game = std::fs::read_dir(out.path().join("games"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let (replay, _) = Replay::read(&std::fs::read_to_string(&game).unwrap()).unwrap();
    assert_eq!(replay.game.as_module().unwrap().module.sha256, old_sha);
    assert!(
        replay.module_wasm.is_none(),
        "{which}: exports keep modules apart"
    );
}

/// The other proof games, each a contest of two students (on PostgreSQL too when the test
/// script provides it).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_students_play_a_contest_of_every_proof_game() {
    for (package, config) in [
        ("game-amazons", None),
        ("game-connect6", Some(r#"{"size": 9}"#)),
        ("game-dots-and-boxes", Some(r#"{"cols": 3, "rows": 3}"#)),
        ("game-einstein", None),
    ] {
        for db in support::databases().await {
            let which = format!(
                "{package} on {}",
                if db.is_some() { "postgres" } else { "sqlite" }
            );
            let t0 = std::time::Instant::now();
            let played = two_students_play(db, package, config, &which).await;
            // Each student sees both games, with the other student as the opponent.
            let mine = api_submission(&played.c, &played.tokens[0], played.subs[0]).await;
            let ids = |games: &[Value]| {
                let mut v: Vec<i64> = games.iter().filter_map(|g| g["id"].as_i64()).collect();
                v.sort();
                v
            };
            assert_eq!(
                ids(mine["games"].as_array().unwrap()),
                ids(&played.games),
                "{which}"
            );
            eprintln!("{which}: a contest of two students in {:.1?}", t0.elapsed());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn init_refuses_what_it_cannot_make_a_contest_of() {
    let module = arbiter_kit_host::build::game_module("game-connect-four").expect("it builds");
    let dir = tempfile::tempdir().unwrap();
    let init = |path: std::path::PathBuf, config: Option<&'static str>| {
        let module = module.clone();
        async move {
            arbiter_server::init_module(&path, "m", &module, config, None)
                .await
                .map(drop)
                .map_err(|e| format!("{e:#}"))
        }
    };
    for (config, expect) in [
        (r#"{"cols": 99}"#, "refuses the configuration"),
        ("[1, 2]", "must be a JSON object"),
        (r#"{"cols": null}"#, "cannot be written as TOML"),
        ("{", "is not JSON"),
    ] {
        let here = dir.path().join(format!("c{}", config.len()));
        let e = init(here.clone(), Some(config)).await.unwrap_err();
        assert!(e.contains(expect), "{config}: {e}");
        assert!(
            !here.join("contest.toml").exists(),
            "{config}: a contest was made"
        );
        assert!(
            !here.join("connect-four.wasm").exists(),
            "{config}: the module's copy was left behind"
        );
    }
    // Not a module at all.
    let junk = dir.path().join("junk.wasm");
    std::fs::write(&junk, b"\0asm\x01\0\0\0junk").unwrap();
    let e = arbiter_server::init_module(&dir.path().join("j"), "m", &junk, None, None)
        .await
        .unwrap_err();
    assert!(format!("{e:#}").contains("junk.wasm"), "{e:#}");
}
