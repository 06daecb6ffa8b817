//! A tournament of tables through the real `arbiter` binary: 12 built-in bots at tables of 3
//! on Dou Dizhu, killed with SIGKILL twice midway and resumed. Every game of every table is
//! recorded exactly once, every bot sits in every seat equally often, and the report gives
//! places, points and Weng-Lin ratings with their intervals.

use crate::tournament_support;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use tournament_support::*;

const BOTS: usize = 12;
const SEATS: usize = 3;
const GAMES_PER_TABLE: usize = 3;

/// The config, beside a copy of the shipped Dou Dizhu module (games/dist).
fn tables_config(dir: &std::path::Path) -> String {
    tables_config_of(dir, BOTS, &["random", "1", "2"])
}

/// `bots` built-in bots of the `levels` in turn.
fn tables_config_of(dir: &std::path::Path, bots: usize, levels: &[&str]) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let dist =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/dist/dou-dizhu.wasm");
    std::fs::copy(&dist, dir.join("dou-dizhu.wasm")).unwrap();
    let mut s = format!(
        "name = \"tables\"\nseed = 7\nformat = \"round-robin\"\ntables = \"cyclic\"\n\
         games_per_table = {GAMES_PER_TABLE}\npoints_per_place = [3.0, 1.0, 0.0]\n\
         output = \"out\"\n[game]\nmodule = \"dou-dizhu.wasm\"\n[limits]\nmove_ms = 2000\n"
    );
    for i in 0..bots {
        // Random, greedy and depth-2 built-in bots: no compiler needed.
        let level = levels[i % levels.len()];
        s.push_str(&format!(
            "[[bots]]\nname = \"b{i:02}\"\ncommand = \"builtin:{level}\"\n"
        ));
    }
    s
}

