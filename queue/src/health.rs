//! Whether this process's judging is held up by its machine: a database that is locked or
//! restarting, a disk that cannot be written. Workers report trouble here while they back off
//! and retry, and clear it when work goes through again; the contest's admin page shows
//! [`status`] ("judging paused: database locked for 20 s").
//!
//! One state per process: the workers of one server share their database and their disk, so
//! one of them in trouble means all are.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What holds judging up, since when.
#[derive(Clone, Debug)]
struct Trouble {
    what: String,
    since: Instant,
    /// Last reported: trouble not reported again for a while is over even if no worker
    /// has said so (they may all be idle).
    seen: Instant,
}

static TROUBLE: Mutex<Option<Trouble>> = Mutex::new(None);

/// Trouble older than this without a new report is forgotten.
const STALE: Duration = Duration::from_secs(120);

/// Reports trouble ("database locked"), begun now or earlier.
pub fn trouble(what: &str) {
    trouble_since(what, Instant::now());
}

/// Reports trouble that began at `since` (a request to the database that has not answered
/// since then). The trouble's clock runs from its first report until [`clear`]; its words
/// are the latest report's, which knows most ("not answering", then "locked").
pub fn trouble_since(what: &str, since: Instant) {
    let now = Instant::now();
    let Ok(mut t) = TROUBLE.lock() else { return };
    match t.as_mut() {
        Some(t) => {
            t.what = what.to_string();
            t.since = t.since.min(since);
            t.seen = now;
        }
        None => {
            *t = Some(Trouble {
                what: what.to_string(),
                since,
                seen: now,
            })
        }
    }
}

/// Awaits a database request; one that takes longer than [`SLOW`] is reported as trouble
/// while it waits (a locked SQLite waits out its busy timeout, a pool waits for a restarting
/// PostgreSQL, without an error to show for it meanwhile).
pub async fn watched<T>(request: impl std::future::Future<Output = T>) -> T {
    let start = Instant::now();
    tokio::pin!(request);
    tokio::select! {
        done = &mut request => return done,
        _ = tokio::time::sleep(SLOW) => {}
    }
    trouble_since("database not answering", start);
    request.await
}

/// How long a database request may take before judging counts as held up.
pub const SLOW: Duration = Duration::from_secs(2);

/// Work went through: the trouble is over.
pub fn clear() {
    if let Ok(mut t) = TROUBLE.lock() {
        *t = None;
    }
}

/// "judging paused: database locked for 20 s", or `None` when judging is not held up.
pub fn status() -> Option<String> {
    let (what, seconds) = held_up()?;
    Some(format!("judging paused: {what} for {seconds} s"))
}

/// What holds judging up ("database locked", one of [`TROUBLES`]) and for how many seconds, or
/// `None`: [`status`] in parts, for a page that says it in its reader's language.
pub fn held_up() -> Option<(String, u64)> {
    let t = TROUBLE.lock().ok()?.clone()?;
    if t.seen.elapsed() > STALE {
        return None;
    }
    Some((t.what, t.since.elapsed().as_secs()))
}

/// Every trouble the workers report, in the words [`held_up`] gives.
pub const TROUBLES: [&str; 5] = [
    "database locked",
    "database not answering",
    "database unreachable",
    "database restarting",
    DISK,
];

/// The trouble of a disk that cannot be written (a worker's storage fault).
pub const DISK: &str = "disk cannot be written";

/// How long a worker waits before trying again after its `failures`-th failure in a row:
/// 0.5 s doubling to at most 10 s, so that judging resumes soon after the fault ends.
pub fn backoff(failures: u32) -> Duration {
    let ms = 500u64.saturating_mul(1 << failures.saturating_sub(1).min(5));
    Duration::from_millis(ms.min(10_000))
}

/// A database error in words for [`trouble`], when it is one a worker should wait out: the
/// database locked (SQLite busy), restarting or unreachable (PostgreSQL).
pub fn transient(e: &sqlx::Error) -> Option<&'static str> {
    match e {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => {
            Some("database unreachable")
        }
        sqlx::Error::Database(d) => {
            let message = d.message();
            let code = d.code();
            let code = code.as_deref().unwrap_or("");
            if message.contains("locked") || message.contains("busy") {
                Some("database locked")
            } else if code.starts_with("08") || code.starts_with("57P") || code == "53300" {
                // Connection exceptions, the server shutting down or starting (operator
                // intervention), too many connections.
                Some("database restarting")
            } else {
                None
            }
        }
        // A connection cut mid-message shows as a protocol error.
        sqlx::Error::Protocol(_) => Some("database unreachable"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_a_cap() {
        assert_eq!(backoff(1), Duration::from_millis(500));
        assert_eq!(backoff(2), Duration::from_millis(1000));
        assert_eq!(backoff(5), Duration::from_millis(8000));
        assert_eq!(backoff(50), Duration::from_millis(10_000));
    }

    #[test]
    fn trouble_is_shown_until_cleared() {
        trouble("database locked");
        let s = status().unwrap();
        assert!(s.starts_with("judging paused: database locked for "), "{s}");
        clear();
        assert_eq!(status(), None);
    }
}
