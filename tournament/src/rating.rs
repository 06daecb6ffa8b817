//! Ratings: the Bradley-Terry model on the Elo scale, fitted by maximum likelihood (Newton's
//! method), with 95 % confidence intervals from the observed information (the inverse
//! Hessian) and a likelihood-of-superiority matrix, as BayesElo and Ordo report them.
//!
//! P(i beats j) = 1 / (1 + 10^((r_j - r_i) / 400)); a draw counts as half a win for each side.
//! A bot that won or lost everything has no finite maximum, so `prior_draws` virtual draws
//! against a 0-rated opponent per bot (BayesElo's idea) keep every rating finite. Ratings are
//! reported centred on a mean of 0.

use serde::Serialize;

/// Natural units (logits) to Elo.
pub const ELO_PER_LOGIT: f64 = 400.0 / std::f64::consts::LN_10;

/// Results between pairs: `score[i][j]` is what i scored against j (win 1, draw 1/2) in
/// `games[i][j]` games.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub score: Vec<Vec<f64>>,
    pub games: Vec<Vec<f64>>,
}

impl Results {
    pub fn new(n: usize) -> Results {
        Results {
            score: vec![vec![0.0; n]; n],
            games: vec![vec![0.0; n]; n],
        }
    }

    pub fn len(&self) -> usize {
        self.score.len()
    }

    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }

    /// One game; `score_i` is 1, 1/2 or 0.
    pub fn add(&mut self, i: usize, j: usize, score_i: f64) {
        if i == j || i >= self.len() || j >= self.len() {
            return;
        }
        self.score[i][j] += score_i;
        self.score[j][i] += 1.0 - score_i;
        self.games[i][j] += 1.0;
        self.games[j][i] += 1.0;
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Ratings {
    /// Elo, mean 0.
    pub elo: Vec<f64>,
    /// Half-width of the 95 % confidence interval, in Elo.
    pub ci95: Vec<f64>,
    /// Covariance of the (centred) ratings, in Elo².
    pub covariance: Vec<Vec<f64>>,
    /// `los[i][j]`: probability that i is stronger than j.
    pub los: Vec<Vec<f64>>,
    pub iterations: usize,
}

/// The log-likelihood (natural units `theta`) including the prior, for checks and tests.
pub fn log_likelihood(r: &Results, theta: &[f64], prior_draws: f64) -> f64 {
    let n = r.len();
    let mut ll = 0.0;
    for i in 0..n {
        for j in (i + 1)..n {
            let g = r.games[i][j];
            if g == 0.0 {
                continue;
            }
            let s = r.score[i][j];
            let d = theta[i] - theta[j];
            // s ln p + (g - s) ln (1 - p), p = sigma(d), in a stable form.
            ll += s * -softplus(-d) + (g - s) * -softplus(d);
        }
        if prior_draws > 0.0 {
            ll += prior_draws * (-0.5 * softplus(-theta[i]) - 0.5 * softplus(theta[i]));
        }
    }
    ll
}

fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fits the ratings. With `prior_draws = 0` every bot must have both some score and some loss
/// against a connected field, or its rating runs off to infinity (capped by the iteration
/// limit); reports use a prior of 1.
pub fn fit(r: &Results, prior_draws: f64) -> Ratings {
    let n = r.len();
    let mut theta = vec![0.0; n];
    if n == 0 {
        return Ratings {
            elo: vec![],
            ci95: vec![],
            covariance: vec![],
            los: vec![],
            iterations: 0,
        };
    }
    // Without a prior the likelihood is unchanged by adding a constant to all ratings, so
    // bot 0 is held at 0 (the reduced system) and the result centred afterwards.
    let free: Vec<usize> = if prior_draws > 0.0 {
        (0..n).collect()
    } else {
        (1..n).collect()
    };
    let mut iterations = 0;
    let mut info = vec![vec![0.0; free.len()]; free.len()];
    for it in 0..200 {
        iterations = it + 1;
        let (grad, h) = derivatives(r, &theta, prior_draws);
        let g: Vec<f64> = free.iter().map(|&i| grad[i]).collect();
        info = free
            .iter()
            .map(|&i| free.iter().map(|&j| h[i][j]).collect())
            .collect();
        let Some(step) = solve(&info, &g) else { break };
        // Damped step: halve until the likelihood does not drop.
        let before = log_likelihood(r, &theta, prior_draws);
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..30 {
            let mut trial = theta.clone();
            for (k, &i) in free.iter().enumerate() {
                trial[i] += t * step[k];
            }
            if log_likelihood(r, &trial, prior_draws) >= before - 1e-12 {
                theta = trial;
                moved = true;
                break;
            }
            t /= 2.0;
        }
        let size = step.iter().map(|s| s.abs()).fold(0.0, f64::max) * t;
        if !moved || size < 1e-10 {
            break;
        }
        // Keep going only while ratings are finite in practice.
        if theta.iter().any(|x| x.abs() > 50.0) {
            break;
        }
    }
    // Covariance of the free parameters = inverse observed information.
    let inv = invert(&info).unwrap_or_else(|| vec![vec![f64::INFINITY; free.len()]; free.len()]);
    let mut cov = vec![vec![0.0; n]; n];
    for (a, &i) in free.iter().enumerate() {
        for (b, &j) in free.iter().enumerate() {
            cov[i][j] = inv[a][b];
        }
    }
    // Centre: x' = A x with A = I - J/n, so Cov' = A Cov A^T.
    let mean = theta.iter().sum::<f64>() / n as f64;
    let centred: Vec<f64> = theta.iter().map(|t| t - mean).collect();
    let nf = n as f64;
    let row_mean: Vec<f64> = (0..n).map(|i| cov[i].iter().sum::<f64>() / nf).collect();
    let col_mean: Vec<f64> = (0..n)
        .map(|j| (0..n).map(|i| cov[i][j]).sum::<f64>() / nf)
        .collect();
    let all_mean = row_mean.iter().sum::<f64>() / nf;
    let k2 = ELO_PER_LOGIT * ELO_PER_LOGIT;
    let covariance: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (cov[i][j] - row_mean[i] - col_mean[j] + all_mean) * k2)
                .collect()
        })
        .collect();
    let elo: Vec<f64> = centred.iter().map(|t| t * ELO_PER_LOGIT).collect();
    let ci95 = (0..n)
        .map(|i| 1.959_963_985 * covariance[i][i].max(0.0).sqrt())
        .collect();
    let los = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if i == j {
                        return 0.5;
                    }
                    let var = covariance[i][i] + covariance[j][j] - 2.0 * covariance[i][j];
                    if var.is_finite() && var > 0.0 {
                        normal_cdf((elo[i] - elo[j]) / var.sqrt())
                    } else {
                        0.5
                    }
                })
                .collect()
        })
        .collect();
    Ratings {
        elo,
        ci95,
        covariance,
        los,
        iterations,
    }
}

