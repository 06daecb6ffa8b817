//! One game of a kit module between two seats, each a bot process speaking the kit's line
//! protocol or `builtin:random`. The module judges every move; this crate only carries lines,
//! keeps the move clock and turns what happened into a verdict.
//!
//! The protocol (docs/game-kit.md), in seed 001's manner, seats numbered 1 and 2:
//! - `START s name` -> `OK`;
//! - `PLAYED s move`: a ply the bot did not choose (the opponent's, or its own forced one);
//! - on its turn: `POSITION k` and the k lines the module tells this seat, `LEGAL m1 m2 ...`,
//!   then `TURN` -> one move in the game's notation;
//! - `END f` (0 draw, 1 won, 2 lost); `DEBUG text` from the bot at any time is logged.

pub mod protocol;
pub mod search;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use arbiter_kit_host::check::Rng;
use arbiter_kit_host::{KitError, Rules, State};
use arbiter_match::protocol::{LogCaps, Wire};
use arbiter_sandbox::{BotCommand, BotProcess, Containment, Limits};
use serde_json::Value;

/// A module as a record names it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ModuleRef {
    pub name: String,
    pub version: String,
    pub sha256: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    /// 0 or 1; `None` for a draw.
    pub winner: Option<usize>,
    pub reason: String,
    pub scores: Vec<i64>,
}

/// One played game (the kit's replay, draft: see docs/game-kit.md).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Record {
    pub module: ModuleRef,
    pub config: Value,
    pub seed: u64,
    pub players: [String; 2],
    pub moves: Vec<String>,
    pub result: Verdict,
    /// Each seat's DEBUG lines (capped as in seed 001).
    pub logs: [String; 2],
}

/// A seat as given on the command line: a command line, `builtin:random`, or
/// `builtin:mc:N` (a generic Monte Carlo search, N playouts a move).
#[derive(Clone, Debug)]
pub struct SeatSpec {
    pub name: String,
    pub command: String,
    pub working_dir: Option<PathBuf>,
}

/// The clocks and bounds a game is played under.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub handshake: Duration,
    pub per_move: Duration,
    pub memory_bytes: Option<u64>,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            handshake: Duration::from_secs(5),
            per_move: Duration::from_secs(5),
            memory_bytes: Some(350 << 20),
        }
    }
}

enum Player {
    Bot(Box<Wire>),
    Random(Rng),
    /// `builtin:mc:N`: flat Monte Carlo with N playouts a move ([`search`]).
    MonteCarlo(Rng, u32),
}

/// Plays one game. `Err` only when the module fails (a verdict against no bot); every bot
/// failure is a verdict.
pub fn play(
    rules: &mut Rules,
    module: &ModuleRef,
    config: &Value,
    seed: u64,
    seats: [&SeatSpec; 2],
    clock: Clock,
) -> Result<Record, KitError> {
    let state = rules.start(config, seed)?;
    let mut record = Record {
        module: module.clone(),
        config: config.clone(),
        seed,
        players: [seats[0].name.clone(), seats[1].name.clone()],
        moves: Vec::new(),
        result: Verdict {
            winner: None,
            reason: String::new(),
            scores: vec![0, 0],
        },
        logs: [String::new(), String::new()],
    };
    let mut players = Vec::new();
    for (i, spec) in seats.iter().enumerate() {
        match start_player(spec, i, &module.name, seed, clock) {
            Ok(p) => players.push(p),
            Err(why) => {
                record.result = forfeit(i, format!("did not start: {why}"));
                return Ok(finish(record, &mut players));
            }
        }
    }
    let result = run_moves(rules, state, &mut players, &mut record, clock);
    rules.release(state)?;
    record.result = result?;
    Ok(finish(record, &mut players))
}

fn forfeit(seat: usize, why: String) -> Verdict {
    let mut scores = vec![0, 0];
    scores[1 - seat] = 1;
    Verdict {
        winner: Some(1 - seat),
        reason: format!("{} {why}", protocol::seat_word(seat)),
        scores,
    }
}

