//! Verdicts in words. A replay keeps its verdict as data (`result.reason`, keyed by `kind`),
//! and that data never changes with the language; these functions only say it. Every reason
//! kind is one message of `verdict.ftl` with named parameters (the move, the line, the limit).
//!
//! The engine's reason for an illegal move reaches a replay as English text (`why`), written
//! by `IllegalMove`'s `Display`; [`why`] reads the texts the engine writes back into their
//! kinds, and leaves any other text as it is.

use arbiter_engine::replay::{signal_name, Exit, Killer, Reason};
use arbiter_engine::Seat;

use crate::{Arg, Lang};

/// What a student reads for a reason: "illegal move d3 (the move flips no disc)", "非法落子 d3
/// （该落子没有翻转任何棋子）".
pub fn reason(lang: Lang, r: &Reason) -> String {
    match r {
        Reason::Normal => lang.t("verdict-normal"),
        Reason::IllegalMove { mv, why, line, .. } => illegal(lang, mv, why, line.as_deref()),
        Reason::MalformedOutput { line, .. } => {
            lang.ta("verdict-malformed-output", &[("line", quoted(line).into())])
        }
        Reason::OutOfTurn { line, .. } => {
            lang.ta("verdict-out-of-turn", &[("line", quoted(line).into())])
        }
        Reason::MoveTime { limit_ms, .. } => {
            lang.ta("verdict-move-time", &[("limit_ms", limit_ms.into())])
        }
        Reason::GameTime { limit_ms, .. } => {
            lang.ta("verdict-game-time", &[("limit_ms", limit_ms.into())])
        }
        Reason::Crash {
            exit_code, signal, ..
        } => crash(lang, *exit_code, *signal),
        Reason::Memory { limit_bytes, .. } => lang.ta(
            "verdict-memory",
            &[("limit_mb", (limit_bytes / (1024 * 1024)).into())],
        ),
        Reason::ExitedEarly {
            exit_code: Some(c), ..
        } => lang.ta("verdict-exited-early-code", &[("code", c.into())]),
        Reason::ExitedEarly { .. } => lang.t("verdict-exited-early"),
        Reason::FailedToStart { error, .. } => {
            lang.ta("verdict-failed-to-start", &[("error", error.into())])
        }
        Reason::NoHandshake { .. } => lang.t("verdict-no-handshake"),
        Reason::ProtocolError { message, .. } => {
            lang.ta("verdict-protocol-error", &[("message", message.into())])
        }
        Reason::Aborted { message } => lang.ta(
            "verdict-aborted",
            &[("message", Arg::Text(aborted(lang, message)))],
        ),
    }
}

/// An aborted game's message, which the referee writes in English: said in `lang` where its
/// form is known (site, reports; the player's compiled catalogues leave it as it is).
fn aborted(lang: Lang, message: &str) -> std::borrow::Cow<'_, str> {
    #[cfg(feature = "fluent")]
    return crate::machine::aborted(lang, message).into();
    #[cfg(not(feature = "fluent"))]
    return {
        let _ = lang;
        message.into()
    };
}

/// A bot's line as the verdicts quote it: in double quotes, escaped like Rust's `{:?}` so that
/// an invisible character shows.
pub fn quoted(line: &str) -> String {
    format!("{line:?}")
}

fn illegal(lang: Lang, mv: &str, why_text: &str, line: Option<&str>) -> String {
    let Some(line) = line else {
        return lang.ta(
            "verdict-illegal-move",
            &[("move", mv.into()), ("why", why(lang, why_text).into())],
        );
    };
    // A move the engine cannot name (off the board) is the bot's own text.
    let mut sent = quoted(line);
    if mv != line.trim() {
        sent = format!("{sent} ({mv})");
    }
    match which(lang, why_text) {
        Some(clause) => lang.ta(
            "verdict-illegal-move-sent-which",
            &[("sent", sent.into()), ("which", clause.into())],
        ),
        None => lang.ta(
            "verdict-illegal-move-sent",
            &[("sent", sent.into()), ("why", why(lang, why_text).into())],
        ),
    }
}

fn crash(lang: Lang, exit_code: Option<i32>, signal: Option<i32>) -> String {
    match (exit_code, signal) {
        (Some(c), _) => lang.ta("verdict-crash-code", &[("code", c.into())]),
        (None, Some(s)) => match signal_name(s) {
            Some(name) => lang.ta(
                "verdict-crash-signal-name",
                &[("signal", s.into()), ("name", name.into())],
            ),
            None => lang.ta("verdict-crash-signal", &[("signal", s.into())]),
        },
        (None, None) => lang.t("verdict-crash"),
    }
}

