//! Submitting, the lists of submissions, a submission's page with its games, and the
//! author's downloads.

use std::collections::HashMap;

use askama::Template;
use axum::extract::{Multipart, Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};

use crate::auth::{PageUser, Session, Viewer};
use crate::error::AppError;
use crate::games;
use crate::pages::{game_name, render, when, Layout};
use crate::state::Shared;
use crate::store::{self, Submission, User};
use crate::submissions::{self, Allowance};

#[derive(Template)]
#[template(path = "submit.html")]
struct SubmitPage {
    l: Layout,
    allowance: Allowance,
    next_at: Option<String>,
    languages: Vec<(String, String)>,
    game: String,
    error: Option<String>,
    help: Vec<super::starter::LanguageHelp>,
    limits: String,
    /// The environment variables that name the game to a bot.
    env_vars: Vec<&'static str>,
    /// A module game's module, for students to try their bots on.
    module: Option<super::starter::ModuleHelp>,
}

pub async fn submit_page(
    State(state): State<Shared>,
    PageUser(session): PageUser,
) -> Result<Response, AppError> {
    submit_form(&state, &session, None).await
}

async fn submit_form(
    state: &Shared,
    session: &Session,
    error: Option<String>,
) -> Result<Response, AppError> {
    let allowance = submissions::allowance(state, session.user.id).await?;
    render(&SubmitPage {
        l: Layout::new(
            state,
            Some(session),
            crate::lang::t("submit-title"),
            "submit",
        ),
        next_at: allowance.next_at.map(when),
        allowance,
        languages: state
            .contest
            .file
            .languages
            .iter()
            .map(|(k, v)| (k.clone(), v.name.clone()))
            .collect(),
        game: game_name(state),
        error,
        help: super::starter::languages(state),
        limits: super::starter::limits_in_words(state),
        env_vars: super::starter::env_vars(state),
        module: super::starter::module_help(state),
    })
}

/// A submission as a form or the API sends it.
pub struct Upload {
    pub csrf: String,
    pub language: String,
    pub file_name: String,
    pub source: Vec<u8>,
}

/// Reads the multipart form: `language`, and `file` or `code` (pasted). Sizes are bounded by
/// the route's body limit; a field over the source limit is refused by name.
pub async fn read_upload(mut form: Multipart, max: u64) -> Result<Upload, AppError> {
    let mut up = Upload {
        csrf: String::new(),
        language: String::new(),
        file_name: String::new(),
        source: Vec::new(),
    };
    let mut pasted = Vec::new();
    let too_big = || {
        AppError::TooLarge(crate::lang::ta(
            "err-upload-too-large",
            &[("max", max.into())],
        ))
    };
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|e| AppError::BadRequest(format!("unreadable form: {e}")))?
    {
        let name = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        let bytes = field.bytes().await.map_err(|e| {
            if e.to_string().contains("length limit") {
                too_big()
            } else {
                AppError::BadRequest(format!("unreadable form: {e}"))
            }
        })?;
        let text = || {
            String::from_utf8_lossy(&bytes)
                .trim()
                .chars()
                .take(200)
                .collect::<String>()
        };
        match name.as_str() {
            "csrf" => up.csrf = text(),
            "language" => up.language = text(),
            "file" if !bytes.is_empty() => {
                up.file_name = file_name.unwrap_or_default();
                up.source = bytes.to_vec();
            }
            "code" => pasted = bytes.to_vec(),
            _ => {}
        }
        if up.source.len() as u64 > max || pasted.len() as u64 > max {
            return Err(too_big());
        }
    }
    if up.source.is_empty() && !pasted.iter().all(u8::is_ascii_whitespace) {
        up.source = pasted;
        up.file_name = "pasted".into();
    }
    Ok(up)
}

pub async fn submit(
    State(state): State<Shared>,
    PageUser(session): PageUser,
    form: Multipart,
) -> Result<Response, AppError> {
    let up = read_upload(form, state.rules().submissions.max_bytes).await?;
    session.check_csrf(&up.csrf)?;
    match submissions::submit(
        &state,
        &session.user,
        &up.language,
        &up.file_name,
        up.source,
    )
    .await
    {
        Ok(id) => Ok(Redirect::to(&format!("/submissions/{id}")).into_response()),
        Err(
            e @ (AppError::BadRequest(_)
            | AppError::TooLarge(_)
            | AppError::TooMany { .. }
            | AppError::Forbidden(_)),
        ) => {
            let status = e.status();
            let mut page = submit_form(&state, &session, Some(e.to_string())).await?;
            *page.status_mut() = status;
            Ok(page)
        }
        Err(e) => Err(e),
    }
}

