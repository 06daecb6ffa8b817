//! Who is asking: passwords (argon2id), sessions (a random cookie or API token of which only
//! the SHA-256 is stored), CSRF tokens, and a limit on failed sign-ins.
//!
//! Handlers never check a session themselves: they take an extractor ([`PageUser`],
//! [`ApiUser`], [`Admin`], [`Viewer`]) and the extractor refuses what is not allowed.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::Row;

use crate::error::AppError;
use crate::state::Shared;
use crate::store::User;

pub const SESSION_COOKIE: &str = "arbiter_session";
pub const ANON_COOKIE: &str = "arbiter_anon";
const PAGE_SESSION: Duration = Duration::from_secs(14 * 24 * 3600);
const API_SESSION: Duration = Duration::from_secs(30 * 24 * 3600);

/// Hashes a password with argon2id and a random salt (slow on purpose: run it off the
/// async threads).
pub fn hash_password(password: &str) -> String {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .unwrap_or_default()
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

pub async fn hash_password_async(password: String) -> String {
    tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .unwrap_or_default()
}

pub async fn verify_password_async(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || verify_password(&password, &hash))
        .await
        .unwrap_or(false)
}

/// A new random token, hex.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// A readable random password for a roster (no look-alike characters).
pub fn random_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut bytes = [0u8; 12];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

fn digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A signed-in user's session.
#[derive(Clone, Debug)]
pub struct Session {
    pub user: User,
    pub csrf: String,
    /// Came from a bearer token (API), not a cookie: no CSRF check is needed.
    pub bearer: bool,
}

impl Session {
    /// Checks a form's CSRF token (constant time).
    pub fn check_csrf(&self, token: &str) -> Result<(), AppError> {
        if self.bearer || constant_time_eq(self.csrf.as_bytes(), token.as_bytes()) {
            Ok(())
        } else {
            Err(AppError::Csrf)
        }
    }
}

/// Starts a session; returns the token for the cookie or the API client.
pub async fn create_session(state: &Shared, user_id: i64, api: bool) -> Result<String, AppError> {
    let token = random_token();
    let ttl = if api { API_SESSION } else { PAGE_SESSION };
    let db = &state.db;
    sqlx::query(&format!(
        "INSERT INTO sessions (token_hash, user_id, csrf, kind, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, {now}, {now} + $5)",
        now = db.now()
    ))
    .bind(digest(&token))
    .bind(user_id)
    .bind(random_token())
    .bind(if api { "api" } else { "page" })
    .bind(ttl.as_millis() as i64)
    .execute(db.pool())
    .await?;
    Ok(token)
}

pub async fn end_session(state: &Shared, token: &str) -> Result<(), AppError> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(digest(token))
        .execute(state.db.pool())
        .await?;
    Ok(())
}

/// Ends every session of a user (after a password change, all but the current one).
pub async fn end_sessions_of(
    state: &Shared,
    user_id: i64,
    keep: Option<&str>,
) -> Result<(), AppError> {
    sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
        .bind(user_id)
        .bind(keep.map(digest).unwrap_or_default())
        .execute(state.db.pool())
        .await?;
    Ok(())
}

/// The session cookie: HttpOnly, SameSite=Lax, Secure behind TLS.
pub fn session_cookie(token: String, secure: bool) -> Cookie<'static> {
    Cookie::build((SESSION_COOKIE, token))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .path("/")
        .max_age(time::Duration::seconds(PAGE_SESSION.as_secs() as i64))
        .build()
}

async fn lookup(state: &Shared, token: &str, bearer: bool) -> Result<Option<Session>, AppError> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let db = &state.db;
    let cols = User::COLUMNS
        .split(", ")
        .map(|c| format!("u.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let row = sqlx::query(&format!(
        "SELECT {cols}, s.csrf, s.kind FROM sessions s JOIN users u ON u.id = s.user_id \
         WHERE s.token_hash = $1 AND s.expires_at > {}",
        db.now()
    ))
    .bind(digest(token))
    .fetch_optional(db.pool())
    .await?;
    let Some(row) = row else { return Ok(None) };
    let kind: String = row.try_get(8)?;
    // A page cookie is not an API token, and the other way round.
    if (kind == "api") != bearer {
        return Ok(None);
    }
    Ok(Some(Session {
        user: User::from_row(&row)?,
        csrf: row.try_get(7)?,
        bearer,
    }))
}

/// Whoever asks, signed in or not.
pub struct Viewer(pub Option<Session>);

impl FromRequestParts<Shared> for Viewer {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Shared,
    ) -> Result<Self, Self::Rejection> {
        if let Some(token) = bearer(&parts.headers) {
            return Ok(Viewer(lookup(state, &token, true).await?));
        }
        let jar = CookieJar::from_headers(&parts.headers);
        match jar.get(SESSION_COOKIE) {
            Some(c) => Ok(Viewer(lookup(state, c.value(), false).await?)),
            None => Ok(Viewer(None)),
        }
    }
}

fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(|t| t.trim().to_string())
}

/// A signed-in user on a page: others are sent to the sign-in page; a user who must change
/// the password is sent to the account page first.
pub struct PageUser(pub Session);

