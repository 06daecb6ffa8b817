//! The contest's schedules beyond every pair: the rating ladder (`[schedule] format =
//! "ladder"`) and leagues with bosses (`[[leagues]]`). Each tick looks at every current
//! submission, and queues what it needs next from what the database holds: its ladder games
//! while its rating is uncertain, its games against its league's boss, a promotion once the
//! boss is beaten. Everything is derived from the jobs and results stored, so a server killed
//! at any point does the same on restart and queues nothing twice (a tick queues a
//! submission's next games only when none of its games is waiting or being played).
//!
//! Matchmaking and promotion are the plain functions of `arbiter_tournament::ladder` and
//! `league`.

use std::collections::HashMap;

use arbiter_queue::jobs::{self, JobKind, NewJob};
use arbiter_queue::spec::{GameJob, JobBot, Run};
use arbiter_tournament::ladder::{self, Game, Rated};
use arbiter_tournament::league::{self, Standing};
use serde::Serialize;
use sqlx::Row;

use crate::config::ContestFormat;
use crate::error::AppError;
use crate::state::Shared;
use crate::store::{self, side_id, Submission, User};

/// One game of a submission: the other side, whether it was first, and its points once done.
#[derive(Clone, Debug)]
struct MyGame {
    other: String,
    points: Option<f64>,
    open: bool,
}

/// The games of `side` (not cancelled nor given up), in the order they were queued.
async fn games_of(state: &Shared, side: &str) -> Result<Vec<MyGame>, AppError> {
    let rows = sqlx::query(
        "SELECT j.side0, j.side1, j.state, r.outcome FROM jobs j LEFT JOIN results r ON r.job = j.id \
         WHERE j.competition = $1 AND j.kind = 'game' AND j.state NOT IN ('cancelled', 'failed') \
         AND (j.side0 = $2 OR j.side1 = $2) ORDER BY j.id",
    )
    .bind(state.competition)
    .bind(side)
    .fetch_all(state.db.pool())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let sides: [String; 2] = [row.try_get(0)?, row.try_get(1)?];
        let job_state: String = row.try_get(2)?;
        let outcome: Option<String> = row.try_get(3)?;
        let seat = usize::from(sides[1] == side);
        let points = outcome.and_then(|o| {
            let v: serde_json::Value = serde_json::from_str(&o).ok()?;
            // A game with no result counts as a draw here, so that placing goes on.
            Some(match v["winner"].as_u64() {
                Some(w) if w as usize == seat => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            })
        });
        out.push(MyGame {
            other: sides[1 - seat].clone(),
            open: job_state != "done",
            points,
        });
    }
    Ok(out)
}

/// Queues what the ladder and the leagues need now. Returns the games queued.
pub async fn tick(state: &Shared) -> Result<usize, AppError> {
    let ladder = state.contest.file.schedule.format == ContestFormat::Ladder;
    let leagues = !state.contest.file.leagues.is_empty();
    if !ladder && !leagues {
        return Ok(0);
    }
    let users: HashMap<i64, User> = store::users(&state.db)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let current = store::current_submissions(&state.db).await?;
    let promoted = promotions(state).await?;
    let mut queued = 0;
    for sub in &current {
        let Some(user) = users.get(&sub.user_id) else {
            continue;
        };
        let mine = games_of(state, &Submission::side(sub.id)).await?;
        if ladder {
            queued += ladder_step(state, (sub, user), &current, &users, &mine).await?;
        }
        if leagues {
            let done = promoted.get(&sub.user_id).copied().unwrap_or(0);
            queued += league_step(state, (sub, user), done, &mine).await?;
        }
    }
    if queued > 0 {
        state.wake_workers.notify_waiters();
    }
    Ok(queued)
}

/// The board's ratings of every current submission but `me`'s student's.
fn pool(state: &Shared, me: &Submission) -> Vec<Rated> {
    state
        .board()
        .rows
        .iter()
        .filter(|r| r.user_id != me.user_id)
        .map(|r| Rated {
            id: r.submission,
            elo: r.elo,
            ci95: r.elo_ci95,
        })
        .collect()
}

