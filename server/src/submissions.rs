//! Submissions: the rules (size, interval, daily budget), compiling in the sandbox through the
//! queue, and, once a submission is ready, its games against every other student's latest
//! ready submission (seed 001: only the latest counts).

use std::collections::HashMap;

use arbiter_engine::any::GameConfig;
use arbiter_queue::jobs::{self, JobKind, NewJob};
use arbiter_queue::spec::{CompileJob, CompileOutcome, GameJob, JobBot, Run};
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::error::AppError;
use crate::state::Shared;
use crate::store::{self, Submission, User};

/// A student's standing against the submission rules, for the submit page and the API.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Allowance {
    pub max_bytes: u64,
    pub min_interval_s: u64,
    /// When the next submission is allowed (Unix ms on the server's wall clock), if not now.
    pub next_at: Option<i64>,
    /// How many seconds until then (the interval measured on the boot clock, so a stepped
    /// wall clock does not change it: `crate::clock`).
    pub wait_s: Option<u64>,
    /// Seconds a day; 0 = unlimited.
    pub budget_s: u64,
    /// Thinking time of the student's bots in today's games (UTC), seconds.
    pub used_s: f64,
}

impl Allowance {
    pub fn remaining_s(&self) -> Option<f64> {
        (self.budget_s > 0).then(|| (self.budget_s as f64 - self.used_s).max(0.0))
    }
}

const DAY_MS: i64 = 86_400_000;

pub async fn allowance(state: &Shared, user_id: i64) -> Result<Allowance, AppError> {
    let mut conn = state.db.pool().acquire().await?;
    allowance_on(state, &mut conn, user_id).await
}

/// [`allowance`] read on one connection: inside [`submit`]'s transaction, so that the check
/// sees every submission committed before the user's row was locked.
async fn allowance_on(
    state: &Shared,
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
) -> Result<Allowance, AppError> {
    let rules = &state.rules().submissions;
    let now = state.clock.wall_ms();
    let mark = state.clock.mark();
    let last = sqlx::query(
        "SELECT created_at, boot, boot_ms FROM submissions WHERE user_id = $1 \
         ORDER BY id DESC LIMIT 1",
    )
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let wait_ms = match last {
        Some(row) => {
            let then_wall: i64 = row.try_get(0)?;
            let boot: Option<String> = row.try_get(1)?;
            let ms: Option<i64> = row.try_get(2)?;
            let then = boot
                .zip(ms)
                .map(|(boot, ms)| crate::clock::Mark { boot, ms });
            let elapsed = crate::clock::elapsed_ms(mark.as_ref(), now, then.as_ref(), then_wall);
            crate::clock::remaining_ms(rules.min_interval_s as i64 * 1000, elapsed)
        }
        None => None,
    };
    Ok(Allowance {
        max_bytes: rules.max_bytes,
        min_interval_s: rules.min_interval_s,
        next_at: wait_ms.map(|w| now + w),
        // Rounded up: "again in 1 s" until it is allowed, never "in 0 s".
        wait_s: wait_ms.map(|w| ((w + 999) / 1000) as u64),
        budget_s: rules.daily_budget_s,
        used_s: used_today(state, conn, user_id, now - now.rem_euclid(DAY_MS)).await?,
    })
}

#[derive(Deserialize)]
struct ThinkOnly {
    think_ms: Vec<f64>,
}

