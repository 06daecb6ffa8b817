//! Staged tournaments through the real `arbiter` binary: a knockout with byes and matches of
//! four games played to its final, and a Swiss into a top-8 knockout killed with SIGKILL in
//! each stage and resumed, against the same tournament played without a stop.

use crate::tournament_support;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use tournament_support::*;

fn bots(n: usize, mode: &str) -> Vec<(String, String)> {
    (0..n)
        .map(|i| (format!("b{i:02}"), format!("{} {mode}", i + 1)))
        .collect()
}

/// A config of `bots` with `head` (top-level keys) in place of a round robin's, and `tables`
/// (such as `[[stages]]`) at its end.
fn staged_config(size: u8, head: &str, tables: &str, bots: &[(String, String)]) -> String {
    let refs: Vec<(&str, &str)> = bots.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let base = config(size, "round-robin", 2, 11, "", &refs);
    base.replace("format = \"round-robin\"\ngames_per_pairing = 2\n", head) + tables
}

fn run(args: &[&str], path: &Path) {
    let st = arbiter()
        .arg("tournament")
        .args(args)
        .arg(path)
        .status()
        .unwrap();
    assert!(st.success(), "arbiter tournament {args:?} failed");
}

#[test]
fn a_knockout_with_byes_and_matches_of_four_games_plays_to_its_final() {
    let tmp = tempfile::tempdir().unwrap();
    // 13 bots in a bracket of 16: the first three seeds have byes.
    let head = "format = \"knockout\"\ngames_per_pairing = 4\nextra_pairs = 1\n";
    let cfg = write_config(tmp.path(), &staged_config(6, head, "", &bots(13, "")));
    run(&["run", "-q", "-j", "2"], &cfg);
    let out = tmp.path().join("out");
    let report = report_json(&out);
    let stage = &report["stages"][0];
    assert_eq!(stage["format"], "knockout");
    let order = stage["order"].as_array().expect("decided");
    assert_eq!(order.len(), 13);
    let matches = stage["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 15, "a bracket of 16 has 15 matches");
    let mut byes = 0;
    let mut played = 0;
    for m in matches {
        assert!(m["winner"].is_number(), "every match decided: {m}");
        let games = m["games"].as_array().unwrap().len();
        let sides = m["sides"].as_array().unwrap();
        if sides.iter().any(|s| s.is_null()) {
            byes += 1;
            assert_eq!(games, 0, "a bye plays no game");
        } else {
            played += 1;
            assert!(
                games == 4 || games == 6,
                "four games, two more if level: {m}"
            );
            let p = m["points"].as_array().unwrap();
            let (a, b) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
            let w = m["winner"].as_u64().unwrap() as usize;
            if m["by_rule"] == true {
                assert_eq!(a, b, "by rule only when level");
            } else {
                assert!([a, b][w] > [a, b][1 - w], "the winner has more points: {m}");
            }
        }
    }
    assert_eq!(byes, 3);
    assert_eq!(played, 12, "13 entrants: 12 matches eliminate 12");
    let final_ = matches.last().unwrap();
    let champion = final_["sides"][final_["winner"].as_u64().unwrap() as usize].clone();
    assert_eq!(order[0], champion);
    // Every game was played once and belongs to one match.
    let all: usize = matches
        .iter()
        .map(|m| m["games"].as_array().unwrap().len())
        .sum();
    assert_eq!(report["done"].as_u64().unwrap() as usize, all);
    assert_eq!(report["pending"], 0);

    // The bracket page shows every match with its games.
    let site = tmp.path().join("site");
    run(&["report", "--html", site.to_str().unwrap()], &out);
    let page = std::fs::read_to_string(site.join("stage-1.html")).unwrap();
    for m in matches {
        assert!(
            page.contains(&format!("id=\"match-{}\"", m["id"])),
            "match {}",
            m["id"]
        );
        for g in m["games"].as_array().unwrap() {
            let link = format!("games/game-{:06}.html", g.as_u64().unwrap());
            assert!(page.contains(&link), "{link}");
            assert!(site.join(&link).is_file());
        }
    }
    assert_eq!(page.matches("<i>bye</i>").count(), 3);
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("stage-1.html"));
}

