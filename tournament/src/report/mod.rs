//! Everything a report shows, computed once from the database, and its renderings: a terminal
//! table, JSON, CSV and a static HTML site.

pub mod bracket;
pub mod html;
pub mod publish;
pub mod tables;
pub mod terminal;

use serde::Serialize;

use super::config::Format;
use super::rating::{self, Results};
use super::standings::{self, Outcome, Standings};
use super::stats::{self, BotStats};
use super::store::{GameRow, Version};
use super::Tournament;

#[derive(Clone, Debug, Serialize)]
pub struct RatingRow {
    pub bot: String,
    pub elo: f64,
    pub ci95: f64,
    pub games: u32,
    /// Glicko-2 rating and deviation (games applied in schedule order).
    pub glicko2: f64,
    pub glicko2_rd: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub name: Option<String>,
    pub game: arbiter_engine::any::GameConfig,
    pub format: Format,
    pub games_per_pairing: usize,
    pub seed: u64,
    /// Games between latest versions: all, finished, still to play.
    pub scheduled: usize,
    pub done: usize,
    pub pending: usize,
    pub bots: Vec<Version>,
    pub standings: Standings,
    /// In standings order.
    pub ratings: Vec<RatingRow>,
    /// Likelihood of superiority in `standings.bots` order: `los[i][j]` = P(i stronger than j).
    pub los: Vec<Vec<f64>>,
    pub stats: Vec<BotStats>,
    pub games: Vec<GameRow>,
    /// What happened to the judging: workers paused by quarantine, with why (tournaments
    /// played through the job queue).
    pub judging: Vec<String>,
    /// A staged format's stages (Swiss tables, groups, brackets), in order; empty otherwise.
    pub stages: Vec<crate::staged::StageReport>,
    /// A game of N > 2 seats: its tables, places, points and Weng-Lin ratings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tables: Option<tables::TablesReport>,
    /// The tournament's directories on this machine, the config's first: a published site
    /// shows paths relative to them, never them.
    #[serde(skip)]
    pub dirs: Vec<std::path::PathBuf>,
}

impl Report {
    pub fn build(t: &Tournament) -> anyhow::Result<Report> {
        let bots = t.store.latest_versions()?;
        let names: Vec<String> = bots.iter().map(|v| v.bot.clone()).collect();
        let games = t.store.games(None)?;
        let done: Vec<GameRow> = games
            .iter()
            .filter(|g| g.result.is_some())
            .cloned()
            .collect();
        // Games with no result (aborted) are listed, but give nobody points or rating.
        let counted: Vec<GameRow> = done
            .iter()
            .filter(|g| g.result.as_ref().is_some_and(|r| r.counts()))
            .cloned()
            .collect();
        let outcomes = Outcome::from_rows(&counted);
        let standings = standings::compute(&names, &outcomes);
        let mut results = Results::new(names.len());
        let mut sequence = Vec::new();
        let mut by_id: Vec<&GameRow> = counted.iter().collect();
        by_id.sort_by_key(|g| g.id);
        for g in by_id {
            let (Some(a), Some(b), Some(r)) = (
                names.iter().position(|n| *n == g.seats[0]),
                names.iter().position(|n| *n == g.seats[1]),
                g.result.as_ref(),
            ) else {
                continue;
            };
            let s = match r.winner {
                None => 0.5,
                Some(0) => 1.0,
                Some(_) => 0.0,
            };
            sequence.push((a, b, s));
        }
        let glicko = rating::glicko2(names.len(), &sequence);
        for o in &outcomes {
            let (Some(a), Some(b)) = (
                names.iter().position(|n| *n == o.seats[0]),
                names.iter().position(|n| *n == o.seats[1]),
            ) else {
                continue;
            };
            let s = match o.winner {
                None => 0.5,
                Some(0) => 1.0,
                Some(_) => 0.0,
            };
            results.add(a, b, s);
        }
        let fit = rating::fit(&results, 1.0);
        let ratings = standings
            .rows
            .iter()
            .filter_map(|row| {
                let i = names.iter().position(|n| *n == row.bot)?;
                Some(RatingRow {
                    bot: row.bot.clone(),
                    elo: terminal::tidy(fit.elo.get(i).copied().unwrap_or(0.0)),
                    ci95: fit.ci95.get(i).copied().unwrap_or(0.0),
                    games: row.games,
                    glicko2: glicko.get(i).map_or(1500.0, |g| g.0),
                    glicko2_rd: glicko.get(i).map_or(350.0, |g| g.1),
                })
            })
            .collect();
        let stats = stats::compute(&names, &done);
        let seats = t.resolved.seats;
        let tables = (seats > 2)
            .then(|| -> anyhow::Result<tables::TablesReport> {
                Ok(tables::TablesReport::build(
                    &names,
                    seats,
                    crate::tables::games_per_table(&t.resolved.file, seats),
                    &crate::tables::points_per_place(&t.resolved.file, seats),
                    t.store.table_games(None)?,
                ))
            })
            .transpose()?;
        let (scheduled, done_count) = match &tables {
            Some(x) => (x.games.len(), x.done()),
            None => (games.len(), done.len()),
        };
        Ok(Report {
            name: t.resolved.file.name.clone(),
            game: t.resolved.game.clone(),
            format: t.resolved.file.format,
            games_per_pairing: t.resolved.file.games_per_pairing,
            seed: t.resolved.file.seed,
            scheduled,
            done: done_count,
            pending: scheduled - done_count,
            tables,
            bots,
            standings,
            ratings,
            los: fit.los,
            stats,
            games,
            stages: crate::staged::report(&t.store, &t.resolved)?,
            judging: match t.store.meta(crate::queued::QUARANTINE_META)? {
                Some(text) => serde_json::from_str(&text).unwrap_or_default(),
                None => Vec::new(),
            },
            dirs: std::iter::once(t.resolved.base_dir.clone())
                .chain(std::iter::once(t.resolved.output.clone()))
                .chain(
                    t.store
                        .all_versions()?
                        .into_iter()
                        .filter_map(|v| v.dir.map(|d| t.resolved.base_dir.join(d))),
                )
                .collect(),
        })
    }

