//! The course staff's page: freeze the scoreboard, disqualify or reinstate a student, reset a
//! password, re-judge a submission. Every action is a POST with the session's CSRF token.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

use arbiter_queue::JobKind;

use crate::auth::{self, Admin};
use crate::error::AppError;
use crate::pages::{game_name, render, url_encode, Layout};
use crate::routes::account::CsrfForm;
use crate::scoreboard;
use crate::state::Shared;
use crate::store;
use crate::submissions;

pub struct UserRow {
    pub id: i64,
    pub login: String,
    pub name: String,
    pub nickname: String,
    pub admin: bool,
    pub disqualified: bool,
    pub must_change: bool,
    pub latest: Option<i64>,
}

#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage {
    l: Layout,
    users: Vec<UserRow>,
    frozen: bool,
    /// Game jobs only: compiles are counted apart (`compiles`).
    counts: arbiter_queue::jobs::Counts,
    /// "judging paused: database locked for 20 s" while this server's workers wait.
    judging: Option<String>,
    /// Games the judging machine spoiled: "game 12: voided: ...; replayed" (the reason is
    /// stored in English and said here in the reader's language).
    voids: Vec<String>,
    compiles: arbiter_queue::jobs::Counts,
    /// The students' test games (never counted), with or without a person.
    tests: arbiter_queue::jobs::Counts,
    game: String,
    rules: crate::config::Rules,
    file_max_bytes: u64,
    flash: Option<String>,
}

impl AdminPage {
    /// The judging line: how many games are in each state.
    fn counts_text(&self) -> String {
        self.in_states(&self.counts)
    }

    /// The test games' line, as the games'.
    fn tests_text(&self) -> String {
        self.in_states(&self.tests)
    }

    fn in_states(&self, c: &arbiter_queue::jobs::Counts) -> String {
        self.l.lang.ta(
            "admin-counts",
            &[
                ("queued", c.queued.into()),
                ("running", c.running.into()),
                ("done", c.done.into()),
                ("failed", c.failed.into()),
                ("cancelled", c.cancelled.into()),
            ],
        )
    }

    /// The compiling line: how many compiles wait, ran, failed to run.
    fn compiles_text(&self) -> String {
        let c = &self.compiles;
        let mut text = self.l.lang.ta(
            "admin-compiles-counts",
            &[
                ("waiting", (c.queued + c.running).into()),
                ("done", c.done.into()),
            ],
        );
        if c.failed > 0 {
            text.push_str(
                &self
                    .l
                    .lang
                    .ta("admin-compiles-failed", &[("failed", c.failed.into())]),
            );
        }
        text
    }
}

/// The contest's jobs of these kinds by state.
async fn job_counts(
    state: &Shared,
    kinds: &[JobKind],
) -> Result<arbiter_queue::jobs::Counts, AppError> {
    use sqlx::Row;
    // The kinds' names are the queue's own words, not input.
    let kinds: Vec<String> = kinds.iter().map(|k| format!("'{}'", k.as_str())).collect();
    let rows = sqlx::query(&format!(
        "SELECT state, COUNT(*) FROM jobs WHERE competition = $1 AND kind IN ({}) \
         GROUP BY state",
        kinds.join(", ")
    ))
    .bind(state.competition)
    .fetch_all(state.db.pool())
    .await?;
    let mut c = arbiter_queue::jobs::Counts::default();
    for row in rows {
        let n: i64 = row.try_get(1)?;
        match row.try_get::<String, _>(0)?.as_str() {
            "queued" => c.queued += n,
            "running" => c.running += n,
            "done" => c.done += n,
            "cancelled" => c.cancelled += n,
            _ => c.failed += n,
        }
    }
    Ok(c)
}

#[derive(Template)]
#[template(path = "confirm.html")]
struct ConfirmPage {
    l: Layout,
    heading: String,
    message: String,
    action: String,
    button: String,
}

/// The disqualify form; without `confirm = yes` it asks first.
#[derive(Deserialize)]
pub struct DisqualifyForm {
    csrf: String,
    #[serde(default)]
    confirm: Option<String>,
}

#[derive(Deserialize)]
pub struct FlashQuery {
    #[serde(default)]
    done: Option<String>,
}

