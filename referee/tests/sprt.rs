//! `arbiter match --sprt` end to end with the real binary: a much stronger bot is accepted as
//! stronger, a bot against itself never is, the 2048 duel plays pairs on one random sequence,
//! and a malformed test is refused with a clear message.

use std::process::{Command, Output};

use serde_json::Value;

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("arbiter runs")
}

fn report(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "arbiter failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("--json prints JSON")
}

/// The SPRT section agrees with the games played: whole pairs, counts summing to them.
fn check_counts(r: &Value) -> &Value {
    let s = &r["sprt"];
    let pairs = s["pairs"].as_u64().unwrap();
    let counts: u64 = s["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(counts, pairs);
    assert_eq!(r["games"].as_array().unwrap().len() as u64, 2 * pairs);
    s
}

#[test]
fn the_top_level_is_accepted_as_stronger_than_level_one() {
    let out = arbiter(&[
        "match",
        "reversi",
        "--size",
        "8",
        "builtin:5",
        "builtin:1",
        "--sprt",
        "elo0=0,elo1=20",
        "--move-time",
        "2000",
        "--max-games",
        "400",
        "--json",
    ]);
    let r = report(&out);
    let s = check_counts(&r);
    assert_eq!(s["decision"], "H1", "{s}");
    assert!(s["llr"].as_f64().unwrap() >= s["upper_bound"].as_f64().unwrap());
    assert!(s["estimate"]["elo"].as_f64().unwrap() > 20.0);
    assert!(s["estimate"]["los"].as_f64().unwrap() > 0.95);
    // It stopped at the decision, not at the limit.
    assert!(r["games"].as_array().unwrap().len() < 400);
    // The progress line shows the LLR against its bounds.
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(progress.contains("| LLR "), "{progress}");
    assert!(progress.contains("(-2.94, 2.94) H1 accepted"), "{progress}");
}

#[test]
fn a_bot_against_itself_is_never_accepted_as_stronger() {
    let out = arbiter(&[
        "match",
        "reversi",
        "--size",
        "8",
        "builtin:2",
        "builtin:2",
        "--sprt",
        "elo0=0,elo1=20",
        "--max-games",
        "120",
        "--json",
        "-q",
    ]);
    let r = report(&out);
    let s = check_counts(&r);
    assert_ne!(s["decision"], "H1", "{s}");
    assert!(r["games"].as_array().unwrap().len() <= 120);
    let score = s["estimate"]["score"].as_f64().unwrap();
    assert!((score - 0.5).abs() < 0.1, "score {score}");
}

#[test]
fn duel_pairs_share_their_random_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let out = arbiter(&[
        "match",
        "duel2048",
        "--seed",
        "5",
        "--rounds",
        "30",
        "builtin:1",
        "builtin:random",
        "--sprt",
        "elo0=0,elo1=50",
        "--max-games",
        "3",
        "--json",
        "-q",
        "-o",
        out_dir,
    ]);
    let r = report(&out);
    let s = check_counts(&r);
    // An odd limit is rounded up to whole pairs.
    assert_eq!(s["pairs"], 2);
    let seed = |n: usize| -> Value {
        let path = dir.path().join(format!("game-{n:04}.json"));
        let replay: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        replay["game"]["random"].clone()
    };
    assert_eq!(seed(1), seed(2));
    assert_eq!(seed(3), seed(4));
    assert_ne!(seed(1), seed(3));
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["sprt"]["pairs"], 2);
}

#[test]
fn a_malformed_test_is_refused_clearly() {
    for (bad, says) in [
        ("elo0=10,elo1=0", "must be less than"),
        ("elo1=10", "needs elo0 and elo1"),
        ("elo0=0,elo1=10,alpha=2", "alpha"),
        ("elo0=0,elo1=ten", "not a number"),
    ] {
        let out = arbiter(&[
            "match",
            "reversi",
            "--size",
            "8",
            "builtin:1",
            "builtin:2",
            "--sprt",
            bad,
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{bad}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
