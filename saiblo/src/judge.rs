//! `arbiter judge`: a local Saiblo judger (seed 002) for any game logic.
//!
//! The logic is a child on stdio (`4 + n` in, `4 + 4 + n` out); each AI is a contained bot
//! process ([`arbiter_sandbox`]) that gets the logic's bodies unchanged and answers in `4 + n`
//! frames. One worker thread per AI owns its process (the spawning thread must outlive the
//! bot) and reports to the judger's loop over a channel, as does a reader thread for the
//! logic; the loop itself enforces the rounds' time and length limits.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

use serde_json::{Number, Value};

use super::frame::{self, FrameError};
use super::message::{
    AiError, ErrorKind, Init, JudgerMessage, LogicMessage, DEFAULT_LENGTH_BYTES,
    DEFAULT_TIME_SECONDS,
};
use arbiter_sandbox::{BotCommand, BotProcess, Containment, ExitInfo, FrameEvent, Limits};

/// One local judging run.
#[derive(Clone, Debug)]
pub struct JudgeSpec {
    /// The logic's command line (shell-like words, no shell).
    pub logic: String,
    /// One command line per AI, in player order.
    pub ais: Vec<String>,
    /// The `replay` path given to the logic.
    pub replay: PathBuf,
    /// The init message's `config`.
    pub config: Value,
    /// Memory per AI.
    pub memory_bytes: Option<u64>,
    /// Grace over each round's time before an AI is judged late (scheduling noise).
    pub tolerance: Duration,
    /// How long the logic may stay silent while no AI is listened.
    pub logic_timeout: Duration,
    /// Cores the AIs are pinned to, AI `i` on `cores[i % len]`; empty = not pinned.
    pub cores: Vec<usize>,
}

/// How a run ended.
#[derive(Debug)]
pub struct JudgeOutcome {
    /// Scores from the end message, in ascending player order.
    pub scores: Vec<(usize, Number)>,
    /// The final end states: the logic's when it sent them, else the judger's.
    pub end_state: Vec<String>,
    /// The judger's own view of each AI's end (`OK`, `RE`, `TLE`, `MLE`, `OLE`).
    pub judged_state: Vec<String>,
    /// Watch messages, in order.
    pub watch: Vec<String>,
    /// AI errors reported to the logic.
    pub errors: Vec<AiError>,
    pub exits: Vec<Option<ExitInfo>>,
    /// The last lines of each AI's stderr.
    pub stderr: Vec<String>,
    /// Frames the logic sent (all targets), a measure of the traffic.
    pub logic_frames: usize,
    pub warnings: Vec<String>,
}

/// Why a run failed: the logic broke the protocol or could not run.
#[derive(Debug)]
pub struct JudgeError(pub String);

impl std::fmt::Display for JudgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for JudgeError {}

fn fail<T>(message: impl Into<String>) -> Result<T, JudgeError> {
    Err(JudgeError(message.into()))
}

enum AiCommand {
    Send(Vec<u8>),
    Listen {
        deadline: Instant,
        max_len: usize,
    },
    Unlisten,
    /// End the AI: wait up to `settle` for it to exit by itself (input still open), then close
    /// its input, wait `grace`, and kill what is left.
    Finish {
        settle: Duration,
        grace: Duration,
    },
}

impl AiCommand {
    /// Kill now (a condemned AI, or cleanup).
    const KILL: AiCommand = AiCommand::Finish {
        settle: Duration::ZERO,
        grace: Duration::ZERO,
    };
}

enum AiEvent {
    Started(Result<Vec<String>, String>),
    Message(Vec<u8>, Instant),
    TooLong(u64),
    Timeout,
    Died(ExitInfo, String),
    /// It ended at a `Finish`; `by_itself`: it had exited before the judger closed its input.
    Exit {
        exit: ExitInfo,
        by_itself: bool,
    },
    /// Messages sent while not listened to, dropped.
    Unsolicited(usize),
    /// The last lines of its stderr, when it ended.
    Stderr(String),
}

/// How many stderr lines are kept per AI.
const STDERR_LINES: usize = 10;

fn stderr_tail(process: &BotProcess) -> String {
    let bytes = process.stderr_tail();
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(STDERR_LINES)..].join("\n")
}

