//! Every misbehaving bot gets the right verdict, its opponent wins, no process is left behind,
//! no file appears outside the bot's scratch directory, and the run goes on.
//!
//! The bots are real processes: `tests/bots/reversi_misbehave.c`, compiled here with `cc`.

mod support;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use arbiter_engine::any::GameConfig;
use arbiter_engine::replay::{Killer, Reason, Replay};
use arbiter_engine::{reversi, Seat};
use arbiter_match::game::{self, BotSpec, GameLimits, GameSpec, Played, Seats};
use arbiter_match::protocol::ProtocolKind;
use arbiter_sandbox::Containment;

fn workdir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| support::compile_bot("verdicts", "reversi_misbehave", "misbehave"))
}

fn bot(args: &str) -> BotSpec {
    let exe = workdir().join("misbehave");
    BotSpec {
        name: args.split_whitespace().next().unwrap_or("bot").to_string(),
        command: format!("{} {args}", exe.display()),
        protocol: ProtocolKind::Reversi,
        working_dir: None,
        sees: None,
    }
}

fn limits() -> GameLimits {
    let config = GameConfig::Reversi(reversi::Config { size: 8 });
    let mut l = GameLimits::default_for(&config);
    l.time.per_move = Some(Duration::from_millis(1000));
    l.time.handshake = Duration::from_millis(1000);
    l.memory_bytes = Some(256 << 20);
    l
}

/// Games run one at a time, so that the scan for leftover processes sees only its own game.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn play_with(bad: &BotSpec, bad_seat: Seat, limits: GameLimits) -> Played {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let played = play_unlocked(bad, bad_seat, limits);
    let left = leftovers();
    assert!(left.is_empty(), "processes left behind: {left:?}");
    played
}

fn play_unlocked(bad: &BotSpec, bad_seat: Seat, limits: GameLimits) -> Played {
    let fine = bot("fine");
    let spec = GameSpec {
        config: GameConfig::Reversi(reversi::Config { size: 8 }),
        opening: Vec::new(),
        limits,
        event: None,
        seed: None,
        max_plies: arbiter_match::game::MAX_PLIES,
    };
    let seats = Seats {
        cores: vec![Some(0), Some(1)],
        scratch_root: workdir().join("scratch"),
    };
    let bots = match bad_seat {
        Seat::FIRST => [bad, &fine],
        _ => [&fine, bad],
    };
    let played = game::play(&spec, &bots, &seats, &Containment::detect());
    // Every replay the referee writes reads back strictly.
    Replay::read(&played.replay.to_json())
        .unwrap_or_else(|e| panic!("{e}\n{:?}", played.replay.result));
    played
}

/// Processes still running whose command line names our test binary.
fn leftovers() -> Vec<String> {
    let exe = workdir().join("misbehave");
    let needle = exe.to_string_lossy().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if !entry
            .file_name()
            .to_string_lossy()
            .chars()
            .all(|c| c.is_ascii_digit())
        {
            continue;
        }
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit(')')
            .next()
            .is_some_and(|s| s.trim_start().starts_with('Z'));
        if cmd.contains(&needle) && !zombie {
            found.push(format!("{}: {cmd}", entry.file_name().to_string_lossy()));
        }
    }
    found
}

fn check(mode: &str, seat: Seat, expected: &str) -> Played {
    let played = play_with(&bot(mode), seat, limits());
    let r = &played.replay.result;
    assert_eq!(r.reason.code(), expected, "{mode}: {:?}", r.reason);
    assert_eq!(r.reason.culprit(), Some(seat), "{mode}");
    assert_eq!(r.winner, Some(seat.other()), "{mode}: the opponent wins");
    played
}

#[test]
fn protocol_failures() {
    check("illegal", Seat::FIRST, "illegal_move");
    let p = check("malformed", Seat::SECOND, "malformed_output");
    assert!(
        matches!(&p.replay.result.reason, Reason::MalformedOutput { line, .. } if line == "move e5 please")
    );
    check("outofturn", Seat::FIRST, "out_of_turn");
    check("nonutf8", Seat::FIRST, "malformed_output");
    check("handshake-wrong", Seat::SECOND, "protocol_error");
    check("closeout", Seat::FIRST, "protocol_error");
    check("debugflood", Seat::FIRST, "protocol_error");
    // The DEBUG text before the failure is kept, within the caps.
    let p = check("illegal 3", Seat::FIRST, "illegal_move");
    assert!(p
        .replay
        .moves
        .iter()
        .all(|m| m.log.as_deref().map_or(0, str::len) <= 32 * 1024));
}

