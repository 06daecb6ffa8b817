//! Moves as text: `e13-e12` (the start hole and the end hole, whether a step or a chain of
//! jumps), `pass`. A chain may also be written through its landings (`e13-g13-g11`): each
//! must be one jump on the board as it stands, and the move is its first and last hole.

use crate::board::{CELLS, STAR};
use crate::moves::{bit, is_jump, Move};

/// Written as `from-to`.
pub fn format(mv: &Move) -> String {
    match *mv {
        Move::Go { from, to } => {
            let mut s = String::with_capacity(7);
            STAR.push_name(&mut s, from);
            s.push('-');
            STAR.push_name(&mut s, to);
            s
        }
        Move::Pass => "pass".into(),
    }
}

/// Reads a move on `board` (the position it is played in: a path's jumps are checked on it).
pub fn parse(board: &[u8; CELLS], text: &str) -> Result<Move, String> {
    if text == "pass" {
        return Ok(Move::Pass);
    }
    let mut holes = Vec::new();
    for part in text.split('-') {
        if holes.len() > CELLS {
            return Err("a chain lands on each hole at most once: this one is too long".into());
        }
        holes.push(STAR.parse(part)?);
    }
    match holes.as_slice() {
        [from, to] => Ok(Move::Go {
            from: *from,
            to: *to,
        }),
        [from, .., to] => check_chain(board, &holes).map(|()| Move::Go {
            from: *from,
            to: *to,
        }),
        _ => Err(format!(
            "{:?} is not a move: the start hole and the end hole, as e13-e12, or pass",
            arbiter_game::config::cut(text, 40)
        )),
    }
}

/// Why a written chain is not one, if it is not: each hole after the first one jump on from
/// the one before (the moving piece lifted), no hole twice.
fn check_chain(board: &[u8; CELLS], holes: &[u8]) -> Result<(), String> {
    let start = holes[0];
    let mut seen = bit(start);
    for pair in holes.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if seen & bit(b) != 0 {
            return Err(format!("the chain lands on {} twice", STAR.name(b)));
        }
        if !is_jump(board, a, b, start) {
            return Err(format!(
                "{} is not one jump from {}: a jump goes over one piece into the empty hole \
                 beyond",
                STAR.name(b),
                STAR.name(a)
            ));
        }
        seen |= bit(b);
    }
    Ok(())
}
