//! `arbiter judge` with a third-party logic written only from the Saiblo manual
//! (`tests/saiblo/rps_logic.py`, rock-paper-scissors) and its AIs, and with broken logics:
//! every protocol error ends the run with a clear message and a non-zero exit, never a hang.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn arbiter() -> &'static str {
    env!("CARGO_BIN_EXE_arbiter")
}

/// Runs a command, failing the test if it takes longer than `limit` (a hang).
fn run_bounded(mut cmd: Command, limit: Duration) -> Output {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let t_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the command hung for more than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
    }
}

fn judge(logic: &str, ais: &[&str], config: &str) -> Output {
    let mut cmd = Command::new(arbiter());
    cmd.current_dir(root())
        .args(["judge", "--json", "--logic", logic, "--config", config]);
    for a in ais {
        cmd.args(["--ai", a]);
    }
    run_bounded(cmd, Duration::from_secs(60))
}

fn rps(a: &str, b: &str, config: &str) -> Value {
    let out = judge(
        "python3 tests/saiblo/rps_logic.py",
        &[
            &format!("python3 tests/saiblo/rps_ai.py {a}"),
            &format!("python3 tests/saiblo/rps_ai.py {b}"),
        ],
        config,
    );
    assert!(
        out.status.success(),
        "judge failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("--json output")
}

/// Naive rock-paper-scissors scoring, independent of the logic.
fn expected_scores(a: &[&str], b: &[&str]) -> [u64; 2] {
    let beats = |x: &str, y: &str| {
        matches!(
            (x, y),
            ("rock", "scissors") | ("paper", "rock") | ("scissors", "paper")
        )
    };
    let mut s = [0, 0];
    for (x, y) in a.iter().zip(b) {
        s[0] += u64::from(beats(x, y));
        s[1] += u64::from(beats(y, x));
    }
    s
}

#[test]
fn third_party_logic_plays_a_normal_game() {
    let v = rps("rock", "cycle", r#"{"rounds": 5}"#);
    let cycle = ["rock", "paper", "scissors", "rock", "paper"];
    let s = expected_scores(&["rock"; 5], &cycle);
    assert_eq!(v["scores"]["0"], s[0]);
    assert_eq!(v["scores"]["1"], s[1]);
    assert_eq!(v["end_state"], serde_json::json!(["OK", "OK"]));
    assert_eq!(v["watch"], 5, "one watch message per round");
    assert_eq!(v["errors"].as_array().unwrap().len(), 0);
}

#[test]
fn timeouts_are_reported_as_error_1() {
    let v = rps("rock", "sleep", r#"{"rounds": 2, "time": 0.3}"#);
    assert_eq!(v["end_state"][1], "TLE");
    assert_eq!(v["judged_state"][1], "TLE");
    let e = &v["errors"][0];
    assert_eq!(
        (e["player"].as_u64(), e["error"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(e["state"], 1, "the round whose clock ran out");
    assert_eq!(v["scores"]["0"], 2, "the opponent forfeits: rounds points");
}

#[test]
fn crashes_are_reported_as_error_0() {
    let v = rps("crash", "paper", r#"{"rounds": 2}"#);
    assert_eq!(v["end_state"][0], "RE");
    let e = &v["errors"][0];
    assert_eq!(
        (e["player"].as_u64(), e["error"].as_u64()),
        (Some(0), Some(0))
    );
    assert!(e["error_log"].as_str().unwrap().contains("code 3"), "{e}");
}

#[test]
fn long_messages_are_reported_as_error_2() {
    let v = rps("rock", "big", r#"{"rounds": 2}"#);
    assert_eq!(v["end_state"][1], "OLE");
    let e = &v["errors"][0];
    assert_eq!(
        (e["player"].as_u64(), e["error"].as_u64()),
        (Some(1), Some(2))
    );
    assert!(e["error_log"].as_str().unwrap().contains("limit 64"), "{e}");
}

#[test]
fn the_logic_overrides_end_states_with_ia() {
    let v = rps("rock", "bad", r#"{"rounds": 2}"#);
    assert_eq!(v["end_state"], serde_json::json!(["OK", "IA"]));
    assert_eq!(
        v["judged_state"],
        serde_json::json!(["OK", "OK"]),
        "the judger itself saw nothing wrong"
    );
}

#[test]
fn request_end_state_reports_a_crash_after_the_last_message() {
    // The AI answers every round, then exits with code 5 when told the game is over.
    let v = rps("paper", "crash-after", r#"{"rounds": 2}"#);
    assert_eq!(v["scores"]["0"], 2);
    assert_eq!(v["end_state"], serde_json::json!(["OK", "RE"]));
}

fn clock(second_state: u32) -> Value {
    let out = judge(
        &format!("python3 tests/saiblo/clock_logic.py {second_state}"),
        &[
            "python3 tests/saiblo/rps_ai.py slow",
            "python3 tests/saiblo/rps_ai.py rock",
        ],
        "{}",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn an_equal_state_keeps_the_clock_running() {
    // The AI answers 0.8 s after round 1; the second round (same state) came at 0.6 s.
    let v = clock(1);
    let t = v["scores"]["0"].as_u64().unwrap();
    assert!(t >= 750, "time counted from round 1: {t} ms");
    // No end_state from the logic: the judger's own states are the result.
    assert_eq!(v["end_state"], serde_json::json!(["OK", "OK"]));
}

#[test]
fn a_larger_state_restarts_the_clock() {
    let v = clock(2);
    let t = v["scores"]["0"].as_u64().unwrap();
    assert!(t < 700, "time counted from round 2 (0.6 s later): {t} ms");
}

#[test]
fn unsolicited_messages_are_dropped_not_taken_as_answers() {
    let v = rps("rock", "chatty", r#"{"rounds": 4}"#);
    assert_eq!(v["end_state"], serde_json::json!(["OK", "OK"]));
    assert_eq!(v["scores"]["1"], 4, "paper beats rock every round");
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains("not listened to"), "{warnings}");
}

#[test]
fn ai_that_cannot_start_is_type_0() {
    let logic = r#"python3 -c "
import json,struct,sys
n=struct.unpack('>I',sys.stdin.buffer.read(4))[0]
init=json.loads(sys.stdin.buffer.read(n))
s=json.dumps({'0':0,'1':0})
b=json.dumps({'state':-1,'end_info':s,'end_state':json.dumps([str(t) for t in init['player_list']])}).encode()
sys.stdout.buffer.write(struct.pack('>Ii',len(b),-1)+b);sys.stdout.buffer.flush()
""#;
    let out = judge(
        logic,
        &["/nonexistent/ai", "python3 tests/saiblo/rps_ai.py rock"],
        "{}",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The logic echoed player_list as its end states.
    assert_eq!(v["end_state"], serde_json::json!(["0", "1"]));
}

/// A logic that writes `python` bytes after reading init.
fn broken_logic(python: &str) -> String {
    format!(
        "python3 -c \"import json,struct,sys,time\nn=struct.unpack('>I',sys.stdin.buffer.read(4))[0]\nsys.stdin.buffer.read(n)\nw=sys.stdout.buffer\n{python}\nw.flush()\ntime.sleep(0.2)\""
    )
}

fn judge_fails(python: &str, expect: &str) {
    let out = judge(
        &broken_logic(python),
        &[
            "python3 tests/saiblo/rps_ai.py rock",
            "python3 tests/saiblo/rps_ai.py rock",
        ],
        "{}",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "should fail: {python}");
    assert!(err.contains(expect), "expected {expect:?} in: {err}");
}

#[test]
fn unframed_text_is_a_bad_length() {
    judge_fails(r#"w.write(b'{\"state\":0}')"#, "bad frame length");
}

#[test]
fn a_truncated_body_is_reported() {
    judge_fails(
        "w.write(struct.pack('>Ii',100,-1)+b'{}')",
        "truncated frame body",
    );
}

#[test]
fn a_truncated_header_is_reported() {
    judge_fails(
        "w.write(b'\\\\x00\\\\x00\\\\x00')",
        "truncated frame header",
    );
}

#[test]
fn non_json_is_reported() {
    judge_fails("w.write(struct.pack('>Ii',5,-1)+b'hello')", "not JSON");
}

#[test]
fn unknown_messages_and_targets_are_reported() {
    judge_fails(
        "b=json.dumps({'hello':1}).encode();w.write(struct.pack('>Ii',len(b),-1)+b)",
        "unknown message",
    );
    judge_fails("w.write(struct.pack('>Ii',2,7)+b'hi')", "names AI 7");
    judge_fails(
        "w.write(struct.pack('>Ii',2,-5)+b'hi')",
        "bad frame target -5",
    );
}

#[test]
fn a_logic_that_stops_without_the_end_message() {
    judge_fails("pass", "without sending the end message");
}

#[test]
fn a_silent_logic_times_out_instead_of_hanging() {
    let mut cmd = Command::new(arbiter());
    cmd.current_dir(root()).args([
        "judge",
        "--logic",
        "python3 -c 'import time; time.sleep(60)'",
        "--ai",
        "python3 tests/saiblo/rps_ai.py rock",
        "--logic-timeout",
        "1",
    ]);
    let t = Instant::now();
    let out = run_bounded(cmd, Duration::from_secs(20));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("sent nothing for 1 s"), "{err}");
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "the logic's group was killed"
    );
}

#[test]
fn memory_kills_are_run_errors_with_mle() {
    let mut cmd = Command::new(arbiter());
    cmd.current_dir(root()).args([
        "judge",
        "--json",
        "--memory",
        "100",
        "--logic",
        "python3 tests/saiblo/rps_logic.py",
        "--ai",
        "python3 tests/saiblo/rps_ai.py rock",
        "--ai",
        "python3 tests/saiblo/rps_ai.py hog",
    ]);
    let out = run_bounded(cmd, Duration::from_secs(60));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["judged_state"][1], "MLE");
    let e = &v["errors"][0];
    assert_eq!(
        (e["player"].as_u64(), e["error"].as_u64()),
        (Some(1), Some(0))
    );
    assert!(e["error_log"].as_str().unwrap().contains("memory"), "{e}");
}

#[test]
fn a_logic_that_cannot_start_is_a_clear_error() {
    let out = judge(
        "/nonexistent/logic --flag",
        &["python3 tests/saiblo/rps_ai.py rock"],
        "{}",
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot start the logic"), "{err}");
}

/// The Python SDK on hand-made bytes: 8-digit messages split into lines; DEBUG lines travel
/// with the next answer in one 4 + n frame; a bad header is an error, not a hang.
#[test]
fn python_sdk_reads_and_writes_the_conventions() {
    use std::io::Write;
    let script = r#"
import io, sys
sys.path.insert(0, 'bots/saiblo')
import saiblo_sdk
out = io.BytesIO()
lines = saiblo_sdk.Lines(saiblo_sdk.Saiblo(sys.stdin.buffer, out))
got = [lines.read_line() for _ in range(4)]
lines.write_line('DEBUG x')
lines.write_line('1 2')
sys.stdout.write(repr(got) + '\n' + out.getvalue().hex() + '\n')
try:
    saiblo_sdk.Saiblo(io.BytesIO(b'12ab'), out).receive()
except saiblo_sdk.SaibloError as e:
    sys.stdout.write('error: %s\n' % e)
"#;
    let mut child = Command::new("python3")
        .current_dir(root())
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"00000005TURN\n00000004a\nb\n00000000")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "['TURN', 'a', 'b', None]");
    // 4-byte length 12, then "DEBUG x\n1 2\n".
    let mut expected = vec![0u8, 0, 0, 12];
    expected.extend_from_slice(b"DEBUG x\n1 2\n");
    let hex: String = expected.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(lines[1], hex);
    assert!(lines[2].starts_with("error: bad message length"), "{text}");
}

/// A logic may send its end message and exit while the judger still has an AI's error to
/// tell it (the AI died right after its last message). The judger must still take the end
/// message, not fail on the closed pipe. Here the logic stops reading before the AI dies, so
/// the report always meets a closed pipe.
#[test]
fn a_logic_that_stopped_reading_still_ends_the_game() {
    let logic = broken_logic(
        "import os\nb=json.dumps({'state':1,'listen':[0],'player':[0],'content':['go']}).encode()\nw.write(struct.pack('>Ii',len(b),-1)+b);w.flush()\nos.close(0)\ntime.sleep(0.5)\nb=json.dumps({'state':-1,'end_info':json.dumps({'0':1,'1':2}),'end_state':json.dumps(['RE','OK'])}).encode()\nw.write(struct.pack('>Ii',len(b),-1)+b)",
    );
    let out = judge(
        &logic,
        &["python3 -c 'pass'", "python3 tests/saiblo/rps_ai.py rock"],
        "{}",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["end_state"], serde_json::json!(["RE", "OK"]));
    assert_eq!(v["scores"]["1"], 2);
}

/// `tests/saiblo/template_ai` behaves like Saiblo's public template AI SDK: it has no end of
/// game, and dies with a ValueError (exit code 1) when its input ends.
#[test]
fn the_template_style_ai_dies_at_the_end_of_its_input() {
    let out = Command::new("python3")
        .current_dir(root())
        .args(["tests/saiblo/template_ai/reversi_ai.py", "--size", "6"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ValueError"), "{err}");
}

/// An AI written like the template SDK plays a whole game without fault, then dies on the end
/// of its input when the judger ends it. That happens after the game: the judger's end state
/// is OK (as Saiblo's judger, which ends the AIs itself and does not count what follows).
#[test]
fn an_ai_that_dies_once_the_judger_ends_it_is_ok() {
    let template = "python3 tests/saiblo/template_ai/reversi_ai.py --size 6";
    let logic = format!("{} logic reversi --size 6", arbiter());
    let out = judge(&logic, &[template, template], "{}");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["judged_state"], serde_json::json!(["OK", "OK"]), "{v}");
    assert_eq!(v["end_state"], serde_json::json!(["OK", "OK"]), "{v}");
    assert_eq!(v["errors"], serde_json::json!([]));
    let total = v["scores"]["0"].as_u64().unwrap() + v["scores"]["1"].as_u64().unwrap();
    assert_eq!(total, 2, "a finished game: a win or a draw, {v}");
}
