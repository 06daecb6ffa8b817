//! Threats on the board: what the side to move must do first ([`Threats`]: a five to make, a
//! five to block, an open four to make, an open three to answer), and victory by continuous
//! fours ([`vcf`]): a sequence of fours, each forcing the one block, that ends in a five or an
//! open four. Against a bot that sees one move ahead such a sequence is as good as a five.

use arbiter_engine::Seat;

use super::board::{Board, Class};
use crate::clock::Deadline;

/// The positions a look for a victory by fours may still visit, and its deadline.
pub struct Budget<'a> {
    pub left: u64,
    deadline: &'a Deadline,
}

impl<'a> Budget<'a> {
    pub fn new(left: u64, deadline: &'a Deadline) -> Budget<'a> {
        Budget { left, deadline }
    }

    /// Takes one position from the budget; `false` when it is spent or the time is up.
    fn spend(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        if self.left % 256 == 0 && self.deadline.expired() {
            self.left = 0;
        }
        true
    }
}

/// The side to move's situation, read from the candidate points.
#[derive(Debug, Default)]
pub struct Threats {
    /// A point where we make five.
    pub five: Option<usize>,
    /// Points where the opponent makes five (two or more: lost, unless we make five first).
    pub must_block: Vec<usize>,
    /// A point where we make an open four (or two fours).
    pub open_four: Option<usize>,
    /// Our points that make a four (forcing moves).
    pub fours: Vec<usize>,
    /// The opponent has an open three (a point that makes an open four).
    pub facing_three: bool,
    /// The opponent has a point that makes a four and an open three at once.
    pub facing_four_three: bool,
    /// The opponent's points that make a four or more: where an open three is answered.
    pub their_fours: Vec<usize>,
}

impl Threats {
    pub fn read(board: &Board, me: Seat) -> Threats {
        let mut t = Threats::default();
        for i in board.near_points() {
            if !board.is_candidate(i) {
                continue;
            }
            let mine = board.info(i, me).class;
            let theirs = board.info(i, me.other()).class;
            match mine {
                Class::Five => t.five = t.five.or(Some(i)),
                Class::OpenFour => t.open_four = t.open_four.or(Some(i)),
                Class::Four | Class::FourThree => t.fours.push(i),
                _ => {}
            }
            match theirs {
                Class::Five => t.must_block.push(i),
                Class::OpenFour => {
                    t.facing_three = true;
                    t.their_fours.push(i);
                }
                Class::FourThree => {
                    t.facing_four_three = true;
                    t.their_fours.push(i);
                }
                Class::Four => t.their_fours.push(i),
                _ => {}
            }
        }
        t
    }
}

/// A first move of a victory by continuous fours for `me` (to move) within `depth` of our
/// fours, `None` if none is found within the `budget`.
pub fn vcf(board: &mut Board, me: Seat, depth: u32, budget: &mut Budget<'_>) -> Option<usize> {
    if !budget.spend() {
        return None;
    }
    let no_fours = board.count(me, Class::Four) + board.count(me, Class::FourThree) == 0;
    if no_fours && board.count(me, Class::Five) == 0 && board.count(me, Class::OpenFour) == 0 {
        return None;
    }
    let t = Threats::read(board, me);
    if let Some(p) = t.five {
        return Some(p);
    }
    let moves = match t.must_block.as_slice() {
        [] => {
            if let Some(p) = t.open_four {
                return Some(p);
            }
            t.fours
        }
        // Our block must be a four itself to keep the initiative.
        [p] if t.fours.contains(p) => vec![*p],
        _ => return None,
    };
    if depth == 0 {
        return None;
    }
    let mut moves = moves;
    moves.sort_by_key(|&p| std::cmp::Reverse(board.info(p, me).score));
    for p in moves {
        board.place(p, me);
        let won = answer_and_go_on(board, me, depth, budget);
        board.undo();
        if won {
            return Some(p);
        }
    }
    None
}

/// After our four: the opponent blocks it where it must (losing if it may not, a forbidden
/// point under renju), and we look for the next four.
fn answer_and_go_on(board: &mut Board, me: Seat, depth: u32, budget: &mut Budget<'_>) -> bool {
    let Some(block) = board
        .near_points()
        .find(|&i| board.is_candidate(i) && board.info(i, me).class == Class::Five)
    else {
        return false;
    };
    if board.info(block, me.other()).class == Class::Forbidden {
        return true;
    }
    board.place(block, me.other());
    let won = vcf(board, me, depth - 1, budget).is_some();
    board.undo();
    won
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::gomoku::{Config, Gomoku, Point, Rule};
    use arbiter_engine::Game;

    fn board_of(black: &[(u8, u8)], white: &[(u8, u8)]) -> Board {
        let stones: Vec<(Point, Seat)> = black
            .iter()
            .map(|&(x, y)| (Point::new(x, y), Seat::FIRST))
            .chain(white.iter().map(|&(x, y)| (Point::new(x, y), Seat::SECOND)))
            .collect();
        let config = Config {
            size: 15,
            rule: Rule::Freestyle,
        };
        let g = Gomoku::from_stones(&config, &stones, Seat::FIRST).expect("position");
        assert!(g.outcome().is_none());
        Board::of(&g)
    }

    #[test]
    fn finds_a_win_that_starts_with_a_four() {
        // Black: a closed three on column 9 (white at 9,10) and two stones on the diagonal
        // through 9,6 (white at 5,2). 9,6 is a four and an open three at once: white must block
        // the four at 9,5, and the three becomes an open four.
        let black = [(7, 4), (8, 5), (9, 7), (9, 8), (9, 9)];
        let white = [(5, 2), (9, 10), (0, 0), (0, 14), (14, 0)];
        let mut b = board_of(&black, &white);
        let none = Deadline::none();
        let mut budget = Budget::new(10_000, &none);
        assert_eq!(
            vcf(&mut b, Seat::FIRST, 0, &mut budget),
            None,
            "not at once"
        );
        let p = vcf(&mut b, Seat::FIRST, 3, &mut budget).expect("a VCF");
        assert_eq!(b.point(p), Point::new(9, 6));
        // The search left the board as it found it.
        assert_eq!(b.hash, board_of(&black, &white).hash);
    }

    #[test]
    fn no_vcf_without_fours() {
        let mut b = board_of(&[(7, 7), (8, 8)], &[(0, 0), (14, 14)]);
        let none = Deadline::none();
        let mut budget = Budget::new(10_000, &none);
        assert_eq!(vcf(&mut b, Seat::FIRST, 8, &mut budget), None);
    }
}
