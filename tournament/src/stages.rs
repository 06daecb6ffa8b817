//! Stages: a tournament made of a Swiss, groups of round robins or a round robin, then a
//! knockout of the best, each stage's standings feeding the next. Plain functions of the
//! stages' configuration and results; [`crate::staged`] stores and plays them.

use serde::{Deserialize, Serialize};

use crate::knockout::Elimination;

/// One stage as the config gives it (`[[stages]]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    pub format: StageFormat,
    /// Entrants: the best `advance` of the stage before (by its standings); the first stage
    /// takes every bot.
    #[serde(default)]
    pub advance: Option<usize>,
    /// Swiss: rounds.
    #[serde(default)]
    pub rounds: Option<usize>,
    /// Groups: how many (entrants dealt out by seed in a snake: 1 2 3 3 2 1 ...).
    #[serde(default)]
    pub groups: Option<usize>,
    /// Knockout: single or double.
    #[serde(default)]
    pub elimination: Elimination,
    /// Games of a round (Swiss), a pairing (groups, round robin) or a match (knockout); the
    /// tournament's `games_per_pairing` when absent.
    #[serde(default)]
    pub games: Option<usize>,
    /// Knockout: pairs of games added while a match is level, before the better seed goes
    /// through.
    #[serde(default = "one")]
    pub extra_pairs: u32,
}

fn one() -> u32 {
    1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StageFormat {
    Swiss,
    RoundRobin,
    Groups,
    Knockout,
}

/// The largest field a Swiss pairs round by round without search trouble, and the most rounds.
pub const MAX_ROUNDS: usize = 100;

impl Stage {
    /// Checks the stage given the number of its entrants; `first` for the tournament's first.
    pub fn check(&self, k: usize, entrants: usize, first: bool) -> Result<(), String> {
        let at = format!("stages[{k}]");
        if first && self.advance.is_some() {
            return Err(format!("{at}.advance: the first stage takes every bot"));
        }
        if !first && self.advance.is_none() {
            return Err(format!("{at}.advance: how many of the stage before go on"));
        }
        if entrants < 2 {
            return Err(format!(
                "{at}: {entrants} entrant(s); a stage needs at least 2"
            ));
        }
        if self.games == Some(0) || self.games.is_some_and(|g| g > 1000) {
            return Err(format!("{at}.games: from 1 to 1000"));
        }
        let only = |what: &str, given: bool, format: &str| {
            if given {
                Err(format!("{at}.{what} belongs to format = \"{format}\""))
            } else {
                Ok(())
            }
        };
        only(
            "rounds",
            self.rounds.is_some() && self.format != StageFormat::Swiss,
            "swiss",
        )?;
        only(
            "groups",
            self.groups.is_some() && self.format != StageFormat::Groups,
            "groups",
        )?;
        only(
            "elimination",
            self.elimination != Elimination::Single && self.format != StageFormat::Knockout,
            "knockout",
        )?;
        match self.format {
            StageFormat::Swiss => match self.rounds {
                None => Err(format!("{at}: a Swiss needs rounds")),
                Some(r) if r == 0 || r > MAX_ROUNDS => {
                    Err(format!("{at}.rounds = {r}: from 1 to {MAX_ROUNDS}"))
                }
                Some(r) if r >= entrants + entrants % 2 => Err(format!(
                    "{at}.rounds = {r}: {entrants} entrants meet each other in {} rounds; \
                     more would repeat pairings (use a round robin)",
                    entrants - 1 + entrants % 2
                )),
                Some(_) => Ok(()),
            },
            StageFormat::Groups => match self.groups {
                Some(g) if g >= 2 && entrants >= 2 * g => Ok(()),
                Some(g) => Err(format!(
                    "{at}.groups = {g}: at least 2, with at least 2 entrants in each ({entrants} entrants)"
                )),
                None => Err(format!("{at}: groups needs groups = N")),
            },
            StageFormat::RoundRobin | StageFormat::Knockout => Ok(()),
        }
    }
}

/// The entrants of a stage after `previous`'s final order: its best `advance`.
pub fn advancing(previous: &[usize], advance: usize) -> Vec<usize> {
    previous.iter().copied().take(advance).collect()
}

/// Deals entrants (in seed order) into `groups` groups in a snake, so that each group gets one
/// of the best, one of the next best, and so on.
pub fn deal(entrants: &[usize], groups: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); groups.max(1)];
    for (k, &e) in entrants.iter().enumerate() {
        let lap = k / out.len();
        let i = k % out.len();
        let g = if lap % 2 == 0 { i } else { out.len() - 1 - i };
        out[g].push(e);
    }
    out
}

/// One order after groups: every group's winner (in group order), then every runner-up, and
/// so on, so that a knockout seeded from it keeps group winners apart.
pub fn after_groups(groups: &[Vec<usize>]) -> Vec<usize> {
    let longest = groups.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .flat_map(|place| groups.iter().filter_map(move |g| g.get(place).copied()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(format: StageFormat) -> Stage {
        Stage {
            format,
            advance: None,
            rounds: None,
            groups: None,
            elimination: Elimination::Single,
            games: None,
            extra_pairs: 1,
        }
    }

    #[test]
    fn groups_are_dealt_in_a_snake_and_come_back_by_place() {
        let g = deal(&(0..8).collect::<Vec<_>>(), 3);
        assert_eq!(g, [vec![0, 5, 6], vec![1, 4, 7], vec![2, 3]]);
        assert_eq!(after_groups(&g), [0, 1, 2, 5, 4, 3, 6, 7]);
        assert_eq!(advancing(&[4, 2, 9, 1], 2), [4, 2]);
    }

    #[test]
    fn stages_are_checked() {
        let mut swiss = stage(StageFormat::Swiss);
        assert!(swiss.check(0, 10, true).unwrap_err().contains("rounds"));
        swiss.rounds = Some(9);
        assert!(swiss.check(0, 10, true).is_ok());
        swiss.rounds = Some(10);
        assert!(swiss.check(0, 10, true).unwrap_err().contains("repeat"));
        let mut ko = stage(StageFormat::Knockout);
        assert!(ko.check(1, 8, false).unwrap_err().contains("advance"));
        ko.advance = Some(8);
        assert!(ko.check(1, 8, false).is_ok());
        ko.rounds = Some(3);
        assert!(ko.check(1, 8, false).unwrap_err().contains("swiss"));
        let mut groups = stage(StageFormat::Groups);
        groups.groups = Some(4);
        assert!(groups.check(0, 7, true).is_err());
        assert!(groups.check(0, 8, true).is_ok());
    }
}
