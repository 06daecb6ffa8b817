//! `arbiter logic GAME`: one of our games as a Saiblo game-logic process (seed 002).
//!
//! The judger talks to us in `4 + n` frames on stdin; we answer in `4 + 4 + n` frames on
//! stdout. Toward the AIs the logic speaks the same *lines* as our line protocols
//! (`docs/protocols.md`): Reversi uses seed 001's brain protocol (`START 1` -> `OK`,
//! `PLACE r c`, `TURN` -> `r c`, `END f`), the 2048 duel arbiter's duel protocol. Each body
//! sent to an AI is one or more LF-terminated lines prefixed with their byte length as 8
//! zero-padded decimal digits (the public templates' convention); each AI message is one
//! `4 + n` frame holding the answer line, optionally preceded by `DEBUG ...` lines (kept as the
//! move's log). See `docs/saiblo.md`.
//!
//! The game runs like `arbiter_match::game::play` (same order of messages, same verdicts where the
//! protocol carries them), so the same deterministic bots give the same replay.

use std::io::{Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use arbiter_engine::any::{AnyGame, AnyMove, GameConfig};
use arbiter_engine::duel2048::RandomSource;
use arbiter_engine::error::StepKind;
use arbiter_engine::gomoku::Point;
use arbiter_engine::replay::{GameResult, Meta, MoveRecord, Player, Reason, Replay};
use arbiter_engine::reversi::Move as ReversiMove;
use arbiter_engine::{Game, Seat};
use serde_json::{json, Number, Value};

mod table;

use super::frame::{self, encode_for_ai, FrameError, TO_JUDGER};
use super::message::{
    AiError, End, ErrorKind, JudgerMessage, LogicMessage, MessageError, PlayerType, Round,
    RoundConfig,
};

/// How the logic runs a game.
#[derive(Clone, Debug)]
pub struct LogicOptions {
    pub game: GameConfig,
    /// One move's time (the round time sent to the judger).
    pub move_time: Duration,
    /// A player's total thinking time, from the judger's `time` figures; `None` = unlimited.
    pub game_time: Option<Duration>,
    /// Longest AI message accepted (the round config's `length`).
    pub length: u64,
    pub event: Option<String>,
    /// Take the 2048 duel's seed from init's `config.random_seed` (Saiblo's per-match seed)
    /// when present; the command line's `--seed` turns this off.
    pub seed_from_init: bool,
    /// Moves played before the AIs' first (Reversi, Gomoku); the AIs are told the position.
    pub opening: Vec<String>,
    /// Ask the judger how the AIs ended (`request_end_state`, optional in seed 002) and wait
    /// this long for its answer before deciding the end states alone; `None` = do not ask.
    /// Saiblo's public local judger never answers.
    pub end_state_wait: Option<Duration>,
    /// Send each ply to spectators as a watch message. Off by default: nothing of ours reads
    /// them, and Saiblo's public local judger cannot parse them.
    pub watch: bool,
    /// Where notes for the game's log go (`arbiter logic`: its stderr), each before the end is
    /// sent: a judger may stop the logic as soon as it has the end.
    pub log: Option<fn(&str)>,
}

/// How long the logic waits for the judger's `end_state` by default.
pub const DEFAULT_END_STATE_WAIT: Duration = Duration::from_secs(3);

impl LogicOptions {
    /// The seeds' limits for `game`: Reversi 5 s a move and 180 s a game, the duel 5 s in
    /// total (sent as the round time each move, with the game clock checked by the logic).
    pub fn default_for(game: GameConfig) -> LogicOptions {
        let (move_time, game_time) = match game {
            GameConfig::Duel2048(_) => (Duration::from_secs(5), Some(Duration::from_secs(5))),
            _ => (Duration::from_secs(5), Some(Duration::from_secs(180))),
        };
        LogicOptions {
            game,
            move_time,
            game_time,
            length: super::message::DEFAULT_LENGTH_BYTES,
            event: None,
            seed_from_init: false,
            opening: Vec::new(),
            end_state_wait: Some(DEFAULT_END_STATE_WAIT),
            watch: false,
            log: None,
        }
    }
}

/// Why the logic stopped without finishing the game: the judger broke the protocol.
#[derive(Debug)]
pub enum LogicError {
    Frame(FrameError),
    Message(MessageError),
    /// The judger closed our stdin before the game ended.
    JudgerGone,
    Protocol(String),
    Io(std::io::Error),
}

impl std::fmt::Display for LogicError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogicError::Frame(e) => write!(f, "bad frame from the judger: {e}"),
            LogicError::Message(e) => write!(f, "bad message from the judger: {e}"),
            LogicError::JudgerGone => f.write_str("the judger closed the logic's input"),
            LogicError::Protocol(m) => write!(f, "judger protocol error: {m}"),
            LogicError::Io(e) => write!(f, "cannot write to the judger: {e}"),
        }
    }
}

