//! Telling a slow bot from a stalled judge.
//!
//! A move is timed on the wall clock (`Instant`, CLOCK_MONOTONIC), which keeps running while
//! the referee is not: a frozen worker (SIGSTOP), a paused VM, swapping, an overloaded host.
//! Charging that time to the bot makes the machine decide the game. So every request is also
//! measured against three clocks that do not advance while the judge is stalled:
//!
//! - **the referee process**: a helper thread ticks every [`TICK`]; a tick that arrives late
//!   means no thread of this process ran for that long (the process was stopped, or the
//!   machine did not run it). Its late ticks are kept as *gaps*;
//! - **the referee thread**: its own run-queue wait (`/proc/thread-self/schedstat`): the time it
//!   was ready to read the answer but had no CPU;
//! - **the bot**: the run-queue wait of its main thread (`/proc/PID/schedstat`), less all the
//!   CPU time its own tree used meanwhile (a bot's threads waiting for each other on its one
//!   core is the bot's doing, not the machine's).
//!
//! The largest of the three is the request's *stall*: the time the machine, not the bot, took.
//! Taking the largest rather than the sum never credits one stall twice (a frozen process
//! shows in the ticks and may show in the waits too). What the game does with it is in
//! `game.rs` and docs/faults.md: the wait for an answer is extended by the stall, the bot's
//! clocks are charged without it, and a move that was late only because of it voids the game.

use std::collections::VecDeque;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How often the helper thread ticks.
pub const TICK: Duration = Duration::from_millis(5);

/// A tick later than this is a gap: scheduling noise below it is the tolerance's business.
const GAP: Duration = Duration::from_millis(20);

/// How long a ready bot must get no CPU at all to count as starved (see [`Meter::bot_starving`]).
pub const STARVED_WINDOW: Duration = Duration::from_millis(10);

/// The longest a starved bot is waited for beyond its deadline: a machine that starves a bot
/// longer is broken, and the move is judged as it stands.
pub const STARVED_AT_MOST: Duration = Duration::from_secs(60);

/// Gaps kept: far more than any request spans.
const KEPT: usize = 4096;

/// The helper's last tick and the gaps it saw.
struct Ticks {
    last: Instant,
    gaps: VecDeque<(Instant, Instant)>,
}

fn ticks() -> &'static Mutex<Ticks> {
    static TICKS: OnceLock<Mutex<Ticks>> = OnceLock::new();
    TICKS.get_or_init(|| {
        let started = std::thread::Builder::new()
            .name("arbiter-stall-ticker".into())
            .spawn(tick_forever);
        if started.is_err() {
            // Without the ticker no gap is ever seen: games are timed on the wall clock alone,
            // as before stall detection.
            eprintln!("arbiter: cannot start the stall ticker; stalls of the judge go unseen");
        }
        Mutex::new(Ticks {
            last: Instant::now(),
            gaps: VecDeque::new(),
        })
    })
}

fn tick_forever() {
    loop {
        std::thread::sleep(TICK);
        let now = Instant::now();
        let Ok(mut t) = ticks().lock() else { return };
        let due = t.last + TICK;
        if now.saturating_duration_since(due) > GAP {
            t.gaps.push_back((due, now));
            if t.gaps.len() > KEPT {
                t.gaps.pop_front();
            }
        }
        t.last = now;
    }
}

/// Starts the ticker (idempotent); a referee calls it before its first request so that the
/// first stall is seen too.
pub fn start_ticker() {
    let _ = ticks();
}

