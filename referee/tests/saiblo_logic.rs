//! `arbiter logic` driven by a scripted judger: the exact shapes it sends (round config,
//! rounds with listen/player/content, forwards to AIs, watch, request_end_state, end with IA),
//! the replay written before the end message, a judger that never answers request_end_state,
//! and clear failures on malformed judger input.

use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use arbiter_engine::replay::{Reason, Replay};
use arbiter_saiblo::frame;
use serde_json::{json, Value};

struct Logic {
    child: Child,
    stdin: Option<ChildStdin>,
    frames: Receiver<Option<(i32, Vec<u8>)>>,
}

impl Logic {
    fn start(args: &[&str]) -> Logic {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("logic")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn arbiter logic");
        let stdin = child.stdin.take();
        let mut out = child.stdout.take().unwrap();
        let (tx, frames) = mpsc::channel();
        std::thread::spawn(move || loop {
            let f = frame::read_logic_frame(&mut out, 1 << 20).ok().flatten();
            let end = f.is_none();
            if tx.send(f).is_err() || end {
                return;
            }
        });
        Logic {
            child,
            stdin,
            frames,
        }
    }

    fn send(&mut self, v: Value) {
        self.send_raw(&frame::encode_frame(v.to_string().as_bytes()));
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let s = self.stdin.as_mut().unwrap();
        s.write_all(bytes).unwrap();
        s.flush().unwrap();
    }

    /// The next frame: (target, body text).
    fn next(&self) -> (i32, String) {
        let f = self
            .frames
            .recv_timeout(Duration::from_secs(20))
            .expect("the logic hung")
            .expect("the logic ended its output");
        (f.0, String::from_utf8(f.1).unwrap())
    }

    fn next_json(&self) -> Value {
        let (t, body) = self.next();
        assert_eq!(
            t, -1,
            "expected a message for the judger, got {body:?} for {t}"
        );
        serde_json::from_str(&body).unwrap()
    }

    /// Skips watch messages.
    fn next_not_watch(&self) -> Value {
        loop {
            let v = self.next_json();
            if v.get("watch").is_none() {
                return v;
            }
        }
    }

