//! Games that others follow as they are played, and seats that are not processes.
//!
//! - An [`Observer`] sees the replay grow: the start (game, players, opening), each ply, the end.
//!   It must not block: the live hub pushes into a broadcast and returns, so the bots' clocks
//!   never wait for spectators.
//! - A [`RemoteSeat`] is a seat played from outside (a person in a browser through the live
//!   hub): the referee talks to it over two channels with the same clocks and deadlines as a
//!   bot, through [`Endpoint::Remote`] and the `remote` protocol.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use arbiter_engine::replay::{MoveRecord, Replay};
use arbiter_sandbox::{
    BotProcess, ExitInfo, MemoryEnforcement, MemoryEvidence, ReadEvent, SendError, Termination,
};

use crate::game::GameLimits;

/// Follows a game as it is played. Every method must return at once.
pub trait Observer: Send {
    /// The game is set up: `replay` holds the game, the players and the opening, no moves.
    fn started(&mut self, replay: &Replay, limits: &GameLimits);
    /// A ply was played: it is `replay.moves.last()`.
    fn moved(&mut self, replay: &Replay);
    /// The game is over: `replay` is complete (result, scores, failure).
    fn ended(&mut self, replay: &Replay);
    /// A seat was taken out after it failed, the others playing on: it is
    /// `replay.retired.last()`.
    fn retired(&mut self, replay: &Replay) {
        let _ = replay;
    }
}

/// An observer that holds the game for `pace` after each ply so that people can follow it, as
/// seed 000's live tool slept between moves: for showing a contest on a projector, or a demo
/// whose bots answer at once. The only observer allowed to take time: [`Observer::moved`]
/// is called after the mover's clock stopped and before the opponent is asked, so no bot's
/// clock runs while it waits.
pub struct Paced {
    pub inner: Box<dyn Observer>,
    pub pace: Duration,
}

impl Observer for Paced {
    fn started(&mut self, replay: &Replay, limits: &GameLimits) {
        self.inner.started(replay, limits);
    }

    fn moved(&mut self, replay: &Replay) {
        self.inner.moved(replay);
        std::thread::sleep(self.pace);
    }

    fn ended(&mut self, replay: &Replay) {
        self.inner.ended(replay);
    }
}

/// The command a person's seat is given (never run): `arbiter match human:Ada` and a
/// contest's game by clicks name such seats so.
pub const PERSON_COMMAND: &str = "human";

/// A seat played from outside the machine's processes.
pub struct RemoteSeat {
    /// Sends a line to the seat's player; `false` when nobody listens any more.
    pub send: Box<dyn FnMut(String) -> bool + Send>,
    /// The seat's answers (moves in the game's notation).
    pub receive: Receiver<String>,
}

impl std::fmt::Debug for RemoteSeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RemoteSeat")
    }
}

/// What a seat's lines go through: a bot's process, or a remote seat's channels.
pub enum Endpoint {
    Bot(Box<BotProcess>),
    Remote(RemoteSeat),
}

impl Endpoint {
    pub fn send(&mut self, bytes: &[u8]) -> Result<(), SendError> {
        match self {
            Endpoint::Bot(p) => p.send(bytes),
            Endpoint::Remote(r) => {
                let text = String::from_utf8_lossy(bytes).trim_end().to_string();
                if (r.send)(text) {
                    Ok(())
                } else {
                    Err(SendError::Closed)
                }
            }
        }
    }

