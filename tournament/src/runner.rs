//! Plays the scheduled games, several at once, and records each one as it finishes.
//!
//! Concurrency: by default one game per online core. In a turn-based game only the side to
//! move computes, so one game keeps about one core busy. When there are at least two cores per
//! game slot, each bot gets a core of its own (slot k: cores 2k and 2k+1); otherwise both bots
//! of slot k share core k (they take turns). Pondering bots want the first layout: set
//! `concurrency` to half the cores.
//!
//! Every game runs entirely on one worker thread (the bots' parent-death signal is tied to
//! the spawning thread). The replay is written first (temporary file + rename), then the game
//! row turns `done` in one transaction on the main thread.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use arbiter_engine::any::GameConfig;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::config::Resolved;
use super::storage;
use super::store::{GameResultRow, GameRow, Store, Version};
use arbiter_match::game::{self, slot_cores, BotSpec, GameSpec, Played, Seats};
use arbiter_match::live::{Live, Observer};
use arbiter_match::protocol::ProtocolKind;
use arbiter_sandbox::Containment;

#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Overrides the config's concurrency.
    pub concurrency: Option<usize>,
    /// No progress bar or lines.
    pub quiet: bool,
    /// Stop after this many games (tests and benchmarks).
    pub max_games: Option<usize>,
    /// `Some(true)`: both bots of a game share one core; `Some(false)`: each bot its own core
    /// (cores are reused when there are too few); `None`: decide as the module says.
    pub share_cores: Option<bool>,
    /// Makes each game live (`arbiter tournament --live`): its observer, or none.
    pub observe: Option<Observe>,
}

/// Makes a game followable as it is played: given its id, what it plays and its bots, an
/// observer (a live hub's), called on the thread that plays the game.
#[derive(Clone)]
pub struct Observe(pub Arc<ObserveFn>);

pub type ObserveFn = dyn Fn(i64, &GameSpec, &[BotSpec]) -> Option<Box<dyn Observer>> + Send + Sync;

impl std::fmt::Debug for Observe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observe(..)")
    }
}

#[derive(Clone, Debug)]
pub struct RunSummary {
    pub played: usize,
    pub pending_before: usize,
    pub concurrency: usize,
    pub wall: Duration,
    pub warnings: Vec<String>,
}

