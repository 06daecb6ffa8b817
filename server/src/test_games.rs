//! Test games: a student's bot against an opponent they choose (a level of the built-in
//! ladder, another student's latest submission, or themselves by clicks in the browser),
//! before and besides the contest's games.
//!
//! A test game is a queue job of its own kind (`test_game`, or `person_game` when a person
//! plays a seat): judged after the contest's games, bounded per student per hour
//! (`[test_games] per_hour`), never counted (every standing reads `kind = 'game'` only), and
//! shown to its student and the course staff only. Another student's bot is played by its
//! program: its source and logs stay theirs (the replay is redacted as a contest game's).

use std::collections::HashMap;
use std::sync::Mutex;

use arbiter_queue::jobs::{self, JobKind, NewJob};
use arbiter_queue::spec::{GameJob, JobBot, Run};
use serde::Deserialize;
use sqlx::Row;

use crate::auth::Session;
use crate::error::AppError;
use crate::games::{self, GameRow};
use crate::state::Shared;
use crate::store::{self, Submission, User};

/// A test game is live on the hub under its job's id plus this: apart from the contest's
/// games, which are live under their numbers.
pub const LIVE_BASE: u64 = 1 << 40;

/// The hub's number of test game job `job`.
pub fn live_id(job: i64) -> u64 {
    LIVE_BASE + job.max(0) as u64
}

/// The job of a hub number, if it is a test game's.
pub fn job_of_live(id: u64) -> Option<i64> {
    id.checked_sub(LIVE_BASE)
        .and_then(|j| i64::try_from(j).ok())
}

/// The kinds of job a test game is.
const KINDS: &str = "('test_game', 'person_game')";

/// How long a test game waits for its person to open their seat's page before it starts.
pub const PERSON_WAIT: std::time::Duration = std::time::Duration::from_secs(5 * 60);

/// The highest level of the built-in ladder a student may choose (`builtin:N`).
pub const MAX_LEVEL: u32 = 5;

/// Whom a student's bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// A level of the built-in ladder: 0 is the random bot.
    Level(u32),
    /// A student's latest ready submission (the student's user id).
    Student(i64),
    /// The student themselves, by clicks in the browser.
    Person,
}

impl Opponent {
    /// Reads a form's value: `level:N`, `student:ID` or `me`.
    pub fn parse(text: &str) -> Result<Opponent, AppError> {
        let bad = || {
            AppError::BadRequest(crate::lang::ta(
                "err-test-opponent",
                &[("value", format!("{:?}", truncate(text)).into())],
            ))
        };
        if text == "me" {
            return Ok(Opponent::Person);
        }
        if let Some(n) = text.strip_prefix("level:") {
            let level: u32 = n.parse().map_err(|_| bad())?;
            return match level <= MAX_LEVEL {
                true => Ok(Opponent::Level(level)),
                false => Err(bad()),
            };
        }
        if let Some(id) = text.strip_prefix("student:") {
            return id.parse().map(Opponent::Student).map_err(|_| bad());
        }
        Err(bad())
    }
}

fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

/// What a student asks for.
pub struct Request {
    /// Their own submission; `None`: the latest ready one.
    pub submission: Option<i64>,
    pub opponent: Opponent,
    /// The seat their bot takes (0 = first).
    pub seat: usize,
}

/// A person's seat of a test game being played: where its page is.
#[derive(Clone, Debug)]
pub struct PersonLink {
    pub seat: usize,
    pub key: String,
}

/// The people's seats of the test games this server's worker plays now, by job.
#[derive(Default)]
pub struct People(Mutex<HashMap<i64, PersonLink>>);

impl People {
    pub fn set(&self, job: i64, link: PersonLink) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(job, link);
    }

    pub fn get(&self, job: i64) -> Option<PersonLink> {
        let map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&job).cloned()
    }

    /// Forgets the links of games no longer played (called as games end).
    pub fn forget(&self, job: i64) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&job);
    }
}

