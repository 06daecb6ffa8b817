//! One game between bot processes, two or more: spawn, handshake, the move loop with clocks
//! (`crate::turns`), the verdict (`crate::verdict`), and the replay.
//!
//! The engine judges every move; this module only measures time and turns what the processes
//! did into a verdict a student understands. Time is measured from the request being written
//! to the answer line arriving; a bot is late only past the limit plus `tolerance`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::replay::{GameResult, Meta, MoveRecord, Player, Reason, Replay};
use arbiter_engine::Seat;

use crate::live::{Endpoint, Live};
use crate::protocol::{LimitsInfo, LogCaps, Protocol, ProtocolKind, Standing, Start, Wire};
use crate::stall::Stall;
use crate::verdict::{verdict, Phase};
use arbiter_sandbox::{BotCommand, BotProcess, Containment, ExitInfo, Limits, SpawnError};

pub use crate::verdict::{illegal_move, stderr_tail};

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
    /// The clocks of a seat a person plays ([`crate::live::RemoteSeat`]), where they are not
    /// the bots' (a contest's test game by clicks: a second a move is a bot's, not a person's).
    pub person_time: Option<TimeControl>,
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
            person_time: None,
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
    /// The game's seed, kept in the replay so the game can be played again; each bot gets
    /// its own number drawn one-way from it and its seat as `ARBITER_SEED` ([`bot_seed`]),
    /// from which arbiter's built-in bots draw their random choices.
    pub seed: Option<u64>,
    /// A game longer than this many plies ends with no result: the rules never ended it,
    /// which is the game module's fault, never a bot's.
    pub max_plies: usize,
}

/// The most plies a game may last by default: far beyond every game arbiter knows (the 2048
/// duel's 2,000, Chinese Checkers' 1,000 turns), so it stops only a game that never ends.
pub const MAX_PLIES: usize = 20_000;

/// Machine resources for one game.
#[derive(Clone, Debug)]
pub struct Seats {
    /// The core each seat is pinned to, one per seat of the game.
    pub cores: Vec<Option<usize>>,
    /// Where per-bot scratch directories are made (and removed after the game).
    pub scratch_root: PathBuf,
}

/// The cores of each of `concurrency` game slots of `seats` seats on `cpus`: each seat on a
/// core of its own when there are enough (`share` = None decides), else a slot's seats share
/// its core.
pub fn slot_cores(
    cpus: &[usize],
    concurrency: usize,
    seats: usize,
    share: Option<bool>,
) -> Vec<Vec<Option<usize>>> {
    let n = cpus.len();
    let share = share.unwrap_or(n < seats * concurrency);
    (0..concurrency)
        .map(|k| {
            (0..seats)
                .map(|s| match (n, share) {
                    (0, _) => None,
                    (_, true) => Some(cpus[k % n]),
                    (_, false) => Some(cpus[(seats * k + s) % n]),
                })
                .collect()
        })
        .collect()
}

/// A finished game.
#[derive(Debug)]
pub struct Played {
    pub replay: Replay,
    /// How each bot's process ended (`None` if it never started), by seat.
    pub exits: Vec<Option<ExitInfo>>,
    /// Containment layers that could not be applied, and similar notes.
    pub warnings: Vec<String>,
    /// Where the wall time went.
    pub timing: Timing,
    /// Set when the judge's machine, not the bots, spoiled the game (a stall, a storage
    /// fault): the replay's result says "voided: ..." and the game is no result. Whoever
    /// plays it must play it again (docs/faults.md).
    pub voided: Option<Voided>,
}

