//! Overhead of the Saiblo path: the same 16 x 16 Reversi game (instant C bots, greedy vs
//! first legal move, from `bots/saiblo/c`) under the in-process referee (`game::play`, line
//! protocol) and under `arbiter judge` + `arbiter logic` (Saiblo framing, JSON, an extra
//! process hop per message). Prints the mean wall time per game and the ratio (bar: <= 2x).
//!
//! Run: `cargo bench -p arbiter --bench saiblo`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use arbiter_engine::any::GameConfig;
use arbiter_engine::replay::Replay;
use arbiter_engine::reversi;
use arbiter_match::game::{self, BotSpec, GameLimits, GameSpec, Seats};
use arbiter_match::protocol::ProtocolKind;
use arbiter_saiblo::judge::{judge, JudgeSpec};
use arbiter_sandbox::Containment;

const GAMES: usize = 10;

fn build_bot(dir: &Path) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots/saiblo/c");
    let exe = dir.join("reversi_bot");
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(src.join("reversi_bot.c"))
        .arg(src.join("saiblo.c"))
        .status()
        .expect("cc is needed");
    assert!(status.success(), "cannot compile the C bot");
    exe
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = build_bot(dir.path());
    let containment = Containment::detect();
    let config = GameConfig::Reversi(reversi::Config { size: 16 });
    let strategies = ["greedy", "first"];

    let spec = GameSpec {
        limits: GameLimits::default_for(&config),
        config,
        opening: Vec::new(),
        event: None,
        seed: None,
        max_plies: game::MAX_PLIES,
    };
    let bots = strategies.map(|s| BotSpec {
        name: s.into(),
        command: format!("{} --lines {s}", bot.display()),
        protocol: ProtocolKind::Reversi,
        working_dir: None,
        sees: None,
    });
    let seats = Seats {
        cores: vec![None, None],
        scratch_root: dir.path().join("scratch"),
    };
    let judge_spec = JudgeSpec {
        logic: format!("{} logic reversi --size 16", env!("CARGO_BIN_EXE_arbiter")),
        ais: strategies
            .iter()
            .map(|s| format!("{} {s}", bot.display()))
            .collect(),
        replay: dir.path().join("replay.json"),
        config: serde_json::json!({}),
        memory_bytes: Some(350 << 20),
        tolerance: Duration::from_millis(30),
        logic_timeout: Duration::from_secs(30),
        cores: Vec::new(),
    };

    let mut local = Duration::ZERO;
    let mut remote = Duration::ZERO;
    let mut plies = 0;
    // Interleaved, so that machine load affects both alike; one warm-up round first.
    for round in 0..=GAMES {
        let t = Instant::now();
        let a = game::play(&spec, &[&bots[0], &bots[1]], &seats, &containment).replay;
        let dl = t.elapsed();
        let t = Instant::now();
        judge(&judge_spec, &containment).expect("judge ran");
        let dr = t.elapsed();
        let text = std::fs::read_to_string(&judge_spec.replay).expect("replay");
        let (b, _) = Replay::read(&text).expect("valid replay");
        let moves = |r: &Replay| r.moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>();
        assert_eq!(moves(&a), moves(&b), "the same game both ways");
        if round > 0 {
            local += dl;
            remote += dr;
            plies = a.moves.len();
        }
    }
    let per = |d: Duration| d.as_secs_f64() * 1000.0 / GAMES as f64;
    let (l, r) = (per(local), per(remote));
    println!("16x16 reversi, greedy vs first, {plies} plies, {GAMES} games each way");
    println!(
        "in-process referee : {l:8.2} ms/game  ({:.1} us/ply)",
        l * 1000.0 / plies as f64
    );
    println!(
        "judge + logic      : {r:8.2} ms/game  ({:.1} us/ply)",
        r * 1000.0 / plies as f64
    );
    println!(
        "ratio judge+logic / in-process = {:.2} (bar: <= 2.00)",
        r / l
    );
}
