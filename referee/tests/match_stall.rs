//! `arbiter match` on a machine that stalls: the referee's process is stopped (SIGSTOP) for
//! 2.5 s in the middle of a game of 1 s moves. The game is voided, not lost on time, played
//! again, and said so; the match ends as it does without the stall (docs/faults.md).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use arbiter_engine::replay::Replay;

/// The deterministic fixture bot, compiled into `dir`.
fn rbot(dir: &Path) -> String {
    let exe = dir.join("rbot");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tournament/rbot.c");
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "cc is needed");
    exe.display().to_string()
}

/// Plays two games of the fixture bot against itself (50 ms a move) into `out`; with
/// `stall`, the process is stopped that long after 0.8 s. Returns stderr and the JSON summary.
fn play(bot: &str, out: &Path, stall: Option<Duration>) -> (String, serde_json::Value) {
    let command = format!("{bot} 6 0 slow");
    let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "match", "reversi", &command, &command, "--size", "6", "--games", "2",
        ])
        .args(["--move-time", "1000", "--json", "--output"])
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter match");
    let helper = stall.map(|s| {
        let script = format!(
            "sleep 0.8; kill -STOP {pid}; sleep {}; kill -CONT {pid}",
            s.as_secs_f64(),
            pid = child.id()
        );
        Command::new("sh").args(["-c", &script]).spawn().unwrap()
    });
    let output = child.wait_with_output().unwrap();
    if let Some(mut h) = helper {
        assert!(h.wait().unwrap().success());
    }
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    let summary = serde_json::from_slice(&output.stdout).expect("the JSON summary");
    (stderr, summary)
}

/// Each game's winner, reason and length, from the replays in `out`.
fn games(out: &Path) -> Vec<(String, String, usize, Vec<String>)> {
    let mut files: Vec<_> = std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("summary.json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let (r, _) = Replay::read(&std::fs::read_to_string(p).unwrap()).unwrap();
            (
                format!("{:?}", r.result.winner),
                r.result.reason.to_string(),
                r.moves.len(),
                r.meta.voided,
            )
        })
        .collect()
}

#[test]
fn a_stalled_match_voids_the_game_plays_it_again_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = rbot(tmp.path());
    let (clean_err, _) = play(&bot, &tmp.path().join("clean"), None);
    assert!(!clean_err.contains("voided"), "{clean_err}");
    let (stderr, _) = play(
        &bot,
        &tmp.path().join("stalled"),
        Some(Duration::from_millis(2500)),
    );
    assert!(
        stderr.contains("game 1: voided: judging machine stalled 2.")
            && stderr.contains("; playing it again"),
        "{stderr}"
    );
    let clean = games(&tmp.path().join("clean"));
    let stalled = games(&tmp.path().join("stalled"));
    assert_eq!(clean.len(), 2);
    // The same games as without the stall; the replayed one says why it was played again.
    for (c, s) in clean.iter().zip(&stalled) {
        assert_eq!((&c.0, &c.1, c.2), (&s.0, &s.1, s.2));
        assert!(!s.1.contains("time"), "{}", s.1);
    }
    assert_eq!(stalled[0].3.len(), 1, "{:?}", stalled[0].3);
    assert!(stalled[0].3[0].starts_with("voided: judging machine stalled 2."));
    assert!(stalled[1].3.is_empty());
}
