//! The game kit's line protocol, for any module game (docs/game-kit.md), in seed 001's manner;
//! seats are numbered from 1 (first):
//! - `START s name` -> `OK` (`START s name n` in a game of n seats other than two), then
//!   `PLAYED` lines for an opening's plies, if any;
//! - `PLAYED s move`: a move the bot did not choose (another seat's, or its own forced one),
//!   as the module reveals it to this seat (a hidden move is told another way, or not at all);
//!   after a simultaneous turn, one line per other mover;
//! - on its turn: `POSITION k` and the k lines the module tells this seat, `LEGAL m1 m2 ...`,
//!   then `TURN` -> one move in the game's notation; in a simultaneous turn every mover is
//!   asked at once, none told anything of the others' choices until all have answered;
//! - `END f`: in a two-seat game 0 draw, 1 won, 2 lost; with more seats the place (1 first),
//!   0 for a game with no result. `DEBUG text` from the bot at any time is logged.

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::Seat;

use super::wire::{debug_lines as classify, Line};
use super::{Ask, Fault, News, Protocol, Reply, Standing, Start, Wire};

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
        let seats = start.game.seats();
        let line = match seats {
            2 => format!("START {} {name}", seat_number(start.seat)),
            n => format!("START {} {name} {n}", seat_number(start.seat)),
        };
        wire.send(&line)?;
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

    fn moved(&mut self, wire: &mut Wire, me: Seat, news: &News<'_>) -> Result<(), Fault> {
        wire.expect_quiet(classify)?;
        for (i, (by, _)) in news.moves.iter().enumerate() {
            let forced = news.forced.get(i).copied().unwrap_or(false);
            if *by == me && !forced {
                continue;
            }
            if let Some(Some(told)) = news.told.get(i) {
                wire.send(&format!("PLAYED {} {told}", seat_number(*by)))?;
            }
        }
        Ok(())
    }

    fn ask(&mut self, wire: &mut Wire, ask: &Ask<'_>) -> Result<Reply, Fault> {
        wire.expect_quiet(classify)?;
        let game = ask.game;
        let seat = ask.seat;
        let told = game.as_module().map(|m| m.tell(seat)).unwrap_or_default();
        let lines: Vec<&str> = told.lines().collect();
        wire.send(&format!("POSITION {}", lines.len()))?;
        for l in lines {
            wire.send(l)?;
        }
        let legal: Vec<String> = game
            .legal_moves_of(seat)
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
        let seat = g.to_move().unwrap_or(Seat::FIRST);
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
    let seat = before.to_move().unwrap_or(Seat::FIRST);
    wire.send(&format!(
        "PLAYED {} {}",
        seat_number(seat),
        before.format_move(mv)
    ))
}