enum Event {
    Logic(Result<Option<(i32, Vec<u8>)>, FrameError>),
    Ai(usize, AiEvent),
}

/// Slices of waiting while an AI is listened, so commands for it are not held up long.
const SLICE: Duration = Duration::from_millis(10);

fn ai_worker(
    index: usize,
    command: String,
    limits: Limits,
    containment: Containment,
    commands: Receiver<AiCommand>,
    events: Sender<Event>,
) {
    let emit = |e: AiEvent| {
        let _ = events.send(Event::Ai(index, e));
    };
    // The judger names the AIs' commands: they are the student's own programs.
    let spawned = BotCommand::parse(&command)
        .map_err(|e| e.to_string())
        .map(BotCommand::of_ones_own)
        .and_then(|c| BotProcess::spawn(&c, &limits, &containment).map_err(|e| e.to_string()));
    let mut process = match spawned {
        Ok(p) => {
            emit(AiEvent::Started(Ok(p.warnings().to_vec())));
            p
        }
        Err(e) => {
            emit(AiEvent::Started(Err(e)));
            // Still answer Finish so the loop's bookkeeping stays simple.
            while let Ok(c) = commands.recv() {
                if matches!(c, AiCommand::Finish { .. }) {
                    return;
                }
            }
            return;
        }
    };
    let mut listen: Option<(Instant, usize)> = None;
    let mut dead = false;
    loop {
        let next = if listen.is_some() {
            match commands.try_recv() {
                Ok(c) => Some(c),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(AiCommand::KILL),
            }
        } else {
            Some(commands.recv().unwrap_or(AiCommand::KILL))
        };
        match next {
            Some(AiCommand::Send(bytes)) => {
                if !dead {
                    if listen.is_none() {
                        // Messages written while nobody listened answer nothing: drop them
                        // before new content can be answered (Saiblo ignores them too).
                        let mut dropped = 0;
                        while let FrameEvent::Frame(_) = process.read_frame(Instant::now()) {
                            dropped += 1;
                        }
                        if dropped > 0 {
                            emit(AiEvent::Unsolicited(dropped));
                        }
                    }
                    // A dead AI is found out when it is next listened to.
                    let _ = process.send(&bytes);
                }
                continue;
            }
            Some(AiCommand::Listen { deadline, max_len }) => {
                listen = Some((deadline, max_len));
                continue;
            }
            Some(AiCommand::Unlisten) => {
                listen = None;
                continue;
            }
            Some(AiCommand::Finish { settle, grace }) => {
                let until = Instant::now() + settle;
                while process.try_wait().is_none() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(2));
                }
                let by_itself = process.try_wait().is_some();
                let exit = process.finish(grace);
                emit(AiEvent::Stderr(stderr_tail(&process)));
                emit(AiEvent::Exit { exit, by_itself });
                return;
            }
            None => {}
        }
        let Some((deadline, max_len)) = listen else {
            continue;
        };
        let now = Instant::now();
        if now >= deadline {
            listen = None;
            emit(AiEvent::Timeout);
            continue;
        }
        match process.read_frame(deadline.min(now + SLICE)) {
            FrameEvent::Frame(body) => {
                let at = Instant::now();
                listen = None;
                if body.len() > max_len {
                    emit(AiEvent::TooLong(body.len() as u64));
                } else {
                    emit(AiEvent::Message(body, at));
                }
            }
            FrameEvent::Timeout => {}
            FrameEvent::TooLarge { declared } => {
                listen = None;
                emit(AiEvent::TooLong(u64::from(declared)));
            }
            FrameEvent::OutputLimit => {
                listen = None;
                emit(AiEvent::TooLong(process.stdout_total_bytes()));
            }
            event @ (FrameEvent::Closed | FrameEvent::Truncated { .. }) => {
                listen = None;
                dead = true;
                // Give a dying process a moment so that its end is reported as it was.
                let until = Instant::now() + Duration::from_millis(300);
                while process.try_wait().is_none() && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(5));
                }
                let exit = process.finish(Duration::from_millis(100));
                emit(AiEvent::Stderr(stderr_tail(&process)));
                let why = match event {
                    FrameEvent::Truncated { declared, received } => {
                        format!("output ended inside a message ({received} of {declared} bytes)")
                    }
                    _ => "closed its output".to_string(),
                };
                emit(AiEvent::Died(exit, why));
            }
        }
    }
}

