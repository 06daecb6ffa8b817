//! Ratings of games of N seats: Weng-Lin (the Bayesian model behind OpenSkill), Bradley-Terry
//! full pairing, from the `skillratings` crate. Each bot starts at mu 25, sigma 25/3 and every
//! game updates the ratings of its seats from their places, in the order the games were
//! recorded. A tie (a shared place) counts as half a win between the two.
//!
//! Parameters are OpenSkill's defaults (beta = 25/6, kappa = 1e-4) but with no dynamics
//! (tau = 0): a bot's version does not change within a tournament, so its uncertainty should
//! only shrink. `openskill`'s `BradleyTerryFull(tau=0)` gives the same numbers
//! (tests/openskill.rs checks it).

use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// OpenSkill's kappa: the least factor a game may leave of a variance.
pub const KAPPA: f64 = 1e-4;

/// The z of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// One bot's rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Skill {
    pub mu: f64,
    pub sigma: f64,
}

impl Skill {
    /// The 95 % interval of the bot's skill: mu ± 1.96 sigma.
    pub fn interval(&self) -> (f64, f64) {
        (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)
    }

    /// The conservative estimate OpenSkill calls `ordinal`: mu - 3 sigma.
    pub fn ordinal(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

fn config() -> WengLinConfig {
    WengLinConfig {
        beta: 25.0 / 6.0,
        uncertainty_tolerance: KAPPA,
    }
}

/// A game for the rating: the bots (indices) by seat and each seat's place (1 = first).
pub type Placed = (Vec<usize>, Vec<u32>);

/// Ratings of `n` bots after `games`, in order. A game naming a bot out of range, a bot
/// twice, or with places not one per seat, is left out.
pub fn rate(n: usize, games: &[Placed]) -> Vec<Skill> {
    let mut r = vec![WengLinRating::new(); n];
    let cfg = config();
    for (bots, places) in games {
        let mut seen = vec![false; n];
        let valid = bots.len() == places.len()
            && bots.len() >= 2
            && bots
                .iter()
                .all(|&b| b < n && !std::mem::replace(&mut seen[b], true));
        if !valid {
            continue;
        }
        let teams: Vec<[WengLinRating; 1]> = bots.iter().map(|&b| [r[b]]).collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(places)
            .map(|(t, &p)| (&t[..], MultiTeamOutcome::new(p as usize)))
            .collect();
        let new = weng_lin_multi_team(&ranked, &cfg);
        for (&b, team) in bots.iter().zip(new) {
            if let Some(x) = team.first() {
                r[b] = *x;
            }
        }
    }
    r.iter()
        .map(|x| Skill {
            mu: x.rating,
            sigma: x.uncertainty,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_rise_losers_fall_and_everyone_grows_surer() {
        let r = rate(3, &[(vec![0, 1, 2], vec![1, 2, 3])]);
        assert!(r[0].mu > 25.0 && r[2].mu < 25.0, "{r:?}");
        assert!(
            (r[1].mu - 25.0).abs() < 1e-9,
            "the middle of equals stays: {r:?}"
        );
        assert!(r.iter().all(|s| s.sigma < 25.0 / 3.0));
        let (lo, hi) = r[0].interval();
        assert!(lo < r[0].mu && r[0].mu < hi);
    }

    #[test]
    fn a_shared_place_is_a_draw_between_equals() {
        let r = rate(3, &[(vec![0, 1, 2], vec![1, 1, 3])]);
        assert!((r[0].mu - r[1].mu).abs() < 1e-12);
        assert!(r[0].mu > 25.0);
    }

    #[test]
    fn malformed_games_are_left_out() {
        let fresh = rate(3, &[]);
        let r = rate(
            3,
            &[
                (vec![0, 0, 1], vec![1, 2, 3]),
                (vec![0, 7], vec![1, 2]),
                (vec![0, 1], vec![1]),
            ],
        );
        assert_eq!(r, fresh);
    }
}
