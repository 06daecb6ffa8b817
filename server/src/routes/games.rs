//! A game's page (the embedded player), its replay, and the game module the player needs.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use arbiter_i18n::{Arg, Lang};

use crate::auth::Viewer;
use crate::error::AppError;
use crate::games;
use crate::pages::{render, Layout};
use crate::state::Shared;
use crate::store;

#[derive(Template)]
#[template(path = "game.html")]
pub(crate) struct GamePage {
    pub(crate) l: Layout,
    pub(crate) heading: String,
    /// Where the page's script fetches the replay, and the name it is downloaded under.
    pub(crate) replay_url: String,
    pub(crate) download: String,
    /// Each seat: what it is called in this game (Black and White on a board, else first,
    /// second, seat 3 ...) and who sat in it.
    pub(crate) seats: Vec<(String, String)>,
    /// Why there is no result to show (not played yet, frozen); `None` for a finished game,
    /// whose result the player states (once, on the last frame the page opens at).
    pub(crate) verdict: Option<String>,
    /// Lines above the player: a text, and a link it leads to (a test game's live pages).
    pub(crate) notes: Vec<(String, Option<String>)>,
    /// Whether the player is shown (a replay may be there).
    pub(crate) played: bool,
    /// The page reloads itself (a test game not over yet).
    pub(crate) refresh: bool,
    pub(crate) player: Option<std::sync::Arc<String>>,
    pub(crate) players_json: String,
    /// The frame the page opens at; -1 = the last (the decisive one).
    pub(crate) start_frame: i64,
    /// Allows the page's inline script under the CSP.
    pub(crate) nonce: String,
    /// The texts the page's script writes, in the page's language (JSON).
    pub(crate) texts: String,
}

impl GamePage {
    /// The player's page in this page's language: the player reads its document's `lang`.
    fn player_in_language(&self, html: &str) -> String {
        crate::pages::with_lang(html, self.l.lang)
    }
}

/// The texts of the replay controls' script; `{k}`-style holes are filled in by the script.
pub(crate) fn script_texts(lang: Lang) -> String {
    let hole = |name: &'static str| (name, Arg::from(format!("{{{name}}}")));
    crate::pages::script_json(&serde_json::json!({
        "frameOf": lang.ta("game-frame-of", &[hole("k"), hole("last")]),
        "error": lang.ta("game-error", &[hole("reason")]),
        "cannotLoad": lang.ta("game-cannot-load", &[hole("status")]),
        "play": lang.t("game-btn-play"),
        "pause": lang.t("game-btn-pause"),
    }))
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
    for &sub in &g.seats {
        let name = match store::submission(&state.db, sub).await? {
            Some(s) => match store::user_by_id(&state.db, s.user_id).await? {
                Some(u) => format!("{} #{}", u.display(), s.id),
                None => format!("#{sub}"),
            },
            None => format!("#{sub}"),
        };
        names.push(name);
    }
    let lang = crate::lang::current();
    let verdict = match &g.verdict {
        Some(_) => None,
        None if g.state == games::FROZEN => Some(lang.t("game-frozen")),
        None => Some(lang.ta(
            "game-not-played",
            &[(
                "state",
                crate::pages::closed(lang, "status", &g.state).into(),
            )],
        )),
    };
    render(&GamePage {
        texts: script_texts(lang),
        l: Layout::new(
            &state,
            viewer.as_ref(),
            lang.ta("game-title", &[("id", id.to_string().into())]),
            "",
        ),
        heading: lang.ta("game-title", &[("id", id.to_string().into())]),
        replay_url: format!("/games/{id}/replay.json"),
        download: format!("game-{id}.json"),
        notes: Vec::new(),
        played: true,
        refresh: false,
        players_json: crate::pages::script_json(&names),
        seats: seat_labels(&state, lang, names.len())
            .into_iter()
            .zip(names.iter().cloned())
            .collect(),
        verdict,
        player: state.player.clone(),
        start_frame: -1,
        nonce: nonce.0,
    })
}

/// The seats' names on a game page: "Black / first" where the game has colours (Reversi,
/// Gomoku), "First" and "Second" where it has none (the 2048 duel, a game module of two
/// seats), "Seat 1", "Seat 2" ... at a table.
pub(crate) fn seat_labels(state: &Shared, lang: Lang, seats: usize) -> Vec<String> {
    use arbiter_engine::platform::SeatNaming;
    if seats > 2 {
        return (1..=seats)
            .map(|n| lang.ta("game-seat-n", &[("n", n.into())]))
            .collect();
    }
    match state.contest.game.game.seat_naming() {
        SeatNaming::Colours => vec![lang.t("game-first"), lang.t("game-second")],
        SeatNaming::Order => vec![lang.t("game-first-seat"), lang.t("game-second-seat")],
    }
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

/// `/modules/<sha256>.wasm` (and `/games/modules/...`: the game page embeds the player by
/// `srcdoc`, whose relative URLs resolve against the page's): the contest's game module.
/// Named by its hash, it never changes: cached for a year.
pub async fn module(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
    Path(file): Path<String>,
) -> Result<Response, AppError> {
    let bytes = games::module_file(&state, &file, viewer.as_ref()).await?;
    let cache = match state.rules().scoreboard.public {
        true => "public, max-age=31536000, immutable",
        false => "private, max-age=31536000, immutable",
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/wasm"),
            (header::CACHE_CONTROL, cache),
        ],
        bytes.to_vec(),
    )
        .into_response())
}
