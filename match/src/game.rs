//! One game between two bot processes: spawn, handshake, the move loop with clocks, the
//! verdict, and the replay.
//!
//! The engine judges every move; this module only measures time and turns what the processes
//! did into a verdict a student understands. Time is measured from the request being written
//! to the answer line arriving; a bot is late only past the limit plus `tolerance`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arbiter_engine::any::{AnyGame, AnyMove, GameConfig, MoveError};
use arbiter_engine::replay::{
    Exit, Failure, GameResult, Killer, Meta, MoveRecord, Player, Reason, Replay,
};
use arbiter_engine::Seat;

use crate::live::{Endpoint, Live};
use crate::protocol::{
    Ask, Fault, LimitsInfo, LogCaps, Protocol, ProtocolKind, Reply, Standing, Start, Wire,
};
use crate::stall::Stall;
use arbiter_sandbox::{
    BotCommand, BotProcess, Containment, ExitInfo, Limits, SignalCause, SpawnError,
};

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
    /// The disk quota of each bot: the size of its scratch tmpfs in a jail.
    pub scratch_bytes: u64,
}

/// The default disk quota of a bot (issue 21: 64 MB a game).
pub const DEFAULT_DISK_MB: u64 = 64;

impl GameLimits {
    /// The game's own clock ([`GameConfig::default_clock`]) and seed 001's other limits
    /// (350 MB).
    pub fn default_for(game: &GameConfig) -> GameLimits {
        let clock = game.default_clock();
        GameLimits {
            time: TimeControl {
                handshake: Duration::from_secs(5),
                per_move: clock.per_move,
                per_game: clock.per_game,
                tolerance: Duration::from_millis(50),
            },
            memory_bytes: Some(350 << 20),
            max_tasks: Some(64),
            ponder: true,
            log_caps: LogCaps::default(),
            max_output_bytes: 64 << 20,
            max_line_bytes: 64 * 1024,
            scratch_bytes: DEFAULT_DISK_MB << 20,
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
    /// Disk quota per bot in MB (its scratch tmpfs; at least 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk_mb: Option<u64>,
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
        if let Some(mb) = self.disk_mb {
            l.scratch_bytes = mb.clamp(1, 1 << 20) << 20;
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
    /// What the bot sees of the host in its jail besides the system: `Some` names it
    /// exactly (a contest's artefact, the `arbiter` binary of a built-in bot); `None` is a
    /// bot of one's own, which sees its working directory and the directories of the files
    /// its command names ([`BotCommand::beside_its_files`]).
    pub sees: Option<Vec<PathBuf>>,
}

/// A game to play.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub config: GameConfig,
    /// Moves from the initial position before the bots take over.
    pub opening: Vec<String>,
    pub limits: GameLimits,
    pub event: Option<String>,
    /// The game's seed, given to both bots as `ARBITER_SEED` through [`bot_seed`] (arbiter's built-in bots draw
    /// their random choices from it) and kept in the replay, so the game can be played again.
    pub seed: Option<u64>,
}

/// Machine resources for one game.
#[derive(Clone, Debug)]
pub struct Seats {
    /// The core each seat is pinned to.
    pub cores: [Option<usize>; 2],
    /// Where per-bot scratch directories are made (and removed after the game).
    pub scratch_root: PathBuf,
}

/// The cores of each of `concurrency` game slots on `cpus`: each seat on its own core when
/// there are enough (`share` = None decides), else both seats of a slot on one.
pub fn slot_cores(
    cpus: &[usize],
    concurrency: usize,
    share: Option<bool>,
) -> Vec<[Option<usize>; 2]> {
    let n = cpus.len();
    let share = share.unwrap_or(n < 2 * concurrency);
    (0..concurrency)
        .map(|k| {
            if n == 0 {
                [None, None]
            } else if share {
                [Some(cpus[k % n]), Some(cpus[k % n])]
            } else {
                [Some(cpus[(2 * k) % n]), Some(cpus[(2 * k + 1) % n])]
            }
        })
        .collect()
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
    /// Set when the judge's machine, not the bots, spoiled the game (a stall, a storage
    /// fault): the replay's result says "voided: ..." and the game is no result. Whoever
    /// plays it must play it again (docs/faults.md).
    pub voided: Option<Voided>,
}

/// Why a game is no result: the judging machine's fault, in words a student may read (no
/// paths of the server).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Voided {
    /// "judging machine stalled 8.0 s at move 31".
    pub why: String,
    /// Whether the machine's storage was at fault: it stays so until someone frees or
    /// remounts the disk, so the game is played again after a pause, where a stall's game
    /// can be played again at once.
    pub storage: bool,
}

impl Voided {
    /// The result a voided game's replay carries.
    pub fn result(&self) -> GameResult {
        GameResult::aborted(format!("voided: {}", self.why))
    }
}

/// Wall time of a game's phases: starting the bots, the move loop, and ending them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timing {
    pub setup: Duration,
    pub moves: Duration,
    pub teardown: Duration,
}

