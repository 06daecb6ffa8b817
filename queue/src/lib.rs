//! Games to play, for tournaments and contests alike.
//!
//! - [`db`]: SQLite or PostgreSQL behind one code path.
//! - [`jobs`]: the queue: enqueue, fair claims under leases, heartbeats, exactly-once commits.
//! - [`worker`]: a worker's slots draining the queue on any machine; [`workers`] lists them;
//!   [`quarantine`] pauses a worker whose games fail far more than the others'.
//! - [`health`]: whether judging is held up by a locked database or a full disk, for the
//!   admin page.
//! - [`spec`]: what jobs carry (games, compiles) and the outcomes they commit.
//! - [`artefacts`]: bots by content hash, cached by workers; [`compile`]: building them in the
//!   sandbox; [`payload`]: compressed replays; [`modules`]: game modules, which travel as
//!   artefacts.

pub mod artefacts;
pub mod compile;
pub mod db;
pub mod health;
pub mod jobs;
pub mod modules;
pub mod payload;
pub mod quarantine;
pub mod schema;
pub mod spec;
pub mod worker;
pub mod workers;

pub use db::{Db, Dialect};
pub use jobs::{Claimed, Commit, JobKind, NewJob, Queue};

/// The arbiter version every worker of a queue must run.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Errors reading what the queue stores.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
    #[error("{0}")]
    Corrupt(String),
    #[error("{0} is missing from the database")]
    Missing(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