/// What a dead AI's end is called, and its error log.
fn describe_exit(exit: &ExitInfo, why: &str) -> (&'static str, String) {
    if exit.memory_exceeded {
        return ("MLE", "runError: memory limit exceeded".into());
    }
    let how = match (exit.code, exit.signal) {
        (_, Some(s)) => format!("killed by signal {s}"),
        (Some(c), None) => format!("exited with code {c}"),
        (None, None) => why.to_string(),
    };
    ("RE", format!("runError: {how} ({why})"))
}

/// The judger's state of an AI that ended at request_end_state or the end. Only an AI that
/// exited by itself (before the judger closed its input) can have failed: what an AI does once
/// the judger ends it is not part of the game. Saiblo's template AI SDK, for one, has no end
/// of game and dies with an error when its input is closed.
fn final_state(exit: &ExitInfo, by_itself: bool) -> &'static str {
    if exit.memory_exceeded {
        "MLE"
    } else if by_itself && (exit.signal.is_some() || exit.code.is_some_and(|c| c != 0)) {
        "RE"
    } else {
        "OK"
    }
}

/// At the end of the game, how long an AI may take to exit by itself (it has been told the
/// end; a crash right after its last message shows here), and then to exit once its input is
/// closed.
const END_SETTLE: Duration = Duration::from_millis(200);
const END_GRACE: Duration = Duration::from_millis(100);

struct Slot {
    commands: Sender<AiCommand>,
    started: bool,
    alive: bool,
    listened: bool,
    /// When its clock started, and in which state (a clock belongs to one timing round).
    clock: Option<(Instant, i64)>,
    state: Option<&'static str>,
    exit: Option<ExitInfo>,
    /// It had exited by itself when the judger came to end it.
    exited_by_itself: bool,
    finishing: bool,
    stderr: String,
}

struct Run<'a> {
    spec: &'a JudgeSpec,
    /// Told each watch message as it arrives (spectators of `arbiter judge --live`).
    on_watch: &'a mut dyn FnMut(&str),
    events: Receiver<Event>,
    logic_in: ChildStdin,
    slots: Vec<Slot>,
    state: i64,
    time: Duration,
    length: usize,
    outcome: JudgeOutcome,
    /// Why the logic stopped reading, once a write to it failed.
    logic_gone: Option<String>,
}

