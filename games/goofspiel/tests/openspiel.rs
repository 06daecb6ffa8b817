//! games/goofspiel against OpenSpiel's `goofspiel` (open-spiel 2.0.2): the game trees counted
//! by both under the same prize order (OpenSpiel's chance nodes given the cards our seed turns
//! up, its simultaneous nodes expanded to every joint bid), and whole random games played in
//! both to the same points and places. The OpenSpiel side is `openspiel/perft.py`.
//!
//! Without `pyspiel` the test says why and passes, unless `ARBITER_REQUIRE_OPENSPIEL=1`.

use std::io::Write;
use std::process::{Command, Stdio};

use arbiter_game::{perft, Game, Seat};
use game_goofspiel::{Goofspiel, SplitMix};
use serde_json::{json, Value};

/// Whether OpenSpiel can be run here; panics when it must and cannot.
fn openspiel_here() -> bool {
    let probe = Command::new("python3")
        .args(["-c", "import pyspiel"])
        .output();
    let why = match probe {
        Ok(out) if out.status.success() => return true,
        Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
        Err(e) => format!("python3 did not run: {e}"),
    };
    if std::env::var("ARBITER_REQUIRE_OPENSPIEL").as_deref() == Ok("1") {
        panic!("ARBITER_REQUIRE_OPENSPIEL=1 but OpenSpiel cannot be imported: {why}");
    }
    eprintln!("skipped: OpenSpiel is not installed ({why}); pip install open-spiel==2.0.2");
    false
}

/// Runs the script on one request.
fn ask(request: &Value) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/openspiel/perft.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    stdin
        .write_all(request.to_string().as_bytes())
        .expect("the request is written");
    drop(stdin);
    let out = child.wait_with_output().expect("the script ends");
    assert!(out.status.success(), "perft.py failed");
    serde_json::from_slice(&out.stdout).expect("perft.py answers JSON")
}

fn game(params: &Value, seed: u64) -> Goofspiel {
    Goofspiel::new(params, seed).unwrap_or_else(|e| panic!("{params}: {e}"))
}

/// Places from OpenSpiel's returns: the higher return the better, equal ones shared.
fn places_from_returns(returns: &[f64]) -> Vec<u32> {
    returns
        .iter()
        .map(|r| 1 + returns.iter().filter(|o| *o > r).count() as u32)
        .collect()
}

/// A whole game of random bids: the bids of each round and the end.
fn random_game(params: &Value, seed: u64) -> (Vec<Vec<u8>>, Goofspiel) {
    let mut g = game(params, seed);
    let mut rng = SplitMix(seed ^ 0xB1D5);
    let mut rounds = Vec::new();
    while !g.turn().is_over() {
        let joint: Vec<(Seat, u8)> = g
            .turn()
            .movers()
            .iter()
            .map(|s| {
                let hand = g.hand(s);
                (s, hand[rng.below(hand.len())])
            })
            .collect();
        rounds.push(joint.iter().map(|&(_, b)| b).collect());
        g.play_together(&joint).unwrap();
    }
    (rounds, g)
}

#[test]
fn trees_and_games_match_openspiel() {
    if !openspiel_here() {
        return;
    }
    let started = std::time::Instant::now();
    // (params, seed, deepest depth): a few thousand to a few ten thousand leaves each.
    let cases = [
        (json!({}), 0, 2),
        (json!({}), 1, 2),
        (json!({"num_cards": 5}), 2, 6),
        (json!({"num_cards": 5, "imp_info": true}), 3, 5),
        (json!({"players": 3, "num_cards": 4}), 4, 5),
        (
            json!({"players": 3, "num_cards": 5, "points_order": "ascending"}),
            5,
            2,
        ),
        (
            json!({"players": 4, "num_cards": 3, "points_order": "descending"}),
            6,
            3,
        ),
        (json!({"num_cards": 6, "num_turns": 3}), 7, 4),
    ];
    let request: Vec<Value> = cases
        .iter()
        .map(|(params, seed, depth)| {
            json!({"params": params, "seed": seed, "depths": (1..=*depth).collect::<Vec<_>>()})
        })
        .collect();
    let games = random_games();
    let game_request: Vec<Value> = games
        .iter()
        .map(|(params, seed, bids, _)| json!({"params": params, "seed": seed, "bids": bids}))
        .collect();
    let answer = ask(&json!({"cases": request, "games": game_request}));
    for ((params, seed, depth), theirs) in cases.iter().zip(answer["cases"].as_array().unwrap()) {
        compare_tree(params, *seed, *depth, theirs);
    }
    let answers = answer["games"].as_array().unwrap();
    for ((params, seed, _, ours), theirs) in games.iter().zip(answers) {
        compare_game(params, *seed, ours, theirs);
    }
    eprintln!(
        "{} trees and {} games compared in {:.1?}",
        cases.len(),
        games.len(),
        started.elapsed()
    );
}

