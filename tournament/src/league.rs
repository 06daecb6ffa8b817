//! Leagues with bosses, as plain functions (no storage): leagues from the lowest up, each but
//! the top one guarded by a boss (any bot; the built-in ladder's levels `builtin:N` are natural
//! ones). A student's latest submission plays the boss of the student's league and is
//! promoted on beating it by the stated margin: a score over a number of games, or an SPRT
//! (docs/contest.md).

use arbiter_rating::{Decision, EloModel, GameResult, Pentanomial, Sprt};
use serde::{Deserialize, Serialize};

/// One league as contest.toml names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct League {
    pub name: String,
    /// The bot to beat to move up: `builtin:N`, `builtin:random`; the top league has none.
    #[serde(default)]
    pub boss: Option<String>,
}

/// How a submission beats a boss.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case", tag = "rule")]
pub enum Promotion {
    /// At least `share` of the points over `games` games (win 1, draw 1/2).
    Score { games: u32, share: f64 },
    /// An SPRT of `elo0` against `elo1` over pairs of games (colours swapped); the boss stays
    /// unbeaten if it accepts `elo0` or reaches `max_games` undecided.
    Sprt {
        elo0: f64,
        elo1: f64,
        #[serde(default = "five_percent")]
        alpha: f64,
        #[serde(default = "five_percent")]
        beta: f64,
        max_games: u32,
    },
}

fn five_percent() -> f64 {
    0.05
}

impl Default for Promotion {
    fn default() -> Self {
        Promotion::Score {
            games: 10,
            share: 0.6,
        }
    }
}

impl Promotion {
    pub fn check(&self) -> Result<(), String> {
        match *self {
            Promotion::Score { games, share } => {
                if games < 2 || games % 2 != 0 || games > 1000 {
                    return Err(format!(
                        "games = {games}: even, from 2 to 1000 (colours are swapped in pairs)"
                    ));
                }
                if !(share > 0.0 && share <= 1.0) {
                    return Err(format!("share = {share}: more than 0 and at most 1"));
                }
            }
            Promotion::Sprt {
                elo0,
                elo1,
                alpha,
                beta,
                max_games,
            } => {
                Sprt::new(elo0, elo1, alpha, beta, EloModel::Logistic)
                    .map_err(|e| format!("sprt: {e}"))?;
                if max_games < 2 || max_games % 2 != 0 || max_games > 10_000 {
                    return Err(format!("max_games = {max_games}: even, from 2 to 10000"));
                }
            }
        }
        Ok(())
    }

    /// The most games a submission plays against one boss.
    pub fn max_games(&self) -> u32 {
        match *self {
            Promotion::Score { games, .. } => games,
            Promotion::Sprt { max_games, .. } => max_games,
        }
    }

    /// The points (of `games`) that promote under a score rule.
    pub fn points_needed(games: u32, share: f64) -> f64 {
        // Half points: a share of 0.6 over 10 games needs 6.
        (share * f64::from(games) * 2.0 - 1e-9).ceil() / 2.0
    }
}

/// Where a submission stands against its boss.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Standing {
    /// Games to play: `games` done of at most `of`, `points` scored; `queue` more to queue now.
    Playing {
        games: u32,
        of: u32,
        points: f64,
        queue: u32,
    },
    Promoted {
        games: u32,
        points: f64,
    },
    /// The boss was not beaten: a new submission tries again.
    Stays {
        games: u32,
        points: f64,
    },
}

/// Games are queued this many pairs at a time under an SPRT (it may stop after any pair).
pub const SPRT_BATCH: u32 = 4;

/// Judges the games against the boss. `points[k]` is the submission's points in game `k` of
/// its match with the boss (`None`: not finished); game `2i` and `2i + 1` are a pair with
/// colours swapped. An SPRT reads the finished pairs in order up to the first unfinished
/// game, so the verdict never depends on which game happened to finish first.
pub fn judge(rule: &Promotion, points: &[Option<f64>]) -> Standing {
    let done: Vec<f64> = points.iter().map_while(|p| *p).collect();
    let games = done.len() as u32;
    let scored: f64 = done.iter().sum();
    let scheduled = points.len() as u32;
    match *rule {
        Promotion::Score { games: n, share } => {
            if games >= n {
                if scored >= Promotion::points_needed(n, share) {
                    Standing::Promoted {
                        games,
                        points: scored,
                    }
                } else {
                    Standing::Stays {
                        games,
                        points: scored,
                    }
                }
            } else {
                Standing::Playing {
                    games,
                    of: n,
                    points: scored,
                    queue: n.saturating_sub(scheduled),
                }
            }
        }
        Promotion::Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            max_games,
        } => {
            let Ok(test) = Sprt::new(elo0, elo1, alpha, beta, EloModel::Logistic) else {
                return Standing::Stays {
                    games,
                    points: scored,
                };
            };
            let mut counts = Pentanomial::default();
            for pair in done.chunks_exact(2) {
                counts.add_pair(result(pair[0]), result(pair[1]));
                match test.decide(test.llr(&counts)) {
                    Some(Decision::H1) => {
                        return Standing::Promoted {
                            games: counts.pairs() as u32 * 2,
                            points: scored,
                        }
                    }
                    Some(Decision::H0) => {
                        return Standing::Stays {
                            games: counts.pairs() as u32 * 2,
                            points: scored,
                        }
                    }
                    None => {}
                }
            }
            if games >= max_games {
                return Standing::Stays {
                    games,
                    points: scored,
                };
            }
            // More pairs while fewer than a batch are outstanding.
            let outstanding = scheduled - games;
            let queue = if outstanding == 0 {
                (2 * SPRT_BATCH).min(max_games - scheduled)
            } else {
                0
            };
            Standing::Playing {
                games,
                of: max_games,
                points: scored,
                queue,
            }
        }
    }
}

