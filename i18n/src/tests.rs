//! The catalogues agree: every file parses, every message exists in both languages with the
//! same parameters, and the verdicts read as the CLI's in English.

use std::collections::{BTreeMap, BTreeSet};

use arbiter_engine::replay::{Exit, Killer, Reason};
use arbiter_engine::Seat;
use fluent_syntax::ast;

use super::*;

/// Each message of a source with the parameters it uses.
fn messages(src: &str) -> BTreeMap<String, BTreeSet<String>> {
    let res = match fluent_syntax::parser::parse(src) {
        Ok(r) => r,
        Err((_, errors)) => panic!("catalogue does not parse: {errors:?}"),
    };
    let mut out = BTreeMap::new();
    for entry in res.body {
        if let ast::Entry::Message(m) = entry {
            let mut vars = BTreeSet::new();
            if let Some(p) = &m.value {
                pattern_vars(p, &mut vars);
            }
            let fresh = out.insert(m.id.name.to_string(), vars).is_none();
            assert!(fresh, "{} defined twice", m.id.name);
        }
    }
    out
}

fn pattern_vars(p: &ast::Pattern<&str>, vars: &mut BTreeSet<String>) {
    for el in &p.elements {
        if let ast::PatternElement::Placeable { expression } = el {
            expression_vars(expression, vars);
        }
    }
}

fn expression_vars(e: &ast::Expression<&str>, vars: &mut BTreeSet<String>) {
    match e {
        ast::Expression::Inline(i) => inline_vars(i, vars),
        ast::Expression::Select { selector, variants } => {
            inline_vars(selector, vars);
            for v in variants {
                pattern_vars(&v.value, vars);
            }
        }
    }
}

fn inline_vars(i: &ast::InlineExpression<&str>, vars: &mut BTreeSet<String>) {
    match i {
        ast::InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_string());
        }
        ast::InlineExpression::Placeable { expression } => expression_vars(expression, vars),
        _ => {}
    }
}

#[test]
fn every_message_is_in_both_catalogues_with_the_same_parameters() {
    for (i, file) in FILES.iter().enumerate() {
        let en = messages(Lang::En.sources()[i]);
        let zh = messages(Lang::ZhCn.sources()[i]);
        let only_en: Vec<_> = en.keys().filter(|k| !zh.contains_key(*k)).collect();
        let only_zh: Vec<_> = zh.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(only_en.is_empty(), "{file}.ftl: not in zh-CN: {only_en:?}");
        assert!(only_zh.is_empty(), "{file}.ftl: not in en: {only_zh:?}");
        for (key, vars) in &en {
            assert_eq!(vars, &zh[key], "{file}.ftl: {key}: parameters differ");
        }
    }
}

#[test]
fn no_key_is_defined_in_two_files() {
    let mut seen = BTreeMap::new();
    for (i, file) in FILES.iter().enumerate() {
        for key in messages(Lang::En.sources()[i]).into_keys() {
            if let Some(other) = seen.insert(key.clone(), *file) {
                panic!("{key} is in {other}.ftl and {file}.ftl");
            }
        }
    }
}

#[test]
fn accept_language_picks_the_preferred_spoken_language() {
    assert_eq!(
        Lang::from_accept_language("zh-CN,zh;q=0.9,en;q=0.8"),
        Some(Lang::ZhCn)
    );
    assert_eq!(
        Lang::from_accept_language("fr, en-GB;q=0.7, zh;q=0.5"),
        Some(Lang::En)
    );
    assert_eq!(
        Lang::from_accept_language("en;q=0.2, zh-TW;q=0.8"),
        Some(Lang::ZhCn)
    );
    assert_eq!(Lang::from_accept_language("de, fr;q=0.9"), None);
    assert_eq!(Lang::from_accept_language("zh;q=0, en"), Some(Lang::En));
    assert_eq!(Lang::from_accept_language(""), None);
}

#[test]
fn a_missing_key_shows_itself_and_parameters_fill_in() {
    assert_eq!(Lang::ZhCn.t("no-such-key"), "no-such-key");
    assert_eq!(
        Lang::ZhCn.ta("verdict-move-time", &[("limit_ms", 2000u64.into())]),
        "单步超时（限时 2000 毫秒）"
    );
}

fn all_reasons() -> Vec<Reason> {
    let s = Seat::FIRST;
    vec![
        Reason::Normal,
        Reason::IllegalMove {
            seat: s,
            mv: "a1".into(),
            why: "the move flips no disc".into(),
            line: Some("0 0".into()),
        },
        Reason::IllegalMove {
            seat: s,
            mv: "h8".into(),
            why: "forbidden point for black (double-three)".into(),
            line: None,
        },
        Reason::IllegalMove {
            seat: s,
            mv: "z9".into(),
            why: "passing is not allowed while a move exists".into(),
            line: Some("z9".into()),
        },
        Reason::MalformedOutput {
            seat: s,
            line: "hello".into(),
        },
        Reason::OutOfTurn {
            seat: s,
            line: "d3".into(),
        },
        Reason::MoveTime {
            seat: s,
            limit_ms: 5000,
        },
        Reason::GameTime {
            seat: s,
            limit_ms: 180000,
        },
        Reason::Crash {
            seat: s,
            exit_code: Some(1),
            signal: None,
        },
        Reason::Crash {
            seat: s,
            exit_code: None,
            signal: Some(11),
        },
        Reason::Crash {
            seat: s,
            exit_code: None,
            signal: None,
        },
        Reason::Memory {
            seat: s,
            limit_bytes: 350 << 20,
        },
        Reason::ExitedEarly {
            seat: s,
            exit_code: Some(0),
        },
        Reason::ExitedEarly {
            seat: s,
            exit_code: None,
        },
        Reason::FailedToStart {
            seat: s,
            error: "no such file".into(),
        },
        Reason::NoHandshake { seat: s },
        Reason::ProtocolError {
            seat: s,
            message: "bad frame".into(),
        },
        Reason::Aborted {
            message: "cancelled".into(),
        },
    ]
}

