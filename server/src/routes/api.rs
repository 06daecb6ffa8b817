//! The JSON API: the same data and the same permissions as the pages. Authenticate with
//! `POST /api/login`, then `Authorization: Bearer TOKEN`. Errors are `{"error": "..."}` with
//! the page's status code. Documented with curl examples in docs/contest.md.

use axum::extract::{Multipart, Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::auth::{self, ApiUser, Viewer};
use crate::client::Client;
use crate::error::{AppError, ErrorInfo};
use crate::games;
use crate::routes::account::check_credentials;
use crate::routes::submissions::{read_upload, status};
use crate::scoreboard;
use crate::state::Shared;
use crate::store;
use crate::submissions;

/// Turns error pages into `{"error": message}` under `/api`.
pub async fn json_errors(response: Response) -> Response {
    match response.extensions().get::<ErrorInfo>().cloned() {
        Some(info) => {
            let mut r = (info.status, Json(json!({ "error": info.message }))).into_response();
            if let Some(v) = response.headers().get(header::RETRY_AFTER) {
                r.headers_mut().insert(header::RETRY_AFTER, v.clone());
            }
            r
        }
        None => response,
    }
}

#[derive(Deserialize)]
pub struct LoginBody {
    login: String,
    password: String,
}

pub async fn login(
    State(state): State<Shared>,
    client: Client,
    Json(body): Json<LoginBody>,
) -> Result<Response, AppError> {
    let user = match check_credentials(&state, client.ip, &body.login, &body.password).await {
        Err(AppError::BadRequest(m)) => return Err(AppError::Forbidden(m)),
        other => other?,
    };
    if user.must_change {
        return Err(AppError::Forbidden(
            "sign in on the site first to choose a new password".into(),
        ));
    }
    let token = auth::create_session(&state, user.id, true).await?;
    Ok(Json(json!({ "token": token, "user": { "id": user.id, "login": user.login, "nickname": user.nickname } })).into_response())
}

pub async fn submit(
    State(state): State<Shared>,
    ApiUser(session): ApiUser,
    headers: HeaderMap,
    form: Multipart,
) -> Result<Response, AppError> {
    let up = read_upload(form, state.rules().submissions.max_bytes).await?;
    let csrf = headers
        .get("x-csrf-token")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .unwrap_or(up.csrf);
    session.check_csrf(&csrf)?;
    let id = submissions::submit(
        &state,
        &session.user,
        &up.language,
        &up.file_name,
        up.source,
    )
    .await?;
    Ok((
        axum::http::StatusCode::CREATED,
        Json(json!({ "id": id, "status": "queued", "url": format!("/api/submissions/{id}") })),
    )
        .into_response())
}

#[derive(Serialize)]
struct SubmissionView {
    id: i64,
    user: String,
    language: String,
    file_name: String,
    size: i64,
    status: String,
    counts: bool,
    created_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    compile_log: Option<String>,
    games: Vec<games::GameRow>,
}

pub async fn submission(
    State(state): State<Shared>,
    ApiUser(session): ApiUser,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let sub = store::submission(&state.db, id).await?.ok_or_else(|| {
        AppError::NotFound(crate::lang::ta(
            "err-submission",
            &[("id", id.to_string().into())],
        ))
    })?;
    let owner = sub.user_id == session.user.id || session.user.admin;
    let user = store::user_by_id(&state.db, sub.user_id).await?;
    let compile_log: Option<String> = if owner {
        sqlx::query_scalar("SELECT compile_log FROM submissions WHERE id = $1")
            .bind(id)
            .fetch_one(state.db.pool())
            .await?
    } else {
        None
    };
    let current = store::current_submissions(&state.db)
        .await?
        .iter()
        .any(|s| s.id == id);
    Ok(Json(SubmissionView {
        id,
        user: user.map_or("?".into(), |u| u.display().to_string()),
        language: sub.language.clone(),
        file_name: sub.file_name.clone(),
        size: sub.size,
        status: status(&state, &sub).await?,
        counts: current,
        created_at: sub.created_at,
        compile_log,
        games: visible_games(&state, Some(&session), id).await?,
    })
    .into_response())
}

pub async fn my_submissions(
    State(state): State<Shared>,
    ApiUser(session): ApiUser,
) -> Result<Response, AppError> {
    let subs = store::submissions(&state.db, Some(session.user.id), 1000).await?;
    let mut out = Vec::new();
    for s in subs {
        out.push(json!({ "id": s.id, "language": s.language, "status": status(&state, &s).await?, "created_at": s.created_at }));
    }
    Ok(Json(out).into_response())
}

pub async fn scoreboard(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
) -> Result<Response, AppError> {
    if !state.rules().scoreboard.public && viewer.is_none() {
        return Err(AppError::Unauthenticated);
    }
    let admin = viewer.as_ref().is_some_and(|s| s.user.admin);
    let (board, frozen) = scoreboard::visible(&state, admin).await?;
    Ok(Json(json!({ "frozen": frozen, "board": &*board })).into_response())
}

#[derive(Deserialize)]
pub struct GamesQuery {
    submission: i64,
}

pub async fn games_of(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
    Query(q): Query<GamesQuery>,
) -> Result<Response, AppError> {
    if !games::may_watch(&state, viewer.as_ref()) {
        return Err(AppError::Unauthenticated);
    }
    store::submission(&state.db, q.submission)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("submission {}", q.submission)))?;
    Ok(Json(visible_games(&state, viewer.as_ref(), q.submission).await?).into_response())
}

