//! The contest's database on a full disk under a real `arbiter contest serve`
//! (docs/faults.md): SQLite's file on a small tmpfs kept full for 20 s while the server's own
//! worker judges, and a PostgreSQL cluster whose data directory is on a small tmpfs kept full
//! for 20 s while two `arbiter worker` processes judge. Each must end with judging resumed by
//! itself within a minute of space returning, every scheduled game played with exactly one
//! result and none the fault made, no worker gone, the admin page having said "judging
//! paused: the database cannot be written", and every student request meanwhile answered
//! (503 with Retry-After and words that say to try again, in the student's language), never
//! 500. All students submit the same deterministic bot, so every game of a colour is the
//! same game, fault or not.

use crate::contest_support;
use crate::faults;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use contest_support::{api_token, arbiter, free_port, submit_fixture_bot, wait_up, CONFIG};
use faults::Tmpfs;
use serde_json::Value;
use sqlx::Row;

const STUDENTS: [&str; 4] = ["s1", "s2", "s3", "s4"];
const FULL_FOR: Duration = Duration::from_secs(20);
const PAUSED: &str = "judging paused: the database cannot be written for ";

/// One test at a time: each plays a contest on a full disk, and both share two cores.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

struct Site {
    dir: PathBuf,
    base: String,
    server: Child,
    workers: Vec<Child>,
    pool: sqlx::AnyPool,
}

/// A contest in `dir` on the database `db` (a SQLite path or a PostgreSQL URL): four students,
/// a late one (`s5`) and a TA, 6 x 6 boards, the fixture bot at 50 ms a move.
async fn init(dir: &Path, db: &str) -> sqlx::AnyPool {
    let ok = arbiter()
        .args(["contest", "init"])
        .arg(dir)
        .args(["--game", "reversi", "--size", "6", "--db", db])
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(ok, "contest init");
    let config = CONFIG
        .replace("size = 8", "size = 6")
        .replace("{file} 8 0 slow", "{file} 6 0 slow");
    std::fs::write(dir.join("contest.toml"), config).unwrap();
    let mut roster = "login,name,role\nta,The TA,staff\ns5,s5,student\n".to_string();
    for s in STUDENTS {
        roster.push_str(&format!("{s},{s},student\n"));
    }
    std::fs::write(dir.join("roster.csv"), roster).unwrap();
    let ok = arbiter()
        .args(["contest", "users"])
        .arg(dir)
        .arg(dir.join("roster.csv"))
        .args(["--db", db])
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(ok, "contest users");
    sqlx::any::install_default_drivers();
    let url = match db.contains("://") {
        true => db.to_string(),
        false => format!("sqlite://{db}?mode=rw"),
    };
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::query("UPDATE users SET must_change = 0")
        .execute(&pool)
        .await
        .unwrap();
    pool
}