impl Run<'_> {
    /// Writes to the logic. A logic that stopped reading is not an error yet: it may have
    /// sent its end message and exited while an AI event was on its way (an AI dying right
    /// after its last move is the usual case), so its remaining output is still read.
    fn tell_logic(&mut self, m: &JudgerMessage) -> Result<(), JudgeError> {
        if self.logic_gone.is_some() {
            return Ok(());
        }
        if let Err(e) = frame::write_frame(&mut self.logic_in, m.to_json().as_bytes()) {
            self.logic_gone = Some(e.to_string());
        }
        Ok(())
    }

    /// The end of an error message saying why the logic may have stopped.
    fn gone_note(&self) -> String {
        self.logic_gone
            .as_ref()
            .map(|e| format!(" (it had stopped reading its input: {e})"))
            .unwrap_or_default()
    }

    fn command(&self, i: usize, c: AiCommand) {
        if let Some(s) = self.slots.get(i) {
            let _ = s.commands.send(c);
        }
    }

    fn report(&mut self, i: usize, error: ErrorKind, log: String) -> Result<(), JudgeError> {
        let e = AiError {
            player: i,
            state: self.state,
            error,
            error_log: log,
        };
        self.outcome.errors.push(e.clone());
        self.tell_logic(&JudgerMessage::AiError(e))
    }

    /// Kills an AI the judger gave up on, with its state.
    fn condemn(&mut self, i: usize, state: &'static str) {
        if let Some(s) = self.slots.get_mut(i) {
            s.alive = false;
            s.listened = false;
            s.state.get_or_insert(state);
            if !s.finishing {
                s.finishing = true;
                let _ = s.commands.send(AiCommand::KILL);
            }
        }
    }

    fn on_ai(&mut self, i: usize, e: AiEvent) -> Result<(), JudgeError> {
        match e {
            AiEvent::Started(_) => {}
            AiEvent::Stderr(tail) => {
                if let Some(s) = self.slots.get_mut(i) {
                    s.stderr = tail;
                }
            }
            AiEvent::Unsolicited(n) => self.outcome.warnings.push(format!(
                "AI {i}: {n} message(s) sent while not listened to were dropped"
            )),
            AiEvent::Message(body, at) => {
                let Some(s) = self.slots.get_mut(i) else {
                    return Ok(());
                };
                if !s.listened {
                    return Ok(());
                }
                s.listened = false;
                let clock = s.clock.map_or(at, |(t, _)| t);
                let time = u64::try_from(at.saturating_duration_since(clock).as_millis())
                    .unwrap_or(u64::MAX);
                let content = String::from_utf8_lossy(&body).into_owned();
                self.tell_logic(&JudgerMessage::Ai {
                    player: i,
                    content,
                    time,
                })?;
            }
            AiEvent::TooLong(n) => {
                let length = self.length;
                self.condemn(i, "OLE");
                self.report(
                    i,
                    ErrorKind::OutputLimit,
                    format!("outputLimitError: a message of {n} bytes (limit {length})"),
                )?;
            }
            AiEvent::Timeout => {
                let ms = self.time.as_millis();
                self.condemn(i, "TLE");
                self.report(
                    i,
                    ErrorKind::TimeOut,
                    format!("timeOutError: no message within {ms} ms"),
                )?;
            }
            AiEvent::Died(exit, why) => {
                let (state, log) = describe_exit(&exit, &why);
                if let Some(s) = self.slots.get_mut(i) {
                    s.alive = false;
                    s.listened = false;
                    s.state.get_or_insert(state);
                    s.exit = Some(exit);
                }
                self.report(i, ErrorKind::RunError, log)?;
            }
            AiEvent::Exit { exit, by_itself } => self.ended(i, exit, by_itself),
        }
        Ok(())
    }

    fn ended(&mut self, i: usize, exit: ExitInfo, by_itself: bool) {
        if let Some(s) = self.slots.get_mut(i) {
            s.alive = false;
            s.exit = Some(exit);
            s.exited_by_itself = by_itself;
        }
    }

    fn listen(&mut self, i: usize, restart: bool) -> Result<(), JudgeError> {
        let now = Instant::now();
        let (time, tolerance, length) = (self.time, self.spec.tolerance, self.length);
        let Some(s) = self.slots.get_mut(i) else {
            return Ok(());
        };
        if !s.alive {
            let log = match (s.started, s.state) {
                (false, _) => "runError: the AI did not start".to_string(),
                (true, Some(st)) => format!("runError: the AI is no longer running ({st})"),
                (true, None) => "runError: the AI is no longer running".to_string(),
            };
            return self.report(i, ErrorKind::RunError, log);
        }
        let state = self.state;
        let start = match s.clock {
            Some((t, k)) if !restart && k == state => t,
            _ => now,
        };
        s.clock = Some((start, state));
        s.listened = true;
        let deadline = start + time + tolerance;
        let _ = s.commands.send(AiCommand::Listen {
            deadline,
            max_len: length,
        });
        Ok(())
    }

    fn check_player(&self, i: usize, what: &str) -> Result<(), JudgeError> {
        if i >= self.slots.len() {
            return fail(format!(
                "logic protocol error: {what} names AI {i}, but there are {} AIs",
                self.slots.len()
            ));
        }
        Ok(())
    }

    /// Ends every AI still running and waits for their accounting.
    fn finish_all(&mut self, settle: Duration, grace: Duration) {
        for s in &mut self.slots {
            if s.exit.is_none() && !s.finishing {
                s.finishing = true;
                let _ = s.commands.send(AiCommand::Finish { settle, grace });
            }
            s.listened = false;
        }
        let until = Instant::now() + settle + grace + Duration::from_secs(10);
        while self.slots.iter().any(|s| s.started && s.exit.is_none()) {
            let left = until.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Event::Ai(i, AiEvent::Stderr(tail))) => {
                    if let Some(s) = self.slots.get_mut(i) {
                        s.stderr = tail;
                    }
                }
                Ok(Event::Ai(i, AiEvent::Exit { exit, by_itself })) => {
                    self.ended(i, exit, by_itself);
                }
                Ok(Event::Ai(i, AiEvent::Died(exit, _))) => self.ended(i, exit, true),
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }

    fn judged_states(&self) -> Vec<String> {
        self.slots
            .iter()
            .map(|s| {
                if !s.started {
                    "RE".to_string()
                } else if let Some(st) = s.state {
                    st.to_string()
                } else {
                    s.exit
                        .as_ref()
                        .map_or("OK", |e| final_state(e, s.exited_by_itself))
                        .to_string()
                }
            })
            .collect()
    }

    /// The message loop; returns at the logic's end message.
    fn drive(&mut self) -> Result<(), JudgeError> {
        loop {
            let event = match self.events.recv_timeout(self.spec.logic_timeout) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) if self.slots.iter().any(|s| s.listened) => {
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {
                    return fail(format!(
                        "the logic sent nothing for {} s while no AI was due{}",
                        self.spec.logic_timeout.as_secs(),
                        self.gone_note()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return fail("internal error: all event sources ended")
                }
            };
            let (target, body) = match event {
                Event::Ai(i, e) => {
                    self.on_ai(i, e)?;
                    continue;
                }
                Event::Logic(Ok(Some(f))) => f,
                Event::Logic(Ok(None)) => {
                    return fail(format!(
                        "the logic ended its output without sending the end message{}",
                        self.gone_note()
                    ))
                }
                Event::Logic(Err(e)) => return fail(format!("logic protocol error: {e}")),
            };
            self.outcome.logic_frames += 1;
            if target >= 0 {
                let i = target as usize;
                self.check_player(i, "a frame target")?;
                self.command(i, AiCommand::Send(body));
                continue;
            }
            let message = LogicMessage::parse(&body)
                .map_err(|e| JudgeError(format!("logic protocol error: {e}")))?;
            match message {
                LogicMessage::RoundConfig(c) => {
                    if let Some(t) = c.time {
                        self.time = Duration::from_secs_f64(t);
                    }
                    if let Some(l) = c.length {
                        self.length = usize::try_from(l).unwrap_or(usize::MAX);
                    }
                }
                LogicMessage::Round(r) => {
                    for &p in r.listen.iter().chain(&r.player) {
                        self.check_player(p, "a round")?;
                    }
                    let restart = r.state > self.state;
                    if restart {
                        self.state = r.state;
                    }
                    for (p, content) in r.player.iter().zip(r.content) {
                        self.command(*p, AiCommand::Send(content.into_bytes()));
                    }
                    // AIs no longer listened stop being timed.
                    for (i, s) in self.slots.iter_mut().enumerate() {
                        if s.listened && !r.listen.contains(&i) {
                            s.listened = false;
                            let _ = s.commands.send(AiCommand::Unlisten);
                        }
                    }
                    for &p in &r.listen {
                        let already = self.slots.get(p).is_some_and(|s| s.listened);
                        if restart || !already {
                            self.listen(p, restart)?;
                        }
                    }
                }
                LogicMessage::Watch(w) => {
                    (self.on_watch)(&w);
                    self.outcome.watch.push(w);
                }
                LogicMessage::RequestEndState => {
                    self.finish_all(END_SETTLE, END_GRACE);
                    let states = self.judged_states();
                    self.tell_logic(&JudgerMessage::EndState(states))?;
                }
                LogicMessage::End(end) => {
                    self.outcome.scores = end.scores;
                    self.finish_all(END_SETTLE, END_GRACE);
                    self.outcome.judged_state = self.judged_states();
                    self.outcome.end_state = end
                        .end_state
                        .unwrap_or_else(|| self.outcome.judged_state.clone());
                    return Ok(());
                }
            }
        }
    }
}

