//! The scoreboard page.

use std::sync::Arc;

use askama::Template;
use axum::extract::State;
use axum::response::Response;

use crate::auth::Viewer;
use crate::error::AppError;
use crate::pages::{render, when, Layout};
use crate::scoreboard::{self, Board};
use crate::state::Shared;

#[derive(Template)]
#[template(path = "scoreboard.html")]
struct BoardPage {
    l: Layout,
    board: Arc<Board>,
    frozen: bool,
    updated: String,
    games_per_pairing: u32,
    languages: std::collections::BTreeMap<String, String>,
}

impl BoardPage {
    fn language(&self, key: &str) -> String {
        self.languages
            .get(key)
            .cloned()
            .unwrap_or_else(|| key.to_string())
    }
}

pub async fn page(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
) -> Result<Response, AppError> {
    if !state.rules().scoreboard.public && viewer.is_none() {
        return Err(AppError::SignIn { next: "/".into() });
    }
    let admin = viewer.as_ref().is_some_and(|s| s.user.admin);
    let (board, frozen) = scoreboard::visible(&state, admin).await?;
    let languages = state
        .contest
        .file
        .languages
        .iter()
        .map(|(k, v)| (k.clone(), v.name.clone()))
        .collect();
    render(&BoardPage {
        languages,
        l: Layout::new(
            &state,
            viewer.as_ref(),
            crate::lang::t("board-title"),
            "scoreboard",
        ),
        updated: when(board.computed_at),
        board,
        frozen,
        games_per_pairing: state.contest.file.submissions.games_per_pairing,
    })
}