/// Runs the bots' build commands once, in the config's directory; a failure shows its output.
pub fn build_bots(r: &Resolved, quiet: bool) -> anyhow::Result<()> {
    for b in &r.file.bots {
        let Some(cmd) = &b.build else { continue };
        if !quiet {
            eprintln!("building {}: {cmd}", b.name);
        }
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .current_dir(&r.base_dir)
            .output()
            .with_context(|| format!("cannot run the build command of {}", b.name))?;
        if !out.status.success() {
            anyhow::bail!(
                "the build command of {} failed ({}): {cmd}\n--- stdout\n{}--- stderr\n{}",
                b.name,
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    Ok(())
}

/// The bot a version stands for.
pub fn bot_spec(v: &Version, r: &Resolved) -> anyhow::Result<BotSpec> {
    let protocol = match &v.protocol {
        Some(p) => p.parse::<ProtocolKind>().map_err(anyhow::Error::msg)?,
        None => r.protocol,
    };
    let mut spec =
        arbiter_match::spec::bot_spec(&v.command, Some(&v.bot), protocol, &r.game, &v.bot)?;
    let dir = match &v.dir {
        Some(d) => r.base_dir.join(d),
        None => r.base_dir.clone(),
    };
    spec.working_dir = Some(dir);
    Ok(spec)
}

/// A game's `meta.event`.
pub fn event(r: &Resolved, game: i64) -> String {
    format!(
        "{} game {game}",
        r.file.name.as_deref().unwrap_or("tournament")
    )
}

/// A game's seed: the tournament's, mixed with the game's id.
pub fn seed(r: &Resolved, game: i64) -> u64 {
    arbiter_match::series::game_seed(r.file.seed, game as usize)
}

/// A game's replay file in `replays/`.
pub fn replay_file(game: i64) -> String {
    format!("game-{game:06}.json")
}

struct Job {
    row: GameRow,
    spec: GameSpec,
    bots: [BotSpec; 2],
}

struct Done {
    id: i64,
    result: anyhow::Result<GameResultRow>,
    warnings: Vec<String>,
}

/// Plays the tournament: every scheduled game between latest versions, and for a staged
/// format (Swiss, knockout, stages) round after round until its last ([`crate::staged`]).
pub fn run(store: &mut Store, r: &Resolved, opts: &RunOptions) -> anyhow::Result<RunSummary> {
    if r.file.format.staged() {
        return crate::staged::run(store, r, opts);
    }
    if r.seats > 2 {
        return crate::table_run::play_tables(store, r, opts);
    }
    play_scheduled(store, r, opts)
}

/// Plays every scheduled game between latest versions.
pub fn play_scheduled(
    store: &mut Store,
    r: &Resolved,
    opts: &RunOptions,
) -> anyhow::Result<RunSummary> {
    // One runner per tournament: a second would play the same pending games. The lock goes
    // with the process, also on `kill -9`.
    let _lock = lock(&store.dir)?;
    store.supersede_stale()?;
    let versions = store.latest_versions()?;
    let mut specs: BTreeMap<String, BotSpec> = BTreeMap::new();
    for v in &versions {
        specs.insert(v.bot.clone(), bot_spec(v, r)?);
    }
    let mut pending = store.games(Some("scheduled"))?;
    let pending_before = pending.len();
    if let Some(m) = opts.max_games {
        pending.truncate(m);
    }
    let mut jobs = VecDeque::new();
    for row in pending {
        let config: GameConfig = serde_json::from_str(&row.config)
            .with_context(|| format!("game {}: stored configuration", row.id))?;
        let opening = row
            .opening
            .and_then(|o| r.openings.get(o as usize).cloned())
            .unwrap_or_default();
        let bot = |name: &str| {
            specs
                .get(name)
                .cloned()
                .ok_or_else(|| anyhow::anyhow!("game {}: unknown bot {name}", row.id))
        };
        let bots = [bot(&row.seats[0])?, bot(&row.seats[1])?];
        jobs.push_back(Job {
            spec: GameSpec {
                config,
                opening,
                limits: r.limits.clone(),
                event: Some(event(r, row.id)),
                seed: Some(seed(r, row.id)),
                max_plies: arbiter_match::game::MAX_PLIES,
            },
            bots,
            row,
        });
    }
    let total = jobs.len();
    if let Some(n) = opts.concurrency {
        if n > crate::config::MAX_CONCURRENCY {
            anyhow::bail!(
                "--concurrency {n}: more than the limit of {} games at once",
                crate::config::MAX_CONCURRENCY
            );
        }
    }
    let containment = Containment::detect();
    let cpus: Vec<usize> = containment.online_cpus().to_vec();
    let concurrency = opts
        .concurrency
        .or(r.file.concurrency)
        .unwrap_or(cpus.len().max(1))
        .max(1)
        .min(total.max(1));
    let slots = slot_cores(&cpus, concurrency, 2, opts.share_cores);
    let replay_dir = store.dir.join("replays");
    std::fs::create_dir_all(&replay_dir)?;
    remove_partial_files(&replay_dir);
    let scratch_root =
        std::env::temp_dir().join(format!("arbiter-tournament-{}", std::process::id()));

    let bar = if opts.quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template("[{bar:25}] {pos}/{len} games, ETA {eta} | {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        b
    };
    let plain_progress = !opts.quiet && bar.is_hidden();

    // Live standings: game points of every bot with a finished game in this tournament.
    let mut points: BTreeMap<String, f64> = BTreeMap::new();
    for g in store.games(Some("done"))? {
        if let Some(res) = &g.result {
            tally(&mut points, &g.seats, res);
        }
    }

    let started = Instant::now();
    let queue = Arc::new(Mutex::new(jobs));
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Done>();
    let mut played = 0usize;
    let mut warnings: Vec<String> = containment.warnings();
    let mut first_error: Option<anyhow::Error> = None;
    let seats_of: BTreeMap<i64, [String; 2]> = queue
        .lock()
        .map_err(|_| anyhow::anyhow!("queue poisoned"))?
        .iter()
        .map(|j| (j.row.id, j.row.seats.clone()))
        .collect();

    std::thread::scope(|scope| {
        for cores in slots.iter().cloned() {
            let tx = tx.clone();
            let queue = Arc::clone(&queue);
            let containment = &containment;
            let replay_dir = &replay_dir;
            let stop = &stop;
            let observe = opts.observe.clone();
            let seats = Seats {
                cores,
                scratch_root: scratch_root.clone(),
            };
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let job = match queue.lock() {
                    Ok(mut q) => q.pop_front(),
                    Err(_) => None,
                };
                let Some(job) = job else { break };
                let t0 = Instant::now();
                let bots: Vec<&BotSpec> = job.bots.iter().collect();
                // A game the machine spoiled (a stall, a full disk) is no result: played again.
                let played = game::play_unvoided(
                    || {
                        let mut observer = observe
                            .as_ref()
                            .and_then(|o| (o.0)(job.row.id, &job.spec, &job.bots));
                        let live = Live {
                            observer: observer.as_deref_mut().map(|o| o as &mut dyn Observer),
                            remote: Vec::new(),
                        };
                        game::play_live(&job.spec, &bots, &seats, containment, live)
                    },
                    |v| eprintln!("game {}: voided: {}; playing it again", job.row.id, v.why),
                );
                if let Some(v) = &played.voided {
                    // Still spoiled after every replay: never a result; `resume` plays it.
                    tx.send(Done {
                        id: job.row.id,
                        result: Err(anyhow::anyhow!(
                            "game {}: voided {} times, last: {}; stopped (resume plays it again)",
                            job.row.id,
                            game::MAX_REPLAYS + 1,
                            v.why
                        )),
                        warnings: played.warnings,
                    })
                    .ok();
                    break;
                }
                let wall = t0.elapsed();
                // A full disk or a read-only remount: the game is kept and written once it can be.
                let result = storage::until_written(
                    &format!("game {}: the replay", job.row.id),
                    || save(replay_dir, &job.row, &played, wall),
                    |said| eprintln!("{said}"),
                );
                if tx
                    .send(Done {
                        id: job.row.id,
                        result,
                        warnings: played.warnings,
                    })
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(tx);
        for done in rx {
            for w in done.warnings {
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
            let outcome = done.result.and_then(|res| {
                let ok = storage::until_written(
                    &format!("game {}: the result", done.id),
                    || store.record(done.id, &res),
                    |said| bar.suspend(|| eprintln!("{said}")),
                )?;
                Ok((ok, res))
            });
            match outcome {
                Ok((true, res)) => {
                    played += 1;
                    if let Some(seats) = seats_of.get(&done.id) {
                        tally(&mut points, seats, &res);
                    }
                    bar.set_message(leaders(&points));
                    bar.inc(1);
                    if plain_progress && (played % (total / 20).max(1) == 0 || played == total) {
                        eprintln!(
                            "{played}/{total} games, {:.0} s, {}",
                            started.elapsed().as_secs_f64(),
                            leaders(&points)
                        );
                    }
                }
                Ok((false, _)) => {
                    warnings.push(format!("game {} was already recorded", done.id));
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(&scratch_root);
    if let Some(e) = first_error {
        return Err(e);
    }
    Ok(RunSummary {
        played,
        pending_before,
        concurrency,
        wall: started.elapsed(),
        warnings,
    })
}

/// The runner's hold on `DIR/tournament.lock`, released when dropped or when the process ends
/// in any way (`kill -9` included).
///
/// A POSIX record lock, not `flock`: record locks belong to the process and are not inherited
/// by `fork`, so a bot between fork and exec (or one that never execs) cannot keep the lock
/// alive after the runner died, and `status` can ask with `F_GETLK` without taking it.
pub struct RunLock {
    _file: std::fs::File,
}

fn whole_file(kind: libc::c_int) -> libc::flock {
    libc::flock {
        l_type: kind as libc::c_short,
        l_whence: libc::SEEK_SET as libc::c_short,
        l_start: 0,
        l_len: 0,
        l_pid: 0,
    }
}

/// Holds `DIR/tournament.lock` exclusively while games are played.
pub fn lock(dir: &Path) -> anyhow::Result<RunLock> {
    let path = dir.join("tournament.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let held = whole_file(libc::F_WRLCK);
    nix::fcntl::fcntl(&file, nix::fcntl::FcntlArg::F_SETLK(&held)).map_err(|_| {
        anyhow::anyhow!(
            "another arbiter is playing this tournament ({} is locked)",
            path.display()
        )
    })?;
    Ok(RunLock { _file: file })
}

/// Whether a runner holds `DIR/tournament.lock` now (asked without taking it).
pub fn is_running(dir: &Path) -> bool {
    let Ok(file) = std::fs::File::open(dir.join("tournament.lock")) else {
        return false;
    };
    let mut probe = whole_file(libc::F_WRLCK);
    match nix::fcntl::fcntl(&file, nix::fcntl::FcntlArg::F_GETLK(&mut probe)) {
        Ok(_) => probe.l_type != libc::F_UNLCK as libc::c_short,
        Err(_) => false,
    }
}

/// Adds one game's points (1, ½, 0) to each seat's bot; a game with no result adds nothing.
pub fn tally(points: &mut BTreeMap<String, f64>, seats: &[String; 2], result: &GameResultRow) {
    if !result.counts() {
        return;
    }
    for (s, name) in seats.iter().enumerate() {
        let p = match result.winner {
            None => 0.5,
            Some(w) if usize::from(w) == s => 1.0,
            Some(_) => 0.0,
        };
        *points.entry(name.clone()).or_default() += p;
    }
}

pub fn leaders(points: &BTreeMap<String, f64>) -> String {
    let mut v: Vec<(&String, &f64)> = points.iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
    let top = v
        .iter()
        .take(3)
        .map(|(n, p)| format!("{n} {p}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("top: {top}")
}

/// Writes the replay (temporary file, then rename) and reduces the game to its row.
fn save(
    dir: &Path,
    row: &GameRow,
    played: &Played,
    wall: Duration,
) -> anyhow::Result<GameResultRow> {
    let name = replay_file(row.id);
    let path = dir.join(&name);
    write_atomic(&path, played.replay.to_json().as_bytes())?;
    let replay = &played.replay;
    let mut think = [0.0; 2];
    let mut timed = [0i64; 2];
    for m in &replay.moves {
        if let Some(ms) = m.time_ms {
            think[m.seat.index()] += ms;
            timed[m.seat.index()] += 1;
        }
    }
    Ok(GameResultRow {
        winner: replay.result.winner.map(|s| s.index() as u8),
        reason_code: replay.result.reason.code().to_string(),
        reason: replay.result.reason.to_string(),
        culprit: replay.result.reason.culprit().map(|s| s.index() as u8),
        moves: replay.moves.len() as i64,
        think_ms: think,
        timed_moves: timed,
        scores: replay.scores.as_deref().and_then(|s| s.try_into().ok()),
        wall_ms: wall.as_secs_f64() * 1000.0,
        replay: Some(format!("replays/{name}")),
        finished_at: game::now_utc(),
    })
}

/// Temporary files of games that were in flight when an earlier run was killed.
pub(crate) fn remove_partial_files(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let partial = name
            .to_str()
            .and_then(|n| n.rsplit('.').next())
            .is_some_and(|ext| ext.starts_with("tmp"));
        if partial {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// A file appears whole or not at all.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let tmp: PathBuf = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot rename to {}", path.display()))?;
    Ok(())
}