    pub fn rating_of(&self, bot: &str) -> Option<&RatingRow> {
        self.ratings.iter().find(|r| r.bot == bot)
    }

    pub fn version_of(&self, bot: &str) -> i64 {
        self.bots
            .iter()
            .find(|v| v.bot == bot)
            .map_or(0, |v| v.version)
    }

    /// The standings as CSV (one row per bot, in rank order).
    pub fn standings_csv(&self) -> String {
        let mut out = String::from(
            "rank,bot,version,match_points,matches_won,matches_drawn,matches_lost,games,wins,draws,losses,game_points,elo,elo_ci95,glicko2,glicko2_rd\n",
        );
        for r in &self.standings.rows {
            let (elo, ci, g, rd) = self
                .rating_of(&r.bot)
                .map_or((0.0, 0.0, 1500.0, 350.0), |x| {
                    (x.elo, x.ci95, x.glicko2, x.glicko2_rd)
                });
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{},{:.1},{:.1},{:.1},{:.1}\n",
                r.rank,
                csv_field(&r.bot),
                self.version_of(&r.bot),
                r.match_points,
                r.matches_won,
                r.matches_drawn,
                r.matches_lost,
                r.games,
                r.wins,
                r.draws,
                r.losses,
                r.game_points,
                elo,
                ci,
                g,
                rd
            ));
        }
        out
    }

    /// Every game as CSV: `game` is its number on the site (stable across resubmissions), `id`
    /// its row in the database.
    pub fn games_csv(&self) -> String {
        let mut out = String::from(
            "game,id,first,second,leg,number,opening,state,winner,reason_code,reason,moves,first_ms,second_ms,wall_ms,replay\n",
        );
        for g in &self.games {
            let r = g.result.as_ref();
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                g.slot,
                g.id,
                csv_field(&g.seats[0]),
                csv_field(&g.seats[1]),
                g.leg,
                g.number,
                g.opening.map(|o| o.to_string()).unwrap_or_default(),
                g.state,
                r.map(|r| match r.winner {
                    Some(w) => csv_field(&g.seats[usize::from(w).min(1)]),
                    None => "draw".into(),
                })
                .unwrap_or_default(),
                r.map(|r| r.reason_code.clone()).unwrap_or_default(),
                r.map(|r| csv_field(&r.reason)).unwrap_or_default(),
                r.map(|r| r.moves.to_string()).unwrap_or_default(),
                r.map(|r| format!("{:.1}", r.think_ms[0]))
                    .unwrap_or_default(),
                r.map(|r| format!("{:.1}", r.think_ms[1]))
                    .unwrap_or_default(),
                r.map(|r| format!("{:.1}", r.wall_ms)).unwrap_or_default(),
                r.and_then(|r| r.replay.clone()).unwrap_or_default(),
            ));
        }
        out
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