#[test]
fn process_failures() {
    let p = check("segv", Seat::FIRST, "crash");
    assert!(matches!(
        p.replay.result.reason,
        Reason::Crash {
            signal: Some(11),
            ..
        }
    ));
    let exit = p.replay.failure.and_then(|f| f.exit).expect("how it ended");
    assert_eq!(
        (exit.signal, exit.killed_by),
        (Some(11), Some(Killer::Itself))
    );
    let p = check("exit", Seat::SECOND, "exited_early");
    assert!(matches!(
        p.replay.result.reason,
        Reason::ExitedEarly {
            exit_code: Some(0),
            ..
        }
    ));
    check("crash-start", Seat::FIRST, "crash");
    check("escapee", Seat::FIRST, "crash");
    check("stderrflood", Seat::SECOND, "protocol_error");
    let p = play_with(
        &BotSpec {
            command: "/nonexistent/bot".into(),
            ..bot("fine")
        },
        Seat::FIRST,
        limits(),
    );
    assert_eq!(p.replay.result.reason.code(), "failed_to_start");
    assert_eq!(p.replay.result.winner, Some(Seat::SECOND));
}

#[test]
fn resource_failures() {
    let p = check("loop", Seat::FIRST, "move_time");
    let failure = p.replay.failure.expect("a failure record");
    let exit = failure.exit.clone().expect("how it ended");
    assert_eq!(exit.killed_by, Some(Killer::Arbiter), "{exit:?}");
    assert_eq!(exit.why.as_deref(), Some("move time exceeded"));
    assert!(failure.time_ms.is_some_and(|t| t >= 1000.0), "{failure:?}");
    check("sleepforever", Seat::SECOND, "move_time");
    check("handshake-silent", Seat::FIRST, "no_handshake");
    check("forkbomb", Seat::FIRST, "move_time");
    let hog = check("hog", Seat::FIRST, "memory");
    assert!(hog.exits[0].as_ref().is_some_and(|e| e.memory_exceeded));
    let exit = hog
        .replay
        .failure
        .and_then(|f| f.exit)
        .expect("how it ended");
    assert_eq!(
        exit.to_string(),
        "signal 9 (SIGKILL), killed by arbiter: memory limit"
    );
    let p = check("longline", Seat::SECOND, "malformed_output");
    assert!(
        matches!(&p.replay.result.reason, Reason::MalformedOutput { line, .. } if line.len() < 1000)
    );
}

#[test]
fn sandbox_failures_leave_no_trace() {
    let outside = workdir().join("escaped.txt");
    let _ = std::fs::remove_file(&outside);
    check(
        &format!("write 2 8 {}", outside.display()),
        Seat::FIRST,
        "crash",
    );
    assert!(
        !outside.exists(),
        "a bot wrote outside its scratch directory"
    );
    check("connect 2 8 9", Seat::SECOND, "crash");
}

#[test]
fn game_time_counts_own_turns_only() {
    let mut l = limits();
    l.time.per_move = Some(Duration::from_millis(2000));
    l.time.per_game = Some(Duration::from_millis(1200));
    // Two slow turns of 700 ms each exceed the 1.2 s game clock on the second.
    let p = play_with(&bot("sleep 2 8 700"), Seat::FIRST, l.clone());
    assert_eq!(
        p.replay.result.reason.code(),
        "normal",
        "one slow move fits the game clock"
    );
    let mut l2 = l;
    l2.time.per_game = Some(Duration::from_millis(600));
    let p = play_with(&bot("sleep 2 8 700"), Seat::FIRST, l2);
    assert_eq!(p.replay.result.reason.code(), "game_time");
}