/// How much of a failing bot's stderr the replay keeps: its end, enough for a whole Python
/// traceback of a deep recursion (which Python folds to a few dozen lines).
pub const STDERR_KEPT_BYTES: usize = 16 * 1024;

/// The environment variable that carries the game's seed to each bot.
pub const SEED_VAR: &str = "ARBITER_SEED";

/// What bots are given as `ARBITER_SEED` for a game of seed `seed`: the same number whenever
/// the game is played again, but one-way (SHA-256), so that no bot can work back from it to
/// the seed, nor from there to a tournament's seed or a module game's dice.
pub fn bot_seed(seed: u64) -> u64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::new()
        .chain_update(b"arbiter bot seed\0")
        .chain_update(seed.to_le_bytes())
        .finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

/// The environment variables that tell each bot its move time and game time in milliseconds
/// (set only when the game has that limit): the `reversi` and `gobang` protocols have no way to
/// say them, and built-in bots (`arbiter bot`) plan their thinking time with them.
pub const MOVE_TIME_VAR: &str = "ARBITER_MOVE_MS";
pub const GAME_TIME_VAR: &str = "ARBITER_GAME_MS";

struct Side {
    wire: Option<Wire>,
    protocol: Box<dyn Protocol>,
    used: Duration,
    cpu_seen: Duration,
    scratch: PathBuf,
    exit: Option<ExitInfo>,
    /// The request in progress, for the failure record if it fails.
    request: Request,
}

/// What is known of a bot's current request until its answer is recorded as a move.
#[derive(Default)]
struct Request {
    /// DEBUG text taken from the wire but not yet attached to a move.
    log: Option<String>,
    /// Wall-clock time the request took.
    time: Option<Duration>,
    /// What was left of the game clock when it was made.
    clock: Option<Duration>,
}

/// How many times a game voided by the machine (see [`Voided`]) is played again by
/// [`play_unvoided`] before its void stands.
pub const MAX_REPLAYS: usize = 5;

/// Plays a game with `play` until it is not voided: each void is told to `tell`, kept in the
/// replay's `meta.voided`, and followed by a pause that doubles each time (from 0.5 s to at
/// most 30 s: a disk that filled up needs someone to free it). After [`MAX_REPLAYS`] voids
/// the last play is returned as it is, still voided: the caller must not score it.
pub fn play_unvoided(mut play: impl FnMut() -> Played, mut tell: impl FnMut(&Voided)) -> Played {
    let mut history = Vec::new();
    let mut pause = Duration::from_millis(500);
    loop {
        let mut played = play();
        match &played.voided {
            Some(v) if history.len() < MAX_REPLAYS => {
                tell(v);
                history.push(format!("voided: {}", v.why));
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_secs(30));
            }
            _ => {
                played.replay.meta.voided = history;
                return played;
            }
        }
    }
}

/// Plays one game. `bots[0]` takes seat 0 (moves first). Never panics on anything a bot does;
/// every failure becomes the result's reason.
pub fn play(
    spec: &GameSpec,
    bots: [&BotSpec; 2],
    seats: &Seats,
    containment: &Containment,
) -> Played {
    play_live(spec, bots, seats, containment, Live::none())
}

