//! Rating math checked against independent calculations: closed forms, symmetry, and a
//! brute-force maximisation of the likelihood written out naively here.

#![allow(clippy::needless_range_loop)] // indices name bots in these checks

use arbiter_tournament::rating::{fit, log_likelihood, normal_cdf, Results, ELO_PER_LOGIT};
use arbiter_tournament::standings::{self, Outcome};
use proptest::prelude::*;

/// P(i beats j) on the Elo scale, written from the textbook formula.
fn expected(ri: f64, rj: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((rj - ri) / 400.0))
}

/// The likelihood in Elo units, independent of the crate's natural-unit version.
fn naive_ll(pairs: &[(usize, usize, f64)], elo: &[f64]) -> f64 {
    pairs
        .iter()
        .map(|&(i, j, s)| {
            let p = expected(elo[i], elo[j]);
            s * p.ln() + (1.0 - s) * (1.0 - p).ln()
        })
        .sum()
}

#[test]
fn two_players_match_the_closed_form() {
    // A scores 7 of 10 against B: the MLE has P = 0.7, so the gap is 400 log10(7/3).
    let mut r = Results::new(2);
    for k in 0..10 {
        r.add(0, 1, if k < 7 { 1.0 } else { 0.0 });
    }
    let f = fit(&r, 0.0);
    let gap = 400.0 * (7.0f64 / 3.0).log10();
    assert!((f.elo[0] - f.elo[1] - gap).abs() < 1e-6, "{:?}", f.elo);
    assert!((f.elo[0] + f.elo[1]).abs() < 1e-9, "centred");
    // Var(gap in logits) = 1 / (n p (1 - p)); each centred rating carries half the gap.
    let var_gap: f64 = 1.0 / (10.0 * 0.7 * 0.3);
    let sd_each = 0.5 * var_gap.sqrt() * ELO_PER_LOGIT;
    assert!(
        (f.ci95[0] - 1.959_963_985 * sd_each).abs() < 1e-6,
        "{} vs {}",
        f.ci95[0],
        1.96 * sd_each
    );
    // LOS = Phi(gap / sd(gap)).
    let los = normal_cdf(gap / (var_gap.sqrt() * ELO_PER_LOGIT));
    assert!((f.los[0][1] - los).abs() < 1e-9);
    assert!((f.los[0][1] + f.los[1][0] - 1.0).abs() < 1e-9);
}

#[test]
fn draws_count_as_half_wins() {
    // 4 wins, 2 draws, 4 losses: even.
    let mut r = Results::new(2);
    for s in [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0] {
        r.add(0, 1, s);
    }
    let f = fit(&r, 0.0);
    assert!(f.elo[0].abs() < 1e-9 && f.elo[1].abs() < 1e-9);
    assert!((f.los[0][1] - 0.5).abs() < 1e-9);
}

#[test]
fn normal_cdf_known_values() {
    assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
    assert!((normal_cdf(1.959_963_985) - 0.975).abs() < 1e-6);
    assert!((normal_cdf(-1.0) - 0.158_655_254).abs() < 1e-6);
}

/// Coordinate search on the naive likelihood: slow but obviously right.
fn brute_force(pairs: &[(usize, usize, f64)], n: usize) -> Vec<f64> {
    let mut elo = vec![0.0; n];
    let mut step = 200.0;
    while step > 1e-4 {
        let mut improved = true;
        while improved {
            improved = false;
            // Bot 0 stays at 0 (the likelihood only sees differences).
            for i in 1..n {
                for dir in [-1.0, 1.0] {
                    let mut t = elo.clone();
                    t[i] += dir * step;
                    if naive_ll(pairs, &t) > naive_ll(pairs, &elo) + 1e-13 {
                        elo = t;
                        improved = true;
                    }
                }
            }
        }
        step /= 2.0;
    }
    let mean = elo.iter().sum::<f64>() / n as f64;
    elo.iter().map(|e| e - mean).collect()
}

fn results(pairs: &[(usize, usize, f64)], n: usize) -> Results {
    let mut r = Results::new(n);
    for &(i, j, s) in pairs {
        r.add(i, j, s);
    }
    r
}

