//! The game kit's line protocol, for any module game (docs/game-kit.md), in seed 001's manner;
//! seats are numbered 1 (first) and 2 (second):
//! - `START s name` -> `OK`, then `PLAYED` lines for an opening's plies, if any;
//! - `PLAYED s move`: a ply the bot did not choose (the opponent's, or its own forced one);
//! - on its turn: `POSITION k` and the k lines the module tells this seat, `LEGAL m1 m2 ...`,
//!   then `TURN` -> one move in the game's notation;
//! - `END f` (0 draw, 1 won, 2 lost); `DEBUG text` from the bot at any time is logged.

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::Seat;

use super::wire::{debug_lines as classify, Line};
use super::{Ask, Fault, Protocol, Reply, Standing, Start, Wire};

#[derive(Default)]
pub struct Kit;

fn seat_number(seat: Seat) -> usize {
    seat.index() + 1
}

impl Protocol for Kit {
    fn lines(&self) -> fn(&str) -> Line<'_> {
        classify
    }

    fn start(&mut self, wire: &mut Wire, start: &Start<'_>) -> Result<(), Fault> {
        let name = start.game.config().title().to_string();
        wire.send(&format!("START {} {name}", seat_number(start.seat)))?;
        let line = wire.read_content(start.deadline, classify)?;
        if line.trim() != "OK" {
            return Err(Fault::Malformed(line));
        }
        tell_opening(wire, start)
    }

    fn opponent_moved(
        &mut self,
        wire: &mut Wire,
        before: &AnyGame,
        mv: AnyMove,
    ) -> Result<(), Fault> {
        played(wire, before, mv)
    }

    fn own_forced(&mut self, wire: &mut Wire, before: &AnyGame, mv: AnyMove) -> Result<(), Fault> {
        played(wire, before, mv)
    }

    fn ask(&mut self, wire: &mut Wire, ask: &Ask<'_>) -> Result<Reply, Fault> {
        wire.expect_quiet(classify)?;
        let game = ask.game;
        let seat = game.to_move().unwrap_or(Seat::First);
        let told = game.as_module().map(|m| m.tell(seat)).unwrap_or_default();
        let lines: Vec<&str> = told.lines().collect();
        wire.send(&format!("POSITION {}", lines.len()))?;
        for l in lines {
            wire.send(l)?;
        }
        let legal: Vec<String> = game
            .legal_moves()
            .into_iter()
            .map(|m| game.format_move(m))
            .collect();
        wire.send(&format!("LEGAL {}", legal.join(" ")))?;
        wire.send("TURN")?;
        let line = wire.read_content(ask.deadline, classify)?;
        Ok(match game.parse_move(line.trim()) {
            Ok(m) => Reply::Move(m),
            Err(_) => Reply::Malformed(line),
        })
    }

    fn end(&mut self, wire: &mut Wire, standing: Standing) {
        wire.send_quietly(&format!("END {}", standing.code()));
    }
}

/// The opening's plies, as `PLAYED` lines from the initial position: plies the bot did not
/// choose, like any other.
fn tell_opening(wire: &mut Wire, start: &Start<'_>) -> Result<(), Fault> {
    if start.opening.is_empty() {
        return Ok(());
    }
    let Ok(mut g) = AnyGame::new(&start.game.config()) else {
        return Ok(());
    };
    for mv in start.opening {
        let seat = g.to_move().unwrap_or(Seat::First);
        wire.send(&format!("PLAYED {} {mv}", seat_number(seat)))?;
        if g.play_text(mv).is_err() {
            break;
        }
    }
    Ok(())
}

/// `PLAYED s move`, the seat being the one that made the ply.
fn played(wire: &mut Wire, before: &AnyGame, mv: AnyMove) -> Result<(), Fault> {
    wire.expect_quiet(classify)?;
    let seat = before.to_move().unwrap_or(Seat::First);
    wire.send(&format!(
        "PLAYED {} {}",
        seat_number(seat),
        before.format_move(mv)
    ))
}
