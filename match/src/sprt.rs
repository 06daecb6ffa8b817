//! A match as a sequential probability ratio test: game pairs (one opening or one 2048 random
//! sequence, seats swapped) are counted as pentanomial outcomes for bot A, and the match stops
//! when the log-likelihood ratio reaches a bound.

use arbiter_rating::{Decision, EloModel, Estimate, GameResult, Pentanomial, Sprt, PAIR_OUTCOMES};
use serde::Serialize;

use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::gomoku::Rule;
use arbiter_engine::Seat;

/// The longest `--sprt` text read.
const MAX_SPEC: usize = 200;

/// Reads `elo0=0,elo1=10[,alpha=0.05][,beta=0.05][,model=normalized|logistic]`.
pub fn parse(text: &str) -> Result<Sprt, String> {
    if text.len() > MAX_SPEC {
        return Err(format!("--sprt: longer than {MAX_SPEC} characters"));
    }
    let (mut elo0, mut elo1) = (None, None);
    let (mut alpha, mut beta, mut model) = (0.05, 0.05, EloModel::Normalized);
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| format!("--sprt: {part:?} is not KEY=VALUE"))?;
        let number = || {
            value
                .trim()
                .parse::<f64>()
                .map_err(|_| format!("--sprt: {key}={value:?} is not a number"))
        };
        match key.trim() {
            "elo0" => elo0 = Some(number()?),
            "elo1" => elo1 = Some(number()?),
            "alpha" => alpha = number()?,
            "beta" => beta = number()?,
            "model" => {
                model = match value.trim() {
                    "normalized" | "normalised" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    other => {
                        return Err(format!(
                            "--sprt: model {other:?}: use normalized or logistic"
                        ))
                    }
                }
            }
            other => {
                return Err(format!(
                    "--sprt: unknown key {other:?} (elo0, elo1, alpha, beta, model)"
                ))
            }
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err("--sprt needs elo0 and elo1, e.g. --sprt elo0=0,elo1=10".to_string());
    };
    Sprt::new(elo0, elo1, alpha, beta, model).map_err(|e| format!("--sprt: {e}"))
}

/// The test as the match goes: counts, LLR, and the decision once reached.
#[derive(Clone, Debug)]
pub struct SprtRun {
    pub test: Sprt,
    pub counts: Pentanomial,
    pub llr: f64,
    pub decision: Option<Decision>,
    /// Bot A's result in the first game of an unfinished pair.
    pending: Option<GameResult>,
    /// The unfinished pair's first game had no result: the pair will not count.
    pending_void: bool,
    /// Pairs left out because a game of theirs had no result (aborted).
    pub void_pairs: u64,
}

impl SprtRun {
    pub fn new(test: Sprt) -> SprtRun {
        SprtRun {
            test,
            counts: Pentanomial::default(),
            llr: 0.0,
            decision: None,
            pending: None,
            pending_void: false,
            void_pairs: 0,
        }
    }

    /// Counts bot A's result in the next game; a pair is counted when its second game ends.
    /// True when this game completed a pair.
    pub fn add_game(&mut self, result: GameResult) -> bool {
        if self.pending_void {
            return self.void_pair();
        }
        match self.pending.take() {
            None => {
                self.pending = Some(result);
                false
            }
            Some(first) => {
                self.counts.add_pair(first, result);
                self.llr = self.test.llr(&self.counts);
                self.decision = self.test.decide(self.llr);
                true
            }
        }
    }

    /// A game with no result (aborted: the game's rules failed, neither bot started): its pair
    /// does not count, since a pair is only fair whole. True when this game ended a pair.
    pub fn add_no_result(&mut self) -> bool {
        if self.pending.take().is_some() || self.pending_void {
            return self.void_pair();
        }
        self.pending_void = true;
        false
    }

    fn void_pair(&mut self) -> bool {
        self.pending = None;
        self.pending_void = false;
        self.void_pairs += 1;
        true
    }