#[test]
fn twelve_bots_at_tables_of_three_survive_two_sigkills() {
    let t0 = Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path(), &tables_config(tmp.path()));
    let out = tmp.path().join("out");
    let mut kills = 0;
    for attempt in 0..20 {
        let mut cmd = arbiter();
        cmd.arg("tournament");
        if out.join("tournament.db").exists() {
            cmd.args(["resume", "-q", "-j", "2"]).arg(&out);
        } else {
            cmd.args(["run", "-q", "-j", "2"]).arg(&cfg);
        }
        let mut child = cmd.spawn().unwrap();
        if kills < 2 {
            // Kill once a few games are recorded, while more are being played.
            let wait_from = Instant::now();
            while child.try_wait().unwrap().is_none()
                && wait_from.elapsed() < Duration::from_secs(60)
            {
                std::thread::sleep(Duration::from_millis(50));
                let done = done_count(&out);
                if done >= 10 * (kills + 1) {
                    break;
                }
            }
            if child.try_wait().unwrap().is_none() {
                child.kill().unwrap();
                child.wait().unwrap();
                kills += 1;
                eprintln!(
                    "attempt {attempt}: killed with {} games done",
                    done_count(&out)
                );
                continue;
            }
        }
        let st = child.wait().unwrap();
        assert!(st.success(), "attempt {attempt}: {st:?}");
        break;
    }
    assert_eq!(kills, 2, "the runs ended before they could be killed twice");

    let report = report_json(&out);
    let tables = &report["tables"];
    let games = tables["games"].as_array().unwrap();
    let table_count = tables["tables"].as_u64().unwrap() as usize;
    assert!(table_count >= BOTS, "{table_count} tables");
    assert_eq!(games.len(), table_count * GAMES_PER_TABLE);
    assert_eq!(report["done"], games.len(), "every game recorded");

    // Exactly the games of every table: one of each number, each with its places.
    let mut per_table: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for g in games {
        assert_eq!(g["state"], "done");
        per_table
            .entry(g["table"].as_u64().unwrap())
            .or_default()
            .push(g["number"].as_u64().unwrap());
        let places = g["result"]["places"].as_array().unwrap();
        assert_eq!(places.len(), SEATS, "game {}: {places:?}", g["id"]);
    }
    assert_eq!(per_table.len(), table_count);
    for (t, mut numbers) in per_table {
        numbers.sort();
        assert_eq!(
            numbers,
            (0..GAMES_PER_TABLE as u64).collect::<Vec<_>>(),
            "table {t}"
        );
    }
    // One replay file per game: nothing played twice under another name, no partial file.
    let replays: Vec<_> = std::fs::read_dir(out.join("replays"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(replays.len(), games.len(), "{replays:?}");
    assert!(replays.iter().all(|n| n.ends_with(".json")));

    // Every bot in every seat equally often; places, points and an interval per bot.
    let rows = tables["rows"].as_array().unwrap();
    assert_eq!(rows.len(), BOTS);
    let seat_counts: Vec<Vec<u64>> = rows
        .iter()
        .map(|r| {
            r["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect()
        })
        .collect();
    let first = seat_counts[0][0];
    assert!(first > 0);
    for (r, seats) in rows.iter().zip(&seat_counts) {
        assert_eq!(seats, &vec![first; SEATS], "{}", r["bot"]);
        let places: u64 = r["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(places, r["games"].as_u64().unwrap());
        let (mu, low, high) = (
            r["mu"].as_f64().unwrap(),
            r["low"].as_f64().unwrap(),
            r["high"].as_f64().unwrap(),
        );
        assert!(low < mu && mu < high, "{r}");
        assert!(r["sigma"].as_f64().unwrap() < 25.0 / 3.0, "{r}");
    }
    // Points follow the places: 3 for a first, 1 for a second.
    let points: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    let firsts: u64 = rows.iter().map(|r| r["places"][0].as_u64().unwrap()).sum();
    let seconds: u64 = rows.iter().map(|r| r["places"][1].as_u64().unwrap()).sum();
    assert_eq!(points, (3 * firsts + seconds) as f64);

    // The terminal and HTML reports show the places and the ratings.
    let o = arbiter()
        .args(["tournament", "report"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("2nd") && text.contains("Weng-Lin"), "{text}");
    let site = tmp.path().join("site");
    let o = arbiter()
        .args(["tournament", "report", "--html"])
        .arg(&site)
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("<th>3rd</th>") && index.contains("95%"));

    eprintln!(
        "tables tournament: {} games in {:.1} s",
        games.len(),
        t0.elapsed().as_secs_f64()
    );
}

/// Games recorded so far (0 before the database exists).
fn done_count(out: &std::path::Path) -> usize {
    let o = arbiter()
        .args(["tournament", "status", "--json"])
        .arg(out)
        .output()
        .unwrap();
    if !o.status.success() {
        return 0;
    }
    serde_json::from_slice::<serde_json::Value>(&o.stdout)
        .ok()
        .and_then(|v| v["done"].as_u64())
        .unwrap_or(0) as usize
}

/// Each game's id, seats, places and reason, from a report.
fn table_games(report: &serde_json::Value) -> Vec<String> {
    let mut v: Vec<String> = report["tables"]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            format!(
                "{} {} {} {}",
                g["id"], g["seats"], g["result"]["places"], g["result"]["reason_code"]
            )
        })
        .collect();
    v.sort();
    v
}

/// The tables of a Dou Dizhu tournament played by two `arbiter worker`s through PostgreSQL,
/// the coordinator only scheduling and recording: a worker killed with SIGKILL in the middle
/// of a game and the coordinator killed and resumed change nothing. Every game is enqueued
/// once and recorded once, with the same seats, places and reasons as on one machine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_played_by_workers_through_postgresql_equal_one_machine() {
    use crate::contest_support::fresh_pg;
    use std::process::{Child, Stdio};
    let Some(url) = fresh_pg().await else { return };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Random bots: their moves do not depend on the clock, so that both runs play the same
    // games. (Every Monte Carlo level stops at its deadline: level 1's playouts at a Dou
    // Dizhu position with many moves outlast it on a loaded machine: game 17 was seen to
    // differ from move 47 on in a run here while a build ran beside it.)
    let config = tables_config_of(dir, 6, &["random"]);
    std::fs::write(
        dir.join("queue.toml"),
        config.replace("output = \"out\"", "output = \"queue-out\""),
    )
    .unwrap();
    std::fs::write(
        dir.join("local.toml"),
        config.replace("output = \"out\"", "output = \"local-out\""),
    )
    .unwrap();
    let quiet = |mut c: std::process::Command| -> Child {
        c.current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let worker = |id: &str| {
        let mut c = arbiter();
        c.args(["worker", "--db", &url, "--slots", "1", "--id", id, "-q"])
            .args(["--lease", "3", "--games-only"]);
        quiet(c)
    };
    let mut c = arbiter();
    c.args([
        "tournament",
        "queue.toml",
        "--db",
        &url,
        "--no-local-workers",
        "-q",
    ]);
    let mut coord = quiet(c);
    sqlx::any::install_default_drivers();
    let pool = loop {
        if let Ok(p) = sqlx::AnyPool::connect(&url).await {
            let n = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM jobs")
                .fetch_one(&p)
                .await;
            if n.is_ok_and(|n| n > 0) {
                break p;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let count = |sql: &'static str| {
        let pool = pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>(sql)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    let total = count("SELECT COUNT(*) FROM jobs WHERE kind = 'game'").await;
    let mut w1 = worker("w1");
    let w2 = worker("w2");
    let wait_for = |sql: &'static str, n: i64, what: &'static str| async move {
        let t0 = Instant::now();
        while count(sql).await < n {
            assert!(t0.elapsed() < Duration::from_secs(300), "never: {what}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    // w1 dies in the middle of a game, after a few.
    let results = "SELECT COUNT(*) FROM results";
    wait_for(results, 3, "three games played").await;
    wait_for(
        "SELECT COUNT(*) FROM jobs WHERE state = 'running' AND worker = 'w1'",
        1,
        "w1 playing",
    )
    .await;
    w1.kill().unwrap();
    w1.wait().unwrap();
    let w3 = worker("w3");
    // The coordinator dies; the workers play on, and `resume` records what they did.
    coord.kill().unwrap();
    coord.wait().unwrap();
    let resumed = arbiter()
        .args([
            "tournament",
            "resume",
            "queue-out",
            "--no-local-workers",
            "-q",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        resumed.status.success(),
        "the resumed coordinator failed: {}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    for mut w in [w2, w3] {
        let _ = w.kill();
        let _ = w.wait();
    }
    let once = count(
        "SELECT COUNT(*) FROM (SELECT side0 FROM jobs WHERE kind = 'game' \
         GROUP BY side0 HAVING COUNT(*) > 1) AS twice",
    )
    .await;
    assert_eq!(once, 0, "a game enqueued twice");
    assert_eq!(count(results).await, total, "one result per game");
    assert!(
        count("SELECT COUNT(*) FROM events WHERE kind = 'lease_expired'").await >= 1,
        "the killed worker's game went back to the queue"
    );

    let o = arbiter()
        .args(["tournament", "local.toml", "-q", "-j", "2"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let queued = report_json(&dir.join("queue-out"));
    let local = report_json(&dir.join("local-out"));
    assert_eq!(queued["done"].as_i64(), Some(total), "{queued}");
    assert_eq!(table_games(&queued), table_games(&local));
    // Ratings follow the order games finished in; what each bot did does not.
    let did = |report: &serde_json::Value| -> Vec<String> {
        report["tables"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                format!(
                    "{} {} {} {} {}",
                    r["bot"], r["games"], r["places"], r["seats"], r["points"]
                )
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    assert_eq!(did(&queued), did(&local));
    let replays = std::fs::read_dir(dir.join("queue-out/replays"))
        .unwrap()
        .count();
    assert_eq!(replays as i64, total, "one replay file per game");
    // Each replay the workers sent back is the game one machine plays, move for move.
    let moves = |out: &str, game: &serde_json::Value| -> Vec<serde_json::Value> {
        let file = game["result"]["replay"].as_str().expect("a replay file");
        let text = std::fs::read_to_string(dir.join(out).join(file)).unwrap();
        let replay: serde_json::Value = serde_json::from_str(&text).unwrap();
        replay["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| serde_json::json!([m["seat"], m["move"], m["with"]]))
            .collect()
    };
    let by_id = |report: &serde_json::Value| -> BTreeMap<i64, serde_json::Value> {
        report["tables"]["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g["id"].as_i64().unwrap(), g.clone()))
            .collect()
    };
    let local_games = by_id(&local);
    for (id, g) in by_id(&queued) {
        let here = moves("queue-out", &g);
        assert!(!here.is_empty(), "game {id}: no moves");
        assert_eq!(here, moves("local-out", &local_games[&id]), "game {id}");
    }
}
