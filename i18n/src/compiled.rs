//! The web player's formatter: the player's and the verdicts' messages compiled into tables by
//! `build.rs` from the same `.ftl` files, and formatted here with Fluent's rules for what
//! they use (text, variables, selects on a variable with plural categories). A test checks
//! it against fluent-bundle for every message.

use std::string::String;

use crate::{Arg, Lang};

/// A piece of a compiled pattern.
pub enum Piece {
    Text(&'static str),
    Var(&'static str),
    /// A select on a variable: its variants and the default's index.
    Select(
        &'static str,
        &'static [(&'static str, &'static [Piece])],
        usize,
    ),
    Group(&'static [Piece]),
}

include!(concat!(env!("OUT_DIR"), "/compiled.rs"));

fn table(lang: Lang) -> &'static [(&'static str, &'static [Piece])] {
    match lang {
        Lang::En => EN,
        Lang::ZhCn => ZH_CN,
    }
}

/// The compiled pattern of `key`, if the player's catalogues have it.
pub fn pattern(lang: Lang, key: &str) -> Option<&'static [Piece]> {
    let t = table(lang);
    let i = t.binary_search_by(|(k, _)| (*k).cmp(key)).ok()?;
    Some(t[i].1)
}

/// Formats `key` like fluent-bundle does (without isolation marks).
pub fn format(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
    let mut out = String::new();
    write(lang, pattern(lang, key)?, args, &mut out);
    Some(out)
}

fn write(lang: Lang, pieces: &[Piece], args: &[(&str, Arg<'_>)], out: &mut String) {
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Group(inner) => write(lang, inner, args, out),
            Piece::Var(name) => match arg(args, name) {
                Some(a) => out.push_str(&value(a)),
                // Fluent writes an unknown variable as `{$name}`.
                None => {
                    out.push_str("{$");
                    out.push_str(name);
                    out.push('}');
                }
            },
            Piece::Select(name, variants, default) => {
                let chosen = arg(args, name)
                    .and_then(|a| variants.iter().find(|(key, _)| matches(lang, a, key)))
                    .or_else(|| variants.get(*default));
                if let Some((_, pattern)) = chosen {
                    write(lang, pattern, args, out);
                }
            }
        }
    }
}

fn arg<'a>(args: &'a [(&str, Arg<'a>)], name: &str) -> Option<&'a Arg<'a>> {
    args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
}

/// An argument as text: numbers as Fluent prints an `f64` (`2000`, `12.5`). Written with
/// integer arithmetic: core's float formatting would add its code to the player's wasm.
fn value(a: &Arg<'_>) -> String {
    match a {
        Arg::Text(s) => s.to_string(),
        Arg::Num(n) => number(*n),
    }
}

/// A finite number with up to 6 decimals, trailing zeros dropped.
fn number(n: f64) -> String {
    if !n.is_finite() || n.abs() >= 1e15 {
        return String::from("?");
    }
    let sign = if n < 0.0 { "-" } else { "" };
    let micro = (n.abs() * 1e6).round() as u64;
    let (whole, mut frac) = (micro / 1_000_000, micro % 1_000_000);
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let mut digits = 6;
    while frac % 10 == 0 {
        frac /= 10;
        digits -= 1;
    }
    format!("{sign}{whole}.{frac:0digits$}")
}

/// Whether a select's variant key takes this argument: the same text, the same number, or
/// the number's plural category (English: `one` for 1; Chinese has only `other`).
fn matches(lang: Lang, a: &Arg<'_>, key: &str) -> bool {
    match a {
        Arg::Text(s) => s == key,
        Arg::Num(n) => {
            let category = match (lang, *n == 1.0) {
                (Lang::En, true) => "one",
                _ => "other",
            };
            key.parse::<f64>().is_ok_and(|k| k == *n) || key == category
        }
    }
}