impl std::error::Error for LogicError {}

/// What the logic did (for the command's exit and for tests).
#[derive(Debug)]
pub struct LogicReport {
    pub replay: Replay,
    pub end_state: Vec<String>,
    /// Saiblo's score per seat ([`saiblo_scores`]).
    pub scores: Vec<i64>,
}

/// The per-game lines toward the AIs (the line protocols' words).
enum Kind {
    Reversi,
    Gomocup,
    Duel,
    /// The game kit's line protocol (any module game; docs/game-kit.md).
    Kit,
}

struct Script {
    kind: Kind,
    /// Gomocup: the opponent's last stone, told with the next `TURN` (per listening seat).
    unseen: [Option<Point>; 2],
    /// The game starts from an opening: Reversi AIs get a `BOARD` line after the handshake,
    /// Gomocup AIs the whole position by `BOARD` at their first turn (per seat, until sent).
    board_needed: [bool; 2],
}

impl Script {
    fn with_opening(game: &AnyGame, opening: bool) -> Script {
        Script {
            board_needed: [opening; 2],
            ..Script::for_game(game)
        }
    }

    fn for_game(game: &AnyGame) -> Script {
        let kind = match game {
            AnyGame::Reversi(_) => Kind::Reversi,
            AnyGame::Gomoku(_) => Kind::Gomocup,
            AnyGame::Duel2048(_) => Kind::Duel,
            AnyGame::Module(_) => Kind::Kit,
        };
        Script {
            kind,
            unseen: [None, None],
            board_needed: [false; 2],
        }
    }