    fn finish(mut self) -> (i32, String) {
        self.stdin = None;
        let out = self.child.wait_with_output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

fn init(list: &[i64], replay: &Path) -> Value {
    json!({"player_list": list, "player_num": list.len(), "config": {"player_names": ["alice", "bob"]},
           "replay": replay.to_str().unwrap()})
}

#[test]
fn a_short_game_message_by_message() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let mut l = Logic::start(&["reversi", "--size", "4", "--move-time", "1500", "--watch"]);
    l.send(init(&[1, 1], &replay));
    assert_eq!(
        l.next_json(),
        json!({"state": 0, "time": 1.5, "length": 2048})
    );
    // Spectators then get the game (docs/live.md's contents in watch messages).
    let w = l.next_json();
    let start: Value = serde_json::from_str(w["watch"].as_str().unwrap()).unwrap();
    assert_eq!(start["type"], "start");
    assert_eq!(
        start["replay"]["game"],
        json!({"name": "reversi", "size": 4})
    );
    assert_eq!(start["replay"]["players"][1]["name"], "bob");
    assert_eq!(
        l.next_json(),
        json!({"state": 1, "listen": [0], "player": [0], "content": ["00000008START 1\n"]})
    );
    l.send(json!({"player": 0, "content": "OK", "time": 3}));
    assert_eq!(
        l.next_json(),
        json!({"state": 2, "listen": [1], "player": [1], "content": ["00000008START 2\n"]})
    );
    l.send(json!({"player": 1, "content": "DEBUG hi\nOK\n", "time": 4}));
    assert_eq!(
        l.next_json(),
        json!({"state": 3, "listen": [0], "player": [0], "content": ["00000005TURN\n"]})
    );
    // Black plays (0,1) = b1 on 4 x 4: legal (flips (1,1)).
    l.send(json!({"player": 0, "content": "DEBUG thinking\n0 1", "time": 12}));
    let w = l.next_json();
    let watched: Value = serde_json::from_str(w["watch"].as_str().unwrap()).unwrap();
    assert_eq!(watched["type"], "move");
    assert_eq!(watched["move"]["seat"], 0);
    assert_eq!(watched["move"]["move"], "b1");
    assert!(
        watched["move"].get("log").is_none(),
        "DEBUG output is not sent live"
    );
    assert_eq!(l.next(), (1, "00000010PLACE 0 1\n".to_string()));
    assert_eq!(
        l.next_json(),
        json!({"state": 4, "listen": [1], "player": [1], "content": ["00000005TURN\n"]})
    );
    // White answers an occupied square: illegal action.
    l.send(json!({"player": 1, "content": "1 1", "time": 2}));
    let w = l.next_json();
    let end: Value = serde_json::from_str(w["watch"].as_str().unwrap()).unwrap();
    assert_eq!(end["type"], "end");
    assert_eq!(end["result"]["reason"]["kind"], "illegal_move");
    assert_eq!(l.next(), (0, "00000006END 1\n".to_string()));
    assert_eq!(l.next(), (1, "00000006END 2\n".to_string()));
    assert_eq!(l.next_json(), json!({"action": "request_end_state"}));
    l.send(json!({"end_state": "[\"OK\", \"OK\"]"}));
    let end = l.next_json();
    // The replay exists before the end message arrives.
    let text = std::fs::read_to_string(&replay).expect("replay written before the end");
    assert_eq!(end["state"], -1);
    let info: Value = serde_json::from_str(end["end_info"].as_str().unwrap()).unwrap();
    assert_eq!(info, json!({"0": 2, "1": 0}));
    assert!(
        end["end_info"].as_str().unwrap().find("\"0\"")
            < end["end_info"].as_str().unwrap().find("\"1\"")
    );
    let states: Vec<String> = serde_json::from_str(end["end_state"].as_str().unwrap()).unwrap();
    assert_eq!(states, ["OK", "IA"]);
    let (r, _) = Replay::read(&text).expect("a valid replay");
    assert_eq!(r.players[0].name, "alice");
    assert_eq!(r.moves.len(), 1);
    assert_eq!(r.moves[0].log.as_deref(), Some("thinking\n"));
    assert_eq!(r.moves[0].time_ms, Some(12.0));
    assert_eq!(
        r.result.reason.to_string(),
        "illegal move: you sent \"1 1\" (b2), which is already occupied"
    );
    assert_eq!(r.failure.as_ref().and_then(|f| f.time_ms), Some(2.0));
    assert_eq!(l.finish().0, 0);
}

#[test]
fn errors_reported_by_the_judger_decide_the_game() {
    for (error, state) in [(0, "RE"), (1, "TLE"), (2, "IA")] {
        let dir = tempfile::tempdir().unwrap();
        let replay = dir.path().join("r.json");
        let mut l = Logic::start(&["reversi", "--size", "4"]);
        l.send(init(&[1, 1], &replay));
        l.next_json(); // config
        l.next_json(); // START 1
        l.send(json!({"player": 0, "content": "OK", "time": 1}));
        l.next_json(); // START 2
        l.send(json!({"player": 1, "content": "OK", "time": 1}));
        l.next_json(); // TURN to black
        let report = json!({"player": 0, "state": 3, "error": error, "error_log": "x"}).to_string();
        l.send(json!({"player": -1, "content": report}));
        l.next(); // END to 0
        l.next(); // END to 1
        assert_eq!(l.next_json(), json!({"action": "request_end_state"}));
        l.send(json!({"end_state": "[\"TLE\", \"OK\"]"}));
        let end = l.next_not_watch();
        let states: Vec<String> = serde_json::from_str(end["end_state"].as_str().unwrap()).unwrap();
        assert_eq!(states, [state, "OK"], "error {error}");
        let info: Value = serde_json::from_str(end["end_info"].as_str().unwrap()).unwrap();
        assert_eq!(info, json!({"0": 0, "1": 2}));
        assert_eq!(l.finish().0, 0);
    }
}

#[test]
fn a_player_that_did_not_start_loses() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let mut l = Logic::start(&["reversi", "--size", "6"]);
    l.send(init(&[1, 0], &replay));
    l.next_json(); // config
    assert_eq!(l.next(), (0, "00000006END 1\n".to_string()));
    assert_eq!(l.next_json(), json!({"action": "request_end_state"}));
    l.send(json!({"end_state": "[\"OK\", \"RE\"]"}));
    let end = l.next_json();
    let states: Vec<String> = serde_json::from_str(end["end_state"].as_str().unwrap()).unwrap();
    assert_eq!(states, ["OK", "RE"]);
    let (r, _) = Replay::read(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    assert!(matches!(r.result.reason, Reason::FailedToStart { .. }));
    assert_eq!(l.finish().0, 0);
}

fn fails_with(bytes: &[u8], expect: &str) {
    let mut l = Logic::start(&["reversi"]);
    l.send_raw(bytes);
    let (code, err) = l.finish();
    assert_ne!(code, 0, "should fail on {bytes:?}");
    assert!(err.contains(expect), "expected {expect:?} in {err:?}");
}

#[test]
fn malformed_judger_input_is_a_clear_error() {
    fails_with(b"{\"player_list\":[1,1]}", "bad frame length");
    fails_with(&[0, 0, 0, 50, b'{'], "truncated frame body");
    fails_with(&[0, 0], "truncated frame header");
    fails_with(&frame::encode_frame(b"not json"), "not JSON");
    fails_with(
        &frame::encode_frame(br#"{"player":0,"content":"x","time":1}"#),
        "must be init",
    );
    fails_with(b"", "closed the logic's input");
    fails_with(
        &frame::encode_frame(br#"{"player_list":[1,1,1],"player_num":3,"config":{},"replay":""}"#),
        "the judger has 3 AIs but the game has 2 seats",
    );
}

#[test]
fn duel_lines_and_a_malformed_answer() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let mut l = Logic::start(&["duel2048", "--seed", "7", "--rounds", "3"]);
    l.send(init(&[1, 1], &replay));
    assert_eq!(
        l.next_json(),
        json!({"state": 0, "time": 5.0, "length": 2048})
    );
    let start = l.next_json();
    let text = start["content"][0].as_str().unwrap().to_string();
    // 8-digit length, then START seat rounds and the RANDOM line with 3 values.
    let (len, body) = text.split_at(8);
    assert_eq!(len.parse::<usize>().unwrap(), body.len());
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines[0], "START 0 3");
    let values: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(values[0], "RANDOM");
    assert_eq!(values.len(), 4);
    assert!(values[1..].iter().all(|v| v.parse::<u64>().is_ok()));
    l.send(json!({"player": 0, "content": "OK", "time": 1}));
    let start2 = l.next_json();
    assert!(start2["content"][0]
        .as_str()
        .unwrap()
        .contains("START 1 3\n"));
    l.send(json!({"player": 1, "content": "OK", "time": 1}));
    // The game clock (5 s in total) is now below the move time: the round time shrinks. A
    // round config always has state 0 (the public judger takes any other state for a round).
    assert_eq!(
        l.next_json(),
        json!({"state": 0, "time": 4.999, "length": 2048})
    );
    let ask = l.next_json();
    assert_eq!(ask["listen"], json!([0]));
    let ask_text = ask["content"][0].as_str().unwrap();
    assert!(ask_text[8..].starts_with("PLACE "), "{ask_text}");
    assert!(
        ask_text.ends_with(" 4999\n"),
        "game time left after 1 ms: {ask_text}"
    );
    l.send(json!({"player": 0, "content": "sideways", "time": 1}));
    l.next(); // END
    l.next(); // END
    assert_eq!(l.next_json(), json!({"action": "request_end_state"}));
    l.send(json!({"end_state": "[\"OK\", \"OK\"]"}));
    let end = l.next_json();
    let states: Vec<String> = serde_json::from_str(end["end_state"].as_str().unwrap()).unwrap();
    assert_eq!(states, ["IA", "OK"]);
    let (r, _) = Replay::read(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    assert!(matches!(r.result.reason, Reason::MalformedOutput { .. }));
    assert_eq!(l.finish().0, 0);
}

/// The RANDOM line the duel logic sends seat 0 for a given command line and init config.
fn duel_random_line(args: &[&str], config: Value) -> String {
    let mut l = Logic::start(args);
    l.send(json!({"player_list": [1, 1], "player_num": 2, "config": config, "replay": ""}));
    l.next_json(); // round config
    let start = l.next_json();
    let text = start["content"][0].as_str().unwrap().to_string();
    drop(l);
    text.lines().nth(1).unwrap().to_string()
}

#[test]
fn the_duel_takes_saiblos_random_seed_unless_told_otherwise() {
    let by_flag = duel_random_line(&["duel2048", "--rounds", "20", "--seed", "42"], json!({}));
    let by_init = duel_random_line(&["duel2048", "--rounds", "20"], json!({"random_seed": 42}));
    let other = duel_random_line(&["duel2048", "--rounds", "20"], json!({"random_seed": 43}));
    let flag_wins = duel_random_line(
        &["duel2048", "--rounds", "20", "--seed", "42"],
        json!({"random_seed": 43}),
    );
    assert_eq!(by_flag, by_init);
    assert_ne!(by_init, other);
    assert_eq!(flag_wins, by_flag);
}

/// Plays a 4 x 4 game up to white's illegal answer (as `a_short_game_message_by_message`),
/// checking that no watch message comes unless asked for. Returns at the END forwards.
fn play_to_the_end(l: &mut Logic, replay: &Path) {
    l.send(init(&[1, 1], replay));
    l.next_json(); // config
    l.next_json(); // START 1
    l.send(json!({"player": 0, "content": "OK", "time": 3}));
    l.next_json(); // START 2
    l.send(json!({"player": 1, "content": "OK", "time": 4}));
    l.next_json(); // TURN
    l.send(json!({"player": 0, "content": "0 1", "time": 12}));
    // Straight to the forward and the next round: no watch message by default.
    assert_eq!(l.next(), (1, "00000010PLACE 0 1\n".to_string()));
    l.next_json(); // TURN
    l.send(json!({"player": 1, "content": "1 1", "time": 2.5}));
    assert_eq!(l.next(), (0, "00000006END 1\n".to_string()));
    assert_eq!(l.next(), (1, "00000006END 2\n".to_string()));
}

fn end_states(end: &Value) -> Vec<String> {
    assert_eq!(end["state"], -1, "{end}");
    serde_json::from_str(end["end_state"].as_str().unwrap()).unwrap()
}

/// Saiblo's public local judger never answers request_end_state: after its wait the logic
/// decides the end states itself, writes the replay and ends the game.
#[test]
fn a_judger_that_never_answers_request_end_state() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let mut l = Logic::start(&["reversi", "--size", "4", "--end-state-timeout", "300"]);
    play_to_the_end(&mut l, &replay);
    assert_eq!(l.next_json(), json!({"action": "request_end_state"}));
    let asked = std::time::Instant::now();
    let end = l.next_json();
    assert!(asked.elapsed() >= Duration::from_millis(250), "it waited");
    assert!(replay.exists(), "the replay comes before the end");
    assert_eq!(end_states(&end), ["OK", "IA"]);
    let (code, err) = l.finish();
    assert_eq!(code, 0);
    assert!(
        err.contains("did not answer request_end_state within 300 ms"),
        "{err}"
    );
}

/// A judger that closes the logic's input instead of answering: the game is still ended and
/// its replay written.
#[test]
fn a_judger_that_hangs_up_while_asked_for_end_states() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let mut l = Logic::start(&["reversi", "--size", "4"]);
    play_to_the_end(&mut l, &replay);
    assert_eq!(l.next_json(), json!({"action": "request_end_state"}));
    l.stdin = None;
    assert_eq!(end_states(&l.next_json()), ["OK", "IA"]);
    assert!(replay.exists());
    assert_eq!(l.finish().0, 0);
}

/// `--no-end-state-request`: the end comes right after the AIs are told; a late end_state
/// answer is not waited for.
#[test]
fn no_end_state_request() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("r.json");
    let mut l = Logic::start(&["reversi", "--size", "4", "--no-end-state-request"]);
    play_to_the_end(&mut l, &replay);
    assert_eq!(end_states(&l.next_json()), ["OK", "IA"]);
    assert!(replay.exists());
    let (code, err) = l.finish();
    assert_eq!((code, err.as_str()), (0, ""));
}
