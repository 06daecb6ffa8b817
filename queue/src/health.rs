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
    /// Said until then: trouble not reported again for a while is over even if no worker
    /// has said so (they may all be idle).
    until: Instant,
}

static TROUBLE: Mutex<Option<Trouble>> = Mutex::new(None);

/// Trouble older than this without a new report is forgotten.
const STALE: Duration = Duration::from_secs(120);

/// Reports trouble ("database locked"), begun now or earlier.
pub fn trouble(what: &str) {
    trouble_since(what, Instant::now());
}

/// Reports trouble that one request met (a contest server's page or API call): said for
/// [`BRIEF`] unless reported again, as no worker of this process may be there to clear it
/// once it is over.
pub fn trouble_briefly(what: &str) {
    report(what, Instant::now(), BRIEF);
}

/// How long trouble a request met is said without a new report.
pub const BRIEF: Duration = Duration::from_secs(15);

/// Reports trouble that began at `since` (a request to the database that has not answered
/// since then). The trouble's clock runs from its first report until [`clear`]; its words
/// are the latest report's, which knows most ("not answering", then "locked").
pub fn trouble_since(what: &str, since: Instant) {
    report(what, since, STALE);
}

fn report(what: &str, since: Instant, said_for: Duration) {
    let until = Instant::now() + said_for;
    let Ok(mut t) = TROUBLE.lock() else { return };
    match t.as_mut() {
        Some(t) if t.until >= Instant::now() => {
            t.what = what.to_string();
            t.since = t.since.min(since);
            t.until = t.until.max(until);
        }
        _ => {
            *t = Some(Trouble {
                what: what.to_string(),
                since,
                until,
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
    if Instant::now() > t.until {
        return None;
    }
    Some((t.what, t.since.elapsed().as_secs()))
}

/// Every trouble the workers report, in the words [`held_up`] gives.
pub const TROUBLES: [&str; 7] = [
    "database locked",
    "database not answering",
    "database unreachable",
    "database restarting",
    DB_STORAGE,
    "database error",
    DISK,
];

/// The trouble of a database whose storage refuses writes: SQLite's or PostgreSQL's disk
/// full, an I/O error, a file system remounted read-only.
pub const DB_STORAGE: &str = "the database cannot be written";

/// The trouble of a database error no rule here knows to be transient: the slot waits
/// anyway (judging stopping for good is worse than a retry every 10 s), and logs it.
pub const DB_ERROR: &str = "database error";

/// The trouble of a disk that cannot be written (a worker's storage fault).
pub const DISK: &str = "disk cannot be written";

/// How long a worker waits before trying again after its `failures`-th failure in a row:
/// 0.5 s doubling to at most 10 s, so that judging resumes soon after the fault ends.
pub fn backoff(failures: u32) -> Duration {
    let ms = 500u64.saturating_mul(1 << failures.saturating_sub(1).min(5));
    Duration::from_millis(ms.min(10_000))
}

/// A database error in words for [`trouble`], when it is one a worker should wait out: the
/// database locked (SQLite busy), restarting or unreachable (PostgreSQL), or its storage
/// refusing writes (either's disk full, an I/O error, a read-only file system).
pub fn transient(e: &sqlx::Error) -> Option<&'static str> {
    match e {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => {
            Some("database unreachable")
        }
        sqlx::Error::Database(d) => {
            if d.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                let code = d.code().and_then(|c| c.parse::<i64>().ok()).unwrap_or(-1);
                return sqlite_trouble(code, d.message());
            }
            let code = d.code();
            pg_trouble(code.as_deref().unwrap_or(""), d.message())
        }
        // A connection cut mid-message shows as a protocol error.
        sqlx::Error::Protocol(_) => Some("database unreachable"),
        _ => None,
    }
}

/// [`transient`] for a database a worker has not opened yet: one that answers but is locked,
/// restarting or cannot be written is waited out; one that cannot be reached or opened at all
/// (nothing listens there, SQLite cannot open the file: code 14) is not, as at start-up that
/// is far more often a wrong address than a fault.
pub fn transient_at_start(e: &sqlx::Error) -> Option<&'static str> {
    let what = transient(e)?;
    let cannot_open = e
        .as_database_error()
        .filter(|d| d.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some())
        .and_then(|d| d.code())
        .and_then(|c| c.parse::<i64>().ok())
        .is_some_and(|c| c & 0xff == 14);
    (what != "database unreachable" && !cannot_open).then_some(what)
}

/// SQLite's (extended) result codes a worker waits out: busy and locked, and the storage's
/// faults: full (13), I/O errors (10), read-only (8), a file it cannot open (14).
fn sqlite_trouble(code: i64, message: &str) -> Option<&'static str> {
    match code & 0xff {
        5 | 6 | 15 => Some("database locked"),
        8 | 10 | 13 | 14 => Some(DB_STORAGE),
        _ if message.contains("locked") || message.contains("busy") => Some("database locked"),
        _ if message.contains("disk is full") || message.contains("disk I/O error") => {
            Some(DB_STORAGE)
        }
        _ => None,
    }
}

