//! A contest on a game of N > 2 seats: students play at tables of N. When a submission is
//! ready it gets a table with every (N-1)-set of the other students' current submissions that
//! it has no table with yet, so that every N-set of current submissions sits at exactly one
//! table (as every pair plays one pairing in a game of two seats). A table plays
//! `games_per_table` games, its students rotated through the seats (game g puts the table's
//! k-th submission, by id, in seat (k + g) mod N), so each sits in every seat equally often.
//! The games of one round of N rotations see the same chance.
//!
//! A course of many students would make many tables (C(S-1, N-1) a submission): beyond
//! [`MAX_TABLES_PER_SUBMISSION`] a submission gets that many of them, chosen by a seeded draw
//! from the site's secret (the same on a restart, so nothing is queued twice).

use std::collections::{BTreeSet, HashMap, HashSet};

use arbiter_queue::jobs::{self, JobKind, NewJob, INVOLVES};
use arbiter_queue::spec::GameJob;
use arbiter_tournament::tables::{binomial, combinations, seat_order};
use rand::SeedableRng;
use sqlx::Row;

use crate::error::AppError;
use crate::state::Shared;
use crate::store::{self, side_id, Submission, User};

/// The most tables one submission is given (module docs).
pub const MAX_TABLES_PER_SUBMISSION: usize = 500;

/// Every seat of each game job involving `side` that satisfies `more` (SQL on `j`), as
/// submission ids in seat order, by job id.
pub async fn seats_of_jobs(
    state: &Shared,
    side: &str,
    more: &str,
) -> Result<HashMap<i64, Vec<i64>>, AppError> {
    let rows = sqlx::query(&format!(
        "SELECT t.job, t.seat, t.side FROM job_seats t JOIN jobs j ON j.id = t.job \
         WHERE j.competition = $1 AND j.kind = 'game' AND {INVOLVES} {more} \
         ORDER BY t.job, t.seat"
    ))
    .bind(state.competition)
    .bind(side)
    .fetch_all(state.db.pool())
    .await?;
    let mut out: HashMap<i64, Vec<i64>> = HashMap::new();
    for r in rows {
        let job: i64 = r.try_get(0)?;
        let s: String = r.try_get(2)?;
        out.entry(job).or_default().push(side_id(&s).unwrap_or(0));
    }
    Ok(out)
}

/// The tables (sorted submission ids) `sub` already sits at, cancelled ones left out.
async fn tables_of(state: &Shared, sub: i64) -> Result<HashSet<Vec<i64>>, AppError> {
    let seats = seats_of_jobs(state, &Submission::side(sub), "AND j.state <> 'cancelled'").await?;
    Ok(seats
        .into_values()
        .map(|mut ids| {
            ids.sort_unstable();
            ids
        })
        .collect())
}