/// Gradient and negated Hessian (the observed information) of the log-likelihood.
fn derivatives(r: &Results, theta: &[f64], prior_draws: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let mut grad = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in (i + 1)..n {
            let g = r.games[i][j];
            if g == 0.0 {
                continue;
            }
            let p = sigmoid(theta[i] - theta[j]);
            let d = r.score[i][j] - g * p;
            grad[i] += d;
            grad[j] -= d;
            let w = g * p * (1.0 - p);
            info[i][i] += w;
            info[j][j] += w;
            info[i][j] -= w;
            info[j][i] -= w;
        }
        if prior_draws > 0.0 {
            let p = sigmoid(theta[i]);
            grad[i] += prior_draws * (0.5 - p);
            info[i][i] += prior_draws * p * (1.0 - p);
        }
    }
    (grad, info)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &v)| {
            let mut r = row.clone();
            r.push(v);
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, p);
        for r in 0..n {
            if r != c {
                let f = m[r][c] / m[c][c];
                if f != 0.0 {
                    let pivot = m[c].clone();
                    for (x, p) in m[r].iter_mut().zip(&pivot).skip(c) {
                        *x -= f * p;
                    }
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

/// Gauss-Jordan on `[a | I]`: O(n³), so hundreds of bots stay fast.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, p);
        let d = m[c][c];
        for x in m[c].iter_mut() {
            *x /= d;
        }
        let pivot = m[c].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != c {
                let f = row[c];
                if f != 0.0 {
                    for (x, p) in row.iter_mut().zip(&pivot) {
                        *x -= f * p;
                    }
                }
            }
        }
    }
    Some(m.into_iter().map(|row| row[n..].to_vec()).collect())
}

/// The standard normal distribution function (Abramowitz-Stegun 7.1.26 on erf; error < 1.5e-7).
pub fn normal_cdf(x: f64) -> f64 {
    let z = x / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// Glicko-2 (the skillratings crate), as a second opinion next to the maximum-likelihood fit:
/// games are applied one at a time in schedule order (game id), so the result does not depend
/// on which game happened to finish first. Returns (rating, deviation) per bot, starting from
/// 1500 / 350.
pub fn glicko2(n: usize, games: &[(usize, usize, f64)]) -> Vec<(f64, f64)> {
    use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
    use skillratings::Outcomes;
    let config = Glicko2Config::new();
    let mut r = vec![Glicko2Rating::new(); n];
    for &(i, j, s) in games {
        if i == j || i >= n || j >= n {
            continue;
        }
        let outcome = if s > 0.75 {
            Outcomes::WIN
        } else if s < 0.25 {
            Outcomes::LOSS
        } else {
            Outcomes::DRAW
        };
        let (a, b) = glicko2(&r[i], &r[j], &outcome, &config);
        r[i] = a;
        r[j] = b;
    }
    r.iter().map(|x| (x.rating, x.deviation)).collect()
}