    pub fn read_line(&mut self, deadline: Instant) -> ReadEvent {
        match self {
            Endpoint::Bot(p) => p.read_line(deadline),
            Endpoint::Remote(r) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match r.receive.recv_timeout(wait) {
                    Ok(line) => ReadEvent::Line(line.into_bytes()),
                    Err(RecvTimeoutError::Timeout) => ReadEvent::Timeout,
                    Err(RecvTimeoutError::Disconnected) => {
                        // The hub went away: the seat can only run out of time.
                        std::thread::sleep(wait);
                        ReadEvent::Timeout
                    }
                }
            }
        }
    }

    pub fn try_wait(&mut self) -> Option<Termination> {
        match self {
            Endpoint::Bot(p) => p.try_wait(),
            Endpoint::Remote(_) => None,
        }
    }

    /// Waits until the bot exits or `deadline` passes (a person has no process: the wait is
    /// the whole time, as a moment for the last messages to reach them).
    pub fn wait_for_exit(&mut self, deadline: std::time::Instant) -> Option<Termination> {
        match self {
            Endpoint::Bot(p) => p.wait_for_exit(deadline),
            Endpoint::Remote(_) => {
                std::thread::sleep(deadline.saturating_duration_since(std::time::Instant::now()));
                None
            }
        }
    }

    /// CPU time of the bot's tree; none for a person.
    pub fn cpu_time(&mut self) -> Duration {
        match self {
            Endpoint::Bot(p) => p.cpu_time(),
            Endpoint::Remote(_) => Duration::ZERO,
        }
    }

    pub fn freeze(&mut self) {
        if let Endpoint::Bot(p) = self {
            p.freeze();
        }
    }

    pub fn thaw(&mut self) {
        if let Endpoint::Bot(p) = self {
            p.thaw();
        }
    }

    pub fn finish(&mut self, grace: Duration) -> ExitInfo {
        match self {
            Endpoint::Bot(p) => p.finish(grace),
            Endpoint::Remote(_) => ExitInfo {
                code: Some(0),
                signal: None,
                core_dumped: false,
                killed_by_referee: false,
                memory_exceeded: false,
                memory_evidence: MemoryEvidence::None,
                memory_enforcement: MemoryEnforcement::None,
                task_limit_hit: false,
                peak_memory_bytes: None,
                cpu_time: Duration::ZERO,
                leftover_processes_killed: 0,
                survivors: 0,
                stdout_total_bytes: 0,
                stderr_total_bytes: 0,
                signal_cause: None,
            },
        }
    }

    pub fn stderr_tail(&self) -> Vec<u8> {
        match self {
            Endpoint::Bot(p) => p.stderr_tail(),
            Endpoint::Remote(_) => Vec::new(),
        }
    }

    pub fn stderr_total_bytes(&self) -> u64 {
        match self {
            Endpoint::Bot(p) => p.stderr_total_bytes(),
            Endpoint::Remote(_) => 0,
        }
    }

    pub fn warnings(&self) -> &[String] {
        match self {
            Endpoint::Bot(p) => p.warnings(),
            Endpoint::Remote(_) => &[],
        }
    }
}

/// What a live game adds to [`crate::game::play`]: someone watching, and seats played from
/// outside.
#[derive(Default)]
pub struct Live<'a> {
    pub observer: Option<&'a mut dyn Observer>,
    /// One entry per seat: `Some` for a seat played from outside.
    pub remote: Vec<Option<RemoteSeat>>,
}

impl Live<'_> {
    pub fn none() -> Live<'static> {
        Live::default()
    }
}

/// What makes one game of a match or tournament live: its observer and its people's seats;
/// for a match taken up after its referee's process stopped, what that run left of the game.
#[derive(Default)]
pub struct LiveSetup {
    pub observer: Option<Box<dyn Observer>>,
    /// One entry per seat (or none: no seat played from outside).
    pub remote: Vec<Option<RemoteSeat>>,
    /// The moves the earlier run recorded of this game: it is taken up after them
    /// ([`crate::game::resume_live`]).
    pub resume: Vec<MoveRecord>,
    /// The earlier run finished this game: its replay, not played again.
    pub finished: Option<Box<Replay>>,
}

/// Makes the games of a match live, one after another (`arbiter match --live`).
pub trait LiveGames {
    /// Called before game `i` (0-based) with what it plays and who sits where.
    fn setup(
        &mut self,
        i: usize,
        spec: &crate::game::GameSpec,
        bots: &[&crate::game::BotSpec],
    ) -> LiveSetup;
}

/// No game is live.
pub struct NotLive;

impl LiveGames for NotLive {
    fn setup(
        &mut self,
        _: usize,
        _: &crate::game::GameSpec,
        _: &[&crate::game::BotSpec],
    ) -> LiveSetup {
        LiveSetup::default()
    }
}