/// PostgreSQL's SQLSTATEs a worker waits out.
fn pg_trouble(code: &str, message: &str) -> Option<&'static str> {
    match code {
        // Disk full, I/O error, a read-only transaction (a standby, or the server made
        // read-only while its disk is freed).
        "53100" | "58030" | "25006" => Some(DB_STORAGE),
        // Serialization failure, deadlock, lock not available: try again.
        "40001" | "40P01" | "55P03" => Some("database locked"),
        // Connection exceptions, the server shutting down or starting (operator
        // intervention), too many connections, out of memory and other resources.
        c if c.starts_with("08") || c.starts_with("57P") || c.starts_with("53") => {
            Some("database restarting")
        }
        _ if message.contains("locked") || message.contains("busy") => Some("database locked"),
        // A new connection's server process that cannot write its relation cache's file
        // (FATAL, an internal error's code) on a full disk.
        _ if message.contains("No space left on device")
            || message.contains("could not write init file") =>
        {
            Some(DB_STORAGE)
        }
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
    fn storage_faults_of_both_databases_are_waited_out() {
        assert_eq!(
            sqlite_trouble(13, "database or disk is full"),
            Some(DB_STORAGE)
        );
        assert_eq!(sqlite_trouble(778, "disk I/O error"), Some(DB_STORAGE));
        assert_eq!(
            sqlite_trouble(8, "attempt to write a readonly database"),
            Some(DB_STORAGE)
        );
        assert_eq!(
            sqlite_trouble(5, "database is locked"),
            Some("database locked")
        );
        assert_eq!(
            sqlite_trouble(517, "database is locked"),
            Some("database locked")
        );
        assert_eq!(sqlite_trouble(1555, "UNIQUE constraint failed"), None);
        assert_eq!(
            pg_trouble("53100", "could not extend file: No space left on device"),
            Some(DB_STORAGE)
        );
        assert_eq!(pg_trouble("58030", "could not write"), Some(DB_STORAGE));
        assert_eq!(
            pg_trouble("XX000", "could not write init file"),
            Some(DB_STORAGE)
        );
        assert_eq!(
            pg_trouble("57P01", "terminating"),
            Some("database restarting")
        );
        assert_eq!(
            pg_trouble("40P01", "deadlock detected"),
            Some("database locked")
        );
        assert_eq!(pg_trouble("23505", "duplicate key"), None);
        for what in [DB_STORAGE, DB_ERROR, DISK] {
            assert!(TROUBLES.contains(&what));
        }
        // A database nothing answers for is waited out once it was opened, not at start-up.
        let refused = || sqlx::Error::Io(std::io::Error::other("connection refused"));
        assert_eq!(transient(&refused()), Some("database unreachable"));
        assert_eq!(transient_at_start(&refused()), None);
    }

    #[test]
    fn trouble_is_shown_until_cleared() {
        trouble("database locked");
        let s = status().unwrap();
        assert!(s.starts_with("judging paused: database locked for "), "{s}");
        clear();
        assert_eq!(status(), None);
        // Trouble a request met (one state a process: in the same test).
        report(DB_STORAGE, Instant::now(), Duration::from_millis(50));
        let s = status().unwrap();
        assert!(
            s.starts_with("judging paused: the database cannot be written for "),
            "{s}"
        );
        std::thread::sleep(Duration::from_millis(80));
        assert_eq!(status(), None, "said past its time");
        clear();
    }
}
