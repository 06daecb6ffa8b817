//! Faults of the judging machine under a real `arbiter contest serve` (docs/faults.md): the
//! contest's SQLite database locked by another process for 30 s, and the contest's work
//! directory (where bots are built and games keep their scratch) full. Each must end with
//! every scheduled game played exactly once, no result the fault made, no submission marked
//! failed, judging resumed by itself, the admin page having said that judging was paused,
//! and the scoreboard of a run without faults: all four students submit the same
//! deterministic bot, so every game of a colour is the same game, fault or not.

use crate::contest_support;
use crate::faults;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use contest_support::{
    api_token, arbiter, free_port, init_contest, submit_fixture_bot, wait_up, CONFIG,
};
use faults::Tmpfs;
use sqlx::Row;

const STUDENTS: [&str; 4] = ["s1", "s2", "s3", "s4"];

struct Contest {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    base: String,
    server: Child,
    pool: sqlx::AnyPool,
}

impl Contest {
    /// A contest of four students and one TA, on 6 x 6 boards (short games) with
    /// [`CONFIG`]'s bot (50 ms a move); `before_serve` runs before the server starts.
    async fn start(before_serve: impl FnOnce(&Path)) -> Contest {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("contest");
        let mut roster = "login,name,role\nta,The TA,staff\n".to_string();
        for s in STUDENTS {
            roster.push_str(&format!("{s},{s},student\n"));
        }
        let config = CONFIG
            .replace("size = 8", "size = 6")
            .replace("{file} 8 0 slow", "{file} 6 0 slow");
        let pool = init_contest(&dir, &config, &roster).await;
        before_serve(&dir);
        let port = free_port();
        let base = format!("http://127.0.0.1:{port}");
        let server = arbiter()
            .args(["contest", "serve"])
            .arg(&dir)
            .args(["--workers", "1", "--listen", &format!("127.0.0.1:{port}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("arbiter contest serve");
        wait_up(&base).await;
        Contest {
            _tmp: tmp,
            dir,
            base,
            server,
            pool,
        }
    }

    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sql).fetch_one(&self.pool).await.unwrap()
    }

    async fn games_done(&self) -> i64 {
        self.count(
            "SELECT COUNT(*) FROM results r JOIN jobs j ON j.id = r.job WHERE j.kind = 'game'",
        )
        .await
    }

    /// The TA's API token, got before a fault (signing in writes a session).
    async fn ta_token(&self) -> String {
        api_token(&self.base, "ta").await
    }

    /// Waits until the admin page, as the TA sees it, shows `text`.
    async fn admin_shows(&self, token: &str, text: &str, limit: Duration) -> String {
        let t0 = Instant::now();
        loop {
            let page = reqwest::Client::new()
                .get(format!("{}/admin", self.base))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            if page.contains(text) {
                return page;
            }
            assert!(t0.elapsed() < limit, "the admin page never said {text:?}");
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }

    async fn wait_games(&self, at_least: i64, limit: Duration) {
        let t0 = Instant::now();
        while self.games_done().await < at_least {
            assert!(
                t0.elapsed() < limit,
                "fewer than {at_least} games were played"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// What every test ends with: 12 games, each scheduled once with one result, none the
    /// fault's, every game of a colour the same, no submission failed; then stops the server.
    async fn check_and_stop(mut self) {
        self.wait_games(12, Duration::from_secs(120)).await;
        let left = self
            .count("SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running')")
            .await;
        assert_eq!(left, 0, "jobs left");
        let per_job = sqlx::query(
            "SELECT j.side0, j.side1, COUNT(r.job) FROM jobs j LEFT JOIN results r ON r.job = j.id \
             WHERE j.kind = 'game' GROUP BY j.side0, j.side1",
        )
        .fetch_all(&self.pool)
        .await
        .unwrap();
        assert_eq!(per_job.len(), 12, "each pairing plays each colour once");
        for row in &per_job {
            assert_eq!(row.get::<i64, _>(2), 1, "a game without exactly one result");
        }
        let outcomes: Vec<String> = sqlx::query_scalar(
            "SELECT r.outcome FROM results r JOIN jobs j ON j.id = r.job WHERE j.kind = 'game'",
        )
        .fetch_all(&self.pool)
        .await
        .unwrap();
        let mut games = std::collections::BTreeSet::new();
        for o in &outcomes {
            let g: serde_json::Value = serde_json::from_str(o).unwrap();
            assert_eq!(g["reason"], "normal", "a result the fault made: {o}");
            games.insert((g["winner"].to_string(), g["moves"].to_string()));
        }
        assert_eq!(
            games.len(),
            1,
            "identical bots played different games: {games:?}"
        );
        let failed = self
            .count("SELECT COUNT(*) FROM submissions WHERE status = 'failed'")
            .await;
        assert_eq!(failed, 0, "a submission was marked failed");
        self.server.kill().unwrap();
        self.server.wait().unwrap();
    }
}

/// Another process holds the contest database's write lock for 30 s in the middle of
/// judging: the admin page says judging is paused, and judging resumes by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_contest_database_locked_30_s_resumes_judging_by_itself() {
    let contest = Contest::start(|_| {}).await;
    submit_fixture_bot(&contest.base, &STUDENTS).await;
    contest.wait_games(2, Duration::from_secs(120)).await;
    let ta = contest.ta_token().await;

    let mut holder = faults::hold_sqlite_lock(&contest.dir.join("contest.db"), 30);
    let locked = Instant::now();
    let before = contest.games_done().await;
    contest
        .admin_shows(
            &ta,
            "judging paused: database locked for ",
            Duration::from_secs(25),
        )
        .await;
    assert!(holder.wait().unwrap().success());
    assert!(locked.elapsed() >= Duration::from_secs(29));
    assert!(
        contest.games_done().await <= before + 1,
        "games were committed through the lock"
    );
    contest.check_and_stop().await;
}

/// The contest's work directory (builds, bots, scratch) on a small tmpfs that the test keeps
/// full for 4 s while games are played and a student submits: games and the compile are
/// voided and played once there is room, the admin page says judging is paused and then
/// lists the voided games as replayed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_contest_disk_voids_games_and_compiles_until_there_is_room() {
    let work = std::sync::Mutex::new(None::<(PathBuf, Tmpfs)>);
    let contest = Contest::start(|dir| {
        let w = dir.join("work");
        let fs = Tmpfs::mount(&w, "size=256m,nr_inodes=4096");
        *work.lock().unwrap() = Some((w, fs));
    })
    .await;
    let (work, tmpfs) = work.into_inner().unwrap().unwrap();
    submit_fixture_bot(&contest.base, &STUDENTS[..3]).await;
    contest.wait_games(1, Duration::from_secs(120)).await;
    let ta = contest.ta_token().await;

    let full = tmpfs.fill();
    submit_fixture_bot(&contest.base, &STUDENTS[3..]).await;
    contest
        .admin_shows(
            &ta,
            "judging paused: disk cannot be written for ",
            Duration::from_secs(30),
        )
        .await;
    tokio::time::sleep(Duration::from_secs(4)).await;
    full.stop();

    let voided = contest
        .count("SELECT COUNT(*) FROM events WHERE kind = 'voided'")
        .await;
    assert!(voided > 0, "nothing was voided");
    let page = contest
        .admin_shows(
            &ta,
            "could not write to its disk (disk full); replayed",
            Duration::from_secs(120),
        )
        .await;
    assert!(
        !page.contains(&work.display().to_string()),
        "the admin page shows a path"
    );
    contest.check_and_stop().await;
}
