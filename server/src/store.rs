//! The contest's own tables (users, sessions, submissions, settings) beside the queue's, in the
//! same database. Games are the queue's jobs and results: a game's number is its job's number
//! among the contest's games (1, 2, 3 ..., compiles apart), never reused, so links stay valid
//! when a bot is resubmitted.

use arbiter_queue::Db;
use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::Row;

pub const STEPS: &[&str] = &[V1, V2];

/// Each submission's moment on the server's boot clock (`crate::clock`), so that the interval
/// between submissions is measured on a clock that does not step.
const V2: &str = "
ALTER TABLE submissions ADD COLUMN boot TEXT;
ALTER TABLE submissions ADD COLUMN boot_ms BIGINT
";

const V1: &str = "
CREATE TABLE users (
    id           {id},
    login        TEXT NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    nickname     TEXT,
    password     TEXT NOT NULL,
    must_change  BIGINT NOT NULL DEFAULT 1,
    admin        BIGINT NOT NULL DEFAULT 0,
    disqualified BIGINT NOT NULL DEFAULT 0,
    created_at   BIGINT NOT NULL
);

-- A session's cookie (or API token) is never stored, only its SHA-256.
CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users(id),
    csrf         TEXT NOT NULL,
    kind         TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE submissions (
    id           {id},
    user_id      BIGINT NOT NULL REFERENCES users(id),
    language     TEXT NOT NULL,
    -- The uploader's file name, for display only.
    file_name    TEXT NOT NULL,
    source       TEXT NOT NULL,
    size         BIGINT NOT NULL,
    -- 'pending' (queued or compiling), 'ready', 'failed'.
    status       TEXT NOT NULL,
    compile_job  BIGINT,
    artefact     TEXT,
    run          TEXT,
    compile_log  TEXT,
    compile_ms   BIGINT,
    created_at   BIGINT NOT NULL,
    ready_at     BIGINT
);
CREATE INDEX submissions_user ON submissions (user_id, id);
CREATE INDEX submissions_status ON submissions (status);

CREATE TABLE settings (
    key          TEXT PRIMARY KEY,
    value        TEXT NOT NULL
)
";

/// A user as pages need it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub login: String,
    pub name: String,
    pub nickname: Option<String>,
    pub must_change: bool,
    pub admin: bool,
    pub disqualified: bool,
}

impl User {
    /// What the scoreboard shows: the nickname, else the login.
    pub fn display(&self) -> &str {
        self.nickname
            .as_deref()
            .filter(|n| !n.is_empty())
            .unwrap_or(&self.login)
    }

    pub const COLUMNS: &'static str = "id, login, name, nickname, must_change, admin, disqualified";

    pub fn from_row(r: &AnyRow) -> Result<User, sqlx::Error> {
        Ok(User {
            id: r.try_get(0)?,
            login: r.try_get(1)?,
            name: r.try_get(2)?,
            nickname: r.try_get(3)?,
            must_change: r.try_get::<i64, _>(4)? != 0,
            admin: r.try_get::<i64, _>(5)? != 0,
            disqualified: r.try_get::<i64, _>(6)? != 0,
        })
    }
}

/// A submission as pages need it (never its source).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Submission {
    pub id: i64,
    pub user_id: i64,
    pub language: String,
    pub file_name: String,
    pub size: i64,
    pub status: String,
    pub compile_job: Option<i64>,
    pub artefact: Option<String>,
    pub run: Option<String>,
    pub compile_ms: Option<i64>,
    pub created_at: i64,
    pub ready_at: Option<i64>,
}

impl Submission {
    pub const COLUMNS: &'static str =
        "id, user_id, language, file_name, size, status, compile_job, \
        artefact, run, compile_ms, created_at, ready_at";

    pub fn from_row(r: &AnyRow) -> Result<Submission, sqlx::Error> {
        Ok(Submission {
            id: r.try_get(0)?,
            user_id: r.try_get(1)?,
            language: r.try_get(2)?,
            file_name: r.try_get(3)?,
            size: r.try_get(4)?,
            status: r.try_get(5)?,
            compile_job: r.try_get(6)?,
            artefact: r.try_get(7)?,
            run: r.try_get(8)?,
            compile_ms: r.try_get(9)?,
            created_at: r.try_get(10)?,
            ready_at: r.try_get(11)?,
        })
    }

    /// The queue's name for this submission as a side of a game.
    pub fn side(id: i64) -> String {
        format!("s{id}")
    }
}

/// Parses a side name back into a submission id.
pub fn side_id(side: &str) -> Option<i64> {
    side.strip_prefix('s')?.parse().ok()
}

pub async fn user_by_id(db: &Db, id: i64) -> Result<Option<User>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT {} FROM users WHERE id = $1",
        User::COLUMNS
    ))
    .bind(id)
    .fetch_optional(db.pool())
    .await?;
    row.as_ref().map(User::from_row).transpose()
}

pub async fn user_by_login(db: &Db, login: &str) -> Result<Option<(User, String)>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT {}, password FROM users WHERE login = $1",
        User::COLUMNS
    ))
    .bind(login)
    .fetch_optional(db.pool())
    .await?;
    match row {
        Some(r) => Ok(Some((User::from_row(&r)?, r.try_get(7)?))),
        None => Ok(None),
    }
}

pub async fn users(db: &Db) -> Result<Vec<User>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {} FROM users ORDER BY login",
        User::COLUMNS
    ))
    .fetch_all(db.pool())
    .await?;
    rows.iter().map(User::from_row).collect()
}

pub async fn submission(db: &Db, id: i64) -> Result<Option<Submission>, sqlx::Error> {
    let row = sqlx::query(&format!(
        "SELECT {} FROM submissions WHERE id = $1",
        Submission::COLUMNS
    ))
    .bind(id)
    .fetch_optional(db.pool())
    .await?;
    row.as_ref().map(Submission::from_row).transpose()
}

/// Submissions, newest first: one user's, or everyone's. At most `limit`.
pub async fn submissions(
    db: &Db,
    user: Option<i64>,
    limit: i64,
) -> Result<Vec<Submission>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {} FROM submissions WHERE ($1 < 0 OR user_id = $1) ORDER BY id DESC LIMIT $2",
        Submission::COLUMNS
    ))
    .bind(user.unwrap_or(-1))
    .bind(limit)
    .fetch_all(db.pool())
    .await?;
    rows.iter().map(Submission::from_row).collect()
}

/// Each user's latest ready submission (the one that counts), disqualified users left out.
pub async fn current_submissions(db: &Db) -> Result<Vec<Submission>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {} FROM submissions s WHERE s.status = 'ready' AND s.id = \
         (SELECT MAX(t.id) FROM submissions t WHERE t.user_id = s.user_id AND t.status = 'ready') \
         AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id AND u.disqualified <> 0) \
         ORDER BY s.id",
        Submission::COLUMNS
            .split(", ")
            .map(|c| format!("s.{c}"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
    .fetch_all(db.pool())
    .await?;
    rows.iter().map(Submission::from_row).collect()
}

pub async fn setting(db: &Db, key: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT value FROM settings WHERE key = $1")
        .bind(key)
        .fetch_optional(db.pool())
        .await
}

pub async fn set_setting(db: &Db, key: &str, value: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO settings (key, value) VALUES ($1, $2) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )
    .bind(key)
    .bind(value)
    .execute(db.pool())
    .await?;
    Ok(())
}