    /// Bot A's result in game `i` (A sits first in even games, as [`crate::series`] seats it).
    pub fn result_of(i: usize, winner: Option<Seat>) -> GameResult {
        let a_seat = if i % 2 == 0 {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        match winner {
            None => GameResult::Draw,
            Some(w) if w == a_seat => GameResult::Win,
            Some(_) => GameResult::Loss,
        }
    }

    /// "LLR 1.23 (-2.94, 2.94)", for progress lines.
    pub fn progress(&self) -> String {
        let (lower, upper) = self.test.bounds();
        let state = match self.decision {
            Some(Decision::H0) => " H0 accepted",
            Some(Decision::H1) => " H1 accepted",
            None => "",
        };
        format!("LLR {:.2} ({lower:.2}, {upper:.2}){state}", self.llr)
    }

    pub fn report(&self) -> SprtReport {
        let (lower, upper) = self.test.bounds();
        SprtReport {
            test: self.test,
            llr: self.llr,
            lower_bound: lower,
            upper_bound: upper,
            decision: match self.decision {
                Some(Decision::H0) => "H0",
                Some(Decision::H1) => "H1",
                None => "none",
            },
            pairs: self.counts.pairs(),
            void_pairs: self.void_pairs,
            pentanomial: self.counts.counts,
            pentanomial_outcomes: PAIR_OUTCOMES,
            estimate: Estimate::from_counts(&self.counts),
        }
    }
}

/// What `--json` and summary.json carry about the test (all from bot A's side).
#[derive(Clone, Debug, Serialize)]
pub struct SprtReport {
    pub test: Sprt,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    /// "H1" (A is stronger by elo1), "H0" (not), or "none" (stopped at the game limit).
    pub decision: &'static str,
    pub pairs: u64,
    /// Pairs not counted: a game of theirs had no result.
    pub void_pairs: u64,
    /// Pairs by bot A's points: LL, LD, DD/WL, WD, WW.
    pub pentanomial: [u64; 5],
    pub pentanomial_outcomes: [&'static str; 5],
    /// Elo ± 95 %, nElo, LOS; absent before the first pair.
    pub estimate: Option<Estimate>,
}

impl SprtReport {
    /// The lines printed under the match table.
    pub fn lines(&self) -> Vec<String> {
        let t = &self.test;
        let model = match t.model {
            EloModel::Normalized => "normalised",
            EloModel::Logistic => "logistic",
        };
        let mut out = vec![format!(
            "SPRT ({model} Elo) elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2})",
            t.elo0, t.elo1, t.alpha, t.beta, self.llr, self.lower_bound, self.upper_bound
        )];
        let counts: Vec<String> = self
            .pentanomial_outcomes
            .iter()
            .zip(self.pentanomial)
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        out.push(format!("pairs {}: {}", self.pairs, counts.join(", ")));
        if self.void_pairs > 0 {
            out.push(format!(
                "{} pair(s) not counted: a game of theirs had no result (aborted)",
                self.void_pairs
            ));
        }
        if let Some(e) = &self.estimate {
            out.push(format!(
                "Elo {:+.1} ± {:.1} (95 %: {:+.1} to {:+.1}), nElo {:+.1} ± {:.1}, LOS {:.1} %",
                e.elo,
                e.elo_error,
                e.elo_lower,
                e.elo_upper,
                e.nelo,
                e.nelo_error,
                e.los * 100.0
            ));
        }
        out.push(match self.decision {
            "H1" => format!(
                "decision: H1 accepted (A is stronger by about {} Elo or more)",
                t.elo1
            ),
            "H0" => format!(
                "decision: H0 accepted (A is not stronger by {} Elo)",
                t.elo1
            ),
            _ => "decision: none (stopped at --max-games before a bound)".to_string(),
        });
        out
    }
}

/// The shipped opening suite for a game (openings/, docs/openings.md), by file name and text:
/// Reversi 8 x 8 and 16 x 16, Gomoku 15 x 15 for each rule. The 2048 duel needs none: each pair
/// gets its own seeded random sequence (see [`GameConfig::for_game_of_series`]).
pub fn shipped_openings(config: &GameConfig) -> Option<(&'static str, &'static str)> {
    match config {
        GameConfig::Reversi(c) if c.size == 8 => Some((
            "openings/reversi-8.txt",
            include_str!("../../openings/reversi-8.txt"),
        )),
        GameConfig::Reversi(c) if c.size == 16 => Some((
            "openings/reversi-16.txt",
            include_str!("../../openings/reversi-16.txt"),
        )),
        GameConfig::Gomoku(c) if c.size == 15 => Some(match c.rule {
            Rule::Freestyle => (
                "openings/gomoku-freestyle.txt",
                include_str!("../../openings/gomoku-freestyle.txt"),
            ),
            Rule::Standard => (
                "openings/gomoku-standard.txt",
                include_str!("../../openings/gomoku-standard.txt"),
            ),
            Rule::Renju | Rule::RenjuGomocup => (
                "openings/gomoku-renju.txt",
                include_str!("../../openings/gomoku-renju.txt"),
            ),
        }),
        _ => None,
    }
}

/// Reads a suite's lines, each checked through the engine (a legal line that does not end the
/// game).
pub fn parse_openings(
    origin: &str,
    text: &str,
    config: &GameConfig,
) -> Result<Vec<Vec<String>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let moves: Vec<String> = line.split_whitespace().map(String::from).collect();
        let mut g = AnyGame::new(config).map_err(|e| e.to_string())?;
        for m in &moves {
            g.play_text(m)
                .map_err(|e| format!("{origin}:{}: opening move {m}: {e}", i + 1))?;
        }
        if g.outcome().is_some() {
            return Err(format!("{origin}:{}: the opening ends the game", i + 1));
        }
        out.push(moves);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_pair_with_a_game_of_no_result_is_not_counted() {
        let test = parse("elo0=0,elo1=10").unwrap();
        let mut run = SprtRun::new(test);
        // Aborted first game, then a win: void. A win and an aborted game: void.
        assert!(!run.add_no_result());
        assert!(run.add_game(GameResult::Win));
        assert!(!run.add_game(GameResult::Win));
        assert!(run.add_no_result());
        assert_eq!((run.counts.pairs(), run.void_pairs), (0, 2));
        // Then a whole pair counts as usual.
        assert!(!run.add_game(GameResult::Win));
        assert!(run.add_game(GameResult::Draw));
        assert_eq!((run.counts.pairs(), run.void_pairs), (1, 2));
        assert!(run
            .report()
            .lines()
            .iter()
            .any(|l| l.contains("2 pair(s) not counted")));
    }

