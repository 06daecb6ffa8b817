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
use arbiter_engine::replay::{Failure, GameResult, Meta, MoveRecord, Player, Reason, Replay};
use arbiter_engine::reversi::Move as ReversiMove;
use arbiter_engine::{Game, Seat};
use serde_json::{json, Number, Value};

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
    pub scores: [i64; 2],
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
            AnyGame::Module(_) => {
                format!("START {} {}\n", seat.index() + 1, game.config().title())
            }
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
                    .legal_moves()
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

    fn end(&self, winner: Option<Seat>, seat: Seat) -> String {
        if let Kind::Gomocup = self.kind {
            return "END\r\n".into();
        }
        let f = match winner {
            None => 0,
            Some(w) if w == seat => 1,
            Some(_) => 2,
        };
        format!("END {f}{}", self.eol())
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

    /// Waits for `seat`'s answer (or its error report).
    fn answer(&mut self, seat: Seat) -> Result<Result<(String, u64), AiError>, LogicError> {
        loop {
            match self.receive(false)? {
                JudgerMessage::Ai {
                    player,
                    content,
                    time,
                } if player == seat.index() => return Ok(Ok((content, time))),
                JudgerMessage::AiError(e) if e.player == seat.index() => return Ok(Err(e)),
                // Messages of AIs we do not listen to, errors of the other one: the judger
                // reports them again when it matters.
                JudgerMessage::Ai { .. } | JudgerMessage::AiError(_) => {}
                JudgerMessage::EndState(_) => {
                    return Err(LogicError::Protocol(
                        "end_state reply without request_end_state".into(),
                    ))
                }
                JudgerMessage::Init(_) => unreachable_init()?,
            }
        }
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
    if types.len() != 2 {
        return Err(LogicError::Protocol(format!(
            "our games have 2 players, the judger has {}",
            types.len()
        )));
    }
    let names: Vec<String> = init
        .config
        .get("player_names")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let players = [Seat::First, Seat::Second].map(|seat| Player {
        name: names
            .get(seat.index())
            .cloned()
            .unwrap_or_else(|| format!("player {}", seat.index())),
        seat,
        command: Some(format!("saiblo AI {}", seat.index())),
    });
    let mut config = options.game.clone();
    let init_seed = init.config.get("random_seed").and_then(Value::as_u64);
    match (options.seed_from_init, &mut config, init_seed) {
        (true, GameConfig::Duel2048(c), Some(seed)) => c.random = RandomSource::Seed(seed),
        (true, GameConfig::Module(m), Some(seed)) => m.seed = seed,
        _ => {}
    }
    let mut replay = Replay::new(config.clone(), players);
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
    let result = play(options, &types, &mut judger, &mut game, &mut replay)?;
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

    // Tell both AIs the end, then ask the judger how they ended.
    let script = Script::for_game(&game);
    for seat in Seat::BOTH {
        if types[seat.index()] != PlayerType::Failed {
            judger.tell(seat, &script.end(replay.result.winner, seat))?;
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
    let culprit = replay.result.reason.culprit();
    let end_state: Vec<String> = Seat::BOTH
        .iter()
        .map(|&seat| {
            if Some(seat) == culprit {
                end_state_code(&replay.result.reason).to_string()
            } else {
                judged
                    .get(seat.index())
                    .cloned()
                    .unwrap_or_else(|| "OK".into())
            }
        })
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
    let winner = replay.result.winner;
    let scores = [
        saiblo_score(winner, Seat::First),
        saiblo_score(winner, Seat::Second),
    ];
    judger.send_message(&LogicMessage::End(End {
        scores: vec![(0, Number::from(scores[0])), (1, Number::from(scores[1]))],
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

fn play<W: Write>(
    options: &LogicOptions,
    types: &[PlayerType],
    judger: &mut Judger<W>,
    game: &mut AnyGame,
    replay: &mut Replay,
) -> Result<GameResult, LogicError> {
    let mut script = Script::with_opening(game, !options.opening.is_empty());
    let failed: Vec<bool> = types.iter().map(|t| *t == PlayerType::Failed).collect();
    let not_started = |seat: Seat| Reason::FailedToStart {
        seat,
        error: "the judger reports that the AI did not start".into(),
    };
    match failed.as_slice() {
        [true, true] => return Ok(GameResult::aborted("both AIs failed to start".into())),
        [true, false] => return Ok(GameResult::lost_by(not_started(Seat::First))),
        [false, true] => return Ok(GameResult::lost_by(not_started(Seat::Second))),
        _ => {}
    }
    let mut used = [Duration::ZERO; 2];

    // Handshakes, one seat after the other (seed 002 advises one listened AI at a time).
    for seat in Seat::BOTH {
        judger.ask(seat, &script.start(seat, game))?;
        match judger.answer(seat)? {
            Err(e) => {
                let reason = match e.error {
                    ErrorKind::TimeOut => Reason::NoHandshake { seat },
                    _ => error_reason(seat, &e, options.move_time, options.length),
                };
                return Ok(GameResult::lost_by(reason));
            }
            Ok((content, time)) => {
                used[seat.index()] += Duration::from_millis(time);
                let (_, answer) = split_answer(&content, |l| script.is_log(l));
                if let Ok(msg) = answer.as_deref() {
                    if let Some(why) = msg.strip_prefix("ERROR") {
                        return Ok(GameResult::lost_by(Reason::ProtocolError {
                            seat,
                            message: format!("refused to start: {}", why.trim()),
                        }));
                    }
                }
                if answer.as_deref() != Ok("OK") {
                    let shown = answer.unwrap_or_else(|e| e);
                    return Ok(GameResult::lost_by(Reason::ProtocolError {
                        seat,
                        message: format!("answered {shown:?} to the handshake"),
                    }));
                }
                if let Some(text) = script.after_start(game, options) {
                    judger.tell(seat, &text)?;
                }
            }
        }
    }

    let mut round_time = options.move_time;
    loop {
        if let Some(o) = game.outcome() {
            return Ok(GameResult {
                winner: o.winner,
                reason: Reason::Normal,
            });
        }
        let Some(seat) = game.to_move() else {
            return Ok(GameResult::aborted("the game has no side to move".into()));
        };
        let before = game.clone();
        if let Some(forced) = game.forced_move() {
            if let Err(e) = game.play(forced) {
                return Ok(GameResult::aborted(format!(
                    "the engine refused its own forced move: {e}"
                )));
            }
            let record = MoveRecord::new(seat, before.format_move(forced));
            watch_move(judger, options, &record)?;
            replay.moves.push(record);
            if let Some(text) = script.own_forced(&before, forced) {
                judger.tell(seat, &text)?;
            }
            if let Some(text) = script.opponent_moved(seat.other(), forced) {
                judger.tell(seat.other(), &text)?;
            }
            continue;
        }

        let game_left = options
            .game_time
            .map(|g| g.saturating_sub(used[seat.index()]));
        let budget = game_left.map_or(options.move_time, |g| g.min(options.move_time));
        if budget != round_time {
            // Seed 002 times rounds in (fractional) seconds: the game clock shortens the last
            // rounds. A round config has state 0 (seed 002, the templates' logic SDK); Saiblo's
            // public local judger takes any other state for a round.
            round_time = budget;
            judger.send_message(&LogicMessage::RoundConfig(RoundConfig {
                state: 0,
                time: Some(budget.as_secs_f64().max(0.001)),
                length: Some(options.length),
            }))?;
        }
        let request = script.ask(seat, game, game_left);
        judger.ask(seat, &request)?;
        let (content, time) = match judger.answer(seat)? {
            Ok(a) => a,
            Err(e) => {
                let game_bound = game_left.is_some_and(|g| g < options.move_time);
                let reason = match (e.error, game_bound) {
                    (ErrorKind::TimeOut, true) => Reason::GameTime {
                        seat,
                        limit_ms: options.game_time.map_or(0, millis),
                    },
                    _ => error_reason(seat, &e, options.move_time, options.length),
                };
                return Ok(GameResult::lost_by(reason));
            }
        };
        let elapsed = Duration::from_millis(time);
        used[seat.index()] += elapsed;
        if let Some(g) = options.game_time {
            if used[seat.index()] > g {
                return Ok(GameResult::lost_by(Reason::GameTime {
                    seat,
                    limit_ms: millis(g),
                }));
            }
        }
        let (log, answer) = split_answer(&content, |l| script.is_log(l));
        // What the AI printed with a failing answer goes with the failure.
        let failure = |log: Option<String>| Failure {
            seat,
            log,
            stderr: None,
            exit: None,
            time_ms: Some(time as f64),
            clock_ms: game_left.map(|g| g.as_secs_f64() * 1000.0),
        };
        let line = match answer {
            Ok(l) => l,
            Err(text) => {
                replay.failure = Some(failure(log));
                return Ok(GameResult::lost_by(Reason::MalformedOutput {
                    seat,
                    line: text,
                }));
            }
        };
        let Some(mv) = script.parse(game, &line) else {
            replay.failure = Some(failure(log));
            return Ok(GameResult::lost_by(Reason::MalformedOutput { seat, line }));
        };
        if let Err(e) = game.play(mv) {
            replay.failure = Some(failure(log));
            let reason = arbiter_match::game::illegal_move(seat, &before, mv, Some(line), e);
            return Ok(GameResult::lost_by(reason));
        }
        let mut record = MoveRecord::new(seat, before.format_move(mv));
        record.time_ms = Some(time as f64);
        record.log = log;
        watch_move(judger, options, &record)?;
        replay.moves.push(record);
        if let Some(text) = script.opponent_moved(seat.other(), mv) {
            judger.tell(seat.other(), &text)?;
        }
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
        let seat = Seat::First;
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
        assert_eq!(saiblo_score(Some(Seat::Second), Seat::Second), 2);
        assert_eq!(saiblo_score(None, Seat::Second), 1);
    }
}
