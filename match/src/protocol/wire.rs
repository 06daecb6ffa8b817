//! One bot's line channel: sends, deadline-bounded reads, log-line capture with the DEBUG caps
//! of seed 001, and the translation of what the process did into a [`Fault`].

use std::time::{Duration, Instant};

use arbiter_sandbox::{BotProcess, ReadEvent, SendError};

use crate::live::Endpoint;
use crate::stall::{self, Meter};

/// How far a starved bot's deadline moves at a time.
const STARVED_STEP: Duration = Duration::from_millis(20);

/// Caps on kept log text (seed 001: one message over 16 KB is cut; past 32 KB in total the rest
/// is dropped, which is not an error).
#[derive(Clone, Copy, Debug)]
pub struct LogCaps {
    pub per_message: usize,
    pub total: usize,
}

impl Default for LogCaps {
    fn default() -> LogCaps {
        LogCaps {
            per_message: 16 * 1024,
            total: 32 * 1024,
        }
    }
}

/// What went wrong with a bot, before it is turned into a replay verdict (which also needs the
/// seat and the limits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No complete answer before the deadline.
    Timeout,
    /// Its stdout ended (`running` tells whether the process is still alive).
    Closed { running: bool },
    /// It stopped reading: its stdin is closed (`running` as for `Closed`).
    InputClosed { running: bool },
    /// A line that is not what the protocol allows here.
    Malformed(String),
    /// Output when no answer was expected.
    OutOfTurn(String),
    /// A protocol-level refusal or violation, in words.
    Protocol(String),
}

/// A bot process (or a remote seat) with its protocol-independent line handling.
pub struct Wire {
    pub process: Endpoint,
    caps: LogCaps,
    log_total: usize,
    /// Log lines since the last [`Wire::take_log`].
    log: String,
    /// CR LF line ends (Gomocup managers send them).
    crlf: bool,
    /// The last content line as the bot sent it (terminator removed), for verdicts to quote.
    last_line: Option<String>,
    /// The request being timed, if any: a read past its deadline waits on for as long as the
    /// judge was stalled during it (`crate::stall`).
    meter: Option<Meter>,
}