#[test]
fn english_verdicts_read_as_the_cli_s() {
    for r in all_reasons() {
        assert_eq!(verdict::reason(Lang::En, &r), r.to_string());
    }
}

#[test]
fn chinese_verdicts_are_chinese_and_keep_the_move() {
    for r in all_reasons() {
        let zh = verdict::reason(Lang::ZhCn, &r);
        assert_ne!(zh, r.to_string(), "{r:?} not translated");
        assert!(!zh.contains("verdict-") && !zh.contains("why-"), "{zh}");
    }
    let r = &all_reasons()[1];
    assert_eq!(
        verdict::reason(Lang::ZhCn, r),
        "非法落子：你的程序输出了 \"0 0\" (a1)，没有翻转任何对方棋子"
    );
    assert_eq!(
        verdict::reason(Lang::ZhCn, &all_reasons()[2]),
        "非法落子 h8（黑方禁手点（三三禁手））"
    );
}

#[test]
fn every_engine_reason_has_a_kind() {
    use arbiter_engine::error::{ForbiddenKind, IllegalMove, StepKind};
    let all = [
        IllegalMove::GameOver,
        IllegalMove::OffBoard,
        IllegalMove::Occupied,
        IllegalMove::NoFlips,
        IllegalMove::CannotPass,
        IllegalMove::MustPass,
        IllegalMove::Forbidden(ForbiddenKind::DoubleThree),
        IllegalMove::Forbidden(ForbiddenKind::DoubleFour),
        IllegalMove::Forbidden(ForbiddenKind::Overline),
        IllegalMove::WrongStep {
            expected: StepKind::Place,
        },
        IllegalMove::WrongStep {
            expected: StepKind::Slide,
        },
        IllegalMove::NotRandomCell {
            allowed: Some((2, 3)),
        },
        IllegalMove::NotRandomCell { allowed: None },
        IllegalMove::NoChange,
    ];
    for m in all {
        let text = m.to_string();
        assert_eq!(verdict::why(Lang::En, &text), text);
        assert_ne!(verdict::why(Lang::ZhCn, &text), text, "{text}");
    }
}

#[test]
fn exits_read_as_the_cli_s_in_english() {
    let exits = [
        Exit {
            code: Some(1),
            ..Exit::default()
        },
        Exit::default(),
        Exit {
            signal: Some(9),
            killed_by: Some(Killer::Arbiter),
            why: Some("memory limit".into()),
            ..Exit::default()
        },
        Exit {
            signal: Some(11),
            killed_by: Some(Killer::Itself),
            ..Exit::default()
        },
        Exit {
            signal: Some(15),
            killed_by: Some(Killer::Outside),
            ..Exit::default()
        },
    ];
    for e in exits {
        assert_eq!(verdict::exit(Lang::En, &e), e.to_string());
        assert_ne!(verdict::exit(Lang::ZhCn, &e), e.to_string());
    }
}

/// Sample values of a parameter: text, and numbers on both sides of English's plural rule.
fn samples() -> [Arg<'static>; 4] {
    // "three": a select's non-default variant (the renju forbidden kinds).
    [
        Arg::from("d3"),
        Arg::from("three"),
        Arg::Num(1.0),
        Arg::Num(2000.0),
    ]
}

#[test]
fn compiled_numbers_read_as_fluent_s() {
    for n in [0.0, 1.0, 12.5, 0.25, 2000.0, 1.125, -3.5] {
        let args = [("limit_ms", Arg::Num(n))];
        assert_eq!(
            compiled::format(Lang::En, "verdict-move-time", &args),
            full::format(Lang::En, "verdict-move-time", &args),
            "{n}"
        );
    }
}

#[test]
fn the_player_s_compiled_messages_read_as_fluent_formats_them() {
    for lang in Lang::ALL {
        for (i, file) in FILES.iter().enumerate() {
            if !matches!(*file, "player" | "verdict") {
                continue;
            }
            for (key, vars) in messages(lang.sources()[i]) {
                for sample in samples() {
                    let args: Vec<(&str, Arg<'_>)> =
                        vars.iter().map(|v| (v.as_str(), sample.clone())).collect();
                    assert_eq!(
                        compiled::format(lang, &key, &args),
                        full::format(lang, &key, &args),
                        "{lang} {key}"
                    );
                }
            }
        }
    }
}