/// How long this process was not running between `from` and `to`, by the ticker's gaps.
///
/// When the ticker has not ticked for longer than a gap before `to`, a gap may be open that it
/// has not recorded yet: after a SIGCONT any thread may run first, and the referee must not
/// judge before the ticker has seen the gap. Then this waits (at most 200 ms) for a tick past
/// `to`. Otherwise (nearly always) it answers at once.
pub fn process_gaps(from: Instant, to: Instant) -> Duration {
    let give_up = Instant::now() + Duration::from_millis(200);
    loop {
        let Ok(t) = ticks().lock() else {
            return Duration::ZERO;
        };
        let open = to.saturating_duration_since(t.last) > TICK + GAP;
        if !open || Instant::now() >= give_up {
            let mut total: Duration = t.gaps.iter().map(|&(a, b)| overlap(a, b, from, to)).sum();
            if open {
                // The ticker itself has not run since: count the gap as it stands.
                total += overlap(t.last + TICK, to, from, to);
            }
            return total;
        }
        drop(t);
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn overlap(a: Instant, b: Instant, from: Instant, to: Instant) -> Duration {
    let start = a.max(from);
    let end = b.min(to);
    end.saturating_duration_since(start)
}

/// One line of `/proc/.../schedstat`: time on a CPU, time waiting for one (both ns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchedStat {
    pub run: Duration,
    pub wait: Duration,
}

impl SchedStat {
    /// Parses `run_ns wait_ns timeslices`.
    pub fn parse(text: &str) -> Option<SchedStat> {
        let mut fields = text.split_whitespace().map(str::parse::<u64>);
        let run = fields.next()?.ok()?;
        let wait = fields.next()?.ok()?;
        Some(SchedStat {
            run: Duration::from_nanos(run),
            wait: Duration::from_nanos(wait),
        })
    }

    /// The calling thread's.
    pub fn own_thread() -> Option<SchedStat> {
        Self::read("/proc/thread-self/schedstat")
    }

    /// The main thread of process `pid`.
    pub fn of(pid: i32) -> Option<SchedStat> {
        Self::read(&format!("/proc/{pid}/schedstat"))
    }

    fn read(path: &str) -> Option<SchedStat> {
        Self::parse(&std::fs::read_to_string(path).ok()?)
    }
}

/// What took the time of a request other than the bot.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stall {
    /// No thread of the referee's process ran (stopped, frozen, paused).
    pub process: Duration,
    /// The referee thread was ready but had no CPU.
    pub referee_wait: Duration,
    /// The bot was ready but had no CPU, beyond what its own tree used.
    pub bot_wait: Duration,
}

impl Stall {
    /// The time the bot is not charged.
    pub fn credit(&self) -> Duration {
        self.process.max(self.referee_wait).max(self.bot_wait)
    }

    /// In words, for a voided game: "judging machine stalled 8.0 s at move 31".
    pub fn describe(&self, ply: usize) -> String {
        if self.bot_wait > self.process.max(self.referee_wait) {
            format!(
                "the bot waited {:.1} s for a CPU of the overloaded judging machine at move {ply}",
                self.bot_wait.as_secs_f64()
            )
        } else {
            format!(
                "judging machine stalled {:.1} s at move {ply}",
                self.credit().as_secs_f64()
            )
        }
    }
}

/// Measures one request (a handshake or a move) from its start.
#[derive(Clone, Debug)]
pub struct Meter {
    start: Instant,
    referee: Option<SchedStat>,
    bot: Option<(i32, SchedStat, Duration)>,
}

impl Meter {
    /// Starts measuring on the referee's thread; `bot` is the bot's pid and its tree's CPU
    /// time now (none for a person at a browser).
    pub fn start(bot: Option<(i32, Duration)>) -> Meter {
        start_ticker();
        Meter {
            start: Instant::now(),
            referee: SchedStat::own_thread(),
            bot: bot.and_then(|(pid, cpu)| Some((pid, SchedStat::of(pid)?, cpu))),
        }
    }

    pub fn started(&self) -> Instant {
        self.start
    }