fn spawn_logic(command: &str) -> Result<Child, JudgeError> {
    let words = shell_words::split(command)
        .map_err(|e| JudgeError(format!("cannot read the logic command {command:?}: {e}")))?;
    let Some((program, args)) = words.split_first() else {
        return fail("the logic command is empty");
    };
    let mut c = Command::new(program);
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    std::os::unix::process::CommandExt::process_group(&mut c, 0);
    // AIs already run and may be swept meanwhile: the logic must not be taken for one of
    // theirs while it holds copies of their pipes between fork and exec.
    arbiter_sandbox::spawn_guarded(&mut c)
        .map_err(|e| JudgeError(format!("cannot start the logic {command:?}: {e}")))
}

/// Runs one game: the logic and the AIs, until the logic's end message.
pub fn judge(spec: &JudgeSpec, containment: &Containment) -> Result<JudgeOutcome, JudgeError> {
    judge_watched(spec, containment, &mut |_| {})
}

/// [`judge`], telling `on_watch` each of the logic's watch messages as it arrives.
pub fn judge_watched(
    spec: &JudgeSpec,
    containment: &Containment,
    on_watch: &mut dyn FnMut(&str),
) -> Result<JudgeOutcome, JudgeError> {
    let (tx, events) = mpsc::channel::<Event>();
    let scratch_root = std::env::temp_dir().join(format!("arbiter-judge-{}", std::process::id()));
    let mut slots = Vec::with_capacity(spec.ais.len());
    let mut workers = Vec::new();
    for (i, command) in spec.ais.iter().enumerate() {
        let scratch = scratch_root.join(format!("ai{i}"));
        let _ = std::fs::create_dir_all(&scratch);
        let limits = Limits {
            memory_bytes: spec.memory_bytes,
            cpu_core: (!spec.cores.is_empty()).then(|| spec.cores[i % spec.cores.len()]),
            max_frame_bytes: frame::DEFAULT_MAX_BODY,
            scratch_dir: Some(scratch),
            ..Limits::default()
        };
        let (ctx, crx) = mpsc::channel();
        let events = tx.clone();
        let (command, containment) = (command.clone(), containment.clone());
        workers.push(std::thread::spawn(move || {
            ai_worker(i, command, limits, containment, crx, events)
        }));
        slots.push(Slot {
            commands: ctx,
            started: false,
            alive: false,
            listened: false,
            clock: None,
            state: None,
            exit: None,
            exited_by_itself: false,
            finishing: false,
            stderr: String::new(),
        });
    }
    let mut warnings = Vec::new();
    let mut pending = spec.ais.len();
    while pending > 0 {
        match events.recv_timeout(Duration::from_secs(30)) {
            Ok(Event::Ai(i, AiEvent::Started(r))) => {
                pending -= 1;
                if let Some(s) = slots.get_mut(i) {
                    match r {
                        Ok(w) => {
                            s.started = true;
                            s.alive = true;
                            warnings.extend(w);
                        }
                        Err(e) => warnings.push(format!("AI {i} did not start: {e}")),
                    }
                }
            }
            Ok(_) => {}
            Err(_) => {
                abandon(&slots, workers, &scratch_root);
                return fail("the AIs did not start within 30 s");
            }
        }
    }

    let mut child = match spawn_logic(&spec.logic) {
        Ok(c) => c,
        Err(e) => {
            abandon(&slots, workers, &scratch_root);
            return Err(e);
        }
    };
    let (Some(logic_in), Some(mut logic_out)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        abandon(&slots, workers, &scratch_root);
        return fail("cannot connect to the logic's stdio");
    };
    let reader_tx = tx.clone();
    std::thread::spawn(move || loop {
        let r = frame::read_logic_frame(&mut logic_out, frame::DEFAULT_MAX_BODY);
        let stop = !matches!(r, Ok(Some(_)));
        if reader_tx.send(Event::Logic(r)).is_err() || stop {
            return;
        }
    });
    drop(tx);

    let player_list = slots.iter().map(|s| i64::from(s.started)).collect();
    let mut run = Run {
        spec,
        on_watch,
        events,
        logic_in,
        slots,
        state: 0,
        time: Duration::from_secs_f64(DEFAULT_TIME_SECONDS),
        length: DEFAULT_LENGTH_BYTES as usize,
        outcome: JudgeOutcome {
            scores: Vec::new(),
            end_state: Vec::new(),
            judged_state: Vec::new(),
            watch: Vec::new(),
            errors: Vec::new(),
            exits: Vec::new(),
            stderr: Vec::new(),
            logic_frames: 0,
            warnings,
        },
        logic_gone: None,
    };
    let init = Init {
        player_num: spec.ais.len(),
        player_list,
        config: spec.config.clone(),
        replay: spec.replay.to_string_lossy().into_owned(),
    };
    let result = run
        .tell_logic(&JudgerMessage::Init(init))
        .and_then(|()| run.drive());
    run.finish_all(Duration::ZERO, Duration::ZERO);
    // The logic has said its last word: let it exit, then make sure its group is gone.
    drop(run.logic_in);
    // Waited for without reaping it (WNOWAIT): until it is reaped its pid cannot name another
    // process group, so the killpg below reaches only what the logic left behind.
    let until = Instant::now() + Duration::from_secs(2);
    if let Ok(pid) = i32::try_from(child.id()) {
        let pid = nix::unistd::Pid::from_raw(pid);
        let flags = nix::sys::wait::WaitPidFlag::WEXITED
            | nix::sys::wait::WaitPidFlag::WNOHANG
            | nix::sys::wait::WaitPidFlag::WNOWAIT;
        while matches!(
            nix::sys::wait::waitid(nix::sys::wait::Id::Pid(pid), flags),
            Ok(nix::sys::wait::WaitStatus::StillAlive)
        ) && Instant::now() < until
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = nix::sys::signal::killpg(pid, nix::sys::signal::Signal::SIGKILL);
    }
    let _ = child.wait();
    for s in &run.slots {
        let _ = s.commands.send(AiCommand::KILL);
    }
    for w in workers {
        let _ = w.join();
    }
    let _ = std::fs::remove_dir_all(&scratch_root);
    result?;
    let mut outcome = run.outcome;
    outcome.exits = run.slots.iter().map(|s| s.exit.clone()).collect();
    outcome.stderr = run.slots.iter().map(|s| s.stderr.clone()).collect();
    Ok(outcome)
}

