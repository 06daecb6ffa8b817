//! Games of every shape under a Saiblo judger (seed 002's `player_num` and rounds that listen
//! to several AIs): `arbiter logic GAME.wasm` takes its seat count from the judger's init,
//! asks the movers of a simultaneous turn in one round, takes a failed seat out where the
//! rules allow, and ends with a score and an end state per seat.

use std::path::Path;

use serde_json::Value;

use crate::kit_support;
use arbiter_kit_host::build;
use kit_support::{arbiter, module};

/// The echo bot (kit_support::echo_bot) on Saiblo's framing.
fn saiblo_bot(dir: &Path, name: &str, seed: u32, crash_after: Option<u32>) -> String {
    kit_support::echo_bot(dir, name, seed, crash_after, true)
}

/// Runs `arbiter judge` with `arbiter logic MODULE` (`logic_args` after it) and these AIs:
/// the judge's JSON outcome and the logic's replay.
fn judge(dir: &Path, module: &str, logic_args: &str, ais: &[String]) -> (Value, Value) {
    let exe = env!("CARGO_BIN_EXE_arbiter");
    let logic = format!("{exe} logic {module} {logic_args} --no-end-state-request");
    let replay = dir.join("saiblo.json");
    let mut args = vec![
        "judge".to_string(),
        "--json".into(),
        "--logic".into(),
        logic,
        "--config".into(),
        r#"{"random_seed": 5}"#.into(),
        "--replay".into(),
        replay.display().to_string(),
    ];
    for ai in ais {
        args.push("--ai".into());
        args.push(ai.clone());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, text) = arbiter(&args);
    assert!(ok, "{text}");
    let out: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let r: Value = serde_json::from_slice(&std::fs::read(&replay).unwrap()).unwrap();
    (out, r)
}

/// Each seat's place from a replay's result.
fn places(r: &Value) -> Vec<u64> {
    r["result"]["places"]
        .as_array()
        .expect("places for more than two seats")
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect()
}

/// A seat placed ahead of another scores more, tied seats the same, 2 for each pair in all.
fn assert_scores_follow_places(places: &[u64], scores: &[i64]) {
    let n = places.len() as i64;
    assert_eq!(scores.iter().sum::<i64>(), n * (n - 1), "{scores:?}");
    for i in 0..places.len() {
        for j in 0..places.len() {
            assert_eq!(
                places[i].cmp(&places[j]).reverse(),
                scores[i].cmp(&scores[j]),
                "places {places:?}, scores {scores:?}"
            );
        }
    }
}

/// The judge's scores in player order.
fn scores(out: &Value, seats: usize) -> Vec<i64> {
    (0..seats)
        .map(|i| {
            out["scores"][i.to_string()]
                .as_i64()
                .expect("a score per seat")
        })
        .collect()
}

/// Three AIs, three seats (the sample Saiblo kit bot): the module takes `players` from the
/// judger's init; the game ends by the rules with a place for every seat, and the scores
/// follow the places.
#[test]
fn dou_dizhu_for_three_ais_under_a_saiblo_judger() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-dou-dizhu");
    let kit_bot = build::workspace_root().join("bots/saiblo/kit_bot.py");
    let ais: Vec<String> = (1..=3)
        .map(|i| format!("python3 {} {i}", kit_bot.display()))
        .collect();
    let (out, r) = judge(tmp.path(), &m, "", &ais);
    assert_eq!(
        out["end_state"],
        serde_json::json!(["OK", "OK", "OK"]),
        "{out}"
    );
    assert_eq!(r["players"].as_array().unwrap().len(), 3, "{r}");
    assert_eq!(r["result"]["reason"]["kind"], "normal", "{}", r["result"]);
    assert_eq!(r["game"]["seed"], 5, "the seed is the judger's");
    let places = places(&r);
    let scores = scores(&out, 3);
    assert_scores_follow_places(&places, &scores);
    // Every seat was asked: each moved.
    for seat in 0..3u64 {
        let moved = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["seat"] == seat)
            .count();
        assert!(moved > 0, "seat {seat} never moved");
    }
}

/// A simultaneous game: every ply is one round listening to all three bidders at once, and
/// with hidden bids no bidder is told another's bid, before or after it bid.
#[test]
fn sealed_bids_are_one_round_for_every_bidder_and_stay_hidden() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-goofspiel");
    let ais: Vec<String> = (1..=3)
        .map(|i| saiblo_bot(tmp.path(), &format!("bidder{i}"), i, None))
        .collect();
    let (out, r) = judge(tmp.path(), &m, r#"--config '{"imp_info": true}'"#, &ais);
    assert_eq!(
        out["end_state"],
        serde_json::json!(["OK", "OK", "OK"]),
        "{out}"
    );
    assert_eq!(r["result"]["reason"]["kind"], "normal", "{}", r["result"]);
    let plies = r["moves"].as_array().unwrap();
    assert!(plies.len() >= 10, "{r}");
    for ply in plies {
        let seats: Vec<u64> = std::iter::once(ply)
            .chain(ply["with"].as_array().into_iter().flatten())
            .map(|m| m["seat"].as_u64().unwrap())
            .collect();
        assert_eq!(seats, [0, 1, 2], "one ply, every bidder: {ply}");
    }
    // Each was told the game as three seats.
    let first = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["seat"] == 0)
        .unwrap();
    let start = first["log"].as_str().unwrap_or_default().lines().next();
    let start = start.unwrap_or_default();
    assert!(
        start.starts_with("START 1 ") && start.ends_with(" 3"),
        "{first}"
    );
    for ply in plies {
        for m in std::iter::once(ply).chain(ply["with"].as_array().into_iter().flatten()) {
            let log = m["log"].as_str().unwrap_or_default();
            assert!(!log.contains("PLAYED"), "a hidden bid was told: {log}");
        }
    }
}

/// Four snakes, one of which crashes after two moves: it is taken out (its end state RE), the
/// other three play on to the end.
#[test]
fn a_crashed_snake_is_out_and_the_others_play_on_under_saiblo() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-snake");
    let mut ais: Vec<String> = (1..=3)
        .map(|i| saiblo_bot(tmp.path(), &format!("snake{i}"), i, None))
        .collect();
    ais.insert(1, saiblo_bot(tmp.path(), "crasher", 9, Some(2)));
    let (out, r) = judge(tmp.path(), &m, "", &ais);
    let states: Vec<&str> = out["end_state"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(states[1], "RE", "{out}");
    let retired = r["retired"].as_array().expect("a retirement");
    assert_eq!(retired[0]["reason"]["seat"], 1, "{r}");
    assert!(
        r["moves"].as_array().unwrap().len() > retired[0]["ply"].as_u64().unwrap() as usize,
        "the others played on: {r}"
    );
    // Every seat has a place (the crashed snake's by its rules: one that died earlier ranks
    // below it), and the scores follow the places.
    let places = places(&r);
    let scores = scores(&out, 4);
    assert_scores_follow_places(&places, &scores);
}

/// A judger whose AIs do not fit the game is refused, naming both counts.
#[test]
fn a_seat_count_the_game_cannot_have_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let m = module("game-dou-dizhu");
    let ais: Vec<String> = (1..=2)
        .map(|i| saiblo_bot(tmp.path(), &format!("ai{i}"), i, None))
        .collect();
    let exe = env!("CARGO_BIN_EXE_arbiter");
    let logic = format!("{exe} logic {m}");
    let (ok, text) = arbiter(&[
        "judge", "--json", "--logic", &logic, "--ai", &ais[0], "--ai", &ais[1],
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("2 AIs") && text.contains("3 seats"), "{text}");
}
