//! Seed 001's brain protocol: `START 1|2` -> `OK`; `PLACE r c`; `TURN` -> `r c`; `END f`;
//! `DEBUG msg` from the bot at any time.
//!
//! `reversi-board` adds one line after the handshake, `BOARD n s cells`: the board size, the
//! side to move (1 black, 2 white) and the n x n cells row-major (0 empty, 1 black, 2 white).
//! Seed 001's protocol has no way to tell a bot about an opening; this is the smallest addition
//! that does, and it also tells the size, which seed 001 bots take from their command line.

use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::reversi::Move;
use arbiter_engine::Seat;

use super::wire::{debug_lines as classify, Line};
use super::{Ask, Fault, Protocol, Reply, Standing, Start, Wire};

#[derive(Default)]
pub struct Reversi {
    /// Whether the start position is sent (`reversi-board`).
    board: bool,
}

impl Reversi {
    /// The `reversi-board` variant.
    pub fn with_board() -> Reversi {
        Reversi { board: true }
    }
}

/// `BOARD n s cells` for a position (see the module docs).
pub fn board_line(game: &arbiter_engine::reversi::Reversi) -> String {
    let n = game.size();
    let code = |s: Option<Seat>| match s {
        None => '0',
        Some(Seat::FIRST) => '1',
        Some(_) => '2',
    };
    let cells: String = (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .map(|(r, c)| code(game.disc(r, c)))
        .collect();
    let to_move = match arbiter_engine::Game::to_move(game) {
        Some(Seat::SECOND) => 2,
        _ => 1,
    };
    format!("BOARD {n} {to_move} {cells}")
}

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

/// Reads the words after `BOARD` back into a position (for bots that speak `reversi-board`).
pub fn parse_board(words: &str) -> Result<arbiter_engine::reversi::Reversi, String> {
    let mut it = words.split_whitespace();
    let (Some(n), Some(to_move), Some(cells), None) = (it.next(), it.next(), it.next(), it.next())
    else {
        return Err(format!("BOARD wants `n s cells`, got {words:?}"));
    };
    let size: u8 = n
        .parse()
        .map_err(|_| format!("BOARD size is not a number: {n:?}"))?;
    let to_move = match to_move {
        "1" => Seat::FIRST,
        "2" => Seat::SECOND,
        other => return Err(format!("BOARD side to move must be 1 or 2, got {other:?}")),
    };
    let cells = cells
        .chars()
        .map(|c| match c {
            '0' => Ok(None),
            '1' => Ok(Some(Seat::FIRST)),
            '2' => Ok(Some(Seat::SECOND)),
            other => Err(format!("BOARD cell {other:?} is not 0, 1 or 2")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let config = arbiter_engine::reversi::Config { size };
    arbiter_engine::reversi::Reversi::from_cells(&config, &cells, to_move)
        .map_err(|e| format!("BOARD: {e}"))
}

impl Protocol for Reversi {
    fn lines(&self) -> fn(&str) -> Line<'_> {
        classify
    }

    fn start(&mut self, wire: &mut Wire, start: &Start<'_>) -> Result<(), Fault> {
        let field = start.seat.index() + 1;
        wire.send(&format!("START {field}"))?;
        let line = wire.read_content(start.deadline, classify)?;
        if line != "OK" {
            return Err(Fault::Malformed(line));
        }
        if self.board {
            if let AnyGame::Reversi(g) = start.game {
                wire.send(&board_line(g))?;
            }
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

    #[test]
    fn board_lines() {
        use arbiter_engine::reversi::{Config, Reversi as Position};
        use arbiter_engine::Game;
        let mut g = Position::new(&Config { size: 4 }).unwrap();
        assert_eq!(board_line(&g), "BOARD 4 1 0000021001200000");
        g.play(Move::Place { row: 0, col: 1 }).unwrap();
        assert_eq!(board_line(&g), "BOARD 4 2 0100011001200000");
        let back = parse_board("4 2 0100011001200000").unwrap();
        assert_eq!(board_line(&back), board_line(&g));
        assert!(parse_board("4 2 010").unwrap_err().contains("16 cells"));
        assert!(parse_board("4 3 0100011001200000").is_err());
        assert!(parse_board("4 1 01000110012000x0")
            .unwrap_err()
            .contains("'x'"));
        assert!(parse_board("5 1 0100011001200000").is_err());
        assert!(parse_board("").is_err());
    }
}