fn start_player(
    spec: &SeatSpec,
    seat: usize,
    game: &str,
    seed: u64,
    clock: Clock,
) -> Result<Player, String> {
    let rng = Rng::new(seed ^ (seat as u64 + 1));
    if spec.command == "builtin:random" {
        return Ok(Player::Random(rng));
    }
    if let Some(n) = spec.command.strip_prefix("builtin:mc:") {
        return match n.parse::<u32>() {
            Ok(n @ 1..=1_000_000) => Ok(Player::MonteCarlo(rng, n)),
            _ => Err(format!(
                "builtin:mc:N wants N playouts a move, 1 to 1000000, not {n:?}"
            )),
        };
    }
    let mut command = BotCommand::parse(&spec.command).map_err(|e| e.to_string())?;
    command = command.env("ARBITER_SEED", seed.to_string());
    if let Some(dir) = &spec.working_dir {
        command = command.current_dir(dir);
    }
    // A bot of one's own runs where arbiter runs and, in its jail, sees the files it names.
    command = command.of_ones_own();
    let limits = Limits {
        memory_bytes: clock.memory_bytes,
        ..Limits::default()
    };
    let process = BotProcess::spawn(&command, &limits, containment()).map_err(|e| e.to_string())?;
    let mut wire = Wire::new(process, LogCaps::default());
    protocol::start(&mut wire, seat, game, Instant::now() + clock.handshake)
        .map_err(|f| protocol::fault_words(&f))?;
    Ok(Player::Bot(Box::new(wire)))
}

/// The containment layers that work on this machine, found once (as `arbiter match` does).
fn containment() -> &'static Containment {
    static FOUND: std::sync::OnceLock<Containment> = std::sync::OnceLock::new();
    FOUND.get_or_init(Containment::detect)
}

/// The move loop; returns the verdict.
fn run_moves(
    rules: &mut Rules,
    state: State,
    players: &mut [Player],
    record: &mut Record,
    clock: Clock,
) -> Result<Verdict, KitError> {
    loop {
        let status = rules.status(state)?;
        let Some(seat) = status.to_move else {
            // `Rules::status` has checked that a game with no side to move has an outcome.
            let o = status
                .outcome
                .ok_or_else(|| KitError::Host("no outcome".into()))?;
            return Ok(Verdict {
                winner: o.winner,
                reason: o.reason,
                scores: o.scores,
            });
        };
        let (mv, chosen) = match status.forced {
            Some(f) => (f, false),
            None => match choose(rules, state, seat, &mut players[seat], clock)? {
                Ok(mv) => (mv, true),
                Err(why) => return Ok(forfeit(seat, why)),
            },
        };
        if let Err(why) = rules.play(state, &mv)? {
            return Ok(forfeit(
                seat,
                format!("played the illegal move {mv:?}: {why}"),
            ));
        }
        record.moves.push(mv.clone());
        for (i, p) in players.iter_mut().enumerate() {
            if i == seat && chosen {
                continue;
            }
            if let Player::Bot(wire) = p {
                if let Err(f) = protocol::played(wire, seat, &mv) {
                    return Ok(forfeit(i, protocol::fault_words(&f)));
                }
            }
        }
    }
}

/// The seat's move, or why it has none.
fn choose(
    rules: &mut Rules,
    state: State,
    seat: usize,
    player: &mut Player,
    clock: Clock,
) -> Result<Result<String, String>, KitError> {
    let legal = rules.legal(state)?;
    Ok(match player {
        Player::Random(rng) => Ok(legal[rng.below(legal.len())].clone()),
        Player::MonteCarlo(rng, n) => Ok(search::best_move(rules, state, seat, &legal, *n, rng)?),
        Player::Bot(wire) => {
            let told = rules.tell(state, seat)?;
            let deadline = Instant::now() + clock.per_move;
            protocol::ask(wire, &told, &legal, deadline).map_err(|f| protocol::fault_words(&f))
        }
    })
}

fn finish(mut record: Record, players: &mut [Player]) -> Record {
    for (i, p) in players.iter_mut().enumerate() {
        if let Player::Bot(wire) = p {
            let standing = match record.result.winner {
                None => 0,
                Some(w) if w == i => 1,
                Some(_) => 2,
            };
            wire.send_quietly(&format!("END {standing}"));
            wire.linger(Duration::from_millis(200));
            record.logs[i] = wire.take_log().unwrap_or_default();
            if let arbiter_match::live::Endpoint::Bot(process) = &mut wire.process {
                process.finish(Duration::from_millis(100));
            }
        }
    }
    record
}