/// [`play`], followed by an observer (spectators) and with seats played from outside (people
/// in a browser) where `live.remote` has them; such a seat's `BotSpec` gives only its name.
pub fn play_live(
    spec: &GameSpec,
    bots: [&BotSpec; 2],
    seats: &Seats,
    containment: &Containment,
    mut live: Live<'_>,
) -> Played {
    let mut warnings = Vec::new();
    let players = [player(bots[0], Seat::First), player(bots[1], Seat::Second)];
    let mut replay = Replay::new(spec.config.clone(), players);
    replay.opening = spec.opening.clone();
    replay.meta = Meta {
        event: spec.event.clone(),
        date: Some(now_utc()),
        seed: spec.seed,
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
                voided: None,
            };
        }
    };

    if let Some(o) = live.observer.as_mut() {
        o.started(&replay, &spec.limits);
    }
    let mut sides: Vec<Side> = Vec::with_capacity(2);
    for seat in Seat::BOTH {
        let bot = bots[seat.index()];
        let scratch = seats
            .scratch_root
            .join(format!("seat{}-{}", seat.index(), unique()));
        let protocol: Box<dyn Protocol> = match live.remote[seat.index()] {
            Some(_) => Box::new(crate::protocol::remote::Remote),
            None => bot.protocol.start(),
        };
        sides.push(Side {
            wire: None,
            protocol,
            used: Duration::ZERO,
            cpu_seen: Duration::ZERO,
            scratch,
            exit: None,
            request: Request::default(),
        });
    }

    let mut timing = Timing::default();
    let t0 = Instant::now();
    let table = Table {
        spec,
        bots,
        seats,
        containment,
    };
    let outcome = run(
        &table,
        &mut game,
        &mut sides,
        &mut replay,
        &mut warnings,
        &mut timing,
        &mut live,
    );
    let voided = match outcome {
        Ending::Over(result) => {
            replay.result = result;
            None
        }
        Ending::Void(v) => {
            replay.result = v.result();
            Some(v)
        }
    };
    let t1 = Instant::now();
    timing.moves = (t1 - t0).saturating_sub(timing.setup);
    finish(&mut sides, &replay.result);
    timing.teardown = t1.elapsed();
    if let Some(seat) = replay.result.reason.culprit() {
        replay.failure = failure_record(seat, &mut sides[seat.index()], &replay.result.reason);
    }
    if replay.result.reason == Reason::Normal {
        replay.scores = Some(game.scores());
        replay.meta.ending = game.end_words();
    }
    for side in &sides {
        let _ = std::fs::remove_dir_all(&side.scratch);
    }
    if let Some(o) = live.observer.as_mut() {
        o.ended(&replay);
    }
    let exits = [sides[0].exit.take(), sides[1].exit.take()];
    Played {
        replay,
        exits,
        warnings,
        timing,
        voided,
    }
}

/// What a game is played with: what to play, by whom, on which part of the machine.
struct Table<'a> {
    spec: &'a GameSpec,
    bots: [&'a BotSpec; 2],
    seats: &'a Seats,
    containment: &'a Containment,
}

fn run(
    table: &Table<'_>,
    game: &mut AnyGame,
    sides: &mut [Side],
    replay: &mut Replay,
    warnings: &mut Vec<String>,
    timing: &mut Timing,
    live: &mut Live<'_>,
) -> Ending {
    let setup_start = Instant::now();
    let limits = &table.spec.limits;
    if let Some(void) = unwritable_scratch(sides) {
        return Ending::Void(void);
    }
    // Start both, then shake hands with both: a bot that cannot start loses, and if both
    // cannot, nobody wins.
    let mut failed = spawn_both(table, sides, warnings, live);
    shake_hands(limits, game, &table.spec.opening, sides, &mut failed);
    match failed {
        [Some(a), Some(b)] => return Ending::Over(both_failed(&a, &b)),
        [Some(r), None] | [None, Some(r)] => return Ending::Over(GameResult::lost_by(r)),
        [None, None] => {}
    }
    timing.setup = setup_start.elapsed();

    loop {
        if let Some(ending) = module_failed(game) {
            return ending;
        }
        if let Some(o) = game.outcome() {
            return Ending::Over(GameResult {
                winner: o.winner,
                reason: Reason::Normal,
            });
        }
        let Some(seat) = game.to_move() else {
            return Ending::Over(GameResult::aborted("the game has no side to move".into()));
        };
        let me = seat.index();
        let before = game.clone();

        if let Some(forced) = game.forced_move() {
            if let Err(e) = game.play(forced) {
                return Ending::Over(GameResult::aborted(format!(
                    "the engine refused its own forced move: {e}"
                )));
            }
            replay
                .moves
                .push(MoveRecord::new(seat, before.format_move(forced)));
            if let Some(o) = live.observer.as_mut() {
                o.moved(replay);
            }
            if let Err(r) = tell(sides, me, &before, forced, limits) {
                return Ending::Over(GameResult::lost_by(r));
            }
            continue;
        }

        let asked = ask(sides, seat, game, limits, replay.moves.len() + 1);
        // The question itself runs a module game's rules (what the seat is told, its legal
        // moves): a module that failed there is at fault, not the bot that got no question.
        if let Some(ending) = module_failed(game) {
            return ending;
        }
        let answer = match asked {
            Ok(a) => a,
            Err(ending) => return ending,
        };
        let mv = match answer.reply {
            Reply::Malformed(line) => {
                return Ending::Over(GameResult::lost_by(Reason::MalformedOutput { seat, line }))
            }
            Reply::Move(mv) => mv,
        };
        if let Err(e) = game.play(mv) {
            if let Some(ending) = module_failed(game) {
                return ending;
            }
            return Ending::Over(GameResult::lost_by(illegal_move(
                seat,
                &before,
                mv,
                answer.sent,
                e,
            )));
        }
        let side = &mut sides[me];
        let mut record = MoveRecord::new(seat, before.format_move(mv));
        record.time_ms = Some(answer.charged.as_secs_f64() * 1000.0);
        record.cpu_ms = Some(answer.cpu.as_secs_f64() * 1000.0);
        record.log = side.request.log.take();
        side.request = Request::default();
        replay.moves.push(record);
        if let Some(o) = live.observer.as_mut() {
            o.moved(replay);
        }
        if let Err(r) = tell(sides, me, &before, mv, limits) {
            return Ending::Over(GameResult::lost_by(r));
        }
    }
}

