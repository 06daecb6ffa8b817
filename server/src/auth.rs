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

/// The signed-in user of a page request's session cookie, if any (an unreadable or expired
/// session reads as nobody): for pages made outside a handler, such as error pages.
pub async fn page_viewer(state: &Shared, headers: &HeaderMap) -> Option<Session> {
    let jar = CookieJar::from_headers(headers);
    let token = jar.get(SESSION_COOKIE)?.value().to_string();
    lookup(state, &token, false).await.ok().flatten()
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
            return Err(AppError::Forbidden(crate::lang::t("err-staff-only")));
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

/// A number nobody can compute without the server's secret: the HMAC of `what`, cut to 64
/// bits (a module game's seed, which bots must not predict).
pub fn secret_u64(secret: &[u8], what: &str) -> u64 {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).unwrap_or_else(|_| unreachable_mac());
    mac.update(what.as_bytes());
    let bytes = mac.finalize().into_bytes();
    let mut first = [0u8; 8];
    first.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(first)
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

/// Sign-in attempts, counted *before* the password is checked (so that simultaneous guesses
/// cannot all pass one check), per client address, per account and client, and per account:
///
/// - one address: [`Limiter::PER_ADDRESS`] attempts within [`Limiter::WINDOW`], then refused
///   until the window ends (behind a proxy, the address is the one the trusted proxy names);
/// - one account from one address: [`Limiter::PER_LOGIN`] attempts within the window;
/// - one account from anywhere: [`Limiter::PER_LOGIN`] attempts, then each further attempt
///   waits a delay that doubles up to [`Limiter::MAX_DELAY`]. A delay and not a lock: an
///   attacker guessing from many addresses slows the account down, but its owner gets in
///   within [`Limiter::MAX_DELAY`].
///
/// A successful sign-in forgets the account's attempts. Bounded in memory.
#[derive(Clone, Default)]
pub struct Limiter {
    inner: Arc<Mutex<HashMap<String, Attempts>>>,
}

#[derive(Clone, Copy, Debug)]
struct Attempts {
    count: u32,
    since: Instant,
    last: Instant,
}

impl Attempts {
    fn new(now: Instant) -> Attempts {
        Attempts {
            count: 0,
            since: now,
            last: now,
        }
    }
}

impl Limiter {
    pub const PER_LOGIN: u32 = 5;
    pub const PER_ADDRESS: u32 = 30;
    pub const WINDOW: Duration = Duration::from_secs(15 * 60);
    pub const MAX_DELAY: Duration = Duration::from_secs(60);
    const MAX_KEYS: usize = 20_000;

    fn address_key(ip: IpAddr) -> String {
        format!("ip:{ip}")
    }

    fn pair_key(login: &str, ip: IpAddr) -> String {
        format!("pair:{ip}:{login}")
    }

    fn login_key(login: &str) -> String {
        format!("login:{login}")
    }

    /// The delay after `count` attempts on one account: none for the first
    /// [`Limiter::PER_LOGIN`], then 1 s, 2 s, 4 s... up to [`Limiter::MAX_DELAY`].
    pub fn delay(count: u32) -> Duration {
        if count < Self::PER_LOGIN {
            return Duration::ZERO;
        }
        let doublings = (count - Self::PER_LOGIN).min(16);
        Duration::from_secs(1u64 << doublings).min(Self::MAX_DELAY)
    }

    /// Counts an attempt to sign in as `login` from `ip`, or refuses it with the seconds to
    /// wait. The check and the count are one step under the lock.
    pub fn attempt(&self, login: &str, ip: IpAddr) -> Result<(), u64> {
        let now = Instant::now();
        let mut map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= Self::MAX_KEYS {
            map.retain(|_, a| now.duration_since(a.last) < Self::WINDOW);
            // Still full (a flood of made-up logins): forget single attempts first, then the
            // least recent quarter; never the counts that block, all at once.
            if map.len() >= Self::MAX_KEYS {
                map.retain(|_, a| a.count > 1);
            }
            if map.len() >= Self::MAX_KEYS {
                let mut lasts: Vec<Instant> = map.values().map(|a| a.last).collect();
                lasts.sort_unstable();
                let cut = lasts[lasts.len() / 4];
                map.retain(|_, a| a.last > cut);
            }
        }
        let fresh = |a: Option<&Attempts>| {
            a.copied()
                .filter(|a| now.duration_since(a.since) < Self::WINDOW)
                .unwrap_or(Attempts::new(now))
        };
        let (address_key, pair_key, login_key) = (
            Self::address_key(ip),
            Self::pair_key(login, ip),
            Self::login_key(login),
        );
        let mut address = fresh(map.get(&address_key));
        let mut pair = fresh(map.get(&pair_key));
        // The account's count lasts while attempts keep coming, not from the first one.
        let mut account = map
            .get(&login_key)
            .copied()
            .filter(|a| now.duration_since(a.last) < Self::WINDOW)
            .unwrap_or(Attempts::new(now));
        let window_left = |a: &Attempts| {
            Self::WINDOW
                .saturating_sub(now.duration_since(a.since))
                .as_secs()
                .max(1)
        };
        if address.count >= Self::PER_ADDRESS {
            return Err(window_left(&address));
        }
        if pair.count >= Self::PER_LOGIN {
            return Err(window_left(&pair));
        }
        let waited = now.duration_since(account.last);
        let delay = Self::delay(account.count);
        if account.count > 0 && waited < delay {
            return Err((delay - waited).as_secs_f64().ceil().max(1.0) as u64);
        }
        for (a, key) in [
            (&mut address, address_key),
            (&mut pair, pair_key),
            (&mut account, login_key),
        ] {
            a.count += 1;
            a.last = now;
            map.insert(key, *a);
        }
        Ok(())
    }

    /// The attempt was right: the account's attempts are forgotten, and it does not count
    /// against the address.
    pub fn succeeded(&self, login: &str, ip: IpAddr) {
        let mut map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        map.remove(&Self::login_key(login));
        map.remove(&Self::pair_key(login, ip));
        if let Some(a) = map.get_mut(&Self::address_key(ip)) {
            a.count = a.count.saturating_sub(1);
        }
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
    fn the_limiter_counts_attempts_and_delays_an_account() {
        let l = Limiter::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        for _ in 0..Limiter::PER_LOGIN {
            assert!(l.attempt("a", ip).is_ok());
        }
        assert!(l.attempt("a", ip).is_err(), "the 6th at once");
        assert!(
            l.attempt("b", ip).is_ok(),
            "another account from the same address"
        );
        let other: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(
            l.attempt("a", other),
            Err(1),
            "from elsewhere: a delay of a second"
        );
        l.succeeded("b", ip);
        assert_eq!(Limiter::delay(4), Duration::ZERO);
        assert_eq!(Limiter::delay(5), Duration::from_secs(1));
        assert_eq!(Limiter::delay(7), Duration::from_secs(4));
        assert_eq!(Limiter::delay(60), Limiter::MAX_DELAY);
    }

    #[test]
    fn a_flood_of_made_up_logins_does_not_wipe_the_counts() {
        let l = Limiter::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        for _ in 0..Limiter::PER_LOGIN {
            assert!(l.attempt("victim", ip).is_ok());
        }
        for i in 0..Limiter::MAX_KEYS as u32 {
            let other = IpAddr::from([10, (i >> 16) as u8, (i >> 8) as u8, i as u8]);
            let _ = l.attempt(&format!("made-up {i}"), other);
        }
        assert!(l.attempt("victim", ip).is_err(), "still blocked");
    }
}
