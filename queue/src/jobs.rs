//! The job queue: enqueue, claim under a lease, heartbeat, commit exactly once, requeue what
//! a dead worker held, cancel.
//!
//! A claim takes the queued job of the least-served lane of the least-served competition
//! (round robin by virtual time), locking only the job row (`FOR UPDATE SKIP LOCKED` on
//! PostgreSQL) so claimers never wait for each other's jobs. A lease is a deadline on the
//! database's clock, renewed by heartbeats; a lease that ran out puts the job back in the
//! queue. A commit is one transaction that succeeds only while the committer still holds the
//! lease (its `lease_token`, the attempt's idempotency key); the `results.job` unique key
//! guards it once more. A late result is recorded in `discarded`, never counted.
//!
//! Locks are always taken in the order job, lane, competition, so claimers cannot deadlock.
//! Adding jobs first takes their numbers (`job_numbers`, which nothing else locks).

use std::fmt;
use std::time::Duration;

use rand::RngCore;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use crate::db::{Db, Dialect};
use crate::payload;

/// What a job asks a worker to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobKind {
    /// Play one game.
    Game,
    /// Compile a submission into an artefact.
    Compile,
    /// A game a student asked for to try their bot (never counted in standings), judged after
    /// the competition's own games.
    TestGame,
    /// A test game with a seat a person plays in the browser: only a worker that hosts the
    /// live hub the person connects to takes it (the contest server's own).
    PersonGame,
}

impl JobKind {
    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Game => "game",
            JobKind::Compile => "compile",
            JobKind::TestGame => "test_game",
            JobKind::PersonGame => "person_game",
        }
    }

    pub fn parse(s: &str) -> Option<JobKind> {
        match s {
            "game" => Some(JobKind::Game),
            "compile" => Some(JobKind::Compile),
            "test_game" => Some(JobKind::TestGame),
            "person_game" => Some(JobKind::PersonGame),
            _ => None,
        }
    }
}

impl JobKind {
    /// The kind whose numbers this kind's jobs take: test games share one sequence, with or
    /// without a person, so that a student's test games are 1, 2, 3 ... whoever plays them.
    fn numbered_as(self) -> JobKind {
        match self {
            JobKind::PersonGame => JobKind::TestGame,
            other => other,
        }
    }
}

impl fmt::Display for JobKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A job to add.
#[derive(Clone, Debug)]
pub struct NewJob {
    /// The fairness lane inside the competition (a student's id, a tournament's name).
    pub lane: String,
    pub kind: JobKind,
    /// JSON the worker reads (see [`crate::spec`]).
    pub spec: String,
    /// What the job is about (e.g. the two submissions), for [`cancel_involving`].
    pub sides: [String; 2],
    /// Every seat's side in seat order, when `sides` do not name each seat: a game of more
    /// than two seats (on the contest site its first two are `sides`), a tournament's game
    /// (whose sides are its number and its pairing); empty otherwise.
    pub seats: Vec<String>,
    /// Higher runs first within its lane.
    pub priority: i64,
}

/// A job a worker holds under a lease.
#[derive(Clone, Debug)]
pub struct Claimed {
    pub id: i64,
    pub competition: i64,
    pub kind: JobKind,
    pub spec: String,
    /// The attempt's idempotency key: only a commit carrying it counts.
    pub lease_token: String,
    /// 1 for the first attempt.
    pub attempt: i64,
    /// The job's number among its competition's jobs of its kind (games 1, 2, 3 ...), what
    /// pages call it.
    pub number: i64,
}

/// What became of a commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commit {
    /// The result is the job's one result.
    Committed,
    /// The lease had been taken over (or the job cancelled): the result was set aside.
    Discarded,
}

/// A job's counts by state.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub queued: i64,
    pub running: i64,
    pub done: i64,
    pub cancelled: i64,
    pub failed: i64,
}

/// After this many attempts (each ended by a lost lease) a job is given up as `failed`:
/// something in it kills workers.
pub const MAX_ATTEMPTS: i64 = 5;

/// The job queue over one database.
#[derive(Clone, Debug)]
pub struct Queue {
    db: Db,
}

