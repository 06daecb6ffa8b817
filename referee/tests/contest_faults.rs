//! Faults of the judging machine under a real `arbiter contest serve` (docs/faults.md): the
//! contest's SQLite database locked by another process for 30 s, and the contest's work
//! directory (where bots are built and games keep their scratch) full. Each must end with
//! every scheduled game played exactly once, no result the fault made, no submission marked
//! failed, judging resumed by itself, the admin page having said that judging was paused,
//! and the scoreboard of a run without faults: all four students submit the same
//! deterministic bot, so every game of a colour is the same game, fault or not.

mod contest_support;

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use contest_support::{arbiter, free_port, submit_fixture_bot, wait_up};
use sqlx::Row;

/// 6 x 6 Reversi (short games), the C fixture bot at 50 ms a move.
const CONFIG: &str = r#"name = "Fault contest"
[game]
name = "reversi"
size = 6
[limits]
move_ms = 2000
[submissions]
min_interval_s = 0
daily_budget_s = 0
games_per_pairing = 2
[languages.c]
name = "C"
file = "main.c"
compile = "gcc -O1 -o {out} {src}"
run = "{file} 6 0 slow"
"#;

const STUDENTS: [&str; 4] = ["s1", "s2", "s3", "s4"];

struct Contest {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    base: String,
    server: Child,
    pool: sqlx::AnyPool,
}

impl Contest {
    /// A contest of four students and one TA; `before_serve` runs before the server starts.
    async fn start(before_serve: impl FnOnce(&Path)) -> Contest {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("contest");
        assert!(arbiter()
            .args(["contest", "init"])
            .arg(&dir)
            .args(["--game", "reversi", "--size", "6"])
            .status()
            .unwrap()
            .success());
        std::fs::write(dir.join("contest.toml"), CONFIG).unwrap();
        let roster = tmp.path().join("roster.csv");
        let mut text = "login,name,role\nta,The TA,staff\n".to_string();
        for s in STUDENTS {
            text.push_str(&format!("{s},{s},student\n"));
        }
        std::fs::write(&roster, text).unwrap();
        assert!(arbiter()
            .args(["contest", "users"])
            .arg(&dir)
            .arg(&roster)
            .status()
            .unwrap()
            .success());
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&format!(
            "sqlite://{}?mode=rw",
            dir.join("contest.db").display()
        ))
        .await
        .unwrap();
        sqlx::query("UPDATE users SET must_change = 0")
            .execute(&pool)
            .await
            .unwrap();
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
        let t: serde_json::Value = reqwest::Client::new()
            .post(format!("{}/api/login", self.base))
            .json(&serde_json::json!({"login": "ta", "password": "ta"}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        t["token"].as_str().expect("a token").to_string()
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

    let mut holder = hold_sqlite_lock(&contest.dir.join("contest.db"), 30);
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

/// `BEGIN EXCLUSIVE` by a Python process for `secs`; returns once it holds the lock.
fn hold_sqlite_lock(path: &Path, secs: u64) -> Child {
    let script = "import sqlite3, sys, time\n\
        c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)\n\
        c.execute('BEGIN EXCLUSIVE')\n\
        print('locked', flush=True)\n\
        time.sleep(float(sys.argv[2]))\n\
        c.execute('COMMIT')\n";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .arg(secs.to_string())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "locked");
    child
}

/// The contest's work directory (builds, bots, scratch) on a small tmpfs that the test keeps
/// full for 4 s while games are played and a student submits: games and the compile are
/// voided and played once there is room, the admin page says judging is paused and then
/// lists the voided games as replayed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_contest_disk_voids_games_and_compiles_until_there_is_room() {
    let work = std::sync::Mutex::new(None::<PathBuf>);
    let contest = Contest::start(|dir| {
        let w = dir.join("work");
        std::fs::create_dir_all(&w).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256m,nr_inodes=4096", "tmpfs"])
            .arg(&w)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "mount a tmpfs (the test needs root)");
        *work.lock().unwrap() = Some(w);
    })
    .await;
    let work = work.lock().unwrap().clone().unwrap();
    let _unmount = Unmount(work.clone());
    submit_fixture_bot(&contest.base, &STUDENTS[..3]).await;
    contest.wait_games(1, Duration::from_secs(120)).await;
    let ta = contest.ta_token().await;

    let full = Filler::start(&work);
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

struct Unmount(PathBuf);

impl Drop for Unmount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Keeps a file system's inodes used up (a game frees a few when it ends; they are taken at
/// once) until stopped.
struct Filler {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl Filler {
    fn start(dir: &Path) -> Filler {
        let filler = dir.join("filler");
        std::fs::create_dir_all(&filler).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = std::sync::Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut i = 0u64;
            while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
                match std::fs::File::create(filler.join(i.to_string())) {
                    Ok(_) => i += 1,
                    Err(e) if e.raw_os_error() == Some(28) => {
                        std::thread::sleep(Duration::from_millis(1))
                    }
                    Err(e) => panic!("filling the tmpfs: {e}"),
                }
            }
            std::fs::remove_dir_all(&filler).unwrap();
        });
        while std::fs::create_dir(dir.join("probe")).is_ok() {
            let _ = std::fs::remove_dir(dir.join("probe"));
            std::thread::sleep(Duration::from_millis(1));
        }
        Filler { stop, thread }
    }

    fn stop(self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().unwrap();
    }
}
