//! The kit's line protocol, the referee's side (specified in docs/game-kit.md).

use std::time::Instant;

use arbiter_match::protocol::{Fault, Line, Wire};

/// Sorts a bot's lines as seed 001 does: `DEBUG msg` is a log line, blank lines are ignored.
pub fn classify(line: &str) -> Line<'_> {
    arbiter_match::protocol::debug_lines(line)
}

pub fn seat_word(seat: usize) -> &'static str {
    if seat == 0 {
        "first"
    } else {
        "second"
    }
}

/// `START s name` -> `OK`.
pub fn start(wire: &mut Wire, seat: usize, game: &str, deadline: Instant) -> Result<(), Fault> {
    wire.send(&format!("START {} {game}", seat + 1))?;
    let line = wire.read_content(deadline, classify)?;
    if line.trim() != "OK" {
        return Err(Fault::Malformed(line));
    }
    Ok(())
}

/// `PLAYED s move`.
pub fn played(wire: &mut Wire, seat: usize, mv: &str) -> Result<(), Fault> {
    wire.expect_quiet(classify)?;
    wire.send(&format!("PLAYED {} {mv}", seat + 1))
}

/// `POSITION k`, the k lines, `LEGAL ...`, `TURN` -> the answer.
pub fn ask(
    wire: &mut Wire,
    told: &str,
    legal: &[String],
    deadline: Instant,
) -> Result<String, Fault> {
    wire.expect_quiet(classify)?;
    let lines: Vec<&str> = told.lines().collect();
    wire.send(&format!("POSITION {}", lines.len()))?;
    for l in lines {
        wire.send(l)?;
    }
    wire.send(&format!("LEGAL {}", legal.join(" ")))?;
    wire.send("TURN")?;
    Ok(wire.read_content(deadline, classify)?.trim().to_string())
}

/// A fault in words for the verdict.
pub fn fault_words(f: &Fault) -> String {
    match f {
        Fault::Timeout => "did not answer in time".into(),
        Fault::Closed { .. } | Fault::InputClosed { .. } => {
            "ended (crashed or exited) during the game".into()
        }
        Fault::Malformed(l) => format!("answered {l:?}, which the protocol does not allow here"),
        Fault::OutOfTurn(l) => format!("wrote {l:?} when no answer was expected"),
        Fault::Protocol(why) => why.clone(),
    }
}
