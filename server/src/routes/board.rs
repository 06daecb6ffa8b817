//! The scoreboard page.

use std::sync::Arc;

use askama::Template;
use axum::extract::State;
use axum::response::Response;

use crate::auth::Viewer;
use crate::error::AppError;
use crate::pages::{render, when, Layout};
use crate::scoreboard::{self, Board, BoardRow};
use crate::state::Shared;

#[derive(Template)]
#[template(path = "scoreboard.html")]
struct BoardPage {
    l: Layout,
    board: Arc<Board>,
    frozen: bool,
    updated: String,
    games_per_pairing: u32,
    /// A contest of tables: the games each table plays.
    games_per_table: usize,
    languages: std::collections::BTreeMap<String, String>,
    /// Just after the first sign-in's password change: say it worked, and what is next.
    welcome: bool,
    /// The promotion rule, with leagues.
    promotion: arbiter_tournament::league::Promotion,
}

#[derive(serde::Deserialize)]
pub struct BoardQuery {
    #[serde(default)]
    welcome: Option<String>,
}

impl BoardPage {
    fn language(&self, key: &str) -> String {
        self.languages
            .get(key)
            .cloned()
            .unwrap_or_else(|| key.to_string())
    }

    /// A contest of tables: how its games are scheduled and scored.
    fn table_rules(&self) -> String {
        let points: Vec<String> = self
            .board
            .points_per_place
            .iter()
            .map(|p| p.to_string())
            .collect();
        self.l.lang.ta(
            "board-rules-tables",
            &[
                ("seats", self.board.seats.into()),
                ("games", self.games_per_table.into()),
                ("points", points.join(" / ").into()),
            ],
        )
    }

    /// A row's places as "1st-2nd-3rd" counts: "4-1-1".
    fn places(&self, r: &BoardRow) -> String {
        let counts: Vec<String> = r.places.iter().map(u32::to_string).collect();
        counts.join("-")
    }

    /// The places column's title: "games finished 1st-2nd-3rd".
    fn places_title(&self) -> String {
        let names: Vec<String> = (1..=self.board.seats)
            .map(|k| self.l.lang.ta("place-nth", &[("n", k.into())]))
            .collect();
        self.l
            .lang
            .ta("board-places-title", &[("places", names.join("-").into())])
    }

    /// An Elo difference as a person reads it: "+12", "-7", and 0 (never "-0" or "+0").
    fn elo(&self, elo: &f64) -> String {
        signed(*elo)
    }