impl Queue {
    /// Opens the queue, creating or upgrading its tables.
    pub async fn open(db: Db) -> Result<Queue, crate::db::DbError> {
        db.migrate("queue", crate::schema::STEPS).await?;
        Ok(Queue { db })
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The arbiter version that coordinates this queue (workers must match it).
    pub async fn version(&self) -> Result<Option<String>, sqlx::Error> {
        sqlx::query_scalar("SELECT value FROM queue_meta WHERE key = 'version'")
            .fetch_optional(self.db.pool())
            .await
    }

    /// Claims the queue for this build: called by a coordinator (a server, a tournament), so
    /// that workers of another version are refused.
    pub async fn set_version(&self, version: &str) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO queue_meta (key, value) VALUES ('version', $1) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(version)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// The competition named `name`, created with `config` when new. Returns its id.
    pub async fn competition(
        &self,
        kind: &str,
        name: &str,
        config: &str,
    ) -> Result<i64, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let found: Option<i64> = sqlx::query_scalar("SELECT id FROM competitions WHERE name = $1")
            .bind(name)
            .fetch_optional(&mut *tx)
            .await?;
        let id = match found {
            Some(id) => id,
            None => {
                let sql = format!(
                    "INSERT INTO competitions (kind, name, config, vtime, created_at) \
                     VALUES ($1, $2, $3, (SELECT COALESCE(MIN(vtime), 0) FROM competitions), {}) \
                     RETURNING id",
                    self.db.now()
                );
                sqlx::query_scalar(&sql)
                    .bind(kind)
                    .bind(name)
                    .bind(config)
                    .fetch_one(&mut *tx)
                    .await?
            }
        };
        tx.commit().await?;
        Ok(id)
    }

    /// The stored configuration of a competition.
    pub async fn competition_config(&self, id: i64) -> Result<Option<String>, sqlx::Error> {
        sqlx::query_scalar("SELECT config FROM competitions WHERE id = $1")
            .bind(id)
            .fetch_optional(self.db.pool())
            .await
    }

