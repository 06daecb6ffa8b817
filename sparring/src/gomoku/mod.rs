//! Gomoku move choice. What a stone makes on each line is read from a table that knows broken
//! shapes ([`shape`]); the board keeps that up to date move by move ([`board`]); the threats
//! come first ([`threats`]: make or block a five, make an open four, answer an open three, and
//! a victory by continuous fours), then an alpha-beta search over the most promising points
//! ([`search`]) by iterative deepening.
//!
//! Renju is the engine's business: the bot only plays a point the engine accepts, and as
//! black one that neither renju reading forbids ([`allowed`]): through the Gomocup protocol the
//! bot only hears "renju" (`INFO rule 4`), not which reading the referee applies. The search
//! itself reads forbidden points the simple way (see [`board`]).

mod board;
mod search;
mod shape;
mod threats;

use arbiter_engine::gomoku::{Gomoku, Point, Rule};
use arbiter_engine::{Game, Seat};

use super::Rng;
use crate::clock::Deadline;
use board::Board;
use search::{order_score, Caps, Search, WIN};
use threats::{vcf, Budget, Threats};

/// What a level may do on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Plies of the deepening's last iteration.
    pub depth: u32,
    /// Points searched at each node.
    pub width: usize,
    /// Positions visited per move at most.
    pub nodes: u64,
    /// Fours of the victory by continuous fours looked for before the search (0: none).
    pub vcf: u32,
    /// The same at the search's leaves.
    pub leaf_vcf: u32,
    /// Points fewer per ply below the root (0: `width` throughout).
    pub taper: usize,
    /// Whether a point where the opponent makes a four and an open three is answered like an
    /// open three (searched, not evaluated).
    pub answer_four_three: bool,
}

impl Level {
    /// Level `n` of `builtin:N`: 1 looks one move ahead (threats included), 2 to 4 search `n`
    /// plies and look further for wins by fours (4 over fewer points the deeper it goes), 5
    /// searches 6 plies so and answers a coming four-three as it would an open three; above 5
    /// the depth grows alone.
    pub fn of(n: u32) -> Level {
        let (width, nodes, vcf, leaf_vcf) = match n {
            0 | 1 => (12, 1_000, 0, 0),
            2 => (10, 20_000, 0, 0),
            3 => (10, 40_000, 4, 0),
            4 => (12, 80_000, 8, 0),
            _ => (12, 300_000, 12, 2),
        };
        let top = n >= 5;
        Level {
            depth: if top { n + 1 } else { n },
            width,
            nodes: nodes.max(u64::from(n.saturating_sub(5)) * 300_000),
            vcf,
            leaf_vcf,
            taper: if n >= 4 { 2 } else { 0 },
            answer_four_three: top,
        }
    }
}

/// Builds the shape tables (a few tens of milliseconds, once per process), so that the first
/// move does not pay for it: called when a game starts.
pub fn warm_up() {
    board::warm_up();
}

/// Whether `seat` may play `p` in `game`. Under renju black keeps off the points that either
/// reading forbids (RIF's and the Gomocup judge's): through the Gomocup protocol the bot only
/// hears "renju" (`INFO rule 4`), not which reading the referee applies.
pub(crate) fn allowed(game: &Gomoku, seat: Seat, p: Point) -> bool {
    seat != Seat::FIRST
        || !game.rule().is_renju()
        || [Rule::Renju, Rule::RenjuGomocup]
            .into_iter()
            .all(|rule| game.forbidden_kind_under(p, rule).is_none())
}

/// The point for the side to move: random at depth 0, chosen by the level's search otherwise.
/// `None` when the game is over.
pub fn choose(game: &Gomoku, depth: u32, rng: &mut Rng) -> Option<Point> {
    choose_within(game, Level::of(depth), rng, &Deadline::none())
}