/// A line classified by a protocol: a log line to keep, a blank line to ignore, or content.
pub enum Line<'a> {
    Log(&'a str),
    Blank,
    Content(&'a str),
}

impl Wire {
    pub fn new(process: BotProcess, caps: LogCaps) -> Wire {
        Wire::over(Endpoint::Bot(Box::new(process)), caps)
    }

    /// A wire over any endpoint (a remote seat's channels).
    pub fn over(process: Endpoint, caps: LogCaps) -> Wire {
        Wire {
            process,
            caps,
            log_total: 0,
            log: String::new(),
            crlf: false,
            last_line: None,
            meter: None,
        }
    }

    /// Starts timing a request: from now on reads extend their deadlines by the judge's
    /// stalls.
    pub fn start_request(&mut self) {
        let bot = match &mut self.process {
            Endpoint::Bot(p) => {
                let pid = p.program_pid();
                Some((pid, p.cpu_time()))
            }
            Endpoint::Remote(_) => None,
        };
        self.meter = Some(Meter::start(bot));
    }

    /// Ends the request's timing and returns what it measured.
    pub fn end_request(&mut self) -> Option<Meter> {
        self.meter.take()
    }

    /// Whether the bot is starved of CPU now, within [`stall::STARVED_AT_MOST`] past `base`.
    fn starving(&mut self, base: Instant) -> bool {
        let (Some(meter), process) = (&self.meter, &mut self.process) else {
            return false;
        };
        base.elapsed() < stall::STARVED_AT_MOST && meter.bot_starving(|| process.cpu_time())
    }

    /// How long the deadline of the current request is pushed back: the judge's stall so far.
    fn extension(&mut self) -> Duration {
        let Some(meter) = &self.meter else {
            return Duration::ZERO;
        };
        let cpu = self.process.cpu_time();
        meter.stall(cpu).credit()
    }

    /// Send lines with CR LF ends from now on.
    pub fn use_crlf(&mut self) {
        self.crlf = true;
    }

    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        let mut text = String::with_capacity(line.len() + 2);
        text.push_str(line);
        text.push_str(if self.crlf { "\r\n" } else { "\n" });
        match self.process.send(text.as_bytes()) {
            Ok(()) => Ok(()),
            Err(SendError::Timeout { .. }) => {
                Err(Fault::Protocol("stopped reading its input".into()))
            }
            Err(SendError::Closed) | Err(SendError::Io(_)) => Err(Fault::InputClosed {
                running: self.process.try_wait().is_none(),
            }),
        }
    }

    /// Sends a line, ignoring a bot that is gone (end-of-game notices).
    pub fn send_quietly(&mut self, line: &str) {
        let _ = self.send(line);
    }

    /// Keeps a log line, within the caps.
    pub fn keep_log(&mut self, text: &str) {
        if self.log_total >= self.caps.total {
            return;
        }
        let room = (self.caps.total - self.log_total).min(self.caps.per_message);
        let cut = floor_char_boundary(text, room);
        self.log.push_str(&text[..cut]);
        self.log.push('\n');
        self.log_total += cut;
    }

    /// The log lines since the last call.
    pub fn take_log(&mut self) -> Option<String> {
        if self.log.is_empty() {
            None
        } else {
            Some(std::mem::take(&mut self.log))
        }
    }

    /// The last content line [`Wire::read_content`] returned, exactly as the bot sent it
    /// (before the protocol trimmed it), and forgets it.
    pub fn take_last_line(&mut self) -> Option<String> {
        self.last_line.take()
    }

    /// Reads until a content line, keeping log lines; `classify` is the protocol's.
    pub fn read_content(
        &mut self,
        base: Instant,
        classify: fn(&str) -> Line<'_>,
    ) -> Result<String, Fault> {
        let mut deadline = base;
        loop {
            match self.process.read_line(deadline) {
                ReadEvent::Line(bytes) => {
                    let text = decode(&bytes);
                    match classify(&text) {
                        Line::Log(msg) => {
                            let msg = msg.to_string();
                            self.keep_log(&msg);
                        }
                        Line::Blank => {}
                        Line::Content(c) => {
                            let content = c.to_string();
                            self.last_line = Some(text);
                            return Ok(content);
                        }
                    }
                }
                ReadEvent::Timeout => {
                    // Time the judge was stalled is not the bot's: wait on for it. A bot that
                    // truly thinks too long still runs out at `base` plus the stall.
                    let extended = base + self.extension();
                    let now = Instant::now();
                    if extended > now {
                        deadline = extended;
                    } else if self.starving(base) {
                        // Ready but given no CPU: its wait shows once it runs, and is then
                        // credited (crate::stall). Until then, wait on in small steps.
                        deadline = now + STARVED_STEP;
                    } else {
                        // The look took a few ms, in which a starved bot may have run at last:
                        // its wait shows now.
                        let extended = base + self.extension();
                        if extended <= Instant::now() {
                            return Err(Fault::Timeout);
                        }
                        deadline = extended;
                    }
                }
                ReadEvent::Closed => {
                    return Err(Fault::Closed {
                        running: self.process.try_wait().is_none(),
                    })
                }
                ReadEvent::LineTooLong { kept_prefix } => {
                    // A log line of any length is no fault (seed 001: a DEBUG message is cut,
                    // never judged): keep its start within the caps, read on.
                    let text = decode(&kept_prefix);
                    if let Line::Log(msg) = classify(&text) {
                        let msg = msg.to_string();
                        self.keep_log(&msg);
                        continue;
                    }
                    let mut line = decode(&kept_prefix[..kept_prefix.len().min(200)]);
                    line.push_str("... (line too long)");
                    return Err(Fault::Malformed(line));
                }
                ReadEvent::OutputLimit => {
                    return Err(Fault::Protocol("wrote more output than allowed".into()))
                }
            }
        }
    }

    /// Checks that the bot said nothing it should not have since its last answer: log lines
    /// are kept, anything else is output out of turn.
    pub fn expect_quiet(&mut self, classify: fn(&str) -> Line<'_>) -> Result<(), Fault> {
        // A look, not a wait: no request's stall extends it.
        let meter = self.meter.take();
        let quiet = self.read_content(Instant::now(), classify);
        self.meter = meter;
        match quiet {
            Ok(line) => Err(Fault::OutOfTurn(line)),
            Err(Fault::Timeout) => Ok(()),
            // A bot that is gone is found out when it is next asked to move.
            Err(Fault::Closed { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Gives the bot a moment to exit by itself after the end command.
    pub fn linger(&mut self, grace: Duration) {
        self.process.wait_for_exit(Instant::now() + grace);
    }
}

/// The line classes of seed 001's style: `DEBUG msg` is a log line, blank lines are ignored.
pub fn debug_lines(line: &str) -> Line<'_> {
    let t = line.trim();
    if t.is_empty() {
        Line::Blank
    } else if t == "DEBUG" {
        Line::Log("")
    } else if let Some(msg) = line.trim_start().strip_prefix("DEBUG ") {
        Line::Log(msg)
    } else {
        Line::Content(t)
    }
}

/// Bot output as text: invalid UTF-8 becomes U+FFFD (a non-UTF-8 move is then malformed).
fn decode(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn floor_char_boundary(s: &str, max: usize) -> usize {
    if max >= s.len() {
        return s.len();
    }
    (0..=max)
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0)
}
