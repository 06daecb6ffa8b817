//! The SPRT and Elo arithmetic against the numbers fastchess's and OpenBench's own code print
//! for the same counts. How to re-derive every figure: rating/reference/README.md (the inputs are
//! rating/reference/cases.txt).

use arbiter_rating::{Decision, EloModel, Estimate, GameResult, Pentanomial, Sprt};

/// One line of cases.txt and what the peers printed for it.
struct Case {
    elo0: f64,
    elo1: f64,
    /// LL, LD, DD, WL, WD, WW.
    counts: [u64; 6],
    openbench_llr: f64,
    fastchess_normalized_llr: f64,
    /// fastchess with its logistic root search run to 1e-9 instead of 1e-3 (README.md).
    fastchess_logistic_llr: f64,
    fastchess_stock_logistic_llr: f64,
    /// fastchess: Elo, its ± error, nElo, its ± error, LOS in percent (printed to 0.01).
    elo: f64,
    elo_error: f64,
    nelo: f64,
    nelo_error: f64,
    los_percent: f64,
}

const CASES: [Case; 5] = [
    Case {
        elo0: 0.0,
        elo1: 10.0,
        counts: [30, 120, 300, 20, 130, 40],
        openbench_llr: 0.813150507084,
        fastchess_normalized_llr: 0.813150507084,
        fastchess_logistic_llr: 0.806869192591,
        fastchess_stock_logistic_llr: 0.806872936576,
        elo: 8.144513059083,
        elo_error: 12.243118944764,
        nelo: 12.671544593556,
        nelo_error: 19.033445131811,
        los_percent: 90.40,
    },
    // OpenBench's own example (stats.py, `__main__`).
    Case {
        elo0: 0.5,
        elo1: 2.5,
        counts: [39, 8843, 26675, 0, 9240, 44],
        openbench_llr: 2.941675207989,
        fastchess_normalized_llr: 2.941675207987,
        fastchess_logistic_llr: 0.555517068721,
        fastchess_stock_logistic_llr: 0.555874408600,
        elo: 1.576762941400,
        elo_error: 1.030314041715,
        nelo: 3.479956126886,
        nelo_error: 2.273891545120,
        los_percent: 99.86,
    },
    // Empty outcomes, regularised to 0.001.
    Case {
        elo0: -5.0,
        elo1: 5.0,
        counts: [0, 3, 10, 0, 7, 0],
        openbench_llr: 0.230049326379,
        fastchess_normalized_llr: 0.230049326379,
        fastchess_logistic_llr: 0.459421964303,
        fastchess_stock_logistic_llr: 0.459421991630,
        elo: 34.860070287560,
        elo_error: 52.567539878272,
        nelo: 72.445327537822,
        nelo_error: 107.669424976368,
        los_percent: 90.64,
    },
    Case {
        elo0: 0.0,
        elo1: 20.0,
        counts: [2, 10, 40, 5, 60, 50],
        openbench_llr: 8.238104992612,
        fastchess_normalized_llr: 8.238104992904,
        fastchess_logistic_llr: 8.769434992219,
        fastchess_stock_logistic_llr: 8.769434686769,
        elo: 162.833355244763,
        elo_error: 31.034889852372,
        nelo: 226.354326470474,
        nelo_error: 37.260540966855,
        los_percent: 100.00,
    },
    Case {
        elo0: 0.0,
        elo1: 10.0,
        counts: [80, 150, 200, 30, 100, 20],
        openbench_llr: -7.074458537477,
        fastchess_normalized_llr: -7.074458537941,
        fastchess_logistic_llr: -9.689406247237,
        fastchess_stock_logistic_llr: -9.689409422582,
        elo: -51.286578547814,
        elo_error: 14.706439697448,
        nelo: -70.787440598735,
        nelo_error: 19.993710282315,
        los_percent: 0.00,
    },
];

fn pentanomial(c: [u64; 6]) -> Pentanomial {
    Pentanomial::new([c[0], c[1], c[2] + c[3], c[4], c[5]])
}

