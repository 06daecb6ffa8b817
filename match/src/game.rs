//! One game between two bot processes: spawn, handshake, the move loop with clocks, the
//! verdict, and the replay.
//!
//! The engine judges every move; this module only measures time and turns what the processes
//! did into a verdict a student understands. Time is measured from the request being written
//! to the answer line arriving; a bot is late only past the limit plus `tolerance`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arbiter_engine::any::{AnyGame, AnyMove, GameConfig};
use arbiter_engine::replay::{GameResult, Meta, MoveRecord, Player, Reason, Replay};
use arbiter_engine::Seat;

use crate::protocol::{
    Ask, Fault, LimitsInfo, LogCaps, Protocol, ProtocolKind, Reply, Standing, Start, Wire,
};
use arbiter_sandbox::{BotCommand, BotProcess, Containment, ExitInfo, Limits, SpawnError};

/// Clocks of one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// From start to the end of the handshake.
    pub handshake: Duration,
    /// One move; `None` = only the game clock.
    pub per_move: Option<Duration>,
    /// The bot's own turns summed (handshake included, as in seed 001); `None` = unlimited.
    pub per_game: Option<Duration>,
    /// Grace for scheduling noise before a bot is judged late.
    pub tolerance: Duration,
}

/// Everything a game is played under.
#[derive(Clone, Debug)]
pub struct GameLimits {
    pub time: TimeControl,
    pub memory_bytes: Option<u64>,
    /// Processes and threads per bot (where a pids cgroup exists).
    pub max_tasks: Option<u64>,
    /// Bots may think on the opponent's turn (seed 001). `false` freezes them between turns.
    pub ponder: bool,
    pub log_caps: LogCaps,
    /// Total stdout a bot may write in one game.
    pub max_output_bytes: u64,
    /// The longest line a bot may write.
    pub max_line_bytes: usize,
}

impl GameLimits {
    /// The seeds' limits: seed 001 for Reversi (5 s a move, 180 s a game, 350 MB), the same for
    /// Gomoku, seed 000 for the 2048 duel (5 s of thinking in total, no move limit).
    pub fn default_for(game: &GameConfig) -> GameLimits {
        let (per_move, per_game) = match game {
            GameConfig::Reversi(_) | GameConfig::Gomoku(_) => {
                (Some(Duration::from_secs(5)), Some(Duration::from_secs(180)))
            }
            GameConfig::Duel2048(_) => (None, Some(Duration::from_secs(5))),
        };
        GameLimits {
            time: TimeControl {
                handshake: Duration::from_secs(5),
                per_move,
                per_game,
                tolerance: Duration::from_millis(50),
            },
            memory_bytes: Some(350 << 20),
            max_tasks: Some(64),
            ponder: true,
            log_caps: LogCaps::default(),
            max_output_bytes: 64 << 20,
            max_line_bytes: 64 * 1024,
        }
    }
}

/// Changes to the seeds' limits, as `arbiter match` flags or a tournament's `[limits]` give
/// them: milliseconds and megabytes; absent = the default, 0 = no limit.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct LimitOverrides {
    pub move_ms: Option<u64>,
    pub game_ms: Option<u64>,
    pub handshake_ms: Option<u64>,
    pub tolerance_ms: Option<u64>,
    pub memory_mb: Option<u64>,
    pub ponder: Option<bool>,
}

impl LimitOverrides {
    /// The game's default limits with these changes.
    pub fn apply(&self, game: &GameConfig) -> GameLimits {
        let mut l = GameLimits::default_for(game);
        let opt = |ms: u64| (ms > 0).then(|| Duration::from_millis(ms));
        if let Some(ms) = self.move_ms {
            l.time.per_move = opt(ms);
        }
        if let Some(ms) = self.game_ms {
            l.time.per_game = opt(ms);
        }
        if let Some(ms) = self.handshake_ms {
            l.time.handshake = Duration::from_millis(ms);
        }
        if let Some(ms) = self.tolerance_ms {
            l.time.tolerance = Duration::from_millis(ms);
        }
        if let Some(mb) = self.memory_mb {
            l.memory_bytes = (mb > 0).then_some(mb << 20);
        }
        if let Some(p) = self.ponder {
            l.ponder = p;
        }
        l
    }
}

