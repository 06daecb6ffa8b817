//! Faults of the judging machine never decide a game, on the queue (docs/faults.md). A real
//! worker plays real games (tests/bots/reversi_misbehave.c) while a real fault is injected:
//!
//! - SQLite's write lock held by another process (`BEGIN EXCLUSIVE`) for 30 s;
//! - the PostgreSQL server stopped and started again (a throwaway cluster of this test's own);
//! - the worker's disk full (a small tmpfs of this test's own), with a compile among the
//!   games (match/tests/stalls.rs has a read-only one);
//! - the worker's process stopped with SIGSTOP in the middle of a game, longer than a move.
//!
//! Each ends with every job played exactly once, no result caused by the fault, judging
//! resumed by itself, and every game's outcome equal to a run without faults.
//!
//! The tests run one at a time: stopping the process stops every test in it, and the
//! judging state (`arbiter_queue::health`) is the process's.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use arbiter_queue::spec::{CompetitionConfig, CompileJob, GameJob, GameOutcome, JobBot, Run};
use arbiter_queue::worker::{Worker, WorkerOptions};
use arbiter_queue::{JobKind, NewJob, Queue};
use support::faults::Tmpfs;

static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const SIZE: u8 = 6;

fn bot_exe() -> &'static PathBuf {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("arbiter-faults-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("misbehave");
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bots/reversi_misbehave.c");
        let status = arbiter_sandbox::spawn_guarded(
            Command::new("cc").args(["-O2", "-o"]).arg(&exe).arg(&src),
        )
        .and_then(|mut c| c.wait())
        .expect("cc is needed for the fault tests");
        assert!(status.success());
        exe
    })
}

fn bot(name: &str, mode: &str, arg: &str) -> JobBot {
    JobBot {
        name: name.to_string(),
        protocol: arbiter_match::protocol::ProtocolKind::Reversi,
        run: Run::Command {
            command: format!("{} {mode} 3 {SIZE} {arg}", bot_exe().display()),
            dir: None,
        },
    }
}

/// The games: deterministic bots, some of which lose by their own fault.
fn games(slow_ms: u32) -> Vec<[JobBot; 2]> {
    let slow = slow_ms.to_string();
    vec![
        [bot("a", "slow", &slow), bot("b", "slow", &slow)],
        [bot("a", "slow", &slow), bot("c", "illegal", "")],
        [bot("c", "malformed", ""), bot("a", "slow", &slow)],
        [bot("b", "slow", &slow), bot("a", "fine", "")],
    ]
}

async fn enqueue(q: &Queue, name: &str, games: &[[JobBot; 2]], compile: bool) -> i64 {
    let config = CompetitionConfig {
        game: arbiter_engine::any::GameConfig::Reversi(arbiter_engine::reversi::Config {
            size: SIZE,
        }),
        limits: arbiter_match::game::LimitOverrides {
            move_ms: Some(1000),
            ..Default::default()
        },
    };
    let c = q
        .competition("contest", name, &serde_json::to_string(&config).unwrap())
        .await
        .unwrap();
    let mut jobs: Vec<NewJob> = games
        .iter()
        .enumerate()
        .map(|(i, bots)| NewJob {
            lane: format!("lane{i}"),
            kind: JobKind::Game,
            spec: serde_json::to_string(&GameJob {
                bots: bots.to_vec(),
                opening: Vec::new(),
                game: None,
                event: None,
                seed: Some(i as u64),
            })
            .unwrap(),
            sides: [bots[0].name.clone(), bots[1].name.clone()],
            seats: Vec::new(),
            priority: 0,
        })
        .collect();
    if compile {
        let source = b"int main(void) { return 0; }\n";
        let hash = arbiter_queue::artefacts::put(q.db(), source).await.unwrap();
        jobs.push(NewJob {
            lane: "compile".into(),
            kind: JobKind::Compile,
            spec: serde_json::to_string(&CompileJob {
                language: "c".into(),
                source: hash,
                file_name: "bot.c".into(),
                compile: "cc -o {out} {src}".into(),
                source_is_program: false,
                run: "{file}".into(),
                time_limit_ms: 20_000,
                memory_mb: 512,
            })
            .unwrap(),
            seats: Vec::new(),
            sides: ["student".into(), String::new()],
            priority: 0,
        });
    }
    q.enqueue(c, &jobs).await.unwrap();
    c
}

/// Runs one worker until the queue has been empty for a moment; `base` is its directory.
fn start_worker(q: &Queue, base: &Path, lease: Duration) -> tokio::task::JoinHandle<usize> {
    let mut opts = WorkerOptions::local(
        format!("w-{}", base.file_name().unwrap().to_string_lossy()),
        vec![vec![None, None]],
        base.to_path_buf(),
    );
    opts.lease = lease;
    opts.poll = Duration::from_millis(100);
    opts.exit_when_idle = Some(Duration::from_secs(2));
    let q = q.clone();
    tokio::spawn(async move {
        let worker = Worker::join(q, opts, arbiter_sandbox::Containment::detect())
            .await
            .expect("join");
        let (_tx, rx) = tokio::sync::watch::channel(false);
        worker.run(rx).await.expect("the worker ends by itself")
    })
}

