//! The web player's formatter: the player's and the verdicts' messages compiled by `build.rs`
//! from the same `.ftl` files into one string each (text, with variables and selects marked by
//! control characters: strings compress far better in the wasm than tables of pointers), and
//! formatted here with Fluent's rules for what they use (text, variables, selects on a
//! variable with plural categories). A test checks it against fluent-bundle for every message.

use std::string::String;

use crate::{Arg, Lang};

const VAR: char = '\u{1}';
const END: char = '\u{2}';
const SELECT: char = '\u{3}';
const VARIANT: char = '\u{4}';
const CLOSE: char = '\u{5}';

include!(concat!(env!("OUT_DIR"), "/compiled.rs"));

fn table(lang: Lang) -> &'static [(&'static str, &'static str)] {
    match lang {
        Lang::En => EN,
        Lang::ZhCn => ZH_CN,
    }
}

/// The compiled pattern of `key`, if the player's catalogues have it.
pub fn pattern(lang: Lang, key: &str) -> Option<&'static str> {
    let t = table(lang);
    let i = t.binary_search_by(|(k, _)| (*k).cmp(key)).ok()?;
    Some(t[i].1)
}

/// A message without parameters as it stands in the table (labels kept as `&'static str`).
pub fn static_text(lang: Lang, key: &str) -> Option<&'static str> {
    pattern(lang, key).filter(|p| !p.contains([VAR, SELECT]))
}

/// Formats `key` like fluent-bundle does (without isolation marks).
pub fn format(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
    let mut out = String::new();
    write(lang, pattern(lang, key)?, args, &mut Some(&mut out));
    Some(out)
}

/// Writes `p` up to the end of its level (a variant's or the select's end, or the end of the
/// text) into `out` (`None`: only skips it); returns what follows.
fn write<'p>(
    lang: Lang,
    mut p: &'p str,
    args: &[(&str, Arg<'_>)],
    out: &mut Option<&mut String>,
) -> &'p str {
    loop {
        let at = p.find([VAR, SELECT, VARIANT, CLOSE]).unwrap_or(p.len());
        if let Some(o) = out.as_mut() {
            o.push_str(&p[..at]);
        }
        p = &p[at..];
        let Some(c) = p.chars().next() else {
            return p;
        };
        if c == VARIANT || c == CLOSE {
            return p;
        }
        let (name, rest) = p[1..].split_once(END).unwrap_or((&p[1..], ""));
        p = if c == VAR {
            if let Some(o) = out.as_mut() {
                o.push_str(&variable(args, name));
            }
            rest
        } else {
            select(lang, rest, arg(args, name), args, out)
        };
    }
}

/// A select's variants: the one that takes `value` (else the default) is written.
fn select<'p>(
    lang: Lang,
    mut p: &'p str,
    value: Option<&Arg<'_>>,
    args: &[(&str, Arg<'_>)],
    out: &mut Option<&mut String>,
) -> &'p str {
    // First pass: which variant.
    let mut chosen = None;
    let mut default = None;
    let mut scan = p;
    let mut k = 0;
    while let Some(rest) = scan.strip_prefix(VARIANT) {
        let (key, body) = rest.split_once(END).unwrap_or((rest, ""));
        let plain = key.trim_start_matches('*');
        if key.starts_with('*') {
            default = Some(k);
        }
        if chosen.is_none() && value.is_some_and(|v| matches(lang, v, plain)) {
            chosen = Some(k);
        }
        scan = write(lang, body, args, &mut None);
        k += 1;
    }
    let pick = chosen.or(default);
    // Second pass: write the chosen one, skip the others.
    let mut k = 0;
    while let Some(rest) = p.strip_prefix(VARIANT) {
        let (_, body) = rest.split_once(END).unwrap_or((rest, ""));
        p = if Some(k) == pick && out.is_some() {
            write(lang, body, args, out)
        } else {
            write(lang, body, args, &mut None)
        };
        k += 1;
    }
    p.strip_prefix(CLOSE).unwrap_or(p)
}

fn arg<'a>(args: &'a [(&str, Arg<'a>)], name: &str) -> Option<&'a Arg<'a>> {
    args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
}

/// A variable's text; Fluent writes an unknown one as `{$name}`.
fn variable(args: &[(&str, Arg<'_>)], name: &str) -> String {
    match arg(args, name) {
        Some(Arg::Text(s)) => s.to_string(),
        Some(Arg::Num(n)) => number(*n),
        None => format!("{{${name}}}"),
    }
}

/// A finite number as Fluent prints an `f64` (`2000`, `12.5`), up to 6 decimals, with integer
/// arithmetic: core's float formatting would add its code to the player's wasm.
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
            // Compared as text: parsing floats would add core's float parser to the wasm.
            key == number(*n) || key == category
        }
    }
}
