//! The scoreboard: each student's latest ready submission against the others', ranked by
//! seed 001's 3/1/0 match points, then game points, with Bradley-Terry Elo and its 95 %
//! interval. The arithmetic is the tournament report's (`arbiter_tournament::standings` and
//! `rating`), so a contest and a tournament rank the same games the same way.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use arbiter_queue::Db;
use arbiter_tournament::{rating, standings};
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::state::Shared;
use crate::store::{self, side_id, Submission, User};

/// A computed scoreboard.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Board {
    pub rows: Vec<BoardRow>,
    /// Games played and scheduled between the submissions on the board.
    pub games_done: usize,
    pub games_total: usize,
    /// When it was computed (Unix ms).
    pub computed_at: i64,
    /// Ranked by rating (a ladder), not by match points.
    #[serde(default)]
    pub by_rating: bool,
    /// The leagues' names and bosses, lowest first (`[[leagues]]`); empty without.
    #[serde(default)]
    pub leagues: Vec<arbiter_tournament::league::League>,
    /// The last result it includes.
    pub seq: i64,
    /// A contest of tables (a game of N > 2 seats): N, and the points of each place; 0 and
    /// empty for pairings.
    #[serde(default)]
    pub seats: usize,
    #[serde(default)]
    pub points_per_place: Vec<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BoardRow {
    pub rank: usize,
    pub user_id: i64,
    pub name: String,
    pub submission: i64,
    pub language: String,
    pub match_points: u32,
    pub matches_won: u32,
    pub matches_drawn: u32,
    pub matches_lost: u32,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub game_points: f64,
    pub elo: f64,
    pub elo_ci95: f64,
    /// Games already finished in pairings whose other games are still to play: not counted
    /// until the pairing is complete (one game of two says nothing of who won the pairing).
    #[serde(default)]
    pub pending: u32,
    /// With leagues: the student's league and where they stand against its boss.
    #[serde(default)]
    pub league: Option<crate::schedules::LeagueStatus>,
    /// At tables: `places[k]` is the games finished in place k + 1 (`game_points` the points
    /// they gave, `elo` and `elo_ci95` the Weng-Lin mu and its 95 % half-interval).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<u32>,
}

/// One finished game between two submissions.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    pub seats: [i64; 2],
    pub winner: Option<u8>,
    /// A game with no result (the game's rules failed, neither bot started): it completes its
    /// pairing but gives nobody anything, not half a point each.
    pub aborted: bool,
}

#[derive(Deserialize)]
struct WinnerOnly {
    winner: Option<u8>,
    #[serde(default)]
    reason: String,
}

/// Every finished game of the contest (results of game jobs).
pub async fn played(db: &Db, competition: i64) -> Result<(Vec<Played>, i64), sqlx::Error> {
    let rows = sqlx::query(
        "SELECT j.side0, j.side1, r.outcome, r.seq FROM results r JOIN jobs j ON j.id = r.job \
         WHERE r.competition = $1 AND j.kind = 'game'",
    )
    .bind(competition)
    .fetch_all(db.pool())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    let mut seq = 0;
    for row in rows {
        let s0: String = row.try_get(0)?;
        let s1: String = row.try_get(1)?;
        let outcome: String = row.try_get(2)?;
        seq = seq.max(row.try_get::<i64, _>(3)?);
        let (Some(a), Some(b)) = (side_id(&s0), side_id(&s1)) else {
            continue;
        };
        let Ok(w) = serde_json::from_str::<WinnerOnly>(&outcome) else {
            continue;
        };
        out.push(Played {
            seats: [a, b],
            winner: w.winner,
            aborted: w.reason == "aborted",
        });
    }
    Ok((out, seq))
}

