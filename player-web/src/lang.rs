//! The player's language: its host page's (the `lang` parameter, or the document's `lang` when
//! the player is a `srcdoc`), else the browser's; English until the page says otherwise. Every
//! text the player shows comes from the catalogues of arbiter-i18n (`player.ftl`,
//! `verdict.ftl`). One language for the whole player: it is a page of its own.

use core::sync::atomic::{AtomicU8, Ordering};

use alloc::string::String;

pub use arbiter_i18n::{Arg, Lang};

static LANG: AtomicU8 = AtomicU8::new(0);

/// The language the player speaks from now on.
pub fn set(lang: Lang) {
    LANG.store(lang as u8, Ordering::Relaxed);
}

/// The language the player speaks.
pub fn get() -> Lang {
    match LANG.load(Ordering::Relaxed) {
        1 => Lang::ZhCn,
        _ => Lang::En,
    }
}

/// A message with no parameters.
pub fn t(key: &str) -> String {
    get().t(key)
}

/// A label without parameters as the compiled catalogue holds it (labels kept as `&'static
/// str`); the key itself when the catalogue has no such text.
pub fn t_static(key: &'static str) -> &'static str {
    arbiter_i18n::compiled::static_text(get(), key)
        .or_else(|| arbiter_i18n::compiled::static_text(Lang::En, key))
        .unwrap_or(key)
}

/// A message with named parameters.
pub fn ta(key: &str, args: &[(&str, Arg<'_>)]) -> String {
    get().ta(key, args)
}