/// Our perft against OpenSpiel's: equal at every depth, but for one convention. OpenSpiel
/// plays the last round (one card in every hand) inside the one before it, so its tree is one
/// level shorter where every card is played: our count at depth `cards` (the forced last bids,
/// one child each) is its count at `cards - 1`, and it has no leaf at `cards`.
fn compare_tree(params: &Value, seed: u64, depth: u32, theirs: &Value) {
    let g = game(params, seed);
    assert_eq!(
        theirs["deck"],
        json!(g.deck()),
        "{params} seed {seed}: the same prizes"
    );
    let theirs: Vec<u64> = serde_json::from_value(theirs["perft"].clone()).unwrap();
    let s = g.settings();
    let short = s.rounds == s.cards;
    for d in 1..=depth {
        let ours = perft(&g, d);
        let at = |d: u32| theirs[d as usize - 1];
        if short && d == u32::from(s.cards) {
            assert_eq!(
                ours,
                at(d - 1),
                "{params} seed {seed} depth {d}: the last round"
            );
            assert_eq!(at(d), 0, "{params}: OpenSpiel ends a round early");
        } else if short && d > u32::from(s.cards) {
            assert_eq!((ours, at(d)), (0, 0));
        } else {
            assert_eq!(ours, at(d), "{params} seed {seed} depth {d}");
        }
    }
}

type RandomGame = (Value, u64, Vec<Vec<u8>>, Goofspiel);

/// Every seat count, order, information and returns type, with 13 cards and fewer.
fn random_games() -> Vec<RandomGame> {
    let orders = ["random", "descending", "ascending"];
    let returns = ["win_loss", "point_difference", "total_points"];
    let mut out = Vec::new();
    for seed in 0..36u64 {
        let i = seed as usize;
        let cards = [13, 13, 7, 4][i % 4];
        let params = json!({
            "players": 2 + i % 3,
            "num_cards": cards,
            "points_order": orders[i / 3 % 3],
            "returns_type": returns[i / 9 % 3],
            "imp_info": i % 2 == 1,
        });
        let (bids, end) = random_game(&params, seed);
        out.push((params, seed, bids, end));
    }
    out
}

fn compare_game(params: &Value, seed: u64, ours: &Goofspiel, theirs: &Value) {
    let o = ours.outcome().expect("over");
    assert_eq!(theirs["deck"], json!(ours.deck()), "{params} seed {seed}");
    assert_eq!(
        theirs["points"],
        json!(o.scores),
        "{params} seed {seed}: points"
    );
    let returns: Vec<f64> = serde_json::from_value(theirs["returns"].clone())
        .unwrap_or_else(|_| panic!("{params} seed {seed}: OpenSpiel's game is not over"));
    assert_eq!(
        o.places,
        places_from_returns(&returns),
        "{params} seed {seed}: {returns:?}"
    );
    let s = ours.settings();
    let simultaneous = usize::from(s.rounds) - usize::from(s.rounds == s.cards);
    assert_eq!(
        theirs["rounds"],
        json!(simultaneous),
        "{params} seed {seed}"
    );
}