impl Site {
    /// Serves the contest with `local` judging slots, and `remote` `arbiter worker` processes
    /// (3 s heartbeats) beside it.
    async fn serve(dir: &Path, db: &str, pool: sqlx::AnyPool, local: usize, remote: usize) -> Site {
        let port = free_port();
        let base = format!("http://127.0.0.1:{port}");
        let server = arbiter()
            .args(["contest", "serve"])
            .arg(dir)
            .args(["--db", db, "--workers", &local.to_string()])
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .stdout(Stdio::null())
            .stderr(log(dir, "server"))
            .spawn()
            .expect("arbiter contest serve");
        wait_up(&base).await;
        let workers = (0..remote)
            .map(|i| {
                arbiter()
                    .args(["worker", "--db", db, "--slots", "1", "--lease", "12"])
                    .args(["--id", &format!("w{i}")])
                    .arg("--dir")
                    .arg(dir.join(format!("w{i}")))
                    .stdout(Stdio::null())
                    .stderr(log(dir, &format!("w{i}")))
                    .spawn()
                    .expect("arbiter worker")
            })
            .collect();
        Site {
            dir: dir.to_path_buf(),
            base,
            server,
            workers,
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

    async fn admin_page(&self, token: &str) -> String {
        reqwest::Client::new()
            .get(format!("{}/admin", self.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }
}

impl Drop for Site {
    /// A failed test shows what the server and the workers said.
    fn drop(&mut self) {
        if std::thread::panicking() {
            for entry in std::fs::read_dir(&self.dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "log") {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    let tail: Vec<&str> = text.lines().rev().take(60).collect();
                    eprintln!("--- {}:", path.display());
                    for line in tail.iter().rev() {
                        eprintln!("{line}");
                    }
                }
            }
        }
        let _ = self.server.kill();
        for w in &mut self.workers {
            let _ = w.kill();
        }
    }
}

/// A log file of the test's own for a process's stderr (shown when the test fails).
fn log(dir: &Path, name: &str) -> Stdio {
    std::fs::File::create(dir.join(format!("{name}.log")))
        .map(Stdio::from)
        .unwrap_or(Stdio::null())
}

/// What a student's request was answered while the disk was full.
#[derive(Debug)]
struct Answer {
    what: &'static str,
    status: u16,
    retry_after: Option<String>,
    error: String,
}

async fn answer(what: &'static str, r: reqwest::Response) -> Answer {
    let status = r.status().as_u16();
    let retry_after = r
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body: Value = r.json().await.unwrap_or(Value::Null);
    Answer {
        what,
        status,
        retry_after,
        error: body["error"].as_str().unwrap_or_default().to_string(),
    }
}

/// The late student submits the fixture bot, in Chinese, with a comment of 256 KB that
/// does not compress: more than a full disk has room for (PostgreSQL stores a small row in a
/// page it has, so only a request that needs new space meets its full disk).
async fn late_submission(base: &str, token: &str) -> Answer {
    let mut bot = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tournament/rbot.c"),
    )
    .unwrap();
    bot.extend_from_slice(b"\n/* ");
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..256 << 10 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bot.push(b"0123456789abcdefghijklmnopqrstuv"[(x >> 59) as usize]);
    }
    bot.extend_from_slice(b" */\n");
    let form = reqwest::multipart::Form::new().text("language", "c").part(
        "file",
        reqwest::multipart::Part::bytes(bot).file_name("rbot.c"),
    );
    let r = reqwest::Client::new()
        .post(format!("{base}/api/submissions"))
        .bearer_auth(token)
        .header("accept-language", "zh-CN")
        .multipart(form)
        .send()
        .await
        .unwrap();
    answer("submission", r).await
}

async fn sign_in(base: &str, login: &str, lang: &str) -> Answer {
    let r = reqwest::Client::new()
        .post(format!("{base}/api/login"))
        .header("accept-language", lang)
        .json(&serde_json::json!({"login": login, "password": login}))
        .send()
        .await
        .unwrap();
    answer("sign-in", r).await
}

/// The fault and what must hold through it: the students submit, two games are played, the
/// disk is kept full for [`FULL_FOR`] (the admin page must say why judging paused; students
/// sign in and the late one submits meanwhile), then judging must resume by itself. With
/// `kill_one`, a worker is killed (SIGKILL) during the fault with the game it
/// could not commit: its lease runs out and the job must be taken back and played by the
/// others, with no restart.
async fn ride_out(site: &mut Site, disk: &Tmpfs, kill_one: bool) {
    submit_fixture_bot(&site.base, &STUDENTS).await;
    let ta = api_token(&site.base, "ta").await;
    let late = api_token(&site.base, "s5").await;
    let t0 = Instant::now();
    while site.games_done().await < 2 {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "no game was played"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let full = disk.fill_space();
    let filled = Instant::now();
    let mut said = None;
    let mut answers = Vec::new();
    let mut signed_in = 0;
    let mut killed = None;
    while filled.elapsed() < FULL_FOR {
        if kill_one && killed.is_none() && filled.elapsed() > FULL_FOR / 4 {
            killed = kill_a_holding_worker(site).await;
        }
        let page = site.admin_page(&ta).await;
        if said.is_none() && page.contains(PAUSED) {
            said = Some(filled.elapsed());
        }
        // The students ask once the page has said it (so that the server learnt it from its
        // workers, not from their requests), or after 12 s.
        if said.is_some() || filled.elapsed() > Duration::from_secs(12) {
            if answers.is_empty() {
                answers.push(late_submission(&site.base, &late).await);
            }
            if signed_in < STUDENTS.len() {
                let lang = if signed_in % 2 == 0 { "en" } else { "zh-CN" };
                answers.push(sign_in(&site.base, STUDENTS[signed_in], lang).await);
                signed_in += 1;
            }
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let before = site.games_done().await;
    full.stop();
    let freed = Instant::now();

    let said =
        said.expect("the admin page never said judging paused: the database cannot be written");
    eprintln!(
        "the admin page said it {:.1} s into the fault",
        said.as_secs_f64()
    );
    for a in &answers {
        eprintln!(
            "{} during the fault: {} (Retry-After {:?}) {}",
            a.what, a.status, a.retry_after, a.error
        );
        assert_ne!(a.status, 500, "{a:?}");
        assert!(
            a.status < 300 || a.status == 503,
            "a request answered neither as usual nor 503: {a:?}"
        );
        if a.status == 503 {
            assert!(a.retry_after.is_some(), "503 without Retry-After: {a:?}");
            assert!(
                a.error.contains("try again") || a.error.contains("重试"),
                "{a:?}"
            );
            assert!(!a.error.contains("internal error"), "{a:?}");
        }
    }
    let submission = &answers[0];
    assert_eq!(
        submission.status, 503,
        "the late submission went through a full disk: {submission:?}"
    );
    assert!(
        submission.error.contains("重试"),
        "not in Chinese: {submission:?}"
    );

    // Judging resumes by itself within a minute of space returning.
    let expected = expected_games(site).await;
    if before < expected {
        while site.games_done().await <= before {
            assert!(
                freed.elapsed() < Duration::from_secs(60),
                "no game was committed within a minute of space returning"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        eprintln!(
            "the first game after the fault was committed {:.1} s after space returned",
            freed.elapsed().as_secs_f64()
        );
    }
    while site.games_done().await < expected {
        assert!(
            freed.elapsed() < Duration::from_secs(180),
            "the contest's games were not all played"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for w in &mut site.workers {
        assert!(w.try_wait().unwrap().is_none(), "a worker exited");
    }
    // Once judging is back, the page stops saying it paused (a killed worker's last word
    // and the students' requests' included).
    let played = Instant::now();
    while site.admin_page(&ta).await.contains("judging paused") {
        assert!(
            played.elapsed() < Duration::from_secs(30),
            "the admin page still says judging paused 30 s after every game was played"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    if kill_one && killed.is_none() {
        eprintln!("no worker held a job during the fault: the lease takeover was not exercised");
    }
    if let Some((id, held)) = killed {
        assert!(
            !held.is_empty(),
            "worker {id} held no job when it was killed"
        );
        for job in held {
            let by: String = sqlx::query_scalar("SELECT worker FROM results WHERE job = $1")
                .bind(job)
                .fetch_one(&site.pool)
                .await
                .unwrap();
            assert_ne!(
                by, id,
                "job {job} was committed by the worker killed holding it"
            );
        }
    }
}

/// Kills (SIGKILL) a worker that holds a running job, if one does now: which worker holds one
/// at a given moment depends on the machine's speed, so the test picks it rather than a fixed one.
async fn kill_a_holding_worker(site: &mut Site) -> Option<(String, Vec<i64>)> {
    let holders: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT worker FROM jobs WHERE state = 'running' AND worker IS NOT NULL",
    )
    .fetch_all(&site.pool)
    .await
    .ok()?;
    let id = holders.into_iter().find(|w| w.starts_with('w'))?;
    let index: usize = id[1..].parse().ok()?;
    // Later workers shift down one place; only one is ever killed.
    let mut child = (index < site.workers.len()).then(|| site.workers.remove(index))?;
    child.kill().unwrap();
    child.wait().unwrap();
    let held: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM jobs WHERE state = 'running' AND worker = $1")
            .bind(&id)
            .fetch_all(&site.pool)
            .await
            .unwrap();
    eprintln!("killed worker {id} holding jobs {held:?}");
    Some((id, held))
}

/// Every pairing of the students with a ready submission, both colours.
async fn expected_games(site: &Site) -> i64 {
    let n = site
        .count("SELECT COUNT(*) FROM submissions WHERE status IN ('ready', 'pending')")
        .await;
    n * (n - 1)
}

/// Each game scheduled once with exactly one result, none the fault's, all equal; no job left.
async fn check(site: &mut Site) {
    let left = site
        .count("SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running')")
        .await;
    assert_eq!(left, 0, "jobs left");
    let per_job = sqlx::query(
        "SELECT j.side0, j.side1, COUNT(r.job) FROM jobs j LEFT JOIN results r ON r.job = j.id \
         WHERE j.kind = 'game' GROUP BY j.side0, j.side1",
    )
    .fetch_all(&site.pool)
    .await
    .unwrap();
    assert_eq!(per_job.len() as i64, expected_games(site).await);
    for row in &per_job {
        assert_eq!(row.get::<i64, _>(2), 1, "a game without exactly one result");
    }
    let outcomes: Vec<String> = sqlx::query_scalar(
        "SELECT r.outcome FROM results r JOIN jobs j ON j.id = r.job WHERE j.kind = 'game'",
    )
    .fetch_all(&site.pool)
    .await
    .unwrap();
    let mut games = std::collections::BTreeSet::new();
    for o in &outcomes {
        let g: Value = serde_json::from_str(o).unwrap();
        assert_eq!(g["reason"], "normal", "a result the fault made: {o}");
        games.insert((g["winner"].to_string(), g["moves"].to_string()));
    }
    assert_eq!(
        games.len(),
        1,
        "identical bots played different games: {games:?}"
    );
    let failed = site
        .count("SELECT COUNT(*) FROM submissions WHERE status = 'failed'")
        .await;
    assert_eq!(failed, 0, "a submission was marked failed");
    for mut child in site.workers.drain(..) {
        let _ = child.kill();
        let _ = child.wait();
    }
    let _ = site.server.kill();
    let _ = site.server.wait();
}

/// The contest's SQLite database alone on a 24 MB tmpfs, kept full for 20 s while the
/// server's own worker judges.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_sqlite_disk_pauses_judging_and_it_resumes_by_itself() {
    let _serial = SERIAL.lock().await;
    if !faults::root() {
        eprintln!("skipped: mounting the test's tmpfs needs root");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    std::fs::create_dir_all(&dir).unwrap();
    let disk = Tmpfs::mount(&tmp.path().join("db"), "size=24m");
    let db = tmp.path().join("db/contest.db").display().to_string();
    let pool = init(&dir, &db).await;
    let mut site = Site::serve(&dir, &db, pool, 1, 0).await;
    ride_out(&mut site, &disk, false).await;
    check(&mut site).await;
}

/// A PostgreSQL cluster of the test's own whose data directory is on a tmpfs.
struct Cluster {
    dir: tempfile::TempDir,
    disk: Option<Tmpfs>,
    bin: PathBuf,
    port: u16,
}

impl Cluster {
    fn start() -> Option<Cluster> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .flatten()
            .map(|d| d.path().join("bin"))
            .find(|b| b.join("initdb").exists())?;
        let has_owner = Command::new("id")
            .arg("postgres")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !has_owner {
            eprintln!("no user postgres to run the cluster as");
            return None;
        }
        // Not in /tmp (scripts/pg.sh: nothing that cleans or binds /tmp may reach it).
        let dir = tempfile::Builder::new()
            .prefix("arbiter-pg-full")
            .tempdir_in("/var/tmp")
            .unwrap();
        let disk = Tmpfs::mount(&dir.path().join("pg"), "size=160m");
        for d in [dir.path().to_path_buf(), dir.path().join("pg")] {
            assert!(Command::new("chown")
                .arg("postgres:")
                .arg(&d)
                .status()
                .unwrap()
                .success());
        }
        let port = free_port();
        let c = Cluster {
            dir,
            disk: Some(disk),
            bin,
            port,
        };
        let data = c.data();
        assert!(c.as_owner("initdb", &["-D", &data, "-U", "arbiter", "--auth=trust"]));
        assert!(c.pg_ctl("start"), "PostgreSQL did not start");
        let created = Command::new(c.bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-U", "arbiter"])
            .arg("arbiter")
            .status()
            .unwrap()
            .success();
        assert!(created);
        Some(c)
    }

    fn data(&self) -> String {
        self.dir.path().join("pg/data").display().to_string()
    }

    fn url(&self) -> String {
        format!("postgres://arbiter@127.0.0.1:{}/arbiter", self.port)
    }

    fn as_owner(&self, program: &str, args: &[&str]) -> bool {
        Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(self.bin.join(program))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    fn pg_ctl(&self, action: &str) -> bool {
        let options = format!(
            "-h 127.0.0.1 -p {} -k {} -c fsync=off -c max_connections=100",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("server.log").display().to_string();
        self.as_owner(
            "pg_ctl",
            &[
                "-D",
                &self.data(),
                "-l",
                &log,
                "-w",
                "-m",
                "fast",
                "-o",
                &options,
                action,
            ],
        )
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.pg_ctl("stop");
        drop(self.disk.take());
    }
}

/// The PostgreSQL data directory on a 160 MB tmpfs, kept full for 20 s while two `arbiter
/// worker` processes judge and the server judges nothing itself; one of them is killed
/// halfway through, and the game it held must be taken back and played by the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_postgresql_disk_pauses_two_workers_and_they_resume_by_themselves() {
    let _serial = SERIAL.lock().await;
    if !faults::root() {
        eprintln!("skipped: mounting the test's tmpfs (and running PostgreSQL as its own user) needs root");
        return;
    }
    let Some(pg) = Cluster::start() else {
        eprintln!("skipped: no PostgreSQL under /usr/lib/postgresql (scripts/test.sh installs it)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    std::fs::create_dir_all(&dir).unwrap();
    let pool = init(&dir, &pg.url()).await;
    let mut site = Site::serve(&dir, &pg.url(), pool, 0, 2).await;
    let disk = pg.disk.as_ref().unwrap();
    ride_out(&mut site, disk, true).await;
    check(&mut site).await;
}