/// A game module that failed (trapped, ran out of fuel, answered nonsense) ends the game with
/// no result: the module is at fault, never a bot.
fn module_failed(game: &AnyGame) -> Option<Ending> {
    game.fault().map(|why| {
        Ending::Over(GameResult::aborted(format!(
            "the game's rules failed: {why}"
        )))
    })
}

/// The result of a game neither bot could start: nobody wins, and the message says both
/// failures ("both bots failed: first: failed to start: ...; second: ..."; arbiter-i18n's
/// `machine` module knows this form).
pub fn both_failed(first: &Reason, second: &Reason) -> GameResult {
    GameResult::aborted(format!(
        "both bots failed: first: {first}; second: {second}"
    ))
}

/// A storage fault in words a student may read, with no path of the server: "the judging
/// machine could not write to its disk (disk full)" (`what` from [`storage_fault`]). Pages say
/// it in their reader's language (arbiter-i18n's `machine` module knows this form).
pub fn disk_fault(what: &str) -> String {
    format!("the judging machine could not write to its disk ({what})")
}

/// A disk that cannot be written is the machine's fault, never a bot's: found before a bot is
/// blamed for not starting. Makes the bots' scratch directories.
fn unwritable_scratch(sides: &[Side]) -> Option<Voided> {
    for side in sides {
        if let Err(e) = std::fs::create_dir_all(&side.scratch) {
            if let Some(what) = storage_fault(&e) {
                return Some(Voided {
                    why: disk_fault(what),
                    storage: true,
                });
            }
        }
    }
    None
}

/// Starts both bots (or connects a remote seat); a bot that cannot start has its verdict.
fn spawn_both(
    table: &Table<'_>,
    sides: &mut [Side],
    warnings: &mut Vec<String>,
    live: &mut Live<'_>,
) -> [Option<Reason>; 2] {
    let limits = &table.spec.limits;
    let mut failed: [Option<Reason>; 2] = [None, None];
    for seat in Seat::BOTH {
        let i = seat.index();
        if let Some(remote) = live.remote[i].take() {
            sides[i].wire = Some(Wire::over(Endpoint::Remote(remote), limits.log_caps));
            continue;
        }
        match spawn(
            table.bots[i],
            &sides[i].scratch,
            table.seats.cores[i],
            limits,
            table.containment,
            table.spec.seed,
            &table.spec.config,
        ) {
            Ok(process) => {
                warnings.extend(process.warnings().iter().cloned());
                sides[i].wire = Some(Wire::new(process, limits.log_caps));
            }
            Err(e) => failed[i] = Some(Reason::FailedToStart { seat, error: e }),
        }
    }
    failed
}