/// Where a submission stands on the ladder: its own estimate against the board's ratings.
pub fn placing(pool: &[Rated], mine: &[(i64, f64)]) -> ladder::Estimate {
    let games: Vec<Game> = mine
        .iter()
        .map(|&(opponent, score)| Game { opponent, score })
        .collect();
    ladder::estimate(&games, pool)
}

async fn ladder_step(
    state: &Shared,
    me: (&Submission, &User),
    current: &[Submission],
    users: &HashMap<i64, User>,
    mine: &[MyGame],
) -> Result<usize, AppError> {
    let student: Vec<&MyGame> = mine
        .iter()
        .filter(|g| side_id(&g.other).is_some())
        .collect();
    if student.iter().any(|g| g.open) {
        return Ok(0);
    }
    let pool = pool(state, me.0);
    if pool.is_empty() {
        return Ok(0);
    }
    let played: Vec<(i64, f64)> = student
        .iter()
        .filter_map(|g| Some((side_id(&g.other)?, g.points?)))
        .collect();
    let rules = state.contest.file.ladder_rules();
    let estimate = placing(&pool, &played);
    if ladder::settled(&estimate, &rules) {
        return Ok(0);
    }
    let games: Vec<Game> = played
        .iter()
        .map(|&(opponent, score)| Game { opponent, score })
        .collect();
    let seed = (me.0.id as u64).wrapping_mul(1_000_003) ^ played.len() as u64;
    let picks = ladder::pick(
        &estimate,
        &pool,
        &games,
        (rules.batch / 2) as usize,
        &rules,
        seed,
    );
    let mut new = Vec::new();
    for (k, id) in picks.into_iter().enumerate() {
        let Some(other) = current.iter().find(|s| s.id == id) else {
            continue;
        };
        let Some(them) = users.get(&other.user_id) else {
            continue;
        };
        // Each pick is a pair of games, colours swapped; pair numbers go on from the games
        // played, so openings and chance differ from pair to pair.
        let pair = played.len() / 2 + k;
        new.extend(crate::submissions::games_between(
            state,
            me,
            (other, them),
            pair..pair + 1,
        )?);
    }
    enqueue(state, &new).await
}

async fn enqueue(state: &Shared, new: &[NewJob]) -> Result<usize, AppError> {
    if new.is_empty() {
        return Ok(0);
    }
    let mut tx = state.db.begin().await?;
    jobs::enqueue(&state.db, &mut tx, state.competition, new).await?;
    tx.commit().await?;
    Ok(new.len())
}

/// The side name of league `k`'s boss.
pub fn boss_side(k: usize) -> String {
    format!("boss:{k}")
}

/// Each student's promotions (how many bosses beaten), from the settings the ticks write.
pub async fn promotions(state: &Shared) -> Result<HashMap<i64, usize>, AppError> {
    let keys: Vec<String> =
        sqlx::query_scalar("SELECT key FROM settings WHERE key LIKE 'league:%'")
            .fetch_all(state.db.pool())
            .await?;
    let mut out: HashMap<i64, usize> = HashMap::new();
    for key in keys {
        let mut parts = key.split(':').skip(1);
        let (Some(Ok(user)), Some(Ok(_league))) = (
            parts.next().map(str::parse::<i64>),
            parts.next().map(str::parse::<usize>),
        ) else {
            continue;
        };
        *out.entry(user).or_default() += 1;
    }
    Ok(out)
}

/// A submission's points against its league's boss, game by game (`None`: not finished).
fn boss_points(mine: &[MyGame], league: usize) -> Vec<Option<f64>> {
    let side = boss_side(league);
    mine.iter()
        .filter(|g| g.other == side)
        .map(|g| if g.open { None } else { g.points })
        .collect()
}

