//! Talking to bots: lines, frames, bytes, closed pipes, early exits, stderr
//! floods, start failures and the raw round-trip floor.

mod process_support;

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use arbiter_sandbox::{
    measure_round_trip, BotCommand, BotProcess, FrameEvent, Limits, ReadEvent, SendError,
    SpawnError,
};
use process_support::{bot_command, full, marker, minimal, soon};

fn line(s: &str) -> ReadEvent {
    ReadEvent::Line(s.as_bytes().to_vec())
}

#[test]
fn echo_round_trip_lines_and_floor() {
    for (label, containment) in [("full", full()), ("minimal", minimal())] {
        let limits = Limits {
            cpu_core: Some(0),
            ..Limits::default()
        };
        let mut bot =
            BotProcess::spawn(&bot_command("echo", &marker("echo")), &limits, &containment)
                .expect("spawn echo");
        bot.send_line("hello world").expect("send");
        assert_eq!(bot.read_line(soon(10)), line("hello world"));
        let stats =
            measure_round_trip(&mut bot, 300, Duration::from_secs(10)).expect("round trips");
        eprintln!(
            "echo round trip ({label} containment, {} samples): min {:?} median {:?} p99 {:?} max {:?} mean {:?}",
            stats.samples, stats.min, stats.median, stats.p99, stats.max, stats.mean
        );
        assert_eq!(stats.samples, 300);
        assert!(stats.min <= stats.median && stats.median <= stats.p99 && stats.p99 <= stats.max);
        let exit = bot.finish(Duration::from_secs(5));
        assert_eq!(exit.code, Some(0), "echo exits 0 on EOF: {exit:?}");
        assert!(!exit.killed_by_referee);
        assert_eq!(exit.leftover_processes_killed, 0);
    }
}

#[test]
fn frames_roundtrip_and_oversize_is_reported() {
    let limits = Limits {
        max_frame_bytes: 1000,
        ..Limits::default()
    };
    let mut bot = BotProcess::spawn(
        &bot_command("frame_echo", &marker("frame")),
        &limits,
        &full(),
    )
    .expect("spawn frame_echo");
    let bodies: [&[u8]; 3] = [b"{\"player\":0}", b"", &[0u8, 255, 10, 13, 4]];
    for body in bodies {
        bot.send_frame(body).expect("send frame");
        assert_eq!(bot.read_frame(soon(10)), FrameEvent::Frame(body.to_vec()));
    }
    let big = vec![7u8; 5000];
    bot.send_frame(&big).expect("send big frame");
    assert_eq!(
        bot.read_frame(soon(10)),
        FrameEvent::TooLarge { declared: 5000 }
    );
    // The oversize body is skipped: the stream stays in sync.
    bot.send_frame(b"after").expect("send");
    assert_eq!(
        bot.read_frame(soon(10)),
        FrameEvent::Frame(b"after".to_vec())
    );
    bot.close_stdin();
    assert_eq!(bot.read_frame(soon(10)), FrameEvent::Closed);
    let exit = bot.finish(Duration::from_secs(5));
    assert_eq!(exit.code, Some(0));
}

#[test]
fn non_utf8_bytes_are_delivered_as_is() {
    let mut bot = BotProcess::spawn(
        &bot_command("non_utf8", &marker("utf8")),
        &Limits::default(),
        &full(),
    )
    .expect("spawn");
    assert_eq!(bot.read_line(soon(10)), ReadEvent::Line(vec![0xff, 0xfe]));
    assert_eq!(
        bot.read_line(soon(10)),
        ReadEvent::Line(b"ok\xc3\x28".to_vec())
    );
    assert_eq!(
        bot.read_line(soon(10)),
        ReadEvent::Line(b"last \x80".to_vec())
    );
    assert_eq!(bot.read_line(soon(10)), ReadEvent::Closed);
    let exit = bot.finish(Duration::from_secs(5));
    assert_eq!(exit.code, Some(0));
}

#[test]
fn stdout_closed_while_running_is_not_an_exit() {
    let mut bot = BotProcess::spawn(
        &bot_command("close_stdout", &marker("close")),
        &Limits::default(),
        &full(),
    )
    .expect("spawn");
    assert_eq!(bot.read_line(soon(10)), line("bye"));
    assert_eq!(bot.read_line(soon(10)), ReadEvent::Closed);
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        bot.try_wait(),
        None,
        "the bot still runs after closing stdout"
    );
    let exit = bot.finish(Duration::from_millis(200));
    assert!(exit.killed_by_referee);
    assert_eq!(exit.signal, Some(libc::SIGKILL));
}

#[test]
fn early_exit_gives_closed_and_exit_code() {
    let mut bot = BotProcess::spawn(
        &bot_command("exit_early", &marker("early")),
        &Limits::default(),
        &full(),
    )
    .expect("spawn");
    assert_eq!(bot.read_line(soon(10)), ReadEvent::Closed);
    assert!(process_support::eventually(Duration::from_secs(10), || bot
        .try_wait()
        .is_some()));
    let t = bot.try_wait().expect("ended");
    assert_eq!((t.code, t.signal), (Some(3), None));
    assert!(matches!(bot.send_line("TURN"), Err(SendError::Closed)));
    let exit = bot.finish(Duration::from_secs(1));
    assert_eq!(exit.code, Some(3));
    assert!(!exit.killed_by_referee);
}

