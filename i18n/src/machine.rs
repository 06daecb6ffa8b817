//! What the judging machine writes, in the reader's language. The referee, the queue, the
//! workers and the server write these texts in English: they are stored that way (the
//! database, replays), printed by the CLI and the logs, and returned by the JSON API, which
//! stay as they are. A page says them again from the catalogues' `machine-*` messages
//! (`site.ftl`), after recognising their stable English forms here; a text that is none of
//! them (an older one, or one no form covers) is shown as it was written.
//!
//! The forms are made by arbiter-match (stalls, storage faults, both bots failing),
//! arbiter-queue (compiles, judging held up) and the server; the server's tests feed this
//! module what those crates make, so that a changed form fails there rather than going
//! untranslated. In English every function gives back the text it was given, and the
//! catalogue's English messages say the forms word for word (a test checks both).

use crate::{Arg, Lang};

/// Why the judging machine spoiled a game or a compile, which was voided: "judging machine
/// stalled 8.0 s at move 31", "the judging machine could not write to its disk (disk full)".
pub fn void_reason(lang: Lang, why: &str) -> String {
    in_lang(lang, why, void_said)
}

/// A live game's title as a contest makes it, "Game 12: ada #3 vs alan #2" (or "Test game 3:
/// ..."), in `lang`; any other title (a tournament's, a match's) as it was written.
pub fn game_title(lang: Lang, title: &str) -> String {
    let said = |prefix: &str, key: &str| {
        let rest = title.strip_prefix(prefix)?;
        let (number, players) = rest.split_once(": ")?;
        let number: u64 = number.parse().ok()?;
        Some(lang.ta(key, &[("n", number.into()), ("players", players.into())]))
    };
    said("Game ", "machine-game-title")
        .or_else(|| said("Test game ", "machine-test-game-title"))
        .unwrap_or_else(|| title.to_string())
}

/// The judging held up: what holds it up (one of the queue's troubles, "database locked") and
/// for how long.
pub fn judging_paused(lang: Lang, what: &str, seconds: u64) -> String {
    let what = match trouble_key(what) {
        Some(key) => lang.t(key),
        None => what.to_string(),
    };
    lang.ta(
        "machine-judging-paused",
        &[("what", what.into()), ("seconds", seconds.into())],
    )
}

/// A compile's log: the compiler's own output as it is, and the lines arbiter adds to it
/// ("the compiler failed (exit code 1)", "[... output cut]") said in `lang`.
pub fn compile_log(lang: Lang, log: &str) -> String {
    if lang == Lang::En {
        return log.to_string();
    }
    let mut out = String::with_capacity(log.len());
    for (i, line) in log.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match compile_said(lang, line) {
            Some(said) => out.push_str(&said),
            None => out.push_str(line),
        }
    }
    out
}

/// The message of an `aborted` reason: "voided: ...", "both bots failed: first: ...; second:
/// ...". Other messages stay as they are.
pub fn aborted(lang: Lang, message: &str) -> String {
    in_lang(lang, message, aborted_said)
}

fn in_lang(lang: Lang, text: &str, said: fn(Lang, &str) -> Option<String>) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    said(lang, text).unwrap_or_else(|| text.to_string())
}

/// A decimal number as the forms write them (`8.0`, `31`).
fn number(s: &str) -> Option<Arg<'_>> {
    let ok = !s.is_empty()
        && s.chars().all(|c| c.is_ascii_digit() || c == '.')
        && s.starts_with(|c: char| c.is_ascii_digit());
    ok.then(|| Arg::from(s))
}

fn void_said(lang: Lang, why: &str) -> Option<String> {
    if let Some(rest) = why.strip_prefix("voided after the lease was taken over: ") {
        return Some(lang.ta(
            "machine-lease-lost",
            &[("why", void_reason(lang, rest).into())],
        ));
    }
    if let Some(rest) = why.strip_prefix("judging machine stalled ") {
        let (seconds, ply) = rest.split_once(" s at move ")?;
        return Some(lang.ta(
            "machine-stalled",
            &[("seconds", number(seconds)?), ("move", number(ply)?)],
        ));
    }
    if let Some(rest) = why.strip_prefix("the bot waited ") {
        let (seconds, ply) =
            rest.split_once(" s for a CPU of the overloaded judging machine at move ")?;
        return Some(lang.ta(
            "machine-cpu-wait",
            &[("seconds", number(seconds)?), ("move", number(ply)?)],
        ));
    }
    let what = why
        .strip_prefix("the judging machine could not write to its disk (")?
        .strip_suffix(')')?;
    let what = match what {
        "read-only file system" => lang.t("machine-disk-read-only"),
        "disk full" => lang.t("machine-disk-full"),
        "disk quota exceeded" => lang.t("machine-disk-quota"),
        "I/O error" => lang.t("machine-disk-io"),
        other => other.to_string(),
    };
    Some(lang.ta("machine-disk", &[("what", what.into())]))
}

