//! 2,000 simulated SPRTs on a seeded pentanomial game model: the test accepts the wrong
//! hypothesis no more often than alpha and beta allow. Prints the error rates and the average
//! number of pairs (`cargo test --release -p arbiter-rating --test simulation -- --nocapture`).

use arbiter_rating::{Decision, EloModel, Pentanomial, Sprt};

/// SplitMix64, seeded: the same runs every time.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

const DRAW: f64 = 0.3;

/// The pair distribution of two independent games won with probability `w` (draws fixed at
/// 30 %): LL, LD, DD/WL, WD, WW.
fn pairs(w: f64) -> [f64; 5] {
    let (d, l) = (DRAW, 1.0 - DRAW - w);
    [l * l, 2.0 * l * d, d * d + 2.0 * w * l, 2.0 * w * d, w * w]
}

/// Normalised Elo of a pair distribution.
fn nelo(p: &[f64; 5]) -> f64 {
    let a = [0.0, 0.25, 0.5, 0.75, 1.0];
    let mu: f64 = a.iter().zip(p).map(|(a, q)| a * q).sum();
    let var: f64 = a.iter().zip(p).map(|(a, q)| q * (a - mu) * (a - mu)).sum();
    (mu - 0.5) / (2.0 * var).sqrt() * 800.0 / std::f64::consts::LN_10
}

/// The pair distribution whose normalised Elo is `target`, by bisection on the win rate.
fn model(target: f64) -> [f64; 5] {
    let (mut lo, mut hi) = (0.0, 1.0 - DRAW);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if nelo(&pairs(mid)) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    pairs(0.5 * (lo + hi))
}

/// Plays pairs from `p` until the test decides; returns the decision and the pairs played.
fn run(sprt: &Sprt, p: &[f64; 5], rng: &mut Rng) -> (Option<Decision>, u64) {
    let mut counts = Pentanomial::default();
    // Far beyond the expected length; a run that got here would count as undecided.
    for _ in 0..200_000 {
        let mut u = rng.unit();
        let k = p
            .iter()
            .position(|&q| {
                u -= q;
                u < 0.0
            })
            .unwrap_or(4);
        counts.counts[k] += 1;
        if let Some(d) = sprt.decide(sprt.llr(&counts)) {
            return (Some(d), counts.pairs());
        }
    }
    (None, counts.pairs())
}

#[test]
fn error_rates_stay_within_alpha_and_beta() {
    let (alpha, beta) = (0.05, 0.05);
    let sprt = Sprt::new(0.0, 40.0, alpha, beta, EloModel::Normalized).unwrap();
    let mut rng = Rng(20_261_125);
    let runs = 1000;
    let mut total_pairs = 0;
    let mut rate = |true_elo: f64, wrong: Decision| {
        let p = model(true_elo);
        assert!((nelo(&p) - true_elo).abs() < 1e-6);
        let mut wrong_count = 0;
        for _ in 0..runs {
            let (d, n) = run(&sprt, &p, &mut rng);
            assert!(d.is_some(), "an SPRT ran 200,000 pairs without deciding");
            total_pairs += n;
            wrong_count += usize::from(d == Some(wrong));
        }
        wrong_count as f64 / runs as f64
    };
    let false_positive = rate(sprt.elo0, Decision::H1);
    let false_negative = rate(sprt.elo1, Decision::H0);
    let average = total_pairs as f64 / (2 * runs) as f64;
    println!(
        "SPRT nElo 0 vs 40, alpha = beta = 0.05, {runs} runs at each bound: false positives {:.1} %, \
         false negatives {:.1} %, {average:.0} pairs on average",
        false_positive * 100.0,
        false_negative * 100.0
    );
    // Sampling slack: three standard deviations of a rate of 5 % over 1,000 runs (2.1 points).
    let slack = 3.0 * (alpha * (1.0 - alpha) / runs as f64).sqrt();
    assert!(
        false_positive <= alpha + slack,
        "false positives {false_positive}"
    );
    assert!(
        false_negative <= beta + slack,
        "false negatives {false_negative}"
    );
    // An SPRT that decides at once would pass the rates trivially with no evidence.
    assert!(average > 20.0, "average sample {average}");
}
