//! Thinking time. A bot is told its limits (`arbiter bot --move-time/--game-time`, the
//! `ARBITER_MOVE_MS` / `ARBITER_GAME_MS` variables arbiter sets for every bot, or the protocol:
//! Gomocup's `INFO timeout_turn / timeout_match / time_left`, the duel's own clock on `PLACE` /
//! `SLIDE`) and turns them into a [`Deadline`] for each move.
//!
//! The searches stop at their level's depth and work caps first: with the usual limits the
//! deadline never binds, so games stay reproducible for a seed. The deadline is the safety net
//! for short limits and loaded machines: a move uses at most about half of the move time and a
//! fair share of the game time left, so a bot never loses on time.

use std::time::{Duration, Instant};

/// Kept back from every limit: the referee measures a move from its request to our answer,
/// which includes pipes and scheduling on a loaded machine.
const MARGIN: Duration = Duration::from_millis(30);

/// The time limits a bot plays under, as far as it was told them (`None`: no limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeLimits {
    pub move_time: Option<Duration>,
    pub game_time: Option<Duration>,
}

impl TimeLimits {
    /// Reads milliseconds as the protocols and variables write them: 0 means no limit.
    pub fn ms(ms: u64) -> Option<Duration> {
        (ms > 0).then(|| Duration::from_millis(ms))
    }
}

/// The bot's clock through one game: its limits and the game time used so far (our own
/// measure, or what the referee said was left, which is better: it counts the pipes too).
#[derive(Clone, Debug, Default)]
pub struct Clock {
    pub limits: TimeLimits,
    used: Duration,
    told_left: Option<Duration>,
}

impl Clock {
    pub fn new(limits: TimeLimits) -> Clock {
        Clock {
            limits,
            used: Duration::ZERO,
            told_left: None,
        }
    }

    /// A new game under the same limits.
    pub fn restart(&mut self) {
        self.used = Duration::ZERO;
        self.told_left = None;
    }

    /// The referee's figure of our game time left (replaces our own count until the next).
    pub fn set_left(&mut self, left: Option<Duration>) {
        self.told_left = left;
        self.used = Duration::ZERO;
    }

    /// Adds a finished move's thinking time.
    pub fn spent(&mut self, time: Duration) {
        self.used += time;
    }

    fn game_left(&self) -> Option<Duration> {
        let base = self.told_left.or(self.limits.game_time)?;
        Some(base.saturating_sub(self.used))
    }

    /// The deadline of a move that starts at `start`, with about `moves_to_go` more moves of
    /// ours to come in the game (this one included).
    pub fn deadline(&self, start: Instant, moves_to_go: u32) -> Deadline {
        let per_move = self
            .limits
            .move_time
            .map(|m| (m / 2).saturating_sub(MARGIN));
        // A tenth of the game time stays in reserve; a move may take twice its fair share of
        // the rest, never more than a quarter of all that is left.
        let per_game = self.game_left().map(|left| {
            let spendable = left.saturating_sub(left / 10 + MARGIN);
            (spendable * 2 / moves_to_go.max(1)).min(left / 4)
        });
        let hard = match (per_move, per_game) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Deadline::new(start, hard)
    }
}

/// When a search must stop: `soft`, no new iteration of the deepening starts (the next one
/// usually takes several times as long as the last); `hard`, the search in progress is
/// abandoned and the last finished iteration's move is played.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl Deadline {
    /// No time limit: only the level's caps stop the search.
    pub fn none() -> Deadline {
        Deadline {
            start: Instant::now(),
            soft: None,
            hard: None,
        }
    }

    /// A deadline `hard` after `start` (none when `hard` is `None`); iterations start until
    /// two fifths of it have passed.
    pub fn new(start: Instant, hard: Option<Duration>) -> Deadline {
        Deadline {
            start,
            soft: hard.map(|h| h * 2 / 5),
            hard,
        }
    }

    /// A deadline `hard` from now.
    pub fn after(hard: Duration) -> Deadline {
        Deadline::new(Instant::now(), Some(hard))
    }

    /// Whether another iteration of the deepening may start.
    pub fn may_deepen(&self) -> bool {
        self.soft.is_none_or(|s| self.start.elapsed() < s)
    }

    /// Whether the search in progress must stop now.
    pub fn expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// The hard limit, if any.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn half_the_move_time_less_the_margin() {
        let clock = Clock::new(TimeLimits {
            move_time: Some(ms(1000)),
            game_time: None,
        });
        let d = clock.deadline(Instant::now(), 30);
        assert_eq!(d.hard(), Some(ms(470)));
    }

    #[test]
    fn the_game_clock_shares_what_is_left() {
        let mut clock = Clock::new(TimeLimits {
            move_time: Some(ms(5000)),
            game_time: Some(ms(10_000)),
        });
        // 10 s left, 9 s spendable, 10 moves to go: twice the share is 1.8 s.
        assert_eq!(clock.deadline(Instant::now(), 10).hard(), Some(ms(1794)));
        clock.spent(ms(9000));
        // 1 s left: at most a quarter of it.
        assert_eq!(clock.deadline(Instant::now(), 1).hard(), Some(ms(250)));
        // The referee's figure replaces our own count.
        clock.set_left(Some(ms(100_000)));
        assert_eq!(
            clock.deadline(Instant::now(), 100).hard(),
            Some(ms(1799) + ms(2) / 5)
        );
    }

    #[test]
    fn no_limits_no_deadline() {
        let d = Clock::default().deadline(Instant::now(), 1);
        assert!(d.hard().is_none() && d.may_deepen() && !d.expired());
    }
}
