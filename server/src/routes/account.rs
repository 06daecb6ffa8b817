//! Signing in and out, and the account page (first-login password change and nickname).

use std::net::IpAddr;

use askama::Template;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use axum_extra::extract::cookie::CookieJar;
use serde::Deserialize;

use crate::auth::{self, PageUser, Viewer};
use crate::client::Client;
use crate::error::AppError;
use crate::pages::{render, Layout};
use crate::redirect;
use crate::state::Shared;
use crate::store::{self, User};

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    l: Layout,
    csrf: String,
    next: String,
    login: String,
    error: Option<String>,
    /// `contest demo`'s accounts all have one password: the page says it.
    demo_password: Option<&'static str>,
}

#[derive(Deserialize)]
pub struct NextQuery {
    #[serde(default)]
    next: String,
}

pub async fn login_page(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
    client: Client,
    jar: CookieJar,
    Query(q): Query<NextQuery>,
) -> Result<Response, AppError> {
    // A link that would send the user elsewhere after signing in is refused before the form.
    let next = redirect::checked("next", Some(&q.next))?;
    if viewer.is_some() {
        return Ok(redirect::see_other(&next));
    }
    login_form(&state, client, jar, &next, "", None)
}

fn login_form(
    state: &Shared,
    client: Client,
    jar: CookieJar,
    next: &str,
    login: &str,
    error: Option<String>,
) -> Result<Response, AppError> {
    let nonce = jar
        .get(auth::ANON_COOKIE)
        .map(|c| c.value().to_string())
        .filter(|v| v.len() == 64)
        .unwrap_or_else(auth::random_token);
    let page = LoginPage {
        l: Layout::new(state, None, crate::lang::t("login-title"), "login"),
        csrf: auth::anon_token(&state.secret, &nonce),
        next: next.to_string(),
        login: login.to_string(),
        error,
        demo_password: crate::demo::is_demo(&state.dir).then_some(crate::demo::PASSWORD),
    };
    let jar = jar.add(auth::anon_cookie(nonce, client.secure_cookies(state)));
    Ok((jar, render(&page)?).into_response())
}

#[derive(Deserialize)]
pub struct LoginForm {
    csrf: String,
    login: String,
    password: String,
    #[serde(default)]
    next: String,
}

pub async fn login(
    State(state): State<Shared>,
    client: Client,
    jar: CookieJar,
    Form(f): Form<LoginForm>,
) -> Result<Response, AppError> {
    auth::check_anon_token(
        &state.secret,
        jar.get(auth::ANON_COOKIE).map(|c| c.value()),
        &f.csrf,
    )?;
    // Before the attempt is counted: a refused target is the link's fault, not a guess.
    let next = redirect::checked("next", Some(&f.next))?;
    match check_credentials(&state, client.ip, &f.login, &f.password).await {
        Ok(user) => {
            let token = auth::create_session(&state, user.id, false).await?;
            let jar = jar.add(auth::session_cookie(token, client.secure_cookies(&state)));
            let to = if user.must_change { "/account" } else { &next };
            Ok((jar, redirect::see_other(to)).into_response())
        }
        Err(AppError::BadRequest(message)) => {
            login_form(&state, client, jar, &next, &f.login, Some(message))
        }
        Err(e) => Err(e),
    }
}

/// The user whose login and password these are, with the attempt limits applied (the attempt
/// is counted before the hash is checked). `BadRequest` says why not, without telling whether
/// the login exists.
pub async fn check_credentials(
    state: &Shared,
    ip: IpAddr,
    login: &str,
    password: &str,
) -> Result<User, AppError> {
    let login = login.trim();
    if login.len() > 128 || password.len() > 1024 {
        return Err(AppError::BadRequest(crate::lang::t("err-wrong-login")));
    }
    if let Err(wait) = state.limiter.attempt(login, ip) {
        let when = if wait < 60 {
            crate::lang::ta("err-wait-seconds", &[("s", wait.into())])
        } else {
            crate::lang::ta("err-wait-minutes", &[("m", wait.div_ceil(60).into())])
        };
        return Err(AppError::TooMany {
            message: crate::lang::ta("err-too-many-sign-ins", &[("when", when.into())]),
            retry_after_s: wait,
        });
    }
    // Hash even for an unknown login, so timing does not tell which logins exist.
    let found = store::user_by_login(&state.db, login).await?;
    let hash = found
        .as_ref()
        .map(|(_, h)| h.clone())
        .unwrap_or_else(|| DUMMY_HASH.clone());
    let ok = auth::verify_password_async(password.to_string(), hash).await;
    match found {
        Some((user, _)) if ok => {
            state.limiter.succeeded(login, ip);
            Ok(user)
        }
        _ => Err(AppError::BadRequest(crate::lang::t("err-wrong-login"))),
    }
}

static DUMMY_HASH: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| auth::hash_password("not a password of anyone"));

#[derive(Deserialize)]
pub struct CsrfForm {
    pub csrf: String,
}

pub async fn logout(
    State(state): State<Shared>,
    PageUser(session): PageUser,
    jar: CookieJar,
    Form(f): Form<CsrfForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    if let Some(c) = jar.get(auth::SESSION_COOKIE) {
        auth::end_session(&state, c.value()).await?;
    }
    let jar = jar.remove(axum_extra::extract::cookie::Cookie::from(
        auth::SESSION_COOKIE,
    ));
    Ok((jar, Redirect::to("/")).into_response())
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
    l: Layout,
    user: User,
    nickname: String,
    must_change: bool,
    error: Option<String>,
    saved: Option<String>,
}

