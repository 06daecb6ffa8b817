//! The physical floor of referee overhead: one line to an echo bot and back.
//! The referee's overhead benchmark compares its own per-move cost against it.

use std::time::{Duration, Instant};

use super::bot::{BotProcess, SendError};
use super::framing::ReadEvent;

/// Distribution of round-trip times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundTripStats {
    /// Number of round trips measured.
    pub samples: usize,
    /// Fastest.
    pub min: Duration,
    /// Median.
    pub median: Duration,
    /// 99th percentile (nearest rank).
    pub p99: Duration,
    /// Slowest.
    pub max: Duration,
    /// Arithmetic mean.
    pub mean: Duration,
}

/// Why a measurement stopped.
#[derive(Debug, thiserror::Error)]
pub enum RoundTripError {
    /// The bot did not take the line.
    #[error("send failed: {0}")]
    Send(#[from] SendError),
    /// The bot answered something else, or nothing in time.
    #[error("round trip {index}: expected the echo, got {got:?}")]
    Unexpected { index: usize, got: ReadEvent },
    /// `n` was 0.
    #[error("no samples requested")]
    NoSamples,
}

impl RoundTripStats {
    /// Summarises raw samples (sorted internally); `None` when empty.
    pub fn from_samples(mut samples: Vec<Duration>) -> Option<RoundTripStats> {
        samples.sort();
        let n = samples.len();
        let first = *samples.first()?;
        let last = *samples.last()?;
        let rank = |q: f64| -> Duration {
            let i = ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
            samples.get(i).copied().unwrap_or(last)
        };
        let total: Duration = samples.iter().sum();
        Some(RoundTripStats {
            samples: n,
            min: first,
            median: rank(0.5),
            p99: rank(0.99),
            max: last,
            mean: total / u32::try_from(n).unwrap_or(u32::MAX),
        })
    }
}

/// Sends `n` lines `ping <i>` to an echo bot (e.g. `cat`) and times each
/// reply; each reply must arrive within `timeout`.
pub fn measure_round_trip(
    bot: &mut BotProcess,
    n: usize,
    timeout: Duration,
) -> Result<RoundTripStats, RoundTripError> {
    let mut samples = Vec::with_capacity(n);
    for index in 0..n {
        let line = format!("ping {index}");
        let start = Instant::now();
        bot.send_line(&line)?;
        match bot.read_line(start + timeout) {
            ReadEvent::Line(got) if got == line.as_bytes() => samples.push(start.elapsed()),
            got => return Err(RoundTripError::Unexpected { index, got }),
        }
    }
    RoundTripStats::from_samples(samples).ok_or(RoundTripError::NoSamples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_match_a_naive_computation() {
        let samples: Vec<Duration> = (1..=100).rev().map(Duration::from_micros).collect();
        let s = RoundTripStats::from_samples(samples);
        let expect = RoundTripStats {
            samples: 100,
            min: Duration::from_micros(1),
            median: Duration::from_micros(50),
            p99: Duration::from_micros(99),
            max: Duration::from_micros(100),
            mean: Duration::from_nanos(50_500),
        };
        assert_eq!(s, Some(expect));
        assert_eq!(RoundTripStats::from_samples(Vec::new()), None);
    }
}