#[test]
fn start_failures_are_told_apart() {
    let c = full();
    let l = Limits::default();
    let err = BotProcess::spawn(&BotCommand::new("/nonexistent/arbiter-bot"), &l, &c).err();
    assert!(matches!(err, Some(SpawnError::NotFound { .. })), "{err:?}");
    let err = BotProcess::spawn(&BotCommand::new("no-such-bot-in-path-xyz"), &l, &c).err();
    assert!(matches!(err, Some(SpawnError::NotFound { .. })), "{err:?}");

    let dir = tempfile::tempdir().expect("tempdir");
    let plain = dir.path().join("plain.txt");
    std::fs::write(&plain, "not a program").expect("write");
    let err = BotProcess::spawn(&BotCommand::new(&plain), &l, &c).err();
    assert!(
        matches!(err, Some(SpawnError::NotExecutable { .. })),
        "{err:?}"
    );
    assert!(err.is_some_and(|e| e.is_bot_fault()));

    // Executable script whose interpreter does not exist: exec fails with ENOENT.
    let script = dir.path().join("bad-interp.sh");
    std::fs::write(&script, "#!/nonexistent/interpreter\n").expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let err = BotProcess::spawn(&BotCommand::new(&script), &l, &c).err();
    assert!(matches!(err, Some(SpawnError::NotFound { .. })), "{err:?}");

    // Missing scratch directory is a preparation error, not the bot's fault.
    let bad = Limits {
        scratch_dir: Some(dir.path().join("missing")),
        ..Limits::default()
    };
    let err = BotProcess::spawn(&BotCommand::new("true"), &bad, &c).err();
    assert!(matches!(err, Some(SpawnError::Prepare { .. })), "{err:?}");
}

#[test]
fn a_bot_that_does_not_read_cannot_block_the_referee() {
    let limits = Limits {
        write_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let mut bot = BotProcess::spawn(&bot_command("sleeper", &marker("noread")), &limits, &full())
        .expect("spawn");
    let start = Instant::now();
    let result = bot.send(&vec![b'x'; 4 << 20]);
    let took = start.elapsed();
    match result {
        Err(SendError::Timeout { written }) => assert!(written < 4 << 20),
        other => panic!("expected a write timeout, got {other:?}"),
    }
    assert!(
        took >= Duration::from_millis(300),
        "returned before the deadline: {took:?}"
    );
    assert!(took < Duration::from_secs(10), "blocked: {took:?}");
    let before = Instant::now();
    assert_eq!(
        bot.read_line(before + Duration::from_millis(200)),
        ReadEvent::Timeout
    );
    assert!(before.elapsed() >= Duration::from_millis(200));
    let exit = bot.finish(Duration::ZERO);
    assert!(exit.killed_by_referee);
}

#[test]
fn stderr_flood_neither_blocks_nor_grows() {
    let limits = Limits {
        max_stderr_kept: 4096,
        ..Limits::default()
    };
    let mut bot = BotProcess::spawn(
        &bot_command("stderr_flood", &marker("flood")).arg("20"),
        &limits,
        &full(),
    )
    .expect("spawn");
    let done = bot.read_line(soon(60));
    let expected_total: u64 = 20 * (1 << 20) + "END-OF-FLOOD\n".len() as u64;
    assert_eq!(
        done,
        line(&format!("done {expected_total}")),
        "the bot was blocked on stderr"
    );
    bot.send_line("still here").expect("send");
    assert_eq!(bot.read_line(soon(30)), line("still here"));
    let exit = bot.finish(Duration::from_secs(5));
    assert_eq!(exit.code, Some(0));
    assert_eq!(exit.stderr_total_bytes, expected_total);
    let tail = bot.stderr_tail();
    assert_eq!(tail.len(), 4096);
    assert!(tail.ends_with(b"eeeeEND-OF-FLOOD\n"));
}

#[test]
fn timeouts_never_fire_early() {
    let mut bot = BotProcess::spawn(
        &bot_command("sleeper", &marker("late")),
        &Limits::default(),
        &full(),
    )
    .expect("spawn");
    for precise in [false, true] {
        if precise {
            arbiter_sandbox::precise_timers_for_this_thread().expect("timer slack");
        }
        let mut lateness = Vec::new();
        for _ in 0..50 {
            let deadline = Instant::now() + Duration::from_millis(2);
            assert_eq!(bot.read_line(deadline), ReadEvent::Timeout);
            let now = Instant::now();
            assert!(now >= deadline, "timeout fired early");
            lateness.push(now - deadline);
        }
        lateness.sort();
        eprintln!(
        "read_line timeout lateness over 50 waits of 2 ms (precise timers: {precise}): min {:?} median {:?} max {:?}",
        lateness[0], lateness[25], lateness[49]
    );
    }
    let _ = bot.finish(Duration::ZERO);
}
