//! The students' language. Every text a student or a TA reads on the site, in the player, on
//! the live pages and in a tournament's report comes from the Fluent catalogues beside this
//! crate (`i18n/en/*.ftl`, `i18n/zh-CN/*.ftl`), embedded at build time so a deployed binary
//! needs no file. English is the reference catalogue; a key missing from a catalogue falls back
//! to English, then to the key itself (which the tests look for in every rendered page).
//!
//! The CLI and every `--json` output stay English and keyed by kinds: machines never read
//! these texts.

use std::borrow::Cow;
use std::fmt;

pub mod compiled;
#[cfg(feature = "fluent")]
mod full;
#[cfg(feature = "fluent")]
pub mod machine;
pub mod verdict;

/// A language the catalogues speak.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum Lang {
    #[default]
    En,
    /// Simplified Chinese, the language of the courses arbiter comes from.
    ZhCn,
}

/// The catalogue files of each language, in the same order (the tests compare them file by
/// file).
pub const FILES: [&str; 5] = ["site", "verdict", "live", "player", "report"];

macro_rules! catalogue {
    ($dir:literal) => {
        [
            include_str!(concat!("../", $dir, "/site.ftl")),
            include_str!(concat!("../", $dir, "/verdict.ftl")),
            include_str!(concat!("../", $dir, "/live.ftl")),
            include_str!(concat!("../", $dir, "/player.ftl")),
            include_str!(concat!("../", $dir, "/report.ftl")),
        ]
    };
}

const EN_SOURCES: [&str; 5] = catalogue!("en");
const ZH_SOURCES: [&str; 5] = catalogue!("zh-CN");

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// The BCP 47 tag, as in `<html lang>` and the `lang` cookie.
    pub const fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The language's own name, for the switch (a reader finds their language by its name).
    pub const fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "简体中文",
        }
    }

    /// The catalogue sources, one per entry of [`FILES`].
    pub fn sources(self) -> &'static [&'static str; 5] {
        match self {
            Lang::En => &EN_SOURCES,
            Lang::ZhCn => &ZH_SOURCES,
        }
    }

    /// A tag as a language: `en`, `en-GB`, `zh`, `zh-CN`, `zh-Hans` ... Every Chinese tag reads
    /// Simplified Chinese: the only Chinese catalogue, and closer to a Traditional reader than
    /// English.
    pub fn parse(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::ZhCn),
            _ => None,
        }
    }

    /// The language an `Accept-Language` header prefers most among those spoken here (q-values
    /// weigh; ties keep the header's order); `None` when it names none of them.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(f32, Lang)> = None;
        for item in header.split(',') {
            let mut parts = item.split(';');
            let Some(lang) = parts.next().and_then(Lang::parse) else {
                continue;
            };
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|v| v.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l)
    }

    /// The message `key` with no parameters.
    pub fn t(self, key: &str) -> String {
        self.ta(key, &[])
    }

    /// The message `key` with named parameters.
    pub fn ta(self, key: &str, args: &[(&str, Arg<'_>)]) -> String {
        format(self, key, args)
            .or_else(|| format(Lang::En, key, args))
            .unwrap_or_else(|| key.to_string())
    }

    /// Every message key of this language's catalogues (tests look for them in pages: a key
    /// shown is a text missing).
    #[cfg(feature = "fluent")]
    pub fn keys(self) -> Vec<String> {
        self.sources()
            .iter()
            .filter_map(|src| fluent_syntax::parser::parse(*src).ok())
            .flat_map(|res| res.body)
            .filter_map(|entry| match entry {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                _ => None,
            })
            .collect()
    }

    /// Whether the catalogue of this language has `key` (tests and fallbacks).
    pub fn has(self, key: &str) -> bool {
        #[cfg(feature = "fluent")]
        return full::has(self, key);
        #[cfg(not(feature = "fluent"))]
        return compiled::pattern(self, key).is_some();
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// A message's parameter: text stays as it is; a number takes the language's plural rules.
#[derive(Clone, Debug)]
pub enum Arg<'a> {
    Text(Cow<'a, str>),
    Num(f64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Self {
        Arg::Text(Cow::Borrowed(s))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(s: &'a String) -> Self {
        Arg::Text(Cow::Borrowed(s))
    }
}

// Templates pass their values by reference, once more than the code around them.
impl<'a, 'b: 'a> From<&'a &'b String> for Arg<'a> {
    fn from(s: &'a &'b String) -> Self {
        Arg::Text(Cow::Borrowed(s.as_str()))
    }
}

impl<'a, 'b: 'a> From<&'a &'b str> for Arg<'a> {
    fn from(s: &'a &'b str) -> Self {
        Arg::Text(Cow::Borrowed(s))
    }
}

impl From<String> for Arg<'_> {
    fn from(s: String) -> Self {
        Arg::Text(Cow::Owned(s))
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            fn from(n: $t) -> Self {
                Arg::Num(n as f64)
            }
        }
        impl From<&$t> for Arg<'_> {
            fn from(n: &$t) -> Self {
                Arg::Num(*n as f64)
            }
        }
        impl From<&&$t> for Arg<'_> {
            fn from(n: &&$t) -> Self {
                Arg::Num(**n as f64)
            }
        }
    )*};
}
numbers!(u8, u16, u32, u64, usize, i32, i64, f64);

/// A message formatted by fluent-bundle, or (without it, in the player) by the compiled
/// tables.
fn format(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
    #[cfg(feature = "fluent")]
    return full::format(lang, key, args);
    #[cfg(not(feature = "fluent"))]
    return compiled::format(lang, key, args);
}

// The tests compare the catalogues through fluent-syntax and both formatters.
#[cfg(all(test, feature = "fluent"))]
mod tests;
