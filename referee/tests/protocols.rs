//! Every protocol through the real referee: sample bots (C and Python), built-in bots, the
//! Gomocup brain, and original sessdsa AIs, as real processes. Every game must end by the rules
//! and its replay must read back strictly.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use arbiter_engine::import::{gobang, sessdsa};
use arbiter_engine::replay::Replay;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The C sample bots, built once into a temp dir.
fn bin(name: &str) -> String {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("arbiter-protocols-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(root().join("bots/c")).unwrap().flatten() {
            let src = entry.path();
            let stem = src.file_stem().unwrap().to_string_lossy().to_string();
            let ok = Command::new("cc")
                .args(["-O2", "-o"])
                .arg(dir.join(&stem))
                .arg(&src)
                .arg("-lm")
                .status();
            assert!(ok.is_ok_and(|s| s.success()), "cc {}", src.display());
        }
        dir
    });
    dir.join(name).display().to_string()
}

fn py(script: &str) -> String {
    format!(
        "python3 {}",
        root().join("bots/python").join(script).display()
    )
}

/// Runs `arbiter match` and returns the replays it wrote.
fn play(args: &[&str]) -> (Vec<Replay>, PathBuf) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let out = std::env::temp_dir().join(format!(
        "arbiter-protocols-out-{}-{}",
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let status = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .args(args)
        .arg("-q")
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "arbiter match {args:?}");
    let mut replays = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    names.sort();
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("game-") && name.ends_with(".json") {
            let text = std::fs::read_to_string(&path).unwrap();
            let (replay, _) =
                Replay::read(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            replays.push(replay);
        }
    }
    (replays, out)
}

fn all_normal(replays: &[Replay], games: usize) {
    assert_eq!(replays.len(), games);
    for r in replays {
        assert_eq!(
            r.result.reason.code(),
            "normal",
            "{:?} {:?}",
            r.players,
            r.result
        );
    }
}

#[test]
fn reversi_sample_bots() {
    let (r, _) = play(&[
        "reversi",
        "--size",
        "16",
        &bin("reversi_greedy"),
        &py("reversi_random.py 16"),
        "-n",
        "2",
    ]);
    all_normal(&r, 2);
    let (r, _) = play(&[
        "reversi",
        "--size",
        "6",
        &format!("{} 6", bin("reversi_random")),
        &py("reversi_greedy.py 6"),
        "-n",
        "2",
    ]);
    all_normal(&r, 2);
    let (r, _) = play(&[
        "reversi",
        "--size",
        "8",
        "builtin:3",
        "builtin:random",
        "-n",
        "2",
    ]);
    all_normal(&r, 2);
}

/// A built-in bot learns the move time from the environment arbiter gives every bot (the
/// `reversi` protocol has no line for it): level 12 would think for seconds a move by its caps
/// alone, but told 400 ms it answers within about half of that, every move.
#[test]
fn a_builtin_bot_thinks_within_the_move_time_arbiter_gives_it() {
    let (r, _) = play(&[
        "reversi",
        "--size",
        "8",
        "builtin:12",
        "builtin:1",
        "--move-time",
        "400",
        "-n",
        "2",
    ]);
    all_normal(&r, 2);
    for replay in &r {
        let deep = replay
            .players
            .iter()
            .find(|p| p.name.contains("depth12"))
            .expect("the deep bot")
            .seat;
        for (i, m) in replay.moves.iter().enumerate() {
            let deep_moved = m.seat == deep;
            if let (true, Some(ms)) = (deep_moved, m.time_ms) {
                assert!(ms < 400.0, "move {i} took {ms} ms");
            }
        }
    }
}