    use super::{parse, SprtRun};
    use arbiter_engine::Seat;
    use arbiter_rating::GameResult;

    #[test]
    fn pairs_are_counted_for_bot_a() {
        let mut run = SprtRun::new(parse("elo0=0,elo1=10").unwrap());
        // A wins game 0 in seat 0, then loses game 1 from seat 1: a WL pair.
        assert!(!run.add_game(SprtRun::result_of(0, Some(Seat::FIRST))));
        assert!(run.add_game(SprtRun::result_of(1, Some(Seat::FIRST))));
        assert_eq!(run.counts.counts, [0, 0, 1, 0, 0]);
        // A wins both: seat 0 in game 2, seat 1 in game 3.
        run.add_game(SprtRun::result_of(2, Some(Seat::FIRST)));
        run.add_game(SprtRun::result_of(3, Some(Seat::SECOND)));
        assert_eq!(run.counts.counts, [0, 0, 1, 0, 1]);
        assert_eq!(SprtRun::result_of(5, None), GameResult::Draw);
        assert!(run.llr > 0.0);
    }

    #[test]
    fn sprt_options() {
        let s = parse("elo0=0,elo1=10").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.05, 0.05));
        let s = parse("elo0=-5, elo1=5, alpha=0.1, beta=0.2, model=logistic").unwrap();
        assert_eq!((s.alpha, s.beta), (0.1, 0.2));
        assert!(parse("elo0=0").is_err());
        assert!(parse("elo0=10,elo1=0").is_err());
        assert!(parse("elo0=0,elo1=x").is_err());
        assert!(parse("elo0=0,elo1=10,gamma=1").is_err());
        assert!(parse(&"elo0=0,".repeat(100)).is_err());
    }
}
