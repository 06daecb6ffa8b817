//! The routes: pages, the course staff's actions, and the JSON API under `/api`. Handlers are
//! thin: they take an extractor that authorises the request, call a domain function, and
//! render a template or JSON.

pub mod account;
pub mod admin;
pub mod api;
pub mod board;
pub mod games;
pub mod similarity;
pub mod starter;
pub mod submissions;
pub mod test_games;

use axum::extract::DefaultBodyLimit;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{from_fn_with_state, map_response, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::error::AppError;
use crate::security;
use crate::state::Shared;

/// Bodies of ordinary forms and API calls.
const SMALL_BODY: usize = 64 * 1024;

pub fn router(state: Shared) -> Router {
    // A submission may carry the source twice (file and pasted), plus the form around it.
    let upload =
        DefaultBodyLimit::max(2 * state.contest.file.submissions.max_bytes as usize + SMALL_BODY);
    let api = Router::new()
        .route("/login", post(api::login))
        .route(
            "/submissions",
            post(api::submit).layer(upload).get(api::my_submissions),
        )
        .route("/submissions/{id}", get(api::submission))
        .route("/scoreboard", get(api::scoreboard))
        .route("/games", get(api::games_of))
        .route("/games/{id}/replay", get(api::replay))
        .route(
            "/test-games",
            post(api::start_test_game).get(api::test_games),
        )
        .route("/test-games/{id}", get(api::test_game))
        .route("/test-games/{id}/replay", get(api::test_game_replay))
        .fallback(api_not_found)
        .layer(map_response(api::json_errors));
    Router::new()
        .route("/", get(board::page))
        .route("/scoreboard", get(board::page))
        .route("/login", get(account::login_page).post(account::login))
        .route("/logout", post(account::logout))
        .route("/account", get(account::page).post(account::save))
        .route(
            "/submit",
            get(submissions::submit_page)
                .post(submissions::submit)
                .layer(upload),
        )
        .route("/protocols/{name}", get(starter::protocol))
        .route("/starters/{language}", get(starter::starter))
        .route("/submissions", get(submissions::mine))
        .route("/submissions/all", get(submissions::all))
        .route("/submissions/{id}", get(submissions::show))
        .route("/submissions/{id}/source", get(submissions::source))
        .route("/submissions/{id}/logs", get(submissions::logs))
        .route("/games/{id}", get(games::page))
        .route("/games/{id}/replay.json", get(games::replay))
        .route("/modules/{file}", get(games::module))
        .route("/games/modules/{file}", get(games::module))
        .route("/test-games", get(test_games::list).post(test_games::start))
        .route("/test-games/{id}", get(test_games::page))
        .route("/test-games/{id}/replay.json", get(test_games::replay))
        .route("/test-games/modules/{file}", get(games::module))
        .route("/admin", get(admin::page))
        .route("/admin/freeze", post(admin::freeze))
        .route("/admin/rules", post(admin::rules))
        .route("/admin/unfreeze", post(admin::unfreeze))
        .route("/admin/users/{id}/disqualify", post(admin::disqualify))
        .route("/admin/users/{id}/reinstate", post(admin::reinstate))
        .route("/admin/users/{id}/reset", post(admin::reset_password))
        .route("/admin/submissions/{id}/rejudge", post(admin::rejudge))
        .route("/admin/similarity", get(similarity::list))
        .route("/admin/similarity/pair", get(similarity::pair))
        .route("/lang/{tag}", get(crate::lang::switch))
        .route("/favicon.svg", get(favicon))
        .route("/favicon.ico", get(favicon))
        .nest("/api", api)
        .nest_service(
            "/live",
            state
                .hub
                .router()
                .layer(from_fn_with_state(state.clone(), live_gate)),
        )
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(SMALL_BODY))
        .layer(CompressionLayer::new())
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("SAMEORIGIN"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(from_fn_with_state(state.clone(), guard))
        .layer(from_fn_with_state(state.clone(), crate::lang::scope))
        .with_state(state)
}

/// Every request: refused when it changes something (or opens a websocket) from another
/// site's page (`Origin`, a second line behind the CSRF tokens); every response: the CSP with
/// a nonce of its own for the page's inline scripts.
async fn guard(State(state): State<Shared>, mut request: Request, next: Next) -> Response {
    let host = own_host(&state, &request);
    if !security::origin_allowed(request.method(), request.headers(), host.as_deref()) {
        let refused = AppError::Forbidden(crate::lang::t("err-other-site")).into_response();
        if request.uri().path().starts_with("/api/") {
            return api::json_errors(refused).await;
        }
        return refused;
    }
    let nonce = security::ScriptNonce::new();
    request.extensions_mut().insert(nonce.clone());
    let headers = request.headers().clone();
    let mut response = named_error_page(&state, &headers, next.run(request).await).await;
    if !response
        .headers()
        .contains_key(header::CONTENT_SECURITY_POLICY)
    {
        if let Ok(v) = HeaderValue::from_str(&security::policy(&nonce, &state.player_hashes)) {
            response
                .headers_mut()
                .insert(header::CONTENT_SECURITY_POLICY, v);
        }
    }
    response
}

/// The site's host and port as the browser addressed it: `X-Forwarded-Host` from a trusted
/// proxy, else `Host` (HTTP/1.1), else the request's authority (HTTP/2).
fn own_host(state: &Shared, request: &Request) -> Option<String> {
    let headers = request.headers();
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let forwarded = peer
        .filter(|p| crate::client::trusted(*p, &state.trusted_proxies))
        .and_then(|_| headers.get("x-forwarded-host"))
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|v| v.trim().to_string());
    forwarded
        .or_else(|| {
            headers
                .get(header::HOST)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        })
        .or_else(|| request.uri().authority().map(|a| a.to_string()))
}