impl Played {
    /// A game an earlier run of the referee played to its end (its replay saved then).
    pub fn finished_earlier(replay: Replay) -> Played {
        Played {
            exits: vec![None; replay.players.len()],
            replay,
            warnings: Vec::new(),
            timing: Timing::default(),
            voided: None,
        }
    }
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

/// What the bot at `seat` is given as `ARBITER_SEED` for a game of seed `seed`: the same
/// number whenever the game is played again, but one-way (SHA-256 of the seed and the seat),
/// so that no bot can work back from it to the seed (nor from there to a tournament's seed
/// or a module game's dice), nor from its own to another seat's.
pub fn bot_seed(seed: u64, seat: Seat) -> u64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::new()
        .chain_update(b"arbiter bot seed\0")
        .chain_update(seed.to_le_bytes())
        .chain_update([seat.index() as u8])
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

/// One seat's bot, as the game runner keeps it.
pub(crate) struct Side {
    pub(crate) wire: Option<Wire>,
    pub(crate) protocol: Box<dyn Protocol>,
    /// Time charged to its game clock so far.
    pub(crate) used: Duration,
    pub(crate) cpu_seen: Duration,
    pub(crate) scratch: PathBuf,
    pub(crate) exit: Option<ExitInfo>,
    /// The request in progress, for the failure record if it fails.
    pub(crate) request: Request,
    /// Taken out of the game after it failed (a game of three or more seats going on).
    pub(crate) out: bool,
}

/// What is known of a bot's current request until its answer is recorded as a move.
#[derive(Default)]
pub(crate) struct Request {
    /// DEBUG text taken from the wire but not yet attached to a move.
    pub(crate) log: Option<String>,
    /// Wall-clock time the request took.
    pub(crate) time: Option<Duration>,
    /// What was left of the game clock when it was made.
    pub(crate) clock: Option<Duration>,
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

/// Plays one game. `bots[i]` takes seat `i` (seat 0 moves first); there is one bot per seat
/// of the game. Never panics on anything a bot does; every failure becomes the result's
/// reason.
pub fn play(
    spec: &GameSpec,
    bots: &[&BotSpec],
    seats: &Seats,
    containment: &Containment,
) -> Played {
    play_live(spec, bots, seats, containment, Live::none())
}

/// [`play`], followed by an observer (spectators) and with seats played from outside (people
/// in a browser) where `live.remote` has them; such a seat's `BotSpec` gives only its name.
pub fn play_live(
    spec: &GameSpec,
    bots: &[&BotSpec],
    seats: &Seats,
    containment: &Containment,
    live: Live<'_>,
) -> Played {
    resume_live(spec, bots, seats, containment, live, &[])
}

/// [`play_live`] taken up after `played`, the moves an earlier run of the referee recorded
/// before its process stopped (a live game's journal): they are the replay's first moves, with
/// their times (each seat's game clock goes on from them), and the observer sees them first;
/// the bots start from the position they lead to, given as the opening. A bot whose protocol
/// cannot start from a position cannot take the game up: it then ends with no result.
pub fn resume_live(
    spec: &GameSpec,
    bots: &[&BotSpec],
    seats: &Seats,
    containment: &Containment,
    mut live: Live<'_>,
    played: &[MoveRecord],
) -> Played {
    let mut warnings = Vec::new();
    let players: Vec<Player> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| player(b, Seat::from_index(i).unwrap_or(Seat::FIRST)))
        .collect();
    let mut replay = Replay::new(spec.config.clone(), players);
    replay.opening = spec.opening.clone();
    replay.meta = Meta {
        event: spec.event.clone(),
        date: Some(now_utc()),
        seed: spec.seed,
        ..Meta::default()
    };
    let mut game = match set_up(&replay, bots.len()) {
        Ok(g) => g,
        Err(why) => {
            replay.result = GameResult::aborted(why);
            return Played {
                replay,
                exits: vec![None; bots.len()],
                warnings,
                timing: Timing::default(),
                voided: None,
            };
        }
    };
    if let Some(o) = live.observer.as_mut() {
        o.started(&replay, &spec.limits);
    }
    let taken_up = take_up(spec, bots, &mut live, &mut game, &mut replay, played);
    if let Err(result) = taken_up {
        replay.result = result;
        if let Some(o) = live.observer.as_mut() {
            o.ended(&replay);
        }
        return Played {
            replay,
            exits: vec![None; bots.len()],
            warnings,
            timing: Timing::default(),
            voided: None,
        };
    }
    let mut sides = new_sides(bots, seats, &mut live);
    // A game taken up goes on with each seat's clock where it was.
    for (i, side) in sides.iter_mut().enumerate() {
        side.used = played
            .iter()
            .flat_map(MoveRecord::records)
            .filter(|m| m.seat.index() == i)
            .filter_map(|m| m.time_ms)
            .map(|ms| Duration::from_secs_f64(ms.max(0.0) / 1000.0))
            .sum();
    }
    let mut timing = Timing::default();
    let t0 = Instant::now();
    let table = Table {
        spec,
        bots,
        seats,
        containment,
    };
    let ending = crate::turns::run(
        &table,
        &mut game,
        &mut sides,
        &mut replay,
        &mut warnings,
        &mut timing,
        &mut live,
    );
    let voided = match ending {
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
    finish(&mut sides, &replay.result, game.seats());
    timing.teardown = t1.elapsed();
    record_end(&mut replay, &mut sides, &game);
    if let Some(o) = live.observer.as_mut() {
        o.ended(&replay);
    }
    let exits = sides.iter_mut().map(|s| s.exit.take()).collect();
    Played {
        replay,
        exits,
        warnings,
        timing,
        voided,
    }
}

/// The start position, checked to have a seat for every bot.
fn set_up(replay: &Replay, bots: usize) -> Result<AnyGame, String> {
    let game = replay
        .start_position()
        .map_err(|e| format!("cannot set up the game: {e}"))?;
    if game.seats() != bots {
        return Err(format!(
            "cannot set up the game: it has {} seats, and {bots} bots were given",
            game.seats()
        ));
    }
    Ok(game)
}

/// One side per seat: its protocol (a remote seat's, or its bot's) and its scratch directory.
fn new_sides(bots: &[&BotSpec], seats: &Seats, live: &mut Live<'_>) -> Vec<Side> {
    bots.iter()
        .enumerate()
        .map(|(i, bot)| {
            let scratch = seats.scratch_root.join(format!("seat{i}-{}", unique()));
            let remote = live.remote.get(i).is_some_and(Option::is_some);
            let protocol: Box<dyn Protocol> = match remote {
                true => Box::new(crate::protocol::remote::Remote),
                false => bot.protocol.start(),
            };
            Side {
                wire: None,
                protocol,
                used: Duration::ZERO,
                cpu_seen: Duration::ZERO,
                scratch,
                exit: None,
                request: Request::default(),
                out: false,
            }
        })
        .collect()
}

/// What the replay keeps once the game is over: the failing seat's record, the final scores
/// and the module's words for a normal end; the bots' scratch directories go.
fn record_end(replay: &mut Replay, sides: &mut [Side], game: &AnyGame) {
    if let Some(seat) = replay.result.reason.culprit() {
        if let Some(side) = sides.get_mut(seat.index()) {
            replay.failure = crate::verdict::failure_record(seat, side, &replay.result.reason);
        }
    }
    if replay.result.reason == Reason::Normal {
        replay.scores = Some(game.scores());
        replay.meta.ending = game.end_words();
    }
    for side in sides.iter() {
        let _ = std::fs::remove_dir_all(&side.scratch);
    }
}

/// Plays the moves of a game taken up ([`resume_live`]) on `game` and into `replay`, each told
/// to the observer; the result instead when the game cannot be taken up.
fn take_up(
    spec: &GameSpec,
    bots: &[&BotSpec],
    live: &mut Live<'_>,
    game: &mut AnyGame,
    replay: &mut Replay,
    played: &[MoveRecord],
) -> Result<(), GameResult> {
    if played.is_empty() {
        return Ok(());
    }
    let at = played.len();
    for (i, record) in played.iter().enumerate() {
        if !follows(game, record) {
            return Err(GameResult::aborted(format!(
                "the game could not be taken up after the referee stopped: its move {} ({}) \
                 does not follow",
                i + 1,
                crate::verdict::quote_cut(&record.mv)
            )));
        }
        replay.moves.push(record.clone());
        if let Some(o) = live.observer.as_mut() {
            o.moved(replay);
        }
    }
    for (i, bot) in bots.iter().enumerate() {
        if live.remote.get(i).is_some_and(Option::is_some) {
            continue;
        }
        if let Err(why) = bot.protocol.check(&spec.config, true) {
            return Err(GameResult::aborted(format!(
                "the referee stopped after move {at} and {} cannot take the game up from there \
                 ({why})",
                bot.name
            )));
        }
    }
    Ok(())
}

/// The opening the bots of a game taken up start from: the game's, then the moves played.
pub(crate) fn opening_with(spec: &GameSpec, replay: &Replay) -> Vec<String> {
    let mut opening = spec.opening.clone();
    opening.extend(replay.moves.iter().map(|m| m.mv.clone()));
    opening
}

/// Plays a recorded ply (a simultaneous turn's every move) on `game`, if it follows.
fn follows(game: &mut AnyGame, record: &MoveRecord) -> bool {
    let mut ply = Vec::new();
    for m in record.records() {
        match game.parse_move(&m.mv) {
            Ok(mv) => ply.push((m.seat, mv)),
            Err(_) => return false,
        }
    }
    let movers: Vec<Seat> = game.turn().movers().iter().collect();
    let seats: Vec<Seat> = ply.iter().map(|(s, _)| *s).collect();
    movers == seats && game.play_together(&ply).is_ok()
}

/// What a game is played with: what to play, by whom, on which part of the machine.
pub(crate) struct Table<'a> {
    pub(crate) spec: &'a GameSpec,
    pub(crate) bots: &'a [&'a BotSpec],
    pub(crate) seats: &'a Seats,
    pub(crate) containment: &'a Containment,
}