/// [`choose`] at `level`, stopping at `deadline` at the latest.
pub fn choose_within(
    game: &Gomoku,
    level: Level,
    rng: &mut Rng,
    deadline: &Deadline,
) -> Option<Point> {
    let me = game.to_move()?;
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    // Points safe under both renju readings, unless there are none.
    let safe: Vec<Point> = legal
        .iter()
        .copied()
        .filter(|&p| allowed(game, me, p))
        .collect();
    if !safe.is_empty() {
        legal = safe;
    }
    if level.depth == 0 {
        return rng.pick(&legal);
    }
    let board = Board::of(game);
    if board.stones() == 0 {
        let c = game.size() / 2;
        if legal.contains(&Point::new(c, c)) {
            return Some(Point::new(c, c));
        }
    }
    let ok = |i: usize| board.is_empty(i) && allowed(game, me, board.point(i));
    let choice = forced(&board, me, level, deadline, &ok)
        .or_else(|| searched(board.clone(), me, level, rng, deadline, &ok));
    choice.map(|i| board.point(i)).or_else(|| rng.pick(&legal))
}

/// A move the threats decide: our five, the one block of the opponent's five, our open four,
/// our victory by continuous fours.
fn forced(
    board: &Board,
    me: Seat,
    level: Level,
    deadline: &Deadline,
    ok: &dyn Fn(usize) -> bool,
) -> Option<usize> {
    let t = Threats::read(board, me);
    let fives = board
        .near_points()
        .filter(|&i| board.is_candidate(i) && board.info(i, me).class == board::Class::Five);
    if let Some(p) = fives.into_iter().find(|&i| ok(i)) {
        return Some(p);
    }
    if !t.must_block.is_empty() {
        // One block saves the game; with two or more we lose anyway and block one.
        return t.must_block.iter().copied().find(|&i| ok(i));
    }
    if let Some(p) = t.open_four.filter(|&i| ok(i)) {
        return Some(p);
    }
    if level.vcf > 0 {
        let mut scratch = board.clone();
        let mut budget = Budget::new(vcf_budget(level), deadline);
        if let Some(p) = vcf(&mut scratch, me, level.vcf, &mut budget).filter(|&i| ok(i)) {
            return Some(p);
        }
    }
    None
}

/// Positions the look for a victory by fours before the search may visit: a quarter of the
/// level's work (the search gets the rest).
fn vcf_budget(level: Level) -> u64 {
    level.nodes / 4
}

/// The level's search: iterative deepening over the root's points (ties in random order).
fn searched(
    board: Board,
    me: Seat,
    level: Level,
    rng: &mut Rng,
    deadline: &Deadline,
    ok: &dyn Fn(usize) -> bool,
) -> Option<usize> {
    let caps = Caps {
        width: level.width,
        nodes: level.nodes - if level.vcf > 0 { vcf_budget(level) } else { 0 },
        leaf_vcf: level.leaf_vcf,
        taper: level.taper,
        answer_four_three: level.answer_four_three,
    };
    let mut search = Search::new(board, caps, deadline);
    let t = Threats::read(&search.board, me);
    let mut moves: Vec<usize> = search
        .moves(me, &t)
        .into_iter()
        .filter(|&i| ok(i))
        .collect();
    // Every allowed point (anywhere, if none is near the stones), for when the best few lose.
    let mut rest: Vec<usize> = search
        .board
        .near_points()
        .filter(|&i| search.board.is_candidate(i) && ok(i) && !moves.contains(&i))
        .collect();
    if moves.is_empty() && rest.is_empty() {
        rest = (0..search.board.points()).filter(|&i| ok(i)).collect();
    }
    shuffle_ties(&search.board, me, &mut moves, rng);
    let mut best = moves.first().copied();
    let mut d = 1;
    while d <= level.depth {
        if d > 1 && !search.may_deepen() {
            break;
        }
        let Some(values) = search.root(me, &moves, d) else {
            break;
        };
        best = values.first().map(|&(_, p)| p);
        moves = values.iter().map(|&(_, p)| p).collect();
        let top = values.first().map_or(0, |&(v, _)| v);
        if top <= -WIN / 2 && !rest.is_empty() {
            // Every point searched loses: the defence may be among the others.
            moves.append(&mut rest);
            continue;
        }
        // A win found, or a loss that no move avoids: deeper will not change it.
        if top.abs() >= WIN / 2 {
            break;
        }
        d += 1;
    }
    best
}

