//! The database: SQLite (one file, nothing to install) or PostgreSQL (many machines), with one
//! schema and one code path (sqlx's `Any` driver). What differs is confined here: column types
//! in table definitions, the SQL for "now", how a writing transaction starts, and the lock
//! clause of a claim.

use std::time::Duration;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{Any, AnyPool, Connection, Executor, Row, Transaction};

/// Which database a [`Db`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A connection pool and its dialect. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    dialect: Dialect,
    url: String,
}

/// Why the database cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("cannot open the database {url}: {source}")]
    Connect { url: String, source: sqlx::Error },
    #[error("database {url}: {message}")]
    Url { url: String, message: String },
    #[error("the database was made by a newer arbiter ({component} schema version {found}, this build knows {known}): upgrade arbiter")]
    Newer {
        component: String,
        found: i64,
        known: i64,
    },
    #[error(transparent)]
    Sql(#[from] sqlx::Error),
}

impl Db {
    /// Opens `url`: `postgres://...` (or `postgresql://`), `sqlite://PATH`, or a plain file path
    /// (SQLite, created when missing).
    pub async fn connect(url: &str) -> Result<Db, DbError> {
        sqlx::any::install_default_drivers();
        let (dialect, conn_url) = parse_url(url)?;
        let options = AnyPoolOptions::new()
            .max_connections(match dialect {
                Dialect::Sqlite => 8,
                Dialect::Postgres => 16,
            })
            .acquire_timeout(Duration::from_secs(30));
        let options = match dialect {
            // WAL lets pages read while a worker writes; a writer waits up to 10 s for another.
            // NORMAL loses nothing on a process kill (only on power loss since the last
            // checkpoint); foreign keys are off by default in SQLite.
            Dialect::Sqlite => options
                .after_connect(|conn, _| {
                    Box::pin(async move {
                        conn.execute(
                            "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 10000; \
                             PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
                        )
                        .await?;
                        Ok(())
                    })
                })
                // A COMMIT that fails on a full disk or an I/O error is rolled back by SQLite
                // itself; sqlx's own ROLLBACK then fails and it still counts the transaction
                // as open, so every later `BEGIN IMMEDIATE` on that connection would be
                // refused. Such a connection is closed, not given back to the pool (the ping
                // waits for the queued rollback first).
                .after_release(|conn, _| {
                    Box::pin(async move {
                        conn.ping().await?;
                        Ok(!conn.is_in_transaction())
                    })
                }),
            Dialect::Postgres => options,
        };
        let pool = options
            .connect(&conn_url)
            .await
            .map_err(|source| DbError::Connect {
                url: redact(url),
                source,
            })?;
        Ok(Db {
            pool,
            dialect,
            url: redact(url),
        })
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The URL without its password, for messages.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Starts a transaction that will write. SQLite takes the write lock at once (`BEGIN
    /// IMMEDIATE`), so two writers never deadlock upgrading their read locks.
    pub async fn begin(&self) -> Result<Transaction<'static, Any>, sqlx::Error> {
        match self.dialect {
            Dialect::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Dialect::Postgres => self.pool.begin().await,
        }
    }

