//! Staged formats (Swiss, knockout, stages) on the tournament's store: after every finished
//! round, the next round's pairings are decided by the plain functions of [`crate::swiss`],
//! [`crate::knockout`] and [`crate::stages`] from the results stored so far, and stored with
//! their games in one transaction before any is played. A run killed at any point finds the
//! round it was playing stored, plays what is left of it, and decides nothing twice.
//!
//! Entrants of the first stage are the bots in the config's order (their seeding); each later
//! stage takes the best of the stage before by its final order.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::config::Resolved;
use crate::knockout::{Bracket, MatchRule, Outcome, Progress, Side};
use crate::queued::QueueOptions;
use crate::runner::{self, RunOptions, RunSummary};
use crate::schedule::{fnv, mix, Planned};
use crate::stages::{self, Stage, StageFormat};
use crate::standings::{self, Outcome as GameOutcome};
use crate::store::{GameRow, StageGame, Store};
use crate::swiss;

/// A stored round: what was decided, by entrant index (into `entrants`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundPlan {
    pub entrants: Vec<String>,
    /// A Swiss round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swiss: Option<swiss::Round>,
    /// Pairings of a round robin, or knockout matches given games: (pairing, sides, games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairings: Vec<(usize, [usize; 2], usize)>,
}

/// What [`advance`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advance {
    /// Games stored (0: the round in play is not finished, or nothing is left to play).
    pub added: usize,
    pub finished: bool,
}

/// One stage's games as the stage sees them.
struct StageView<'a> {
    k: usize,
    stage: &'a Stage,
    entrants: Vec<String>,
    games: Vec<(StageGame, &'a GameRow)>,
    rounds: Vec<(usize, RoundPlan)>,
    per: usize,
}

/// Where a stage is.
pub enum StageState {
    /// Decided: the entrants from best to worst.
    Done(Vec<usize>),
    /// The next round to store: its number, plan and games (pairing, number, seats).
    Next(usize, RoundPlan, Vec<(usize, usize, [usize; 2])>),
    /// Games still to play.
    Playing,
}

/// Stores the next round if the one in play is finished; says whether the tournament is over.
pub fn advance(store: &mut Store, r: &Resolved) -> anyhow::Result<Advance> {
    let Some(list) = r.file.stage_list() else {
        return Ok(Advance {
            added: 0,
            finished: true,
        });
    };
    let rows = store.games(None)?;
    let at = store.stage_games()?;
    let mut entrants: Vec<String> = r.file.bots.iter().map(|b| b.name.clone()).collect();
    for (k, stage) in list.iter().enumerate() {
        if let Some(a) = stage.advance {
            entrants.truncate(a);
        }
        let view = view(store, r, k, stage, entrants.clone(), &rows, &at)?;
        match view.state() {
            StageState::Playing => {
                return Ok(Advance {
                    added: 0,
                    finished: false,
                })
            }
            StageState::Next(round, plan, games) => {
                let planned = view.plan_games(r, round, &games);
                let text = serde_json::to_string(&plan)?;
                let versions = store.latest_versions()?;
                let added = store.add_stage_round(k, round, &text, &planned, &versions)?;
                return Ok(Advance {
                    added,
                    finished: false,
                });
            }
            StageState::Done(order) => {
                entrants = order.iter().map(|&i| view.entrants[i].clone()).collect();
            }
        }
    }
    Ok(Advance {
        added: 0,
        finished: true,
    })
}

/// Stores the next round under the runner's lock (released before its games are played,
/// which take it again).
fn advance_locked(store: &mut Store, r: &Resolved) -> anyhow::Result<Advance> {
    let _lock = runner::lock(&store.dir)?;
    advance(store, r)
}

/// Adds one run's figures to the whole's.
fn merge(total: &mut Option<RunSummary>, s: RunSummary) {
    match total {
        None => *total = Some(s),
        Some(t) => {
            t.played += s.played;
            t.pending_before += s.pending_before;
            t.wall += s.wall;
            t.concurrency = t.concurrency.max(s.concurrency);
            for w in s.warnings {
                if !t.warnings.contains(&w) {
                    t.warnings.push(w);
                }
            }
        }
    }
}