/// A row of a submissions table.
pub struct ListRow {
    pub id: i64,
    pub student: String,
    pub language: String,
    pub file_name: String,
    pub size: i64,
    pub status: String,
    pub current: bool,
    pub when: String,
}

#[derive(Template)]
#[template(path = "submissions.html")]
struct ListPage {
    l: Layout,
    heading: String,
    all: bool,
    rows: Vec<ListRow>,
}

pub async fn mine(
    State(state): State<Shared>,
    PageUser(session): PageUser,
) -> Result<Response, AppError> {
    list(&state, &session, false).await
}

pub async fn all(
    State(state): State<Shared>,
    PageUser(session): PageUser,
) -> Result<Response, AppError> {
    list(&state, &session, true).await
}

async fn list(state: &Shared, session: &Session, all: bool) -> Result<Response, AppError> {
    let subs = store::submissions(&state.db, (!all).then_some(session.user.id), 500).await?;
    let users: HashMap<i64, User> = store::users(&state.db)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let current: Vec<i64> = store::current_submissions(&state.db)
        .await?
        .iter()
        .map(|s| s.id)
        .collect();
    let mut rows = Vec::with_capacity(subs.len());
    for s in subs {
        rows.push(ListRow {
            id: s.id,
            student: users
                .get(&s.user_id)
                .map_or("?".into(), |u| u.display().to_string()),
            language: language_name(state, &s.language),
            file_name: s.file_name.clone(),
            size: s.size,
            status: status(state, &s).await?,
            current: current.contains(&s.id),
            when: when(s.created_at),
        });
    }
    render(&ListPage {
        l: Layout::new(
            state,
            Some(session),
            crate::lang::t(if all { "subs-all" } else { "subs-mine" }),
            if all { "all" } else { "mine" },
        ),
        heading: crate::lang::t(if all { "subs-all" } else { "subs-mine" }),
        all,
        rows,
    })
}

/// A game's tooltip on the submission page: its verdict (in English the CLI's words, else the
/// kind's name: the full words are on the game's page, read from its replay).
fn game_title(g: &games::GameRow) -> String {
    let lang = crate::lang::current();
    let result = match &g.verdict {
        Some(v) => {
            let kind = g.reason.as_deref().unwrap_or("normal");
            arbiter_i18n::verdict::in_table(lang, kind, v)
        }
        None if g.state == games::FROZEN => lang.t("sub-game-frozen"),
        None => crate::pages::closed(lang, "status", &g.state),
    };
    lang.ta(
        "sub-game-title",
        &[("id", g.id.to_string().into()), ("result", result.into())],
    )
}

/// The name a submission's source has in its build (`main.c`), which compilers name.
pub fn build_file(state: &Shared, language: &str) -> String {
    state
        .contest
        .file
        .languages
        .get(language)
        .map(|l| l.file.clone())
        .unwrap_or_default()
}

fn language_name(state: &Shared, key: &str) -> String {
    state
        .contest
        .file
        .languages
        .get(key)
        .map_or_else(|| key.to_string(), |l| l.name.clone())
}

/// The status a student reads: `queued` / `compiling` while pending, else the stored one.
pub async fn status(state: &Shared, s: &Submission) -> Result<String, AppError> {
    if s.status != "pending" {
        return Ok(s.status.clone());
    }
    let job_state: Option<String> = match s.compile_job {
        Some(j) => {
            sqlx::query_scalar("SELECT state FROM jobs WHERE id = $1")
                .bind(j)
                .fetch_optional(state.db.pool())
                .await?
        }
        None => None,
    };
    Ok(match job_state.as_deref() {
        Some("running") => "compiling".into(),
        _ => "queued".into(),
    })
}

pub struct OpponentRow {
    /// The opponent, or the others at the table.
    pub name: String,
    /// At a table: games finished in each place ("2-1-0") and the points they gave.
    pub places: Option<(String, f64)>,
    pub won: usize,
    pub drawn: usize,
    pub lost: usize,
    pub pending: usize,
    /// Played after the scoreboard was frozen: results hidden.
    pub hidden: usize,
    pub verdict: &'static str,
    pub games: Vec<GameMark>,
}