/// A submission's games as this viewer may see them (no results after a freeze for students
/// and visitors).
async fn visible_games(
    state: &Shared,
    viewer: Option<&auth::Session>,
    submission: i64,
) -> Result<Vec<games::GameRow>, AppError> {
    let mut list = games::of_submission(state, submission).await?;
    games::Cutoff::of(state, viewer).await?.apply(&mut list);
    Ok(list)
}

pub async fn replay(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    if viewer.is_none() && !state.rules().scoreboard.public {
        return Err(AppError::Unauthenticated);
    }
    let text = games::replay_for(&state, id, viewer.as_ref()).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

#[derive(Deserialize)]
pub struct TestGameBody {
    /// `level:N`, `student:ID` or `me`.
    opponent: String,
    /// The student's own ready submission; absent: the latest.
    #[serde(default)]
    submission: Option<i64>,
    /// The seat their bot takes (0 = first).
    #[serde(default)]
    seat: usize,
}

/// `POST /api/test-games`: starts a test game (`crate::test_games`).
pub async fn start_test_game(
    State(state): State<Shared>,
    ApiUser(session): ApiUser,
    headers: HeaderMap,
    Json(body): Json<TestGameBody>,
) -> Result<Response, AppError> {
    let csrf = headers
        .get("x-csrf-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    session.check_csrf(csrf)?;
    let req = crate::test_games::Request {
        submission: body.submission,
        opponent: crate::test_games::Opponent::parse(&body.opponent)?,
        seat: body.seat,
    };
    let n = crate::test_games::start(&state, &session.user, &req).await?;
    Ok((
        axum::http::StatusCode::CREATED,
        Json(json!({ "number": n, "state": "queued", "url": format!("/api/test-games/{n}") })),
    )
        .into_response())
}

/// A test game as the API shows it to `session`.
fn test_game_view(
    state: &Shared,
    session: &auth::Session,
    g: &crate::test_games::TestGame,
) -> serde_json::Value {
    let mut v = json!({
        "number": g.row.id,
        "state": g.row.state,
        "players": g.names,
        "seat": g.seat,
        "person": g.person,
        "outcome": g.outcome(),
        "winner": g.row.winner,
        "places": g.row.places,
        "verdict": g.row.verdict,
        "reason": g.row.reason,
        "moves": g.row.moves,
        "created_at": g.created_at,
        "live": format!("/live/{}", crate::test_games::live_id(g.row.job)),
    });
    let link = state.people.get(g.row.job);
    if let (Some(l), true) = (link, g.user == session.user.id && g.row.state == "running") {
        v["play"] = json!(format!(
            "/live/{}/play?seat={}&key={}",
            crate::test_games::live_id(g.row.job),
            l.seat,
            l.key
        ));
    }
    v
}

/// `GET /api/test-games`: the student's test games, newest first (everyone's for the staff).
pub async fn test_games(
    State(state): State<Shared>,
    ApiUser(session): ApiUser,
) -> Result<Response, AppError> {
    let list = crate::test_games::list(&state, &session).await?;
    let out: Vec<_> = list
        .iter()
        .map(|g| test_game_view(&state, &session, g))
        .collect();
    Ok(Json(out).into_response())
}

/// `GET /api/test-games/{n}`.
pub async fn test_game(
    State(state): State<Shared>,
    ApiUser(session): ApiUser,
    Path(n): Path<i64>,
) -> Result<Response, AppError> {
    let g = crate::test_games::find(&state, &session, n).await?;
    Ok(Json(test_game_view(&state, &session, &g)).into_response())
}

/// `GET /api/test-games/{n}/replay`.
pub async fn test_game_replay(
    State(state): State<Shared>,
    ApiUser(session): ApiUser,
    Path(n): Path<i64>,
) -> Result<Response, AppError> {
    let text = crate::test_games::replay_for(&state, &session, n).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}
