//! The protocol of a remote seat (a person in a browser, through the live hub). The hub follows
//! the game through its observer, so the seat is only asked for moves:
//!
//! - referee -> seat: `START s` (the seat, 0 or 1), `TURN ms` (your move; ms left before this
//!   move times out, -1 = unlimited), `END f` (0 draw, 1 won, 2 lost);
//! - seat -> referee: the move in the game's canonical notation (`d3`, `H8`, `1,3`, `left`).
//!
//! The hub checks a person's move through the engine before it gets here, so an illegal line
//! is a hub's fault, still judged like any other.

use std::time::Instant;

use arbiter_engine::any::{AnyGame, AnyMove};

use super::{Ask, Fault, Line, Protocol, Reply, Standing, Start, Wire};

#[derive(Default)]
pub struct Remote;

fn classify(line: &str) -> Line<'_> {
    let t = line.trim();
    if t.is_empty() {
        Line::Blank
    } else {
        Line::Content(t)
    }
}

impl Protocol for Remote {
    fn start(&mut self, wire: &mut Wire, start: &Start<'_>) -> Result<(), Fault> {
        wire.send(&format!("START {}", start.seat.index()))
    }

    fn opponent_moved(&mut self, _: &mut Wire, _: &AnyGame, _: AnyMove) -> Result<(), Fault> {
        Ok(())
    }

    fn lines(&self) -> fn(&str) -> Line<'_> {
        classify
    }

    fn own_forced(&mut self, _: &mut Wire, _: &AnyGame, _: AnyMove) -> Result<(), Fault> {
        Ok(())
    }

    fn ask(&mut self, wire: &mut Wire, ask: &Ask<'_>) -> Result<Reply, Fault> {
        let left = ask.deadline.saturating_duration_since(Instant::now());
        let ms = if left.as_secs() > 30 * 24 * 3600 {
            -1
        } else {
            left.as_millis() as i64
        };
        wire.send(&format!("TURN {ms}"))?;
        let line = wire.read_content(ask.deadline, classify)?;
        Ok(match ask.game.parse_move(&line) {
            Ok(mv) => Reply::Move(mv),
            Err(_) => Reply::Malformed(line),
        })
    }

    fn end(&mut self, wire: &mut Wire, standing: Standing) {
        wire.send_quietly(&format!("END {}", standing.code()));
    }
}
