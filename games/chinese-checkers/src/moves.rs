//! Where a piece can go: a step to an empty neighbour, or a chain of jumps, each over one
//! piece (anyone's) in a straight line into the empty hole just beyond, never landing twice on
//! the same hole (its start included). The chain may stop after any jump, so every hole the
//! chain can reach is a destination of its own. Two chains to the same hole leave the same
//! position (nothing is captured), so they are one move: a move is its start and its end.

use crate::board::{CELLS, NONE, STAR};

/// An empty hole.
pub const EMPTY: u8 = u8::MAX;

/// One turn's move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Move {
    /// A piece from one hole to another, by a step or a chain of jumps.
    Go { from: u8, to: u8 },
    /// The turn of a seat none of whose pieces can move.
    Pass,
}

/// The holes as a set of bits (121 fit in 128).
pub type Holes = u128;

pub fn bit(cell: u8) -> Holes {
    1u128 << cell
}

/// What a chain of jumps from one hole reaches.
pub struct Reach {
    /// Every hole some chain ends on.
    pub landings: Holes,
    /// For each landing, the hole its shortest chain jumped from.
    pub previous: [u8; CELLS],
}

/// The chains from `start` with the piece at `lifted` taken off the board (the moving piece:
/// a chain cannot jump over where it stands, whether it stands at the start or, to redraw a
/// move already made, at its end). Breadth first, so that [`Reach::previous`] gives shortest
/// chains.
pub fn jumps(board: &[u8; CELLS], start: u8, lifted: u8) -> Reach {
    let occupied = |c: u8| c != lifted && board[usize::from(c)] != EMPTY;
    let mut reach = Reach {
        landings: 0,
        previous: [NONE; CELLS],
    };
    let mut seen = bit(start);
    let mut queue = [0u8; CELLS];
    let (mut head, mut tail) = (0, 1);
    queue[0] = start;
    while head < tail {
        let at = queue[head];
        head += 1;
        let (steps, landings) = (&STAR.step[usize::from(at)], &STAR.jump[usize::from(at)]);
        for (&over, &land) in steps.iter().zip(landings) {
            if land == NONE || !occupied(over) || occupied(land) || seen & bit(land) != 0 {
                continue;
            }
            seen |= bit(land);
            reach.landings |= bit(land);
            reach.previous[usize::from(land)] = at;
            queue[tail] = land;
            tail += 1;
        }
    }
    reach
}

/// The empty neighbours of `from`.
pub fn steps(board: &[u8; CELLS], from: u8) -> Holes {
    STAR.step[usize::from(from)]
        .iter()
        .filter(|&&n| n != NONE && board[usize::from(n)] == EMPTY)
        .fold(0, |set, &n| set | bit(n))
}

/// Every hole the piece at `from` can move to.
pub fn destinations(board: &[u8; CELLS], from: u8) -> Holes {
    steps(board, from) | jumps(board, from, from).landings
}

/// Appends `seat`'s moves, by start then end hole; the pass alone when it has none.
pub fn legal(board: &[u8; CELLS], seat: u8, out: &mut Vec<Move>) {
    let before = out.len();
    for from in 0..CELLS as u8 {
        if board[usize::from(from)] != seat {
            continue;
        }
        let mut to = destinations(board, from);
        while to != 0 {
            let cell = to.trailing_zeros() as u8;
            out.push(Move::Go { from, to: cell });
            to &= to - 1;
        }
    }
    if out.len() == before {
        out.push(Move::Pass);
    }
}

/// Whether `seat` has a move other than the pass.
pub fn can_move(board: &[u8; CELLS], seat: u8) -> bool {
    (0..CELLS as u8).any(|c| board[usize::from(c)] == seat && destinations(board, c) != 0)
}

/// The holes a move made went through, start to end: the shortest chain of jumps (or the one
/// step) on `board`, the position after the move.
pub fn path_after(board: &[u8; CELLS], from: u8, to: u8) -> Vec<u8> {
    if STAR.step[usize::from(from)].contains(&to) {
        return vec![from, to];
    }
    let reach = jumps(board, from, to);
    let mut path = vec![to];
    let mut at = to;
    // Each landing's previous hole is nearer the start: at most CELLS of them.
    while at != from && path.len() <= CELLS {
        at = reach.previous[usize::from(at)];
        if at == NONE {
            break;
        }
        path.push(at);
    }
    path.reverse();
    path
}

/// Whether `to` is one jump from `from`: two holes away in a straight line over an occupied
/// hole (the piece at `lifted` does not count), into an empty one (or `lifted` itself).
pub fn is_jump(board: &[u8; CELLS], from: u8, to: u8, lifted: u8) -> bool {
    let occupied = |c: u8| c != lifted && board[usize::from(c)] != EMPTY;
    (0..6).any(|d| {
        let (over, land) = (
            STAR.step[usize::from(from)][d],
            STAR.jump[usize::from(from)][d],
        );
        land == to && land != NONE && occupied(over) && !occupied(land)
    })
}
