use serde::{Deserialize, Serialize};

use crate::pentanomial::{mean_variance, Pentanomial};

/// Two-sided 95 % quantile of the normal distribution (as fastchess uses).
const Z95: f64 = 1.959_963_984_540_054;

/// Elo from pentanomial counts, its 95 % interval from the variance of pair scores.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub pairs: u64,
    /// Mean score per game (0..1).
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// 95 % interval of `elo`.
    pub elo_lower: f64,
    pub elo_upper: f64,
    /// Half the interval's width, the "± error" that fastchess prints.
    pub elo_error: f64,
    /// Normalised Elo and its 95 % half-width.
    pub nelo: f64,
    pub nelo_error: f64,
    /// Likelihood of superiority: the probability that the tested bot is stronger (0..1).
    pub los: f64,
}

impl Estimate {
    /// `None` without any pair. Scores of 0 or 1 are taken as 0.001 and 0.999 for the Elo
    /// figures (as OpenBench does), which keeps them finite.
    pub fn from_counts(counts: &Pentanomial) -> Option<Estimate> {
        let pairs = counts.pairs();
        let p = counts.frequencies(0.0)?;
        let (score, var) = mean_variance(&p);
        let n = pairs as f64;
        let spread = Z95 * (var / n).sqrt();
        let (lower, upper) = (score - spread, score + spread);
        let elo_lower = logistic_elo(lower);
        let elo_upper = logistic_elo(upper);
        let nelo = |s: f64| normalised_elo(s, var);
        let los = if var > 0.0 {
            0.5 * (1.0 - libm::erf(-(score - 0.5) / (2.0 * var / n).sqrt()))
        } else {
            match score.partial_cmp(&0.5) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Less) => 0.0,
                _ => 0.5,
            }
        };
        Some(Estimate {
            pairs,
            score,
            elo: logistic_elo(score),
            elo_lower,
            elo_upper,
            elo_error: (elo_upper - elo_lower) / 2.0,
            nelo: nelo(score),
            nelo_error: if var > 0.0 {
                (nelo(upper) - nelo(lower)) / 2.0
            } else {
                0.0
            },
            los,
        })
    }
}

fn logistic_elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// nElo of a per-game score with per-pair variance `var`: infinite (null in JSON) when every
/// pair scored the same but 0.5.
fn normalised_elo(score: f64, var: f64) -> f64 {
    if var <= 0.0 {
        return match score.partial_cmp(&0.5) {
            Some(std::cmp::Ordering::Greater) => f64::INFINITY,
            Some(std::cmp::Ordering::Less) => f64::NEG_INFINITY,
            _ => 0.0,
        };
    }
    (score - 0.5) / (2.0 * var).sqrt() * (800.0 / std::f64::consts::LN_10)
}