/// The seats' sides of a test game: the student's submission, the opponent's.
fn opponent_side(opponent: Opponent, theirs: Option<&Submission>, user: &User) -> String {
    match (opponent, theirs) {
        (Opponent::Level(n), _) => format!("level:{n}"),
        (Opponent::Student(_), Some(s)) => Submission::side(s.id),
        _ => format!("person:{}", user.id),
    }
}

/// Starts a test game: checks the request and the student's hourly bound, and queues it in
/// one transaction. Returns the test game's number (the student's 1, 2, 3 ...).
pub async fn start(state: &Shared, user: &User, req: &Request) -> Result<i64, AppError> {
    let per_hour = state.contest.file.test_games.per_hour;
    if per_hour == 0 {
        return Err(AppError::Forbidden(crate::lang::t("err-test-off")));
    }
    if user.disqualified {
        return Err(AppError::Forbidden(crate::lang::t("err-disqualified")));
    }
    let seats = state.contest.seats;
    if req.seat >= seats {
        return Err(AppError::BadRequest(crate::lang::ta(
            "err-test-seat",
            &[("seats", seats.into())],
        )));
    }
    if req.opponent == Opponent::Person && !state.people_games {
        return Err(AppError::BadRequest(crate::lang::t("err-test-no-person")));
    }
    let mine = own_submission(state, user, req.submission).await?;
    let theirs = match req.opponent {
        Opponent::Student(id) => Some(latest_of(state, id).await?),
        _ => None,
    };
    let job = new_job(state, user, req, &mine, theirs.as_ref()).await?;
    let mut tx = state.db.begin().await?;
    crate::submissions::lock_user(state, &mut tx, user.id).await?;
    within_bounds(state, &mut tx, &job, per_hour).await?;
    let ids = jobs::enqueue(&state.db, &mut tx, state.competition, &[job]).await?;
    tx.commit().await?;
    state.wake_workers.notify_waiters();
    games::number_of(state, ids[0]).await
}

/// Refuses a test game past the student's bounds: one game by clicks at a time, `per_hour`
/// test games an hour. Read in the transaction that holds the student's lock and inserts.
async fn within_bounds(
    state: &Shared,
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    job: &NewJob,
    per_hour: u32,
) -> Result<(), AppError> {
    // One game by clicks at a time: a person plays one, and the people's slot is shared.
    if job.kind == JobKind::PersonGame {
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM jobs WHERE competition = $1 AND lane = $2 \
             AND kind = 'person_game' AND state IN ('queued', 'running')",
        )
        .bind(state.competition)
        .bind(&job.lane)
        .fetch_one(&mut **tx)
        .await?;
        if open > 0 {
            return Err(AppError::TooMany {
                message: crate::lang::t("err-test-person-open"),
                retry_after_s: 60,
            });
        }
    }
    let since: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM jobs WHERE competition = $1 AND lane = $2 AND kind IN {KINDS} \
         AND created_at > {} - 3600000",
        state.db.now()
    ))
    .bind(state.competition)
    .bind(&job.lane)
    .fetch_one(&mut **tx)
    .await?;
    if since >= i64::from(per_hour) {
        return Err(AppError::TooMany {
            message: crate::lang::ta("err-test-per-hour", &[("n", per_hour.into())]),
            retry_after_s: 600,
        });
    }
    Ok(())
}

/// The student's own ready submission `id`, or their latest ready one.
async fn own_submission(
    state: &Shared,
    user: &User,
    id: Option<i64>,
) -> Result<Submission, AppError> {
    let sub = match id {
        Some(id) => store::submission(&state.db, id)
            .await?
            .filter(|s| s.user_id == user.id),
        None => latest_ready(state, user.id).await?,
    };
    match sub {
        Some(s) if s.status == "ready" => Ok(s),
        Some(s) => Err(AppError::BadRequest(crate::lang::ta(
            "err-test-not-ready",
            &[("id", s.id.into())],
        ))),
        None if id.is_some() => Err(AppError::NotFound(crate::lang::ta(
            "err-submission",
            &[("id", id.unwrap_or(0).to_string().into())],
        ))),
        None => Err(AppError::BadRequest(crate::lang::t(
            "err-test-no-submission",
        ))),
    }
}

