//! The test games' pages: the list and the form that starts one (`/test-games`), a test
//! game's page with its player and live links (`/test-games/{n}`), its replay.

use std::collections::HashMap;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

use crate::auth::{PageUser, Session};
use crate::error::AppError;
use crate::pages::{render, when, Layout};
use crate::state::Shared;
use crate::store;
use crate::test_games::{self, Opponent, TestGame};

#[derive(Template)]
#[template(path = "test_games.html")]
struct ListPage {
    l: Layout,
    per_hour: u32,
    /// The student's ready submissions: (id, label), newest first.
    mine: Vec<(i64, String)>,
    levels: Vec<(String, String)>,
    students: Vec<(i64, String)>,
    person: bool,
    seats: Vec<(usize, String)>,
    error: Option<String>,
    rows: Vec<Row>,
    /// The list shows every student's (course staff).
    all: bool,
    /// A game is not over yet: the page reloads itself.
    waiting: bool,
}

struct Row {
    number: i64,
    student: String,
    opponent: String,
    seat: String,
    state: String,
    /// `won`, `lost`, `drawn` once over.
    outcome: Option<&'static str>,
    moves: String,
    when: String,
}

pub async fn list(
    State(state): State<Shared>,
    PageUser(session): PageUser,
) -> Result<Response, AppError> {
    list_page(&state, &session, None).await
}

async fn list_page(
    state: &Shared,
    session: &Session,
    error: Option<String>,
) -> Result<Response, AppError> {
    let lang = crate::lang::current();
    let subs = store::submissions(&state.db, Some(session.user.id), 200).await?;
    let mine = subs
        .iter()
        .filter(|s| s.status == "ready")
        .enumerate()
        .map(|(k, s)| {
            let label = match k {
                0 => lang.ta(
                    "test-latest",
                    &[("id", s.id.into()), ("file", s.file_name.clone().into())],
                ),
                _ => format!("#{} {}", s.id, s.file_name),
            };
            (s.id, label)
        })
        .collect();
    let labels = super::games::seat_labels(state, lang, state.contest.seats);
    let games = test_games::list(state, session).await?;
    // Whose each game is: the staff's list shows everyone's.
    let students: HashMap<i64, String> = match session.user.admin {
        true => store::users(&state.db)
            .await?
            .into_iter()
            .map(|u| (u.id, u.display().to_string()))
            .collect(),
        false => HashMap::new(),
    };
    let rows = games
        .iter()
        .map(|g| row(lang, g, &labels, &students))
        .collect();
    render(&ListPage {
        l: Layout::new(state, Some(session), lang.t("test-title"), "test"),
        per_hour: state.contest.file.test_games.per_hour,
        mine,
        levels: (0..=test_games::MAX_LEVEL)
            .map(|n| {
                let text = match n {
                    0 => lang.t("test-level-random"),
                    n => lang.ta("test-level", &[("n", n.into())]),
                };
                (format!("level:{n}"), text)
            })
            .collect(),
        students: test_games::students(state, &session.user).await?,
        person: state.people_games,
        seats: labels.into_iter().enumerate().collect(),
        error,
        waiting: games
            .iter()
            .any(|g| matches!(g.row.state.as_str(), "queued" | "running")),
        rows,
        all: session.user.admin,
    })
}

fn row(
    lang: arbiter_i18n::Lang,
    g: &TestGame,
    labels: &[String],
    students: &HashMap<i64, String>,
) -> Row {
    let opponent = g
        .names
        .iter()
        .enumerate()
        .find(|(i, _)| *i != g.seat)
        .map(|(i, n)| match Some(i) == g.person {
            true => lang.ta("test-by-clicks", &[("name", n.clone().into())]),
            false => n.clone(),
        })
        .unwrap_or_default();
    Row {
        number: g.row.id,
        student: students.get(&g.user).cloned().unwrap_or_default(),
        opponent,
        seat: labels.get(g.seat).cloned().unwrap_or_default(),
        state: g.row.state.clone(),
        outcome: g.outcome(),
        moves: g.row.moves.map(|m| m.to_string()).unwrap_or_default(),
        when: when(g.created_at),
    }
}

#[derive(Deserialize)]
pub struct StartForm {
    csrf: String,
    #[serde(default)]
    submission: String,
    opponent: String,
    #[serde(default)]
    seat: String,
}