    /// SQL for the database's clock in Unix milliseconds. Leases are compared on the
    /// database's clock, never a worker's, so machines with skewed clocks agree.
    pub fn now(&self) -> &'static str {
        match self.dialect {
            Dialect::Sqlite => "CAST(unixepoch('subsec') * 1000 AS BIGINT)",
            Dialect::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        }
    }

    /// The lock clause of a claim: rows other claimers hold are skipped, not waited for.
    /// SQLite has one writer at a time, so it needs none.
    pub fn skip_locked(&self) -> &'static str {
        match self.dialect {
            Dialect::Sqlite => "",
            Dialect::Postgres => "FOR UPDATE SKIP LOCKED",
        }
    }

    /// A table definition in the one schema, with `{id}` (an auto-incremented 64-bit key),
    /// `{blob}` and `{now}` filled in for this dialect.
    pub fn ddl(&self, template: &str) -> String {
        let (id, blob) = match self.dialect {
            Dialect::Sqlite => ("INTEGER PRIMARY KEY AUTOINCREMENT", "BLOB"),
            Dialect::Postgres => (
                "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                "BYTEA",
            ),
        };
        template
            .replace("{id}", id)
            .replace("{blob}", blob)
            .replace("{now}", self.now())
    }

    /// The database's current time in Unix milliseconds.
    pub async fn now_ms(&self) -> Result<i64, sqlx::Error> {
        let row: AnyRow = sqlx::query(&format!("SELECT {}", self.now()))
            .fetch_one(&self.pool)
            .await?;
        row.try_get(0)
    }

    /// Brings `component`'s tables up to date: `steps[k]` takes the schema from version k to
    /// k + 1 (each a `;`-separated list of statements, written with [`Db::ddl`]'s
    /// placeholders). Runs under one transaction per step, so a killed process leaves
    /// either the old or the new version.
    pub async fn migrate(&self, component: &str, steps: &[&str]) -> Result<(), DbError> {
        let mut tx = self.begin().await?;
        self.lock_schema(&mut tx).await?;
        tx.execute(
            "CREATE TABLE IF NOT EXISTS schema_versions \
             (component TEXT PRIMARY KEY, version BIGINT NOT NULL)",
        )
        .await?;
        tx.commit().await?;
        loop {
            let mut tx = self.begin().await?;
            self.lock_schema(&mut tx).await?;
            let found: Option<i64> =
                sqlx::query_scalar("SELECT version FROM schema_versions WHERE component = $1")
                    .bind(component)
                    .fetch_optional(&mut *tx)
                    .await?;
            let found = found.unwrap_or(0);
            let known = steps.len() as i64;
            if found > known {
                return Err(DbError::Newer {
                    component: component.to_string(),
                    found,
                    known,
                });
            }
            if found == known {
                return Ok(());
            }
            for statement in self.ddl(steps[found as usize]).split(';') {
                if !statement.trim().is_empty() {
                    tx.execute(statement).await?;
                }
            }
            sqlx::query(
                "INSERT INTO schema_versions (component, version) VALUES ($1, $2) \
                 ON CONFLICT (component) DO UPDATE SET version = excluded.version",
            )
            .bind(component)
            .bind(found + 1)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        }
    }

    /// Holds schema changes by other processes off until `tx` ends. Machines started together
    /// on a new database (a coordinator and its workers) migrate at once, and PostgreSQL's
    /// `CREATE TABLE`, even `IF NOT EXISTS`, fails in one of two transactions that race to
    /// create the same table; so each migration transaction there first takes one
    /// transaction-scoped advisory lock, and reads the version only once it holds it.
    /// SQLite's `BEGIN IMMEDIATE` already admits one writer at a time.
    async fn lock_schema(&self, tx: &mut Transaction<'static, Any>) -> Result<(), sqlx::Error> {
        if self.dialect == Dialect::Postgres {
            // Any fixed key will do: only arbiter's migrations take it ("arbiter" in ASCII).
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(0x0061_7262_6974_6572_i64)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

fn parse_url(url: &str) -> Result<(Dialect, String), DbError> {
    let bad = |message: &str| DbError::Url {
        url: redact(url),
        message: message.to_string(),
    };
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok((Dialect::Postgres, url.to_string()));
    }
    if let Some(rest) = url.strip_prefix("sqlite:") {
        let path = rest.trim_start_matches("//");
        if path.is_empty() {
            return Err(bad("no file path"));
        }
        return Ok((Dialect::Sqlite, sqlite_url(path)));
    }
    if url.contains("://") {
        return Err(bad(
            "unknown database kind: use postgres://USER@HOST:PORT/DB or a SQLite file path",
        ));
    }
    if url.is_empty() {
        return Err(bad("empty database path"));
    }
    Ok((Dialect::Sqlite, sqlite_url(url)))
}

fn sqlite_url(path: &str) -> String {
    // `mode=rwc` creates the file. The path is percent-encoded where it matters to a URL.
    let encoded: String = path
        .chars()
        .map(|c| match c {
            '?' => "%3F".to_string(),
            '#' => "%23".to_string(),
            '%' => "%25".to_string(),
            c => c.to_string(),
        })
        .collect();
    format!("sqlite://{encoded}?mode=rwc")
}

/// `postgres://user:secret@host/db` -> `postgres://user:***@host/db`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((userinfo, host)) = rest.split_once('@') else {
        return url.to_string();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(parse_url("a.db").unwrap().0, Dialect::Sqlite);
        assert_eq!(
            parse_url("sqlite:///tmp/x.db").unwrap().1,
            "sqlite:///tmp/x.db?mode=rwc"
        );
        assert_eq!(parse_url("postgres://u@h/d").unwrap().0, Dialect::Postgres);
        assert!(parse_url("mysql://x").is_err());
        assert!(parse_url("").is_err());
        assert_eq!(redact("postgres://u:pw@h:5/d"), "postgres://u:***@h:5/d");
    }
}