pub struct GameMark {
    pub id: i64,
    pub mark: String,
    pub title: String,
    /// How it went, in words (games::in_words).
    pub words: String,
}

#[derive(Template)]
#[template(path = "submission.html")]
struct ShowPage {
    l: Layout,
    sub: Submission,
    status: String,
    current: bool,
    student: String,
    language: String,
    submitted: String,
    owner: bool,
    admin: bool,
    compile_log: Option<String>,
    opponents: Vec<OpponentRow>,
    done: usize,
    total: usize,
    flash: Option<String>,
    /// Games still to play or being played: the page refreshes itself until they are done.
    playing: bool,
    /// A contest of tables: the rows are tables, their games' marks places.
    tables: bool,
}

pub async fn show(
    State(state): State<Shared>,
    PageUser(session): PageUser,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let sub = store::submission(&state.db, id).await?.ok_or_else(|| {
        AppError::NotFound(crate::lang::ta(
            "err-submission",
            &[("id", id.to_string().into())],
        ))
    })?;
    let owner = sub.user_id == session.user.id || session.user.admin;
    let users: HashMap<i64, User> = store::users(&state.db)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let current = store::current_submissions(&state.db)
        .await?
        .iter()
        .any(|s| s.id == id);
    let mut games = games::of_submission(&state, id).await?;
    games::Cutoff::of(&state, Some(&session))
        .await?
        .apply(&mut games);
    let opponents = opponent_rows(&state, id, &games, &users).await?;
    let compile_log: Option<String> = if owner {
        sqlx::query_scalar("SELECT compile_log FROM submissions WHERE id = $1")
            .bind(id)
            .fetch_one(state.db.pool())
            .await?
    } else {
        None
    };
    render(&ShowPage {
        l: Layout::new(
            &state,
            Some(&session),
            crate::lang::ta("sub-title-short", &[("id", id.to_string().into())]),
            if sub.user_id == session.user.id {
                "mine"
            } else {
                "all"
            },
        ),
        status: status(&state, &sub).await?,
        current,
        student: users
            .get(&sub.user_id)
            .map_or("?".into(), |u| u.display().to_string()),
        language: language_name(&state, &sub.language),
        submitted: when(sub.created_at),
        owner,
        admin: session.user.admin,
        // Stored (and in the API) as the compile wrote it; arbiter's own lines in it are said
        // in the reader's language.
        compile_log: compile_log.filter(|l| !l.trim().is_empty()).map(|l| {
            let build = build_file(&state, &sub.language);
            let l = crate::file_names::own_names(&l, &build, &sub.file_name);
            arbiter_i18n::machine::compile_log(crate::lang::current(), &l)
        }),
        playing: games
            .iter()
            .any(|g| matches!(g.state.as_str(), "queued" | "running")),
        done: games.iter().filter(|g| g.state == "done").count(),
        total: games.iter().filter(|g| g.state != "cancelled").count(),
        opponents,
        flash: None,
        tables: state.contest.seats > 2,
        sub,
    })
}