/// A bot as a match or tournament names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    pub name: String,
    /// A shell-like command line (`./bot 8`, `python3 bot.py`); no shell runs it.
    pub command: String,
    pub protocol: ProtocolKind,
    pub working_dir: Option<PathBuf>,
}

/// A game to play.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub config: GameConfig,
    /// Moves from the initial position before the bots take over.
    pub opening: Vec<String>,
    pub limits: GameLimits,
    pub event: Option<String>,
}

/// Machine resources for one game.
#[derive(Clone, Debug)]
pub struct Seats {
    /// The core each seat is pinned to.
    pub cores: [Option<usize>; 2],
    /// Where per-bot scratch directories are made (and removed after the game).
    pub scratch_root: PathBuf,
}

/// A finished game.
#[derive(Debug)]
pub struct Played {
    pub replay: Replay,
    /// How each bot's process ended (`None` if it never started).
    pub exits: [Option<ExitInfo>; 2],
    /// Containment layers that could not be applied, and similar notes.
    pub warnings: Vec<String>,
    /// Where the wall time went.
    pub timing: Timing,
}

/// Wall time of a game's phases: starting the bots, the move loop, and ending them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timing {
    pub setup: Duration,
    pub moves: Duration,
    pub teardown: Duration,
}

/// How many stderr lines a failure verdict keeps.
const STDERR_LINES: usize = 20;

struct Side {
    wire: Option<Wire>,
    protocol: Box<dyn Protocol>,
    used: Duration,
    cpu_seen: Duration,
    scratch: PathBuf,
    exit: Option<ExitInfo>,
}

/// Plays one game. `bots[0]` takes seat 0 (moves first). Never panics on anything a bot does;
/// every failure becomes the result's reason.
pub fn play(
    spec: &GameSpec,
    bots: [&BotSpec; 2],
    seats: &Seats,
    containment: &Containment,
) -> Played {
    let mut warnings = Vec::new();
    let players = [player(bots[0], Seat::First), player(bots[1], Seat::Second)];
    let mut replay = Replay::new(spec.config.clone(), players);
    replay.opening = spec.opening.clone();
    replay.meta = Meta {
        event: spec.event.clone(),
        date: Some(now_utc()),
        ..Meta::default()
    };

    let mut game = match replay.start_position() {
        Ok(g) => g,
        Err(e) => {
            replay.result = GameResult::aborted(format!("cannot set up the game: {e}"));
            return Played {
                replay,
                exits: [None, None],
                warnings,
                timing: Timing::default(),
            };
        }
    };

    let mut sides: Vec<Side> = Vec::with_capacity(2);
    for seat in Seat::BOTH {
        let bot = bots[seat.index()];
        let scratch = seats
            .scratch_root
            .join(format!("seat{}-{}", seat.index(), unique()));
        sides.push(Side {
            wire: None,
            protocol: bot.protocol.start(),
            used: Duration::ZERO,
            cpu_seen: Duration::ZERO,
            scratch,
            exit: None,
        });
    }

    let mut timing = Timing::default();
    let t0 = Instant::now();
    let outcome = run(
        spec,
        bots,
        seats,
        containment,
        &mut game,
        &mut sides,
        &mut replay,
        &mut warnings,
        &mut timing,
    );
    replay.result = outcome;
    let t1 = Instant::now();
    timing.moves = (t1 - t0).saturating_sub(timing.setup);
    finish(&mut sides, &replay.result);
    timing.teardown = t1.elapsed();
    if replay.result.reason.culprit().is_some() {
        let tails = [stderr_tail(&sides[0]), stderr_tail(&sides[1])];
        if tails.iter().any(|t| !t.is_empty()) {
            replay.meta.stderr = Some(tails);
        }
    }
    if replay.result.reason == Reason::Normal {
        replay.scores = Some(game.scores());
    }
    for side in &sides {
        let _ = std::fs::remove_dir_all(&side.scratch);
    }
    let exits = [sides[0].exit.take(), sides[1].exit.take()];
    Played {
        replay,
        exits,
        warnings,
        timing,
    }
}