/// The result of a game no bot could start: nobody wins, and the message says each failure
/// ("both bots failed: first: failed to start: ...; second: ..."; arbiter-i18n's `machine`
/// module knows this form).
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
pub(crate) fn unwritable_scratch(sides: &[Side]) -> Option<Voided> {
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

/// Starts every bot (or connects a remote seat); a bot that cannot start has its verdict.
pub(crate) fn spawn_all(
    table: &Table<'_>,
    sides: &mut [Side],
    warnings: &mut Vec<String>,
    live: &mut Live<'_>,
) -> Vec<Option<Reason>> {
    let limits = &table.spec.limits;
    let mut failed = vec![None; sides.len()];
    for (i, seat) in Seat::all(sides.len()).enumerate() {
        if let Some(remote) = live.remote.get_mut(i).and_then(Option::take) {
            sides[i].wire = Some(Wire::over(Endpoint::Remote(remote), limits.log_caps));
            continue;
        }
        let bot = BotRun {
            bot: table.bots[i],
            seat,
            scratch: &sides[i].scratch,
            core: table.seats.cores.get(i).copied().flatten(),
            seed: table.spec.seed,
        };
        match spawn(&bot, limits, table.containment, &table.spec.config) {
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
pub(crate) fn shake_hands(
    limits: &GameLimits,
    game: &AnyGame,
    opening: &[String],
    sides: &mut [Side],
    failed: &mut [Option<Reason>],
) {
    let info = LimitsInfo {
        move_time: limits.time.per_move,
        game_time: limits.time.per_game,
        memory_bytes: limits.memory_bytes,
    };
    for (i, seat) in Seat::all(sides.len()).enumerate() {
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

/// What the game asks of its caller at the end of the move loop: a result, or a void (the
/// judge's machine, not the bots, spoiled the game).
pub(crate) enum Ending {
    Over(GameResult),
    Void(Voided),
}

/// Each seat's standing as the end command tells it.
pub(crate) fn standing(result: &GameResult, seat: Seat, seats: usize) -> Standing {
    let places = result.places(seats);
    let place = places.as_ref().and_then(|p| p.get(seat.index()).copied());
    let shared = places
        .as_ref()
        .is_some_and(|p| p.iter().filter(|&&q| Some(q) == place).count() > 1);
    Standing {
        place,
        shared,
        seats,
    }
}

/// Ends the game for every bot still in it: the end command, a moment to leave, then the
/// whole tree dies.
fn finish(sides: &mut [Side], result: &GameResult, seats: usize) {
    for (i, side) in sides.iter_mut().enumerate() {
        let seat = Seat::from_index(i).unwrap_or(Seat::FIRST);
        if let (Some(wire), None) = (side.wire.as_mut(), &side.exit) {
            wire.process.thaw();
            side.protocol.end(wire, standing(result, seat, seats));
        }
    }
    for side in sides.iter_mut() {
        if let (Some(wire), None) = (side.wire.as_mut(), &side.exit) {
            wire.linger(Duration::from_millis(100));
            side.exit = Some(wire.process.finish(Duration::from_millis(100)));
        }
    }
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

/// Ends the timing of the wire's request: the time the bot is charged (`elapsed` less the
/// judge's stall, see [`crate::stall`]) and the stall.
pub(crate) fn charged(wire: &mut Wire, elapsed: Duration) -> (Duration, Stall) {
    let Some(meter) = wire.end_request() else {
        return (elapsed, Stall::default());
    };
    let stall = meter.stall(wire.process.cpu_time());
    (elapsed.saturating_sub(stall.credit()), stall)
}

/// One bot to start: who, at which seat, where.
struct BotRun<'a> {
    bot: &'a BotSpec,
    seat: Seat,
    scratch: &'a Path,
    core: Option<usize>,
    seed: Option<u64>,
}

fn spawn(
    run: &BotRun<'_>,
    limits: &GameLimits,
    containment: &Containment,
    game: &GameConfig,
) -> Result<BotProcess, String> {
    let bot = run.bot;
    let mut command = BotCommand::parse(&bot.command).map_err(|e| e.to_string())?;
    let trusted = crate::spec::is_builtin_command(&bot.command);
    command = crate::bot_env::with_game_vars(command, game, trusted);
    if let Some(seed) = run.seed {
        command = command.env(SEED_VAR, bot_seed(seed, run.seat).to_string());
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
    std::fs::create_dir_all(run.scratch)
        .map_err(|e| format!("cannot create its scratch directory: {e}"))?;
    let process_limits = Limits {
        memory_bytes: limits.memory_bytes,
        cpu_core: run.core,
        max_tasks: limits.max_tasks,
        max_line_bytes: limits.max_line_bytes,
        max_output_bytes: limits.max_output_bytes,
        scratch_dir: Some(run.scratch.to_path_buf()),
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