    /// Replaces a competition's configuration (jobs already committed keep their results).
    pub async fn set_competition_config(&self, id: i64, config: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE competitions SET config = $1 WHERE id = $2")
            .bind(config)
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Sets a competition's share of the workers (default 1).
    pub async fn set_weight(&self, id: i64, weight: f64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE competitions SET weight = $1 WHERE id = $2")
            .bind(weight.max(0.01))
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Adds jobs in one transaction; returns their ids in order.
    pub async fn enqueue(
        &self,
        competition: i64,
        jobs: &[NewJob],
    ) -> Result<Vec<i64>, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let ids = enqueue(&self.db, &mut tx, competition, jobs).await?;
        tx.commit().await?;
        Ok(ids)
    }

    /// Claims one job of the given kinds for `worker`, or `None` when there is none.
    pub async fn claim(
        &self,
        worker: &str,
        kinds: &[JobKind],
        lease: Duration,
    ) -> Result<Option<Claimed>, sqlx::Error> {
        if kinds.is_empty() {
            return Ok(None);
        }
        let mut tx = self.db.begin().await?;
        let claimed = claim(&self.db, &mut tx, worker, kinds, lease).await?;
        tx.commit().await?;
        Ok(claimed)
    }

    /// Extends a lease. `false` when the lease is no longer this attempt's (taken over,
    /// cancelled): the worker should stop playing.
    pub async fn heartbeat(
        &self,
        job: i64,
        token: &str,
        lease: Duration,
    ) -> Result<bool, sqlx::Error> {
        let sql = format!(
            "UPDATE jobs SET lease_until = {} + $1 \
             WHERE id = $2 AND lease_token = $3 AND state = 'running'",
            self.db.now()
        );
        let done = sqlx::query(&sql)
            .bind(millis(lease))
            .bind(job)
            .bind(token)
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Commits a job's result exactly once. `payload` (a replay, a compile log) is stored
    /// compressed.
    pub async fn commit(
        &self,
        job: &Claimed,
        worker: &str,
        outcome: &str,
        payload: Option<&[u8]>,
    ) -> Result<Commit, sqlx::Error> {
        let packed = payload.map(payload::pack);
        let mut tx = self.db.begin().await?;
        let sql = format!(
            "UPDATE jobs SET state = 'done', finished_at = {now} \
             WHERE id = $1 AND lease_token = $2 AND state = 'running'",
            now = self.db.now()
        );
        let owned = sqlx::query(&sql)
            .bind(job.id)
            .bind(&job.lease_token)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if !owned {
            discard(
                &self.db,
                &mut tx,
                job.id,
                worker,
                &job.lease_token,
                "the lease was taken over",
                Some(outcome),
            )
            .await?;
            tx.commit().await?;
            return Ok(Commit::Discarded);
        }
        let sql = format!(
            "INSERT INTO results (job, competition, lease_token, worker, outcome, payload, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, {}) ON CONFLICT (job) DO NOTHING",
            self.db.now()
        );
        let inserted = sqlx::query(&sql)
            .bind(job.id)
            .bind(job.competition)
            .bind(&job.lease_token)
            .bind(worker)
            .bind(outcome)
            .bind(packed)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if !inserted {
            // Unreachable while leases work; the unique key is the last guard.
            tx.rollback().await?;
            let mut tx = self.db.begin().await?;
            discard(
                &self.db,
                &mut tx,
                job.id,
                worker,
                &job.lease_token,
                "the job already had a result",
                Some(outcome),
            )
            .await?;
            tx.commit().await?;
            return Ok(Commit::Discarded);
        }
        tx.commit().await?;
        Ok(Commit::Committed)
    }

    /// Gives a held job back to the queue without a result (a worker shutting down).
    pub async fn release(&self, job: &Claimed, reason: &str) -> Result<bool, sqlx::Error> {
        self.give_back(job, None, "released", reason).await
    }

    /// Gives a held job back to the queue because the worker's machine spoiled it (a stall, a
    /// storage fault): no result, not counted as an attempt, played again. The event
    /// (`voided`, with the worker) is what quarantine counts and what the game's replay
    /// cites when it is played again ([`Queue::voids_of`]).
    ///
    /// `false` when the lease had been taken over (the worker frozen past it): the void is
    /// then set aside in `discarded`, as a late result is.
    pub async fn void(&self, job: &Claimed, worker: &str, why: &str) -> Result<bool, sqlx::Error> {
        if self.give_back(job, Some(worker), "voided", why).await? {
            return Ok(true);
        }
        let mut tx = self.db.begin().await?;
        let reason = format!("voided after the lease was taken over: {why}");
        discard(
            &self.db,
            &mut tx,
            job.id,
            worker,
            &job.lease_token,
            &reason,
            None,
        )
        .await?;
        tx.commit().await?;
        Ok(false)
    }

    /// Why each earlier attempt of `job` was voided, oldest first.
    pub async fn voids_of(&self, job: i64) -> Result<Vec<String>, sqlx::Error> {
        let rows =
            sqlx::query("SELECT detail FROM events WHERE job = $1 AND kind = 'voided' ORDER BY id")
                .bind(job)
                .fetch_all(self.db.pool())
                .await?;
        rows.iter().map(|r| r.try_get::<String, _>(0)).collect()
    }

    /// The latest voids of a competition's games, newest first: the job, why it was voided
    /// ("judging machine stalled 8.0 s at move 31"), and the job's state now (`done` when it
    /// has been played again).
    pub async fn recent_voids(
        &self,
        competition: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String, String)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT e.job, e.detail, j.state FROM events e JOIN jobs j ON j.id = e.job \
             WHERE e.kind = 'voided' AND j.competition = $1 ORDER BY e.id DESC LIMIT $2",
        )
        .bind(competition)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
            .collect()
    }

    async fn give_back(
        &self,
        job: &Claimed,
        worker: Option<&str>,
        kind: &str,
        reason: &str,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let back: Option<AnyRow> = sqlx::query(
            "UPDATE jobs SET state = 'queued', worker = NULL, lease_token = NULL, \
             lease_until = NULL, attempts = attempts - 1 \
             WHERE id = $1 AND lease_token = $2 AND state = 'running' \
             RETURNING competition, lane, kind",
        )
        .bind(job.id)
        .bind(&job.lease_token)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = &back {
            lane_add(
                &self.db,
                &mut tx,
                row.try_get(0)?,
                &row.try_get::<String, _>(1)?,
                &row.try_get::<String, _>(2)?,
                1,
            )
            .await?;
            event(&self.db, &mut tx, Some(job.id), worker, kind, reason).await?;
        }
        tx.commit().await?;
        Ok(back.is_some())
    }

