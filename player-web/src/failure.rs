//! "Why did my bot lose?": a failure verdict read into what the last frame shows. The attempted
//! move is not a frame (the engine refused it): it is drawn over the last frame, a red cross on
//! its square or point or a crossed-out arrow for a 2048-duel direction, or, off the board,
//! stated in words. The words, the log panel's text (DEBUG lines, the stderr tail, how the
//! process ended, the clocks) and the board's mark are made here, natively testable.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::replay::{Exit, Failure, Reason, Replay};
use arbiter_engine::{duel2048, gomoku, reversi};
use serde::Serialize;

use crate::units::ms;

/// What the board shows of a failure, on the last frame.
#[derive(Clone, Serialize, Default, Debug, PartialEq)]
pub struct FailureMark {
    /// The seat at fault.
    pub seat: u8,
    /// The reason's code: `illegal_move`, `move_time` ...
    pub kind: &'static str,
    /// The attempted square or point (`[row, col]`, Gomoku `[y, x]`, row 0 at the top).
    pub cell: Option<[u8; 2]>,
    /// The 2048 duel: the attempted direction (`up` ...).
    pub direction: Option<&'static str>,
    /// The attempted move in the move list's notation, when it is on the board.
    pub attempt: Option<String>,
    /// Short words drawn under the board: `Black sent "7 7" (h8): the point is already occupied`.
    pub caption: String,
    /// For a timeout: the clock that ran out, `move` or `game`.
    pub clock: Option<&'static str>,
}

/// A failure verdict, read once when the replay is loaded.
#[derive(Clone, Serialize, Debug)]
pub struct FailureInfo {
    pub mark: FailureMark,
    /// The last frame's status line: `White wins: Black's move clock ran out ...`.
    pub verdict: String,
    /// The log panel on the last frame: what the bot printed and how it ended.
    pub panel: String,
}

/// The failure of `replay`, whose last position is `end`; `None` for a normal end, an abort,
/// or a verdict the player cannot attribute.
pub fn read(replay: &Replay, end: &AnyGame, seats: [&str; 2]) -> Option<FailureInfo> {
    let reason = &replay.result.reason;
    let seat = reason.culprit()?;
    let who = seats[seat.index()];
    let winner = seats[seat.other().index()];
    let fail = replay.failure.as_ref().filter(|f| f.seat == seat);
    let mut mark = FailureMark {
        seat: seat as u8,
        kind: reason.code(),
        ..FailureMark::default()
    };
    let words = match reason {
        Reason::IllegalMove { mv, why, line, .. } => {
            illegal(&mut mark, end, mv, why, line.as_deref())
        }
        Reason::MalformedOutput { line, .. } => {
            format!("sent {line:?}, which is not a move")
        }
        Reason::MoveTime { limit_ms, .. } => {
            mark.clock = Some("move");
            move_clock(*limit_ms, fail)
        }
        Reason::GameTime { limit_ms, .. } => {
            mark.clock = Some("game");
            game_clock(*limit_ms, fail)
        }
        Reason::Crash { .. } => crash(reason, fail),
        Reason::Memory { limit_bytes, .. } => memory(*limit_bytes, fail),
        other => other.to_string(),
    };
    mark.caption = format!("{who} {words}");
    let number = replay.moves.len() + 1;
    let verdict = format!("{winner} wins: {who} {words} at move {number}");
    let stderr = fail.and_then(|f| f.stderr.clone()).or_else(|| {
        let old = replay.meta.stderr.as_ref()?;
        Some(old[seat.index()].clone()).filter(|s| !s.trim().is_empty())
    });
    let panel = panel(fail, stderr.as_deref());
    Some(FailureInfo {
        mark,
        verdict,
        panel,
    })
}

/// An illegal move: the attempted square drawn when it is on the board, else said in words.
fn illegal(
    mark: &mut FailureMark,
    end: &AnyGame,
    mv: &str,
    why: &str,
    line: Option<&str>,
) -> String {
    let parsed = end
        .parse_move(mv)
        .ok()
        .or_else(|| line.and_then(|l| end.parse_move(l).ok()));
    let sent = line.unwrap_or(mv);
    let Some(m) = parsed else {
        let board = board_name(end);
        return format!("made an illegal move: sent {sent:?}, which is not on the {board}");
    };
    let canonical = end.format_move(m);
    locate(mark, m);
    mark.attempt = Some(canonical.clone());
    if line.is_some_and(|l| l.trim() != canonical) {
        format!("sent {sent:?} ({canonical}): {why}")
    } else {
        format!("played {canonical}: {why}")
    }
}

/// Where the attempted move is drawn.
fn locate(mark: &mut FailureMark, m: AnyMove) {
    match m {
        AnyMove::Reversi(reversi::Move::Place { row, col }) => mark.cell = Some([row, col]),
        AnyMove::Gomoku(gomoku::Point { x, y }) => mark.cell = Some([y, x]),
        AnyMove::Duel2048(duel2048::Move::Place { row, col }) => mark.cell = Some([row, col]),
        AnyMove::Duel2048(duel2048::Move::Slide(d)) => mark.direction = Some(d.as_str()),
        _ => {}
    }
}

fn board_name(end: &AnyGame) -> String {
    match end {
        AnyGame::Reversi(g) => format!("{0}×{0} board", g.size()),
        AnyGame::Gomoku(g) => format!("{0}×{0} board", g.size()),
        AnyGame::Duel2048(_) => String::from("4×8 board"),
    }
}

fn move_clock(limit_ms: u64, fail: Option<&Failure>) -> String {
    let limit = ms(limit_ms as f64);
    match fail.and_then(|f| f.time_ms) {
        Some(t) => format!("ran out of its move clock: {} used of {limit}", ms(t)),
        None => format!("ran out of its move clock ({limit} a move)"),
    }
}