async fn latest_ready(state: &Shared, user: i64) -> Result<Option<Submission>, AppError> {
    let row = sqlx::query(&format!(
        "SELECT {} FROM submissions WHERE user_id = $1 AND status = 'ready' \
         ORDER BY id DESC LIMIT 1",
        Submission::COLUMNS
    ))
    .bind(user)
    .fetch_optional(state.db.pool())
    .await?;
    Ok(row.as_ref().map(Submission::from_row).transpose()?)
}

/// Student `user`'s latest ready submission, as an opponent, and the student.
async fn latest_of(state: &Shared, user: i64) -> Result<(Submission, User), AppError> {
    let gone = || {
        AppError::BadRequest(crate::lang::ta(
            "err-test-no-opponent",
            &[("id", user.into())],
        ))
    };
    let u = store::user_by_id(&state.db, user)
        .await?
        .filter(|u| !u.disqualified && !u.admin)
        .ok_or_else(gone)?;
    let sub = latest_ready(state, u.id).await?.ok_or_else(gone)?;
    Ok((sub, u))
}

/// The queue job of a test game.
async fn new_job(
    state: &Shared,
    user: &User,
    req: &Request,
    mine: &Submission,
    theirs: Option<&(Submission, User)>,
) -> Result<NewJob, AppError> {
    let contest = &state.contest;
    let me = crate::submissions::job_bot(state, (mine, user))?;
    let other = match (req.opponent, theirs) {
        (Opponent::Level(n), _) => JobBot {
            name: level_name(n),
            protocol: contest.game.protocol,
            run: Run::Builtin {
                spec: level_name(n),
            },
        },
        (Opponent::Student(_), Some((s, owner))) => crate::submissions::job_bot(state, (s, owner))?,
        _ => JobBot {
            name: user.display().to_string(),
            protocol: contest.game.protocol,
            run: Run::Person,
        },
    };
    let seats = contest.seats;
    let theirs_side = opponent_side(req.opponent, theirs.map(|(s, _)| s), user);
    let mine_side = Submission::side(mine.id);
    // The student's bot takes its seat and the opponent every other; a person, who plays one
    // seat, takes the next one, and the student's bot the rest (at a table of more than two).
    let (mut bots, mut sides) = match req.opponent {
        Opponent::Person => {
            let person = (req.seat + 1) % seats;
            let mut bots = vec![me.clone(); seats];
            let mut sides = vec![mine_side.clone(); seats];
            bots[person] = other;
            sides[person] = theirs_side.clone();
            (bots, sides)
        }
        _ => (vec![other; seats], vec![theirs_side.clone(); seats]),
    };
    bots[req.seat] = me;
    sides[req.seat] = mine_side.clone();
    let openings = &contest.game.openings;
    let pick = rand::random::<u64>() as usize;
    let spec = GameJob {
        bots,
        opening: match openings.is_empty() {
            true => Vec::new(),
            false => openings[pick % openings.len()].clone(),
        },
        // A chance game's deal of its own: nobody can learn a contest game's from it.
        game: contest
            .game
            .game
            .chance_seed()
            .map(|_| contest.game.game.with_chance_seed(rand::random())),
        event: Some(format!("{} (test game)", contest.file.name)),
        seed: None,
    };
    Ok(NewJob {
        lane: format!("u{}", user.id),
        kind: match req.opponent {
            Opponent::Person => JobKind::PersonGame,
            _ => JobKind::TestGame,
        },
        spec: serde_json::to_string(&spec).map_err(anyhow::Error::from)?,
        // The student's side first, whatever their seat; the seats in order (a test game
        // is never read as a pairing of the contest's).
        sides: [mine_side, theirs_side],
        seats: sides,
        priority: 0,
    })
}

/// The name of a level's bot (as its command is spelled: a name in no language).
pub fn level_name(level: u32) -> String {
    match level {
        0 => "builtin:random".into(),
        n => format!("builtin:{n}"),
    }
}

