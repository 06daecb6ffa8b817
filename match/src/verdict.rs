//! What a bot did, as a verdict a student understands: a protocol fault or a process's end
//! turned into the replay's reason, and the record of what the seat at fault did.

use std::time::{Duration, Instant};

use arbiter_engine::any::{AnyGame, AnyMove, MoveError};
use arbiter_engine::replay::{Exit, Failure, Killer, Reason};
use arbiter_engine::Seat;
use arbiter_sandbox::{ExitInfo, SignalCause};

use crate::game::{GameLimits, Side, STDERR_KEPT_BYTES};
use crate::protocol::Fault;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Phase {
    Handshake,
    Move { game_clock_bound: bool },
    Between,
}

/// Turns a protocol fault into the verdict, looking at how the process ended when it did.
pub(crate) fn verdict(
    seat: Seat,
    fault: Fault,
    side: &mut Side,
    limits: &GameLimits,
    phase: Phase,
) -> Reason {
    // A bot that died is judged by its death (a memory kill often shows first as a timeout or
    // a closed pipe).
    // When its output closed, the process is usually exiting: give it a moment so that a
    // memory kill or crash is reported as such rather than as a closed pipe.
    if matches!(
        fault,
        Fault::Closed { running: true } | Fault::InputClosed { running: true }
    ) {
        if let Some(wire) = side.wire.as_mut() {
            let until = Instant::now() + Duration::from_millis(300);
            while wire.process.try_wait().is_none() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
    let dead = side
        .wire
        .as_mut()
        .is_some_and(|w| w.process.try_wait().is_some());
    if dead
        || matches!(
            fault,
            Fault::Closed { running: false } | Fault::InputClosed { running: false }
        )
    {
        if let Some(wire) = side.wire.as_mut() {
            let exit = wire.process.finish(Duration::from_millis(200));
            let reason = exit_reason(seat, &exit, limits);
            side.exit = Some(exit);
            return reason;
        }
    }
    match fault {
        Fault::Timeout => match phase {
            Phase::Handshake => Reason::NoHandshake { seat },
            Phase::Move {
                game_clock_bound: true,
            } => Reason::GameTime {
                seat,
                limit_ms: limits.time.per_game.map_or(0, millis),
            },
            _ => Reason::MoveTime {
                seat,
                limit_ms: limits.time.per_move.map_or(0, millis),
            },
        },
        Fault::Closed { .. } => Reason::ProtocolError {
            seat,
            message: "closed its standard output while still running".into(),
        },
        Fault::InputClosed { .. } => Reason::ProtocolError {
            seat,
            message: "stopped reading: closed its standard input while still running".into(),
        },
        Fault::Malformed(line) if phase == Phase::Handshake => Reason::ProtocolError {
            seat,
            message: format!("answered {line:?} to the handshake"),
        },
        Fault::Malformed(line) => Reason::MalformedOutput { seat, line },
        Fault::OutOfTurn(line) => Reason::OutOfTurn { seat, line },
        Fault::Protocol(message) => Reason::ProtocolError { seat, message },
    }
}

fn exit_reason(seat: Seat, exit: &ExitInfo, limits: &GameLimits) -> Reason {
    if exit.memory_exceeded {
        return Reason::Memory {
            seat,
            limit_bytes: limits.memory_bytes.unwrap_or(0),
        };
    }
    match (exit.code, exit.signal) {
        (_, Some(signal)) => Reason::Crash {
            seat,
            exit_code: None,
            signal: Some(signal),
        },
        (Some(0), None) => Reason::ExitedEarly {
            seat,
            exit_code: Some(0),
        },
        (Some(code), None) => Reason::Crash {
            seat,
            exit_code: Some(code),
            signal: None,
        },
        (None, None) => Reason::ExitedEarly {
            seat,
            exit_code: None,
        },
    }
}

/// Everything seen of the seat at fault: its DEBUG text since its last move, its stderr tail,
/// how it ended and who ended it, and the time of the failing request. `None` for a bot that
/// never started.
pub(crate) fn failure_record(seat: Seat, side: &mut Side, reason: &Reason) -> Option<Failure> {
    let wire = side.wire.as_mut()?;
    let mut log = side.request.log.take().unwrap_or_default();
    log.push_str(&wire.take_log().unwrap_or_default());
    let total = wire.process.stderr_total_bytes();
    let stderr = stderr_tail(&wire.process.stderr_tail(), total, STDERR_KEPT_BYTES);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    Some(Failure {
        seat,
        log: (!log.is_empty()).then_some(log),
        stderr: (!stderr.is_empty()).then_some(stderr),
        exit: side.exit.as_ref().map(|e| exit_record(e, reason)),
        time_ms: side.request.time.map(ms),
        clock_ms: side.request.clock.map(ms),
    })
}

/// The end of a bot's stderr, at most `cap` bytes starting at a line, of `total` bytes written;
/// a first line says how much came before.
pub fn stderr_tail(tail: &[u8], total: u64, cap: usize) -> String {
    let mut start = tail.len().saturating_sub(cap);
    let at_line_start =
        start == 0 && tail.len() as u64 >= total || start > 0 && tail[start - 1] == b'\n';
    if !at_line_start {
        // Start at a whole line when one begins within the window.
        if let Some(nl) = tail[start..].iter().position(|&b| b == b'\n') {
            if nl + 1 < tail.len() - start {
                start += nl + 1;
            }
        }
    }
    let text = String::from_utf8_lossy(&tail[start..]);
    let text = text.trim_end();
    let dropped = total.saturating_sub((tail.len() - start) as u64);
    if dropped == 0 || text.is_empty() {
        return text.to_string();
    }
    format!("[... {dropped} earlier bytes not kept]\n{text}")
}

/// How a bot's process ended, for the replay: who sent a signal and, when arbiter did, why.
fn exit_record(exit: &ExitInfo, reason: &Reason) -> Exit {
    let (killed_by, why) = match exit.signal_cause {
        None => (None, None),
        Some(SignalCause::Referee) => (Some(Killer::Arbiter), Some(kill_why(reason).to_string())),
        Some(SignalCause::Limit(limit)) => (Some(Killer::Arbiter), Some(limit.to_string())),
        Some(SignalCause::Itself) => (Some(Killer::Itself), None),
        Some(SignalCause::Outside) => (Some(Killer::Outside), None),
    };
    Exit {
        code: exit.code,
        signal: exit.signal,
        killed_by,
        why,
    }
}

/// Why arbiter ended a bot that was still running at the end of its game.
fn kill_why(reason: &Reason) -> &'static str {
    match reason {
        Reason::MoveTime { .. } => "move time exceeded",
        Reason::GameTime { .. } => "game time exceeded",
        Reason::NoHandshake { .. } => "no answer to the handshake",
        _ => "the game was over",
    }
}

/// The verdict for a move the rules refuse, quoting `line`, the bot's own line. The move is
/// named in the game's notation when the engine can write it (not off the board), else by the
/// bot's line.
pub fn illegal_move(
    seat: Seat,
    before: &AnyGame,
    mv: AnyMove,
    line: Option<String>,
    error: MoveError,
) -> Reason {
    let why = match error {
        MoveError::Illegal(i) => i.to_string(),
        MoveError::Refused(why) => why,
        other => other.to_string(),
    };
    let line = line.map(|l| quote_cut(&l));
    let text = before.format_move(mv);
    let mv = match before.parse_move(&text) {
        Ok(back) if back == mv => text,
        _ => line
            .clone()
            .unwrap_or_else(|| "a point off the board".into()),
    };
    Reason::IllegalMove {
        seat,
        mv,
        why,
        line,
    }
}

/// A bot's line as a verdict quotes it: at most 200 characters.
pub(crate) fn quote_cut(line: &str) -> String {
    match line.char_indices().nth(200) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

pub(crate) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
