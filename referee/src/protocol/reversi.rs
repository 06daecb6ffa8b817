//! Seed 001's brain protocol: `START 1|2` -> `OK`; `PLACE r c`; `TURN` -> `r c`; `END f`;
//! `DEBUG msg` from the bot at any time.

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::reversi::Move;
use arbiter_engine::Seat;

use super::wire::{debug_lines as classify, Line};
use super::{Ask, Fault, Protocol, Reply, Standing, Start, Wire};

#[derive(Default)]
pub struct Reversi;

/// `r c`: two 0-based numbers separated by whitespace.
fn parse(line: &str) -> Option<Move> {
    let mut it = line.split_whitespace();
    let row = it.next()?.parse::<u8>().ok()?;
    let col = it.next()?.parse::<u8>().ok()?;
    if it.next().is_some() {
        return None;
    }
    Some(Move::Place { row, col })
}

impl Protocol for Reversi {
    fn lines(&self) -> fn(&str) -> Line<'_> {
        classify
    }

    fn start(&mut self, wire: &mut Wire, start: &Start<'_>) -> Result<(), Fault> {
        let field = match start.seat {
            Seat::First => 1,
            Seat::Second => 2,
        };
        wire.send(&format!("START {field}"))?;
        let line = wire.read_content(start.deadline, classify)?;
        if line != "OK" {
            return Err(Fault::Malformed(line));
        }
        Ok(())
    }

    fn opponent_moved(
        &mut self,
        wire: &mut Wire,
        _before: &AnyGame,
        mv: AnyMove,
    ) -> Result<(), Fault> {
        wire.expect_quiet(classify)?;
        match mv {
            AnyMove::Reversi(Move::Place { row, col }) => wire.send(&format!("PLACE {row} {col}")),
            // The opponent's pass is not announced: the bot sees its own next TURN or PLACE.
            _ => Ok(()),
        }
    }

    fn ask(&mut self, wire: &mut Wire, ask: &Ask<'_>) -> Result<Reply, Fault> {
        wire.expect_quiet(classify)?;
        wire.send("TURN")?;
        let line = wire.read_content(ask.deadline, classify)?;
        Ok(match parse(&line) {
            Some(m) => Reply::Move(AnyMove::Reversi(m)),
            None => Reply::Malformed(line),
        })
    }

    fn end(&mut self, wire: &mut Wire, standing: Standing) {
        wire.send_quietly(&format!("END {}", standing.code()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::wire::Line;

    #[test]
    fn answers() {
        assert_eq!(parse("2 3"), Some(Move::Place { row: 2, col: 3 }));
        assert_eq!(parse(" 15   0 "), Some(Move::Place { row: 15, col: 0 }));
        assert_eq!(parse("2,3"), None);
        assert_eq!(parse("2 3 4"), None);
        assert_eq!(parse("d3"), None);
        assert_eq!(parse("-1 3"), None);
        assert!(matches!(classify("DEBUG hello"), Line::Log("hello")));
        assert!(matches!(classify("  "), Line::Blank));
        assert!(matches!(classify("DEBUGGER"), Line::Content(_)));
    }
}