/// Ends the AIs of a run that could not start, waiting for their workers.
fn abandon(slots: &[Slot], workers: Vec<std::thread::JoinHandle<()>>, scratch: &std::path::Path) {
    for s in slots {
        let _ = s.commands.send(AiCommand::KILL);
    }
    for w in workers {
        let _ = w.join();
    }
    let _ = std::fs::remove_dir_all(scratch);
}

/// Prints the scores and end states as a table.
pub fn print_outcome<W: Write>(
    out: &mut W,
    spec: &JudgeSpec,
    o: &JudgeOutcome,
) -> std::io::Result<()> {
    for (i, command) in spec.ais.iter().enumerate() {
        let score = o
            .scores
            .iter()
            .find(|(p, _)| *p == i)
            .map_or("-".to_string(), |(_, s)| s.to_string());
        let state = o.end_state.get(i).map_or("-", String::as_str);
        let judged = o.judged_state.get(i).map_or("-", String::as_str);
        writeln!(
            out,
            "player {i}: score {score:>4}  end state {state:<4} (judger: {judged})  {command}"
        )?;
    }
    for (i, tail) in o.stderr.iter().enumerate() {
        let failed = o.judged_state.get(i).is_some_and(|s| s != "OK")
            || o.end_state.get(i).is_some_and(|s| s != "OK");
        if failed && !tail.is_empty() {
            writeln!(out, "  stderr of AI {i} (last lines):")?;
            for line in tail.lines() {
                writeln!(out, "    {line}")?;
            }
        }
    }
    for e in &o.errors {
        writeln!(
            out,
            "  reported: AI {} at state {}: {} ({})",
            e.player,
            e.state,
            e.error.log_name(),
            e.error_log
        )?;
    }
    writeln!(
        out,
        "{} logic frames, {} watch messages; replay path {}",
        o.logic_frames,
        o.watch.len(),
        spec.replay.display()
    )
}
