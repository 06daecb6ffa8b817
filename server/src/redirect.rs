//! Where the site may send a browser that a link or a form names: sign-in's `next=`, the
//! language switch's `back=`. One check for all of them: a path on this site that no browser
//! reads as another host, or a refusal (400) naming the problem. Never a panic: the target
//! a redirect carries is always ASCII that a header may hold.
//!
//! Browsers are lenient where the check must not be: they drop TAB, CR and LF anywhere in a
//! URL (`/\t/evil.example` is `//evil.example`, another host), read `\` as `/` in http(s)
//! URLs (`/\evil.example`), strip leading and trailing C0 controls and spaces, and resolve dot
//! segments (`/.//evil.example` resolves to the path `//evil.example`, which a Location
//! header would send to another host if the server re-emitted it). So a target is refused
//! when it holds any control character, any whitespace or any backslash, and what is
//! returned is the path as a URL parser resolved it against this site, checked again.
//! Percent-encodings are left as they are: a browser never decodes `%2F` or `%09` in a path
//! into a separator, so `/%2F%2Fevil.example` is a page of this site.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// The longest target accepted (a page's path and query is far shorter).
const MAX_LEN: usize = 2048;

/// Why a target is not a page of this site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotLocal {
    /// Not a path: another site's URL (`https://...`), `javascript:`, or an empty string.
    NotAPath,
    /// `//host` or `/\host` (also after dot segments): another host to a browser.
    OtherHost,
    /// A control character, whitespace or a backslash, which browsers drop or rewrite.
    Unsafe,
    /// Longer than [`MAX_LEN`].
    TooLong,
}

/// The path (and query) `target` names on this site, as a browser resolves it, or why not.
/// The fragment is left out (no page of the site needs one after a redirect).
pub fn local(target: &str) -> Result<String, NotLocal> {
    // Any origin does: only the comparison matters, and nothing of it is returned.
    const ORIGIN: &str = "http://arbiter.invalid/";
    if target.len() > MAX_LEN {
        return Err(NotLocal::TooLong);
    }
    if target
        .chars()
        .any(|c| c.is_control() || c.is_whitespace() || c == '\\' || invisible(c))
    {
        return Err(NotLocal::Unsafe);
    }
    if !target.starts_with('/') {
        return Err(NotLocal::NotAPath);
    }
    if target.starts_with("//") {
        return Err(NotLocal::OtherHost);
    }
    let base = url::Url::parse(ORIGIN).map_err(|_| NotLocal::NotAPath)?;
    let resolved = base.join(target).map_err(|_| NotLocal::NotAPath)?;
    if resolved.origin() != base.origin() {
        return Err(NotLocal::OtherHost);
    }
    let mut out = resolved.path().to_string();
    if let Some(q) = resolved.query() {
        out.push('?');
        out.push_str(q);
    }
    // Dot segments can leave `//host` behind (`/.//evil`): not a path of this site.
    if !out.starts_with('/') || out.starts_with("//") {
        return Err(NotLocal::OtherHost);
    }
    // The parser percent-encodes what a URL may not hold; a header must hold the rest.
    if !out.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(NotLocal::Unsafe);
    }
    Ok(out)
}

/// Format characters (bidi controls, zero-width spaces) that show nothing: a target holding
/// one reads unlike where it leads.
fn invisible(c: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory};
    get_general_category(c) == GeneralCategory::Format
}

/// [`local`] for a parameter that may be absent or empty (then `/`); a target that is not
/// local is a 400 naming the parameter.
pub fn checked(param: &str, target: Option<&str>) -> Result<String, AppError> {
    match target {
        None | Some("") => Ok("/".into()),
        Some(t) => local(t).map_err(|why| {
            let key = match why {
                NotLocal::NotAPath => "err-redirect-not-a-path",
                NotLocal::OtherHost => "err-redirect-other-host",
                NotLocal::Unsafe => "err-redirect-unsafe",
                NotLocal::TooLong => "err-redirect-too-long",
            };
            AppError::BadRequest(crate::lang::ta(key, &[("param", param.into())]))
        }),
    }
}