/// What a game's result must equal across runs: who won, why, how long the game was.
type Score = (Option<u8>, String, u32, Option<Vec<i64>>);

/// Every job's one result, by its index in the order enqueued; fails on a job without
/// exactly one result.
async fn results(q: &Queue, c: i64) -> BTreeMap<usize, String> {
    let ids: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM jobs WHERE competition = $1 ORDER BY id")
            .bind(c)
            .fetch_all(q.db().pool())
            .await
            .unwrap();
    let rows: Vec<(i64, i64)> =
        sqlx::query_as("SELECT job, COUNT(*) FROM results WHERE competition = $1 GROUP BY job")
            .bind(c)
            .fetch_all(q.db().pool())
            .await
            .unwrap();
    let counts: BTreeMap<i64, i64> = rows.into_iter().collect();
    let mut out = BTreeMap::new();
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(counts.get(id), Some(&1), "job {id}: not exactly one result");
        let r = q.result(*id).await.unwrap().expect("a result");
        out.insert(i, r.outcome);
    }
    out
}

fn scores(outcomes: &BTreeMap<usize, String>) -> BTreeMap<usize, Score> {
    outcomes
        .iter()
        .filter_map(|(i, o)| {
            let g: GameOutcome = serde_json::from_str(o).ok()?;
            Some((*i, (g.winner, g.verdict, g.moves, g.scores)))
        })
        .collect()
}

/// The same games played without a fault, on a fresh SQLite queue.
async fn fault_free(games: &[[JobBot; 2]]) -> BTreeMap<usize, Score> {
    let dir = tempfile::tempdir().unwrap();
    let q = support::queue(&dir.path().join("q.db").display().to_string()).await;
    let c = enqueue(&q, "games", games, false).await;
    start_worker(&q, &dir.path().join("clean"), Duration::from_secs(60))
        .await
        .unwrap();
    scores(&results(&q, c).await)
}

/// Checks what every fault test checks: one result a job, no verdict of the machine's, the
/// games' outcomes those of a run without faults, and the voided games' replays citing it.
async fn check(q: &Queue, c: i64, games: &[[JobBot; 2]]) -> BTreeMap<usize, String> {
    let outcomes = results(q, c).await;
    for o in outcomes.values() {
        assert!(
            !o.contains("aborted") && !o.contains("move_time") && !o.contains("game_time"),
            "a result the fault made: {o}"
        );
        assert!(!o.contains("\"ok\":false"), "a compile failed: {o}");
    }
    assert_eq!(scores(&outcomes), fault_free(games).await);
    outcomes
}