pub async fn page(
    State(state): State<Shared>,
    Admin(session): Admin,
    Query(q): Query<FlashQuery>,
) -> Result<Response, AppError> {
    let mut users = Vec::new();
    for u in store::users(&state.db).await? {
        let latest: Option<i64> =
            sqlx::query_scalar("SELECT MAX(id) FROM submissions WHERE user_id = $1")
                .bind(u.id)
                .fetch_one(state.db.pool())
                .await?;
        users.push(UserRow {
            id: u.id,
            nickname: u.nickname.clone().unwrap_or_default(),
            login: u.login,
            name: u.name,
            admin: u.admin,
            disqualified: u.disqualified,
            must_change: u.must_change,
            latest,
        });
    }
    render(&AdminPage {
        l: Layout::new(
            &state,
            Some(&session),
            crate::lang::t("admin-title"),
            "admin",
        ),
        users,
        frozen: scoreboard::frozen(&state).await?.is_some(),
        counts: job_counts(&state, &[JobKind::Game]).await?,
        compiles: job_counts(&state, &[JobKind::Compile]).await?,
        tests: job_counts(&state, &[JobKind::TestGame, JobKind::PersonGame]).await?,
        judging: held_up(&state).await.map(|(what, seconds)| {
            arbiter_i18n::machine::judging_paused(crate::lang::current(), &what, seconds)
        }),
        voids: void_lines(&state).await?,
        game: game_name(&state),
        rules: state.rules(),
        file_max_bytes: state.contest.file.submissions.max_bytes,
        flash: q.done.map(|d| d.chars().take(200).collect()),
    })
}

/// What holds judging up: this server's own workers and requests (`arbiter_queue::health`),
/// else what workers on other machines reported with their latest heartbeat. Reading that
/// may fail while the database does: the server's own state says so then.
async fn held_up(state: &Shared) -> Option<(String, u64)> {
    if let Some(here) = arbiter_queue::health::held_up() {
        return Some(here);
    }
    arbiter_queue::workers::trouble(&state.queue)
        .await
        .ok()
        .flatten()
}

/// The ten latest voided games, in words.
async fn void_lines(state: &Shared) -> Result<Vec<String>, AppError> {
    let voids = state.queue.recent_voids(state.competition, 10).await?;
    let mut lines = Vec::with_capacity(voids.len());
    for (job, why, now) in voids {
        let game = crate::games::number_of(state, job).await?;
        lines.push((game, why, now));
    }
    Ok(lines
        .into_iter()
        .map(|(game, why, now)| {
            let then = match now.as_str() {
                "done" => "admin-void-replayed",
                "queued" | "running" => "admin-void-again",
                _ => "admin-void-not-again",
            };
            crate::lang::ta(
                "admin-void",
                &[
                    ("job", game.into()),
                    (
                        "why",
                        arbiter_i18n::machine::void_reason(crate::lang::current(), &why).into(),
                    ),
                    ("then", crate::lang::t(then).as_str().into()),
                ],
            )
        })
        .collect())
}

fn done(message: &str) -> Response {
    Redirect::to(&format!("/admin?done={}", url_encode(message))).into_response()
}

pub async fn freeze(
    State(state): State<Shared>,
    Admin(session): Admin,
    Form(f): Form<CsrfForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    scoreboard::freeze(&state).await?;
    Ok(done(&crate::lang::t("admin-done-frozen")))
}

pub async fn unfreeze(
    State(state): State<Shared>,
    Admin(session): Admin,
    Form(f): Form<CsrfForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    scoreboard::unfreeze(&state).await?;
    Ok(done(&crate::lang::t("admin-done-live")))
}

pub async fn disqualify(
    State(state): State<Shared>,
    Admin(session): Admin,
    Path(id): Path<i64>,
    Form(f): Form<DisqualifyForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    if f.confirm.as_deref() != Some("yes") {
        let user = store::user_by_id(&state.db, id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("user {id}")))?;
        return render(&ConfirmPage {
            l: Layout::new(
                &state,
                Some(&session),
                crate::lang::t("admin-disqualify-title"),
                "admin",
            ),
            heading: crate::lang::ta(
                "admin-disqualify-heading",
                &[
                    ("name", (&user.name).into()),
                    ("login", (&user.login).into()),
                ],
            ),
            message: crate::lang::t("admin-disqualify-message"),
            action: format!("/admin/users/{id}/disqualify"),
            button: crate::lang::ta(
                "admin-disqualify-button",
                &[("login", (&user.login).into())],
            ),
        });
    }
    set_disqualified(&state, id, true).await?;
    Ok(done(&crate::lang::t("admin-done-disqualified")))
}