/// A submission's games by opponent (or the others at its table), with each game's mark:
/// won, lost, drawn ("½"), its place at a table, to play ("·"), frozen ("?").
async fn opponent_rows(
    state: &Shared,
    id: i64,
    games: &[games::GameRow],
    users: &std::collections::HashMap<i64, store::User>,
) -> Result<Vec<OpponentRow>, AppError> {
    let per_place = state.contest.points_per_place();
    let lang = crate::lang::current();
    let mut opponents = Vec::new();
    for (others, list) in games::by_opponent(id, games) {
        let mut names = Vec::new();
        for other in others {
            names.push(match store::submission(&state.db, other).await? {
                Some(o) => format!(
                    "{} #{}",
                    users.get(&o.user_id).map_or("?", |u| u.display()),
                    o.id
                ),
                None => format!("#{other}"),
            });
        }
        let mut row = OpponentRow {
            name: names.join(", "),
            places: None,
            won: 0,
            drawn: 0,
            lost: 0,
            pending: 0,
            hidden: 0,
            verdict: "drawn",
            games: Vec::new(),
        };
        let mut places = vec![0u32; per_place.len()];
        let mut points = 0.0;
        for g in list {
            let my_seat = g.seat_of(id) as u8;
            let mark = match (g.state.as_str(), g.winner, g.place_of(id)) {
                ("done", _, Some(p)) => {
                    if let Some(x) = places.get_mut((p as usize).saturating_sub(1)) {
                        *x += 1;
                    }
                    points += per_place
                        .get((p as usize).saturating_sub(1))
                        .unwrap_or(&0.0);
                    lang.ta("place-nth", &[("n", p.into())])
                }
                ("done", None, None) => {
                    row.drawn += 1;
                    "½".into()
                }
                ("done", Some(w), None) if w == my_seat => {
                    row.won += 1;
                    // A result's letter in the page's language ("W" / "胜"); the other marks
                    // are signs, the same in every language.
                    lang.t("sub-mark-won")
                }
                ("done", Some(_), None) => {
                    row.lost += 1;
                    lang.t("sub-mark-lost")
                }
                ("queued" | "running", ..) => {
                    row.pending += 1;
                    "·".into()
                }
                (games::FROZEN, ..) => {
                    row.hidden += 1;
                    "?".into()
                }
                _ => "×".into(),
            };
            row.games.push(GameMark {
                id: g.id,
                mark,
                words: games::in_words(g, id),
                title: game_title(g),
            });
        }
        if state.contest.seats > 2 {
            let counts: Vec<String> = places.iter().map(u32::to_string).collect();
            row.places = Some((counts.join("-"), points));
        }
        row.verdict = match row.won.cmp(&row.lost) {
            std::cmp::Ordering::Greater => "won",
            std::cmp::Ordering::Less => "lost",
            std::cmp::Ordering::Equal => "drawn",
        };
        opponents.push(row);
    }
    Ok(opponents)
}

/// The author's (or course staff's) access to a submission; others get 403 whether or not
/// it exists... after checking it exists, so staff see 404 for a wrong id.
async fn authorised(state: &Shared, session: &Session, id: i64) -> Result<Submission, AppError> {
    let sub = store::submission(&state.db, id).await?.ok_or_else(|| {
        AppError::NotFound(crate::lang::ta(
            "err-submission",
            &[("id", id.to_string().into())],
        ))
    })?;
    if sub.user_id != session.user.id && !session.user.admin {
        return Err(AppError::Forbidden(crate::lang::t("err-author-only")));
    }
    Ok(sub)
}

pub async fn source(
    State(state): State<Shared>,
    PageUser(session): PageUser,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    source_response(&state, &session, id).await
}

pub async fn source_response(
    state: &Shared,
    session: &Session,
    id: i64,
) -> Result<Response, AppError> {
    let sub = authorised(state, session, id).await?;
    let hash: String = sqlx::query_scalar("SELECT source FROM submissions WHERE id = $1")
        .bind(id)
        .fetch_one(state.db.pool())
        .await?;
    let bytes = arbiter_queue::artefacts::get(&state.db, &hash)
        .await?
        .ok_or_else(|| AppError::NotFound("the source".into()))?;
    let ext = state
        .contest
        .file
        .languages
        .get(&sub.language)
        .map_or("txt".to_string(), |l| {
            l.file.rsplit('.').next().unwrap_or("txt").to_string()
        });
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"submission-{id}.{ext}\""),
            ),
            (header::CACHE_CONTROL, "no-store".into()),
        ],
        bytes,
    )
        .into_response())
}

pub async fn logs(
    State(state): State<Shared>,
    PageUser(session): PageUser,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let sub = authorised(&state, &session, id).await?;
    let cutoff = games::Cutoff::of(&state, Some(&session)).await?;
    let text = if sub.status == "failed" {
        let mut text = crate::lang::ta("logs-not-compiled", &[("id", id.to_string().into())]);
        text.push('\n');
        text
    } else {
        games::logs_text(&state, id, cutoff).await?
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"submission-{id}-logs.txt\""),
            ),
            (header::CACHE_CONTROL, "no-store".into()),
        ],
        text,
    )
        .into_response())
}

/// A viewer who is not signed in is sent to sign in; used by pages that only need to know.
pub fn require(viewer: Viewer) -> Result<Session, AppError> {
    viewer.0.ok_or(AppError::SignIn { next: "/".into() })
}
