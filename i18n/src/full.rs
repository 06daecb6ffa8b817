//! Messages formatted by fluent-bundle, from every catalogue.

use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

use crate::{Arg, Lang};

/// Whether the catalogues of `lang` have `key`.
pub fn has(lang: Lang, key: &str) -> bool {
    bundle(lang).has_message(key)
}

type Bundle = FluentBundle<FluentResource>;

/// The bundle of a language, built once. A catalogue that does not parse is a build error in
/// effect: the tests parse every file, so a broken one never ships.
fn bundle(lang: Lang) -> &'static Bundle {
    static BUNDLES: OnceLock<[Bundle; 2]> = OnceLock::new();
    let all = BUNDLES.get_or_init(|| Lang::ALL.map(build));
    &all[lang as usize]
}

fn build(lang: Lang) -> Bundle {
    let id: unic_langid::LanguageIdentifier = lang.tag().parse().unwrap_or_default();
    let mut b = FluentBundle::new_concurrent(vec![id]);
    // Isolation marks (U+2068/U+2069) around every parameter would land in `<title>`s, in
    // copied verdicts and in tests; both languages here are left-to-right.
    b.set_use_isolating(false);
    for src in lang.sources() {
        let res = FluentResource::try_new(src.to_string()).unwrap_or_else(|(res, _)| res);
        // A key defined twice keeps its first text (the error names the second, which the
        // tests refuse) rather than losing the whole file.
        let _ = b.add_resource(res);
    }
    b
}

pub fn format(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> Option<String> {
    let b = bundle(lang);
    let pattern = b.get_message(key)?.value()?;
    let mut fargs = FluentArgs::with_capacity(args.len());
    for (name, arg) in args {
        let v = match arg {
            Arg::Text(s) => FluentValue::from(s.as_ref()),
            Arg::Num(n) => FluentValue::from(*n),
        };
        fargs.set(*name, v);
    }
    let mut errors = Vec::new();
    let text = b.format_pattern(pattern, Some(&fargs), &mut errors);
    Some(text.into_owned())
}
