//! Seed 003's bridge protocol: the bot says `READY`, is told `BLACK` or `WHITE`, then moves go
//! both ways as `MOVE H8` (column letter, row 1 at the bottom). Black answers `BLACK` with its
//! first move. `DEBUG msg` lines are an arbiter extension.

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::Seat;

use super::wire::Line;
use super::{Ask, Fault, Protocol, Reply, Standing, Start, Wire};

#[derive(Default)]
pub struct Gobang {
    seat: Option<Seat>,
    /// The opponent's last move, sent with the next request.
    pending: Option<String>,
    /// Black learns its colour with its first request, so its clock starts there.
    told_colour: bool,
}

fn classify(line: &str) -> Line<'_> {
    let t = line.trim();
    if t.is_empty() {
        Line::Blank
    } else if let Some(msg) = t.strip_prefix("DEBUG") {
        Line::Log(msg.trim_start())
    } else {
        Line::Content(t)
    }
}

impl Protocol for Gobang {
    fn lines(&self) -> fn(&str) -> Line<'_> {
        classify
    }

    fn start(&mut self, wire: &mut Wire, start: &Start<'_>) -> Result<(), Fault> {
        self.seat = Some(start.seat);
        let line = wire.read_content(start.deadline, classify)?;
        if line != "READY" {
            return Err(Fault::Malformed(line));
        }
        if start.seat == Seat::SECOND {
            wire.send("WHITE")?;
            self.told_colour = true;
        }
        Ok(())
    }

    fn opponent_moved(
        &mut self,
        wire: &mut Wire,
        before: &AnyGame,
        mv: AnyMove,
    ) -> Result<(), Fault> {
        wire.expect_quiet(classify)?;
        self.pending = Some(before.format_move(mv));
        Ok(())
    }

    fn ask(&mut self, wire: &mut Wire, ask: &Ask<'_>) -> Result<Reply, Fault> {
        wire.expect_quiet(classify)?;
        if !self.told_colour {
            wire.send("BLACK")?;
            self.told_colour = true;
        }
        if let Some(m) = self.pending.take() {
            wire.send(&format!("MOVE {m}"))?;
        }
        let line = wire.read_content(ask.deadline, classify)?;
        let Some(text) = line.strip_prefix("MOVE") else {
            return Ok(Reply::Malformed(line));
        };
        let text = text.trim();
        // Only the letter-number form: `MOVE(r,c)` and Gomocup's `x,y` are other protocols.
        let letter_form = text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && text[1..].chars().all(|c| c.is_ascii_digit())
            && text.len() > 1;
        if !letter_form {
            return Ok(Reply::Malformed(line));
        }
        Ok(match ask.game.parse_move(text) {
            Ok(mv) => Reply::Move(mv),
            Err(_) => Reply::Malformed(line),
        })
    }

    fn end(&mut self, _wire: &mut Wire, _standing: Standing) {
        // The protocol has no end command: the bot is stopped.
    }
}