pub async fn page(
    State(state): State<Shared>,
    PageUser(session): PageUser,
) -> Result<Response, AppError> {
    account_page(&state, &session, None, None)
}

fn account_page(
    state: &Shared,
    session: &auth::Session,
    error: Option<String>,
    saved: Option<String>,
) -> Result<Response, AppError> {
    let user = session.user.clone();
    render(&AccountPage {
        l: Layout::new(
            state,
            Some(session),
            crate::lang::t("account-title"),
            "account",
        ),
        nickname: user.nickname.clone().unwrap_or_default(),
        must_change: user.must_change,
        user,
        error,
        saved,
    })
}

#[derive(Deserialize)]
pub struct AccountForm {
    csrf: String,
    #[serde(default)]
    nickname: String,
    #[serde(default)]
    current: String,
    #[serde(default)]
    new_password: String,
    #[serde(default)]
    confirm: String,
}

pub async fn save(
    State(state): State<Shared>,
    PageUser(session): PageUser,
    jar: CookieJar,
    Form(f): Form<AccountForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    match update_account(
        &state,
        &session,
        &f,
        jar.get(auth::SESSION_COOKIE).map(|c| c.value()),
    )
    .await
    {
        // The scoreboard says it worked (board::page's `welcome`) and what comes next.
        Ok(()) if session.user.must_change => Ok(Redirect::to("/?welcome=1").into_response()),
        Ok(()) => {
            let saved = if f.new_password.is_empty() {
                crate::lang::t("account-saved")
            } else {
                crate::lang::t("account-saved-password")
            };
            let fresh = store::user_by_id(&state.db, session.user.id)
                .await?
                .unwrap_or(session.user.clone());
            let session = auth::Session {
                user: fresh,
                ..session
            };
            account_page(&state, &session, None, Some(saved))
        }
        Err(AppError::BadRequest(m)) => account_page(&state, &session, Some(m), None),
        Err(e) => Err(e),
    }
}

/// Sets a user's nickname unless another user's login or nickname, or a reserved or course
/// staff name, reads the same (`crate::names::key`). The check and the update are one step:
/// SQLite's `BEGIN IMMEDIATE` holds the write lock; PostgreSQL takes a lock for nicknames.
async fn set_nickname(state: &Shared, user: &User, nickname: &str) -> Result<(), AppError> {
    /// PostgreSQL's advisory lock key for nickname changes (any constant of this site's).
    const NICKNAME_LOCK: i64 = 0x6172_6269_6e69_636b;
    let key = crate::names::key(nickname);
    let mut tx = state.db.begin().await?;
    if state.db.dialect() == arbiter_queue::Dialect::Postgres {
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(NICKNAME_LOCK)
            .execute(&mut *tx)
            .await?;
    }
    let others = sqlx::query(&format!(
        "SELECT {} FROM users WHERE id <> $1",
        User::COLUMNS
    ))
    .bind(user.id)
    .fetch_all(&mut *tx)
    .await?;
    // The reserved names are the course staff's to take.
    let mut taken = !user.admin && crate::names::reserved(&key);
    for row in &others {
        let other = User::from_row(row)?;
        let names = [Some(other.login.as_str()), other.nickname.as_deref()];
        if names
            .into_iter()
            .flatten()
            .any(|n| crate::names::key(n) == key)
        {
            taken = true;
        }
    }
    if taken {
        return Err(AppError::BadRequest(crate::lang::t("err-nickname-taken")));
    }
    sqlx::query("UPDATE users SET nickname = $1 WHERE id = $2")
        .bind(nickname)
        .bind(user.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Checks and applies an account change: a nickname (unique, plain), a new password (with
/// the current one). A first sign-in must set both.
async fn update_account(
    state: &Shared,
    session: &auth::Session,
    f: &AccountForm,
    token: Option<&str>,
) -> Result<(), AppError> {
    let bad = |key: &str| Err(AppError::BadRequest(crate::lang::t(key)));
    let user = &session.user;
    let nickname = match crate::names::normalise(&f.nickname) {
        Ok(n) => n,
        Err(m) => return Err(AppError::BadRequest(m)),
    };
    let nickname = nickname.as_str();
    let changing_password = !f.new_password.is_empty() || user.must_change;
    if user.must_change && nickname.is_empty() {
        return bad("err-choose-nickname");
    }
    if changing_password {
        if f.new_password.chars().count() < 8 || f.new_password.len() > 256 {
            return bad("err-password-length");
        }
        if f.new_password != f.confirm {
            return bad("err-passwords-differ");
        }
        let (_, hash) = store::user_by_login(&state.db, &user.login)
            .await?
            .ok_or_else(|| AppError::NotFound(crate::lang::t("err-your-account")))?;
        if !auth::verify_password_async(f.current.clone(), hash).await {
            return bad("err-current-password");
        }
        if f.new_password == user.login {
            return bad("err-password-is-login");
        }
    }
    if !nickname.is_empty() {
        set_nickname(state, user, nickname).await?;
        state.board_changed();
    }
    if changing_password {
        let hash = auth::hash_password_async(f.new_password.clone()).await;
        sqlx::query("UPDATE users SET password = $1, must_change = 0 WHERE id = $2")
            .bind(hash)
            .bind(user.id)
            .execute(state.db.pool())
            .await?;
        auth::end_sessions_of(state, user.id, token).await?;
    }
    Ok(())
}