/// The stages of a `report --json`, and how many of each stage's games are done.
fn progress(out: &Path) -> Option<(usize, Vec<usize>)> {
    if !out.join("tournament.db").exists() {
        return None;
    }
    let o = arbiter()
        .args(["tournament", "report", "--json"])
        .arg(out)
        .output()
        .ok()?;
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).ok()?;
    let stages = v["stages"].as_array()?;
    let done_in = |s: &serde_json::Value| {
        let order = s["order"].is_array();
        (order, s["rounds"].as_u64().unwrap_or(0) as usize)
    };
    let decided = stages.iter().filter(|s| done_in(s).0).count();
    Some((stages.len(), vec![decided, v["done"].as_u64()? as usize]))
}

#[test]
fn a_swiss_into_a_top_8_knockout_killed_in_each_stage_loses_nothing_and_plays_nothing_twice() {
    let tmp = tempfile::tempdir().unwrap();
    let head = "format = \"stages\"\ngames_per_pairing = 2\n";
    let tables = "[[stages]]\nformat = \"swiss\"\nrounds = 3\n\
[[stages]]\nformat = \"knockout\"\nadvance = 8\n";
    // Slow bots (50 ms a move) on 4 x 4 Reversi: a game takes about half a second.
    let text = staged_config(4, head, tables, &bots(10, "slow"));
    let clean = write_config(&tmp.path().join("clean"), &text);
    run(&["run", "-q", "-j", "2"], &clean);
    let clean_report = report_json(&tmp.path().join("clean/out"));

    let dir = tmp.path().join("killed");
    let cfg = write_config(&dir, &text);
    let out = dir.join("out");
    let mut killed = [false, false];
    let started = Instant::now();
    while !(killed[0] && killed[1]) && started.elapsed() < Duration::from_secs(240) {
        let mut cmd = arbiter();
        if out.join("tournament.db").exists() {
            cmd.args(["tournament", "resume", "-q", "-j", "2"])
                .arg(&out);
        } else {
            cmd.args(["tournament", "run", "-q", "-j", "2"]).arg(&cfg);
        }
        let mut child = cmd.spawn().unwrap();
        let mut killed_now = false;
        while child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(150));
            let Some((stages, figures)) = progress(&out) else {
                continue;
            };
            let (decided, done) = (figures[0], figures[1]);
            // In the Swiss with games done; then in the knockout with games done in it.
            let stage = if stages == 1 && decided == 0 && done > 0 {
                Some(0)
            } else if stages == 2 && decided == 1 && done > clean_swiss_games(&clean_report) {
                Some(1)
            } else {
                None
            };
            if let Some(k) = stage.filter(|&k| !killed[k]) {
                child.kill().unwrap();
                killed[k] = true;
                killed_now = true;
                eprintln!("killed in stage {} after {done} games", k + 1);
                break;
            }
        }
        let _ = child.wait();
        if !(killed_now || killed[0] && killed[1]) {
            panic!("the tournament finished before it was killed in each stage: {killed:?}");
        }
    }
    run(&["resume", "-q", "-j", "2"], &out);
    let killed_report = report_json(&out);
    assert_eq!(killed_report["pending"], 0);
    let games = killed_report["games"].as_array().unwrap();
    let keys: BTreeSet<&str> = games.iter().map(|g| g["key"].as_str().unwrap()).collect();
    assert_eq!(keys.len(), games.len(), "every game once");
    for g in games {
        assert_eq!(g["state"], "done");
        let replay = out.join(g["result"]["replay"].as_str().unwrap());
        arbiter_engine::replay::Replay::read(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    }
    let replays = std::fs::read_dir(out.join("replays"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .count();
    assert_eq!(
        replays,
        games.len(),
        "one replay per game, none left half-written"
    );
    // The same rounds, pairings, games and results as the run that was never stopped.
    assert_eq!(results(&killed_report), results(&clean_report));
    assert_eq!(killed_report["stages"], clean_report["stages"]);
    let stages = killed_report["stages"].as_array().unwrap();
    assert_eq!(stages.len(), 2);
    assert_eq!(stages[1]["entrants"].as_array().unwrap().len(), 8);
    let swiss_order = stages[0]["order"].as_array().unwrap();
    assert_eq!(
        stages[1]["entrants"].as_array().unwrap()[..],
        swiss_order[..8]
    );
}

/// Games of the Swiss stage in the run without stops.
fn clean_swiss_games(report: &serde_json::Value) -> usize {
    report["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["leg"].as_u64().is_some_and(|l| l < 10_000))
        .count()
}
