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
use arbiter_engine::{duel2048, gomoku, reversi, Seat};
use serde::Serialize;

use crate::lang::{t, ta, Arg};
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
pub fn read(replay: &Replay, end: &AnyGame, seats: &[String]) -> Option<FailureInfo> {
    let reason = &replay.result.reason;
    let seat = reason.culprit()?;
    let label = |s: Seat| seats.get(s.index()).map_or("?", String::as_str);
    let who = label(seat);
    // Of more than two seats, the result's winner (the other seat of two).
    let winner = label(replay.result.winner.unwrap_or(seat.other()));
    let fail = replay.failure.as_ref().filter(|f| f.seat == seat);
    let mut mark = FailureMark {
        seat: u8::from(seat),
        kind: reason.code(),
        ..FailureMark::default()
    };
    let words = match reason {
        Reason::IllegalMove { mv, why, line, .. } => {
            illegal(&mut mark, end, mv, why, line.as_deref())
        }
        Reason::MalformedOutput { line, .. } => {
            ta("fail-malformed", &[("line", format!("{line:?}").into())])
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
        other => arbiter_i18n::verdict::reason(crate::lang::get(), other),
    };
    let (who, winner) = (Arg::from(who), Arg::from(winner));
    mark.caption = ta(
        "fail-caption",
        &[("who", who.clone()), ("words", (&words).into())],
    );
    let number = replay.moves.len() + 1;
    let verdict = ta(
        "fail-verdict",
        &[
            ("winner", winner),
            ("who", who),
            ("words", words.into()),
            ("n", number.into()),
        ],
    );
    let stderr = fail.and_then(|f| f.stderr.clone()).or_else(|| {
        let old = replay.meta.stderr.as_ref()?;
        old.get(seat.index())
            .cloned()
            .filter(|s| !s.trim().is_empty())
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
        let sent = format!("{sent:?}");
        return ta(
            "fail-off-board",
            &[("sent", sent.into()), ("board", board.into())],
        );
    };
    let canonical = end.format_move(m);
    locate(mark, m);
    mark.attempt = Some(canonical.clone());
    let why = arbiter_i18n::verdict::why(crate::lang::get(), why);
    if line.is_some_and(|l| l.trim() != canonical) {
        let sent = format!("{sent:?}");
        let args = [
            ("sent", sent.into()),
            ("move", canonical.into()),
            ("why", why.into()),
        ];
        ta("fail-sent", &args)
    } else {
        ta(
            "fail-played",
            &[("move", canonical.into()), ("why", why.into())],
        )
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
    let board = |rows: u8, cols: u8| {
        let (rows, cols) = (rows.to_string(), cols.to_string());
        ta(
            "fail-board",
            &[("rows", rows.into()), ("cols", cols.into())],
        )
    };
    match end {
        AnyGame::Reversi(g) => board(g.size(), g.size()),
        AnyGame::Gomoku(g) => board(g.size(), g.size()),
        AnyGame::Duel2048(_) => board(4, 8),
        // A module game's board is the view's; its size is not a pair of numbers here.
        AnyGame::Module(_) => String::new(),
    }
}

fn move_clock(limit_ms: u64, fail: Option<&Failure>) -> String {
    let limit = ms(limit_ms as f64);
    match fail.and_then(|f| f.time_ms) {
        Some(t) => ta(
            "fail-move-clock-used",
            &[("used", ms(t).into()), ("limit", limit.into())],
        ),
        None => ta("fail-move-clock", &[("limit", limit.into())]),
    }
}

fn game_clock(limit_ms: u64, fail: Option<&Failure>) -> String {
    let limit = ms(limit_ms as f64);
    match fail.and_then(|f| f.clock_ms) {
        Some(left) => {
            let used = fail
                .and_then(|f| f.time_ms)
                .map(|t| ta("fail-game-clock-used", &[("used", ms(t).into())]))
                .unwrap_or_default();
            ta(
                "fail-game-clock-left",
                &[
                    ("limit", limit.into()),
                    ("left", ms(left).into()),
                    ("used", used.into()),
                ],
            )
        }
        None => ta("fail-game-clock", &[("limit", limit.into())]),
    }
}

fn crash(reason: &Reason, fail: Option<&Failure>) -> String {
    let lang = crate::lang::get();
    let how = match (fail.and_then(|f| f.exit.as_ref()), reason) {
        (Some(exit), _) => arbiter_i18n::verdict::exit(lang, exit),
        (
            None,
            Reason::Crash {
                exit_code, signal, ..
            },
        ) => {
            let exit = Exit {
                code: *exit_code,
                signal: *signal,
                ..Exit::default()
            };
            arbiter_i18n::verdict::exit(lang, &exit)
        }
        _ => String::new(),
    };
    let last = fail
        .and_then(|f| f.stderr.as_deref())
        .and_then(last_error_line);
    match last {
        Some(line) => ta(
            "fail-crash-line",
            &[("how", how.into()), ("line", line.into())],
        ),
        None => ta("fail-crash", &[("how", how.into())]),
    }
}

fn memory(limit_bytes: u64, fail: Option<&Failure>) -> String {
    let mb = limit_bytes / (1024 * 1024);
    match fail.and_then(|f| f.exit.as_ref()) {
        Some(exit) => {
            let exit = arbiter_i18n::verdict::exit(crate::lang::get(), exit);
            ta(
                "fail-memory-exit",
                &[("mb", mb.into()), ("exit", exit.into())],
            )
        }
        None => ta("fail-memory", &[("mb", mb.into())]),
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
        parts.push(t("fail-hidden"));
        return finish_panel(parts, fail);
    }
    match log {
        Some(log) if !log.trim().is_empty() => {
            parts.push(format!("{}\n{}", t("fail-debug"), log.trim_end()))
        }
        _ => parts.push(t("fail-debug-none")),
    }
    match stderr {
        Some(s) if !s.trim().is_empty() => {
            parts.push(format!("{}\n{}", t("fail-stderr"), s.trim_end()))
        }
        _ => parts.push(t("fail-stderr-empty")),
    }
    finish_panel(parts, fail)
}

/// The panel's end: how the process ended and the times.
fn finish_panel(mut parts: Vec<String>, fail: Option<&Failure>) -> String {
    if let Some(f) = fail {
        if let Some(exit) = &f.exit {
            let exit = arbiter_i18n::verdict::exit(crate::lang::get(), exit);
            parts.push(ta("fail-process", &[("exit", exit.into())]));
        }
        let mut times = Vec::new();
        if let Some(time) = f.time_ms {
            times.push(ta("fail-time-request", &[("t", ms(time).into())]));
        }
        if let Some(c) = f.clock_ms {
            times.push(ta("fail-time-clock", &[("t", ms(c).into())]));
        }
        if !times.is_empty() {
            parts.push(ta("fail-time", &[("times", times.join("; ").into())]));
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
        AnyGame::Module(_) => format!("{c},{r}"),
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