    /// Puts back every job whose lease ran out (a worker killed, frozen or cut off), and
    /// gives up on jobs that used up [`MAX_ATTEMPTS`]. Anyone may call it at any time.
    pub async fn requeue_expired(&self) -> Result<usize, sqlx::Error> {
        // A read first: most calls find nothing, and need not take SQLite's write lock (nor
        // write anything to a database whose disk is full).
        let any = format!(
            "SELECT id FROM jobs WHERE state = 'running' AND lease_until < {} LIMIT 1",
            self.db.now()
        );
        let found: Option<i64> = sqlx::query_scalar(&any)
            .fetch_optional(self.db.pool())
            .await?;
        if found.is_none() {
            return Ok(0);
        }
        let mut tx = self.db.begin().await?;
        let sql = format!(
            "SELECT id, competition, lane, kind, worker, attempts FROM jobs \
             WHERE state = 'running' AND lease_until < {now} ORDER BY id {lock}",
            now = self.db.now(),
            lock = self.db.skip_locked()
        );
        let rows = sqlx::query(&sql).fetch_all(&mut *tx).await?;
        for row in &rows {
            let id: i64 = row.try_get(0)?;
            let worker: Option<String> = row.try_get(4)?;
            let attempts: i64 = row.try_get(5)?;
            let give_up = attempts >= MAX_ATTEMPTS;
            let sql = format!(
                "UPDATE jobs SET state = $1, worker = NULL, lease_token = NULL, lease_until = NULL, \
                 finished_at = CASE WHEN $1 = 'failed' THEN {now} ELSE NULL END WHERE id = $2",
                now = self.db.now()
            );
            sqlx::query(&sql)
                .bind(if give_up { "failed" } else { "queued" })
                .bind(id)
                .execute(&mut *tx)
                .await?;
            let detail = format!(
                "the lease of {} ran out (attempt {attempts}){}",
                worker.as_deref().unwrap_or("a worker"),
                if give_up {
                    "; given up"
                } else {
                    "; back in the queue"
                }
            );
            event(
                &self.db,
                &mut tx,
                Some(id),
                worker.as_deref(),
                "lease_expired",
                &detail,
            )
            .await?;
            if !give_up {
                let lane: String = row.try_get(2)?;
                let kind: String = row.try_get(3)?;
                lane_add(&self.db, &mut tx, row.try_get(1)?, &lane, &kind, 1).await?;
            }
        }
        tx.commit().await?;
        Ok(rows.len())
    }