/// One test game as its pages show it.
#[derive(Clone, Debug)]
pub struct TestGame {
    /// The result and state, as a contest game's.
    pub row: GameRow,
    /// Whose it is.
    pub user: i64,
    /// Each seat's player, as the replay names it.
    pub names: Vec<String>,
    /// Each seat's side (`s12` a submission, `level:2`, `person:7`).
    pub sides: Vec<String>,
    /// The seat of the student's bot.
    pub seat: usize,
    /// The seat the student plays by clicks, if any.
    pub person: Option<usize>,
    /// When it was asked for (Unix ms).
    pub created_at: i64,
}

#[derive(Deserialize)]
struct SpecView {
    bots: Vec<JobBot>,
}

impl TestGame {
    /// A test game from its job's row and its seats' sides.
    fn of_row(r: &sqlx::any::AnyRow, sides: Vec<String>) -> Result<TestGame, AppError> {
        let number: Option<i64> = r.try_get(0)?;
        let job: i64 = r.try_get(1)?;
        let lane: String = r.try_get(2)?;
        let spec: String = r.try_get(3)?;
        let side0: String = r.try_get(4)?;
        let bots = serde_json::from_str::<SpecView>(&spec)
            .map(|s| s.bots)
            .unwrap_or_default();
        let person = bots.iter().position(|b| matches!(b.run, Run::Person));
        let seat = sides.iter().position(|s| *s == side0).unwrap_or(0);
        let row = games::row(
            number.unwrap_or(0),
            job,
            vec![0; bots.len()],
            r.try_get(5)?,
            (r.try_get(6)?, r.try_get(7)?),
        );
        Ok(TestGame {
            row,
            user: lane
                .strip_prefix('u')
                .and_then(|u| u.parse().ok())
                .unwrap_or(0),
            names: bots.into_iter().map(|b| b.name).collect(),
            sides,
            seat,
            person,
            created_at: r.try_get(8)?,
        })
    }

    /// The student's result: `won`, `lost`, `drawn`, or `None` before the end.
    pub fn outcome(&self) -> Option<&'static str> {
        self.row.verdict.as_ref()?;
        Some(match (&self.row.places, self.row.winner) {
            (Some(p), _) => match p.get(self.seat) {
                Some(1) if p.iter().filter(|&&x| x == 1).count() == 1 => "won",
                Some(1) => "drawn",
                _ => "lost",
            },
            (None, Some(w)) if usize::from(w) == self.seat => "won",
            (None, Some(_)) => "lost",
            (None, None) => "drawn",
        })
    }
}

const COLUMNS: &str = "j.number, j.id, j.lane, j.spec, j.side0, j.state, r.outcome, r.seq, \
     j.created_at";

/// A student's test games, newest first (everyone's for course staff): at most 200.
pub async fn list(state: &Shared, viewer: &Session) -> Result<Vec<TestGame>, AppError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM jobs j LEFT JOIN results r ON r.job = j.id \
         WHERE j.competition = $1 AND j.kind IN {KINDS} AND ($2 = '' OR j.lane = $2) \
         ORDER BY j.id DESC LIMIT 200"
    ))
    .bind(state.competition)
    .bind(match viewer.user.admin {
        true => String::new(),
        false => format!("u{}", viewer.user.id),
    })
    .fetch_all(state.db.pool())
    .await?;
    let mut sides = seats_of(state, rows.last().map_or(Ok(0), |r| r.try_get(1))?).await?;
    rows.iter()
        .map(|r| TestGame::of_row(r, sides.remove(&r.try_get(1)?).unwrap_or_default()))
        .collect()
}

/// The seats' sides of the test games from job `from` on, by job: one query for a list.
async fn seats_of(state: &Shared, from: i64) -> Result<HashMap<i64, Vec<String>>, AppError> {
    let rows = sqlx::query(&format!(
        "SELECT t.job, t.side FROM job_seats t JOIN jobs j ON j.id = t.job \
         WHERE j.competition = $1 AND j.kind IN {KINDS} AND j.id >= $2 ORDER BY t.job, t.seat"
    ))
    .bind(state.competition)
    .bind(from)
    .fetch_all(state.db.pool())
    .await?;
    let mut out: HashMap<i64, Vec<String>> = HashMap::new();
    for r in rows {
        out.entry(r.try_get(0)?).or_default().push(r.try_get(1)?);
    }
    Ok(out)
}

