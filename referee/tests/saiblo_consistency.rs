//! The same deterministic bots give the same game under the in-process referee
//! (`game::play`, line protocol) and under `arbiter judge` + `arbiter logic` (Saiblo): the same
//! moves, result and scores. Each bot is one Python program with both front ends
//! (`bots/saiblo/reversi_bot.py`, `bots/saiblo/gomoku_bot.py`: `--lines` or the Saiblo SDK).

use std::path::{Path, PathBuf};
use std::time::Duration;

use arbiter_engine::any::GameConfig;
use arbiter_engine::replay::Replay;
use arbiter_engine::{gomoku, reversi};
use arbiter_match::game::{self, BotSpec, GameLimits, GameSpec, Seats};
use arbiter_match::protocol::ProtocolKind;
use arbiter_saiblo::judge::{judge, JudgeSpec};
use arbiter_sandbox::Containment;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The game and its board size.
#[derive(Clone, Copy)]
enum Game {
    Reversi(u8),
    Gomoku(u8),
}

impl Game {
    fn config(self) -> GameConfig {
        match self {
            Game::Reversi(size) => GameConfig::Reversi(reversi::Config { size }),
            Game::Gomoku(size) => GameConfig::Gomoku(gomoku::Config {
                size,
                rule: gomoku::Rule::Freestyle,
            }),
        }
    }

    fn logic_args(self) -> String {
        match self {
            Game::Reversi(size) => format!("reversi --size {size}"),
            Game::Gomoku(size) => format!("gomoku --size {size}"),
        }
    }
}

fn bot_cmd(game: Game, strategy: &str, lines: bool) -> String {
    let front = if lines { "--lines " } else { "" };
    match game {
        Game::Reversi(size) => format!(
            "python3 {} {front}--size {size} {strategy}",
            root().join("bots/saiblo/reversi_bot.py").display()
        ),
        Game::Gomoku(_) => format!(
            "python3 {} {front}{strategy}",
            root().join("bots/saiblo/gomoku_bot.py").display()
        ),
    }
}

fn in_process(game: Game, opening: &[&str], a: &str, b: &str) -> Replay {
    let config = game.config();
    let spec = GameSpec {
        limits: GameLimits::default_for(&config),
        config,
        opening: opening.iter().map(|m| m.to_string()).collect(),
        event: None,
        seed: None,
        max_plies: arbiter_match::game::MAX_PLIES,
    };
    // Seed 001's protocol cannot carry an opening; reversi-board adds the BOARD line for it.
    let protocol = match (game, opening.is_empty()) {
        (Game::Reversi(_), false) => ProtocolKind::ReversiBoard,
        _ => ProtocolKind::default_for(&game.config()),
    };
    let bots = [a, b].map(|s| BotSpec {
        name: s.into(),
        command: bot_cmd(game, s, true),
        protocol,
        working_dir: None,
        sees: None,
    });
    let scratch = tempfile::tempdir().unwrap();
    let seats = Seats {
        cores: vec![None, None],
        scratch_root: scratch.path().to_path_buf(),
    };
    game::play(&spec, &[&bots[0], &bots[1]], &seats, &Containment::detect()).replay
}

fn saiblo(game: Game, opening: &[&str], a: &str, b: &str) -> (Replay, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.json");
    let opening_arg = if opening.is_empty() {
        String::new()
    } else {
        format!(" --opening '{}'", opening.join(" "))
    };
    let spec = JudgeSpec {
        logic: format!(
            "{} logic {}{opening_arg}",
            env!("CARGO_BIN_EXE_arbiter"),
            game.logic_args()
        ),
        ais: vec![bot_cmd(game, a, false), bot_cmd(game, b, false)],
        replay: replay.clone(),
        config: serde_json::json!({}),
        memory_bytes: Some(350 << 20),
        tolerance: Duration::from_millis(30),
        logic_timeout: Duration::from_secs(30),
        cores: Vec::new(),
    };
    let outcome = judge(&spec, &Containment::detect()).expect("judge ran");
    let text = std::fs::read_to_string(&replay).expect("the logic wrote the replay");
    let (r, _) = Replay::read(&text).expect("a valid replay");
    (r, outcome.end_state)
}

fn same_game(game: Game, a: &str, b: &str) -> Replay {
    same_game_from(game, &[], a, b)
}

