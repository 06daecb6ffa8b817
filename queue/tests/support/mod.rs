//! Databases for the queue tests: a fresh SQLite file always, and a fresh PostgreSQL database
//! when `ARBITER_TEST_PG` names a server (scripts/test.sh starts one on loopback). With
//! `ARBITER_REQUIRE_PG=1` (set by scripts/test.sh) a missing server is a failure, not a skip.

#![allow(dead_code)]

use arbiter_queue::{Db, Queue};

pub mod faults;

pub struct TestDb {
    pub name: &'static str,
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

/// One SQLite database and, when available, one PostgreSQL database, both empty.
pub async fn databases() -> Vec<TestDb> {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut out = vec![TestDb {
        name: "sqlite",
        url: dir.path().join("q.db").display().to_string(),
        _dir: Some(dir),
    }];
    if let Some(url) = fresh_pg().await {
        out.push(TestDb {
            name: "postgres",
            url,
            _dir: None,
        });
    }
    out
}

/// A new, empty PostgreSQL database on the test server, or `None` without one.
pub async fn fresh_pg() -> Option<String> {
    let Ok(base) = std::env::var("ARBITER_TEST_PG") else {
        if std::env::var("ARBITER_REQUIRE_PG").as_deref() == Ok("1") {
            panic!("ARBITER_REQUIRE_PG=1 but ARBITER_TEST_PG is not set");
        }
        eprintln!("ARBITER_TEST_PG not set: PostgreSQL part skipped (scripts/test.sh sets it)");
        return None;
    };
    let admin = Db::connect(&base)
        .await
        .expect("connect to ARBITER_TEST_PG");
    let name = format!("t{:016x}", rand_u64());
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(admin.pool())
        .await
        .expect("create a test database");
    admin.close().await;
    let (prefix, _) = base
        .rsplit_once('/')
        .expect("a database name in ARBITER_TEST_PG");
    Some(format!("{prefix}/{name}"))
}

pub async fn queue(url: &str) -> Queue {
    let db = Db::connect(url).await.expect("connect");
    Queue::open(db).await.expect("open queue")
}

fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos(),
    );
    h.finish()
}