/// Equal candidates in random order (the order decides between equal values).
fn shuffle_ties(board: &Board, me: Seat, moves: &mut [usize], rng: &mut Rng) {
    let score = |p: usize| order_score(board, p, me);
    for i in (1..moves.len()).rev() {
        let j = rng.below(i + 1);
        if score(moves[i]) == score(moves[j]) {
            moves.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::gomoku::Config;

    fn replay(moves: &[(u8, u8)]) -> Gomoku {
        let config = Config {
            size: 15,
            rule: Rule::Freestyle,
        };
        let mut g = Gomoku::new(&config).expect("config");
        for &(x, y) in moves {
            g.play(Point::new(x, y)).expect("legal");
        }
        g
    }

    /// Black's first moves of a victory by continuous fours: each four that, once blocked,
    /// leaves a victory by fours within `depth` more.
    fn winning_fours(g: &Gomoku, depth: u32) -> Vec<Point> {
        let none = Deadline::none();
        let board = Board::of(g);
        let t = Threats::read(&board, Seat::FIRST);
        assert!(t.five.is_none() && t.open_four.is_none() && t.must_block.is_empty());
        let mut wins = Vec::new();
        for p in t.fours {
            let mut b = board.clone();
            b.place(p, Seat::FIRST);
            let block = b
                .near_points()
                .find(|&i| b.is_candidate(i) && b.info(i, Seat::FIRST).class == board::Class::Five);
            b.place(block.expect("a four has its five point"), Seat::SECOND);
            if vcf(&mut b, Seat::FIRST, depth, &mut Budget::new(1 << 20, &none)).is_some() {
                wins.push(board.point(p));
            }
        }
        wins
    }

    /// Positions found by random play (black to move), each with a victory by fours of the
    /// given length that no shorter look finds.
    const FOUR_FOURS: [(u8, u8); 18] = [
        (3, 6),
        (5, 5),
        (6, 10),
        (7, 4),
        (4, 8),
        (5, 7),
        (9, 11),
        (6, 11),
        (4, 9),
        (11, 5),
        (10, 6),
        (8, 4),
        (8, 5),
        (8, 7),
        (5, 6),
        (10, 9),
        (7, 9),
        (5, 3),
    ];
    const FIVE_FOURS: [(u8, u8); 18] = [
        (5, 11),
        (11, 11),
        (5, 5),
        (9, 5),
        (10, 5),
        (6, 8),
        (7, 5),
        (11, 4),
        (8, 3),
        (4, 3),
        (10, 8),
        (11, 9),
        (9, 6),
        (5, 4),
        (9, 7),
        (3, 11),
        (8, 7),
        (4, 8),
    ];

    #[test]
    fn the_level_above_finds_a_win_by_fours_that_the_level_below_misses() {
        // Level 3 looks 4 fours ahead before its search, level 4 eight; level 2 only sees the
        // fours its two-ply search extends.
        for (moves, below) in [(&FOUR_FOURS, 2), (&FIVE_FOURS, 3)] {
            let g = replay(moves);
            let wins = winning_fours(&g, 8);
            assert!(!wins.is_empty());
            for seed in 0..4 {
                let above = choose(&g, below + 1, &mut Rng::new(seed)).expect("a move");
                assert!(
                    wins.contains(&above),
                    "level {} played {above:?}",
                    below + 1
                );
                let p = choose(&g, below, &mut Rng::new(seed)).expect("a move");
                assert!(!wins.contains(&p), "level {below} found {p:?}: not a test");
            }
        }
    }
}