/// Ranks the current submissions by the games among them. Pure: the benchmark and the tests
/// call it directly.
pub fn rank(current: &[(Submission, String)], games: &[Played], games_per_pairing: usize) -> Board {
    let index: HashMap<i64, usize> = current
        .iter()
        .enumerate()
        .map(|(i, (s, _))| (s.id, i))
        .collect();
    let keys: Vec<String> = current.iter().map(|(s, _)| format!("s{}", s.id)).collect();
    let seats = |g: &Played| Some((*index.get(&g.seats[0])?, *index.get(&g.seats[1])?));
    let pair = |a: usize, b: usize| (a.min(b), a.max(b));
    let mut per_pair: HashMap<(usize, usize), usize> = HashMap::new();
    for (a, b) in games.iter().filter_map(seats) {
        *per_pair.entry(pair(a, b)).or_default() += 1;
    }
    let mut pending = vec![0u32; current.len()];
    let mut outcomes = Vec::new();
    let mut no_result = 0;
    let mut results = rating::Results::new(current.len());
    for g in games {
        let Some((a, b)) = seats(g) else {
            continue;
        };
        if per_pair[&pair(a, b)] < games_per_pairing {
            pending[a] += 1;
            pending[b] += 1;
            continue;
        }
        if g.aborted {
            no_result += 1;
            continue;
        }
        outcomes.push(standings::Outcome {
            seats: [keys[a].clone(), keys[b].clone()],
            winner: g.winner.map(usize::from),
            leg: 1,
        });
        let score_a = match g.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        results.add(a, b, score_a);
    }
    let table = standings::compute(&keys, &outcomes);
    let fit = (current.len() >= 2).then(|| rating::fit(&results, 1.0));
    let by_key: BTreeMap<&str, usize> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let rows = table
        .rows
        .iter()
        .filter_map(|r| {
            let i = *by_key.get(r.bot.as_str())?;
            let (sub, name) = &current[i];
            Some(BoardRow {
                rank: r.rank,
                user_id: sub.user_id,
                name: name.clone(),
                submission: sub.id,
                language: sub.language.clone(),
                match_points: r.match_points,
                matches_won: r.matches_won,
                matches_drawn: r.matches_drawn,
                matches_lost: r.matches_lost,
                games: r.games,
                wins: r.wins,
                draws: r.draws,
                losses: r.losses,
                game_points: r.game_points,
                elo: fit.as_ref().map_or(0.0, |f| f.elo[i]),
                elo_ci95: fit.as_ref().map_or(0.0, |f| f.ci95[i]),
                pending: pending[i],
                league: None,
                places: Vec::new(),
            })
        })
        .collect();
    let n = current.len();
    Board {
        rows,
        games_done: outcomes.len() + no_result + pending.iter().sum::<u32>() as usize / 2,
        games_total: n * n.saturating_sub(1) / 2 * games_per_pairing,
        computed_at: 0,
        seq: 0,
        by_rating: false,
        leagues: Vec::new(),
        seats: 0,
        points_per_place: Vec::new(),
    }
}

/// A ladder's board: every game counts at once (pairs vary in length), and the rows are
/// ranked by rating.
pub fn rank_by_rating(current: &[(Submission, String)], games: &[Played]) -> Board {
    let mut board = rank(current, games, 1);
    board.rows.sort_by(|a, b| {
        b.elo
            .total_cmp(&a.elo)
            .then(a.submission.cmp(&b.submission))
    });
    for (k, r) in board.rows.iter_mut().enumerate() {
        r.rank = k + 1;
    }
    board.games_total = board.games_done;
    board.by_rating = true;
    board
}

/// Recomputes the board from the database.
pub async fn compute(state: &Shared) -> Result<Board, sqlx::Error> {
    if state.contest.seats > 2 {
        return crate::tables::compute_board(state).await;
    }
    let gpp = state.contest.file.submissions.games_per_pairing as usize;
    let ladder = state.contest.file.schedule.format == crate::config::ContestFormat::Ladder;
    // 0 games a pairing: ranked by rating (a ladder).
    let mut board =
        compute_from(&state.db, state.competition, if ladder { 0 } else { gpp }).await?;
    let leagues = &state.contest.file.leagues;
    if !leagues.is_empty() {
        let statuses = crate::schedules::league_statuses(state)
            .await
            .map_err(|e| sqlx::Error::Protocol(format!("leagues: {e}")))?;
        for r in &mut board.rows {
            r.league = statuses.get(&r.submission).cloned();
        }
        board.leagues = leagues.clone();
    }
    Ok(board)
}

/// [`compute`] from a database alone (the benchmark's entry point); `gpp` 0 ranks by rating.
pub async fn compute_from(db: &Db, competition: i64, gpp: usize) -> Result<Board, sqlx::Error> {
    let named = named_current(db).await?;
    let (games, seq) = played(db, competition).await?;
    let now = db.now_ms().await?;
    let mut board = tokio::task::spawn_blocking(move || match gpp {
        0 => rank_by_rating(&named, &games),
        gpp => rank(&named, &games, gpp),
    })
    .await
    .map_err(|e| sqlx::Error::Protocol(format!("scoreboard task: {e}")))?;
    board.computed_at = now;
    board.seq = seq;
    Ok(board)
}

/// The current submissions, each with its student's name as the board shows it.
pub async fn named_current(db: &Db) -> Result<Vec<(Submission, String)>, sqlx::Error> {
    let current = store::current_submissions(db).await?;
    let users: HashMap<i64, User> = store::users(db)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    Ok(current
        .into_iter()
        .map(|s| {
            let name = users
                .get(&s.user_id)
                .map_or_else(|| "?".into(), |u| u.display().to_string());
            (s, name)
        })
        .collect())
}