/// The handshake with each bot that started; one that fails it has its verdict in `failed`.
fn shake_hands(
    limits: &GameLimits,
    game: &AnyGame,
    opening: &[String],
    sides: &mut [Side],
    failed: &mut [Option<Reason>; 2],
) {
    let info = LimitsInfo {
        move_time: limits.time.per_move,
        game_time: limits.time.per_game,
        memory_bytes: limits.memory_bytes,
    };
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
            opening,
            limits: info,
            folder: folder.as_deref(),
            deadline: t0 + limits.time.handshake + limits.time.tolerance,
        };
        wire.start_request();
        let result = side.protocol.start(wire, &start);
        side.used += charged(wire, t0.elapsed()).0;
        // Start-up CPU (an interpreter loading) is not the first move's thinking.
        side.cpu_seen = wire.process.cpu_time();
        if let Err(fault) = result {
            side.request = Request {
                log: None,
                time: Some(side.used),
                clock: limits.time.per_game,
            };
            failed[i] = Some(verdict(seat, fault, side, limits, Phase::Handshake));
        } else if !limits.ponder {
            if let Some(w) = side.wire.as_mut() {
                w.process.freeze();
            }
        }
    }
}

/// A bot's answer in time: what it said, the line as it wrote it, and what it cost.
struct Answer {
    reply: Reply,
    sent: Option<String>,
    charged: Duration,
    cpu: Duration,
}