fn same_game_from(game: Game, opening: &[&str], a: &str, b: &str) -> Replay {
    let local = in_process(game, opening, a, b);
    let (remote, end_state) = saiblo(game, opening, a, b);
    assert_eq!(local.opening, remote.opening);
    let moves = |r: &Replay| {
        r.moves
            .iter()
            .map(|m| (m.seat, m.mv.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&local), moves(&remote), "{a} vs {b}");
    assert_eq!(local.result, remote.result, "{a} vs {b}");
    assert_eq!(local.scores, remote.scores);
    assert_eq!(local.game, remote.game);
    assert!(!local.moves.is_empty());
    // The end states agree with the verdict.
    let culprit = local.result.reason.culprit().map(|s| s.index());
    for (i, s) in end_state.iter().enumerate() {
        if Some(i) == culprit {
            assert_ne!(s, "OK");
        } else {
            assert_eq!(s, "OK", "{end_state:?}");
        }
    }
    local
}

#[test]
fn normal_games_are_identical() {
    same_game(Game::Reversi(8), "first", "greedy");
    same_game(Game::Reversi(8), "random:1", "random:2");
    same_game(Game::Reversi(6), "greedy", "random:9");
}

#[test]
fn a_full_16x16_game_is_identical() {
    let r = same_game(Game::Reversi(16), "greedy", "first");
    assert!(r.moves.len() > 100, "a long game: {}", r.moves.len());
}

#[test]
fn illegal_moves_get_the_same_verdict() {
    let r = same_game(Game::Reversi(8), "greedy", "illegal:4");
    assert_eq!(r.result.reason.code(), "illegal_move");
    assert_eq!(r.result.winner.map(|s| s.index()), Some(0));
    let r = same_game(Game::Gomoku(9), "illegal:3", "near");
    assert_eq!(r.result.reason.code(), "illegal_move");
    assert_eq!(r.result.winner.map(|s| s.index()), Some(1));
}

/// `arbiter logic --opening`: the AIs are told the position (Reversi's BOARD line, Gomocup's
/// BOARD block) exactly as the in-process referee tells them, so the games are the same.
#[test]
fn games_from_openings_are_identical() {
    for opening in [&["d3", "c5"][..], &["f5", "f6", "e6"]] {
        let r = same_game_from(Game::Reversi(8), opening, "greedy", "random:4");
        assert_eq!(r.opening, opening);
        assert_eq!(r.result.reason.code(), "normal");
    }
    let r = same_game_from(Game::Gomoku(9), &["e5", "f6", "d4"], "near", "first");
    assert_eq!(r.opening.len(), 3);
    assert_eq!(r.result.reason.code(), "normal");
    // After an even opening black (seat 0) moves first.
    let r = same_game_from(Game::Gomoku(15), &["h8", "i9"], "first", "near");
    assert_eq!(r.moves[0].seat.index(), 0);
}

#[test]
fn gomocup_games_are_identical() {
    let r = same_game(Game::Gomoku(9), "near", "first");
    assert_eq!(r.result.reason.code(), "normal");
    same_game(Game::Gomoku(15), "first", "near");
}

/// The C SDK and sample AI (`bots/saiblo/c`), compiled here.
#[test]
fn the_c_sdk_bot_gives_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("reversi_bot");
    let src = root().join("bots/saiblo/c");
    // Other tests of this binary sweep bots meanwhile: spawn outside their sweeps.
    let status = arbiter_sandbox::spawn_guarded(
        std::process::Command::new("cc")
            .args(["-O2", "-Wall", "-o"])
            .arg(&exe)
            .arg(src.join("reversi_bot.c"))
            .arg(src.join("saiblo.c")),
    )
    .and_then(|mut c| c.wait())
    .expect("cc is needed");
    assert!(status.success());
    let config = GameConfig::Reversi(reversi::Config { size: 10 });
    let spec = GameSpec {
        limits: GameLimits::default_for(&config),
        config,
        opening: Vec::new(),
        event: None,
        seed: None,
        max_plies: arbiter_match::game::MAX_PLIES,
    };
    let strategies = ["random:11", "greedy"];
    let bots = strategies.map(|s| BotSpec {
        name: s.into(),
        command: format!("{} --lines --size 10 {s}", exe.display()),
        protocol: ProtocolKind::Reversi,
        working_dir: None,
        sees: None,
    });
    let seats = Seats {
        cores: vec![None, None],
        scratch_root: dir.path().join("scratch"),
    };
    let local = game::play(&spec, &[&bots[0], &bots[1]], &seats, &Containment::detect()).replay;
    let replay = dir.path().join("replay.json");
    let judge_spec = JudgeSpec {
        logic: format!("{} logic reversi --size 10", env!("CARGO_BIN_EXE_arbiter")),
        ais: strategies
            .iter()
            .map(|s| format!("{} --size 10 {s}", exe.display()))
            .collect(),
        replay: replay.clone(),
        config: serde_json::json!({}),
        memory_bytes: None,
        tolerance: Duration::from_millis(30),
        logic_timeout: Duration::from_secs(30),
        cores: Vec::new(),
    };
    judge(&judge_spec, &Containment::detect()).expect("judge ran");
    let (remote, _) = Replay::read(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    let moves = |r: &Replay| r.moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>();
    assert!(local.moves.len() > 20);
    assert_eq!(moves(&local), moves(&remote));
    assert_eq!(local.result, remote.result);
}