    /// Line end: Gomocup managers send CR LF.
    fn eol(&self) -> &'static str {
        match self.kind {
            Kind::Gomocup => "\r\n",
            _ => "\n",
        }
    }

    fn start(&self, seat: Seat, game: &AnyGame) -> String {
        match game {
            AnyGame::Duel2048(g) => {
                let rounds = g.config().rounds;
                let mut s = format!("START {} {rounds}\nRANDOM", seat.index());
                for v in g.sequence().iter().take(usize::from(rounds)) {
                    s.push(' ');
                    s.push_str(&v.to_string());
                }
                s.push('\n');
                s
            }
            AnyGame::Gomoku(g) => format!("START {}\r\n", g.config().size),
            AnyGame::Reversi(_) => format!("START {}\n", seat.index() + 1),
            AnyGame::Module(_) => match game.seats() {
                2 => format!("START {} {}\n", seat.index() + 1, game.config().title()),
                n => format!("START {} {} {n}\n", seat.index() + 1, game.config().title()),
            },
        }
    }

    /// Lines sent right after the handshake (Gomocup's INFO block; `reversi-board`'s BOARD line
    /// when the game starts from an opening).
    fn after_start(&self, game: &AnyGame, options: &LogicOptions) -> Option<String> {
        let g = match game {
            AnyGame::Gomoku(g) => g,
            AnyGame::Reversi(r) if self.board_needed.contains(&true) => {
                return Some(format!(
                    "{}\n",
                    arbiter_match::protocol::reversi::board_line(r)
                ));
            }
            _ => return None,
        };
        let rule = arbiter_match::protocol::gomocup::rule_mask(g.config().rule);
        Some(format!(
            "INFO timeout_turn {}\r\nINFO timeout_match {}\r\nINFO game_type 1\r\nINFO rule {rule}\r\n",
            options.move_time.as_millis(),
            options.game_time.map_or(0, |d| d.as_millis()),
        ))
    }

    /// What the seat `listener` is told when its opponent played `mv`.
    fn opponent_moved(&mut self, listener: Seat, mv: AnyMove) -> Option<String> {
        match mv {
            AnyMove::Reversi(ReversiMove::Place { row, col }) => {
                Some(format!("PLACE {row} {col}\n"))
            }
            AnyMove::Duel2048(m) => Some(format!(
                "OPPONENT {}\n",
                arbiter_match::protocol::duel::wire_text(m)
            )),
            AnyMove::Gomoku(p) => {
                if let Some(slot) = self.unseen.get_mut(listener.index()) {
                    *slot = Some(p);
                }
                None
            }
            AnyMove::Module(m) => Some(format!("PLAYED {} {m}\n", listener.other().index() + 1)),
            _ => None,
        }
    }

    fn own_forced(&self, before: &AnyGame, mv: AnyMove) -> Option<String> {
        match (before, mv) {
            (AnyGame::Duel2048(g), _) => Some(format!("SKIP {}\n", g.round())),
            (AnyGame::Module(_), AnyMove::Module(m)) => {
                let seat = before.to_move().map_or(1, |s| s.index() + 1);
                Some(format!("PLAYED {seat} {m}\n"))
            }
            _ => None,
        }
    }

    fn ask(&mut self, seat: Seat, game: &AnyGame, time_left: Option<Duration>) -> String {
        match game {
            AnyGame::Duel2048(g) => {
                let verb = match g.step_kind() {
                    StepKind::Place => "PLACE",
                    StepKind::Slide => "SLIDE",
                };
                let left = time_left.map_or(0, |d| d.as_millis());
                format!("{verb} {} {left}\n", g.round())
            }
            AnyGame::Gomoku(_) => {
                let mut s = String::new();
                if let Some(left) = time_left {
                    s.push_str(&format!("INFO time_left {}\r\n", left.as_millis()));
                }
                let unseen = self.unseen.get_mut(seat.index()).and_then(Option::take);
                let board = self
                    .board_needed
                    .get_mut(seat.index())
                    .is_some_and(|b| std::mem::replace(b, false));
                match (board, unseen, game) {
                    // The position so far, stones in move order (1 own, 2 the opponent's).
                    (true, _, AnyGame::Gomoku(g)) => {
                        s.push_str("BOARD\r\n");
                        for p in g.history() {
                            let own = g.stone(*p) == Some(seat);
                            s.push_str(&format!("{},{},{}\r\n", p.x, p.y, if own { 1 } else { 2 }));
                        }
                        s.push_str("DONE\r\n");
                    }
                    (_, Some(p), _) => s.push_str(&format!("TURN {},{}\r\n", p.x, p.y)),
                    _ => s.push_str("BEGIN\r\n"),
                }
                s
            }
            AnyGame::Reversi(_) => "TURN\n".into(),
            AnyGame::Module(g) => {
                let told = g.tell(seat);
                let lines: Vec<&str> = told.lines().collect();
                let legal: Vec<String> = game
                    .legal_moves_of(seat)
                    .into_iter()
                    .map(|m| game.format_move(m))
                    .collect();
                let mut s = format!("POSITION {}\n", lines.len());
                for l in lines {
                    s.push_str(l);
                    s.push('\n');
                }
                s.push_str(&format!("LEGAL {}\nTURN\n", legal.join(" ")));
                s
            }
        }
    }

    fn parse(&self, game: &AnyGame, line: &str) -> Option<AnyMove> {
        match game {
            AnyGame::Reversi(_) => {
                let mut it = line.split_whitespace();
                let row = it.next()?.parse::<u8>().ok()?;
                let col = it.next()?.parse::<u8>().ok()?;
                if it.next().is_some() {
                    return None;
                }
                Some(AnyMove::Reversi(ReversiMove::Place { row, col }))
            }
            AnyGame::Duel2048(g) => {
                arbiter_match::protocol::duel::parse(line, g.step_kind()).map(AnyMove::Duel2048)
            }
            AnyGame::Module(_) => game.parse_move(line.trim()).ok(),
            AnyGame::Gomoku(_) => {
                let (x, y) = line.split_once(',')?;
                Some(AnyMove::Gomoku(Point {
                    x: x.trim().parse().ok()?,
                    y: y.trim().parse().ok()?,
                }))
            }
        }
    }

    /// The `END` line for `seat` (`places`: each seat's, `None` for a game with no result):
    /// seed 001's code (0 draw or no result, 1 won, 2 lost), and in a module game of more
    /// seats the kit's (the seat's place, 0 for no result).
    fn end(&self, places: Option<&[u32]>, seats: usize, seat: Seat) -> String {
        if let Kind::Gomocup = self.kind {
            return "END\r\n".into();
        }
        let place = places.and_then(|p| p.get(seat.index()).copied());
        let standing = arbiter_match::protocol::Standing {
            place,
            shared: places.is_some_and(|p| p.iter().filter(|q| Some(**q) == place).count() > 1),
            seats,
        };
        format!("END {}{}", standing.code(), self.eol())
    }

    /// Whether a line from the AI is a log line (kept, not an answer).
    fn is_log(&self, line: &str) -> bool {
        let t = line.trim();
        let prefixes: &[&str] = match self.kind {
            Kind::Gomocup => &["MESSAGE", "DEBUG", "UNKNOWN", "SUGGEST"],
            _ => &["DEBUG"],
        };
        prefixes.iter().any(|p| {
            t.strip_prefix(p)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
    }
}

/// An AI's message split into its log lines and its one answer line. The log is kept within
/// seed 001's caps, as the line protocols keep it: a line over 16 KB is cut, past 32 KB in all
/// the rest is dropped (not an error), so that no long log becomes a replay's weight.
fn split_answer(
    content: &str,
    is_log: impl Fn(&str) -> bool,
) -> (Option<String>, Result<String, String>) {
    let caps = arbiter_match::protocol::LogCaps::default();
    let mut log = String::new();
    let mut answer: Option<&str> = None;
    let mut extra = false;
    for line in content.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if is_log(t) {
            // DEBUG's text is kept without the word (as the line protocols do); other log
            // words (Gomocup's MESSAGE ...) are kept whole.
            let msg = t.strip_prefix("DEBUG").unwrap_or(t);
            let msg = msg.strip_prefix(' ').unwrap_or(msg);
            let room = caps.total.saturating_sub(log.len()).min(caps.per_message);
            if room > 0 {
                let mut cut = room.min(msg.len());
                while !msg.is_char_boundary(cut) {
                    cut -= 1;
                }
                log.push_str(&msg[..cut]);
                log.push('\n');
            }
        } else if answer.is_none() {
            answer = Some(t);
        } else {
            extra = true;
        }
    }
    let log = (!log.is_empty()).then_some(log);
    match (answer, extra) {
        (Some(a), false) => (log, Ok(a.to_string())),
        (Some(_), true) => (log, Err(content.trim().to_string())),
        (None, _) => (log, Err(content.trim().to_string())),
    }
}