    /// Puts back every running job whose lease holder's id starts with `prefix`: used at
    /// start-up for the local workers of a previous run of the same process kind, which are
    /// certainly dead.
    pub async fn requeue_held_by(&self, prefix: &str) -> Result<usize, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let rows = sqlx::query(
            "UPDATE jobs SET state = 'queued', worker = NULL, lease_token = NULL, lease_until = NULL \
             WHERE state = 'running' AND worker LIKE $1 ESCAPE '\\' RETURNING competition, lane, kind, id",
        )
        .bind(format!("{}%", like_escape(prefix)))
        .fetch_all(&mut *tx)
        .await?;
        for row in &rows {
            let lane: String = row.try_get(1)?;
            let kind: String = row.try_get(2)?;
            lane_add(&self.db, &mut tx, row.try_get(0)?, &lane, &kind, 1).await?;
            event(
                &self.db,
                &mut tx,
                Some(row.try_get(3)?),
                None,
                "requeued",
                "its worker's process ended",
            )
            .await?;
        }
        tx.commit().await?;
        Ok(rows.len())
    }

    /// Cancels a competition's queued jobs that involve `side` (for example a submission
    /// that a newer one replaced). Running jobs finish; their results can be ignored.
    pub async fn cancel_involving(
        &self,
        competition: i64,
        side: &str,
    ) -> Result<usize, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let n = cancel_involving(&self.db, &mut tx, competition, side, None).await?;
        tx.commit().await?;
        Ok(n)
    }

    /// Job counts by state for a competition (all competitions when `None`).
    pub async fn counts(&self, competition: Option<i64>) -> Result<Counts, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT state, COUNT(*) FROM jobs WHERE ($1 < 0 OR competition = $1) GROUP BY state",
        )
        .bind(competition.unwrap_or(-1))
        .fetch_all(self.db.pool())
        .await?;
        let mut c = Counts::default();
        for row in rows {
            let state: String = row.try_get(0)?;
            let n: i64 = row.try_get(1)?;
            match state.as_str() {
                "queued" => c.queued = n,
                "running" => c.running = n,
                "done" => c.done = n,
                "cancelled" => c.cancelled = n,
                "failed" => c.failed = n,
                _ => {}
            }
        }
        Ok(c)
    }

    /// A competition's jobs of one kind, with the first of their sides, oldest first. With
    /// `settled_since`, only those settled (done, failed or cancelled) at or after that time
    /// (milliseconds on the database's clock, as [`JobRow::finished_at`]): a coordinator that
    /// polls asks only for what is new.
    pub async fn jobs_of(
        &self,
        competition: i64,
        kind: JobKind,
        settled_since: Option<i64>,
    ) -> Result<Vec<JobRow>, sqlx::Error> {
        let filter = if settled_since.is_some() {
            " AND j.state IN ('done', 'failed', 'cancelled') AND j.finished_at >= $3"
        } else {
            ""
        };
        let sql = format!(
            "SELECT j.id, j.side0, j.state, j.finished_at, r.lease_token FROM jobs j \
             LEFT JOIN results r ON r.job = j.id \
             WHERE j.competition = $1 AND j.kind = $2{filter} ORDER BY j.id"
        );
        let mut query = sqlx::query(&sql).bind(competition).bind(kind.as_str());
        if let Some(since) = settled_since {
            query = query.bind(since);
        }
        let rows = query.fetch_all(self.db.pool()).await?;
        rows.iter()
            .map(|r| {
                Ok(JobRow {
                    id: r.try_get(0)?,
                    side0: r.try_get(1)?,
                    state: r.try_get(2)?,
                    finished_at: r.try_get(3)?,
                    attempt: r.try_get(4)?,
                })
            })
            .collect()
    }

    /// A committed result: the outcome JSON and the unpacked payload.
    pub async fn result(&self, job: i64) -> Result<Option<StoredResult>, crate::Error> {
        let row =
            sqlx::query("SELECT outcome, payload, worker, lease_token FROM results WHERE job = $1")
                .bind(job)
                .fetch_optional(self.db.pool())
                .await?;
        let Some(row) = row else { return Ok(None) };
        let packed: Option<Vec<u8>> = row.try_get(1)?;
        Ok(Some(StoredResult {
            outcome: row.try_get(0)?,
            payload: packed.map(|p| payload::unpack(&p)).transpose()?,
            worker: row.try_get(2)?,
            attempt: row.try_get(3)?,
        }))
    }

    /// Sets a committed result aside (it is moved to `discarded`) and puts its job back in the
    /// queue, to be played by another worker than the one that produced it.
    pub async fn replay_elsewhere(&self, job: i64, reason: &str) -> Result<bool, sqlx::Error> {
        self.replay(job, reason, true).await
    }

    /// Sets a committed result aside and plays the job again (course staff re-judging);
    /// `avoid_worker` keeps it away from the worker that produced the result.
    pub async fn replay(
        &self,
        job: i64,
        reason: &str,
        avoid_worker: bool,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let row = sqlx::query("SELECT worker, lease_token, outcome FROM results WHERE job = $1")
            .bind(job)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else {
            tx.rollback().await?;
            return Ok(false);
        };
        let worker: String = row.try_get(0)?;
        let token: String = row.try_get(1)?;
        let outcome: String = row.try_get(2)?;
        sqlx::query("DELETE FROM results WHERE job = $1")
            .bind(job)
            .execute(&mut *tx)
            .await?;
        discard(
            &self.db,
            &mut tx,
            job,
            &worker,
            &token,
            reason,
            Some(&outcome),
        )
        .await?;
        let back = sqlx::query(
            "UPDATE jobs SET state = 'queued', worker = NULL, lease_token = NULL, lease_until = NULL, \
             finished_at = NULL, avoid_worker = $1 WHERE id = $2 RETURNING competition, lane, kind",
        )
        .bind(avoid_worker.then_some(&worker))
        .bind(job)
        .fetch_one(&mut *tx)
        .await?;
        let lane: String = back.try_get(1)?;
        let kind: String = back.try_get(2)?;
        lane_add(&self.db, &mut tx, back.try_get(0)?, &lane, &kind, 1).await?;
        tx.commit().await?;
        Ok(true)
    }
}