pub async fn reinstate(
    State(state): State<Shared>,
    Admin(session): Admin,
    Path(id): Path<i64>,
    Form(f): Form<CsrfForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    set_disqualified(&state, id, false).await?;
    Ok(done(&crate::lang::t("admin-done-reinstated")))
}

/// Disqualifies (cancelling the student's queued games) or reinstates (their latest ready
/// submission plays the games it missed).
async fn set_disqualified(state: &Shared, id: i64, yes: bool) -> Result<(), AppError> {
    let user = store::user_by_id(&state.db, id).await?.ok_or_else(|| {
        AppError::NotFound(crate::lang::ta(
            "err-user",
            &[("id", id.to_string().into())],
        ))
    })?;
    if user.admin {
        return Err(AppError::BadRequest(crate::lang::t(
            "err-staff-not-in-contest",
        )));
    }
    sqlx::query("UPDATE users SET disqualified = $1 WHERE id = $2")
        .bind(i64::from(yes))
        .bind(id)
        .execute(state.db.pool())
        .await?;
    let subs = store::submissions(&state.db, Some(id), 100_000).await?;
    if yes {
        for s in &subs {
            state
                .queue
                .cancel_involving(state.competition, &store::Submission::side(s.id))
                .await?;
        }
    } else if let Some(latest) = subs.iter().find(|s| s.status == "ready") {
        submissions::schedule_missing(state, latest).await?;
    }
    state.board_changed();
    Ok(())
}

pub async fn reset_password(
    State(state): State<Shared>,
    Admin(session): Admin,
    Path(id): Path<i64>,
    Form(f): Form<CsrfForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    let user = store::user_by_id(&state.db, id).await?.ok_or_else(|| {
        AppError::NotFound(crate::lang::ta(
            "err-user",
            &[("id", id.to_string().into())],
        ))
    })?;
    let hash = auth::hash_password_async(user.login.clone()).await;
    sqlx::query("UPDATE users SET password = $1, must_change = 1 WHERE id = $2")
        .bind(hash)
        .bind(id)
        .execute(state.db.pool())
        .await?;
    auth::end_sessions_of(&state, id, None).await?;
    Ok(done(&crate::lang::ta(
        "admin-done-reset",
        &[("login", (&user.login).into())],
    )))
}

pub async fn rejudge(
    State(state): State<Shared>,
    Admin(session): Admin,
    Path(id): Path<i64>,
    Form(f): Form<CsrfForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    let n = submissions::rejudge(&state, id).await?;
    Ok(Redirect::to(&format!("/submissions/{id}?rejudged={n}")).into_response())
}

#[derive(Deserialize)]
pub struct RulesForm {
    csrf: String,
    min_interval_s: u64,
    daily_budget_s: u64,
    max_kb: u64,
    #[serde(default)]
    public: Option<String>,
    #[serde(default)]
    private_logs: Option<String>,
}

/// Changes the rules in force (kept in the database; contest.toml stays as written).
pub async fn rules(
    State(state): State<Shared>,
    Admin(session): Admin,
    Form(f): Form<RulesForm>,
) -> Result<Response, AppError> {
    session.check_csrf(&f.csrf)?;
    let file_max = state.contest.file.submissions.max_bytes;
    let max_bytes = f.max_kb.saturating_mul(1024);
    if max_bytes == 0 || max_bytes > file_max {
        return Err(AppError::BadRequest(crate::lang::ta(
            "err-size-limit",
            &[("kb", (file_max / 1024).into())],
        )));
    }
    if f.min_interval_s > 7 * 86_400 || f.daily_budget_s > 86_400 {
        return Err(AppError::BadRequest(crate::lang::t("err-interval-budget")));
    }
    let mut rules = state.rules();
    rules.submissions.min_interval_s = f.min_interval_s;
    rules.submissions.daily_budget_s = f.daily_budget_s;
    rules.submissions.max_bytes = max_bytes;
    rules.scoreboard.public = f.public.is_some();
    rules.scoreboard.private_logs = f.private_logs.is_some();
    store::set_setting(
        &state.db,
        "rules",
        &serde_json::to_string(&rules).map_err(anyhow::Error::from)?,
    )
    .await?;
    *state.rules.write().unwrap_or_else(|p| p.into_inner()) = rules;
    Ok(done(&crate::lang::t("admin-done-rules")))
}
