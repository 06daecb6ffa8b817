//! A 1 GB line without newline: reported quickly, with bounded referee memory.
//! (Own test binary, so the referee's resident memory is not disturbed by
//! other tests.)

mod process_support;

use std::time::{Duration, Instant};

use arbiter_sandbox::{BotProcess, Limits, ReadEvent};
use process_support::{bot_command, full, marker, soon};

/// A `Vm*` field of /proc/self/status in bytes (VmRSS now, VmHWM the peak).
fn vm_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

#[test]
fn gigabyte_line_is_cut_quickly_with_bounded_memory() {
    let limits = Limits {
        max_output_bytes: 2 << 30,
        ..Limits::default()
    };
    let mut bot = BotProcess::spawn(&bot_command("long_line", &marker("line")), &limits, &full())
        .expect("spawn");
    let rss_before = vm_bytes("VmRSS:");
    let hwm_before = vm_bytes("VmHWM:");
    let start = Instant::now();
    match bot.read_line(soon(30)) {
        ReadEvent::LineTooLong { kept_prefix } => {
            assert_eq!(kept_prefix.len(), limits.max_line_bytes);
            assert!(kept_prefix.iter().all(|&b| b == b'x'));
        }
        other => panic!("expected LineTooLong, got {other:?}"),
    }
    eprintln!("LineTooLong after {:?}", start.elapsed());
    // Keep reading: the rest of the line is discarded as it arrives, until EOF.
    assert_eq!(
        bot.read_line(soon(120)),
        ReadEvent::Closed,
        "the bot's gigabyte never finished"
    );
    assert_eq!(bot.stdout_total_bytes(), 1 << 30);
    let peak = vm_bytes("VmHWM:");
    let growth = peak.saturating_sub(hwm_before.max(rss_before));
    eprintln!(
        "1 GiB discarded in {:?}; referee peak RSS growth {} KiB",
        start.elapsed(),
        growth / 1024
    );
    assert!(growth < 64 << 20, "referee memory grew by {growth} bytes");
    let exit = bot.finish(Duration::from_secs(5));
    assert_eq!(exit.code, Some(0));
}

#[test]
fn output_limit_stops_a_chatterbox() {
    let limits = Limits {
        max_output_bytes: 8 << 20,
        ..Limits::default()
    };
    let mut bot = BotProcess::spawn(
        &bot_command("long_line", &marker("limit")),
        &limits,
        &full(),
    )
    .expect("spawn");
    assert!(matches!(
        bot.read_line(soon(30)),
        ReadEvent::LineTooLong { .. }
    ));
    assert_eq!(bot.read_line(soon(30)), ReadEvent::OutputLimit);
    assert!(bot.stdout_total_bytes() > 8 << 20);
    assert!(bot.stdout_total_bytes() < 9 << 20);
    let exit = bot.finish(Duration::ZERO);
    assert!(exit.killed_by_referee);
}