#[test]
fn newton_matches_brute_force_on_four_bots() {
    let mut pairs = Vec::new();
    // A cyclic-ish field where nobody wins or loses everything.
    let table = [
        (0, 1, 6, 2, 2),
        (0, 2, 5, 1, 4),
        (0, 3, 8, 1, 1),
        (1, 2, 3, 3, 4),
        (1, 3, 5, 2, 3),
        (2, 3, 4, 4, 2),
    ];
    for (i, j, w, d, l) in table {
        pairs.extend(std::iter::repeat_n((i, j, 1.0), w));
        pairs.extend(std::iter::repeat_n((i, j, 0.5), d));
        pairs.extend(std::iter::repeat_n((i, j, 0.0), l));
    }
    let f = fit(&results(&pairs, 4), 0.0);
    let b = brute_force(&pairs, 4);
    for k in 0..4 {
        assert!(
            (f.elo[k] - b[k]).abs() < 0.01,
            "bot {k}: {} vs {}",
            f.elo[k],
            b[k]
        );
    }
    // The crate's likelihood agrees with the naive one at the optimum (up to nothing: both
    // are the same function in different units).
    let theta: Vec<f64> = f.elo.iter().map(|e| e / ELO_PER_LOGIT).collect();
    let ll = log_likelihood(&results(&pairs, 4), &theta, 0.0);
    assert!((ll - naive_ll(&pairs, &f.elo)).abs() < 1e-9);
}

#[test]
fn observed_information_matches_a_numeric_hessian() {
    // The covariance must be the inverse of minus the second derivative of the likelihood,
    // computed here by finite differences on the reduced parameters (bot 0 fixed).
    let pairs: Vec<(usize, usize, f64)> = vec![
        (0, 1, 1.0),
        (0, 1, 0.0),
        (0, 1, 1.0),
        (0, 2, 0.5),
        (0, 2, 0.0),
        (1, 2, 1.0),
        (1, 2, 0.0),
        (1, 2, 0.0),
        (0, 2, 1.0),
        (0, 1, 0.5),
    ];
    let f = fit(&results(&pairs, 3), 0.0);
    let h = 1e-3;
    let ll = |x1: f64, x2: f64| naive_ll(&pairs, &[0.0, x1, x2]);
    let x = [f.elo[1] - f.elo[0], f.elo[2] - f.elo[0]];
    let d11 = (ll(x[0] + h, x[1]) - 2.0 * ll(x[0], x[1]) + ll(x[0] - h, x[1])) / (h * h);
    let d22 = (ll(x[0], x[1] + h) - 2.0 * ll(x[0], x[1]) + ll(x[0], x[1] - h)) / (h * h);
    let d12 = (ll(x[0] + h, x[1] + h) - ll(x[0] + h, x[1] - h) - ll(x[0] - h, x[1] + h)
        + ll(x[0] - h, x[1] - h))
        / (4.0 * h * h);
    // Invert [[-d11, -d12], [-d12, -d22]].
    let det = d11 * d22 - d12 * d12;
    let c11 = -d22 / det;
    let c22 = -d11 / det;
    let c12 = d12 / det;
    // Var(r1 - r0) from the crate's centred covariance.
    let cov = &f.covariance;
    let v1 = cov[1][1] + cov[0][0] - 2.0 * cov[0][1];
    let v2 = cov[2][2] + cov[0][0] - 2.0 * cov[0][2];
    let v12 = cov[1][2] - cov[1][0] - cov[0][2] + cov[0][0];
    assert!((v1 - c11).abs() / c11 < 1e-3, "{v1} vs {c11}");
    assert!((v2 - c22).abs() / c22 < 1e-3, "{v2} vs {c22}");
    assert!((v12 - c12).abs() / c12.abs() < 1e-2, "{v12} vs {c12}");
}

#[test]
fn a_perfect_score_stays_finite_with_the_prior() {
    let mut r = Results::new(3);
    for _ in 0..5 {
        r.add(0, 1, 1.0);
        r.add(0, 2, 1.0);
        r.add(1, 2, 0.5);
    }
    let f = fit(&r, 1.0);
    assert!(f.elo.iter().all(|e| e.is_finite()));
    assert!(f.elo[0] > f.elo[1] && (f.elo[1] - f.elo[2]).abs() < 1e-6);
    assert!(f.los[0][1] > 0.95);
}

proptest! {
    #[test]
    fn swapping_results_negates_ratings(scores in proptest::collection::vec((0usize..4, 0usize..4, 0u8..3), 1..40)) {
        let mut a = Results::new(4);
        let mut b = Results::new(4);
        for &(i, j, s) in &scores {
            let s = f64::from(s) / 2.0;
            a.add(i, j, s);
            b.add(i, j, 1.0 - s);
        }
        let fa = fit(&a, 1.0);
        let fb = fit(&b, 1.0);
        for k in 0..4 {
            prop_assert!((fa.elo[k] + fb.elo[k]).abs() < 1e-6, "{:?} {:?}", fa.elo, fb.elo);
            prop_assert!((fa.ci95[k] - fb.ci95[k]).abs() < 1e-6);
        }
        // Relabelling bots permutes ratings.
        let perm = [2usize, 0, 3, 1];
        let mut c = Results::new(4);
        for &(i, j, s) in &scores {
            c.add(perm[i], perm[j], f64::from(s) / 2.0);
        }
        let fc = fit(&c, 1.0);
        for k in 0..4 {
            prop_assert!((fa.elo[k] - fc.elo[perm[k]]).abs() < 1e-6);
        }
    }
}