/// Plays a staged tournament on this machine: each round as [`runner::play_scheduled`]
/// plays scheduled games, then the next round, until the last stage is decided.
pub fn run(store: &mut Store, r: &Resolved, opts: &RunOptions) -> anyhow::Result<RunSummary> {
    let mut total = None;
    loop {
        let a = advance_locked(store, r)?;
        let s = runner::play_scheduled(store, r, opts)?;
        let idle = s.played == 0;
        merge(&mut total, s);
        // Done, or stopped by max_games (tests) with the round unfinished.
        if (a.finished || (a.added == 0 && idle)) || opts.max_games.is_some() {
            break;
        }
    }
    total.ok_or_else(|| anyhow::anyhow!("no round was played"))
}

/// [`run`] through the job queue ([`crate::queued`]).
pub async fn run_queued(
    store: &mut Store,
    r: &Resolved,
    opts: &QueueOptions,
) -> anyhow::Result<RunSummary> {
    let mut total = None;
    loop {
        let a = advance_locked(store, r)?;
        let s = crate::queued::play_scheduled(store, r, opts).await?;
        let idle = s.played == 0;
        merge(&mut total, s);
        if a.finished || (a.added == 0 && idle) {
            break;
        }
    }
    total.ok_or_else(|| anyhow::anyhow!("no round was played"))
}

fn view<'a>(
    store: &Store,
    r: &Resolved,
    k: usize,
    stage: &'a Stage,
    entrants: Vec<String>,
    rows: &'a [GameRow],
    at: &HashMap<i64, StageGame>,
) -> anyhow::Result<StageView<'a>> {
    let games = rows
        .iter()
        .filter_map(|g| at.get(&g.id).filter(|s| s.stage == k).map(|s| (*s, g)))
        .collect();
    let mut rounds = Vec::new();
    for (round, text) in store.stage_rounds(k)? {
        rounds.push((round, serde_json::from_str(&text)?));
    }
    Ok(StageView {
        k,
        stage,
        entrants,
        games,
        rounds,
        per: stage.games.unwrap_or(r.file.games_per_pairing).max(1),
    })
}

/// The points `name` scored in a finished game: 1, 1/2 or 0; `None` for a game with no result
/// or not finished.
fn points(g: &GameRow, name: &str) -> Option<f64> {
    let res = g.result.as_ref().filter(|r| r.counts())?;
    Some(match res.winner {
        None => 0.5,
        Some(w) if g.seats[usize::from(w).min(1)] == name => 1.0,
        Some(_) => 0.0,
    })
}

