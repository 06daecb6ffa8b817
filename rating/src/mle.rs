//! Maximum-likelihood distributions of pair outcomes under a hypothesis, given the observed
//! frequencies (Van den Bergh, "Comments on normalized Elo", section 4.1, and "Comparing the
//! approximations for the generalized log likelihood ratio", proposition 1.1).

use crate::pentanomial::{mean_variance, SCORES};

/// The distribution closest to `phat` whose expected score is `s`.
pub(crate) fn with_score(phat: &[f64; 5], s: f64) -> [f64; 5] {
    let d = SCORES.map(|a| a - s);
    let theta = secular(phat, &d);
    weigh(phat, &d, theta)
}

/// The distribution closest to `phat` whose normalised score (mu - 0.5) / sigma is `t`,
/// by fixed-point iteration from the uniform distribution.
pub(crate) fn with_t_value(phat: &[f64; 5], t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..100 {
        let (mu, var) = mean_variance(&p);
        let sigma = var.sqrt();
        let phi = SCORES.map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)));
        let theta = secular(phat, &phi);
        let next = weigh(phat, &phi, theta);
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-14 {
            break;
        }
    }
    p
}

fn weigh(phat: &[f64; 5], d: &[f64; 5], theta: f64) -> [f64; 5] {
    std::array::from_fn(|i| phat[i] / (1.0 + theta * d[i]))
}

/// Solves sum_i phat_i d_i / (1 + x d_i) = 0 for x in (-1 / max d, -1 / min d), where the sum
/// falls strictly; by bisection to the last bit. Without a sign change in `d` there is no root
/// and 0 (no reweighting) is returned.
fn secular(phat: &[f64; 5], d: &[f64; 5]) -> f64 {
    let lo_d = d.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_d = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_d < 0.0 && hi_d > 0.0) {
        return 0.0;
    }
    let f = |x: f64| -> f64 {
        phat.iter()
            .zip(d)
            .map(|(p, di)| p * di / (1.0 + x * di))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / hi_d, -1.0 / lo_d);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        // f is +infinity at the lower end and -infinity at the upper end.
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}