/// Test game `number`, for its student or the course staff; `NotFound` for anyone else (a
/// guessed number tells nothing).
pub async fn find(state: &Shared, viewer: &Session, number: i64) -> Result<TestGame, AppError> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM jobs j LEFT JOIN results r ON r.job = j.id \
         WHERE j.competition = $1 AND j.kind IN {KINDS} AND j.number = $2"
    ))
    .bind(state.competition)
    .bind(number)
    .fetch_optional(state.db.pool())
    .await?;
    let game = match &row {
        Some(r) => Some(TestGame::of_row(r, job_sides(state, r.try_get(1)?).await?)?),
        None => None,
    };
    match game {
        Some(g) if viewer.user.admin || g.user == viewer.user.id => Ok(g),
        _ => Err(not_found(number)),
    }
}

fn not_found(number: i64) -> AppError {
    AppError::NotFound(crate::lang::ta(
        "err-test-game",
        &[("id", number.to_string().into())],
    ))
}

/// Whether `viewer` may follow the live game of test game job `job`: its student or the
/// course staff.
pub async fn may_follow(
    state: &Shared,
    viewer: Option<&Session>,
    job: i64,
) -> Result<bool, AppError> {
    let Some(v) = viewer else {
        return Ok(false);
    };
    let lane: Option<String> = sqlx::query_scalar(&format!(
        "SELECT lane FROM jobs WHERE id = $1 AND competition = $2 AND kind IN {KINDS}"
    ))
    .bind(job)
    .bind(state.competition)
    .fetch_optional(state.db.pool())
    .await?;
    Ok(lane.is_some_and(|l| v.user.admin || l == format!("u{}", v.user.id)))
}

/// A test game's replay as `viewer` may see it: the logs of the viewer's own bots only (all
/// for course staff), whatever the contest's `private_logs`.
pub async fn replay_for(state: &Shared, viewer: &Session, number: i64) -> Result<String, AppError> {
    let g = find(state, viewer, number).await?;
    let text = arbiter_queue::worker::replay_text(&state.queue, g.row.job)
        .await?
        .ok_or_else(|| {
            AppError::NotFound(crate::lang::ta(
                "err-test-replay",
                &[("id", number.to_string().into())],
            ))
        })?;
    let mut replay = arbiter_engine::replay::Replay::from_json(&text).map_err(|e| {
        AppError::Internal(anyhow::anyhow!("stored replay of test game {number}: {e}"))
    })?;
    games::redact(&mut replay, &own_seats(state, viewer, &g).await?);
    Ok(replay.to_json())
}

/// Which seats' logs the viewer may read: their own bots' (their submissions'), the course
/// staff all.
async fn own_seats(state: &Shared, viewer: &Session, g: &TestGame) -> Result<Vec<bool>, AppError> {
    let mut own = vec![viewer.user.admin; g.sides.len()];
    for (i, side) in g.sides.iter().enumerate() {
        if let Some(id) = store::side_id(side).filter(|_| !viewer.user.admin) {
            own[i] = store::submission(&state.db, id)
                .await?
                .is_some_and(|s| s.user_id == viewer.user.id);
        }
    }
    Ok(own)
}

/// The sides of a test game's seats, in seat order.
async fn job_sides(state: &Shared, job: i64) -> Result<Vec<String>, AppError> {
    Ok(
        sqlx::query_scalar("SELECT side FROM job_seats WHERE job = $1 ORDER BY seat")
            .bind(job)
            .fetch_all(state.db.pool())
            .await?,
    )
}

/// The opponents a student may choose: the other students with a ready submission (by
/// display name), at most 500.
pub async fn students(state: &Shared, viewer: &User) -> Result<Vec<(i64, String)>, AppError> {
    let current = store::current_submissions(&state.db).await?;
    let users: HashMap<i64, User> = store::users(&state.db)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let mut out: Vec<(i64, String)> = current
        .iter()
        .filter_map(|s| users.get(&s.user_id))
        .filter(|u| u.id != viewer.id && !u.admin)
        .take(500)
        .map(|u| (u.id, u.display().to_string()))
        .collect();
    out.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(out)
}
