//! Compiles the catalogues the web player needs (`player.ftl`, `verdict.ftl`) into Rust tables,
//! so that the player's wasm formats messages without a Fluent parser and bundle (about
//! 60 KB of gzipped wasm, past the player's budget). The `.ftl` files stay the one source: the
//! same parser reads them here, and a test compares both formatters message by message.

use std::fmt::Write as _;
use std::path::Path;

use fluent_syntax::ast::{
    Entry, Expression, InlineExpression, Pattern, PatternElement, VariantKey,
};

/// The files the player reads.
const COMPILED: [&str; 2] = ["player", "verdict"];

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut code = String::new();
    for (name, dir) in [("EN", "en"), ("ZH_CN", "zh-CN")] {
        let mut messages = Vec::new();
        for file in COMPILED {
            let path = format!("{dir}/{file}.ftl");
            println!("cargo:rerun-if-changed={path}");
            let src = std::fs::read_to_string(&path).expect("a catalogue");
            // A file that does not parse is reported by the tests with its errors.
            let res = fluent_syntax::parser::parse(src.as_str()).unwrap_or_else(|(r, _)| r);
            for entry in res.body {
                if let Entry::Message(m) = entry {
                    if let Some(p) = &m.value {
                        messages.push((m.id.name.to_string(), pattern(p)));
                    }
                }
            }
        }
        messages.sort();
        messages.dedup_by(|a, b| a.0 == b.0);
        let _ = writeln!(code, "pub static {name}: &[(&str, &str)] = &[");
        for (key, p) in messages {
            let _ = writeln!(code, "    ({key:?}, {p}),");
        }
        code.push_str("];\n");
    }
    std::fs::write(Path::new(&out).join("compiled.rs"), code).expect("write compiled.rs");
}

/// A pattern as a Rust string literal of the compact form `compiled.rs` reads: text as it is,
/// a variable as `VAR name END`, a select as `SELECT name END` then each variant as `VARIANT
/// key END pattern` (the default's key starting with `*`), closed by `CLOSE`.
fn pattern(p: &Pattern<&str>) -> String {
    format!("{:?}", encode(p))
}

const VAR: char = '\u{1}';
const END: char = '\u{2}';
const SELECT: char = '\u{3}';
const VARIANT: char = '\u{4}';
const CLOSE: char = '\u{5}';

fn encode(p: &Pattern<&str>) -> String {
    let mut out = String::new();
    for el in &p.elements {
        match el {
            PatternElement::TextElement { value } => {
                assert!(
                    !value.contains([VAR, END, SELECT, VARIANT, CLOSE]),
                    "a catalogue text holds a control character: {value:?}"
                );
                out.push_str(value)
            }
            PatternElement::Placeable { expression } => expression_code(expression, &mut out),
        }
    }
    out
}

fn expression_code(e: &Expression<&str>, out: &mut String) {
    match e {
        Expression::Inline(i) => inline(i, out),
        Expression::Select { selector, variants } => {
            let InlineExpression::VariableReference { id } = selector else {
                panic!("the player's catalogues select on variables only");
            };
            let _ = write!(out, "{SELECT}{}{END}", id.name);
            for v in variants {
                let key = match &v.key {
                    VariantKey::Identifier { name } => *name,
                    VariantKey::NumberLiteral { value } => *value,
                };
                let star = if v.default { "*" } else { "" };
                let _ = write!(out, "{VARIANT}{star}{key}{END}{}", encode(&v.value));
            }
            out.push(CLOSE);
        }
    }
}

fn inline(i: &InlineExpression<&str>, out: &mut String) {
    match i {
        InlineExpression::VariableReference { id } => {
            let _ = write!(out, "{VAR}{}{END}", id.name);
        }
        InlineExpression::StringLiteral { value } => out.push_str(&unescape(value)),
        InlineExpression::Placeable { expression } => expression_code(expression, out),
        other => panic!("the player's catalogues use text, variables and selects only: {other:?}"),
    }
}

/// A Fluent string literal's escapes (`\"`, `\\`, `\uXXXX`).
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let code = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                out.push(code.unwrap_or('\u{fffd}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}