type Frame = Result<Option<Vec<u8>>, FrameError>;

/// Reads the judger's frames on a thread of its own, so that waiting for one can time out.
/// The thread ends at the end of input or a bad frame; one blocked in a read when the logic
/// is done dies with the process.
fn frames_of<R: Read + Send + 'static>(mut input: R) -> Receiver<Frame> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || loop {
        let f = frame::read_frame(&mut input, frame::DEFAULT_MAX_BODY);
        let last = !matches!(f, Ok(Some(_)));
        if tx.send(f).is_err() || last {
            return;
        }
    });
    rx
}

/// The logic's side of the wire.
struct Judger<W: Write> {
    frames: Receiver<Frame>,
    output: W,
    state: i64,
}

impl<W: Write> Judger<W> {
    fn send(&mut self, target: i32, body: &str) -> Result<(), LogicError> {
        frame::write_logic_frame(&mut self.output, target, body.as_bytes()).map_err(LogicError::Io)
    }

    fn send_message(&mut self, m: &LogicMessage) -> Result<(), LogicError> {
        self.send(TO_JUDGER, &m.to_json())
    }

    fn receive(&mut self, expect_init: bool) -> Result<JudgerMessage, LogicError> {
        let frame = self.frames.recv().unwrap_or(Ok(None));
        Self::decode(frame, expect_init)
    }

    fn decode(frame: Frame, expect_init: bool) -> Result<JudgerMessage, LogicError> {
        let body = frame
            .map_err(LogicError::Frame)?
            .ok_or(LogicError::JudgerGone)?;
        JudgerMessage::parse(&body, expect_init).map_err(LogicError::Message)
    }