    /// Whether the bot is starved right now: ready to run (state `R`) yet given no CPU for
    /// [`STARVED_WINDOW`]. The kernel adds a wait to `schedstat` only when the waiting task
    /// gets its CPU, so at a deadline a starved bot's wait does not show yet: this looks at it
    /// as it happens. A bot that computes gets CPU in that window (time slices are a few ms)
    /// and is not starved; one blocked on anything is not `R`. `tree_cpu` is the CPU time of
    /// the bot's whole tree: a main thread kept waiting by the bot's own threads (all on its one
    /// core) is the bot's doing, and is no starvation.
    pub fn bot_starving(&self, mut tree_cpu: impl FnMut() -> Duration) -> bool {
        let Some((pid, _, _)) = self.bot else {
            return false;
        };
        let runnable = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| s.rsplit_once(") ").map(|(_, rest)| rest.starts_with('R')))
                .unwrap_or(false)
        };
        let (Some(before), true) = (SchedStat::of(pid), runnable()) else {
            return false;
        };
        let cpu_before = tree_cpu();
        std::thread::sleep(STARVED_WINDOW);
        let idle_tree = tree_cpu().saturating_sub(cpu_before) < STARVED_WINDOW / 10;
        idle_tree && SchedStat::of(pid).is_some_and(|after| after.run == before.run) && runnable()
    }

    /// The stall so far; call on the referee's thread, with the bot's tree CPU time now.
    pub fn stall(&self, bot_cpu: Duration) -> Stall {
        let now = Instant::now();
        let referee_wait = match (self.referee, SchedStat::own_thread()) {
            (Some(a), Some(b)) => b.wait.saturating_sub(a.wait),
            _ => Duration::ZERO,
        };
        let bot_wait = match self.bot {
            Some((pid, before, cpu0)) => SchedStat::of(pid).map_or(Duration::ZERO, |after| {
                let wait = after.wait.saturating_sub(before.wait);
                let own_run = after.run.saturating_sub(before.run);
                // CPU the rest of the bot's tree used while its main thread waited: that wait
                // may have been for its own threads.
                let others = bot_cpu.saturating_sub(cpu0).saturating_sub(own_run);
                wait.saturating_sub(others)
            }),
            None => Duration::ZERO,
        };
        Stall {
            process: process_gaps(self.start, now),
            referee_wait,
            bot_wait,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_schedstat() {
        let s = SchedStat::parse("97160340 427639003 65\n").unwrap();
        assert_eq!(s.run, Duration::from_nanos(97_160_340));
        assert_eq!(s.wait, Duration::from_nanos(427_639_003));
        assert_eq!(SchedStat::parse("12"), None);
        assert_eq!(SchedStat::parse("x 1 2"), None);
        assert!(SchedStat::own_thread().is_some());
    }

    #[test]
    fn the_largest_cause_is_credited_and_named() {
        let s = Stall {
            process: Duration::from_millis(8000),
            referee_wait: Duration::from_millis(3),
            bot_wait: Duration::from_millis(7000),
        };
        assert_eq!(s.credit(), Duration::from_millis(8000));
        assert_eq!(s.describe(31), "judging machine stalled 8.0 s at move 31");
        let starved = Stall {
            bot_wait: Duration::from_millis(200),
            ..Stall::default()
        };
        assert!(starved.describe(4).contains("waited 0.2 s for a CPU"));
    }

    #[test]
    fn a_quiet_process_has_no_gaps_and_is_answered_at_once() {
        start_ticker();
        std::thread::sleep(Duration::from_millis(20));
        let t0 = Instant::now();
        std::thread::sleep(Duration::from_millis(50));
        // Gaps the machine's load made are possible; a stall of a second is not.
        assert!(process_gaps(t0, Instant::now()) < Duration::from_millis(1000));
        // No waiting for the next tick when no gap can be open: 200 requests judged in far
        // less than the 200 x 2.5 ms that waiting would average.
        let asked = Instant::now();
        for _ in 0..200 {
            process_gaps(t0, Instant::now());
        }
        assert!(asked.elapsed() < Duration::from_millis(200));
    }

    #[test]
    fn overlap_is_clipped_to_the_window() {
        let t = Instant::now();
        let ms = Duration::from_millis;
        assert_eq!(overlap(t, t + ms(10), t + ms(5), t + ms(20)), ms(5));
        assert_eq!(overlap(t, t + ms(10), t + ms(20), t + ms(30)), ms(0));
    }
}