impl FromRequestParts<Shared> for PageUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Shared,
    ) -> Result<Self, Self::Rejection> {
        let Viewer(session) = Viewer::from_request_parts(parts, state).await?;
        let Some(session) = session else {
            return Err(AppError::SignIn {
                next: parts.uri.path().to_string(),
            });
        };
        if session.user.must_change && !matches!(parts.uri.path(), "/account" | "/logout") {
            return Err(AppError::ChangePassword);
        }
        Ok(PageUser(session))
    }
}

/// A signed-in user of the JSON API (bearer token or cookie).
pub struct ApiUser(pub Session);

impl FromRequestParts<Shared> for ApiUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Shared,
    ) -> Result<Self, Self::Rejection> {
        let Viewer(session) = Viewer::from_request_parts(parts, state).await?;
        match session {
            Some(s) if s.user.must_change => Err(AppError::Forbidden(
                "change your password on the site first".into(),
            )),
            Some(s) => Ok(ApiUser(s)),
            None => Err(AppError::Unauthenticated),
        }
    }
}

/// A course-staff account.
pub struct Admin(pub Session);

impl FromRequestParts<Shared> for Admin {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Shared,
    ) -> Result<Self, Self::Rejection> {
        let PageUser(session) = PageUser::from_request_parts(parts, state).await?;
        if !session.user.admin {
            return Err(AppError::Forbidden("this page is for course staff".into()));
        }
        Ok(Admin(session))
    }
}

/// CSRF for forms shown before sign-in (the sign-in form itself): a random nonce in a
/// cookie, and its HMAC under the server's secret in the form.
pub fn anon_token(secret: &[u8], nonce: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).unwrap_or_else(|_| unreachable_mac());
    mac.update(nonce.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

fn unreachable_mac() -> Hmac<Sha256> {
    // HMAC accepts keys of any length; this is never called.
    Hmac::<Sha256>::new_from_slice(&[0u8; 32]).unwrap_or_else(|_| unreachable!())
}

pub fn check_anon_token(secret: &[u8], nonce: Option<&str>, token: &str) -> Result<(), AppError> {
    match nonce {
        Some(n) if constant_time_eq(anon_token(secret, n).as_bytes(), token.as_bytes()) => Ok(()),
        _ => Err(AppError::Csrf),
    }
}

pub fn anon_cookie(nonce: String, secure: bool) -> Cookie<'static> {
    Cookie::build((ANON_COOKIE, nonce))
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .path("/")
        .build()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Failed sign-ins per account and per address: after [`Limiter::PER_LOGIN`] failures on one
/// account (or [`Limiter::PER_ADDRESS`] from one address) within [`Limiter::WINDOW`], further
/// attempts are refused until the window ends. Bounded in memory.
#[derive(Clone, Default)]
pub struct Limiter {
    inner: Arc<Mutex<HashMap<String, (u32, Instant)>>>,
}

impl Limiter {
    pub const PER_LOGIN: u32 = 5;
    pub const PER_ADDRESS: u32 = 30;
    pub const WINDOW: Duration = Duration::from_secs(15 * 60);
    const MAX_KEYS: usize = 20_000;

    fn keys(login: &str, ip: IpAddr) -> [(String, u32); 2] {
        [
            (format!("login:{login}"), Self::PER_LOGIN),
            (format!("ip:{ip}"), Self::PER_ADDRESS),
        ]
    }

    /// `Err(seconds to wait)` when sign-ins for this account or address are blocked.
    pub fn check(&self, login: &str, ip: IpAddr) -> Result<(), u64> {
        let map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        for (key, max) in Self::keys(login, ip) {
            if let Some((n, since)) = map.get(&key) {
                let age = since.elapsed();
                if *n >= max && age < Self::WINDOW {
                    return Err((Self::WINDOW - age).as_secs().max(1));
                }
            }
        }
        Ok(())
    }

    pub fn failed(&self, login: &str, ip: IpAddr) {
        let mut map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= Self::MAX_KEYS {
            map.retain(|_, (_, since)| since.elapsed() < Self::WINDOW);
            if map.len() >= Self::MAX_KEYS {
                map.clear();
            }
        }
        for (key, _) in Self::keys(login, ip) {
            let entry = map.entry(key).or_insert((0, Instant::now()));
            if entry.1.elapsed() >= Self::WINDOW {
                *entry = (0, Instant::now());
            }
            entry.0 += 1;
        }
    }

    pub fn succeeded(&self, login: &str) {
        let mut map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        map.remove(&format!("login:{login}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords() {
        let h = hash_password("s3cret");
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("s3cret", &h));
        assert!(!verify_password("s3cre", &h));
        assert!(!verify_password("s3cret", "not a hash"));
    }

    #[test]
    fn anon_tokens() {
        let secret = b"0123456789abcdef0123456789abcdef";
        let t = anon_token(secret, "n1");
        assert!(check_anon_token(secret, Some("n1"), &t).is_ok());
        assert!(check_anon_token(secret, Some("n2"), &t).is_err());
        assert!(check_anon_token(secret, None, &t).is_err());
    }

    #[test]
    fn the_limiter_blocks_after_repeated_failures() {
        let l = Limiter::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        for _ in 0..Limiter::PER_LOGIN {
            assert!(l.check("a", ip).is_ok());
            l.failed("a", ip);
        }
        assert!(l.check("a", ip).is_err());
        assert!(
            l.check("b", ip).is_ok(),
            "another account from the same address"
        );
    }
}