fn game_clock(limit_ms: u64, fail: Option<&Failure>) -> String {
    let limit = ms(limit_ms as f64);
    match fail.and_then(|f| f.clock_ms) {
        Some(left) => format!(
            "ran out of its game clock ({limit} a game): {} left when asked{}",
            ms(left),
            fail.and_then(|f| f.time_ms)
                .map(|t| format!(", {} used", ms(t)))
                .unwrap_or_default()
        ),
        None => format!("ran out of its game clock ({limit} a game)"),
    }
}

fn crash(reason: &Reason, fail: Option<&Failure>) -> String {
    let how = match (fail.and_then(|f| f.exit.as_ref()), reason) {
        (Some(exit), _) => exit.to_string(),
        (
            None,
            Reason::Crash {
                exit_code, signal, ..
            },
        ) => Exit {
            code: *exit_code,
            signal: *signal,
            ..Exit::default()
        }
        .to_string(),
        _ => String::new(),
    };
    let last = fail
        .and_then(|f| f.stderr.as_deref())
        .and_then(last_error_line);
    match last {
        Some(line) => format!("crashed with {how}: {line}"),
        None => format!("crashed with {how}"),
    }
}

fn memory(limit_bytes: u64, fail: Option<&Failure>) -> String {
    let mb = limit_bytes / (1024 * 1024);
    match fail.and_then(|f| f.exit.as_ref()) {
        Some(exit) => format!("used more than its {mb} MB of memory and was stopped: {exit}"),
        None => format!("used more than its {mb} MB of memory"),
    }
}

/// What a contest site puts in place of another author's bot output (server::games::redact):
/// said as such, never quoted as the bot's own error line.
pub const HIDDEN_OUTPUT: &str = "hidden: only the author sees this bot's output";

/// The line that names the error: the last non-blank line of a traceback's tail.
fn last_error_line(stderr: &str) -> Option<String> {
    if stderr == HIDDEN_OUTPUT {
        return None;
    }
    let line = stderr.lines().rev().find(|l| !l.trim().is_empty())?.trim();
    let cut: String = line.chars().take(120).collect();
    Some(cut)
}

/// The log panel: what the bot wrote and how its process ended (the status line above it
/// holds the verdict).
fn panel(fail: Option<&Failure>, stderr: Option<&str>) -> String {
    let mut parts: Vec<String> = Vec::new();
    let log = fail.and_then(|f| f.log.as_deref());
    if stderr == Some(HIDDEN_OUTPUT) {
        parts.push(format!("DEBUG output and stderr: {HIDDEN_OUTPUT}"));
        return finish_panel(parts, fail);
    }
    match log {
        Some(log) if !log.trim().is_empty() => parts.push(format!(
            "DEBUG output since its last move:\n{}",
            log.trim_end()
        )),
        _ => parts.push(String::from("DEBUG output since its last move: none")),
    }
    match stderr {
        Some(s) if !s.trim().is_empty() => {
            parts.push(format!("stderr (last lines):\n{}", s.trim_end()))
        }
        _ => parts.push(String::from("stderr: empty")),
    }
    finish_panel(parts, fail)
}

/// The panel's end: how the process ended and the times.
fn finish_panel(mut parts: Vec<String>, fail: Option<&Failure>) -> String {
    if let Some(f) = fail {
        if let Some(exit) = &f.exit {
            parts.push(format!("process: {exit}"));
        }
        let mut times = Vec::new();
        if let Some(t) = f.time_ms {
            times.push(format!("{} on this request", ms(t)));
        }
        if let Some(c) = f.clock_ms {
            times.push(format!("game clock {} left when asked", ms(c)));
        }
        if !times.is_empty() {
            parts.push(format!("time: {}", times.join("; ")));
        }
    }
    parts.join("\n\n")
}

/// The move list's notation of a square or point, for descriptions and hover text.
pub fn cell_name(game: &AnyGame, [r, c]: [u8; 2]) -> String {
    match game {
        AnyGame::Reversi(_) => reversi_square(r, c),
        AnyGame::Gomoku(g) => format!("{}{}", char::from(b'A' + c), g.size() - r),
        AnyGame::Duel2048(_) => format!("{r},{c}"),
    }
}

/// The canvas's tooltip for a cell: the move list's notation, then the protocol's.
pub fn hover_text(game: &str, size: u8, [r, c]: [u8; 2]) -> String {
    match game {
        "reversi" => format!("{} · protocol {r} {c}", reversi_square(r, c)),
        "gomoku" => format!(
            "{}{} · Gomocup {c},{r}",
            char::from(b'A' + c),
            u32::from(size).saturating_sub(u32::from(r))
        ),
        _ => format!("{r},{c}"),
    }
}

/// `d3`: column letter, row from the top counted from 1.
pub fn reversi_square(r: u8, c: u8) -> String {
    format!("{}{}", char::from(b'a' + c), u32::from(r) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_output_is_said_hidden_and_never_quoted_as_the_error() {
        assert_eq!(last_error_line(HIDDEN_OUTPUT), None);
        let text = panel(None, Some(HIDDEN_OUTPUT));
        assert_eq!(text, format!("DEBUG output and stderr: {HIDDEN_OUTPUT}"));
    }

    #[test]
    fn the_error_line_of_a_traceback() {
        let tb = "Traceback (most recent call last):\n  File \"bot.py\", line 3\nIndexError: list index out of range\n\n";
        assert_eq!(
            last_error_line(tb).as_deref(),
            Some("IndexError: list index out of range")
        );
        assert_eq!(last_error_line(" \n"), None);
    }
}
