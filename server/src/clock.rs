//! The server's clocks. Wall time (Unix ms) is what pages show and what a day's budget
//! counts. The time between two events that a limit bounds (one submission every 10 s) is
//! measured on the machine's boot clock instead (`CLOCK_BOOTTIME`: it never steps, and it
//! counts a suspend), which a stepped wall clock (NTP correcting a drift, `date -s`, a VM
//! restored from a snapshot) does not move: a clock stepped back two hours neither locks a
//! student out for two hours nor, stepped forward, lets one in early.
//!
//! A [`Mark`] of the boot clock is stored with the boot's id (the kernel's `boot_id`), so it
//! holds across restarts of the server. An event of another boot (the machine restarted
//! since) is measured on the wall clock, and never as less than nothing: a limit then waits at
//! most its own length.
//!
//! Sign-in limits are in memory and measured on `Instant` (monotonic) already; leases are on
//! the database's clock (docs/scale.md).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

/// The clocks a server reads. One per server; [`Clock::step_wall`] lets a test step the wall
/// clock under a running server without touching the machine's.
#[derive(Debug, Default)]
pub struct Clock {
    wall_offset_ms: AtomicI64,
}

/// A moment on the boot clock: which boot, and milliseconds since it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub boot: String,
    pub ms: i64,
}

impl Clock {
    /// The machine's clocks.
    pub fn system() -> Clock {
        Clock::default()
    }

    /// Wall time, Unix milliseconds.
    pub fn wall_ms(&self) -> i64 {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        now.saturating_add(self.wall_offset_ms.load(Ordering::Relaxed))
    }

    /// Steps the wall clock this server reads by `ms` (negative: back), as NTP or `date -s`
    /// steps a machine's; the boot clock does not move. For the fault tests.
    pub fn step_wall(&self, ms: i64) {
        self.wall_offset_ms.fetch_add(ms, Ordering::Relaxed);
    }

    /// Now on the boot clock, or `None` where it cannot be read (then limits fall back to the
    /// wall clock, bounded as for another boot).
    pub fn mark(&self) -> Option<Mark> {
        let boot = boot_id()?;
        let t = rustix::time::clock_gettime_dynamic(rustix::time::DynamicClockId::Boottime).ok()?;
        Some(Mark {
            boot: boot.to_string(),
            ms: t.tv_sec.saturating_mul(1000) + t.tv_nsec / 1_000_000,
        })
    }
}

/// This boot's id, read once.
fn boot_id() -> Option<&'static str> {
    static ID: OnceLock<Option<String>> = OnceLock::new();
    ID.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    })
    .as_deref()
}

/// Milliseconds from an earlier event (its boot-clock mark if it has one, and its wall time)
/// to now: on the boot clock when both are of this boot, else on the wall clock; never
/// negative.
pub fn elapsed_ms(now: Option<&Mark>, wall_now: i64, then: Option<&Mark>, then_wall: i64) -> i64 {
    let elapsed = match (now, then) {
        (Some(n), Some(t)) if n.boot == t.boot => n.ms - t.ms,
        _ => wall_now.saturating_sub(then_wall),
    };
    elapsed.max(0)
}

/// How long, in milliseconds, a limit of `interval_ms` between two events still waits after
/// `elapsed_ms`; `None` once it has passed. Never more than the interval itself.
pub fn remaining_ms(interval_ms: i64, elapsed_ms: i64) -> Option<i64> {
    let left = interval_ms - elapsed_ms.max(0);
    (left > 0).then_some(left.min(interval_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stepped_wall_clock_moves_no_interval() {
        let clock = Clock::system();
        let then = clock.mark().expect("the boot clock");
        let then_wall = clock.wall_ms();
        clock.step_wall(-2 * 3600 * 1000);
        let now = clock.mark().unwrap();
        let wall = clock.wall_ms();
        assert!(wall < then_wall - 7_000_000, "the wall clock stepped back");
        let e = elapsed_ms(Some(&now), wall, Some(&then), then_wall);
        assert!((0..1000).contains(&e), "{e}");
        clock.step_wall(4 * 3600 * 1000);
        let e = elapsed_ms(Some(&now), clock.wall_ms(), Some(&then), then_wall);
        assert!((0..1000).contains(&e), "stepped forward: {e}");
    }

    #[test]
    fn another_boot_is_measured_on_the_wall_clock_and_never_waits_longer_than_the_limit() {
        let old = Mark {
            boot: "another boot".into(),
            ms: 5_000_000,
        };
        let now = Mark {
            boot: "this boot".into(),
            ms: 1_000,
        };
        assert_eq!(elapsed_ms(Some(&now), 10_000, Some(&old), 4_000), 6_000);
        // The wall clock went back past the event: no time passed, not minus two hours.
        assert_eq!(elapsed_ms(Some(&now), 10_000, Some(&old), 7_210_000), 0);
        assert_eq!(elapsed_ms(None, 10_000, None, 7_210_000), 0);
        assert_eq!(remaining_ms(10_000, 0), Some(10_000));
        assert_eq!(remaining_ms(10_000, -7_200_000), Some(10_000));
        assert_eq!(remaining_ms(10_000, 4_000), Some(6_000));
        assert_eq!(remaining_ms(10_000, 10_000), None);
        assert_eq!(remaining_ms(0, 0), None);
    }
}