/// A `303 See Other` to `target`, which must be a path [`local`] returned (or one the server
/// made of its own parts); anything else goes to `/`, without a panic.
pub fn see_other(target: &str) -> Response {
    let value = HeaderValue::from_str(target).unwrap_or(HeaderValue::from_static("/"));
    (StatusCode::SEE_OTHER, [(header::LOCATION, value)]).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_this_site_pass_as_a_browser_resolves_them() {
        assert_eq!(local("/submit").as_deref(), Ok("/submit"));
        assert_eq!(
            local("/submissions/3?x=1&y=%2F").as_deref(),
            Ok("/submissions/3?x=1&y=%2F")
        );
        assert_eq!(
            local("/a/../submissions?x=1#f").as_deref(),
            Ok("/submissions?x=1")
        );
        // Encoded separators stay encoded: a browser never decodes them in a path.
        assert_eq!(local("/%2F%2Fevil").as_deref(), Ok("/%2F%2Fevil"));
        assert_eq!(local("/%09/evil").as_deref(), Ok("/%09/evil"));
        // Non-ASCII is percent-encoded: the header holds ASCII only.
        assert_eq!(local("/名").as_deref(), Ok("/%E5%90%8D"));
        assert_eq!(local("/\u{FF0F}evil").as_deref(), Ok("/%EF%BC%8Fevil"));
        assert_eq!(local("/@evil.example").as_deref(), Ok("/@evil.example"));
    }

    #[test]
    fn targets_a_browser_reads_as_another_host_are_refused() {
        let other = [
            "//evil.example/",
            "///evil.example/",
            "/.//evil.example",
            "/./..//evil.example",
            "/a/..//evil.example",
        ];
        for t in other {
            assert_eq!(local(t), Err(NotLocal::OtherHost), "{t:?}");
        }
        let not_paths = [
            "https://evil.example/",
            "http:evil.example",
            "javascript:alert(1)",
            "evil.example",
            "",
        ];
        for t in not_paths {
            assert_eq!(local(t), Err(NotLocal::NotAPath), "{t:?}");
        }
        let unsafe_ = [
            "/\t/evil.example/page",
            "/\t\\evil.example",
            "/\\evil.example",
            "\\\\evil.example",
            "/\n/evil.example",
            "/\r/evil.example",
            "/a\r\nSet-Cookie: x=1",
            "\t//evil.example",
            " //evil.example",
            "/ /evil.example",
            "/\u{0}",
            "/\u{7f}",
            "/\u{85}/evil",
            "/\u{a0}/evil",
            "/\u{2028}/evil",
            "/\u{3000}/evil",
            "/\u{200b}/evil",
            "/\u{202e}/evil",
            "/\u{feff}/evil",
        ];
        for t in unsafe_ {
            assert_eq!(local(t), Err(NotLocal::Unsafe), "{t:?}");
        }
        assert_eq!(
            local(&format!("/{}", "a".repeat(MAX_LEN))),
            Err(NotLocal::TooLong)
        );
    }

    #[test]
    fn every_byte_after_a_slash_gives_a_local_path_or_a_refusal() {
        // Whatever one character (as the query decodes %00 to %FF) follows `/` and precedes
        // `/evil.example`, the result is a path of this site or refused: never another host.
        for b in 0u32..=0x2fff {
            let Some(c) = char::from_u32(b) else { continue };
            for t in [format!("/{c}/evil.example"), format!("{c}//evil.example")] {
                if let Ok(path) = local(&t) {
                    assert!(
                        path.starts_with('/') && !path.starts_with("//"),
                        "{t:?} -> {path:?}"
                    );
                    assert!(HeaderValue::from_str(&path).is_ok(), "{t:?}");
                }
            }
        }
    }

    #[test]
    fn a_redirect_never_panics() {
        let r = see_other("/\u{0}");
        assert_eq!(r.headers()[header::LOCATION], "/");
        assert_eq!(see_other("/x").headers()[header::LOCATION], "/x");
    }
}