fn sprt(case: &Case, model: EloModel) -> Sprt {
    Sprt::new(case.elo0, case.elo1, 0.05, 0.05, model).expect("valid test parameters")
}

fn close(what: &str, ours: f64, theirs: f64, tolerance: f64) {
    assert!(
        (ours - theirs).abs() <= tolerance,
        "{what}: ours {ours:.12}, reference {theirs:.12}"
    );
}

#[test]
fn normalised_llr_matches_openbench_and_fastchess() {
    for case in &CASES {
        let llr = sprt(case, EloModel::Normalized).llr(&pentanomial(case.counts));
        close("OpenBench LLR", llr, case.openbench_llr, 1e-6);
        close("fastchess LLR", llr, case.fastchess_normalized_llr, 1e-6);
    }
}

#[test]
fn logistic_llr_matches_fastchess() {
    for case in &CASES {
        let llr = sprt(case, EloModel::Logistic).llr(&pentanomial(case.counts));
        close(
            "fastchess logistic LLR",
            llr,
            case.fastchess_logistic_llr,
            1e-6,
        );
        // Stock fastchess stops its root search at theta +- 0.001: close, not exact.
        close(
            "stock fastchess",
            llr,
            case.fastchess_stock_logistic_llr,
            5e-4,
        );
    }
}

#[test]
fn elo_interval_and_los_match_fastchess() {
    for case in &CASES {
        let e = Estimate::from_counts(&pentanomial(case.counts)).expect("pairs were played");
        close("Elo", e.elo, case.elo, 1e-6);
        close("Elo error", e.elo_error, case.elo_error, 1e-6);
        close("nElo", e.nelo, case.nelo, 1e-6);
        close("nElo error", e.nelo_error, case.nelo_error, 1e-6);
        // fastchess prints LOS to two decimals of a percent.
        close("LOS", e.los * 100.0, case.los_percent, 0.005);
        assert!(e.elo_lower < e.elo && e.elo < e.elo_upper);
    }
}

#[test]
fn bounds_follow_alpha_and_beta() {
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    let (lower, upper) = s.bounds();
    close("lower", lower, -2.944438979166, 1e-9);
    close("upper", upper, 2.944438979166, 1e-9);
    let s = Sprt::new(0.0, 10.0, 0.05, 0.1, EloModel::Normalized).unwrap();
    let (lower, upper) = s.bounds();
    close("lower", lower, (0.1f64 / 0.95).ln(), 1e-12);
    close("upper", upper, (0.9f64 / 0.05).ln(), 1e-12);
    assert_eq!(s.decide(upper), Some(Decision::H1));
    assert_eq!(s.decide(lower - 0.01), Some(Decision::H0));
    assert_eq!(s.decide(0.0), None);
}

#[test]
fn bad_parameters_are_refused() {
    let m = EloModel::Normalized;
    assert!(Sprt::new(10.0, 0.0, 0.05, 0.05, m).is_err());
    assert!(Sprt::new(0.0, 10.0, 0.0, 0.05, m).is_err());
    assert!(Sprt::new(0.0, 10.0, 0.05, 1.0, m).is_err());
    assert!(Sprt::new(0.0, 10.0, 0.6, 0.5, m).is_err());
    assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05, m).is_err());
    assert!(Sprt::new(0.0, 5000.0, 0.05, 0.05, m).is_err());
}

#[test]
fn no_pairs_no_evidence() {
    let empty = Pentanomial::default();
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap();
    assert_eq!(s.llr(&empty), 0.0);
    assert!(Estimate::from_counts(&empty).is_none());
    let mut one = Pentanomial::default();
    one.add_pair(GameResult::Win, GameResult::Draw);
    assert_eq!(one.counts, [0, 0, 0, 1, 0]);
    one.add_pair(GameResult::Loss, GameResult::Win);
    assert_eq!(one.counts, [0, 0, 1, 1, 0]);
}
