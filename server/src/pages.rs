//! What every page shares: the layout (title, navigation, the signed-in user and the CSRF
//! token of the sign-out form), rendering, the error page, and small formatting helpers.
//! Templates are in `server/templates/`; askama escapes every value, so names like
//! `<img src=x onerror=alert(1)>` stay text.

use askama::Template;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};

use arbiter_i18n::{Arg, Lang};

use crate::auth::Session;
use crate::error::AppError;
use crate::state::Shared;
use crate::store::User;

/// The frame around every page.
pub struct Layout {
    pub title: String,
    pub contest: String,
    pub user: Option<User>,
    pub csrf: String,
    /// The navigation entry to mark as current.
    pub nav: &'static str,
    /// The request's language: every text of the page comes from its catalogue.
    pub lang: Lang,
    /// The page's own address, where the language switch comes back to.
    pub here: String,
}

impl Layout {
    pub fn new(
        state: &Shared,
        session: Option<&Session>,
        title: impl Into<String>,
        nav: &'static str,
    ) -> Layout {
        Layout {
            title: title.into(),
            contest: state.contest.file.name.clone(),
            user: session.map(|s| s.user.clone()),
            csrf: session.map(|s| s.csrf.clone()).unwrap_or_default(),
            nav,
            lang: crate::lang::current(),
            here: crate::lang::path(),
        }
    }

    pub fn is_admin(&self) -> bool {
        self.user.as_ref().is_some_and(|u| u.admin)
    }

    /// A message of the page's language.
    pub fn t(&self, key: &str) -> String {
        self.lang.t(key)
    }

    /// A message with one named parameter.
    pub fn t1<'a>(&self, key: &str, name: &str, v: impl Into<Arg<'a>>) -> String {
        self.lang.ta(key, &[(name, v.into())])
    }

    /// The message `{prefix}-{name}` for a value of a closed set (a status, a result); the
    /// value itself when the catalogue has no message for it.
    pub fn tp(&self, prefix: &str, name: &str) -> String {
        closed(self.lang, prefix, name)
    }

    /// A message with two named parameters (askama passes arguments by reference, so no
    /// tuples).
    pub fn t2<'a, 'b>(
        &self,
        key: &str,
        n1: &str,
        v1: impl Into<Arg<'a>>,
        n2: &str,
        v2: impl Into<Arg<'b>>,
    ) -> String {
        self.lang.ta(key, &[(n1, v1.into()), (n2, v2.into())])
    }

    /// A message with three named parameters.
    #[allow(clippy::too_many_arguments)]
    pub fn t3<'a, 'b, 'c>(
        &self,
        key: &str,
        n1: &str,
        v1: impl Into<Arg<'a>>,
        n2: &str,
        v2: impl Into<Arg<'b>>,
        n3: &str,
        v3: impl Into<Arg<'c>>,
    ) -> String {
        self.lang
            .ta(key, &[(n1, v1.into()), (n2, v2.into()), (n3, v3.into())])
    }

    /// The languages the switch offers: every one but the page's, each with the link that
    /// chooses it and comes back here (home, when the request's own path is not one the
    /// switch would return to: `//host/x` asked of this server).
    pub fn other_languages(&self) -> Vec<(Lang, String)> {
        let back = crate::redirect::local(&self.here).unwrap_or_else(|_| "/".into());
        Lang::ALL
            .into_iter()
            .filter(|l| *l != self.lang)
            .map(|l| (l, format!("/lang/{}?back={}", l.tag(), url_encode(&back))))
            .collect()
    }
}

/// Renders a template into a page that is never cached (pages show live state) nor framed by
/// other sites.
pub fn render(t: &impl Template) -> Result<Response, AppError> {
    let body = t.render()?;
    let mut r = Html(body).into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(r)
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    l: Layout,
    heading: String,
    message: String,
}

/// A plain error page (no user in the header: the error path does not look the session up).
/// The site's guard names the contest on it (routes::guard, [`error_page_in`]).
pub fn error_page(status: StatusCode, message: &str) -> Response {
    error_page_in(status, message, "arbiter")
}