/// Standings against a naive recount.
#[test]
fn match_points_follow_seed_001() {
    let g = |a: &str, b: &str, w: Option<usize>, leg: i64| Outcome {
        seats: [a.to_string(), b.to_string()],
        winner: w,
        leg,
    };
    let bots: Vec<String> = ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect();
    let games = vec![
        // A-B: A wins 2-0 -> A 3.
        g("A", "B", Some(0), 0),
        g("B", "A", Some(1), 0),
        // A-C: 1-1 -> 1 each.
        g("A", "C", Some(0), 0),
        g("C", "A", Some(0), 0),
        // B-C: draw + C win -> C 3.
        g("B", "C", None, 0),
        g("C", "B", Some(0), 0),
        // C-D: draw, draw -> 1 each; D-A none played.
        g("C", "D", None, 0),
        g("D", "C", None, 0),
    ];
    let s = standings::compute(&bots, &games);
    let mp = |b: &str| {
        s.rows
            .iter()
            .find(|r| r.bot == b)
            .map(|r| (r.match_points, r.game_points))
            .unwrap()
    };
    assert_eq!(mp("A"), (4, 3.0));
    assert_eq!(mp("B"), (0, 0.5));
    assert_eq!(mp("C"), (5, 3.5));
    assert_eq!(mp("D"), (1, 1.0));
    assert_eq!(s.rows[0].bot, "C");
    assert_eq!(s.rows[1].bot, "A");
    // Crosstable cells mirror each other.
    for i in 0..4 {
        for j in 0..4 {
            let (a, b) = (&s.cells[i][j], &s.cells[j][i]);
            assert_eq!(a.games, b.games);
            assert_eq!(a.wins, b.losses);
            assert!((a.points + b.points - f64::from(a.games)).abs() < 1e-12);
        }
    }
}

#[test]
fn glicko2_one_game_follows_glickmans_formulas() {
    // Two fresh players (1500, RD 350); the first wins. Glickman's step formulas, with the
    // volatility left at 0.06 (it moves by far less than a rating point here).
    let g = arbiter_tournament::rating::glicko2(2, &[(0, 1, 1.0)]);
    let scale = 173.7178;
    let phi: f64 = 350.0 / scale;
    let gphi = 1.0 / (1.0 + 3.0 * phi * phi / std::f64::consts::PI.powi(2)).sqrt();
    let v = 1.0 / (gphi * gphi * 0.25);
    let phi_star = (phi * phi + 0.06f64 * 0.06).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = phi_new * phi_new * gphi * 0.5;
    let rating = 1500.0 + scale * mu_new;
    assert!((g[0].0 - rating).abs() < 1.0, "{} vs {rating}", g[0].0);
    assert!(
        (g[0].1 - scale * phi_new).abs() < 1.0,
        "{} vs {}",
        g[0].1,
        scale * phi_new
    );
    // The loser mirrors the winner.
    assert!((g[0].0 - 1500.0 + g[1].0 - 1500.0).abs() < 1e-6);
    assert!((g[0].1 - g[1].1).abs() < 1e-6);
}

#[test]
fn two_hundred_bots_fit_quickly_and_recover_the_order() {
    // Bot k has true strength 4k Elo; every pair plays 2 games with the expected score rounded
    // to the nearest half point. The fit must keep the order of well-separated bots.
    let n = 200;
    let mut r = Results::new(n);
    for i in 0..n {
        for j in (i + 1)..n {
            let p = expected(4.0 * i as f64, 4.0 * j as f64);
            for _ in 0..2 {
                r.add(i, j, (p * 2.0).round() / 2.0);
            }
        }
    }
    let t0 = std::time::Instant::now();
    let f = fit(&r, 1.0);
    eprintln!(
        "200-bot fit: {:?}, {} iterations",
        t0.elapsed(),
        f.iterations
    );
    assert!(f.elo[n - 1] > f.elo[n / 2] && f.elo[n / 2] > f.elo[0]);
    assert!(f.ci95.iter().all(|c| c.is_finite() && *c > 0.0));
}
