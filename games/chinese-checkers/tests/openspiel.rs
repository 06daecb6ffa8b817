//! OpenSpiel's `chinese_checkers` against ours: the same holes and start corners for 2, 3, 4
//! and 6 seats, the same perft counts (OpenSpiel counted by turns: its jump chains are several
//! actions, ours one move), and whole games played in both with the same legal moves at every
//! turn, the same end and the same winner. Runs `openspiel/perft.py`; without `pyspiel`
//! (`pip install open-spiel==2.0.2`) it says why and passes, unless
//! `ARBITER_REQUIRE_OPENSPIEL=1`.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arbiter_game::{Game, Turn};
use game_chinese_checkers::board::{CELLS, STAR};
use game_chinese_checkers::moves::EMPTY;
use game_chinese_checkers::{ChineseCheckers, Move};
use serde_json::{json, Value};

/// The script's answers, one per job; `None` when OpenSpiel is missing and not required.
fn openspiel(jobs: &[String]) -> Option<Vec<Value>> {
    let have = Command::new("python3")
        .args(["-c", "import pyspiel"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !have {
        let why = "python3 cannot import pyspiel (pip install open-spiel==2.0.2)";
        assert!(
            std::env::var("ARBITER_REQUIRE_OPENSPIEL").as_deref() != Ok("1"),
            "{why}, and ARBITER_REQUIRE_OPENSPIEL=1"
        );
        eprintln!("skipped: {why}");
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("openspiel/perft.py");
    let mut child = Command::new("python3")
        .arg(script)
        .args(jobs)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut out = String::new();
    let mut stdout = child.stdout.take().expect("piped");
    // A hung script must fail the test, not hold the suite.
    let deadline = Instant::now() + Duration::from_secs(180);
    let reader = std::thread::spawn(move || stdout.read_to_string(&mut out).map(|_| out));
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("perft.py took over 180 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(child.wait().expect("wait").success(), "perft.py failed");
    let text = reader.join().expect("reader").expect("utf-8 output");
    let answers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(answers.len(), jobs.len(), "one answer per job");
    Some(answers)
}

fn game(players: usize, max_moves: usize) -> ChineseCheckers {
    ChineseCheckers::new(&json!({"players": players, "max_moves": max_moves}), 0).unwrap()
}

/// Our legal moves by OpenSpiel's hole numbers, sorted as the script sorts them.
fn legal_text(g: &ChineseCheckers) -> Vec<String> {
    let seat = g.turn().seat().expect("a seat to move");
    let mut texts: Vec<String> = arbiter_game::legal(g, seat)
        .iter()
        .map(|m| match *m {
            Move::Go { from, to } => format!("{from}-{to}"),
            Move::Pass => "pass".into(),
        })
        .collect();
    texts.sort();
    texts
}

fn from_text(text: &str) -> Move {
    match text.split_once('-') {
        Some((a, b)) => Move::Go {
            from: a.parse().unwrap(),
            to: b.parse().unwrap(),
        },
        None => Move::Pass,
    }
}

#[test]
fn the_holes_the_start_corners_and_perft_match_openspiel_for_2_3_4_and_6_seats() {
    const DEPTH: usize = 4;
    let seats = [2, 3, 4, 6];
    let mut jobs: Vec<String> = seats.iter().map(|n| format!("start:{n}")).collect();
    jobs.extend(seats.iter().map(|n| format!("perft:{n}:{DEPTH}")));
    let Some(answers) = openspiel(&jobs) else {
        return;
    };
    for (k, &n) in seats.iter().enumerate() {
        let start = &answers[k];
        // OpenSpiel's board text: row, and column in half holes. Ours from the axial place.
        let places: Vec<Value> = (0..CELLS as u8)
            .map(|c| {
                let (q, r) = STAR.axial[usize::from(c)];
                json!([r + 8, 2 * q + r + 12])
            })
            .collect();
        assert_eq!(start["places"], json!(places), "the holes' order");
        let g = game(n, 1000);
        let holders: Vec<i64> = g
            .holes()
            .iter()
            .map(|&x| if x == EMPTY { -1 } else { i64::from(x) })
            .collect();
        assert_eq!(start["holders"], json!(holders), "{n} seats' start corners");
        let ours: Vec<u64> = (1..=DEPTH as u32)
            .map(|d| arbiter_game::perft(&g, d))
            .collect();
        let theirs = &answers[seats.len() + k]["counts"];
        assert_eq!(
            *theirs,
            json!(ours),
            "perft of {n} seats, depths 1 to {DEPTH}"
        );
    }
}

/// Replays OpenSpiel's game in ours, turn by turn: the same mover, the same legal moves, and
/// at the end the same winner (or none at the move bound) after as many turns.
fn replay(answer: &Value) {
    let n = answer["game"].as_u64().unwrap() as usize;
    let max = answer["max_moves"].as_u64().unwrap() as usize;
    let seed = &answer["seed"];
    let mut g = game(n, max);
    let turns = answer["turns"].as_array().unwrap();
    for (t, turn) in turns.iter().enumerate() {
        let player = turn["player"].as_u64().unwrap() as usize;
        assert_eq!(
            g.turn(),
            Turn::Seat(player),
            "{n} seats, seed {seed}, turn {t}"
        );
        let mut theirs: Vec<&str> = turn["legal"].as_str().unwrap().split(' ').collect();
        theirs.sort_unstable();
        assert_eq!(legal_text(&g), theirs, "{n} seats, seed {seed}, turn {t}");
        let mv = from_text(turn["played"].as_str().unwrap());
        g.play(&mv).unwrap();
    }
    assert!(
        g.turn().is_over(),
        "{n} seats, seed {seed}: OpenSpiel's game is over"
    );
    assert_eq!(g.turns() as usize, turns.len());
    let returns: Vec<f64> = serde_json::from_value(answer["returns"].clone()).unwrap();
    let o = g.outcome().unwrap();
    assert!(o.check(n).is_ok(), "{o:?}");
    match returns.iter().position(|&r| r == (n - 1) as f64) {
        Some(w) => {
            assert!(returns
                .iter()
                .enumerate()
                .all(|(s, &r)| s == w || r == -1.0));
            assert_eq!(o.winner(), Some(w), "{n} seats, seed {seed}: {o:?}");
            assert_eq!(o.scores[w], 10);
            assert!(o.reason.contains("all ten pieces home"), "{}", o.reason);
        }
        None => {
            assert!(returns.iter().all(|&r| r == 0.0), "{returns:?}");
            assert_eq!(turns.len(), max, "no winner: the bound was reached");
            assert!(o.reason.starts_with("the move limit"), "{}", o.reason);
        }
    }
}

#[test]
fn whole_games_played_in_both_agree_turn_by_turn_and_at_the_end() {
    // Mostly greedy games (a seat brings a piece nearest its target tip, one turn in ten at
    // random) end with a winner; random ones run into a short move bound.
    let jobs: Vec<String> = [
        "game:2:1:1000:0.1",
        "game:2:2:1000:0.1",
        "game:3:1:1000:0.1",
        "game:4:1:1000:0.1",
        "game:6:1:1000:0.1",
        "game:2:7:300:1",
        "game:6:7:120:1",
    ]
    .map(String::from)
    .to_vec();
    let Some(answers) = openspiel(&jobs) else {
        return;
    };
    let mut winners = 0;
    for answer in &answers {
        replay(answer);
        let returns = answer["returns"].as_array().unwrap();
        winners += usize::from(returns.iter().any(|r| r.as_f64() > Some(0.0)));
    }
    assert!(
        winners >= 4,
        "the greedy games end with a winner: {winners}"
    );
}