    /// The judger's end states, if it answers `request_end_state` within `wait`. A judger
    /// that lacks it (Saiblo's public local judger) never does; one that closes our input
    /// meanwhile has nothing more to say either, and the replay must still be written.
    fn end_states(&mut self, wait: Duration) -> Result<Option<Vec<String>>, LogicError> {
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let frame = match self.frames.recv_timeout(left) {
                Ok(f) => f,
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return Ok(None),
            };
            match Self::decode(frame, false) {
                Ok(JudgerMessage::EndState(s)) => return Ok(Some(s)),
                // Late AI messages and errors may still be in flight.
                Ok(JudgerMessage::Ai { .. } | JudgerMessage::AiError(_)) => {}
                Ok(JudgerMessage::Init(_)) => unreachable_init()?,
                Err(LogicError::JudgerGone) => return Ok(None),
                Err(e) => return Err(e),
            }
        }
    }

    /// A new timing round: sends `text` to `seat` and listens to it.
    fn ask(&mut self, seat: Seat, text: &str) -> Result<(), LogicError> {
        self.state += 1;
        self.send_message(&LogicMessage::Round(Round {
            state: self.state,
            listen: vec![seat.index()],
            player: vec![seat.index()],
            content: vec![encode_for_ai(text)],
        }))
    }

    fn tell(&mut self, seat: Seat, text: &str) -> Result<(), LogicError> {
        self.send(seat.index() as i32, &encode_for_ai(text))
    }

    /// A new timing round listening to several seats at once (a simultaneous turn): each
    /// gets its own text, and none hears anything of the others' answers.
    fn ask_many(&mut self, requests: &[(Seat, String)]) -> Result<(), LogicError> {
        self.state += 1;
        let seats: Vec<usize> = requests.iter().map(|(s, _)| s.index()).collect();
        self.send_message(&LogicMessage::Round(Round {
            state: self.state,
            listen: seats.clone(),
            player: seats,
            content: requests.iter().map(|(_, t)| encode_for_ai(t)).collect(),
        }))
    }

    /// Waits for `seat`'s answer (or its error report).
    fn answer(&mut self, seat: Seat) -> Result<Result<(String, u64), AiError>, LogicError> {
        let mut answers = self.answers(&[seat])?;
        match answers.pop() {
            Some((_, a)) => Ok(a),
            None => Err(LogicError::JudgerGone),
        }
    }

    /// Waits for the answer (or the error report) of every seat of `seats`, in seat order.
    #[allow(clippy::type_complexity)]
    fn answers(
        &mut self,
        seats: &[Seat],
    ) -> Result<Vec<(Seat, Result<(String, u64), AiError>)>, LogicError> {
        let mut got: Vec<Option<Result<(String, u64), AiError>>> = vec![None; seats.len()];
        let slot = |player: usize| seats.iter().position(|s| s.index() == player);
        while got.iter().any(Option::is_none) {
            match self.receive(false)? {
                JudgerMessage::Ai {
                    player,
                    content,
                    time,
                } => {
                    if let Some(i) = slot(player).filter(|&i| got[i].is_none()) {
                        got[i] = Some(Ok((content, time)));
                    }
                }
                JudgerMessage::AiError(e) => {
                    if let Some(i) = slot(e.player).filter(|&i| got[i].is_none()) {
                        got[i] = Some(Err(e));
                    }
                }
                // Messages of AIs we do not listen to, a second message of one that already
                // answered, errors of the others: the judger reports them again when it matters.
                JudgerMessage::EndState(_) => {
                    return Err(LogicError::Protocol(
                        "end_state reply without request_end_state".into(),
                    ))
                }
                JudgerMessage::Init(_) => unreachable_init()?,
            }
        }
        Ok(seats
            .iter()
            .copied()
            .zip(got.into_iter().flatten())
            .collect())
    }
}

