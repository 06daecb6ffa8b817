//! Weng-Lin ratings (crate::weng_lin, from `skillratings`) against the `openskill` package on
//! PyPI (`pip install openskill==6.0.2`), model BradleyTerryFull with tau = 0, on the same
//! sequence of games of 2 to 5 seats with shared places: every mu and sigma within 1e-6.
//! Skips, saying so, when python3 or the package is missing, unless
//! ARBITER_REQUIRE_OPENSKILL=1 (scripts/test.sh), when that fails the test.

use std::io::Write;
use std::process::{Command, Stdio};

use arbiter_tournament::weng_lin::{rate, Placed};

const TOLERANCE: f64 = 1e-6;
const BOTS: usize = 9;

const SCRIPT: &str = r#"
import json, sys
from openskill.models import BradleyTerryFull
data = json.load(sys.stdin)
model = BradleyTerryFull(tau=0.0, kappa=0.0001)
r = [model.rating() for _ in range(data["bots"])]
for bots, places in data["games"]:
    # Integer ranks: openskill shares a place only between equal int ranks (floats never tie).
    new = model.rate([[r[b]] for b in bots], ranks=[int(p) for p in places])
    for b, team in zip(bots, new):
        r[b] = team[0]
print(json.dumps([[x.mu, x.sigma] for x in r]))
"#;

/// A reproducible sequence: tables of 2 to 5 distinct bots, places with ties now and then.
fn games() -> Vec<Placed> {
    let mut s: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |m: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % m
    };
    let mut out = Vec::new();
    for _ in 0..200 {
        let seats = 2 + next(4) as usize;
        let mut bots = Vec::new();
        while bots.len() < seats {
            let b = next(BOTS as u64) as usize;
            if !bots.contains(&b) {
                bots.push(b);
            }
        }
        // A strength order (lower bots usually better), with noise and a tie sometimes.
        let mut keys: Vec<u64> = bots.iter().map(|&b| b as u64 * 3 + next(12)).collect();
        if next(5) == 0 {
            keys[1] = keys[0];
        }
        let places = keys
            .iter()
            .map(|k| 1 + keys.iter().filter(|o| *o < k).count() as u32)
            .collect();
        out.push((bots, places));
    }
    out
}

fn required() -> bool {
    std::env::var("ARBITER_REQUIRE_OPENSKILL").is_ok_and(|v| v == "1")
}

fn skip(why: &str) {
    assert!(!required(), "ARBITER_REQUIRE_OPENSKILL=1 but {why}");
    eprintln!("skipped: {why} (pip install openskill==6.0.2)");
}

#[test]
fn weng_lin_agrees_with_openskill() {
    let games = games();
    let ours = rate(BOTS, &games);
    let input = serde_json::json!({ "bots": BOTS, "games": games });
    let child = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return skip("python3 cannot be run");
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        if err.contains("No module named 'openskill'") {
            return skip("the openskill package is not installed");
        }
        panic!("python3 with openskill failed: {err}");
    }
    let theirs: Vec<(f64, f64)> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(theirs.len(), BOTS);
    let mut worst: f64 = 0.0;
    for (b, (o, (mu, sigma))) in ours.iter().zip(&theirs).enumerate() {
        let d = (o.mu - mu).abs().max((o.sigma - sigma).abs());
        worst = worst.max(d);
        assert!(
            d < TOLERANCE,
            "bot {b}: ours mu {} sigma {}, openskill mu {mu} sigma {sigma}",
            o.mu,
            o.sigma
        );
    }
    // The games moved the ratings apart: the check compares something.
    assert!(ours.iter().any(|s| (s.mu - 25.0).abs() > 1.0));
    println!(
        "{} games: largest difference from openskill {worst:.2e}",
        games.len()
    );
}
