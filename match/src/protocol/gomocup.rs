//! The Gomocup protocol (Piskvork): `START n` -> `OK`; `INFO key value`; `ABOUT` -> one line;
//! `BEGIN` / `TURN x,y` / `BOARD ... DONE` -> `x,y`; `END`. Lines to the brain end with CR LF;
//! the brain may print `MESSAGE`, `DEBUG`, `UNKNOWN`, `ERROR` and `SUGGEST` lines at any time.
//!
//! Strong brains set themselves up when they read the INFO lines (Rapfi allocates its hash
//! table on `INFO max_memory`, hundreds of milliseconds) and start their own clock only at the
//! first `BEGIN`/`TURN`/`BOARD`. Piskvork and GomocupJudge send the INFO lines right before the
//! first move and absorb the set-up in a 1000 ms tolerance; arbiter's tolerance is 50 ms, so it
//! sends `ABOUT` after the INFO lines and waits for the answer on the handshake clock instead:
//! a brain reads its input in order, so once it answers ABOUT it has digested every INFO line,
//! and the first move's clock measures thinking only, as every later one does. A brain that
//! does not answer ABOUT still plays, after the handshake time; an answer that comes later is
//! kept as a log line.

use std::time::Instant;

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::gomoku::{Point, Rule};
use arbiter_engine::{Game, Seat};
use arbiter_sandbox::ReadEvent;

use super::wire::Line;
use super::{Ask, Fault, Protocol, Reply, Standing, Start, Wire};

#[derive(Default)]
pub struct Gomocup {
    seat: Option<Seat>,
    /// Moves the brain has not been told about yet.
    unseen: Vec<Point>,
    /// The game started from an opening the brain has not seen: its first request sends the
    /// whole position with BOARD.
    board_needed: bool,
    started: bool,
    /// ABOUT was not answered in the handshake time: a late answer may still come.
    about_pending: bool,
}

fn classify(line: &str) -> Line<'_> {
    let t = line.trim();
    if t.is_empty() {
        return Line::Blank;
    }
    for prefix in ["MESSAGE", "DEBUG", "UNKNOWN", "ERROR", "SUGGEST"] {
        if let Some(rest) = t.strip_prefix(prefix) {
            if rest.is_empty() || rest.starts_with(' ') {
                return Line::Log(t);
            }
        }
    }
    Line::Content(t)
}

/// The `INFO rule` bitmask for `rule`. Gomocup has one renju bit: both readings are sent as 4.
pub fn rule_mask(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju | Rule::RenjuGomocup => 4,
    }
}

/// Waits for the answer to ABOUT: a content line (`name="...", version="..."`), kept in the
/// log, or `UNKNOWN` (a brain without ABOUT). ERROR lines may come first (a brain reports an
/// INFO it cannot meet at the next command, which is ABOUT here) and do not end the wait.
/// Returns whether a late ABOUT answer may still come: after the handshake time ran out (noted
/// in the log), or after an `UNKNOWN` that does not name ABOUT (it may have been about an INFO).
fn await_about(wire: &mut Wire, deadline: Instant) -> Result<bool, Fault> {
    loop {
        let line = match wire.process.read_line(deadline) {
            ReadEvent::Line(b) => String::from_utf8_lossy(&b).trim().to_string(),
            ReadEvent::Timeout => {
                wire.keep_log(
                    "(arbiter) no answer to ABOUT in the handshake time: the first move's clock \
                     started anyway; answer ABOUT (or UNKNOWN) to start sooner",
                );
                return Ok(true);
            }
            // Closed pipes and oversized output: the wire words the fault.
            _ => {
                return wire
                    .read_content(deadline, classify)
                    .and_then(|l| Err(Fault::Malformed(l)))
            }
        };
        match classify(&line) {
            Line::Blank => {}
            Line::Content(about) => {
                wire.keep_log(&format!("ABOUT: {about}"));
                return Ok(false);
            }
            Line::Log(m) => {
                wire.keep_log(m);
                if let Some(rest) = m.strip_prefix("UNKNOWN") {
                    return Ok(!rest.to_ascii_uppercase().contains("ABOUT"));
                }
            }
        }
    }
}

/// Whether a line is an ABOUT answer (`name="..."`) rather than a move.
fn looks_like_about(line: &str) -> bool {
    parse_point(line).is_none() && line.to_ascii_lowercase().contains("name=")
}

fn parse_point(text: &str) -> Option<Point> {
    let (x, y) = text.split_once(',')?;
    Some(Point {
        x: x.trim().parse().ok()?,
        y: y.trim().parse().ok()?,
    })
}