async fn league_step(
    state: &Shared,
    me: (&Submission, &User),
    promotions: usize,
    mine: &[MyGame],
) -> Result<usize, AppError> {
    let leagues = &state.contest.file.leagues;
    let k = league::league_of(promotions, leagues);
    let Some(boss) = leagues[k].boss.clone() else {
        return Ok(0);
    };
    let rule = state.contest.file.promotion_rule();
    let points = boss_points(mine, k);
    match league::judge(&rule, &points) {
        Standing::Promoted { .. } => {
            // Written once: the key names the student and the league they left.
            sqlx::query(
                "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
            )
            .bind(format!("league:{}:{k}", me.1.id))
            .bind(me.0.id.to_string())
            .execute(state.db.pool())
            .await?;
            state.board_changed();
            Ok(0)
        }
        Standing::Stays { .. } => Ok(0),
        Standing::Playing { queue, .. } => {
            let from = points.len();
            let mut new = Vec::new();
            for n in from..from + queue as usize {
                new.push(boss_job(state, me, k, &boss, n)?);
            }
            enqueue(state, &new).await
        }
    }
}

/// Game `n` of a submission against league `k`'s boss: the student moves first in even games.
fn boss_job(
    state: &Shared,
    me: (&Submission, &User),
    k: usize,
    boss: &str,
    n: usize,
) -> Result<NewJob, AppError> {
    let contest = &state.contest;
    let student = crate::submissions::job_bot(state, me)?;
    let name = format!("{} ({boss})", contest.file.leagues[k].name);
    let bot = JobBot {
        name,
        protocol: contest.game.protocol,
        run: Run::Builtin {
            spec: boss.to_string(),
        },
    };
    let first = n % 2 == 0;
    let (bots, sides) = if first {
        ([student, bot], [Submission::side(me.0.id), boss_side(k)])
    } else {
        ([bot, student], [boss_side(k), Submission::side(me.0.id)])
    };
    let openings = &contest.game.openings;
    let spec = GameJob {
        bots: bots.to_vec(),
        opening: if openings.is_empty() {
            Vec::new()
        } else {
            openings[(n / 2) % openings.len()].clone()
        },
        game: crate::submissions::pair_game(state, [-(k as i64) - 1, me.0.id], n / 2),
        event: Some(contest.file.name.clone()),
        seed: None,
    };
    Ok(NewJob {
        lane: format!("u{}", me.0.user_id),
        kind: JobKind::Game,
        spec: serde_json::to_string(&spec).map_err(anyhow::Error::from)?,
        sides,
        seats: Vec::new(),
        priority: 0,
    })
}

/// A student's league and where they stand against its boss, for the scoreboard.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize, PartialEq)]
pub struct LeagueStatus {
    pub league: usize,
    /// Against the boss: games finished, points, and the rule's games (or SPRT's most).
    pub games: u32,
    pub points: f64,
    pub of: u32,
    /// `playing`, `promoted` (this submission beat the league below's boss and now faces the
    /// next), `stays` (the boss was not beaten: a new submission tries again) or `top`.
    pub state: String,
}

/// Every current submission's league status, by submission id.
pub async fn league_statuses(state: &Shared) -> Result<HashMap<i64, LeagueStatus>, AppError> {
    let leagues = &state.contest.file.leagues;
    if leagues.is_empty() {
        return Ok(HashMap::new());
    }
    let rule = state.contest.file.promotion_rule();
    let promoted = promotions(state).await?;
    let mut out = HashMap::new();
    for sub in store::current_submissions(&state.db).await? {
        let k = league::league_of(promoted.get(&sub.user_id).copied().unwrap_or(0), leagues);
        let mine = games_of(state, &Submission::side(sub.id)).await?;
        let points = boss_points(&mine, k);
        let status = match (&leagues[k].boss, league::judge(&rule, &points)) {
            (None, _) => LeagueStatus {
                league: k,
                state: "top".into(),
                ..LeagueStatus::default()
            },
            (
                Some(_),
                Standing::Playing {
                    games, of, points, ..
                },
            ) => LeagueStatus {
                league: k,
                games,
                points,
                of,
                state: "playing".into(),
            },
            (Some(_), Standing::Promoted { games, points }) => LeagueStatus {
                league: k,
                games,
                points,
                of: rule.max_games(),
                state: "promoted".into(),
            },
            (Some(_), Standing::Stays { games, points }) => LeagueStatus {
                league: k,
                games,
                points,
                of: rule.max_games(),
                state: "stays".into(),
            },
        };
        out.insert(sub.id, status);
    }
    Ok(out)
}