/// The message key of a trouble the queue reports (`arbiter_queue::health::TROUBLES`).
fn trouble_key(what: &str) -> Option<&'static str> {
    Some(match what {
        "database locked" => "machine-trouble-locked",
        "database not answering" => "machine-trouble-not-answering",
        "database unreachable" => "machine-trouble-unreachable",
        "database restarting" => "machine-trouble-restarting",
        "the database cannot be written" => "machine-trouble-db-storage",
        "database error" => "machine-trouble-db-error",
        "disk cannot be written" => "machine-trouble-disk",
        _ => return None,
    })
}

fn compile_said(lang: Lang, line: &str) -> Option<String> {
    let fixed = match line {
        "the compiler failed (an unknown status)" => Some("machine-compiler-failed"),
        "the compiler wrote no usable program" => Some("machine-compile-no-program"),
        "[... output cut]" => Some("machine-compile-cut"),
        "no compile command for this language" => Some("machine-compile-no-command"),
        "the compile command is empty" => Some("machine-compile-empty-command"),
        "the build could not be run; the course staff can re-judge it" => {
            Some("machine-build-not-run")
        }
        _ => None,
    };
    if let Some(key) = fixed {
        return Some(lang.t(key));
    }
    if let Some(rest) = line.strip_prefix("the compiler failed (") {
        let rest = rest.strip_suffix(')')?;
        if let Some(code) = rest.strip_prefix("exit code ") {
            number(code.strip_prefix('-').unwrap_or(code))?;
            return Some(lang.ta("machine-compiler-failed-code", &[("code", code.into())]));
        }
        let signal = number(rest.strip_prefix("signal ")?)?;
        return Some(lang.ta("machine-compiler-failed-signal", &[("signal", signal)]));
    }
    if let Some(rest) = line.strip_prefix("compilation took longer than ") {
        let seconds = number(rest.strip_suffix(" s and was stopped")?)?;
        return Some(lang.ta("machine-compile-timeout", &[("seconds", seconds)]));
    }
    if let Some(rest) = line.strip_prefix("the compiler used more than ") {
        let mb = number(rest.strip_suffix(" MB")?)?;
        return Some(lang.ta("machine-compile-memory", &[("mb", mb)]));
    }
    let error = line.strip_prefix("the compiler could not start: ")?;
    Some(lang.ta("machine-compiler-cannot-start", &[("error", error.into())]))
}

fn aborted_said(lang: Lang, message: &str) -> Option<String> {
    if let Some(why) = message.strip_prefix("voided: ") {
        return Some(lang.ta("machine-voided", &[("why", void_reason(lang, why).into())]));
    }
    let both = message.strip_prefix("both bots failed: first: ")?;
    let (first, second) = both.split_once("; second: ")?;
    Some(lang.ta(
        "machine-both-failed",
        &[
            ("first", failure(lang, first).into()),
            ("second", failure(lang, second).into()),
        ],
    ))
}

