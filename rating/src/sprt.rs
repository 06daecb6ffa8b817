use serde::{Deserialize, Serialize};

use crate::mle;
use crate::pentanomial::{Pentanomial, SCORES};

/// How an Elo difference becomes an expected pair score for the hypotheses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Normalised Elo (nElo): the score's distance from 0.5 in units of the pair's standard
    /// deviation, scaled so that nElo = Elo at the variance of a draw-free coin toss.
    /// fastchess's default and the only pentanomial model of OpenBench and Fishtest.
    #[default]
    Normalized,
    /// Logistic Elo: score = 1 / (1 + 10^(-elo / 400)) (fastchess `--sprt model=logistic`).
    Logistic,
}

/// What the test decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// The LLR reached the lower bound: no gain of `elo1` (the difference is at most `elo0`).
    H0,
    /// The LLR reached the upper bound: the tested bot is stronger by `elo1` rather than `elo0`.
    H1,
}

/// A sequential probability ratio test of `elo0` against `elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    NotFinite,
    ElosNotIncreasing {
        elo0: f64,
        elo1: f64,
    },
    ErrorRate {
        name: &'static str,
        value: f64,
    },
    ErrorRatesTooLarge {
        alpha: f64,
        beta: f64,
    },
    /// Beyond what an Elo difference between two bots can mean (scores of 0.0003).
    EloOutOfRange(f64),
}

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SprtError::NotFinite => write!(f, "SPRT parameters must be finite numbers"),
            SprtError::ElosNotIncreasing { elo0, elo1 } => {
                write!(f, "elo0 ({elo0}) must be less than elo1 ({elo1})")
            }
            SprtError::ErrorRate { name, value } => {
                write!(f, "{name} = {value}: it must lie strictly between 0 and 1")
            }
            SprtError::ErrorRatesTooLarge { alpha, beta } => {
                write!(f, "alpha + beta = {} must be less than 1", alpha + beta)
            }
            SprtError::EloOutOfRange(e) => {
                write!(f, "elo {e} is out of range (-1400 to 1400)")
            }
        }
    }
}

impl std::error::Error for SprtError {}

const MAX_ELO: f64 = 1400.0;

impl Sprt {
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<Sprt, SprtError> {
        if ![elo0, elo1, alpha, beta].iter().all(|x| x.is_finite()) {
            return Err(SprtError::NotFinite);
        }
        for e in [elo0, elo1] {
            if e.abs() > MAX_ELO {
                return Err(SprtError::EloOutOfRange(e));
            }
        }
        if elo0 >= elo1 {
            return Err(SprtError::ElosNotIncreasing { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if value <= 0.0 || value >= 1.0 {
                return Err(SprtError::ErrorRate { name, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorRatesTooLarge { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// (lower, upper): H0 at or below ln(beta / (1 - alpha)), H1 at or above
    /// ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised log-likelihood ratio of H1 to H0 for these counts: each hypothesis's
    /// maximum-likelihood distribution, compared on the observed pairs. Counts of zero are
    /// taken as 0.001 (as fastchess and OpenBench do); 0 without any pair.
    pub fn llr(&self, counts: &Pentanomial) -> f64 {
        if counts.pairs() == 0 {
            return 0.0;
        }
        let Some(phat) = counts.frequencies(1e-3) else {
            return 0.0;
        };
        let total: f64 = counts.counts.iter().map(|&c| (c as f64).max(1e-3)).sum();
        let (p0, p1) = match self.model {
            EloModel::Normalized => {
                // t for a pair: sqrt(2) times the per-game normalised score.
                let per_nelo = std::f64::consts::SQRT_2 * std::f64::consts::LN_10 / 800.0;
                (
                    mle::with_t_value(&phat, self.elo0 * per_nelo),
                    mle::with_t_value(&phat, self.elo1 * per_nelo),
                )
            }
            EloModel::Logistic => (
                mle::with_score(&phat, logistic_score(self.elo0)),
                mle::with_score(&phat, logistic_score(self.elo1)),
            ),
        };
        let mean_log_ratio: f64 = (0..SCORES.len())
            .map(|i| phat[i] * (p1[i].ln() - p0[i].ln()))
            .sum();
        total * mean_log_ratio
    }

    /// H0 or H1 once the LLR reaches a bound.
    pub fn decide(&self, llr: f64) -> Option<Decision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Decision::H1)
        } else if llr <= lower {
            Some(Decision::H0)
        } else {
            None
        }
    }
}

/// The expected score of a bot `elo` stronger, in the logistic model.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}
