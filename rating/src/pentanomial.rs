use serde::{Deserialize, Serialize};

/// The outcomes of a pair, by points the tested bot scored over both games.
pub const PAIR_OUTCOMES: [&str; 5] = ["LL", "LD", "DD/WL", "WD", "WW"];

/// One game's result for the tested bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

/// Counts of game pairs by points scored: index `k` holds pairs worth `k / 2` points
/// (LL, LD, DD or WL, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    pub fn new(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Adds a pair from the tested bot's two results.
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.counts[first as usize + second as usize] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The observed frequencies, each count first raised to at least `floor` (regularisation,
    /// so that no outcome has probability 0). `None` without any pair and with a zero floor.
    pub(crate) fn frequencies(&self, floor: f64) -> Option<[f64; 5]> {
        let raised = self.counts.map(|c| (c as f64).max(floor));
        let total: f64 = raised.iter().sum();
        (total > 0.0).then(|| raised.map(|c| c / total))
    }
}

/// The score of each outcome as a fraction of the pair's two points.
pub(crate) const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Mean and variance of the per-pair score under the distribution `p`.
pub(crate) fn mean_variance(p: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = SCORES.iter().zip(p).map(|(a, q)| a * q).sum();
    let var = SCORES
        .iter()
        .zip(p)
        .map(|(a, q)| q * (a - mean) * (a - mean))
        .sum();
    (mean, var)
}
