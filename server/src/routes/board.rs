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
    /// Just after the first sign-in's password change: say it worked, and what is next.
    welcome: bool,
}

#[derive(serde::Deserialize)]
pub struct BoardQuery {
    #[serde(default)]
    welcome: Option<String>,
}

impl BoardPage {
    fn language(&self, key: &str) -> String {
        self.languages
            .get(key)
            .cloned()
            .unwrap_or_else(|| key.to_string())
    }

    /// An Elo difference as a person reads it: "+12", "-7", and 0 (never "-0" or "+0").
    fn elo(&self, elo: &f64) -> String {
        signed(*elo)
    }
}

/// `x` rounded, with its sign, and a plain 0 when it rounds to zero.
pub fn signed(x: f64) -> String {
    let r = x.round();
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r:+.0}")
    }
}

pub async fn page(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
    axum::extract::Query(q): axum::extract::Query<BoardQuery>,
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
        welcome: q.welcome.is_some(),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn minus_zero_reads_zero() {
        assert_eq!(super::signed(-0.3), "0");
        assert_eq!(super::signed(0.4), "0");
        assert_eq!(super::signed(12.6), "+13");
        assert_eq!(super::signed(-7.0), "-7");
    }
}