impl StageView<'_> {
    /// The stage's state; call it with no game of the stage left to play.
    fn state(&self) -> StageState {
        if self.games.iter().any(|(_, g)| g.result.is_none()) {
            return StageState::Playing;
        }
        match self.stage.format {
            StageFormat::Swiss => self.swiss_state(),
            StageFormat::RoundRobin | StageFormat::Groups => self.groups_state(),
            StageFormat::Knockout => self.knockout_state(),
        }
    }

    fn name(&self, i: usize) -> &str {
        &self.entrants[i]
    }

    /// The Swiss rounds played so far, and the byes.
    pub fn swiss_results(&self) -> (Vec<swiss::Played>, Vec<usize>) {
        let mut played = Vec::new();
        let mut byes = Vec::new();
        for (round, plan) in &self.rounds {
            let Some(sw) = &plan.swiss else { continue };
            byes.extend(sw.bye);
            for (board, p) in sw.pairings.iter().enumerate() {
                let mut pts = [0.0, 0.0];
                let mut games = 0;
                for (at, g) in &self.games {
                    if at.round != *round || at.pairing != board {
                        continue;
                    }
                    if let (Some(a), Some(b)) = (
                        points(g, self.name(p.first)),
                        points(g, self.name(p.second)),
                    ) {
                        pts[0] += a;
                        pts[1] += b;
                        games += 1;
                    }
                }
                played.push(swiss::Played {
                    round: *round,
                    first: p.first,
                    second: p.second,
                    points: pts,
                    games,
                });
            }
        }
        (played, byes)
    }

    fn swiss_state(&self) -> StageState {
        let n = self.entrants.len();
        let (played, byes) = self.swiss_results();
        let bye_points = self.per as f64;
        let rounds = self.stage.rounds.unwrap_or(1);
        if self.rounds.len() >= rounds {
            let rows = swiss::standings(n, &played, &byes, bye_points);
            return StageState::Done(rows.iter().map(|r| r.player).collect());
        }
        let round = swiss::pair_round(&swiss::players(n, &played, &byes, bye_points));
        let games = round
            .pairings
            .iter()
            .enumerate()
            .flat_map(|(board, p)| {
                (0..self.per).map(move |k| {
                    let seats = if MatchRule::first_side(k as u32) == 0 {
                        [p.first, p.second]
                    } else {
                        [p.second, p.first]
                    };
                    (board, k, seats)
                })
            })
            .collect();
        let plan = RoundPlan {
            entrants: self.entrants.clone(),
            swiss: Some(round),
            pairings: Vec::new(),
        };
        StageState::Next(self.rounds.len(), plan, games)
    }

    /// The groups (one for a round robin), each as entrant indices in seed order.
    pub fn groups(&self) -> Vec<Vec<usize>> {
        let all: Vec<usize> = (0..self.entrants.len()).collect();
        match self.stage.format {
            StageFormat::Groups => stages::deal(&all, self.stage.groups.unwrap_or(1)),
            _ => vec![all],
        }
    }

    /// Each group's standings (match points, then game points), from the stage's games.
    pub fn group_standings(&self) -> Vec<standings::Standings> {
        let outcomes: Vec<GameOutcome> = self
            .games
            .iter()
            .filter(|(_, g)| g.result.as_ref().is_some_and(|r| r.counts()))
            .map(|(at, g)| GameOutcome {
                seats: g.seats.clone(),
                winner: g.result.as_ref().and_then(|r| r.winner).map(usize::from),
                leg: at.round as i64,
            })
            .collect();
        self.groups()
            .iter()
            .map(|group| {
                let names: Vec<String> = group.iter().map(|&i| self.entrants[i].clone()).collect();
                standings::compute(&names, &outcomes)
            })
            .collect()
    }

    fn groups_state(&self) -> StageState {
        if !self.rounds.is_empty() {
            let index: HashMap<&str, usize> = self
                .entrants
                .iter()
                .enumerate()
                .map(|(i, n)| (n.as_str(), i))
                .collect();
            let orders: Vec<Vec<usize>> = self
                .group_standings()
                .iter()
                .map(|s| {
                    s.rows
                        .iter()
                        .filter_map(|r| index.get(r.bot.as_str()).copied())
                        .collect()
                })
                .collect();
            return StageState::Done(stages::after_groups(&orders));
        }
        let mut pairings = Vec::new();
        let mut games = Vec::new();
        for group in self.groups() {
            for (x, &a) in group.iter().enumerate() {
                for &b in &group[x + 1..] {
                    let p = pairings.len();
                    pairings.push((p, [a, b], self.per));
                    for k in 0..self.per {
                        let seats = if k % 2 == 0 { [a, b] } else { [b, a] };
                        games.push((p, k, seats));
                    }
                }
            }
        }
        let plan = RoundPlan {
            entrants: self.entrants.clone(),
            swiss: None,
            pairings,
        };
        StageState::Next(0, plan, games)
    }

    fn bracket(&self) -> Bracket {
        Bracket::new(self.entrants.len(), self.stage.elimination)
    }

    fn rule(&self) -> MatchRule {
        MatchRule {
            games: self.per as u32,
            extra_pairs: self.stage.extra_pairs,
        }
    }

    /// Each knockout match's games so far: side 0's points per game (`None`: not finished).
    fn match_points(&self, bracket: &Bracket) -> Vec<Vec<Option<f64>>> {
        let sides = self.sides_by_match();
        let mut out = vec![Vec::new(); bracket.matches.len()];
        let mut by_match: Vec<Vec<(usize, &GameRow)>> = vec![Vec::new(); bracket.matches.len()];
        for (at, g) in &self.games {
            if let Some(v) = by_match.get_mut(at.pairing) {
                v.push((at.number, g));
            }
        }
        for (m, games) in by_match.iter_mut().enumerate() {
            games.sort_by_key(|(n, _)| *n);
            let Some(&[a, _]) = sides.get(&m) else {
                continue;
            };
            out[m] = games
                .iter()
                .map(|(_, g)| {
                    // A game with no result counts as a draw in a match, so the match goes on.
                    g.result
                        .as_ref()
                        .map(|_| points(g, self.name(a)).unwrap_or(0.5))
                })
                .collect();
        }
        out
    }

    /// Each match's sides as stored when its games were first planned.
    fn sides_by_match(&self) -> HashMap<usize, [usize; 2]> {
        self.rounds
            .iter()
            .flat_map(|(_, plan)| plan.pairings.iter().map(|&(m, sides, _)| (m, sides)))
            .collect()
    }

    /// The bracket's winners so far (side 0 or 1 of each decided match) and each match's
    /// progress.
    pub fn knockout_results(&self) -> (Bracket, Vec<Option<usize>>, Vec<Option<Progress>>) {
        let bracket = self.bracket();
        let points = self.match_points(&bracket);
        let mut played = vec![None; bracket.matches.len()];
        let mut progress = vec![None; bracket.matches.len()];
        // Matches come in playing order: each decision may make later ones ready.
        for m in 0..bracket.matches.len() {
            let resolved = bracket.resolve(&played);
            let Outcome::Ready([a, b]) = resolved[m].1 else {
                continue;
            };
            let p = self.rule().progress(&points[m]);
            progress[m] = Some(p);
            if let Progress::Won { side, by_rule } = p {
                // Level after every extra pair: the better seed goes through.
                played[m] = Some(if by_rule { usize::from(b < a) } else { side });
            }
        }
        (bracket, played, progress)
    }

    fn knockout_state(&self) -> StageState {
        let (bracket, played, progress) = self.knockout_results();
        if bracket.champion(&played).is_some() {
            return StageState::Done(bracket.placement(&played));
        }
        let resolved = bracket.resolve(&played);
        let mut pairings = Vec::new();
        let mut games = Vec::new();
        let points = self.match_points(&bracket);
        for (m, p) in progress.iter().enumerate() {
            let (Some(Progress::Play(n)), Outcome::Ready(sides)) = (p, resolved[m].1) else {
                continue;
            };
            let from = points[m].len();
            pairings.push((m, sides, *n as usize));
            for k in from..from + *n as usize {
                let seats = if MatchRule::first_side(k as u32) == 0 {
                    sides
                } else {
                    [sides[1], sides[0]]
                };
                games.push((m, k, seats));
            }
        }
        if games.is_empty() {
            // Nothing ready and nothing decided: not reached with a whole bracket.
            return StageState::Playing;
        }
        let plan = RoundPlan {
            entrants: self.entrants.clone(),
            swiss: None,
            pairings,
        };
        StageState::Next(self.rounds.len(), plan, games)
    }

    /// The round's games as stored rows: keys name the stage, round, pairing and game.
    fn plan_games(
        &self,
        r: &Resolved,
        round: usize,
        games: &[(usize, usize, [usize; 2])],
    ) -> Vec<(Planned, StageGame)> {
        games
            .iter()
            .map(|&(pairing, number, seats)| {
                let names = [
                    self.entrants[seats[0]].clone(),
                    self.entrants[seats[1]].clone(),
                ];
                let series = round * self.per + number;
                let opening = (!r.openings.is_empty()).then(|| (series / 2) % r.openings.len());
                let mut p = Planned {
                    pair: names.clone(),
                    leg: (self.k * 10_000 + round) as u32,
                    number: number as u32,
                    seats: names,
                    opening,
                    config: r.game.for_game_of_series(series, 2),
                    order: 0,
                };
                // Within a round, games in pairing order (the top boards first).
                p.order = ((pairing as u64) << 20 | number as u64) << 8
                    | (mix(r.file.seed ^ fnv(&p.key())) & 0xff);
                let at = StageGame {
                    stage: self.k,
                    round,
                    pairing,
                    number,
                };
                (p, at)
            })
            .collect()
    }
}