/// `reversi-board`: every sample bot starts from the opening it is told (none of them is given
/// the board size: the `BOARD` line carries it). A bot playing from the wrong board would soon
/// make an illegal move, so normal ends over several openings show that the position arrived.
#[test]
fn reversi_board_protocol_plays_openings_with_every_sample_bot() {
    let dir = std::env::temp_dir().join(format!("arbiter-rv-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let eight = dir.join("eight.txt");
    std::fs::write(&eight, "# openings\nd3 c5\nf5 f6 e6\nc4 e3 f6 e6 f5\n").unwrap();
    let six = dir.join("six.txt");
    std::fs::write(&six, "c2\nb3 b2 e4\n").unwrap();
    let eight = eight.to_str().unwrap();
    let six = six.to_str().unwrap();
    let games = [
        (
            "8",
            bin("reversi_greedy"),
            py("reversi_random.py"),
            eight,
            6,
        ),
        ("6", bin("reversi_random"), py("reversi_greedy.py"), six, 4),
        (
            "8",
            "builtin:2".to_string(),
            bin("reversi_random"),
            eight,
            6,
        ),
    ];
    for (size, a, b, openings, n) in games {
        let (r, _) = play(&[
            "reversi",
            "--size",
            size,
            &a,
            &b,
            "--protocol",
            "reversi-board",
            "--openings",
            openings,
            "-n",
            &n.to_string(),
        ]);
        all_normal(&r, n);
        for replay in &r {
            assert!(
                !replay.opening.is_empty(),
                "{a} vs {b}: every game has an opening"
            );
        }
    }
    // Seed 001's own protocol cannot carry an opening: refused before any game, with the way out.
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "reversi", "--size", "8", "builtin:1", "builtin:2"])
        .args(["--openings", eight, "-o"])
        .arg(dir.join("refused"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("reversi-board"), "{err}");
    assert!(!dir.join("refused").join("game-0001.json").exists());
}

#[test]
fn gomocup_brains_play_full_games_with_openings() {
    let openings =
        std::env::temp_dir().join(format!("arbiter-openings-{}.txt", std::process::id()));
    std::fs::write(&openings, "# two-stone openings\nH8 I9\nH8 G7 J9\n").unwrap();
    let (r, _) = play(&[
        "gomoku",
        "--rule",
        "standard",
        &bin("gomocup_greedy"),
        &py("gomocup_random.py"),
        "--protocol",
        "gomocup",
        "-n",
        "4",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    all_normal(&r, 4);
    assert_eq!(r[0].opening, ["H8", "I9"]);
    assert_eq!(r[2].opening, ["H8", "G7", "J9"]);
    // Renju: the engine judges black's moves; the built-in bot never plays a forbidden point.
    let (r, _) = play(&[
        "gomoku",
        "--rule",
        "renju",
        "builtin:2",
        &bin("gomocup_greedy"),
        "-n",
        "2",
    ]);
    assert_eq!(r.len(), 2);
    for game in &r {
        assert!(
            matches!(game.result.reason.code(), "normal" | "illegal_move"),
            "{:?}",
            game.result
        );
    }
}

#[test]
fn gobang_bridge_protocol_and_log() {
    let log = std::env::temp_dir().join(format!("arbiter-gobang-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let (r, _) = play(&[
        "gomoku",
        &bin("gobang_greedy"),
        &py("gobang_random.py"),
        "--protocol",
        "gobang",
        "-n",
        "2",
        "--gobang-log",
        log.to_str().unwrap(),
    ]);
    all_normal(&r, 2);
    // The seed-003 log holds both games and imports back to the same moves.
    let imported =
        gobang::import(&std::fs::read_to_string(&log).unwrap(), gobang::Base::One).unwrap();
    assert_eq!(imported.replays.len(), 2);
    for (a, b) in imported.replays.iter().zip(&r) {
        let ma: Vec<&str> = a.moves.iter().map(|m| m.mv.as_str()).collect();
        let mb: Vec<&str> = b.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(ma, mb);
        assert_eq!(a.result.winner, b.result.winner);
    }
}

#[test]
fn duel_bots_and_original_ais() {
    let (r, out) = play(&[
        "duel2048",
        "--seed",
        "11",
        &bin("duel_greedy"),
        &py("duel_random.py"),
        "-n",
        "2",
    ]);
    all_normal(&r, 2);
    // Each duel also gets seed 000's record file, which imports back to the same game.
    let record = std::fs::read_to_string(out.join("game-0001.record.txt")).unwrap();
    let back = sessdsa::import(&record).unwrap();
    assert_eq!(
        back.moves,
        r[0].moves
            .iter()
            .map(|m| arbiter_engine::replay::MoveRecord::new(m.seat, m.mv.clone()))
            .collect::<Vec<_>>()
    );
    let host = |ai: &str| {
        format!(
            "{} {}",
            py("sessdsa_host.py"),
            root()
                .join("bots/python/sessdsa_examples")
                .join(ai)
                .display()
        )
    };
    let (r, out) = play(&[
        "duel2048",
        "--seed",
        "5",
        &host("greedy_player.py"),
        &host("random_player.py"),
        "-n",
        "2",
    ]);
    all_normal(&r, 2);
    // Hosted AIs are named after their own files, in replays and in the summary.
    let names: Vec<&str> = r[0].players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["greedy_player", "random_player"]);
    let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(
        summary["bots"],
        serde_json::json!(["greedy_player", "random_player"])
    );
    // Built-in bots follow every skipped step the referee announces.
    let (r, _) = play(&[
        "duel2048",
        "--seed",
        "1",
        "builtin:2",
        "builtin:random",
        "-n",
        "6",
    ]);
    all_normal(&r, 6);
    assert!(
        r.iter().any(|g| g.moves.iter().any(|m| m.mv == "skip")),
        "some step was skipped"
    );
}

/// The original board carries both players' clocks, and real 2020 AIs read the rival's
/// (`getTime(not isFirst)`) to budget their search. Through the host, an AI written that way
/// must see the rival's clock move as the rival thinks, in step with the referee's own count.
#[test]
fn sessdsa_host_shows_the_rival_clock() {
    let fixture = root().join("tests/fixtures/sessdsa/rival_clock_player.py");
    let rival = root().join("bots/python/sessdsa_examples/greedy_player.py");
    for (first, second, reader) in [(&fixture, &rival, 0), (&rival, &fixture, 1)] {
        let (r, _) = play(&[
            "duel2048",
            "--seed",
            "3",
            &format!("{} {}", py("sessdsa_host.py"), first.display()),
            &format!("{} {}", py("sessdsa_host.py"), second.display()),
            "-n",
            "1",
        ]);
        let game = &r[0];
        // The fixture stops at round 60 with an exception that reports both clocks.
        assert_eq!(game.result.reason.code(), "crash", "{:?}", game.result);
        // The failure record keeps the crashing AI's stderr.
        let failure = game.failure.as_ref().expect("a failure record");
        assert_eq!(failure.seat.index(), reader);
        let stderr = failure.stderr.clone().unwrap_or_default();
        let seen = |what: &str| -> f64 {
            let at = stderr
                .rfind(&format!("{what} "))
                .unwrap_or_else(|| panic!("no {what} clock in {stderr}"));
            stderr[at + what.len() + 1..]
                .split_whitespace()
                .next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no {what} clock in {stderr}"))
        };
        let (mine, rival_left) = (seen("mine") * 1000.0, seen("rival") * 1000.0);
        // What the rival's moves took by the referee's count; its start-up comes on top.
        let rival_moves: f64 = game
            .moves
            .iter()
            .filter(|m| m.seat.index() != reader)
            .filter_map(|m| m.time_ms)
            .sum();
        // The clock the AI saw has moved by at least the rival's counted moves (without the
        // opponent's clock the host showed the initial 5000 ms all game). Its start-up may
        // come on top or not: the two bots start side by side, so it is not relied on.
        assert!(
            rival_moves > 0.0 && rival_left < 5000.0 && 5000.0 - rival_left >= rival_moves - 1.0,
            "the rival clock did not move: {rival_left} ms left after {rival_moves} ms of moves"
        );
        assert!(
            rival_left <= 5000.0 - rival_moves + 5.0 && rival_left >= 5000.0 - rival_moves - 2000.0,
            "the rival clock the AI saw ({rival_left} ms) is not 5000 ms less the rival's \
             {rival_moves} ms of moves and its start-up"
        );
        assert!(mine < 5000.0 && mine > 0.0, "own clock {mine} ms");
    }
}
