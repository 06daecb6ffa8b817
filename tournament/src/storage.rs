//! The machine's storage failing under a one-machine tournament: a full disk, a read-only
//! remount, another process holding the database's write lock. A game already played is kept in
//! memory and written again after a back-off, as the queue's workers do, so a fault of the
//! machine never stops the run nor costs a played game (docs/faults.md).

use std::time::{Duration, Instant};

use arbiter_match::game::storage_fault;
use rusqlite::ErrorCode;

/// How long a write is tried again before the run stops (`tournament resume` plays the game
/// again): longer than any backup or remount, short of a machine left broken overnight.
pub const GIVE_UP_AFTER: Duration = Duration::from_secs(30 * 60);

/// The fault in words when `e` comes from the machine's storage, not from what was written.
pub fn trouble(e: &anyhow::Error) -> Option<&'static str> {
    e.chain().find_map(|cause| {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return storage_fault(io);
        }
        match cause
            .downcast_ref::<rusqlite::Error>()?
            .sqlite_error_code()?
        {
            ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => Some("database locked"),
            ErrorCode::DiskFull => Some("disk full"),
            ErrorCode::ReadOnly => Some("read-only file system"),
            ErrorCode::SystemIoFailure => Some("I/O error"),
            ErrorCode::CannotOpen => Some("database cannot be opened"),
            _ => None,
        }
    })
}

/// Runs `write` until it succeeds, waiting out storage faults (0.5 s doubling to 10 s) for at
/// most [`GIVE_UP_AFTER`]; `say` hears each wait in words. Any other error is returned at once.
pub fn until_written<T>(
    what: &str,
    mut write: impl FnMut() -> anyhow::Result<T>,
    mut say: impl FnMut(String),
) -> anyhow::Result<T> {
    until_written_within(what, GIVE_UP_AFTER, &mut write, &mut say)
}

fn until_written_within<T>(
    what: &str,
    limit: Duration,
    write: &mut dyn FnMut() -> anyhow::Result<T>,
    say: &mut dyn FnMut(String),
) -> anyhow::Result<T> {
    let started = Instant::now();
    let mut failures = 0u32;
    loop {
        let e = match write() {
            Ok(v) => {
                if failures > 0 {
                    say(format!(
                        "{what}: written after {:.1} s of storage trouble",
                        started.elapsed().as_secs_f64()
                    ));
                }
                return Ok(v);
            }
            Err(e) => e,
        };
        let Some(why) = trouble(&e) else {
            return Err(e);
        };
        if started.elapsed() >= limit {
            return Err(e.context(format!(
                "{what}: storage trouble ({why}) for {:.0} s; stopped (resume plays the game again)",
                started.elapsed().as_secs_f64()
            )));
        }
        failures += 1;
        let wait = arbiter_queue::health::backoff(failures);
        say(format!(
            "{what}: cannot write ({why}); trying again in {:.1} s",
            wait.as_secs_f64()
        ));
        std::thread::sleep(wait);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> anyhow::Error {
        anyhow::Error::new(std::io::Error::from_raw_os_error(28)).context("cannot write x")
    }

    #[test]
    fn storage_faults_are_told_from_other_errors() {
        assert_eq!(trouble(&full()), Some("disk full"));
        let denied = anyhow::Error::new(std::io::Error::from_raw_os_error(13));
        assert_eq!(trouble(&denied), None);
        let busy = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
            None,
        );
        assert_eq!(trouble(&anyhow::Error::new(busy)), Some("database locked"));
        assert_eq!(trouble(&anyhow::anyhow!("no such bot")), None);
    }

    #[test]
    fn a_fault_is_waited_out_and_another_error_is_not() {
        let mut calls = 0;
        let mut said = Vec::new();
        let v = until_written_within(
            "game 3",
            Duration::from_secs(60),
            &mut || {
                calls += 1;
                if calls < 3 {
                    Err(full())
                } else {
                    Ok(7)
                }
            },
            &mut |s| said.push(s),
        )
        .unwrap();
        assert_eq!((v, calls), (7, 3));
        assert!(said[0].contains("disk full"), "{said:?}");
        assert!(said.last().unwrap().contains("written after"), "{said:?}");

        let mut calls = 0;
        let e = until_written_within(
            "game 4",
            Duration::from_secs(60),
            &mut || -> anyhow::Result<()> {
                calls += 1;
                Err(anyhow::anyhow!("bad row"))
            },
            &mut |_| {},
        )
        .unwrap_err();
        assert_eq!((calls, e.to_string()), (1, "bad row".to_string()));
    }

    #[test]
    fn a_fault_that_lasts_stops_the_run_and_says_so() {
        let e = until_written_within(
            "game 5",
            Duration::ZERO,
            &mut || -> anyhow::Result<()> { Err(full()) },
            &mut |_| {},
        )
        .unwrap_err();
        assert!(e.to_string().contains("resume plays the game again"), "{e}");
    }
}