/// The frozen board, when the TA froze it.
pub async fn frozen(state: &Shared) -> Result<Option<Board>, sqlx::Error> {
    Ok(store::setting(&state.db, "frozen_board")
        .await?
        .and_then(|text| serde_json::from_str(&text).ok()))
}

pub async fn freeze(state: &Shared) -> Result<(), sqlx::Error> {
    let board = state.board();
    let text = serde_json::to_string(&*board).unwrap_or_default();
    store::set_setting(&state.db, "frozen_board", &text).await
}

pub async fn unfreeze(state: &Shared) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM settings WHERE key = 'frozen_board'")
        .execute(state.db.pool())
        .await?;
    Ok(())
}

/// Keeps the cached board current: recomputes when a result arrives (woken by the
/// reconciler) or, for results committed by remote workers, when a poll sees a new one.
pub async fn refresh_loop(state: Shared) {
    let mut last_seen = (-1i64, usize::MAX, u64::MAX);
    loop {
        let (seq, ready) = signature(&state).await.unwrap_or((0, 0));
        let generation = state
            .board_generation
            .load(std::sync::atomic::Ordering::Relaxed);
        let signature = (seq, ready, generation);
        if signature != last_seen {
            match compute(&state).await {
                Ok(board) => {
                    state.set_board(board);
                    last_seen = signature;
                }
                Err(e) => eprintln!("warning: scoreboard: {e}"),
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(2)) => {}
            _ = state.wake_board.notified() => {
                // Results come in bursts: let a few more land before recomputing.
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// Changes when a result arrives or a submission becomes ready (other changes, such as a
/// nickname, bump `board_generation`).
async fn signature(state: &Shared) -> Result<(i64, usize), sqlx::Error> {
    let row = sqlx::query(
        "SELECT COALESCE(MAX(seq), 0), (SELECT COUNT(*) FROM submissions WHERE status = 'ready') \
         FROM results WHERE competition = $1",
    )
    .bind(state.competition)
    .fetch_one(state.db.pool())
    .await?;
    Ok((row.try_get(0)?, row.try_get::<i64, _>(1)? as usize))
}

/// For handlers: the board a viewer may see (the frozen one unless course staff).
pub async fn visible(state: &Shared, admin: bool) -> Result<(Arc<Board>, bool), sqlx::Error> {
    if !admin {
        if let Some(b) = frozen(state).await? {
            return Ok((Arc::new(b), true));
        }
    }
    Ok((state.board(), false))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A ready submission of student `id`, named `u<id>`.
    pub(crate) fn sub(id: i64) -> (Submission, String) {
        let s = Submission {
            id,
            user_id: id,
            language: "c".into(),
            file_name: "main.c".into(),
            size: 1,
            status: "ready".into(),
            compile_job: None,
            artefact: None,
            run: None,
            compile_ms: None,
            created_at: 0,
            ready_at: None,
        };
        (s, format!("u{id}"))
    }

    fn game(a: i64, b: i64, winner: u8) -> Played {
        Played {
            seats: [a, b],
            winner: Some(winner),
            aborted: false,
        }
    }

    #[test]
    fn a_game_with_no_result_completes_its_pairing_but_gives_nobody_points() {
        let current = [sub(1), sub(2)];
        let aborted = Played {
            seats: [2, 1],
            winner: None,
            aborted: true,
        };
        let board = rank(&current, &[game(1, 2, 0), aborted], 2);
        let row = |id: i64| board.rows.iter().find(|r| r.submission == id).expect("row");
        assert_eq!(row(1).pending, 0);
        assert_eq!(row(1).games, 1, "the aborted game is not counted");
        assert_eq!(row(1).draws, 0);
        assert_eq!(row(1).matches_won, 1);
        assert_eq!(row(2).matches_lost, 1);
        assert_eq!(row(2).draws, 0);
        assert_eq!(board.games_done, 2);
    }

    #[test]
    fn a_pairing_counts_only_once_all_its_games_are_done() {
        let current = [sub(1), sub(2), sub(3)];
        // 1 beat 2 in the first of their two games; 1 and 3 played both of theirs.
        let games = [game(1, 2, 0), game(1, 3, 0), game(3, 1, 1)];
        let board = rank(&current, &games, 2);
        let row = |id: i64| board.rows.iter().find(|r| r.submission == id).expect("row");
        assert_eq!(row(1).matches_won, 1, "only the pairing with 3 is complete");
        assert_eq!(row(1).games, 2);
        assert_eq!(row(1).pending, 1);
        assert_eq!(row(2).matches_lost, 0);
        assert_eq!(row(2).games, 0);
        assert_eq!(row(2).pending, 1);
        assert_eq!(row(3).pending, 0);
        assert_eq!(board.games_done, 3);
        assert_eq!(board.games_total, 6);
    }
}