fn result(points: f64) -> GameResult {
    if points > 0.75 {
        GameResult::Win
    } else if points < 0.25 {
        GameResult::Loss
    } else {
        GameResult::Draw
    }
}

/// The league a student is in: the lowest, plus one per boss beaten (capped at the top).
pub fn league_of(promotions: usize, leagues: &[League]) -> usize {
    promotions.min(leagues.len().saturating_sub(1))
}

/// Checks a list of leagues: at least two, distinct names, a boss for all but the top one.
pub fn check(leagues: &[League]) -> Result<(), String> {
    if leagues.len() < 2 {
        return Err("at least two [[leagues]]: a league with no one to promote to is none".into());
    }
    if leagues.len() > 20 {
        return Err(format!("{} leagues: at most 20", leagues.len()));
    }
    for (i, l) in leagues.iter().enumerate() {
        if l.name.trim().is_empty() || l.name.chars().count() > 40 {
            return Err(format!("leagues[{i}].name: 1 to 40 characters"));
        }
        if leagues[..i].iter().any(|m| m.name == l.name) {
            return Err(format!("leagues[{i}].name {:?} is used twice", l.name));
        }
        let top = i + 1 == leagues.len();
        match (&l.boss, top) {
            (None, false) => return Err(format!("leagues[{i}] ({}) needs a boss", l.name)),
            (Some(_), true) => {
                return Err(format!(
                    "leagues[{i}] ({}) is the top league: it has no boss",
                    l.name
                ))
            }
            (Some(b), false) if !valid_boss(b) => {
                return Err(format!(
                    "leagues[{i}].boss {b:?}: builtin:N (a level of the built-in ladder) or builtin:random"
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// A boss the workers can run on any machine: one of arbiter's own bots.
pub fn valid_boss(spec: &str) -> bool {
    match spec.strip_prefix("builtin:") {
        Some("random") => true,
        Some(n) => n.parse::<u8>().is_ok_and(|n| (1..=9).contains(&n)),
        None => spec == "builtin",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leagues() -> Vec<League> {
        ["Wood", "Bronze", "Silver"]
            .iter()
            .enumerate()
            .map(|(i, n)| League {
                name: n.to_string(),
                boss: (i < 2).then(|| format!("builtin:{}", i + 1)),
            })
            .collect()
    }

    #[test]
    fn a_score_rule_promotes_at_its_share_after_all_its_games() {
        let rule = Promotion::Score {
            games: 10,
            share: 0.6,
        };
        assert_eq!(Promotion::points_needed(10, 0.6), 6.0);
        assert_eq!(Promotion::points_needed(10, 0.55), 5.5);
        assert_eq!(
            judge(&rule, &[]),
            Standing::Playing {
                games: 0,
                of: 10,
                points: 0.0,
                queue: 10
            }
        );
        let six: Vec<Option<f64>> = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
            .map(Some)
            .to_vec();
        assert!(matches!(judge(&rule, &six), Standing::Promoted { .. }));
        let mut five = six.clone();
        five[0] = Some(0.5);
        five[1] = Some(0.5);
        assert!(matches!(judge(&rule, &five), Standing::Stays { .. }));
        let mut waiting = six.clone();
        waiting[3] = None;
        assert!(matches!(
            judge(&rule, &waiting),
            Standing::Playing { queue: 0, .. }
        ));
    }

    #[test]
    fn an_sprt_promotes_a_clear_winner_and_not_a_loser() {
        let rule = Promotion::Sprt {
            elo0: 0.0,
            elo1: 100.0,
            alpha: 0.05,
            beta: 0.05,
            max_games: 200,
        };
        let wins: Vec<Option<f64>> = vec![Some(1.0); 40];
        let Standing::Promoted { games, .. } = judge(&rule, &wins) else {
            panic!("{:?}", judge(&rule, &wins))
        };
        assert!(games <= 30, "{games} games to see a sweep");
        let losses: Vec<Option<f64>> = vec![Some(0.0); 40];
        assert!(matches!(judge(&rule, &losses), Standing::Stays { .. }));
        // An unfinished game stops the reading there: the later results do not count yet.
        let mut gap = wins.clone();
        gap[0] = None;
        assert!(matches!(
            judge(&rule, &gap),
            Standing::Playing {
                games: 0,
                queue: 0,
                ..
            }
        ));
        assert!(matches!(
            judge(&rule, &[]),
            Standing::Playing { queue: 8, .. }
        ));
    }

    #[test]
    fn leagues_are_checked_and_promotions_climb() {
        assert!(check(&leagues()).is_ok());
        assert_eq!(league_of(0, &leagues()), 0);
        assert_eq!(league_of(5, &leagues()), 2);
        let mut no_boss = leagues();
        no_boss[0].boss = None;
        assert!(check(&no_boss).unwrap_err().contains("needs a boss"));
        let mut top_boss = leagues();
        top_boss[2].boss = Some("builtin:3".into());
        assert!(check(&top_boss).unwrap_err().contains("top league"));
        let mut bad = leagues();
        bad[1].boss = Some("./evil".into());
        assert!(check(&bad).unwrap_err().contains("builtin:N"));
        assert!(Promotion::default().check().is_ok());
        assert!(Promotion::Score {
            games: 3,
            share: 0.5
        }
        .check()
        .is_err());
    }
}