    /// The rows in showing order: with leagues, the top league's first (each in rank order).
    fn ordered(&self) -> Vec<&BoardRow> {
        let mut rows: Vec<&BoardRow> = self.board.rows.iter().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.league.as_ref().map_or(0, |l| l.league)));
        rows
    }

    /// The heading above row `k` of [`Self::ordered`] where a league starts: its name, its boss
    /// and what moving up takes.
    fn league_heading(&self, k: &usize) -> Option<String> {
        let rows = self.ordered();
        let league = |r: &BoardRow| r.league.as_ref().map(|l| l.league);
        let this = league(rows.get(*k)?)?;
        if *k > 0 && league(rows[*k - 1]) == Some(this) {
            return None;
        }
        let l = self.board.leagues.get(this)?;
        let head = match &l.boss {
            Some(boss) => format!(
                "{} · {}",
                l.name,
                self.l.t1("league-boss", "boss", boss.as_str())
            ),
            None => format!("{} · {}", l.name, self.l.t("league-top")),
        };
        Some(match self.needs(this) {
            Some(need) => format!("{head}. {need}"),
            None => head,
        })
    }

    /// What a student of league `k` needs to move up, in words; `None` in the top league.
    fn needs(&self, k: usize) -> Option<String> {
        use arbiter_tournament::league::Promotion;
        let boss = self.board.leagues.get(k)?.boss.clone()?;
        let next = self.board.leagues.get(k + 1)?.name.clone();
        Some(match self.promotion {
            Promotion::Score { games, share } => self.l.lang.ta(
                "league-need-score",
                &[
                    ("next", next.into()),
                    ("need", Promotion::points_needed(games, share).into()),
                    ("games", games.into()),
                    ("boss", boss.into()),
                ],
            ),
            Promotion::Sprt {
                elo0,
                elo1,
                max_games,
                ..
            } => self.l.lang.ta(
                "league-need-sprt",
                &[
                    ("next", next.into()),
                    ("boss", boss.into()),
                    ("elo0", elo0.into()),
                    ("elo1", elo1.into()),
                    ("max", max_games.into()),
                ],
            ),
        })
    }

    /// Where a row stands in its league, in words.
    fn league_state(&self, r: &BoardRow) -> String {
        let Some(s) = &r.league else {
            return String::new();
        };
        let args = |lang: &arbiter_i18n::Lang, key: &str| {
            lang.ta(
                key,
                &[
                    ("points", s.points.into()),
                    ("games", s.games.into()),
                    ("of", s.of.into()),
                ],
            )
        };
        let now = match s.state.as_str() {
            "top" => self.l.t("league-row-top"),
            "promoted" => args(&self.l.lang, "league-row-promoted"),
            "stays" => args(&self.l.lang, "league-row-stays"),
            _ => args(&self.l.lang, "league-row-playing"),
        };
        match s
            .league
            .checked_sub(1)
            .and_then(|k| self.board.leagues.get(k))
        {
            Some(below) => {
                let up = self.l.lang.ta(
                    "league-row-moved-up",
                    &[
                        ("from", below.name.as_str().into()),
                        ("boss", below.boss.clone().unwrap_or_default().into()),
                    ],
                );
                format!("{up}; {now}")
            }
            None => now,
        }
    }

    /// For a signed-in student on the board: their league and what moving up takes.
    fn my_league(&self) -> Option<String> {
        let user = self.l.user.as_ref()?;
        let row = self.board.rows.iter().find(|r| r.user_id == user.id)?;
        let s = row.league.as_ref()?;
        let name = self.board.leagues.get(s.league)?.name.clone();
        let mut text = match self.needs(s.league) {
            Some(need) => format!(
                "{} {need}",
                self.l.t1("league-you", "league", name.as_str())
            ),
            None => self.l.t1("league-you-top", "league", name.as_str()),
        };
        if let Some(below) = s
            .league
            .checked_sub(1)
            .and_then(|k| self.board.leagues.get(k))
        {
            let moved = self.l.lang.ta(
                "league-you-promoted",
                &[
                    ("from", below.name.as_str().into()),
                    ("boss", below.boss.clone().unwrap_or_default().into()),
                    ("league", name.as_str().into()),
                ],
            );
            text = format!("{moved} {text}");
        }
        Some(text)
    }
}

/// `x` rounded, with its sign, and a plain 0 when it rounds to zero.
pub fn signed(x: f64) -> String {
    let r = x.round();
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r:+.0}")
    }
}

pub async fn page(
    State(state): State<Shared>,
    Viewer(viewer): Viewer,
    axum::extract::Query(q): axum::extract::Query<BoardQuery>,
) -> Result<Response, AppError> {
    if !state.rules().scoreboard.public && viewer.is_none() {
        return Err(AppError::SignIn { next: "/".into() });
    }
    let admin = viewer.as_ref().is_some_and(|s| s.user.admin);
    let (board, frozen) = scoreboard::visible(&state, admin).await?;
    let languages = state
        .contest
        .file
        .languages
        .iter()
        .map(|(k, v)| (k.clone(), v.name.clone()))
        .collect();
    render(&BoardPage {
        languages,
        l: Layout::new(
            &state,
            viewer.as_ref(),
            crate::lang::t("board-title"),
            "scoreboard",
        ),
        updated: when(board.computed_at),
        board,
        frozen,
        games_per_pairing: state.contest.file.submissions.games_per_pairing,
        games_per_table: state.contest.games_per_table(),
        welcome: q.welcome.is_some(),
        promotion: state.contest.file.promotion_rule(),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn minus_zero_reads_zero() {
        assert_eq!(super::signed(-0.3), "0");
        assert_eq!(super::signed(0.4), "0");
        assert_eq!(super::signed(12.6), "+13");
        assert_eq!(super::signed(-7.0), "-7");
    }
}