/// A stage as a report shows it.
#[derive(Clone, Debug, Serialize)]
pub struct StageReport {
    pub stage: usize,
    pub format: StageFormat,
    pub entrants: Vec<String>,
    /// Rounds stored so far.
    pub rounds: usize,
    /// A Swiss's rounds in all.
    pub planned_rounds: usize,
    /// Games of a round, a pairing or a match; pairs of extra games of a level match.
    pub games: usize,
    pub extra_pairs: u32,
    /// The final order (names, best first) once the stage is decided.
    pub order: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub swiss: Vec<SwissRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<standings::Standings>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<MatchReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SwissRow {
    pub rank: usize,
    pub bot: String,
    pub score: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    pub head_to_head: f64,
    pub rounds: u32,
    pub byes: u32,
}

/// A knockout match on the bracket page.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    pub id: usize,
    pub part: crate::knockout::Part,
    pub round: usize,
    /// Names; `None` for a bye or a side not known yet (`pending`).
    pub sides: [Option<String>; 2],
    pub pending: [bool; 2],
    /// Points of each side over the match's finished games.
    pub points: [f64; 2],
    /// Side that went through, if decided.
    pub winner: Option<usize>,
    /// Level after every extra pair: the better seed went through.
    pub by_rule: bool,
    /// Games (numbers on the site) in order.
    pub games: Vec<i64>,
    pub not_played: bool,
}