fn unreachable_init() -> Result<(), LogicError> {
    Err(LogicError::Protocol("a second init message".into()))
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The verdict for an AI the judger reported.
fn error_reason(seat: Seat, e: &AiError, move_time: Duration, length: u64) -> Reason {
    match e.error {
        ErrorKind::TimeOut => Reason::MoveTime {
            seat,
            limit_ms: millis(move_time),
        },
        ErrorKind::OutputLimit => Reason::ProtocolError {
            seat,
            message: format!("sent a message longer than {length} bytes"),
        },
        ErrorKind::RunError if e.error_log.to_ascii_lowercase().contains("memory") => {
            Reason::Memory {
                seat,
                limit_bytes: 0,
            }
        }
        ErrorKind::RunError => Reason::Crash {
            seat,
            exit_code: None,
            signal: None,
        },
    }
}

/// Saiblo's end state for the seat a verdict blames.
pub fn end_state_code(reason: &Reason) -> &'static str {
    match reason {
        Reason::IllegalMove { .. }
        | Reason::MalformedOutput { .. }
        | Reason::OutOfTurn { .. }
        | Reason::ProtocolError { .. } => "IA",
        Reason::MoveTime { .. } | Reason::GameTime { .. } | Reason::NoHandshake { .. } => "TLE",
        Reason::Memory { .. } => "MLE",
        Reason::Crash { .. } | Reason::ExitedEarly { .. } | Reason::FailedToStart { .. } => "RE",
        Reason::Normal | Reason::Aborted { .. } => "OK",
    }
}

/// Saiblo scores: 2 for a win, 1 for a draw, 0 for a loss.
pub fn saiblo_score(winner: Option<Seat>, seat: Seat) -> i64 {
    match winner {
        None => 1,
        Some(w) if w == seat => 2,
        Some(_) => 0,
    }
}

/// Each seat's Saiblo score for a game of `seats` seats: 2 for every seat placed below it and
/// 1 for every other seat sharing its place (two seats: 2 a win, 1 a draw, 0 a loss); a game
/// with no result ties everybody.
pub fn saiblo_scores(result: &GameResult, seats: usize) -> Vec<i64> {
    let places = result.places(seats).unwrap_or_else(|| vec![1; seats]);
    places
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let below = places.iter().filter(|q| *q > p).count();
            let tied = places
                .iter()
                .enumerate()
                .filter(|(j, q)| *j != i && *q == p)
                .count();
            (2 * below + tied) as i64
        })
        .collect()
}

/// The game's config for `players` AIs: a module game without `players` in its config takes
/// the judger's count (seed 002's `player_num`); any other mismatch is refused, naming both.
fn seated(mut config: GameConfig, players: usize) -> Result<GameConfig, LogicError> {
    let setup = |c: &GameConfig| {
        AnyGame::new(c)
            .map(|g| g.seats())
            .map_err(|e| LogicError::Protocol(format!("cannot set up the game: {e}")))
    };
    let seats = setup(&config)?;
    if seats == players {
        return Ok(config);
    }
    let refused = |why: String| {
        LogicError::Protocol(format!(
            "the judger has {players} AIs but the game has {seats} seats{why}"
        ))
    };
    let GameConfig::Module(m) = &mut config else {
        return Err(refused(String::new()));
    };
    let mut given: serde_json::Map<String, Value> =
        serde_json::from_str(&m.config).unwrap_or_default();
    if given.contains_key("players") {
        return Err(refused(" (its config says \"players\")".into()));
    }
    given.insert("players".into(), Value::from(players));
    m.config = Value::Object(given).to_string();
    match setup(&config) {
        Ok(n) if n == players => Ok(config),
        Ok(_) => Err(refused(String::new())),
        Err(e) => Err(refused(format!(": {e}"))),
    }
}

/// The players as init names them (`config.player_names`, Saiblo's), one per seat.
fn players_of(init_config: &Value, seats: usize) -> Vec<Player> {
    let names: Vec<String> = init_config
        .get("player_names")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    Seat::all(seats)
        .map(|seat| Player {
            name: names
                .get(seat.index())
                .cloned()
                .unwrap_or_else(|| format!("player {}", seat.index())),
            seat,
            command: Some(format!("saiblo AI {}", seat.index())),
        })
        .collect()
}