async fn wait_for(what: &str, limit: Duration, mut done: impl AsyncFnMut() -> bool) {
    let until = Instant::now() + limit;
    while !done().await {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn committed(q: &Queue, c: i64) -> i64 {
    q.counts(Some(c)).await.map_or(0, |n| n.done)
}

/// Another process holds SQLite's write lock for 30 s (a backup tool, a TA's `sqlite3`): the
/// worker backs off, says "judging paused: database locked", and plays on when it is free.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_sqlite_lock_held_30_s_pauses_judging_and_loses_nothing() {
    let _serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.db");
    let q = support::queue(&path.display().to_string()).await;
    let c = enqueue(&q, "games", &games(40), false).await;
    let worker = start_worker(&q, &dir.path().join("w"), Duration::from_secs(60));
    wait_for("a first result", Duration::from_secs(30), async || {
        committed(&q, c).await >= 1
    })
    .await;

    let mut holder = support::faults::hold_sqlite_lock(&path, 30);
    let locked_at = Instant::now();
    let before = committed(&q, c).await;
    wait_for(
        "judging paused: database locked",
        Duration::from_secs(25),
        async || {
            arbiter_queue::health::status()
                .is_some_and(|s| s.starts_with("judging paused: database locked for "))
        },
    )
    .await;
    assert!(holder.wait().unwrap().success());
    assert!(locked_at.elapsed() >= Duration::from_secs(29));
    // The lock held: no game was committed while it did (one may have waited to commit).
    assert!(committed(&q, c).await <= before + 1);

    worker.await.unwrap();
    assert_eq!(arbiter_queue::health::status(), None, "judging resumed");
    check(&q, c, &games(40)).await;
}

/// A throwaway PostgreSQL cluster of this test's own, so that it can be restarted.
struct Cluster {
    dir: tempfile::TempDir,
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
        let dir = tempfile::tempdir().unwrap();
        Command::new("chown")
            .args(["postgres:"])
            .arg(dir.path())
            .status()
            .ok()?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let c = Cluster { dir, bin, port };
        let data = c.data();
        assert!(c.as_owner("initdb", &["-D", &data, "-U", "arbiter", "--auth=trust"]));
        assert!(c.pg_ctl("start"));
        let createdb = Command::new(c.bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-U", "arbiter"])
            .arg("arbiter")
            .status()
            .unwrap();
        assert!(createdb.success());
        Some(c)
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
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
            "-h 127.0.0.1 -p {} -k {} -c fsync=off",
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
    }
}

/// The PostgreSQL server stops for 5 s in the middle of judging and starts again: the worker
/// waits it out and plays on; nothing is lost or played twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_postgresql_restart_pauses_judging_and_loses_nothing() {
    let _serial = SERIAL.lock().await;
    let Some(pg) = Cluster::start() else {
        eprintln!("skipped: no PostgreSQL under /usr/lib/postgresql");
        return;
    };
    let q = support::queue(&pg.url()).await;
    let c = enqueue(&q, "games", &games(40), false).await;
    let dir = tempfile::tempdir().unwrap();
    let worker = start_worker(&q, &dir.path().join("w"), Duration::from_secs(60));
    wait_for("a first result", Duration::from_secs(30), async || {
        committed(&q, c).await >= 1
    })
    .await;
    assert!(pg.pg_ctl("stop"));
    let down = Instant::now();
    let mut seen = None;
    while down.elapsed() < Duration::from_secs(5) {
        seen = seen.or(arbiter_queue::health::status());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(pg.pg_ctl("start"));
    worker.await.unwrap();
    let seen = seen.expect("judging was shown paused while the database was down");
    assert!(seen.starts_with("judging paused: database "), "{seen}");
    assert_eq!(arbiter_queue::health::status(), None, "judging resumed");
    check(&q, c, &games(40)).await;
}

/// The worker's disk fills up for 4 s while games and a compile wait: they are voided (back
/// in the queue, never a result; the compile never "failed"), judging shows as paused, and
/// everything is played once there is room again.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_full_disk_voids_games_and_compiles_until_it_is_back() {
    let _serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let q = support::queue(&dir.path().join("q.db").display().to_string()).await;
    let base = dir.path().join("w");
    let mount = Tmpfs::mount(&base, "size=64m,nr_inodes=256");
    let c = enqueue(&q, "games", &games(40), false).await;
    let worker = start_worker(&q, &base, Duration::from_secs(60));
    wait_for("a first result", Duration::from_secs(30), async || {
        committed(&q, c).await >= 1
    })
    .await;
    let full = mount.fill();
    wait_for(
        "judging paused: disk cannot be written",
        Duration::from_secs(20),
        async || {
            arbiter_queue::health::status()
                .is_some_and(|s| s.starts_with("judging paused: disk cannot be written for "))
        },
    )
    .await;
    // A compile submitted while the disk is full is voided too.
    let compile_c = enqueue(&q, "compiles", &[], true).await;
    wait_for("a voided compile", Duration::from_secs(20), async || {
        !q.recent_voids(compile_c, 1).await.unwrap().is_empty()
    })
    .await;
    full.stop();
    worker.await.unwrap();

    let outcomes = check(&q, c, &games(40)).await;
    assert_eq!(outcomes.len(), 4);
    let compiled = results(&q, compile_c).await;
    let compile: arbiter_queue::spec::CompileOutcome = serde_json::from_str(&compiled[&0]).unwrap();
    assert!(compile.ok, "{}", compile.log);
    let voids: Vec<(i64, String, String)> = q.recent_voids(c, 100).await.unwrap();
    assert!(!voids.is_empty(), "no game was voided");
    for (_, why, state) in &voids {
        assert_eq!(
            why,
            "the judging machine could not write to its disk (disk full)"
        );
        assert_eq!(state, "done");
    }
    assert!(!q.recent_voids(compile_c, 100).await.unwrap().is_empty());
    let replay = arbiter_queue::worker::replay_text(&q, voids[0].0)
        .await
        .unwrap()
        .unwrap();
    assert!(replay.contains("voided: the judging machine could not write to its disk"));
}

/// The worker's process is stopped (SIGSTOP) for 2.5 s in the middle of a game of 1 s moves:
/// the game is voided, not lost on time, and played again; the replay says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_stopped_worker_voids_its_game_and_plays_it_again() {
    let _serial = SERIAL.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let q = support::queue(&dir.path().join("q.db").display().to_string()).await;
    let played = &games(150)[..2];
    let c = enqueue(&q, "games", played, false).await;
    let worker = start_worker(&q, &dir.path().join("w"), Duration::from_secs(60));
    let script = format!(
        "sleep 1; kill -STOP {pid}; sleep 2.5; kill -CONT {pid}",
        pid = std::process::id()
    );
    let mut helper = Command::new("sh").args(["-c", &script]).spawn().unwrap();
    worker.await.unwrap();
    assert!(helper.wait().unwrap().success());

    let outcomes = results(&q, c).await;
    for o in outcomes.values() {
        assert!(!o.contains("move_time") && !o.contains("aborted"), "{o}");
    }
    assert_eq!(scores(&outcomes), fault_free(played).await);
    let voids = q.recent_voids(c, 10).await.unwrap();
    assert_eq!(voids.len(), 1, "{voids:?}");
    let (job, why, state) = &voids[0];
    assert!(why.starts_with("judging machine stalled 2."), "{why}");
    assert_eq!(state, "done");
    let replay = arbiter_queue::worker::replay_text(&q, *job)
        .await
        .unwrap()
        .unwrap();
    assert!(replay.contains(&format!("voided: {why}")), "{replay}");
}