/// Asks `seat` for its move (the `ply`-th of the game), on its clocks: its answer, or how
/// the game ends (a time loss, a fault, a void when only a stall made it late).
fn ask(
    sides: &mut [Side],
    seat: Seat,
    game: &AnyGame,
    limits: &GameLimits,
    ply: usize,
) -> Result<Answer, Ending> {
    let me = seat.index();
    let opponent_left = limits
        .time
        .per_game
        .map(|g| g.saturating_sub(sides[1 - me].used));
    let side = &mut sides[me];
    let Some(wire) = side.wire.as_mut() else {
        return Err(Ending::Over(GameResult::aborted(
            "a bot has no process".into(),
        )));
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
    let request = Ask {
        game,
        time_left: game_left,
        opponent_time_left: opponent_left,
        deadline: t0 + budget + limits.time.tolerance,
    };
    wire.start_request();
    let reply = side.protocol.ask(wire, &request);
    let elapsed = t0.elapsed();
    let (charged, stall) = charged(wire, elapsed);
    let sent = wire.take_last_line();
    side.used += charged;
    let cpu_now = wire.process.cpu_time();
    let cpu = cpu_now.saturating_sub(side.cpu_seen);
    side.cpu_seen = cpu_now;
    if !limits.ponder {
        wire.process.freeze();
    }
    side.request = Request {
        log: wire.take_log(),
        time: Some(charged),
        clock: game_left,
    };
    let lose = |reason| Err(Ending::Over(GameResult::lost_by(reason)));
    if wire.process.stderr_total_bytes() > limits.max_output_bytes {
        return lose(Reason::ProtocolError {
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
            return lose(verdict(seat, fault, side, limits, phase));
        }
    };
    // An answer that came in time only because the wait was extended by a stall of the
    // judge: the bot did nothing wrong, but the game went where no sound machine takes one
    // (its opponent pondered through the stall). It is no result: void, play again.
    let late = elapsed > budget + limits.time.tolerance;
    if late && charged <= budget + limits.time.tolerance {
        return Err(Ending::Void(Voided {
            why: stall.describe(ply),
            storage: false,
        }));
    }
    // Late answers lose even when they arrive within the read deadline's tolerance.
    if let Some(m) = limits.time.per_move {
        if charged > m + limits.time.tolerance {
            return lose(Reason::MoveTime {
                seat,
                limit_ms: millis(m),
            });
        }
    }
    if let Some(g) = limits.time.per_game {
        if side.used > g + limits.time.tolerance {
            return lose(Reason::GameTime {
                seat,
                limit_ms: millis(g),
            });
        }
    }
    Ok(Answer {
        reply,
        sent,
        charged,
        cpu,
    })
}

/// A write that failed because of the machine's storage, not of what was written: a
/// read-only file system, a full disk or quota, an I/O error. In words, without a path.
pub fn storage_fault(e: &std::io::Error) -> Option<&'static str> {
    // Raw errno values: ErrorKind has no stable kind for EIO and EDQUOT.
    const EIO: i32 = 5;
    const ENOSPC: i32 = 28;
    const EROFS: i32 = 30;
    const EDQUOT: i32 = 122;
    match e.raw_os_error()? {
        EROFS => Some("read-only file system"),
        ENOSPC => Some("disk full"),
        EDQUOT => Some("disk quota exceeded"),
        EIO => Some("I/O error"),
        _ => None,
    }
}

/// What the game asks of its caller at the end of [`run`]: a result, or a void (the judge's
/// machine, not the bots, spoiled the game).
enum Ending {
    Over(GameResult),
    Void(Voided),
}

/// Ends the timing of the wire's request: the time the bot is charged (`elapsed` less the
/// judge's stall, see [`crate::stall`]) and the stall.
fn charged(wire: &mut Wire, elapsed: Duration) -> (Duration, Stall) {
    let Some(meter) = wire.end_request() else {
        return (elapsed, Stall::default());
    };
    let stall = meter.stall(wire.process.cpu_time());
    (elapsed.saturating_sub(stall.credit()), stall)
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
    if matches!(
        fault,
        Fault::Closed { running: true } | Fault::InputClosed { running: true }
    ) {
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
    if dead
        || matches!(
            fault,
            Fault::Closed { running: false } | Fault::InputClosed { running: false }
        )
    {
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
        Fault::InputClosed { .. } => Reason::ProtocolError {
            seat,
            message: "stopped reading: closed its standard input while still running".into(),
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

/// Everything seen of the seat at fault: its DEBUG text since its last move, its stderr tail,
/// how it ended and who ended it, and the time of the failing request. `None` for a bot that
/// never started.
fn failure_record(seat: Seat, side: &mut Side, reason: &Reason) -> Option<Failure> {
    let wire = side.wire.as_mut()?;
    let mut log = side.request.log.take().unwrap_or_default();
    log.push_str(&wire.take_log().unwrap_or_default());
    let total = wire.process.stderr_total_bytes();
    let stderr = stderr_tail(&wire.process.stderr_tail(), total, STDERR_KEPT_BYTES);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    Some(Failure {
        seat,
        log: (!log.is_empty()).then_some(log),
        stderr: (!stderr.is_empty()).then_some(stderr),
        exit: side.exit.as_ref().map(|e| exit_record(e, reason)),
        time_ms: side.request.time.map(ms),
        clock_ms: side.request.clock.map(ms),
    })
}

/// The end of a bot's stderr, at most `cap` bytes starting at a line, of `total` bytes written;
/// a first line says how much came before.
pub fn stderr_tail(tail: &[u8], total: u64, cap: usize) -> String {
    let mut start = tail.len().saturating_sub(cap);
    let at_line_start =
        start == 0 && tail.len() as u64 >= total || start > 0 && tail[start - 1] == b'\n';
    if !at_line_start {
        // Start at a whole line when one begins within the window.
        if let Some(nl) = tail[start..].iter().position(|&b| b == b'\n') {
            if nl + 1 < tail.len() - start {
                start += nl + 1;
            }
        }
    }
    let text = String::from_utf8_lossy(&tail[start..]);
    let text = text.trim_end();
    let dropped = total.saturating_sub((tail.len() - start) as u64);
    if dropped == 0 || text.is_empty() {
        return text.to_string();
    }
    format!("[... {dropped} earlier bytes not kept]\n{text}")
}

/// How a bot's process ended, for the replay: who sent a signal and, when arbiter did, why.
fn exit_record(exit: &ExitInfo, reason: &Reason) -> Exit {
    let (killed_by, why) = match exit.signal_cause {
        None => (None, None),
        Some(SignalCause::Referee) => (Some(Killer::Arbiter), Some(kill_why(reason).to_string())),
        Some(SignalCause::Limit(limit)) => (Some(Killer::Arbiter), Some(limit.to_string())),
        Some(SignalCause::Itself) => (Some(Killer::Itself), None),
        Some(SignalCause::Outside) => (Some(Killer::Outside), None),
    };
    Exit {
        code: exit.code,
        signal: exit.signal,
        killed_by,
        why,
    }
}

/// Why arbiter ended a bot that was still running at the end of its game.
fn kill_why(reason: &Reason) -> &'static str {
    match reason {
        Reason::MoveTime { .. } => "move time exceeded",
        Reason::GameTime { .. } => "game time exceeded",
        Reason::NoHandshake { .. } => "no answer to the handshake",
        _ => "the game was over",
    }
}

fn spawn(
    bot: &BotSpec,
    scratch: &Path,
    core: Option<usize>,
    limits: &GameLimits,
    containment: &Containment,
    seed: Option<u64>,
    game: &GameConfig,
) -> Result<BotProcess, String> {
    let mut command = BotCommand::parse(&bot.command).map_err(|e| e.to_string())?;
    let trusted = crate::spec::is_builtin_command(&bot.command);
    command = crate::bot_env::with_game_vars(command, game, trusted);
    if let Some(seed) = seed {
        command = command.env(SEED_VAR, bot_seed(seed).to_string());
    }
    let times = [
        (MOVE_TIME_VAR, limits.time.per_move),
        (GAME_TIME_VAR, limits.time.per_game),
    ];
    for (var, limit) in times {
        if let Some(limit) = limit {
            command = command.env(var, limit.as_millis().to_string());
        }
    }
    match &bot.sees {
        Some(paths) => command.visible = paths.clone(),
        None => {
            // A bot of one's own runs where arbiter runs, seeing the files it names.
            if let Some(dir) = &bot.working_dir {
                command = command.current_dir(dir);
            }
            command = command.of_ones_own();
        }
    }
    if let (Some(dir), Some(_)) = (&bot.working_dir, &bot.sees) {
        command = command.current_dir(dir);
    }
    // No path in the message: verdicts are public, the server's directories are not.
    std::fs::create_dir_all(scratch)
        .map_err(|e| format!("cannot create its scratch directory: {e}"))?;
    let process_limits = Limits {
        memory_bytes: limits.memory_bytes,
        cpu_core: core,
        max_tasks: limits.max_tasks,
        max_line_bytes: limits.max_line_bytes,
        max_output_bytes: limits.max_output_bytes,
        scratch_dir: Some(scratch.to_path_buf()),
        scratch_bytes: Some(limits.scratch_bytes),
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

/// The verdict for a move the rules refuse, quoting `line`, the bot's own line. The move is
/// named in the game's notation when the engine can write it (not off the board), else by the
/// bot's line.
pub fn illegal_move(
    seat: Seat,
    before: &AnyGame,
    mv: AnyMove,
    line: Option<String>,
    error: MoveError,
) -> Reason {
    let why = match error {
        MoveError::Illegal(i) => i.to_string(),
        MoveError::Refused(why) => why,
        other => other.to_string(),
    };
    let line = line.map(|l| quote_cut(&l));
    let text = before.format_move(mv);
    let mv = match before.parse_move(&text) {
        Ok(back) if back == mv => text,
        _ => line
            .clone()
            .unwrap_or_else(|| "a point off the board".into()),
    };
    Reason::IllegalMove {
        seat,
        mv,
        why,
        line,
    }
}

/// A bot's line as a verdict quotes it: at most 200 characters.
fn quote_cut(line: &str) -> String {
    match line.char_indices().nth(200) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
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

#[cfg(test)]
mod tests {
    use super::stderr_tail;

    #[test]
    fn the_disk_quota_is_a_limit_like_the_others() {
        use super::{LimitOverrides, DEFAULT_DISK_MB};
        use arbiter_engine::any::GameConfig;
        let game = GameConfig::Reversi(arbiter_engine::reversi::Config { size: 8 });
        let default = LimitOverrides::default().apply(&game);
        assert_eq!(default.scratch_bytes, DEFAULT_DISK_MB << 20);
        let toml: LimitOverrides = toml::from_str("disk_mb = 16").expect("parses");
        assert_eq!(toml.apply(&game).scratch_bytes, 16 << 20);
        let zero = LimitOverrides {
            disk_mb: Some(0),
            ..LimitOverrides::default()
        };
        assert_eq!(zero.apply(&game).scratch_bytes, 1 << 20, "at least 1 MB");
    }

    #[test]
    fn stderr_tail_keeps_whole_lines_within_the_cap() {
        assert_eq!(stderr_tail(b"", 0, 10), "");
        assert_eq!(stderr_tail(b"one\ntwo\n", 8, 100), "one\ntwo");
        // Cut: from the first whole line inside the window, saying how much came before.
        assert_eq!(
            stderr_tail(b"aaaa\nbbbb\ncc\n", 13, 8),
            "[... 5 earlier bytes not kept]\nbbbb\ncc"
        );
        // The sandbox kept less than was written: its first line may be a line's end.
        assert_eq!(
            stderr_tail(b"x\nlast\n", 1000, 100),
            "[... 995 earlier bytes not kept]\nlast"
        );
        // One long line: its end is kept.
        assert_eq!(
            stderr_tail(b"0123456789", 10, 4),
            "[... 6 earlier bytes not kept]\n6789"
        );
    }
}
