//! arbiter's line protocol for the 2048 duel (see `docs/protocols.md`):
//! `START s R`, `RANDOM v...` -> `OK`; `OPPONENT d`; `PLACE r t o` -> `ROW COL`;
//! `SLIDE r t o` -> direction (t, o: own and opponent's remaining ms); `SKIP r`; `END f`;
//! `DEBUG msg` from the bot at any time.

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::duel2048::{Direction, Move};
use arbiter_engine::error::StepKind;
use arbiter_engine::Game;

use super::wire::{debug_lines as classify, Line};
use super::{Ask, Fault, Protocol, Reply, Standing, Start, Wire};

#[derive(Default)]
pub struct Duel;

fn direction_word(d: Direction) -> &'static str {
    match d {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

/// The protocol's words for a decision.
pub fn wire_text(mv: Move) -> String {
    match mv {
        Move::Place { row, col } => format!("{row} {col}"),
        Move::Slide(d) => direction_word(d).to_string(),
        Move::Skip => "skip".to_string(),
    }
}

pub fn parse(line: &str, step: StepKind) -> Option<Move> {
    let t = line.trim();
    match step {
        StepKind::Place => {
            let mut it = t
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|s| !s.is_empty());
            let row = it.next()?.parse::<u8>().ok()?;
            let col = it.next()?.parse::<u8>().ok()?;
            if it.next().is_some() {
                return None;
            }
            Some(Move::Place { row, col })
        }
        StepKind::Slide => {
            let d = match t.to_ascii_lowercase().as_str() {
                "up" | "0" => Direction::Up,
                "down" | "1" => Direction::Down,
                "left" | "2" => Direction::Left,
                "right" | "3" => Direction::Right,
                _ => return None,
            };
            Some(Move::Slide(d))
        }
    }
}

impl Protocol for Duel {
    fn lines(&self) -> fn(&str) -> Line<'_> {
        classify
    }

    fn start(&mut self, wire: &mut Wire, start: &Start<'_>) -> Result<(), Fault> {
        let AnyGame::Duel2048(g) = start.game else {
            return Err(Fault::Protocol(
                "the duel protocol plays the 2048 duel only".into(),
            ));
        };
        let rounds = g.config().rounds;
        wire.send(&format!("START {} {rounds}", start.seat.index()))?;
        let mut random = String::from("RANDOM");
        for v in g.sequence().iter().take(usize::from(rounds)) {
            random.push(' ');
            random.push_str(&v.to_string());
        }
        wire.send(&random)?;
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
            AnyMove::Duel2048(m) => wire.send(&format!("OPPONENT {}", wire_text(m))),
            _ => Ok(()),
        }
    }

    fn own_forced(&mut self, wire: &mut Wire, before: &AnyGame, _mv: AnyMove) -> Result<(), Fault> {
        wire.expect_quiet(classify)?;
        let AnyGame::Duel2048(g) = before else {
            return Ok(());
        };
        wire.send(&format!("SKIP {}", g.round()))
    }

    fn ask(&mut self, wire: &mut Wire, ask: &Ask<'_>) -> Result<Reply, Fault> {
        wire.expect_quiet(classify)?;
        let AnyGame::Duel2048(g) = ask.game else {
            return Err(Fault::Protocol(
                "the duel protocol plays the 2048 duel only".into(),
            ));
        };
        let step = g.step_kind();
        let verb = match step {
            StepKind::Place => "PLACE",
            StepKind::Slide => "SLIDE",
        };
        // Both clocks, as the original board carries both (`getTime(belong)` for either side).
        // Bots written for the two-field form read the first two fields and ignore the rest.
        let left = ask.time_left.map_or(0, |d| d.as_millis());
        let opponent = ask.opponent_time_left.map_or(0, |d| d.as_millis());
        wire.send(&format!("{verb} {} {left} {opponent}", g.round()))?;
        let line = wire.read_content(ask.deadline, classify)?;
        Ok(match parse(&line, step) {
            Some(m) => Reply::Move(AnyMove::Duel2048(m)),
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

    #[test]
    fn answers() {
        assert_eq!(
            parse("3 2", StepKind::Place),
            Some(Move::Place { row: 3, col: 2 })
        );
        assert_eq!(
            parse("3,2", StepKind::Place),
            Some(Move::Place { row: 3, col: 2 })
        );
        assert_eq!(
            parse("right", StepKind::Slide),
            Some(Move::Slide(Direction::Right))
        );
        assert_eq!(
            parse("0", StepKind::Slide),
            Some(Move::Slide(Direction::Up))
        );
        assert_eq!(parse("right", StepKind::Place), None);
        assert_eq!(parse("None", StepKind::Slide), None);
        assert_eq!(parse("3 2 1", StepKind::Place), None);
    }
}
