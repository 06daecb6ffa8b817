//! The workers table: registration, liveness, pausing, and what `arbiter workers` lists.

use serde::Serialize;
use sqlx::Row;

use crate::jobs::{event, Claimed, Queue};
use crate::worker::WorkerOptions;

/// Registers (or re-registers) a worker. An id that another live worker holds is refused.
pub async fn register(queue: &Queue, opts: &WorkerOptions) -> Result<(), crate::worker::JoinError> {
    let db = queue.db();
    let mut tx = db.begin().await?;
    let live = format!(
        "SELECT state, seen_at > {} - $1 FROM workers WHERE id = $2",
        db.now()
    );
    let existing = sqlx::query(&live)
        .bind(i64::try_from((opts.lease * 2).as_millis()).unwrap_or(i64::MAX))
        .bind(&opts.id)
        .fetch_optional(&mut *tx)
        .await?;
    if let Some(row) = existing {
        let state: String = row.try_get(0)?;
        let recent: bool = row.try_get(1)?;
        if state == "active" && recent {
            return Err(crate::worker::JoinError::Duplicate(opts.id.clone()));
        }
    }
    let host = gethostname::gethostname().to_string_lossy().into_owned();
    let sql = format!(
        "INSERT INTO workers (id, host, cores, slots, toolchains, version, state, note, started_at, seen_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 'active', NULL, {now}, {now}) \
         ON CONFLICT (id) DO UPDATE SET host = excluded.host, cores = excluded.cores, \
         slots = excluded.slots, toolchains = excluded.toolchains, version = excluded.version, \
         state = CASE WHEN workers.state = 'paused' THEN 'paused' ELSE 'active' END, \
         started_at = excluded.started_at, seen_at = excluded.seen_at",
        now = db.now()
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as i64;
    sqlx::query(&sql)
        .bind(&opts.id)
        .bind(host)
        .bind(cores)
        .bind(opts.slots.len() as i64)
        .bind(opts.toolchains.join(" "))
        .bind(&opts.version)
        .execute(&mut *tx)
        .await?;
    event(
        db,
        &mut tx,
        None,
        Some(&opts.id),
        "joined",
        &format!("{} slots", opts.slots.len()),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A worker's heartbeat, with what holds its judging up now (`crate::health::held_up`: the
/// trouble and for how many seconds), or `None`; the trouble is said for `said_for` (until
/// the worker's next heartbeats would have said it again).
pub async fn seen(
    queue: &Queue,
    id: &str,
    trouble: Option<(String, u64)>,
    said_for: std::time::Duration,
) -> Result<(), sqlx::Error> {
    let now = queue.db().now();
    let sql = format!(
        "UPDATE workers SET seen_at = {now}, trouble = $2, trouble_ms = $3, \
         trouble_until = {now} + $4 WHERE id = $1"
    );
    let (what, secs) = trouble.unzip();
    sqlx::query(&sql)
        .bind(id)
        .bind(what)
        .bind(secs.map(|s| i64::try_from(s).unwrap_or(i64::MAX).saturating_mul(1000)))
        .bind(i64::try_from(said_for.as_millis()).unwrap_or(i64::MAX))
        .execute(queue.db().pool())
        .await?;
    Ok(())
}

/// The longest trouble that active workers report now (what, and for how many seconds until
/// now), or `None`: what a contest's admin page says when its judging is on other machines.
pub async fn trouble(queue: &Queue) -> Result<Option<(String, u64)>, sqlx::Error> {
    let now = queue.db().now();
    let sql = format!(
        "SELECT trouble, trouble_ms + ({now} - seen_at) FROM workers \
         WHERE state = 'active' AND trouble IS NOT NULL AND trouble_until > {now} \
         ORDER BY 2 DESC LIMIT 1"
    );
    let row = sqlx::query(&sql).fetch_optional(queue.db().pool()).await?;
    row.map(|r| {
        let ms: i64 = r.try_get(1)?;
        Ok((r.try_get(0)?, u64::try_from(ms / 1000).unwrap_or(0)))
    })
    .transpose()
}

pub async fn state(queue: &Queue, id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT state FROM workers WHERE id = $1")
        .bind(id)
        .fetch_optional(queue.db().pool())
        .await
}

/// Sets a worker's state (`active`, `paused`, `gone`) with a note saying why.
pub async fn set_state(
    queue: &Queue,
    id: &str,
    state: &str,
    note: Option<&str>,
) -> Result<(), sqlx::Error> {
    let db = queue.db();
    let mut tx = db.begin().await?;
    // A quarantine outlives the worker's own exit: `gone` does not clear `paused`.
    sqlx::query(
        "UPDATE workers SET state = CASE WHEN state = 'paused' AND $1 = 'gone' THEN 'paused' ELSE $1 END, \
         note = COALESCE($2, note) WHERE id = $3",
    )
    .bind(state)
    .bind(note)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    event(db, &mut tx, None, Some(id), state, note.unwrap_or("")).await?;
    tx.commit().await
}

/// Marks a job that cannot be run at all (an unreadable spec, a missing artefact) as failed.
pub async fn fail_job(
    queue: &Queue,
    job: &Claimed,
    worker: &str,
    error: &str,
) -> Result<(), sqlx::Error> {
    let db = queue.db();
    let mut tx = db.begin().await?;
    let sql = format!(
        "UPDATE jobs SET state = 'failed', finished_at = {} WHERE id = $1 AND lease_token = $2",
        db.now()
    );
    sqlx::query(&sql)
        .bind(job.id)
        .bind(&job.lease_token)
        .execute(&mut *tx)
        .await?;
    event(db, &mut tx, Some(job.id), Some(worker), "failed", error).await?;
    tx.commit().await
}

/// One line of `arbiter workers`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct WorkerRow {
    pub id: String,
    pub host: String,
    pub state: String,
    pub note: Option<String>,
    pub version: String,
    pub slots: i64,
    pub cores: i64,
    pub toolchains: String,
    /// Seconds since its last heartbeat.
    pub silent_s: f64,
    pub running: i64,
    pub games: i64,
    /// Games per minute over the last 10 minutes.
    pub pace: f64,
    /// Losses on time and crashes of either bot in its games.
    pub time_losses: i64,
    pub crashes: i64,
    /// Results set aside (late or suspicious).
    pub discarded: i64,
}

/// Every worker with its counts.
pub async fn list(queue: &Queue) -> Result<Vec<WorkerRow>, sqlx::Error> {
    let db = queue.db();
    let now = db.now();
    let sql = format!(
        "SELECT w.id, w.host, w.state, w.note, w.version, w.slots, w.cores, w.toolchains, \
         {now} - w.seen_at, \
         (SELECT COUNT(*) FROM jobs j WHERE j.worker = w.id AND j.state = 'running'), \
         (SELECT COUNT(*) FROM results r WHERE r.worker = w.id), \
         (SELECT COUNT(*) FROM results r WHERE r.worker = w.id AND r.created_at > {now} - 600000), \
         (SELECT COUNT(*) FROM results r WHERE r.worker = w.id AND (r.outcome LIKE '%\"reason\":\"move_time\"%' OR r.outcome LIKE '%\"reason\":\"game_time\"%')), \
         (SELECT COUNT(*) FROM results r WHERE r.worker = w.id AND r.outcome LIKE '%\"reason\":\"crash\"%'), \
         (SELECT COUNT(*) FROM discarded d WHERE d.worker = w.id) \
         FROM workers w ORDER BY w.state, w.id"
    );
    let rows = sqlx::query(&sql).fetch_all(db.pool()).await?;
    rows.into_iter()
        .map(|r| {
            Ok(WorkerRow {
                id: r.try_get(0)?,
                host: r.try_get(1)?,
                state: r.try_get(2)?,
                note: r.try_get(3)?,
                version: r.try_get(4)?,
                slots: r.try_get(5)?,
                cores: r.try_get(6)?,
                toolchains: r.try_get(7)?,
                // Milliseconds in SQL: a division there is NUMERIC on PostgreSQL.
                silent_s: r.try_get::<i64, _>(8)? as f64 / 1000.0,
                running: r.try_get(9)?,
                games: r.try_get(10)?,
                pace: r.try_get::<i64, _>(11)? as f64 / 10.0,
                time_losses: r.try_get(12)?,
                crashes: r.try_get(13)?,
                discarded: r.try_get(14)?,
            })
        })
        .collect()
}