#[test]
fn move_time_boundary() {
    // Limit 500 ms: 450 ms is never late, 600 ms always is.
    let mut l = limits();
    l.time.per_move = Some(Duration::from_millis(500));
    for _ in 0..3 {
        let p = play_with(&bot("sleep 2 8 450"), Seat::FIRST, l.clone());
        assert_eq!(
            p.replay.result.reason.code(),
            "normal",
            "{:?}",
            p.replay.result
        );
        let slow = p
            .replay
            .moves
            .iter()
            .filter_map(|m| m.time_ms)
            .fold(0.0, f64::max);
        assert!(slow >= 450.0, "the sleeping move took {slow} ms");
        let p = play_with(&bot("sleep 2 8 600"), Seat::SECOND, l.clone());
        assert_eq!(
            p.replay.result.reason.code(),
            "move_time",
            "{:?}",
            p.replay.result
        );
    }
}

/// CPU the pondering bot burnt per move while its opponent thought for 100 ms a move.
fn ponder_cpu(ponder: bool) -> f64 {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut l = limits();
    l.ponder = ponder;
    let spec = GameSpec {
        config: GameConfig::Reversi(reversi::Config { size: 6 }),
        opening: Vec::new(),
        limits: l,
        event: None,
        seed: None,
        max_plies: arbiter_match::game::MAX_PLIES,
    };
    let seats = Seats {
        cores: vec![Some(0), Some(1)],
        scratch_root: workdir().join("scratch"),
    };
    let (thinker, slow) = (bot("ponder 0 6"), bot("slow 0 6 100"));
    let played = game::play(&spec, &[&thinker, &slow], &seats, &Containment::detect());
    assert_eq!(
        played.replay.result.reason.code(),
        "normal",
        "{:?}",
        played.replay.result
    );
    let cpu: Vec<f64> = played
        .replay
        .moves
        .iter()
        .filter(|m| m.seat == Seat::FIRST)
        .filter_map(|m| m.cpu_ms)
        .collect();
    assert!(cpu.len() >= 3);
    cpu[1..].iter().sum::<f64>() / (cpu.len() - 1) as f64
}

#[test]
fn no_ponder_freezes_bots_between_turns() {
    let pondering = ponder_cpu(true);
    let frozen = ponder_cpu(false);
    assert!(
        pondering > 50.0,
        "a pondering bot burns CPU on the opponent's time: {pondering:.1} ms"
    );
    assert!(frozen < 20.0, "a frozen bot cannot: {frozen:.1} ms");
}

/// Seed 001: a DEBUG message over 16 KB is cut, never judged; even one longer than the line cap.
#[test]
fn long_debug_line_is_cut_and_kept() {
    let p = play_with(&bot("longdebug 2"), Seat::FIRST, limits());
    assert_eq!(
        p.replay.result.reason.code(),
        "normal",
        "{:?}",
        p.replay.result
    );
    let log = p
        .replay
        .moves
        .iter()
        .filter(|m| m.seat == Seat::FIRST)
        .nth(1)
        .and_then(|m| m.log.as_deref())
        .expect("the DEBUG text of the bot's second move");
    assert!(log.starts_with("ddd"), "{:?}", &log[..log.len().min(40)]);
    assert_eq!(log.trim_end().len(), 16 * 1024, "cut to the 16 KB cap");
}

/// Verdicts quote the bot's own line and say what was wrong in words, never Rust debug text.
#[test]
fn verdicts_quote_the_bots_line() {
    let p = check("offboard", Seat::FIRST, "illegal_move");
    let text = p.replay.result.reason.to_string();
    assert_eq!(
        text, "illegal move: you sent \"107 6\", which is off the board",
        "{:?}",
        p.replay.result.reason
    );
    let p = check("occupied", Seat::SECOND, "illegal_move");
    assert_eq!(
        p.replay.result.reason.to_string(),
        "illegal move: you sent \"3 3\" (d4), which is already occupied"
    );
    // The DEBUG line printed just before the failing move is kept with the failure.
    let failure = p.replay.failure.as_ref().expect("a failure record");
    assert_eq!(failure.seat, Seat::SECOND);
    assert_eq!(failure.log.as_deref(), Some("move 2: oops\n"));
    assert!(failure.time_ms.is_some_and(|t| t < 1000.0), "{failure:?}");
    assert!(
        failure.clock_ms.is_some_and(|c| c > 100_000.0),
        "{failure:?}"
    );
    let p = check("closein", Seat::SECOND, "protocol_error");
    let text = p.replay.result.reason.to_string();
    assert!(
        text.contains("standard input") && !text.contains("standard output"),
        "{text}"
    );
}