/// The (N-1)-sets of `others` (indices) a submission is to sit with: all of them, or a draw
/// of [`MAX_TABLES_PER_SUBMISSION`] seeded by `seed` when there are more.
fn companions(seed: u64, others: usize, n: usize) -> Vec<Vec<usize>> {
    if binomial(others, n - 1) <= MAX_TABLES_PER_SUBMISSION as u128 {
        return combinations(others, n - 1);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut picked = BTreeSet::new();
    for _ in 0..MAX_TABLES_PER_SUBMISSION * 20 {
        if picked.len() == MAX_TABLES_PER_SUBMISSION {
            break;
        }
        let mut set = rand::seq::index::sample(&mut rng, others, n - 1).into_vec();
        set.sort_unstable();
        picked.insert(set);
    }
    picked.into_iter().collect()
}

/// Of `tables` (each its submission ids, ascending), those not in `have`, so many that the
/// submission sits at no more than [`MAX_TABLES_PER_SUBMISSION`] in all: a draw made again
/// after others submitted picks other sets, and must not add 500 more each time.
fn missing(tables: Vec<Vec<i64>>, have: &HashSet<Vec<i64>>) -> Vec<Vec<i64>> {
    let room = MAX_TABLES_PER_SUBMISSION.saturating_sub(have.len());
    tables
        .into_iter()
        .filter(|t| !have.contains(t))
        .take(room)
        .collect()
}

/// Queues the tables a ready submission is missing (module docs). Safe to call again.
pub async fn schedule_missing(state: &Shared, sub: &Submission) -> Result<(), AppError> {
    let n = state.contest.seats;
    let users: HashMap<i64, User> = store::users(&state.db)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    if users.get(&sub.user_id).is_none_or(|u| u.disqualified) {
        return Ok(());
    }
    let others: Vec<Submission> = store::current_submissions(&state.db)
        .await?
        .into_iter()
        .filter(|s| s.user_id != sub.user_id && users.contains_key(&s.user_id))
        .collect();
    if others.len() + 1 < n {
        return Ok(());
    }
    let have = tables_of(state, sub.id).await?;
    let seed = crate::auth::secret_u64(&state.secret, &format!("tables of {}", sub.id));
    let tables = companions(seed, others.len(), n).into_iter().map(|set| {
        let mut ids: Vec<i64> = set.iter().map(|&k| others[k].id).collect();
        ids.push(sub.id);
        ids.sort_unstable();
        ids
    });
    let by_id: HashMap<i64, &Submission> = others.iter().chain([sub]).map(|s| (s.id, s)).collect();
    let mut new_jobs = Vec::new();
    for ids in missing(tables.collect(), &have) {
        let seated: Vec<(&Submission, &User)> = ids
            .iter()
            .map(|id| (by_id[id], &users[&by_id[id].user_id]))
            .collect();
        new_jobs.extend(table_jobs(state, sub.user_id, &seated)?);
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

/// The chance of round `round` of the table of submissions `ids` (ascending), from the site's
/// secret as a pairing's is (`crate::submissions::pair_game`).
fn table_game(
    state: &Shared,
    ids: &[i64],
    round: usize,
) -> Option<arbiter_engine::any::GameConfig> {
    let game = &state.contest.game.game;
    let base = game.chance_seed()?;
    let list: Vec<String> = ids.iter().map(i64::to_string).collect();
    let what = format!("table seed {base} {} {round}", list.join(" "));
    Some(game.with_chance_seed(crate::auth::secret_u64(&state.secret, &what)))
}

/// The games of one table (its submissions by id), queued in the lane of student `lane`.
fn table_jobs(
    state: &Shared,
    lane: i64,
    table: &[(&Submission, &User)],
) -> Result<Vec<NewJob>, AppError> {
    let n = table.len();
    let ids: Vec<i64> = table.iter().map(|(s, _)| s.id).collect();
    let gpt = state.contest.games_per_table();
    let mut out = Vec::with_capacity(gpt);
    for g in 0..gpt {
        let seated = seat_order(table, g);
        let bots = seated
            .iter()
            .map(|&(s, u)| crate::submissions::job_bot(state, (s, u)))
            .collect::<Result<Vec<_>, _>>()?;
        let sides: Vec<String> = seated.iter().map(|(s, _)| Submission::side(s.id)).collect();
        let spec = GameJob {
            bots,
            opening: Vec::new(),
            game: table_game(state, &ids, g / n),
            event: Some(state.contest.file.name.clone()),
            seed: None,
        };
        out.push(NewJob {
            lane: format!("u{lane}"),
            kind: JobKind::Game,
            spec: serde_json::to_string(&spec).map_err(anyhow::Error::from)?,
            sides: [sides[0].clone(), sides[1].clone()],
            seats: sides,
            priority: 0,
        });
    }
    Ok(out)
}

/// One finished game at a table.
#[derive(Clone, Debug)]
pub struct PlayedTable {
    /// Submission ids in seat order.
    pub seats: Vec<i64>,
    /// Each seat's place (1 = first); `None` for a game with no result.
    pub places: Option<Vec<u32>>,
}

#[derive(serde::Deserialize)]
struct PlacesOnly {
    #[serde(default)]
    places: Option<Vec<u32>>,
    #[serde(default)]
    reason: String,
}

/// Every finished game at a table, in the order the results arrived, and the last result's
/// sequence number.
pub async fn played(
    db: &arbiter_queue::Db,
    competition: i64,
) -> Result<(Vec<PlayedTable>, i64), sqlx::Error> {
    let seat_rows = sqlx::query(
        "SELECT t.job, t.side FROM job_seats t JOIN jobs j ON j.id = t.job \
         WHERE j.competition = $1 AND j.kind = 'game' ORDER BY t.job, t.seat",
    )
    .bind(competition)
    .fetch_all(db.pool())
    .await?;
    let mut seats: HashMap<i64, Vec<i64>> = HashMap::new();
    for r in seat_rows {
        let side: String = r.try_get(1)?;
        seats
            .entry(r.try_get(0)?)
            .or_default()
            .push(side_id(&side).unwrap_or(0));
    }
    let rows = sqlx::query(
        "SELECT r.job, r.outcome, r.seq FROM results r JOIN jobs j ON j.id = r.job \
         WHERE r.competition = $1 AND j.kind = 'game' ORDER BY r.seq",
    )
    .bind(competition)
    .fetch_all(db.pool())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    let mut seq = 0;
    for row in rows {
        seq = seq.max(row.try_get::<i64, _>(2)?);
        let Some(at) = seats.get(&row.try_get::<i64, _>(0)?) else {
            continue;
        };
        let Ok(o) = serde_json::from_str::<PlacesOnly>(&row.try_get::<String, _>(1)?) else {
            continue;
        };
        let places = o
            .places
            .filter(|p| p.len() == at.len() && o.reason != "aborted");
        out.push(PlayedTable {
            seats: at.clone(),
            places,
        });
    }
    Ok((out, seq))
}

/// Ranks the current submissions by the games at their tables: points per place summed,
/// then the Weng-Lin rating. A table counts once all its `gpt` games are done (its seats
/// rotate: a part of them favours whoever sat in the better seats). Pure.
pub fn rank(
    current: &[(Submission, String)],
    games: &[PlayedTable],
    gpt: usize,
    per_place: &[f64],
) -> crate::scoreboard::Board {
    use crate::scoreboard::{Board, BoardRow};
    let n = per_place.len();
    let index: HashMap<i64, usize> = current
        .iter()
        .enumerate()
        .map(|(i, (s, _))| (s.id, i))
        .collect();
    let at = |g: &PlayedTable| -> Option<Vec<usize>> {
        g.seats.iter().map(|s| index.get(s).copied()).collect()
    };
    let key = |bots: &[usize]| {
        let mut k = bots.to_vec();
        k.sort_unstable();
        k
    };
    let mut per_table: HashMap<Vec<usize>, usize> = HashMap::new();
    for bots in games.iter().filter_map(at) {
        *per_table.entry(key(&bots)).or_default() += 1;
    }
    let mut rows: Vec<BoardRow> = current
        .iter()
        .map(|(s, name)| BoardRow {
            rank: 0,
            user_id: s.user_id,
            name: name.clone(),
            submission: s.id,
            language: s.language.clone(),
            match_points: 0,
            matches_won: 0,
            matches_drawn: 0,
            matches_lost: 0,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            game_points: 0.0,
            elo: 0.0,
            elo_ci95: 0.0,
            pending: 0,
            league: None,
            places: vec![0; n],
        })
        .collect();
    let (mut counted, mut no_result, mut pending) = (0, 0, 0);
    let mut placed = Vec::new();
    for g in games {
        let Some(bots) = at(g) else { continue };
        if per_table[&key(&bots)] < gpt {
            pending += 1;
            for &b in &bots {
                rows[b].pending += 1;
            }
            continue;
        }
        let Some(places) = &g.places else {
            no_result += 1;
            continue;
        };
        counted += 1;
        let points = arbiter_tournament::tables::points(places, per_place);
        for ((&b, &p), q) in bots.iter().zip(places).zip(points) {
            let row = &mut rows[b];
            row.games += 1;
            row.game_points += q;
            if let Some(x) = row.places.get_mut((p as usize).saturating_sub(1)) {
                *x += 1;
            }
        }
        placed.push((bots, places.clone()));
    }
    for (row, skill) in rows
        .iter_mut()
        .zip(arbiter_tournament::weng_lin::rate(current.len(), &placed))
    {
        row.wins = row.places.first().copied().unwrap_or(0);
        row.elo = skill.mu;
        row.elo_ci95 = arbiter_tournament::weng_lin::Z95 * skill.sigma;
    }
    rows.sort_by(|a, b| {
        b.game_points
            .total_cmp(&a.game_points)
            .then(b.elo.total_cmp(&a.elo))
            .then(a.submission.cmp(&b.submission))
    });
    for (k, row) in rows.iter_mut().enumerate() {
        row.rank = k + 1;
    }
    let tables = binomial(current.len(), n).min(usize::MAX as u128) as usize;
    Board {
        rows,
        games_done: counted + no_result + pending,
        games_total: tables.saturating_mul(gpt),
        seats: n,
        points_per_place: per_place.to_vec(),
        ..Board::default()
    }
}

/// The board of a contest of tables, from the database.
pub async fn compute_board(state: &Shared) -> Result<crate::scoreboard::Board, sqlx::Error> {
    let named = crate::scoreboard::named_current(&state.db).await?;
    let (games, seq) = played(&state.db, state.competition).await?;
    let now = state.db.now_ms().await?;
    let (gpt, per_place) = (
        state.contest.games_per_table(),
        state.contest.points_per_place(),
    );
    let mut board = tokio::task::spawn_blocking(move || rank(&named, &games, gpt, &per_place))
        .await
        .map_err(|e| sqlx::Error::Protocol(format!("scoreboard task: {e}")))?;
    board.computed_at = now;
    board.seq = seq;
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoreboard::tests::sub;

    fn game(seats: [i64; 3], places: [u32; 3]) -> PlayedTable {
        PlayedTable {
            seats: seats.to_vec(),
            places: Some(places.to_vec()),
        }
    }

    #[test]
    fn a_large_course_draws_500_tables_a_submission_over_everyone() {
        // 17 others at tables of 4: C(17, 3) = 680 sets, more than the 500 drawn.
        let drawn = companions(7, 17, 4);
        assert_eq!(drawn.len(), MAX_TABLES_PER_SUBMISSION);
        let distinct: HashSet<&Vec<usize>> = drawn.iter().collect();
        assert_eq!(distinct.len(), drawn.len(), "no table twice");
        assert!(drawn
            .iter()
            .all(|t| t.len() == 3 && t.windows(2).all(|w| w[0] < w[1]) && t[2] < 17));
        // Everyone is drawn about equally: 500 x 3 / 17 = 88 tables each.
        let mut count = [0usize; 17];
        for k in drawn.iter().flatten() {
            count[*k] += 1;
        }
        assert!(count.iter().all(|&c| (60..=120).contains(&c)), "{count:?}");
        assert_eq!(companions(7, 17, 4), drawn, "the same draw on a restart");
        assert_ne!(
            companions(8, 17, 4),
            drawn,
            "another submission, another draw"
        );
        // Under the bound, every set.
        assert_eq!(companions(7, 10, 4).len(), 120);
    }

    #[test]
    fn a_submission_never_sits_at_more_than_500_tables() {
        let table = |k: i64| vec![k, 1000];
        let have: HashSet<Vec<i64>> = (0..450).map(table).collect();
        // A draw made again after others submitted: 500 sets, 250 of them new.
        let drawn: Vec<Vec<i64>> = (200..700).map(table).collect();
        let added = missing(drawn, &have);
        assert_eq!(added.len(), 50, "up to 500 in all");
        assert!(added.iter().all(|t| !have.contains(t)));
        assert!(missing((0..10).map(table).collect(), &have).is_empty());
    }

    #[test]
    fn points_per_place_count_once_a_table_is_complete() {
        let current = [sub(1), sub(2), sub(3), sub(4)];
        let per_place = [3.0, 1.0, 0.0];
        // Table {1, 2, 3}: all three rotations, 1 first each time. Table {1, 2, 4}: one game.
        let games = [
            game([1, 2, 3], [1, 2, 3]),
            game([3, 1, 2], [3, 1, 2]),
            game([2, 3, 1], [2, 3, 1]),
            game([1, 2, 4], [3, 2, 1]),
        ];
        let board = rank(&current, &games, 3, &per_place);
        let row = |id: i64| board.rows.iter().find(|r| r.submission == id).expect("row");
        assert_eq!(row(1).game_points, 9.0);
        assert_eq!(row(1).places, vec![3, 0, 0]);
        assert_eq!(row(2).game_points, 3.0, "second three times");
        assert_eq!(row(3).places, vec![0, 0, 3]);
        assert_eq!(row(4).games, 0, "its table is not complete");
        assert_eq!(row(4).pending, 1);
        assert_eq!(row(1).pending, 1);
        assert_eq!(board.rows[0].submission, 1);
        assert!(row(1).elo > row(2).elo && row(2).elo > row(3).elo);
        assert!(row(1).elo_ci95 > 0.0);
        assert_eq!(board.games_done, 4);
        assert_eq!(board.games_total, 4 * 3, "C(4, 3) tables of 3 games");
    }

    #[test]
    fn a_shared_place_gives_each_its_points_and_no_result_gives_none() {
        let current = [sub(1), sub(2), sub(3)];
        let games = [
            // Dou Dizhu's peasants win together: both first.
            game([1, 2, 3], [2, 1, 1]),
            PlayedTable {
                seats: vec![3, 1, 2],
                places: None,
            },
            game([2, 3, 1], [1, 1, 2]),
        ];
        let board = rank(&current, &games, 3, &[2.0, 1.0, 0.0]);
        let row = |id: i64| board.rows.iter().find(|r| r.submission == id).expect("row");
        assert_eq!(row(1).game_points, 2.0, "second twice");
        assert_eq!(row(2).game_points, 4.0);
        assert_eq!(row(3).game_points, 4.0);
        assert_eq!(row(1).games, 2, "the game with no result is not counted");
        assert_eq!(board.games_done, 3);
    }

    #[test]
    fn a_table_of_a_former_submission_counts_for_nobody() {
        let current = [sub(1), sub(2), sub(4)];
        let games = [game([1, 2, 3], [1, 2, 3])];
        let board = rank(&current, &games, 1, &[2.0, 1.0, 0.0]);
        assert!(board.rows.iter().all(|r| r.games == 0 && r.pending == 0));
        assert_eq!(board.games_done, 0);
    }
}