impl Gomocup {
    /// The wire's check that the brain said nothing out of turn, except a late ABOUT answer.
    fn expect_quiet(&mut self, wire: &mut Wire) -> Result<(), Fault> {
        match wire.expect_quiet(classify) {
            Err(Fault::OutOfTurn(line)) if self.about_pending && looks_like_about(&line) => {
                self.about_pending = false;
                wire.keep_log(&format!("ABOUT (late): {line}"));
                wire.expect_quiet(classify)
            }
            other => other,
        }
    }
}

impl Protocol for Gomocup {
    fn lines(&self) -> fn(&str) -> Line<'_> {
        classify
    }

    fn start(&mut self, wire: &mut Wire, start: &Start<'_>) -> Result<(), Fault> {
        wire.use_crlf();
        self.seat = Some(start.seat);
        let AnyGame::Gomoku(g) = start.game else {
            return Err(Fault::Protocol(
                "the gomocup protocol plays gomoku only".into(),
            ));
        };
        let size = g.config().size;
        wire.send(&format!("START {size}"))?;
        // The answer may come after MESSAGE lines; ERROR instead of OK refuses the board.
        loop {
            let line = match wire.process.read_line(start.deadline) {
                arbiter_sandbox::ReadEvent::Line(b) => {
                    String::from_utf8_lossy(&b).trim().to_string()
                }
                _ => {
                    return wire
                        .read_content(start.deadline, classify)
                        .and_then(|l| Err(Fault::Malformed(l)))
                }
            };
            if line == "OK" {
                break;
            }
            if let Some(msg) = line.strip_prefix("ERROR") {
                return Err(Fault::Protocol(format!("refused to start: {}", msg.trim())));
            }
            match classify(&line) {
                Line::Log(m) => wire.keep_log(m),
                Line::Blank => {}
                Line::Content(_) => return Err(Fault::Malformed(line)),
            }
        }
        let ms = |d: Option<std::time::Duration>| d.map_or(0, |d| d.as_millis());
        wire.send(&format!("INFO timeout_turn {}", ms(start.limits.move_time)))?;
        wire.send(&format!(
            "INFO timeout_match {}",
            ms(start.limits.game_time)
        ))?;
        if let Some(m) = start.limits.memory_bytes {
            wire.send(&format!("INFO max_memory {m}"))?;
        }
        wire.send("INFO game_type 1")?;
        wire.send(&format!("INFO rule {}", rule_mask(g.config().rule)))?;
        if let Some(folder) = start.folder {
            wire.send(&format!("INFO folder {folder}"))?;
        }
        wire.send("ABOUT")?;
        self.about_pending = await_about(wire, start.deadline)?;
        self.board_needed = !g.history().is_empty();
        self.started = true;
        Ok(())
    }

    fn opponent_moved(
        &mut self,
        wire: &mut Wire,
        _before: &AnyGame,
        mv: AnyMove,
    ) -> Result<(), Fault> {
        self.expect_quiet(wire)?;
        if let AnyMove::Gomoku(p) = mv {
            self.unseen.push(p);
        }
        Ok(())
    }

    fn ask(&mut self, wire: &mut Wire, ask: &Ask<'_>) -> Result<Reply, Fault> {
        self.expect_quiet(wire)?;
        let AnyGame::Gomoku(g) = ask.game else {
            return Err(Fault::Protocol(
                "the gomocup protocol plays gomoku only".into(),
            ));
        };
        if let Some(left) = ask.time_left {
            wire.send(&format!("INFO time_left {}", left.as_millis()))?;
        }
        if self.board_needed {
            wire.send("BOARD")?;
            let me = g.to_move();
            for p in g.history() {
                let own = g.stone(*p) == me;
                wire.send(&format!("{},{},{}", p.x, p.y, if own { 1 } else { 2 }))?;
            }
            wire.send("DONE")?;
            self.board_needed = false;
        } else if let Some(p) = self.unseen.last() {
            wire.send(&format!("TURN {},{}", p.x, p.y))?;
        } else {
            wire.send("BEGIN")?;
        }
        self.unseen.clear();
        let mut line = wire.read_content(ask.deadline, classify)?;
        if std::mem::take(&mut self.about_pending) && looks_like_about(&line) {
            wire.keep_log(&format!("ABOUT (late): {line}"));
            line = wire.read_content(ask.deadline, classify)?;
        }
        Ok(match parse_point(&line) {
            Some(p) => Reply::Move(AnyMove::Gomoku(p)),
            None => Reply::Malformed(line),
        })
    }

    fn end(&mut self, wire: &mut Wire, _standing: Standing) {
        if self.started {
            wire.send_quietly("END");
        }
    }
}