/// [`error_page`] with the contest's name in its header and title.
pub fn error_page_in(status: StatusCode, message: &str, contest: &str) -> Response {
    let heading = status_heading(status);
    let l = Layout {
        title: heading.clone(),
        contest: contest.to_string(),
        user: None,
        csrf: String::new(),
        nav: "",
        lang: crate::lang::current(),
        here: crate::lang::path(),
    };
    render_error(status, message, heading, l)
}

/// The error page of the site for this viewer: the contest's name, and the viewer's own
/// header (signed in, their links) rather than "Sign in".
pub fn error_page_for(
    state: &Shared,
    viewer: Option<&Session>,
    status: StatusCode,
    message: &str,
) -> Response {
    let heading = status_heading(status);
    let l = Layout::new(state, viewer, heading.clone(), "");
    render_error(status, message, heading, l)
}

fn status_heading(status: StatusCode) -> String {
    let lang = crate::lang::current();
    let key = format!("status-{}", status.as_u16());
    if lang.has(&key) {
        lang.t(&key)
    } else {
        status.canonical_reason().unwrap_or("Error").to_string()
    }
}

fn render_error(status: StatusCode, message: &str, heading: String, l: Layout) -> Response {
    let page = ErrorPage {
        l,
        heading,
        message: message.to_string(),
    };
    let body = page.render().unwrap_or_else(|_| "error".to_string());
    (status, Html(body)).into_response()
}

#[derive(Template)]
#[template(path = "live_frame.html")]
struct LiveFrame {
    l: Layout,
}

/// The site around the live hub's pages for this viewer: its header (with the viewer's
/// account links) and style, the Live entry current.
pub fn live_frame(
    state: &Shared,
    viewer: Option<&Session>,
    nav: &'static str,
) -> Option<arbiter_live::Frame> {
    let page = LiveFrame {
        l: Layout::new(state, viewer, "", nav),
    };
    let mut frame = arbiter_live::Frame::split(&page.render().ok()?)?;
    frame.lang = page.l.lang;
    Some(frame)
}

/// A Unix time in milliseconds as `2026-11-23 14:05 UTC`.
pub fn when(ms: i64) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .ok()
        .and_then(|t| t.format(&format).ok())
        .unwrap_or_else(|| "?".into())
}

/// The message `{prefix}-{name}` for a value of a closed set, or the value itself.
pub fn closed(lang: Lang, prefix: &str, name: &str) -> String {
    let key = format!("{prefix}-{name}");
    if Lang::En.has(&key) {
        lang.t(&key)
    } else {
        name.to_string()
    }
}

/// A page (the player's) with its `<html lang>` set to `lang`: the player speaks its host
/// page's language, which it reads from its own document.
pub fn with_lang(html: &str, lang: Lang) -> String {
    html.replacen(
        "<html lang=\"en\">",
        &format!("<html lang=\"{}\">", lang.tag()),
        1,
    )
}

/// The player as the site's pages embed it: trusting its own page alone (the live hub's, shared).
pub use arbiter_live::pages::trusting_its_page;

/// JSON safe inside an inline `<script>` (the live hub's escaping, shared).
pub use arbiter_live::pages::script_json;

/// Percent-encodes a path or query value.
pub fn url_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The game as a sentence in the page's language: "Reversi 16 x 16", "五子棋 15 x 15，连珠". A
/// module game goes by its module's name, which is a name.
pub fn game_name(state: &Shared) -> String {
    use arbiter_engine::GameConfig;
    let lang = crate::lang::current();
    match &state.contest.game.game {
        GameConfig::Reversi(c) => lang.ta("game-name-reversi", &[("size", c.size.into())]),
        GameConfig::Gomoku(c) => {
            let rule = closed(lang, "game-rule", c.rule.name());
            lang.ta(
                "game-name-gomoku",
                &[("size", c.size.into()), ("rule", rule.into())],
            )
        }
        GameConfig::Duel2048(c) => lang.ta("game-name-duel", &[("rounds", c.rounds.into())]),
        other => other.rules_title(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(when(0), "1970-01-01 00:00 UTC");
        let tricky = ["<!--<script>", "</script>", "a&b\u{2028}"];
        let json = script_json(&tricky);
        assert!(!json.contains(['<', '>', '&', '\u{2028}']), "{json}");
        assert_eq!(serde_json::from_str::<Vec<String>>(&json).unwrap(), tricky);
        assert_eq!(url_encode("/a b?c"), "/a%20b%3Fc");
    }
}
