//! `arbiter contest export`: everything a course keeps after its contest, as plain files:
//! `standings.json`, `standings.csv`, `submissions.csv`, and `games/game-ID.json` (complete
//! replays: the export is for the course staff), with `modules/<sha256>.wasm` for a module
//! game's replays.

use std::path::Path;

use anyhow::Context;
use sqlx::Row;

use crate::state::Shared;
use crate::store;

/// The one field of a replay the export reads.
#[derive(serde::Deserialize)]
struct ReplayGame {
    game: arbiter_engine::any::GameConfig,
}

pub async fn export(state: &Shared, out: &Path) -> anyhow::Result<usize> {
    std::fs::create_dir_all(out.join("games"))
        .with_context(|| format!("cannot create {}", out.display()))?;
    let board = crate::scoreboard::compute(state).await?;
    std::fs::write(
        out.join("standings.json"),
        serde_json::to_string_pretty(&board)?,
    )?;
    let mut csv = csv::Writer::from_path(out.join("standings.csv"))?;
    csv.write_record([
        "rank",
        "student",
        "submission",
        "language",
        "match_points",
        "pairings_won",
        "pairings_drawn",
        "pairings_lost",
        "games",
        "wins",
        "draws",
        "losses",
        "game_points",
        "elo",
        "elo_ci95",
    ])?;
    for r in &board.rows {
        csv.write_record([
            r.rank.to_string(),
            r.name.clone(),
            r.submission.to_string(),
            r.language.clone(),
            r.match_points.to_string(),
            r.matches_won.to_string(),
            r.matches_drawn.to_string(),
            r.matches_lost.to_string(),
            r.games.to_string(),
            r.wins.to_string(),
            r.draws.to_string(),
            r.losses.to_string(),
            format!("{:.1}", r.game_points),
            format!("{:.1}", r.elo),
            format!("{:.1}", r.elo_ci95),
        ])?;
    }
    csv.flush()?;
    let users: std::collections::HashMap<i64, store::User> = store::users(&state.db)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let mut csv = csv::Writer::from_path(out.join("submissions.csv"))?;
    csv.write_record([
        "id",
        "login",
        "nickname",
        "language",
        "file_name",
        "size",
        "status",
        "created_at",
    ])?;
    for s in store::submissions(&state.db, None, i64::MAX).await? {
        let u = users.get(&s.user_id);
        csv.write_record([
            s.id.to_string(),
            u.map_or("", |u| u.login.as_str()).to_string(),
            u.and_then(|u| u.nickname.clone()).unwrap_or_default(),
            s.language,
            s.file_name,
            s.size.to_string(),
            s.status,
            crate::pages::when(s.created_at),
        ])?;
    }
    csv.flush()?;
    let games = sqlx::query(
        "SELECT r.job, j.number FROM results r JOIN jobs j ON j.id = r.job \
         WHERE r.competition = $1 AND j.kind = 'game' ORDER BY j.number",
    )
    .bind(state.competition)
    .fetch_all(state.db.pool())
    .await?;
    let mut n = 0;
    for game in games {
        let job: i64 = game.try_get(0)?;
        let number: i64 = game.try_get(1)?;
        if let Some(text) = arbiter_queue::worker::replay_text(&state.queue, job).await? {
            // A module game's replay plays in the player with modules/<sha256>.wasm beside it.
            if let Ok(head) = serde_json::from_str::<ReplayGame>(&text) {
                crate::modules::export(state, &head.game, out).await?;
            }
            std::fs::write(out.join("games").join(format!("game-{number}.json")), text)?;
            n += 1;
        }
    }
    Ok(n)
}
