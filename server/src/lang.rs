//! The language of a request: the `lang` cookie the switch on every page sets, else the
//! browser's `Accept-Language`, else `language` in contest.toml. Every page, flash and error a
//! request renders speaks it. It is kept for the request's task (a task-local set by the
//! outermost middleware) so that pages, errors and the live hub's frame read it without every
//! handler passing it along.

use arbiter_i18n::{Arg, Lang};
use axum::extract::{Path, Query, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use serde::Deserialize;

use crate::error::AppError;
use crate::state::Shared;

/// The cookie that remembers the switch.
pub const COOKIE: &str = "lang";

/// What a request's pages need to know of its language.
#[derive(Clone, Debug)]
pub struct Here {
    pub lang: Lang,
    /// The page's path and query, for the switch to come back to.
    pub path: String,
}

tokio::task_local! {
    static HERE: Here;
}

/// The current request's language (English outside a request: background tasks, tests).
pub fn current() -> Lang {
    HERE.try_with(|h| h.lang).unwrap_or_default()
}

/// The current request's page, for the switch.
pub fn path() -> String {
    HERE.try_with(|h| h.path.clone())
        .unwrap_or_else(|_| "/".into())
}

/// A message in the current request's language.
pub fn t(key: &str) -> String {
    current().t(key)
}

/// A message with parameters in the current request's language.
pub fn ta(key: &str, args: &[(&str, Arg<'_>)]) -> String {
    current().ta(key, args)
}

/// The language this request asks for.
pub fn choose(state: &Shared, headers: &axum::http::HeaderMap) -> Lang {
    let jar = CookieJar::from_headers(headers);
    jar.get(COOKIE)
        .and_then(|c| Lang::parse(c.value()))
        .or_else(|| {
            headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(Lang::from_accept_language)
        })
        .unwrap_or(state.contest.language)
}

/// Runs the rest of the request in its language.
pub async fn scope(State(state): State<Shared>, request: Request, next: Next) -> Response {
    let here = Here {
        lang: choose(&state, request.headers()),
        path: request
            .uri()
            .path_and_query()
            .map(|p| p.as_str().to_string())
            .unwrap_or_else(|| "/".into()),
    };
    let mut response = HERE.scope(here, next.run(request)).await;
    // Pages differ by these request headers: a cache must not serve one language to another.
    response.headers_mut().append(
        header::VARY,
        header::HeaderValue::from_static("Accept-Language, Cookie"),
    );
    response
}

#[derive(Deserialize)]
pub struct Back {
    back: Option<String>,
}

/// `GET /lang/{tag}?back=/page`: the switch. Remembers the language for a year and returns to
/// the page, only ever a page of this site (`back` is checked by [`crate::redirect`]: 400
/// for one that is not).
pub async fn switch(
    State(state): State<Shared>,
    Path(tag): Path<String>,
    Query(q): Query<Back>,
    jar: CookieJar,
) -> Result<Response, AppError> {
    let lang = Lang::parse(&tag).ok_or_else(|| AppError::NotFound(format!("language {tag}")))?;
    let back = crate::redirect::checked("back", q.back.as_deref())?;
    let cookie = Cookie::build((COOKIE, lang.tag()))
        .path("/")
        .same_site(SameSite::Lax)
        .secure(state.secure_cookies)
        .max_age(time::Duration::days(365))
        .build();
    Ok((jar.add(cookie), crate::redirect::see_other(&back)).into_response())
}
