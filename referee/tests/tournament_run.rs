//! Whole tournaments through the real `arbiter` binary: resume after SIGKILL, isolation of a
//! misbehaving bot, new submissions, the HTML site.

use crate::tournament_support;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use tournament_support::*;

const BOTS: [(&str, &str); 6] = [
    ("first", "0"),
    ("r1", "1"),
    ("r2", "2"),
    ("r3", "3"),
    ("r4", "4"),
    ("slowpoke", "5 slow"),
];

/// A small xorshift so the kill points are random but reproducible from the printed seed.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn resume_after_repeated_sigkill_plays_every_game_exactly_once() {
    let tmp = tempfile::tempdir().unwrap();
    let text = config(8, "double-round-robin", 2, 5, "move_ms = 3000", &BOTS);
    // The uninterrupted run.
    let clean = write_config(&tmp.path().join("clean"), &text);
    let st = arbiter()
        .args(["tournament", "-q", "-j", "2"])
        .arg(&clean)
        .status()
        .unwrap();
    assert!(st.success());
    let clean_report = report_json(&tmp.path().join("clean/out"));
    assert_eq!(clean_report["done"], 60);

    // The same tournament, killed at random moments.
    let dir = tmp.path().join("killed");
    let cfg = write_config(&dir, &text);
    let out = dir.join("out");
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("kill-point seed {seed}");
    let mut kills = 0;
    let mut attempts = 0;
    let mut seen_running = false;
    while kills < 4 && attempts < 12 {
        attempts += 1;
        let mut cmd = arbiter();
        cmd.args(["tournament"]);
        if out.join("tournament.db").exists() {
            cmd.args(["resume", "-q", "-j", "2"]).arg(&out);
        } else {
            cmd.args(["run", "-q", "-j", "2"]).arg(&cfg);
        }
        let mut child = cmd.spawn().unwrap();
        let wait = Duration::from_millis(200 + next(&mut seed) % 3000);
        let t0 = Instant::now();
        while t0.elapsed() < wait {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        if child.try_wait().unwrap().is_none() {
            // `status` sees the runner at work (it holds the lock once it plays).
            seen_running |= status(&out).is_some_and(|v| v["running"] == true);
            // SIGKILL, as `kill -9` does.
            child.kill().unwrap();
            kills += 1;
            eprintln!("killed after {wait:?}");
        }
        let _ = child.wait();
        if let Some(v) = status(&out) {
            assert_eq!(v["running"], false, "a killed runner holds no lock");
        }
        if child_done(&out) {
            break;
        }
    }
    assert!(
        kills >= 2,
        "the tournament finished before it could be killed twice"
    );
    assert!(seen_running, "status never saw a runner at work");
    let st = arbiter()
        .args(["tournament", "resume", "-q"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success());

    let killed_report = report_json(&out);
    assert_eq!(killed_report["scheduled"], 60);
    assert_eq!(killed_report["done"], 60);
    let games = killed_report["games"].as_array().unwrap();
    let keys: BTreeSet<&str> = games.iter().map(|g| g["key"].as_str().unwrap()).collect();
    assert_eq!(keys.len(), 60, "every scheduled game once");
    for g in games {
        assert_eq!(g["state"], "done");
        let replay = out.join(g["result"]["replay"].as_str().unwrap());
        let text = std::fs::read_to_string(&replay).unwrap();
        arbiter_engine::replay::Replay::read(&text).unwrap();
    }
    // No temporary replay files left half-written as replays.
    let stray: Vec<_> = std::fs::read_dir(out.join("replays"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(stray.len(), 60);
    // The same games, the same results, the same standings.
    assert_eq!(results(&killed_report), results(&clean_report));
    assert_eq!(killed_report["standings"], clean_report["standings"]);
    eprintln!("killed {kills} times");
}

/// `tournament status --json`, once the database exists.
fn status(out: &std::path::Path) -> Option<serde_json::Value> {
    if !out.join("tournament.db").exists() {
        return None;
    }
    let o = arbiter()
        .args(["tournament", "status", "--json"])
        .arg(out)
        .output()
        .unwrap();
    serde_json::from_slice(&o.stdout).ok()
}

fn child_done(out: &std::path::Path) -> bool {
    status(out).is_some_and(|v| v["pending"] == 0)
}

#[test]
fn a_bot_failing_every_game_does_not_delay_the_others() {
    let tmp = tempfile::tempdir().unwrap();
    let bots = [
        ("good1", "1"),
        ("good2", "2"),
        ("good3", "3"),
        ("crasher", "4 crash"),
        ("hanger", "5 hang"),
        ("flooder", "6 flood"),
        ("garbler", "7 garbage"),
    ];
    let text = config(
        8,
        "round-robin",
        2,
        1,
        "move_ms = 400\nhandshake_ms = 2000",
        &bots,
    );
    let cfg = write_config(tmp.path(), &text);
    let t0 = Instant::now();
    let st = arbiter()
        .args(["tournament", "-q", "-j", "2"])
        .arg(&cfg)
        .status()
        .unwrap();
    let wall = t0.elapsed();
    assert!(st.success());
    let rep = report_json(&tmp.path().join("out"));
    assert_eq!(rep["done"], 42);
    let bad = ["crasher", "hanger", "flooder", "garbler"];
    let mut good_ms = Vec::new();
    let mut bad_ms = Vec::new();
    let mut culprits: Vec<String> = Vec::new();
    for g in rep["games"].as_array().unwrap() {
        let seats: Vec<&str> = g["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        let r = &g["result"];
        let wall_ms = r["wall_ms"].as_f64().unwrap();
        let culprit = r["culprit"].as_u64().map(|c| seats[c as usize]);
        if let Some(c) = culprit {
            culprits.push(c.to_string());
        }
        let bad_in: Vec<&str> = seats.iter().copied().filter(|s| bad.contains(s)).collect();
        if bad_in.is_empty() {
            assert_eq!(r["reason_code"], "normal", "{g}");
            good_ms.push(wall_ms);
        } else {
            // The (first) misbehaving bot to move is blamed, with the right verdict.
            let who = culprit.unwrap_or_else(|| panic!("no culprit in {g}"));
            assert!(bad.contains(&who), "{g}");
            // The flooder never answers and writes to stderr without end: whichever limit it
            // reaches first, the move time or the 64 MB stderr cap, is its verdict.
            let want = match who {
                "crasher" => ["crash", "exited_early"].as_slice(),
                "hanger" => ["move_time"].as_slice(),
                "flooder" => ["move_time", "protocol_error"].as_slice(),
                _ => ["malformed_output"].as_slice(),
            };
            assert!(
                want.contains(&r["reason_code"].as_str().unwrap()),
                "{who}: {g}"
            );
            if r["reason_code"] == "protocol_error" {
                let reason = r["reason"].as_str().unwrap();
                assert!(reason.contains("to standard error"), "{g}");
            }
            bad_ms.push(wall_ms);
            // A game ends within the culprit's own limit (400 ms a move) plus handshake and
            // generous slack for a loaded machine; nothing waits on another game.
            assert!(wall_ms < 5000.0, "{g}");
        }
    }
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    eprintln!(
        "isolation: {} good games (max {:.0} ms), {} games with a failing bot (max {:.0} ms), total {:.1} s",
        good_ms.len(),
        max(&good_ms),
        bad_ms.len(),
        max(&bad_ms),
        wall.as_secs_f64()
    );
    // Per-bot statistics put each failure in its seed-000 column.
    let stats = rep["stats"].as_array().unwrap();
    let of = |b: &str| stats.iter().find(|s| s["bot"] == b).unwrap().clone();
    let count = |s: &serde_json::Value, k: &str| {
        s["seats"][0][k].as_array().unwrap().len() + s["seats"][1][k].as_array().unwrap().len()
    };
    for (b, columns) in [
        ("crasher", ["errors"].as_slice()),
        ("hanger", ["timeouts"].as_slice()),
        ("flooder", ["timeouts", "violations"].as_slice()),
        ("garbler", ["violations"].as_slice()),
    ] {
        let blamed = culprits.iter().filter(|c| *c == b).count();
        assert!(blamed > 0, "{b}");
        let counted: usize = columns.iter().map(|c| count(&of(b), c)).sum();
        assert_eq!(counted, blamed, "{b}");
    }
    for b in ["good1", "good2", "good3"] {
        let s = of(b);
        assert_eq!(
            count(&s, "errors") + count(&s, "timeouts") + count(&s, "violations"),
            0,
            "{b}"
        );
    }
}

#[test]
fn a_new_submission_replays_only_its_games() {
    let tmp = tempfile::tempdir().unwrap();
    let text = config(8, "round-robin", 2, 9, "move_ms = 3000", &BOTS[..4]);
    let cfg = write_config(tmp.path(), &text);
    assert!(arbiter()
        .args(["tournament", "-q"])
        .arg(&cfg)
        .status()
        .unwrap()
        .success());
    let out = tmp.path().join("out");
    let before = report_json(&out);
    assert_eq!(before["done"], 12);
    // r2 is replaced by a bot that crashes.
    let cmd = format!("{} 8 2 crash", rbot().display());
    let st = arbiter()
        .args(["tournament", "submit", "-q"])
        .arg(&out)
        .args(["r2", &cmd])
        .status()
        .unwrap();
    assert!(st.success());
    let after = report_json(&out);
    assert_eq!(after["done"], 12, "standings count latest versions only");
    let r2v: Vec<i64> = after["bots"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["bot"] == "r2")
        .map(|b| b["version"].as_i64().unwrap())
        .collect();
    assert_eq!(r2v, vec![2]);
    // Games without r2 are the same rows (same ids) as before; r2's games are new ones.
    let ids = |r: &serde_json::Value, with_r2: bool| -> BTreeSet<i64> {
        r["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["seats"].as_array().unwrap().iter().any(|s| s == "r2") == with_r2)
            .map(|g| g["id"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(ids(&before, false), ids(&after, false));
    assert!(ids(&before, true).is_disjoint(&ids(&after, true)));
    assert_eq!(ids(&after, true).len(), 6);
    let r2 = after["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bot"] == "r2")
        .unwrap()
        .clone();
    assert_eq!(r2["match_points"], 0);
    assert_eq!(r2["losses"], 6);
    // The database holds 18 played games in all: 6 of them no longer count.
    let o = arbiter()
        .args(["tournament", "status", "--json"])
        .arg(&out)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["rows_by_state"]["done"], 18);
    // Game numbers on reports stay: the same place in the schedule keeps its number.
    let slots = |r: &serde_json::Value| -> BTreeMap<String, i64> {
        r["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["key"].as_str().unwrap().to_string(),
                    g["slot"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(slots(&before), slots(&after));
    for g in before["games"].as_array().unwrap() {
        assert_eq!(g["slot"], g["id"], "first versions: numbers are the ids");
    }

    // The site says why r2 lost each game, with its DEBUG line and its stderr; a public site
    // leaves both out; neither shows a path of this machine.
    let lost = after["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["result"]["reason_code"] == "crash")
        .unwrap()["slot"]
        .as_i64()
        .unwrap();
    let site = tmp.path().join("site");
    assert!(arbiter()
        .args(["tournament", "report", "--html"])
        .arg(&site)
        .arg(&out)
        .status()
        .unwrap()
        .success());
    let page = std::fs::read_to_string(site.join(format!("games/game-{lost:06}.html"))).unwrap();
    assert!(page.contains("Why r2 ("), "{page}");
    assert!(
        page.contains("giving up") && page.contains("rbot: cannot go on"),
        "{page}"
    );
    assert!(page.contains("exit code 3"), "{page}");
    let private = [
        tmp.path().to_string_lossy().into_owned(),
        rbot().parent().unwrap().to_string_lossy().into_owned(),
    ];
    let text = site_text(&site);
    for p in &private {
        assert!(!text.contains(p.as_str()), "the site shows the path {p}");
    }
    let public = tmp.path().join("public");
    assert!(arbiter()
        .args(["tournament", "report", "--hide-bot-output", "--html"])
        .arg(&public)
        .arg(&out)
        .status()
        .unwrap()
        .success());
    let text = site_text(&public);
    assert!(text.contains("Why r2 ("));
    assert!(!text.contains("giving up") && !text.contains("cannot go on"));
    for p in &private {
        assert!(!text.contains(p.as_str()), "the site shows the path {p}");
    }
    chinese_site_says_the_same(&out, &site, lost);
}

/// The same report in Chinese: the texts change, the data (report.json, `--json`) do not.
fn chinese_site_says_the_same(out: &std::path::Path, english: &std::path::Path, lost: i64) {
    let site = out.with_file_name("site-zh");
    assert!(arbiter()
        .args(["tournament", "report", "--lang", "zh-CN", "--html"])
        .arg(&site)
        .arg(out)
        .status()
        .unwrap()
        .success());
    let page = std::fs::read_to_string(site.join(format!("games/game-{lost:06}.html"))).unwrap();
    assert!(page.contains("<html lang=\"zh-CN\">"), "{page}");
    assert!(
        page.contains("r2（后手）为什么输了") || page.contains("r2（先手）为什么输了"),
        "{page}"
    );
    assert!(page.contains("程序崩溃（退出码 3）"), "{page}");
    assert!(page.contains("退出码 3"), "{page}");
    // The report's own pages; the copied player.html names its messages in data-i18n
    // attributes, which it fills in at run time.
    let text = [
        site_text(&site.join("bots")),
        site_text(&site.join("games")),
        std::fs::read_to_string(site.join("index.html")).unwrap(),
    ]
    .concat();
    for key in arbiter_i18n::Lang::ZhCn.keys() {
        assert!(
            !text.contains(&key),
            "the key {key} shows instead of a text"
        );
    }
    let data = |dir: &std::path::Path| std::fs::read_to_string(dir.join("report.json")).unwrap();
    assert_eq!(
        data(english),
        data(&site),
        "report.json does not depend on the language"
    );
    let json = |lang: &str| {
        arbiter()
            .args(["tournament", "report", "--json"])
            .arg(out)
            .env("LANG", lang)
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(json("zh_CN.UTF-8"), json("C"), "--json is language-free");
}

/// Every file of a site, concatenated.
fn site_text(dir: &std::path::Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            text.push_str(&site_text(&path));
        } else {
            text.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
        }
    }
    text
}

#[test]
fn the_site_works_without_a_server() {
    let tmp = tempfile::tempdir().unwrap();
    let text = config(6, "round-robin", 2, 2, "", &BOTS[..3]);
    let cfg = write_config(tmp.path(), &text);
    assert!(arbiter()
        .args(["tournament", "-q"])
        .arg(&cfg)
        .status()
        .unwrap()
        .success());
    let player = tmp.path().join("player.html");
    std::fs::write(&player, "<!doctype html><title>fake player</title>").unwrap();
    let site = tmp.path().join("site");
    let o = arbiter()
        .args(["tournament", "report"])
        .arg(tmp.path().join("out"))
        .arg("--html")
        .arg(&site)
        .arg("--player")
        .arg(&player)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("<svg") && index.contains("Crosstable") && index.contains("bots/first.html")
    );
    assert!(site.join("player.html").is_file());
    for b in ["first", "r1", "r2"] {
        let page = std::fs::read_to_string(site.join(format!("bots/{b}.html"))).unwrap();
        assert!(
            page.contains("offensive") && page.contains("defensive") && page.contains("win rate")
        );
    }
    let rep = report_json(&tmp.path().join("out"));
    for g in rep["games"].as_array().unwrap() {
        let id = g["slot"].as_i64().unwrap();
        let page = std::fs::read_to_string(site.join(format!("games/game-{id:06}.html"))).unwrap();
        assert!(page.contains("../player.html") && page.contains(&format!("game-{id:06}.js")));
        // The page opens at the decisive frame: the last one, where the game was decided.
        let frames = g["result"]["moves"].as_i64().unwrap();
        assert!(page.contains(&format!("data-frame=\"{frames}\"")), "{page}");
        assert!(!page.contains("fetch("), "file:// pages cannot fetch");
        let js = std::fs::read_to_string(site.join(format!("games/game-{id:06}.js"))).unwrap();
        let json = js
            .strip_prefix("window.ARBITER_REPLAY = ")
            .unwrap()
            .trim_end()
            .trim_end_matches(';');
        arbiter_engine::replay::Replay::read(json).unwrap();
    }
    // CSV agrees with JSON.
    let o = arbiter()
        .args(["tournament", "report", "--csv"])
        .arg(tmp.path().join("out"))
        .output()
        .unwrap();
    let csv = String::from_utf8(o.stdout).unwrap();
    assert_eq!(csv.lines().count(), 4);
    let top = &rep["standings"]["rows"][0];
    assert!(csv
        .lines()
        .nth(1)
        .unwrap()
        .starts_with(&format!("1,{},", top["bot"].as_str().unwrap())));
}

/// The size bar: 40 fast bots, double round robin of 16 x 16 Reversi (3,120 games),
/// unattended, then the full report and site. Takes minutes: run with
/// `cargo test --release -p arbiter --test tournament_run -- --ignored --nocapture`.
#[test]
#[ignore]
fn forty_bots_double_round_robin_of_16x16_reversi() {
    let tmp = tempfile::tempdir().unwrap();
    let names: Vec<(String, String)> = (0..40)
        .map(|i| (format!("bot{i:02}"), format!("{}", i * 7 + 1)))
        .collect();
    let bots: Vec<(&str, &str)> = names
        .iter()
        .map(|(n, a)| (n.as_str(), a.as_str()))
        .collect();
    let text = config(16, "double-round-robin", 2, 40, "move_ms = 5000", &bots);
    let cfg = write_config(tmp.path(), &text);
    let t0 = std::time::Instant::now();
    let st = arbiter()
        .args(["tournament", "-q"])
        .arg(&cfg)
        .status()
        .unwrap();
    let played = t0.elapsed();
    assert!(st.success());
    let out = tmp.path().join("out");
    let t1 = std::time::Instant::now();
    let o = arbiter()
        .args(["tournament", "report", "--html"])
        .arg(tmp.path().join("site"))
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let site_time = t1.elapsed();
    let rep = report_json(&out);
    assert_eq!(rep["scheduled"], 3120);
    assert_eq!(rep["done"], 3120);
    let normal = rep["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["result"]["reason_code"] == "normal")
        .count();
    assert_eq!(normal, 3120, "fast bots never fail");
    assert!(tmp.path().join("site/games/game-003120.html").is_file());
    let mp: u64 = rep["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["match_points"].as_u64().unwrap())
        .sum();
    eprintln!(
        "40-bot double round robin: 3120 games in {:.1} s ({:.1} games/s), site in {:.1} s, match points total {mp}",
        played.as_secs_f64(),
        3120.0 / played.as_secs_f64(),
        site_time.as_secs_f64()
    );
}

#[test]
fn a_failing_build_stops_the_tournament_and_shows_its_output() {
    let tmp = tempfile::tempdir().unwrap();
    let text = config(8, "round-robin", 2, 1, "", &BOTS[..2])
        .replace("name = \"r1\"", "name = \"r1\"\nbuild = \"echo compiling r1.c; echo 'r1.c:3: error: expected ;' >&2; exit 3\"");
    let cfg = write_config(tmp.path(), &text);
    let o = arbiter()
        .args(["tournament", "-q"])
        .arg(&cfg)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("build command of r1 failed")
            && err.contains("r1.c:3: error: expected ;")
            && err.contains("compiling r1.c"),
        "{err}"
    );
    assert!(
        !tmp.path().join("out/tournament.db").exists(),
        "nothing stored before the build works"
    );
    // A second start refuses to overwrite a tournament.
    let ok = config(8, "round-robin", 2, 1, "", &BOTS[..2]);
    let cfg = write_config(tmp.path(), &ok);
    assert!(arbiter()
        .args(["tournament", "-q"])
        .arg(&cfg)
        .status()
        .unwrap()
        .success());
    let o = arbiter()
        .args(["tournament", "-q"])
        .arg(&cfg)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("tournament resume"));
}

#[test]
fn a_second_runner_on_the_same_tournament_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let text = config(
        8,
        "round-robin",
        2,
        4,
        "move_ms = 3000",
        &[("slow1", "1 slow"), ("slow2", "2 slow")],
    );
    let cfg = write_config(tmp.path(), &text);
    let mut first = arbiter()
        .args(["tournament", "-q"])
        .arg(&cfg)
        .spawn()
        .unwrap();
    let out = tmp.path().join("out");
    // Wait until the first runner has its database.
    let t0 = Instant::now();
    while !out.join("tournament.db").exists() && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let o = arbiter()
        .args(["tournament", "resume", "-q"])
        .arg(&out)
        .output()
        .unwrap();
    let still_running = first.try_wait().unwrap().is_none();
    assert!(first.wait().unwrap().success());
    if still_running {
        assert!(!o.status.success());
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("another arbiter"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let rep = report_json(&out);
    assert_eq!(rep["done"], 2);
}

/// A tournament killed while its database is being made (a big schedule takes a moment) is
/// picked up by the next command on its directory, and one killed before anything was made is
/// started by `resume CONFIG`.
#[test]
fn a_tournament_killed_while_being_set_up_is_resumable() {
    let tmp = tempfile::tempdir().unwrap();
    let mut text =
        String::from("name = \"big\"\ngames_per_pairing = 40\noutput = \"out\"\n[game]\nname = \"reversi\"\nsize = 4\n");
    for i in 0..40 {
        text.push_str(&format!(
            "[[bots]]\nname = \"b{i}\"\ncommand = \"builtin:random\"\n"
        ));
    }
    let cfg = write_config(tmp.path(), &text);
    let out = tmp.path().join("out");
    let mut cut_short = 0;
    let mut recovered = 0;
    for ms in [5, 15, 30, 60, 100, 150, 250] {
        let _ = std::fs::remove_dir_all(&out);
        let mut child = arbiter()
            .args(["tournament", "run", "-q"])
            .arg(&cfg)
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(ms));
        child.kill().unwrap();
        let _ = child.wait();
        if !out.join("tournament.db.creating").exists() {
            continue;
        }
        cut_short += 1;
        let status = arbiter()
            .args(["tournament", "status", "--json"])
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&status.stderr);
        if !status.status.success() {
            // Killed before even the config was saved: nothing to pick up, and it says so.
            assert!(
                err.contains("start it again with `arbiter tournament CONFIG`"),
                "{err}"
            );
            continue;
        }
        recovered += 1;
        let v: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
        assert_eq!(v["scheduled"], 31200, "killed at {ms} ms");
        assert_eq!(v["done"], 0);
        assert!(!out.join("tournament.db.creating").exists());
    }
    assert!(
        recovered > 0,
        "no kill landed while the database was being made ({cut_short} too early)"
    );
    // A set-up cut short at any point: `resume CONFIG` starts it (here: kill and resume at once).
    let _ = std::fs::remove_dir_all(&out);
    let mut child = arbiter()
        .args(["tournament", "run", "-q"])
        .arg(&cfg)
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(5));
    child.kill().unwrap();
    let _ = child.wait();
    let mut child = arbiter()
        .args(["tournament", "resume", "-q"])
        .arg(&cfg)
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !out.join("tournament.db").exists() && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    let _ = child.wait();
    assert!(
        out.join("tournament.db").exists(),
        "resume CONFIG did not start the tournament"
    );

    // Nothing made yet: `resume` on the config starts the tournament.
    let small = tmp.path().join("small");
    let cfg = write_config(
        &small,
        &config(8, "round-robin", 2, 5, "move_ms = 3000", &BOTS[..2]),
    );
    let st = arbiter()
        .args(["tournament", "resume", "-q"])
        .arg(&cfg)
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(report_json(&small.join("out"))["done"], 2);
}