/// Thinking time of a user's bots in games finished since `since` (Unix ms), plus their
/// compile times, in seconds.
async fn used_today(
    state: &Shared,
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    since: i64,
) -> Result<f64, AppError> {
    let rows = sqlx::query(
        "SELECT j.side0, j.side1, r.outcome, j.id FROM results r JOIN jobs j ON j.id = r.job \
         WHERE r.competition = $1 AND r.created_at >= $2 AND j.kind = 'game' AND EXISTS \
         (SELECT 1 FROM submissions s WHERE s.user_id = $3 AND \
          (j.side0 = 's' || CAST(s.id AS TEXT) OR j.side1 = 's' || CAST(s.id AS TEXT) OR EXISTS \
           (SELECT 1 FROM job_seats t WHERE t.job = j.id AND t.side = 's' || CAST(s.id AS TEXT))))",
    )
    .bind(state.competition)
    .bind(since)
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    let mine: Vec<String> = sqlx::query_scalar::<_, i64>(
        "SELECT id FROM submissions WHERE user_id = $1 ORDER BY id DESC LIMIT 10000",
    )
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(Submission::side)
    .collect();
    // Every seat of today's games at tables, in one query.
    let mut tables: HashMap<i64, Vec<String>> = HashMap::new();
    for r in sqlx::query(
        "SELECT t.job, t.side FROM job_seats t JOIN results r ON r.job = t.job \
         WHERE r.competition = $1 AND r.created_at >= $2 ORDER BY t.job, t.seat",
    )
    .bind(state.competition)
    .bind(since)
    .fetch_all(&mut *conn)
    .await?
    {
        tables.entry(r.try_get(0)?).or_default().push(r.try_get(1)?);
    }
    let mut ms = 0.0;
    for row in rows {
        let sides = match tables.remove(&row.try_get::<i64, _>(3)?) {
            Some(seats) => seats,
            None => vec![row.try_get(0)?, row.try_get(1)?],
        };
        let Ok(o) = serde_json::from_str::<ThinkOnly>(&row.try_get::<String, _>(2)?) else {
            continue;
        };
        for (side, think) in sides.iter().zip(o.think_ms) {
            if mine.contains(side) {
                ms += think;
            }
        }
    }
    let compile: Option<i64> = sqlx::query_scalar(
        "SELECT CAST(SUM(compile_ms) AS BIGINT) FROM submissions WHERE user_id = $1 AND created_at >= $2",
    )
    .bind(user_id)
    .bind(since)
    .fetch_one(&mut *conn)
    .await?;
    Ok((ms + compile.unwrap_or(0) as f64) / 1000.0)
}

/// Refuses a submission the interval or the daily budget does not allow now.
fn check_allowance(allowance: &Allowance) -> Result<(), AppError> {
    if let Some(wait) = allowance.wait_s {
        return Err(AppError::TooMany {
            message: crate::lang::ta(
                "err-interval",
                &[
                    ("s", allowance.min_interval_s.into()),
                    ("wait", wait.into()),
                ],
            ),
            retry_after_s: wait,
        });
    }
    if let Some(0.0) = allowance.remaining_s() {
        return Err(AppError::TooMany {
            message: crate::lang::ta("err-budget", &[("s", allowance.budget_s.into())]),
            retry_after_s: 3600,
        });
    }
    Ok(())
}

/// Locks the user's row until the transaction ends, so that one user's submissions are
/// checked and inserted one at a time. SQLite's `BEGIN IMMEDIATE` (see `Db::begin`) already
/// holds the database's write lock; PostgreSQL locks the row.
pub(crate) async fn lock_user(
    state: &Shared,
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    user_id: i64,
) -> Result<(), AppError> {
    if state.db.dialect() == arbiter_queue::Dialect::Postgres {
        sqlx::query("SELECT id FROM users WHERE id = $1 FOR UPDATE")
            .bind(user_id)
            .fetch_optional(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Accepts a submission: checks the rules, stores the source, queues its compile. Returns
/// its id.
pub async fn submit(
    state: &Shared,
    user: &User,
    language: &str,
    file_name: &str,
    source: Vec<u8>,
) -> Result<i64, AppError> {
    let contest = &state.contest;
    let Some(lang) = contest.file.languages.get(language) else {
        let known: Vec<&str> = contest.file.languages.keys().map(String::as_str).collect();
        return Err(AppError::BadRequest(crate::lang::ta(
            "err-unknown-language",
            &[
                ("language", format!("{language:?}").into()),
                ("known", known.join(", ").into()),
            ],
        )));
    };
    if user.disqualified {
        return Err(AppError::Forbidden(crate::lang::t("err-disqualified")));
    }
    if source.is_empty() || source.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(AppError::BadRequest(crate::lang::t("err-empty-source")));
    }
    let max_bytes = state.rules().submissions.max_bytes;
    if source.len() as u64 > max_bytes {
        return Err(AppError::TooLarge(crate::lang::ta(
            "err-source-too-large",
            &[("size", source.len().into()), ("max", max_bytes.into())],
        )));
    }
    // A quick refusal before storing the source; the check that counts is repeated below,
    // under the lock, together with the insert.
    check_allowance(&allowance(state, user.id).await?)?;
    let hash = arbiter_queue::artefacts::put(&state.db, &source).await?;
    let job = CompileJob {
        language: language.to_string(),
        source: hash.clone(),
        file_name: lang.file.clone(),
        compile: lang.compile.clone(),
        source_is_program: lang.run_source,
        run: lang.run.clone(),
        time_limit_ms: lang.compile_time_ms,
        memory_mb: lang.compile_memory_mb,
    };
    // A label only, but shown to everyone: no bidi controls or zero-width characters that
    // would make `evil\u{202e}c.txt` read as another name.
    let display_name: String = file_name
        .chars()
        .filter(|c| !crate::names::invisible(*c))
        .take(100)
        .collect();
    // The interval and the budget are checked and the row inserted in one transaction that
    // holds the user's lock: simultaneous submissions are judged one after the other.
    let mut tx = state.db.begin().await?;
    lock_user(state, &mut tx, user.id).await?;
    check_allowance(&allowance_on(state, &mut tx, user.id).await?)?;
    // The server's clocks, as the interval reads them (`crate::clock`).
    let mark = state.clock.mark();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO submissions (user_id, language, file_name, source, size, status, \
         created_at, boot, boot_ms) VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8) RETURNING id",
    )
    .bind(user.id)
    .bind(language)
    .bind(if display_name.is_empty() {
        lang.file.clone()
    } else {
        display_name
    })
    .bind(&hash)
    .bind(source.len() as i64)
    .bind(state.clock.wall_ms())
    .bind(mark.as_ref().map(|m| m.boot.clone()))
    .bind(mark.map(|m| m.ms))
    .fetch_one(&mut *tx)
    .await?;
    let spec = serde_json::to_string(&job).map_err(anyhow::Error::from)?;
    queue_compile(state, &mut tx, (user.id, id), spec, 0).await?;
    tx.commit().await?;
    state.wake_workers.notify_waiters();
    Ok(id)
}