/// Plays one game as the Saiblo logic over `input`/`output`. Returns after the end message.
pub fn run<R: Read + Send + 'static, W: Write>(
    options: &LogicOptions,
    input: R,
    output: W,
) -> Result<LogicReport, LogicError> {
    let mut judger = Judger {
        frames: frames_of(input),
        output,
        state: 0,
    };
    let JudgerMessage::Init(init) = judger.receive(true)? else {
        return Err(LogicError::Protocol("the first message is not init".into()));
    };
    let types = init.player_types().map_err(LogicError::Message)?;
    let mut config = seated(options.game.clone(), types.len())?;
    let init_seed = init.config.get("random_seed").and_then(Value::as_u64);
    match (options.seed_from_init, &mut config, init_seed) {
        (true, GameConfig::Duel2048(c), Some(seed)) => c.random = RandomSource::Seed(seed),
        (true, GameConfig::Module(m), Some(seed)) => m.seed = seed,
        _ => {}
    }
    let mut replay = Replay::new(config.clone(), players_of(&init.config, types.len()));
    replay.meta = Meta {
        event: options.event.clone(),
        date: Some(arbiter_match::game::now_utc()),
        ..Meta::default()
    };
    judger.send_message(&LogicMessage::RoundConfig(RoundConfig {
        state: 0,
        time: Some(options.move_time.as_secs_f64()),
        length: Some(options.length),
    }))?;

    let mut game = AnyGame::new(&config)
        .map_err(|e| LogicError::Protocol(format!("cannot set up the game: {e}")))?;
    for mv in &options.opening {
        game.play_text(mv)
            .map_err(|e| LogicError::Protocol(format!("opening move {mv}: {e}")))?;
        replay.opening.push(mv.clone());
    }
    watch(
        &mut judger,
        options,
        json!({"type": "start", "replay": &replay}),
    )?;
    let result = table::Table {
        options,
        script: Script::with_opening(&game, !options.opening.is_empty()),
        judger: &mut judger,
        game: &mut game,
        replay: &mut replay,
        used: vec![Duration::ZERO; types.len()],
        out: vec![false; types.len()],
        round_time: options.move_time,
    }
    .play(&types)?;
    replay.result = result;
    if replay.result.reason == Reason::Normal {
        replay.scores = Some(game.scores());
        replay.meta.ending = game.end_words();
    }
    let failure = replay.failure.clone().map(|mut f| {
        f.log = None;
        f.stderr = None;
        f
    });
    watch(
        &mut judger,
        options,
        json!({"type": "end", "result": &replay.result, "scores": replay.scores, "failure": failure}),
    )?;
    finish(options, &init, &types, &mut judger, &game, replay)
}

/// The game is over: tells every AI, asks the judger how they ended, writes the replay and
/// sends the end.
fn finish<W: Write>(
    options: &LogicOptions,
    init: &super::message::Init,
    types: &[PlayerType],
    judger: &mut Judger<W>,
    game: &AnyGame,
    replay: Replay,
) -> Result<LogicReport, LogicError> {
    let seats = types.len();
    let script = Script::for_game(game);
    let places = replay.result.places(seats);
    for seat in Seat::all(seats) {
        if types[seat.index()] != PlayerType::Failed {
            judger.tell(seat, &script.end(places.as_deref(), seats, seat))?;
        }
    }
    // Without the judger's view, an AI not at fault ended OK as far as the logic knows.
    let mut judged = Vec::new();
    if let Some(wait) = options.end_state_wait {
        judger.send_message(&LogicMessage::RequestEndState)?;
        match judger.end_states(wait)? {
            Some(s) => judged = s,
            // Not answered (or our input closed).
            None => note(
                options,
                &format!(
                    "note: the judger did not answer request_end_state within {} ms, so the \
                         logic decided the end states (--no-end-state-request skips the wait)",
                    wait.as_millis()
                ),
            ),
        }
    }
    // The seat at fault, and those taken out of the game on the way, by their verdicts.
    let faults: Vec<&Reason> = std::iter::once(&replay.result.reason)
        .chain(replay.retired.iter().map(|r| &r.reason))
        .collect();
    let end_state: Vec<String> = Seat::all(seats)
        .map(
            |seat| match faults.iter().find(|r| r.culprit() == Some(seat)) {
                Some(reason) => end_state_code(reason).to_string(),
                None => judged
                    .get(seat.index())
                    .cloned()
                    .unwrap_or_else(|| "OK".into()),
            },
        )
        .collect();

    // The replay first, then the end (seed 002).
    if !init.replay.is_empty() {
        if let Err(e) = std::fs::write(&init.replay, replay.to_json_pretty()) {
            note(
                options,
                &format!("warning: cannot write the replay to {}: {e}", init.replay),
            );
        }
    }
    let scores = saiblo_scores(&replay.result, seats);
    judger.send_message(&LogicMessage::End(End {
        scores: scores
            .iter()
            .enumerate()
            .map(|(i, s)| (i, Number::from(*s)))
            .collect(),
        end_state: Some(end_state.clone()),
    }))?;
    Ok(LogicReport {
        replay,
        end_state,
        scores,
    })
}