/// A job as [`Queue::jobs_of`] lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobRow {
    pub id: i64,
    pub side0: String,
    /// `queued`, `running`, `done`, `cancelled`, `failed`.
    pub state: String,
    /// When it was settled (milliseconds on the database's clock); `None` while it is not.
    pub finished_at: Option<i64>,
    /// The key of the attempt whose result is committed (see [`StoredResult::attempt`]).
    pub attempt: Option<String>,
}

/// A committed result read back.
#[derive(Clone, Debug)]
pub struct StoredResult {
    pub outcome: String,
    pub payload: Option<Vec<u8>>,
    pub worker: String,
    /// The attempt's key (its lease token): a result played again has another.
    pub attempt: String,
}

/// The SQL condition "job `j` involves the side bound as `$2`": one of its first two sides, or
/// any seat of a game of more than two seats (`job_seats`).
pub const INVOLVES: &str = "(j.side0 = $2 OR j.side1 = $2 OR EXISTS \
     (SELECT 1 FROM job_seats t WHERE t.job = j.id AND t.side = $2))";

/// [`Queue::enqueue`] inside the caller's transaction.
pub async fn enqueue(
    db: &Db,
    tx: &mut Transaction<'static, Any>,
    competition: i64,
    jobs: &[NewJob],
) -> Result<Vec<i64>, sqlx::Error> {
    // Each kind's numbers first, in a fixed order of kinds: one atomic update reserves them
    // all, so two adders never get the same number and never wait for each other in a cycle
    // (only adders lock `job_numbers`).
    let mut next = Vec::new();
    for kind in [JobKind::Compile, JobKind::Game, JobKind::TestGame] {
        let n = jobs.iter().filter(|j| j.kind.numbered_as() == kind).count() as i64;
        if n > 0 {
            next.push((kind, reserve_numbers(tx, competition, kind, n).await?));
        }
    }
    let sql = format!(
        "INSERT INTO jobs (competition, lane, kind, spec, side0, side1, state, priority, number, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', $7, $8, {}) RETURNING id",
        db.now()
    );
    let mut ids = Vec::with_capacity(jobs.len());
    let mut per_lane: Vec<(&str, JobKind, i64)> = Vec::new();
    for job in jobs {
        let mut number = None;
        if let Some((_, n)) = next.iter_mut().find(|(k, _)| *k == job.kind.numbered_as()) {
            number = Some(*n);
            *n += 1;
        }
        let id: i64 = sqlx::query_scalar(&sql)
            .bind(competition)
            .bind(&job.lane)
            .bind(job.kind.as_str())
            .bind(&job.spec)
            .bind(&job.sides[0])
            .bind(&job.sides[1])
            .bind(job.priority)
            .bind(number)
            .fetch_one(&mut **tx)
            .await?;
        ids.push(id);
        for (seat, side) in job.seats.iter().enumerate() {
            sqlx::query("INSERT INTO job_seats (job, seat, side) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(seat as i64)
                .bind(side)
                .execute(&mut **tx)
                .await?;
        }
        match per_lane
            .iter_mut()
            .find(|(l, k, _)| *l == job.lane && *k == job.kind)
        {
            Some(entry) => entry.2 += 1,
            None => per_lane.push((&job.lane, job.kind, 1)),
        }
    }
    for (lane, kind, n) in per_lane {
        lane_add(db, tx, competition, lane, kind.as_str(), n).await?;
    }
    Ok(ids)
}

/// Takes `n` numbers for new jobs of `kind` in `competition` and returns the first: one
/// insert-or-update of the counter, which holds its row until the transaction ends, so the
/// numbers are never given twice and none is skipped (a rolled-back addition gives its
/// numbers back).
async fn reserve_numbers(
    tx: &mut Transaction<'static, Any>,
    competition: i64,
    kind: JobKind,
    n: i64,
) -> Result<i64, sqlx::Error> {
    let last: i64 = sqlx::query_scalar(
        "INSERT INTO job_numbers (competition, kind, last) VALUES ($1, $2, $3) \
         ON CONFLICT (competition, kind) DO UPDATE SET last = job_numbers.last + excluded.last \
         RETURNING last",
    )
    .bind(competition)
    .bind(kind.as_str())
    .bind(n)
    .fetch_one(&mut **tx)
    .await?;
    Ok(last - n + 1)
}

/// [`Queue::cancel_involving`] inside the caller's transaction, of one kind of job only where
/// `kind` is given.
pub async fn cancel_involving(
    db: &Db,
    tx: &mut Transaction<'static, Any>,
    competition: i64,
    side: &str,
    kind: Option<JobKind>,
) -> Result<usize, sqlx::Error> {
    let of_kind = match kind {
        Some(k) => format!("AND j.kind = '{}'", k.as_str()),
        None => String::new(),
    };
    let sql = format!(
        "UPDATE jobs AS j SET state = 'cancelled', finished_at = {now} \
         WHERE competition = $1 AND state = 'queued' AND {INVOLVES} {of_kind} \
         RETURNING lane, kind",
        now = db.now()
    );
    let rows = sqlx::query(&sql)
        .bind(competition)
        .bind(side)
        .fetch_all(&mut **tx)
        .await?;
    let mut per_lane: Vec<(String, String, i64)> = Vec::new();
    for row in &rows {
        let lane: String = row.try_get(0)?;
        let kind: String = row.try_get(1)?;
        match per_lane
            .iter_mut()
            .find(|(l, k, _)| *l == lane && *k == kind)
        {
            Some(entry) => entry.2 += 1,
            None => per_lane.push((lane, kind, 1)),
        }
    }
    for (lane, kind, n) in per_lane {
        lane_add(db, tx, competition, &lane, &kind, -n).await?;
    }
    Ok(rows.len())
}

async fn claim(
    db: &Db,
    tx: &mut Transaction<'static, Any>,
    worker: &str,
    kinds: &[JobKind],
    lease: Duration,
) -> Result<Option<Claimed>, sqlx::Error> {
    let kind_list = kinds
        .iter()
        .map(|k| format!("'{}'", k.as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    // Compiles and people's games first (a student waits for them), then the competitions'
    // games, then test games; within each, the least-served competition and lane.
    let candidates = sqlx::query(&format!(
        "SELECT l.competition, l.lane, l.kind FROM lanes l \
         JOIN competitions c ON c.id = l.competition \
         WHERE l.queued > 0 AND c.paused = 0 AND l.kind IN ({kind_list}) \
         ORDER BY CASE l.kind WHEN 'compile' THEN 0 WHEN 'person_game' THEN 0 \
         WHEN 'game' THEN 1 ELSE 2 END, c.vtime, l.vtime \
         LIMIT 16"
    ))
    .fetch_all(&mut **tx)
    .await?;
    let pick = format!(
        "SELECT id, spec, attempts, number FROM jobs \
         WHERE competition = $1 AND lane = $2 AND kind = $3 AND state = 'queued' \
         AND (avoid_worker IS NULL OR avoid_worker <> $4) \
         ORDER BY priority DESC, id LIMIT 1 {}",
        db.skip_locked()
    );
    for candidate in candidates {
        let competition: i64 = candidate.try_get(0)?;
        let lane: String = candidate.try_get(1)?;
        let kind_text: String = candidate.try_get(2)?;
        let Some(kind) = JobKind::parse(&kind_text) else {
            continue;
        };
        let Some(job) = sqlx::query(&pick)
            .bind(competition)
            .bind(&lane)
            .bind(&kind_text)
            .bind(worker)
            .fetch_optional(&mut **tx)
            .await?
        else {
            continue;
        };
        let id: i64 = job.try_get(0)?;
        let token = new_token();
        let sql = format!(
            "UPDATE jobs SET state = 'running', worker = $1, lease_token = $2, \
             lease_until = {now} + $3, attempts = attempts + 1, started_at = {now} WHERE id = $4",
            now = db.now()
        );
        sqlx::query(&sql)
            .bind(worker)
            .bind(&token)
            .bind(millis(lease))
            .bind(id)
            .execute(&mut **tx)
            .await?;
        sqlx::query(
            "UPDATE lanes SET queued = queued - 1, vtime = vtime + 1 \
             WHERE competition = $1 AND lane = $2 AND kind = $3",
        )
        .bind(competition)
        .bind(&lane)
        .bind(&kind_text)
        .execute(&mut **tx)
        .await?;
        sqlx::query("UPDATE competitions SET vtime = vtime + 1.0 / weight WHERE id = $1")
            .bind(competition)
            .execute(&mut **tx)
            .await?;
        return Ok(Some(Claimed {
            id,
            competition,
            kind,
            spec: job.try_get(1)?,
            lease_token: token,
            attempt: job.try_get::<i64, _>(2)? + 1,
            number: job.try_get::<Option<i64>, _>(3)?.unwrap_or(0),
        }));
    }
    Ok(None)
}

/// Adds `n` (maybe negative) queued jobs to a lane, creating it. A lane that wakes up from
/// empty starts at the least virtual time among busy lanes, so it neither waits behind nor
/// jumps ahead of the others; likewise its competition.
async fn lane_add(
    db: &Db,
    tx: &mut Transaction<'static, Any>,
    competition: i64,
    lane: &str,
    kind: &str,
    n: i64,
) -> Result<(), sqlx::Error> {
    let greatest = match db.dialect() {
        Dialect::Sqlite => "MAX",
        Dialect::Postgres => "GREATEST",
    };
    sqlx::query(
        "INSERT INTO lanes (competition, lane, kind, queued, vtime) VALUES ($1, $2, $3, 0, 0) \
         ON CONFLICT (competition, lane, kind) DO NOTHING",
    )
    .bind(competition)
    .bind(lane)
    .bind(kind)
    .execute(&mut **tx)
    .await?;
    if n > 0 {
        // Wake-up rule, applied only when the lane was empty.
        sqlx::query(&format!(
            "UPDATE lanes SET vtime = {greatest}(vtime, COALESCE((SELECT MIN(o.vtime) FROM lanes o \
             WHERE o.competition = $1 AND o.kind = $3 AND o.queued > 0), vtime)) \
             WHERE competition = $1 AND lane = $2 AND kind = $3 AND queued = 0"
        ))
        .bind(competition)
        .bind(lane)
        .bind(kind)
        .execute(&mut **tx)
        .await?;
        sqlx::query(&format!(
            "UPDATE competitions SET vtime = {greatest}(vtime, COALESCE((SELECT MIN(c.vtime) \
             FROM competitions c WHERE c.id <> $1 AND EXISTS (SELECT 1 FROM lanes l \
             WHERE l.competition = c.id AND l.queued > 0)), vtime)) \
             WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM lanes l WHERE l.competition = $1 AND l.queued > 0)"
        ))
        .bind(competition)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query(&format!(
        "UPDATE lanes SET queued = {greatest}(queued + $1, 0) \
         WHERE competition = $2 AND lane = $3 AND kind = $4"
    ))
    .bind(n)
    .bind(competition)
    .bind(lane)
    .bind(kind)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn discard(
    db: &Db,
    tx: &mut Transaction<'static, Any>,
    job: i64,
    worker: &str,
    token: &str,
    reason: &str,
    outcome: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO discarded (job, worker, lease_token, reason, outcome, created_at) \
         VALUES ($1, $2, $3, $4, $5, {})",
        db.now()
    ))
    .bind(job)
    .bind(worker)
    .bind(token)
    .bind(reason)
    .bind(outcome)
    .execute(&mut **tx)
    .await?;
    event(db, tx, Some(job), Some(worker), "discarded", reason).await
}

/// Records an event about a job or a worker.
pub async fn event(
    db: &Db,
    tx: &mut Transaction<'static, Any>,
    job: Option<i64>,
    worker: Option<&str>,
    kind: &str,
    detail: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO events (at, job, worker, kind, detail) VALUES ({}, $1, $2, $3, $4)",
        db.now()
    ))
    .bind(job)
    .bind(worker)
    .bind(kind)
    .bind(detail)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