/// A bot's failure as the engine's reasons write it in English ("failed to start: ...",
/// "crashed (exit code 1)"): its kind said in `lang`, its details as they are.
fn failure(lang: Lang, text: &str) -> String {
    const KINDS: [(&str, &str); 11] = [
        ("failed to start", "kind-failed_to_start"),
        ("no answer to the handshake", "kind-no_handshake"),
        ("crashed", "kind-crash"),
        ("exited before the end", "kind-exited_early"),
        ("protocol error", "kind-protocol_error"),
        ("memory limit exceeded", "kind-memory"),
        ("move time exceeded", "kind-move_time"),
        ("game time exceeded", "kind-game_time"),
        ("malformed output", "kind-malformed_output"),
        ("output out of turn", "kind-out_of_turn"),
        ("illegal move", "kind-illegal_move"),
    ];
    for (english, key) in KINDS {
        if let Some(rest) = text.strip_prefix(english) {
            if rest.is_empty() || rest.starts_with([':', ' ']) {
                return format!("{}{rest}", lang.t(key));
            }
        }
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One text of each form, as the crates that make them write it.
    const VOIDS: [&str; 5] = [
        "judging machine stalled 8.0 s at move 31",
        "the bot waited 2.5 s for a CPU of the overloaded judging machine at move 4",
        "the judging machine could not write to its disk (disk full)",
        "the judging machine could not write to its disk (read-only file system)",
        "voided after the lease was taken over: judging machine stalled 3.1 s at move 0",
    ];
    const COMPILES: [&str; 10] = [
        "the compiler failed (exit code 1)",
        "the compiler failed (signal 9)",
        "the compiler failed (an unknown status)",
        "compilation took longer than 10 s and was stopped",
        "the compiler used more than 512 MB",
        "the compiler wrote no usable program",
        "[... output cut]",
        "no compile command for this language",
        "the compiler could not start: No such file or directory (os error 2)",
        "the build could not be run; the course staff can re-judge it",
    ];
    const ABORTS: [&str; 2] = [
        "voided: judging machine stalled 8.0 s at move 31",
        "both bots failed: first: failed to start: No such file; second: crashed (exit code 1)",
    ];

    #[test]
    fn a_contest_s_game_titles_are_said_in_chinese() {
        let title = "Game 12: ada #3 vs alan #2";
        assert_eq!(game_title(Lang::En, title), title);
        assert_eq!(game_title(Lang::ZhCn, title), "第 12 局：ada #3 vs alan #2");
        // Other titles (a tournament's, a match's) stay as written.
        for other in ["reversi: a vs b", "Game one: x", "Game 3"] {
            assert_eq!(game_title(Lang::ZhCn, other), other);
        }
    }

    fn cjk(s: &str) -> bool {
        s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }

    /// The catalogue's English says each form word for word (the functions, in English,
    /// only give the text back), and Chinese says it in Chinese.
    #[test]
    fn every_form_reads_back_in_english_and_is_said_in_chinese() {
        for why in VOIDS {
            assert_eq!(void_said(Lang::En, why).as_deref(), Some(why));
            let zh = void_reason(Lang::ZhCn, why);
            assert!(cjk(&zh) && !zh.contains("judging"), "{why} -> {zh}");
        }
        for line in COMPILES {
            assert_eq!(compile_said(Lang::En, line).as_deref(), Some(line));
            let zh = compile_log(Lang::ZhCn, line);
            assert!(cjk(&zh) && !zh.contains("compil"), "{line} -> {zh}");
        }
        for message in ABORTS {
            assert!(aborted_said(Lang::En, message).is_some(), "{message}");
            let zh = aborted(Lang::ZhCn, message);
            assert!(cjk(&zh) && !zh.contains("bots"), "{message} -> {zh}");
        }
        assert_eq!(
            aborted(Lang::En, ABORTS[1]),
            ABORTS[1],
            "English gives the text back"
        );
        assert_eq!(
            judging_paused(Lang::En, "database locked", 20),
            "judging paused: database locked for 20 s"
        );
        assert_eq!(
            judging_paused(Lang::ZhCn, "database locked", 20),
            "评测暂停：数据库被锁定，已持续 20 秒"
        );
    }

    #[test]
    fn a_compile_log_keeps_the_compiler_s_words_and_says_arbiter_s() {
        let log =
            "greedy.c:3:1: error: expected ';' before '}' token\nthe compiler failed (exit code 1)";
        assert_eq!(
            compile_log(Lang::ZhCn, log),
            "greedy.c:3:1: error: expected ';' before '}' token\n编译器报错（退出码 1）"
        );
        assert_eq!(compile_log(Lang::En, log), log);
    }

    #[test]
    fn texts_of_no_form_stay_as_they_are() {
        for text in [
            "judging machine stalled a while",
            "judging machine stalled x s at move 3",
            "the compiler failed (exit code one)",
            "the game has no side to move",
            "",
        ] {
            assert_eq!(void_reason(Lang::ZhCn, text), text);
            assert_eq!(aborted(Lang::ZhCn, text), text);
            assert_eq!(compile_log(Lang::ZhCn, text), text);
        }
        assert_eq!(
            judging_paused(Lang::ZhCn, "the moon", 3),
            "评测暂停：the moon，已持续 3 秒"
        );
    }
}