/// Queues the build (`spec`, a `CompileJob`) of submission `id` of user `user` and points the
/// submission at it. Builds go round robin between students, like games.
async fn queue_compile(
    state: &Shared,
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    (user, id): (i64, i64),
    spec: String,
    priority: i64,
) -> Result<(), AppError> {
    let ids = jobs::enqueue(
        &state.db,
        tx,
        state.competition,
        &[NewJob {
            lane: format!("u{user}"),
            kind: JobKind::Compile,
            spec,
            sides: [Submission::side(id), String::new()],
            seats: Vec::new(),
            priority,
        }],
    )
    .await?;
    sqlx::query("UPDATE submissions SET compile_job = $1 WHERE id = $2")
        .bind(ids[0])
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Turns finished compiles into ready (and scheduled) or failed submissions. Runs in one
/// task only, so two submissions becoming ready never miss each other's games.
pub async fn reconcile(state: &Shared) -> Result<usize, AppError> {
    let rows = sqlx::query(
        "SELECT s.id, j.state FROM submissions s JOIN jobs j ON j.id = s.compile_job \
         WHERE s.status = 'pending' AND j.state IN ('done', 'failed', 'cancelled') ORDER BY s.id",
    )
    .fetch_all(state.db.pool())
    .await?;
    let mut changed = 0;
    for row in rows {
        let id: i64 = row.try_get(0)?;
        let job_state: String = row.try_get(1)?;
        let Some(sub) = store::submission(&state.db, id).await? else {
            continue;
        };
        let outcome = match job_state.as_str() {
            "done" => match sub.compile_job {
                Some(job) => compile_outcome(state, job).await?,
                None => None,
            },
            _ => None,
        };
        match outcome {
            Some(o) if o.ok => {
                ready(state, &sub, &o).await?;
            }
            Some(o) => {
                failed(state, sub.id, &o.log, Some(o.millis as i64)).await?;
            }
            None => {
                failed(state, sub.id, BUILD_NOT_RUN, None).await?;
            }
        }
        changed += 1;
    }
    if changed > 0 {
        state.wake_workers.notify_waiters();
        state.wake_board.notify_one();
    }
    Ok(changed)
}

/// The compile log of a submission whose compile could not be run at all (stored in English
/// like every compile log; the page says it in its reader's language).
pub const BUILD_NOT_RUN: &str = "the build could not be run; the course staff can re-judge it";

async fn compile_outcome(state: &Shared, job: i64) -> Result<Option<CompileOutcome>, AppError> {
    let Some(result) = state.queue.result(job).await? else {
        return Ok(None);
    };
    Ok(serde_json::from_str(&result.outcome).ok())
}

async fn failed(state: &Shared, id: i64, log: &str, ms: Option<i64>) -> Result<(), AppError> {
    sqlx::query(
        "UPDATE submissions SET status = 'failed', compile_log = $1, compile_ms = $2 \
         WHERE id = $3 AND status = 'pending'",
    )
    .bind(log)
    .bind(ms)
    .bind(id)
    .execute(state.db.pool())
    .await?;
    Ok(())
}

/// Marks a submission ready and schedules its games, in one transaction.
async fn ready(state: &Shared, sub: &Submission, o: &CompileOutcome) -> Result<(), AppError> {
    let mut tx = state.db.begin().await?;
    let updated = sqlx::query(&format!(
        "UPDATE submissions SET status = 'ready', artefact = $1, run = $2, compile_log = $3, \
         compile_ms = $4, ready_at = {} WHERE id = $5 AND status = 'pending'",
        state.db.now()
    ))
    .bind(&o.artefact)
    .bind(&o.run)
    .bind(&o.log)
    .bind(o.millis as i64)
    .bind(sub.id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if updated == 0 {
        tx.rollback().await?;
        return Ok(());
    }
    // The student's earlier submissions leave: their queued contest games are not played (a
    // test game asked for with one is still played: the student chose it).
    let older: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM submissions WHERE user_id = $1 AND id < $2 AND status = 'ready'",
    )
    .bind(sub.user_id)
    .bind(sub.id)
    .fetch_all(&mut *tx)
    .await?;
    for old in older {
        jobs::cancel_involving(
            &state.db,
            &mut tx,
            state.competition,
            &Submission::side(old),
            Some(JobKind::Game),
        )
        .await?;
    }
    tx.commit().await?;
    let mut fresh = sub.clone();
    fresh.status = "ready".into();
    fresh.artefact = o.artefact.clone();
    fresh.run = Some(o.run.clone());
    schedule_missing(state, &fresh).await
}

/// Queues the games of a ready submission against every other student's current one that it
/// has no games with yet (cancelled ones do not count). Safe to call again: after a restart,
/// or when a disqualified student is reinstated.
pub async fn schedule_missing(state: &Shared, sub: &Submission) -> Result<(), AppError> {
    if state.contest.seats > 2 {
        return crate::tables::schedule_missing(state, sub).await;
    }
    if state.contest.file.schedule.format == crate::config::ContestFormat::Ladder {
        // The ladder queues a submission's games a batch at a time (crate::schedules).
        state.wake_reconciler.notify_one();
        return Ok(());
    }
    let users: HashMap<i64, User> = store::users(&state.db)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let Some(me) = users.get(&sub.user_id) else {
        return Ok(());
    };
    if me.disqualified {
        return Ok(());
    }
    let side = Submission::side(sub.id);
    let scheduled: std::collections::HashSet<i64> = sqlx::query(
        "SELECT side0, side1 FROM jobs WHERE competition = $1 AND kind = 'game' \
         AND state <> 'cancelled' AND (side0 = $2 OR side1 = $2)",
    )
    .bind(state.competition)
    .bind(&side)
    .fetch_all(state.db.pool())
    .await?
    .iter()
    .filter_map(|r| {
        let a: String = r.try_get(0).ok()?;
        let b: String = r.try_get(1).ok()?;
        store::side_id(if a == side { &b } else { &a })
    })
    .collect();
    let opponents: Vec<Submission> = store::current_submissions(&state.db)
        .await?
        .into_iter()
        .filter(|s| s.user_id != sub.user_id && !scheduled.contains(&s.id))
        .collect();
    let mut new_jobs = Vec::new();
    for other in &opponents {
        let Some(them) = users.get(&other.user_id) else {
            continue;
        };
        new_jobs.extend(pairing_jobs(state, (sub, me), (other, them))?);
    }
    if new_jobs.is_empty() {
        return Ok(());
    }
    let mut tx = state.db.begin().await?;
    jobs::enqueue(&state.db, &mut tx, state.competition, &new_jobs).await?;
    tx.commit().await?;
    state.wake_workers.notify_waiters();
    Ok(())
}

/// After a restart: every current submission gets the games it is missing (a server killed
/// between a submission becoming ready and its games being queued).
pub async fn schedule_all_missing(state: &Shared) -> Result<(), AppError> {
    for sub in store::current_submissions(&state.db).await? {
        schedule_missing(state, &sub).await?;
    }
    Ok(())
}

/// The configuration of pair `pair` of the pairing of submissions `ids` (lower first), when the
/// game has chance (the 2048 duel's sequence, a module's dice): both games of a pair see the
/// same chance, other pairs and pairings other chance. Replays are public and a module's dice
/// must stay unknown to its bots (docs/game-kit.md): the seed comes from the site's secret,
/// so that no past game's seed tells a future one.
pub(crate) fn pair_game(state: &Shared, ids: [i64; 2], pair: usize) -> Option<GameConfig> {
    let [lo, hi] = ids;
    let game = &state.contest.game.game;
    let base = game.chance_seed()?;
    // Worded as when only modules had it, so that a running contest keeps its seeds.
    let what = format!("module seed {base} {lo} {hi} {pair}");
    Some(game.with_chance_seed(crate::auth::secret_u64(&state.secret, &what)))
}

/// The games between two submissions: colours swapped in pairs, each pair from the next
/// opening, the 2048 duel's sequence and a module's seed changing from pair to pair.
fn pairing_jobs(
    state: &Shared,
    mine: (&Submission, &User),
    theirs: (&Submission, &User),
) -> Result<Vec<NewJob>, AppError> {
    let gpp = state.contest.file.submissions.games_per_pairing as usize;
    games_between(state, mine, theirs, 0..gpp / 2)
}

/// The game pairs `pairs` between two submissions (pair k is games 2k and 2k + 1).
pub(crate) fn games_between(
    state: &Shared,
    mine: (&Submission, &User),
    theirs: (&Submission, &User),
    pairs: std::ops::Range<usize>,
) -> Result<Vec<NewJob>, AppError> {
    let contest = &state.contest;
    let openings = &contest.game.openings;
    let lane = format!("u{}", mine.0.user_id);
    let mut out = Vec::with_capacity(pairs.len() * 2);
    for k in pairs.start * 2..pairs.end * 2 {
        let pair = k / 2;
        let seats = if k % 2 == 0 {
            [mine, theirs]
        } else {
            [theirs, mine]
        };
        let bots = [job_bot(state, seats[0])?, job_bot(state, seats[1])?];
        let ids = [mine.0.id, theirs.0.id];
        let game = pair_game(state, [ids[0].min(ids[1]), ids[0].max(ids[1])], pair);
        let spec = GameJob {
            bots: bots.to_vec(),
            opening: if openings.is_empty() {
                Vec::new()
            } else {
                openings[pair % openings.len()].clone()
            },
            game,
            event: Some(contest.file.name.clone()),
            seed: None,
        };
        out.push(NewJob {
            lane: lane.clone(),
            kind: JobKind::Game,
            spec: serde_json::to_string(&spec).map_err(anyhow::Error::from)?,
            sides: [
                Submission::side(seats[0].0.id),
                Submission::side(seats[1].0.id),
            ],
            seats: Vec::new(),
            priority: 0,
        });
    }
    Ok(out)
}

pub(crate) fn job_bot(
    state: &Shared,
    (sub, user): (&Submission, &User),
) -> Result<JobBot, AppError> {
    let protocol = state
        .contest
        .protocols
        .get(&sub.language)
        .copied()
        .unwrap_or(state.contest.game.protocol);
    let (Some(hash), Some(run)) = (&sub.artefact, &sub.run) else {
        return Err(AppError::Internal(anyhow::anyhow!(
            "submission {} is ready without a program",
            sub.id
        )));
    };
    Ok(JobBot {
        name: format!("{} #{}", user.display(), sub.id),
        protocol,
        run: Run::Artefact {
            hash: hash.clone(),
            command: run.clone(),
        },
    })
}

/// Course staff: compile a submission again (a failed or stuck build), or replay all its
/// games (a ready one). Returns how many jobs were queued.
pub async fn rejudge(state: &Shared, id: i64) -> Result<usize, AppError> {
    let sub = store::submission(&state.db, id).await?.ok_or_else(|| {
        AppError::NotFound(crate::lang::ta(
            "err-submission",
            &[("id", id.to_string().into())],
        ))
    })?;
    if sub.status != "ready" {
        let spec: Option<String> = match sub.compile_job {
            Some(job) => {
                sqlx::query_scalar("SELECT spec FROM jobs WHERE id = $1")
                    .bind(job)
                    .fetch_optional(state.db.pool())
                    .await?
            }
            None => None,
        };
        let Some(spec) = spec else {
            return Err(AppError::BadRequest(crate::lang::t("err-no-build")));
        };
        let mut tx = state.db.begin().await?;
        queue_compile(state, &mut tx, (sub.user_id, id), spec, 1).await?;
        sqlx::query("UPDATE submissions SET status = 'pending', compile_log = NULL WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        state.wake_workers.notify_waiters();
        return Ok(1);
    }
    let side = Submission::side(id);
    let done: Vec<i64> = sqlx::query_scalar(&format!(
        "SELECT j.id FROM jobs j WHERE j.competition = $1 AND j.kind = 'game' AND j.state = 'done' \
         AND {}",
        jobs::INVOLVES
    ))
    .bind(state.competition)
    .bind(&side)
    .fetch_all(state.db.pool())
    .await?;
    let mut n = 0;
    for job in done {
        if state
            .queue
            .replay(job, "re-judged by the course staff", false)
            .await?
        {
            n += 1;
        }
    }
    state.wake_workers.notify_waiters();
    state.wake_board.notify_one();
    Ok(n)
}