/// Every stage's state, for reports.
pub fn report(store: &Store, r: &Resolved) -> anyhow::Result<Vec<StageReport>> {
    let Some(list) = r.file.stage_list() else {
        return Ok(Vec::new());
    };
    let rows = store.games(None)?;
    let at = store.stage_games()?;
    let mut entrants: Vec<String> = r.file.bots.iter().map(|b| b.name.clone()).collect();
    let mut out = Vec::new();
    for (k, stage) in list.iter().enumerate() {
        if let Some(a) = stage.advance {
            entrants.truncate(a);
        }
        let v = view(store, r, k, stage, entrants.clone(), &rows, &at)?;
        let order = match v.state() {
            StageState::Done(order) => Some(order.iter().map(|&i| v.entrants[i].clone()).collect()),
            _ => None,
        };
        let mut s = StageReport {
            stage: k,
            format: stage.format,
            entrants: v.entrants.clone(),
            rounds: v.rounds.len(),
            planned_rounds: stage.rounds.unwrap_or(0),
            games: v.per,
            extra_pairs: stage.extra_pairs,
            order: order.clone(),
            swiss: Vec::new(),
            groups: Vec::new(),
            matches: Vec::new(),
        };
        match stage.format {
            StageFormat::Swiss => s.swiss = v.swiss_rows(),
            StageFormat::RoundRobin | StageFormat::Groups => s.groups = v.group_standings(),
            StageFormat::Knockout => s.matches = v.match_reports(),
        }
        out.push(s);
        match order {
            Some(o) => entrants = o,
            None => break,
        }
    }
    Ok(out)
}

impl StageView<'_> {
    fn swiss_rows(&self) -> Vec<SwissRow> {
        let (played, byes) = self.swiss_results();
        swiss::standings(self.entrants.len(), &played, &byes, self.per as f64)
            .into_iter()
            .map(|r| SwissRow {
                rank: r.rank,
                bot: self.entrants[r.player].clone(),
                score: r.score,
                buchholz: r.buchholz,
                sonneborn_berger: r.sonneborn_berger,
                head_to_head: r.head_to_head,
                rounds: r.rounds,
                byes: r.byes,
            })
            .collect()
    }

    fn match_reports(&self) -> Vec<MatchReport> {
        let (bracket, played, progress) = self.knockout_results();
        let resolved = bracket.resolve(&played);
        let points = self.match_points(&bracket);
        let mut games: Vec<Vec<(usize, i64)>> = vec![Vec::new(); bracket.matches.len()];
        for (at, g) in &self.games {
            if let Some(v) = games.get_mut(at.pairing) {
                v.push((at.number, g.slot));
            }
        }
        bracket
            .matches
            .iter()
            .map(|m| {
                let (sides, outcome) = resolved[m.id];
                let name = |s: Side| match s {
                    Side::Entrant(e) => Some(self.entrants[e].clone()),
                    _ => None,
                };
                let mine: f64 = points[m.id].iter().flatten().sum();
                let done = points[m.id].iter().flatten().count() as f64;
                let mut g = games[m.id].clone();
                g.sort();
                MatchReport {
                    id: m.id,
                    part: m.part,
                    round: m.round,
                    sides: [name(sides[0]), name(sides[1])],
                    pending: [sides[0] == Side::Pending, sides[1] == Side::Pending],
                    points: [mine, done - mine],
                    winner: match outcome {
                        Outcome::Won(w) => Some(w),
                        _ => None,
                    },
                    by_rule: matches!(progress[m.id], Some(Progress::Won { by_rule: true, .. })),
                    games: g.into_iter().map(|(_, s)| s).collect(),
                    not_played: outcome == Outcome::NotPlayed,
                }
            })
            .collect()
    }
}