fn note(options: &LogicOptions, text: &str) {
    if let Some(log) = options.log {
        log(text);
    }
}

/// Spectators get the live contents of docs/live.md in watch messages (JSON in the watch
/// string), so arbiter's player can follow the game through `arbiter judge --live` as it
/// follows any live game: `start` (the replay with no moves), one `move` per ply, `end`. Only
/// when asked (`LogicOptions::watch`).
fn watch<W: Write>(
    judger: &mut Judger<W>,
    options: &LogicOptions,
    content: serde_json::Value,
) -> Result<(), LogicError> {
    if !options.watch {
        return Ok(());
    }
    judger.send_message(&LogicMessage::Watch(content.to_string()))
}

fn watch_move<W: Write>(
    judger: &mut Judger<W>,
    options: &LogicOptions,
    record: &MoveRecord,
) -> Result<(), LogicError> {
    let mut record = record.clone();
    record.log = None;
    watch(judger, options, json!({"type": "move", "move": record}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_logs() {
        let game = AnyGame::new(&GameConfig::default_for("reversi").unwrap()).unwrap();
        let script = Script::for_game(&game);
        let split = |t: &str| split_answer(t, |l| script.is_log(l));
        let (log, a) = split("DEBUG thinking\n2 3\n");
        assert_eq!(log.as_deref(), Some("thinking\n"));
        assert_eq!(a, Ok("2 3".into()));
        assert!(split("2 3\n4 5\n").1.is_err());
        assert!(split("DEBUG x\n").1.is_err());
        assert!(split("DEBUGGER\n").1.is_ok(), "not a log line");
        assert_eq!(split("OK").1, Ok("OK".into()));
        let gomoku = AnyGame::new(&GameConfig::default_for("gomoku").unwrap()).unwrap();
        let script = Script::for_game(&gomoku);
        let (log, a) = split_answer("MESSAGE hi\r\n7,7\r\n", |l| script.is_log(l));
        assert_eq!(
            (log.as_deref(), a),
            (Some("MESSAGE hi\n"), Ok("7,7".into()))
        );
    }

    #[test]
    fn a_long_log_is_kept_within_the_caps() {
        let game = AnyGame::new(&GameConfig::default_for("reversi").unwrap()).unwrap();
        let script = Script::for_game(&game);
        let line = format!("DEBUG {}\n", "é".repeat(20_000));
        let message = format!("{}2 3\n", line.repeat(40));
        let (log, a) = split_answer(&message, |l| script.is_log(l));
        assert_eq!(a, Ok("2 3".into()), "the answer still counts");
        let log = log.expect("a log");
        assert!(log.len() <= 32 * 1024 + 8, "{} bytes kept", log.len());
        assert!(log.lines().all(|l| l.len() <= 16 * 1024));
        assert_eq!(log.lines().count(), 2, "16 KB, 16 KB, then nothing");
    }

    #[test]
    fn end_states() {
        let seat = Seat::FIRST;
        assert_eq!(
            end_state_code(&Reason::IllegalMove {
                seat,
                mv: "a1".into(),
                why: "x".into(),
                line: None,
            }),
            "IA"
        );
        assert_eq!(
            end_state_code(&Reason::MoveTime { seat, limit_ms: 1 }),
            "TLE"
        );
        assert_eq!(
            end_state_code(&Reason::Memory {
                seat,
                limit_bytes: 1
            }),
            "MLE"
        );
        assert_eq!(saiblo_score(Some(Seat::SECOND), Seat::SECOND), 2);
        assert_eq!(saiblo_score(None, Seat::SECOND), 1);
    }
}
