//! A game's page (the embedded player) and its replay.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::auth::Viewer;
use crate::error::AppError;
use crate::games;
use crate::pages::{render, Layout};
use crate::state::Shared;
use crate::store;

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    l: Layout,
    id: i64,
    seat0: String,
    seat1: String,
    /// Why there is no result to show (not played yet, frozen); `None` for a finished game,
    /// whose result the player states (once, on the last frame the page opens at).
    verdict: Option<String>,
    player: Option<std::sync::Arc<String>>,
    players_json: String,
    /// The frame the page opens at; -1 = the last (the decisive one).
    start_frame: i64,
    /// Allows the page's inline script under the CSP.
    nonce: String,
}

pub async fn page(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
    nonce: crate::security::ScriptNonce,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    if !games::may_watch(&state, viewer.as_ref()) {
        return Err(AppError::SignIn {
            next: format!("/games/{id}"),
        });
    }
    let mut g = games::game(&state, id).await?;
    games::Cutoff::of(&state, viewer.as_ref())
        .await?
        .apply(std::slice::from_mut(&mut g));
    let mut names = Vec::new();
    for sub in g.seats {
        let name = match store::submission(&state.db, sub).await? {
            Some(s) => match store::user_by_id(&state.db, s.user_id).await? {
                Some(u) => format!("{} #{}", u.display(), s.id),
                None => format!("#{sub}"),
            },
            None => format!("#{sub}"),
        };
        names.push(name);
    }
    let verdict = match &g.verdict {
        Some(_) => None,
        None if g.state == games::FROZEN => Some(
            "played after the scoreboard was frozen: the result shows when it is unfrozen".into(),
        ),
        None => Some(format!("not played yet ({})", g.state)),
    };
    render(&GamePage {
        l: Layout::new(&state, viewer.as_ref(), format!("Game {id}"), ""),
        id,
        players_json: crate::pages::script_json(&names),
        seat0: names[0].clone(),
        seat1: names[1].clone(),
        verdict,
        player: state.player.clone(),
        start_frame: -1,
        nonce: nonce.0,
    })
}

pub async fn replay(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let text = games::replay_for(&state, id, viewer.as_ref()).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response())
}