/// The kind of an engine's reason, read back from its English text, with its parameters.
fn why_kind(why: &str) -> Option<(&'static str, Vec<(&'static str, Arg<'static>)>)> {
    let plain = match why {
        "the game is already over" => "why-game-over",
        "the point is off the board" => "why-off-board",
        "the point is already occupied" => "why-occupied",
        "the move flips no disc" => "why-no-flips",
        "passing is not allowed while a move exists" => "why-cannot-pass",
        "there is no legal move: the side must pass" => "why-must-pass",
        "this step is a placement, not a direction" => "why-step-place",
        "this step is a direction, not a placement" => "why-step-slide",
        "not achievable position: your own half is full" => "why-half-full",
        "not achievable direction: it leaves the board unchanged" => "why-no-change",
        _ => return why_with_parameters(why),
    };
    Some((plain, Vec::new()))
}

fn why_with_parameters(why: &str) -> Option<(&'static str, Vec<(&'static str, Arg<'static>)>)> {
    if let Some(kind) = why
        .strip_prefix("forbidden point for black (")
        .and_then(|r| r.strip_suffix(')'))
    {
        let kind = match kind {
            "double-three" => "three",
            "double-four" => "four",
            "overline" => "overline",
            _ => return None,
        };
        return Some(("why-forbidden", vec![("kind", kind.into())]));
    }
    let cell = why
        .strip_prefix("not achievable position: in your own half only (")?
        .strip_suffix(") is allowed this round")?;
    let (r, c) = cell.split_once(", ")?;
    let args = vec![("row", r.to_string().into()), ("col", c.to_string().into())];
    Some(("why-random-cell", args))
}

/// Why an illegal move was refused, in `lang`; a text the engine did not write stays as it is.
pub fn why(lang: Lang, why: &str) -> String {
    match why_kind(why) {
        Some((key, args)) => lang.ta(key, &args),
        None => why.to_string(),
    }
}

/// The reason as a clause about the move ("flips no disc"), for the kinds that read well
/// after "which"; the message `which-…` of the kind, when the catalogue has one.
fn which(lang: Lang, text: &str) -> Option<String> {
    let (key, args) = why_kind(text)?;
    let clause = key.replacen("why-", "which-", 1);
    Lang::En.has(&clause).then(|| lang.ta(&clause, &args))
}

/// A reason in a table, where only its stored words (`english`, the CLI's) and its kind
/// (`code`) are at hand: the words in English, else the kind's name (the full words in another
/// language need the replay's reason, which the game's own page reads).
pub fn in_table(lang: Lang, code: &str, english: &str) -> String {
    let kind = format!("kind-{code}");
    if lang == Lang::En || !Lang::En.has(&kind) {
        english.to_string()
    } else {
        lang.t(&kind)
    }
}

/// A seat as the verdicts name it when no player name is known.
pub fn seat(lang: Lang, s: Seat) -> String {
    const KEYS: [&str; Seat::MAX] = [
        "seat-first",
        "seat-second",
        "seat-third",
        "seat-fourth",
        "seat-fifth",
        "seat-sixth",
        "seat-seventh",
        "seat-eighth",
    ];
    lang.t(KEYS[s.index() % Seat::MAX])
}

/// How a process ended: "exit code 1", "signal 9 (SIGKILL), killed by arbiter: memory limit".
pub fn exit(lang: Lang, e: &Exit) -> String {
    let Some(s) = e.signal else {
        return match e.code {
            Some(c) => lang.ta("exit-code", &[("code", c.into())]),
            None => lang.t("exit-unknown"),
        };
    };
    let signal = match signal_name(s) {
        Some(name) => format!("{s} ({name})"),
        None => s.to_string(),
    };
    let by = match (e.killed_by, &e.why) {
        (Some(Killer::Arbiter), Some(why)) => {
            return lang.ta(
                "exit-signal-arbiter-why",
                &[
                    ("signal", signal.into()),
                    ("why", kill_why(lang, why).into()),
                ],
            )
        }
        (Some(Killer::Arbiter), None) => "exit-signal-arbiter",
        (Some(Killer::Outside), _) => "exit-signal-outside",
        (Some(Killer::Itself), _) => "exit-signal-itself",
        (None, _) => "exit-signal",
    };
    lang.ta(by, &[("signal", signal.into())])
}

/// Why arbiter stopped a process ("memory limit", "CPU time limit", "move time").
fn kill_why(lang: Lang, why: &str) -> String {
    let key = match why {
        "memory limit" => "kill-memory",
        "CPU time limit" => "kill-cpu",
        "move time" => "kill-move-time",
        _ => return why.to_string(),
    };
    lang.t(key)
}
