//! The Gomocup handshake is fair to brains that set themselves up on INFO (Rapfi allocates its
//! hash table on `INFO max_memory`): the set-up runs on the handshake clock, not on the first
//! move's. The brain is `tests/bots/gomocup_slow_info.c`, compiled here with `cc`.

mod support;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use arbiter_engine::any::GameConfig;
use arbiter_engine::gomoku;
use arbiter_engine::replay::{Reason, Replay};
use arbiter_engine::Seat;
use arbiter_match::game::{self, BotSpec, GameLimits, GameSpec, Seats};
use arbiter_match::protocol::ProtocolKind;
use arbiter_sandbox::Containment;

fn workdir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| support::compile_bot("gomocup", "gomocup_slow_info", "slow_info"))
}

/// The test brain: `setup_ms` on INFO max_memory, ABOUT answered as `about` says, and a first
/// move of 1000 - `margin_ms` ms from its request.
fn brain(name: &str, setup_ms: u64, about: &str, margin_ms: u64) -> BotSpec {
    BotSpec {
        name: name.into(),
        command: format!(
            "{} {setup_ms} {about} {margin_ms}",
            workdir().join("slow_info").display()
        ),
        protocol: ProtocolKind::Gomocup,
        working_dir: None,
        sees: None,
    }
}

const CONFIG: GameConfig = GameConfig::Gomoku(gomoku::Config {
    size: 15,
    rule: gomoku::Rule::Freestyle,
});

/// One second a move; the brains think 850 ms on their first move, measured from its request.
fn limits(handshake_ms: u64) -> GameLimits {
    let mut l = GameLimits::default_for(&CONFIG);
    l.time.per_move = Some(Duration::from_millis(1000));
    l.time.handshake = Duration::from_millis(handshake_ms);
    l
}

fn play(bots: [&BotSpec; 2], limits: GameLimits) -> Replay {
    play_timed(bots, limits).0
}

/// The replay and the time the two handshakes took.
fn play_timed(bots: [&BotSpec; 2], limits: GameLimits) -> (Replay, Duration) {
    let spec = GameSpec {
        config: CONFIG,
        opening: Vec::new(),
        limits,
        event: None,
        seed: None,
        max_plies: arbiter_match::game::MAX_PLIES,
    };
    let seats = Seats {
        cores: vec![None, None],
        scratch_root: workdir().join("scratch"),
    };
    let played = game::play(&spec, &bots, &seats, &Containment::detect());
    (played.replay, played.timing.setup)
}

/// The first move `seat` made, as the replay records it.
fn first_move(r: &Replay, seat: Seat) -> &arbiter_engine::replay::MoveRecord {
    r.moves
        .iter()
        .find(|m| m.seat == seat)
        .expect("a move by the seat")
}

#[test]
fn a_brain_that_sets_up_on_info_keeps_its_whole_first_move() {
    // 400 ms of set-up plus 850 ms of thinking is past the 1000 + 50 ms a move; the set-up
    // must fall on the handshake clock. Before the ABOUT wait this lost "move time exceeded".
    let slow = brain("slow", 400, "about", 150);
    let quick = brain("quick", 0, "about", 150);
    for slow_seat in Seat::BOTH {
        let bots = match slow_seat {
            Seat::FIRST => [&slow, &quick],
            _ => [&quick, &slow],
        };
        let r = play(bots, limits(5000));
        assert_eq!(
            r.result.reason,
            Reason::Normal,
            "slow brain as {slow_seat:?}"
        );
        let first = first_move(&r, slow_seat);
        let ms = first.time_ms.expect("a time");
        assert!((800.0..1050.0).contains(&ms), "first move took {ms} ms");
        // The brain's ABOUT answer is kept with its first move.
        let log = first.log.as_deref().unwrap_or("");
        assert!(log.contains(r#"ABOUT: name="slow_info""#), "{log:?}");
    }
}

#[test]
fn a_brain_without_about_answers_unknown_and_plays() {
    // UNKNOWN ends the wait at once: no need to wait out the 5 s handshake time.
    let plain = brain("plain", 0, "unknown", 150);
    let quick = brain("quick", 0, "about", 150);
    let (r, setup) = play_timed([&plain, &quick], limits(5000));
    assert_eq!(r.result.reason, Reason::Normal);
    assert!(setup < Duration::from_secs(2), "handshakes took {setup:?}");
}

#[test]
fn a_brain_silent_on_about_plays_after_the_handshake_time() {
    let silent = brain("silent", 0, "silent", 150);
    let quick = brain("quick", 0, "about", 150);
    let r = play([&quick, &silent], limits(500));
    assert_eq!(r.result.reason, Reason::Normal);
    let log = first_move(&r, Seat::SECOND).log.as_deref().unwrap_or("");
    assert!(log.contains("no answer to ABOUT"), "{log:?}");
}

#[test]
fn an_about_answer_after_the_handshake_time_is_no_move() {
    // 700 ms of set-up against 400 ms of handshake: ABOUT is answered late, during the
    // opponent's first move (seat 2) or in answer to the first request (seat 1), and is kept as
    // a log line; the brain then thinks 400 ms.
    for late_seat in Seat::BOTH {
        let late = brain("late", 700, "about", 600);
        let quick = brain("quick", 0, "about", 600);
        let bots = match late_seat {
            Seat::FIRST => [&late, &quick],
            _ => [&quick, &late],
        };
        let r = play(bots, limits(400));
        assert_eq!(
            r.result.reason,
            Reason::Normal,
            "late brain as {late_seat:?}"
        );
        let log = first_move(&r, late_seat).log.as_deref().unwrap_or("");
        assert!(log.contains(r#"ABOUT (late): name="slow_info""#), "{log:?}");
    }
}
