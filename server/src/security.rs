//! The browser's second line: the Content-Security-Policy (inline scripts run only with this
//! response's nonce, or when they are the web player's own, by hash) and the `Origin` check on
//! requests that change something and on websocket upgrades.

use axum::http::{header, HeaderMap, Method};
use sha2::{Digest, Sha256};

/// A fresh nonce for one response's inline scripts.
#[derive(Clone, Debug)]
pub struct ScriptNonce(pub String);

impl ScriptNonce {
    pub fn new() -> ScriptNonce {
        // 128 random bits; hex is valid base64 for the CSP grammar's nonce.
        ScriptNonce(crate::auth::random_token()[..32].to_string())
    }
}

impl Default for ScriptNonce {
    fn default() -> Self {
        ScriptNonce::new()
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ScriptNonce {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        // The policy layer always puts one; a handler outside it gets a nonce no policy names,
        // so its scripts would not run rather than run unchecked.
        Ok(parts
            .extensions
            .get::<ScriptNonce>()
            .cloned()
            .unwrap_or_default())
    }
}

/// The CSP hash sources (`'sha256-...'`) of every inline script of a page: the web player, whose
/// scripts run inside `srcdoc` frames that inherit the embedding page's policy.
pub fn script_hashes(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(start) = lower[at..].find("<script") {
        let open = at + start;
        let Some(gt) = lower[open..].find('>') else {
            break;
        };
        let tag = &lower[open..open + gt];
        let body = open + gt + 1;
        let Some(len) = lower[body..].find("</script") else {
            break;
        };
        if !tag.contains(" src=") {
            let digest = Sha256::digest(&html.as_bytes()[body..body + len]);
            out.push(format!("'sha256-{}'", base64(&digest)));
        }
        at = body + len;
    }
    out
}

/// Standard base64 with padding (the CSP's hash encoding).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The policy of one response: scripts from this site, with this response's nonce, or the web
/// player's (by hash); no `'unsafe-inline'` for scripts. Styles stay inline (the pages' and the
/// player's `style` attributes); nothing loads from elsewhere, no form posts elsewhere, and no
/// connection (a fetch, the player's websocket: `'self'` covers `ws:`/`wss:` to this host) goes
/// elsewhere, so that a live page's player streams this site's hub and no other.
pub fn policy(nonce: &ScriptNonce, player_hashes: &[String]) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{}' {} 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
         connect-src 'self' blob:; frame-ancestors 'self'; form-action 'self'; \
         base-uri 'none'; object-src 'none'",
        nonce.0,
        player_hashes.join(" ")
    )
}

/// Whether the request comes from a page of this site, as far as the browser says: requests
/// that change something (any method but GET, HEAD, OPTIONS) and websocket upgrades are refused
/// when their `Origin` names another site (or is `null`). Requests without `Origin` (programs,
/// older browsers) pass: the CSRF token is the first line. `host` is the site's own host and
/// port as the client addressed it.
pub fn origin_allowed(method: &Method, headers: &HeaderMap, host: Option<&str>) -> bool {
    let upgrade = headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    let safe = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    if safe && !upgrade {
        return true;
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let (Ok(origin), Some(host)) = (origin.to_str(), host) else {
        return false;
    };
    same_host(origin, host)
}

/// Whether `origin` (`scheme://host[:port]`) names `host` (`host[:port]`, as in the Host
/// header), default ports allowed for.
fn same_host(origin: &str, host: &str) -> bool {
    let Ok(o) = url::Url::parse(origin) else {
        return false;
    };
    if !matches!(o.scheme(), "http" | "https") {
        return false;
    }
    let Some(o_host) = o.host_str() else {
        return false;
    };
    // Host with the origin's scheme, parsed the same way.
    let Ok(h) = url::Url::parse(&format!("{}://{host}", o.scheme())) else {
        return false;
    };
    h.host_str()
        .is_some_and(|h_host| h_host.eq_ignore_ascii_case(o_host))
        && h.port_or_known_default() == o.port_or_known_default()
        && h.path() == "/"
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn hashes_and_origins() {
        // echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            script_hashes("<p><script>alert(1)</script><script src=x></script>"),
            vec!["'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='".to_string()]
        );
        assert_eq!(base64(b"ab"), "YWI=");
        let mut h = HeaderMap::new();
        assert!(origin_allowed(&Method::POST, &h, Some("site:8080")));
        h.insert(header::ORIGIN, HeaderValue::from_static("http://site:8080"));
        assert!(origin_allowed(&Method::POST, &h, Some("site:8080")));
        assert!(!origin_allowed(&Method::POST, &h, Some("site:8081")));
        h.insert(header::ORIGIN, HeaderValue::from_static("https://site"));
        assert!(origin_allowed(&Method::POST, &h, Some("SITE")));
        assert!(origin_allowed(&Method::GET, &h, Some("other")));
        h.insert(header::ORIGIN, HeaderValue::from_static("null"));
        assert!(!origin_allowed(&Method::POST, &h, Some("site")));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://evil.example"),
        );
        h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        assert!(!origin_allowed(&Method::GET, &h, Some("site")));
        assert!(!origin_allowed(&Method::POST, &h, Some("site/x")));
    }
}