pub async fn start(
    State(state): State<Shared>,
    PageUser(session): PageUser,
    Form(f): Form<StartForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    let started = async {
        let submission = match f.submission.as_str() {
            "" | "latest" => None,
            id => Some(id.parse::<i64>().map_err(|_| {
                AppError::BadRequest(crate::lang::ta(
                    "err-test-submission",
                    &[(
                        "value",
                        format!("{:?}", id.chars().take(20).collect::<String>()).into(),
                    )],
                ))
            })?),
        };
        let seat = match f.seat.as_str() {
            "" => 0,
            s => s.parse::<usize>().unwrap_or(usize::MAX),
        };
        let req = test_games::Request {
            submission,
            opponent: Opponent::parse(&f.opponent)?,
            seat,
        };
        test_games::start(&state, &session.user, &req).await
    };
    match started.await {
        Ok(n) => Ok(Redirect::to(&format!("/test-games/{n}")).into_response()),
        // Refusals the student can act on are said on the form, which keeps its place.
        Err(e @ (AppError::BadRequest(_) | AppError::TooMany { .. } | AppError::Forbidden(_)))
        | Err(e @ AppError::NotFound(_)) => {
            let mut page = list_page(&state, &session, Some(e.said())).await?;
            *page.status_mut() = e.status();
            Ok(page)
        }
        Err(e) => Err(e),
    }
}

pub async fn page(
    State(state): State<Shared>,
    PageUser(session): PageUser,
    nonce: crate::security::ScriptNonce,
    Path(number): Path<i64>,
) -> Result<Response, AppError> {
    let g = test_games::find(&state, &session, number).await?;
    let lang = crate::lang::current();
    let labels = super::games::seat_labels(&state, lang, g.names.len());
    let seats = labels
        .into_iter()
        .zip(g.names.iter())
        .enumerate()
        .map(|(i, (label, name))| {
            let name = match (i == g.seat, Some(i) == g.person) {
                (true, _) => lang.ta("test-your-bot", &[("name", name.clone().into())]),
                (_, true) => lang.ta("test-by-clicks", &[("name", name.clone().into())]),
                _ => name.clone(),
            };
            (label, name)
        })
        .collect();
    let over = g.row.verdict.is_some();
    let live = format!("/live/{}", test_games::live_id(g.row.job));
    let mut notes = Vec::new();
    let verdict = match g.row.state.as_str() {
        _ if over => None,
        "queued" => Some(lang.t("test-queued")),
        "running" => Some(lang.t("test-running")),
        other => Some(lang.ta(
            "game-not-played",
            &[("state", crate::pages::closed(lang, "status", other).into())],
        )),
    };
    if !over && g.row.state == "running" {
        let link = state.people.get(g.row.job);
        match (&link, g.person) {
            (Some(l), Some(_)) if g.user == session.user.id => notes.push((
                lang.t("test-play-seat"),
                Some(format!("{live}/play?seat={}&key={}", l.seat, l.key)),
            )),
            _ => {}
        }
        notes.push((lang.t("test-watch-live"), Some(live)));
    } else if !over && g.person.is_some() && g.row.state == "queued" {
        notes.push((lang.t("test-person-wait"), None));
    }
    let refresh = matches!(g.row.state.as_str(), "queued" | "running") && !over;
    let names: Vec<&String> = g.names.iter().collect();
    render(&super::games::GamePage {
        texts: super::games::script_texts(lang),
        l: Layout::new(
            &state,
            Some(&session),
            lang.ta("test-game-title", &[("id", number.to_string().into())]),
            "test",
        ),
        heading: lang.ta("test-game-title", &[("id", number.to_string().into())]),
        replay_url: format!("/test-games/{number}/replay.json"),
        download: format!("test-game-{number}.json"),
        seats,
        verdict,
        notes,
        played: over,
        refresh,
        player: state.player.clone(),
        players_json: crate::pages::script_json(&names),
        start_frame: -1,
        nonce: nonce.0,
    })
}

pub async fn replay(
    State(state): State<Shared>,
    PageUser(session): PageUser,
    Path(number): Path<i64>,
) -> Result<Response, AppError> {
    let text = test_games::replay_for(&state, &session, number).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response())
}