#[allow(clippy::too_many_arguments)]
fn run(
    spec: &GameSpec,
    bots: [&BotSpec; 2],
    seats: &Seats,
    containment: &Containment,
    game: &mut AnyGame,
    sides: &mut [Side],
    replay: &mut Replay,
    warnings: &mut Vec<String>,
    timing: &mut Timing,
) -> GameResult {
    let setup_start = Instant::now();
    let limits = &spec.limits;
    let info = LimitsInfo {
        move_time: limits.time.per_move,
        game_time: limits.time.per_game,
        memory_bytes: limits.memory_bytes,
    };

    // Start both, then shake hands with both: a bot that cannot start loses, and if both
    // cannot, nobody wins.
    let mut failed: [Option<Reason>; 2] = [None, None];
    for seat in Seat::BOTH {
        let i = seat.index();
        match spawn(
            bots[i],
            &sides[i].scratch,
            seats.cores[i],
            limits,
            containment,
        ) {
            Ok(process) => {
                warnings.extend(process.warnings().iter().cloned());
                sides[i].wire = Some(Wire::new(process, limits.log_caps));
            }
            Err(e) => failed[i] = Some(Reason::FailedToStart { seat, error: e }),
        }
    }
    for seat in Seat::BOTH {
        let i = seat.index();
        if failed[i].is_some() {
            continue;
        }
        let side = &mut sides[i];
        let Some(wire) = side.wire.as_mut() else {
            continue;
        };
        let t0 = Instant::now();
        let folder = side.scratch.to_str().map(str::to_owned);
        let start = Start {
            seat,
            game,
            limits: info,
            folder: folder.as_deref(),
            deadline: t0 + limits.time.handshake + limits.time.tolerance,
        };
        let result = side.protocol.start(wire, &start);
        side.used += t0.elapsed();
        // Start-up CPU (an interpreter loading) is not the first move's thinking.
        side.cpu_seen = wire.process.cpu_time();
        if let Err(fault) = result {
            failed[i] = Some(verdict(seat, fault, side, limits, Phase::Handshake));
        } else if !limits.ponder {
            side.wire.as_mut().map(|w| w.process.freeze());
        }
    }
    match failed {
        [Some(a), Some(b)] => {
            return GameResult::aborted(format!("both bots failed: first: {a}; second: {b}"));
        }
        [Some(r), None] | [None, Some(r)] => return GameResult::lost_by(r),
        [None, None] => {}
    }
    timing.setup = setup_start.elapsed();

    loop {
        if let Some(o) = game.outcome() {
            return GameResult {
                winner: o.winner,
                reason: Reason::Normal,
            };
        }
        let Some(seat) = game.to_move() else {
            return GameResult::aborted("the game has no side to move".into());
        };
        let me = seat.index();
        let before = game.clone();

        if let Some(forced) = game.forced_move() {
            if let Err(e) = game.play(forced) {
                return GameResult::aborted(format!("the engine refused its own forced move: {e}"));
            }
            replay
                .moves
                .push(MoveRecord::new(seat, before.format_move(forced)));
            if let Err(r) = tell(sides, me, &before, forced, limits) {
                return GameResult::lost_by(r);
            }
            continue;
        }

        // Ask the side to move, on its clocks.
        let side = &mut sides[me];
        let Some(wire) = side.wire.as_mut() else {
            return GameResult::aborted("a bot has no process".into());
        };
        if !limits.ponder {
            wire.process.thaw();
        }
        let game_left = limits.time.per_game.map(|g| g.saturating_sub(side.used));
        let budget = match (limits.time.per_move, game_left) {
            (Some(m), Some(g)) => m.min(g),
            (Some(m), None) => m,
            (None, Some(g)) => g,
            (None, None) => Duration::from_secs(365 * 24 * 3600),
        };
        let t0 = Instant::now();
        let ask = Ask {
            game,
            time_left: game_left,
            deadline: t0 + budget + limits.time.tolerance,
        };
        let reply = side.protocol.ask(wire, &ask);
        let elapsed = t0.elapsed();
        side.used += elapsed;
        let cpu_now = wire.process.cpu_time();
        let cpu = cpu_now.saturating_sub(side.cpu_seen);
        side.cpu_seen = cpu_now;
        if !limits.ponder {
            wire.process.freeze();
        }
        let log = wire.take_log();
        if wire.process.stderr_total_bytes() > limits.max_output_bytes {
            return GameResult::lost_by(Reason::ProtocolError {
                seat,
                message: format!(
                    "wrote more than {} MB to standard error",
                    limits.max_output_bytes >> 20
                ),
            });
        }
        let reply = match reply {
            Ok(r) => r,
            Err(fault) => {
                // Which clock ran out: the game clock when less of it was left than a move.
                let game_clock_bound = match (game_left, limits.time.per_move) {
                    (Some(left), Some(per_move)) => left < per_move,
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                let phase = Phase::Move { game_clock_bound };
                return GameResult::lost_by(verdict(seat, fault, side, limits, phase));
            }
        };
        // Late answers lose even when they arrive within the read deadline's tolerance.
        if let Some(m) = limits.time.per_move {
            if elapsed > m + limits.time.tolerance {
                return GameResult::lost_by(Reason::MoveTime {
                    seat,
                    limit_ms: millis(m),
                });
            }
        }
        if let Some(g) = limits.time.per_game {
            if side.used > g + limits.time.tolerance {
                return GameResult::lost_by(Reason::GameTime {
                    seat,
                    limit_ms: millis(g),
                });
            }
        }
        let mv = match reply {
            Reply::Malformed(line) => {
                return GameResult::lost_by(Reason::MalformedOutput { seat, line })
            }
            Reply::Move(mv) => mv,
        };
        if let Err(e) = game.play(mv) {
            let why = match e {
                arbiter_engine::any::MoveError::Illegal(i) => i.to_string(),
                other => other.to_string(),
            };
            return GameResult::lost_by(Reason::IllegalMove {
                seat,
                mv: move_text(&before, mv),
                why,
                line: None,
            });
        }
        let mut record = MoveRecord::new(seat, before.format_move(mv));
        record.time_ms = Some(elapsed.as_secs_f64() * 1000.0);
        record.cpu_ms = Some(cpu.as_secs_f64() * 1000.0);
        record.log = log;
        replay.moves.push(record);
        if let Err(r) = tell(sides, me, &before, mv, limits) {
            return GameResult::lost_by(r);
        }
    }
}

/// After a ply by `mover`, tells the bots what they need to know: the opponent learns the
/// move; a forced ply (pass, skipped step) is announced to the mover too.
fn tell(
    sides: &mut [Side],
    mover: usize,
    before: &AnyGame,
    mv: AnyMove,
    limits: &GameLimits,
) -> Result<(), Reason> {
    let listener = 1 - mover;
    let forced = before.forced_move() == Some(mv);
    for (i, is_mover) in [(mover, true), (listener, false)] {
        if is_mover && !forced {
            continue;
        }
        let seat = Seat::from_index(i).unwrap_or(Seat::First);
        let side = &mut sides[i];
        let Some(wire) = side.wire.as_mut() else {
            continue;
        };
        let result = if is_mover {
            side.protocol.own_forced(wire, before, mv)
        } else {
            side.protocol.opponent_moved(wire, before, mv)
        };
        if let Err(fault) = result {
            return Err(verdict(seat, fault, side, limits, Phase::Between));
        }
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Handshake,
    Move { game_clock_bound: bool },
    Between,
}

/// Turns a protocol fault into the verdict, looking at how the process ended when it did.
fn verdict(seat: Seat, fault: Fault, side: &mut Side, limits: &GameLimits, phase: Phase) -> Reason {
    // A bot that died is judged by its death (a memory kill often shows first as a timeout or
    // a closed pipe).
    // When its output closed, the process is usually exiting: give it a moment so that a
    // memory kill or crash is reported as such rather than as a closed pipe.
    if matches!(fault, Fault::Closed { running: true }) {
        if let Some(wire) = side.wire.as_mut() {
            let until = Instant::now() + Duration::from_millis(300);
            while wire.process.try_wait().is_none() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
    let dead = side
        .wire
        .as_mut()
        .is_some_and(|w| w.process.try_wait().is_some());
    if dead || matches!(fault, Fault::Closed { running: false }) {
        if let Some(wire) = side.wire.as_mut() {
            let exit = wire.process.finish(Duration::from_millis(200));
            let reason = exit_reason(seat, &exit, limits);
            side.exit = Some(exit);
            return reason;
        }
    }
    match fault {
        Fault::Timeout => match phase {
            Phase::Handshake => Reason::NoHandshake { seat },
            Phase::Move {
                game_clock_bound: true,
            } => Reason::GameTime {
                seat,
                limit_ms: limits.time.per_game.map_or(0, millis),
            },
            _ => Reason::MoveTime {
                seat,
                limit_ms: limits.time.per_move.map_or(0, millis),
            },
        },
        Fault::Closed { .. } => Reason::ProtocolError {
            seat,
            message: "closed its standard output while still running".into(),
        },
        Fault::Malformed(line) if phase == Phase::Handshake => Reason::ProtocolError {
            seat,
            message: format!("answered {line:?} to the handshake"),
        },
        Fault::Malformed(line) => Reason::MalformedOutput { seat, line },
        Fault::OutOfTurn(line) => Reason::OutOfTurn { seat, line },
        Fault::Protocol(message) => Reason::ProtocolError { seat, message },
    }
}

fn exit_reason(seat: Seat, exit: &ExitInfo, limits: &GameLimits) -> Reason {
    if exit.memory_exceeded {
        return Reason::Memory {
            seat,
            limit_bytes: limits.memory_bytes.unwrap_or(0),
        };
    }
    match (exit.code, exit.signal) {
        (_, Some(signal)) => Reason::Crash {
            seat,
            exit_code: None,
            signal: Some(signal),
        },
        (Some(0), None) => Reason::ExitedEarly {
            seat,
            exit_code: Some(0),
        },
        (Some(code), None) => Reason::Crash {
            seat,
            exit_code: Some(code),
            signal: None,
        },
        (None, None) => Reason::ExitedEarly {
            seat,
            exit_code: None,
        },
    }
}

/// Ends the game for both bots: the end command, a moment to leave, then the whole tree dies.
fn finish(sides: &mut [Side], result: &GameResult) {
    // Both bots hear the result first, then each gets a moment to leave before its tree dies.
    for (i, side) in sides.iter_mut().enumerate() {
        let seat = Seat::from_index(i).unwrap_or(Seat::First);
        let standing = match result.winner {
            None => Standing::Draw,
            Some(w) if w == seat => Standing::Won,
            Some(_) => Standing::Lost,
        };
        if let (Some(wire), None) = (side.wire.as_mut(), &side.exit) {
            wire.process.thaw();
            side.protocol.end(wire, standing);
        }
    }
    for side in sides.iter_mut() {
        if let (Some(wire), None) = (side.wire.as_mut(), &side.exit) {
            wire.linger(Duration::from_millis(100));
            side.exit = Some(wire.process.finish(Duration::from_millis(100)));
        }
    }
}

fn stderr_tail(side: &Side) -> String {
    let Some(wire) = side.wire.as_ref() else {
        return String::new();
    };
    let bytes = wire.process.stderr_tail();
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(STDERR_LINES)..].join("\n")
}

fn spawn(
    bot: &BotSpec,
    scratch: &Path,
    core: Option<usize>,
    limits: &GameLimits,
    containment: &Containment,
) -> Result<BotProcess, String> {
    let mut command = BotCommand::parse(&bot.command).map_err(|e| e.to_string())?;
    if let Some(dir) = &bot.working_dir {
        command = command.current_dir(dir);
    }
    std::fs::create_dir_all(scratch)
        .map_err(|e| format!("cannot create scratch directory {}: {e}", scratch.display()))?;
    let process_limits = Limits {
        memory_bytes: limits.memory_bytes,
        cpu_core: core,
        max_tasks: limits.max_tasks,
        max_line_bytes: limits.max_line_bytes,
        max_output_bytes: limits.max_output_bytes,
        scratch_dir: Some(scratch.to_path_buf()),
        ..Limits::default()
    };
    BotProcess::spawn(&command, &process_limits, containment).map_err(|e: SpawnError| e.to_string())
}

fn player(bot: &BotSpec, seat: Seat) -> Player {
    Player {
        name: bot.name.clone(),
        seat,
        command: Some(bot.command.clone()),
    }
}

/// The move as written in the verdict: canonical when the engine can write it, else as sent.
fn move_text(game: &AnyGame, mv: AnyMove) -> String {
    let text = game.format_move(mv);
    match game.parse_move(&text) {
        Ok(back) if back == mv => text,
        _ => format!("{mv:?}"),
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn unique() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// The current time as ISO 8601 UTC, without a date crate.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