/// The live games are watched by whoever may watch the contest's games: everyone when the
/// scoreboard is public, else only signed-in users, and only course staff while it is frozen;
/// their pages get the site's frame.
async fn live_gate(
    State(state): State<Shared>,
    crate::auth::Viewer(viewer): crate::auth::Viewer,
    request: Request,
    next: Next,
) -> Response {
    // A test game is its student's and the course staff's only, frozen board or not (it
    // counts for nothing); anyone else is told there is no such game.
    if let Some(job) = live_test_job(request.uri().path()) {
        match crate::test_games::may_follow(&state, viewer.as_ref(), job).await {
            Ok(true) => return follow(&state, viewer.as_ref(), "test", request, next).await,
            Ok(false) => {
                let id = crate::test_games::live_id(job).to_string();
                return AppError::NotFound(crate::lang::ta("err-live-game", &[("id", id.into())]))
                    .into_response();
            }
            Err(e) => return e.into_response(),
        }
    }
    if crate::games::may_watch(&state, viewer.as_ref()) {
        // A game followed to its end shows its result: none while the board is frozen.
        match crate::games::Cutoff::of(&state, viewer.as_ref()).await {
            Ok(c) if c.frozen() => {
                return AppError::Forbidden(crate::lang::t("err-live-frozen")).into_response()
            }
            Ok(_) => {}
            Err(e) => return e.into_response(),
        }
        return follow(&state, viewer.as_ref(), "live", request, next).await;
    }
    AppError::SignIn {
        next: "/live".into(),
    }
    .into_response()
}

/// Passes an allowed request on to the hub, in the site's frame (`nav`: its menu entry).
async fn follow(
    state: &Shared,
    viewer: Option<&crate::auth::Session>,
    nav: &'static str,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(mut frame) = crate::pages::live_frame(state, viewer, nav) {
        frame.nonce = request
            .extensions()
            .get::<security::ScriptNonce>()
            .map(|n| n.0.clone());
        request.extensions_mut().insert(frame);
    }
    // The hub's per-address websocket limit counts clients, not the proxy in front.
    if let Some(ConnectInfo(peer)) = request.extensions().get::<ConnectInfo<SocketAddr>>() {
        let client = crate::client::resolve(peer.ip(), request.headers(), &state.trusted_proxies);
        let addr = SocketAddr::new(client.ip, peer.port());
        request.extensions_mut().insert(ConnectInfo(addr));
    }
    next.run(request).await
}

/// The test game a path under `/live` names, if any: every part of the decoded path that
/// could be read as a game's number is looked at (`/{id}`, `/{id}/play`, `/ws/_{id}`,
/// `/ws/{id}.{key}/{seat}`), so that no spelling of a path reaches one past the gate.
fn live_test_job(path: &str) -> Option<i64> {
    let path = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    path.split('/').find_map(|part| {
        let part = part.strip_prefix('_').unwrap_or(part);
        let id = part.split_once('.').map_or(part, |(id, _)| id);
        id.parse::<u64>()
            .ok()
            .and_then(crate::test_games::job_of_live)
    })
}

/// Error pages are made without the site's state (AppError::into_response): this makes them
/// again with the contest's name and the viewer's header, keeping their other headers
/// (Retry-After ...).
async fn named_error_page(
    state: &Shared,
    headers: &axum::http::HeaderMap,
    response: Response,
) -> Response {
    let Some(info) = response
        .extensions()
        .get::<crate::error::ErrorInfo>()
        .cloned()
    else {
        return response;
    };
    let viewer = crate::auth::page_viewer(state, headers).await;
    let mut named =
        crate::pages::error_page_for(state, viewer.as_ref(), info.status, &info.message);
    let body_headers = [
        header::CONTENT_TYPE,
        header::CONTENT_LENGTH,
        header::CONTENT_ENCODING,
    ];
    for (k, v) in response.headers() {
        if !body_headers.contains(k) {
            named.headers_mut().insert(k.clone(), v.clone());
        }
    }
    named.extensions_mut().insert(info);
    named
}

/// The site's icon (asked for by every browser as `/favicon.ico`, which it may be too: browsers
/// read an SVG there by its type).
async fn favicon() -> Response {
    const ICON: &str = include_str!("../../assets/favicon.svg");
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        ICON,
    )
        .into_response()
}

async fn not_found() -> AppError {
    AppError::NotFound(crate::lang::t("err-this-page"))
}

async fn api_not_found() -> AppError {
    AppError::NotFound("this API route".into())
}

/// A plain `(status, text)` for handlers that need one.
pub fn text(status: StatusCode, body: &str) -> Response {
    axum::response::IntoResponse::into_response((status, body.to_string()))
}
