//! One turn: every living snake steps at once, then the deaths, then the food.

use std::collections::VecDeque;

use arbiter_game::Seat;

use crate::board::{Cell, Dir};

/// Why a snake is out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cause {
    /// Its head left the grid.
    Wall,
    /// Its head met another's head on one cell (every snake there dies).
    HeadOn,
    /// Its head entered a snake's body, its own included, as the bodies stand after the step.
    Body,
    /// Its bot failed ([`arbiter_game::Game::retire`]).
    Retired,
}

impl Cause {
    pub fn word(self) -> &'static str {
        match self {
            Cause::Wall => "wall",
            Cause::HeadOn => "head-on",
            Cause::Body => "body",
            Cause::Retired => "retired",
        }
    }
}

/// A snake out of the game: the turn it died in (from 1) and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Fate {
    pub turn: u32,
    pub cause: Cause,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Snake {
    /// Head first; empty once the snake is out (its cells are free again).
    pub body: VecDeque<Cell>,
    /// The food eaten (OpenSpiel's score): the snake is one cell longer for each.
    pub fruits: u32,
    /// `None` while it lives.
    pub fate: Option<Fate>,
}

impl Snake {
    pub fn new(at: Cell) -> Snake {
        Snake {
            body: VecDeque::from([at]),
            fruits: 0,
            fate: None,
        }
    }

    pub fn alive(&self) -> bool {
        self.fate.is_none()
    }

    /// Its length, alive or at its death: one cell to start with and one more a fruit.
    pub fn length(&self) -> u32 {
        1 + self.fruits
    }

    pub fn head(&self) -> Option<Cell> {
        self.body.front().copied()
    }
}

/// Plays turn `turn` (from 1): each listed snake steps its way. In order, as OpenSpiel's: a
/// head off the grid dies; heads that meet on a cell all die; the others move (a snake whose
/// head reaches the food keeps its tail: it grows by one); then a head on any cell of the
/// bodies as they now stand (its own neck and tail included, another's head excluded: heads
/// that met are dead already) dies, every snake judged against the same bodies; the dead are
/// taken off the grid. Answers the seat that ate the food, if one did and lived.
pub fn resolve(
    snakes: &mut [Snake],
    moves: &[(Seat, Dir)],
    food: Option<Cell>,
    (cols, rows): (usize, usize),
    turn: u32,
) -> Option<Seat> {
    let mut heads: Vec<Option<Cell>> = vec![None; snakes.len()];
    for &(s, dir) in moves {
        heads[s] = snakes[s].head().map(|h| h.step(dir));
    }
    let mut dies: Vec<Option<Cause>> = heads
        .iter()
        .map(|h| h.filter(|h| !h.inside(cols, rows)).map(|_| Cause::Wall))
        .collect();
    for s in meetings(&heads, &dies) {
        dies[s] = Some(Cause::HeadOn);
    }
    let bodies = moved_bodies(snakes, &heads, &dies, food);
    for s in bitten(&bodies) {
        dies[s] = Some(Cause::Body);
    }
    let mut eater = None;
    for (s, body) in bodies.into_iter().enumerate() {
        match (dies[s], body) {
            (Some(cause), _) => {
                snakes[s].fate = Some(Fate { turn, cause });
                snakes[s].body.clear();
            }
            (None, Some(body)) => {
                if body.front().copied() == food {
                    snakes[s].fruits += 1;
                    eater = Some(s);
                }
                snakes[s].body = body;
            }
            (None, None) => {}
        }
    }
    eater
}

/// The snakes still standing whose new heads share a cell.
fn meetings(heads: &[Option<Cell>], dies: &[Option<Cause>]) -> Vec<Seat> {
    let standing = |s: usize| heads[s].filter(|_| dies[s].is_none());
    (0..heads.len())
        .filter(|&s| {
            standing(s).is_some() && (0..heads.len()).any(|t| t != s && standing(t) == standing(s))
        })
        .collect()
}

/// The bodies after the step of the snakes still standing (head first): the head pushed on,
/// the tail taken off unless the head is on the food.
fn moved_bodies(
    snakes: &[Snake],
    heads: &[Option<Cell>],
    dies: &[Option<Cause>],
    food: Option<Cell>,
) -> Vec<Option<VecDeque<Cell>>> {
    (0..snakes.len())
        .map(|s| {
            let head = heads[s].filter(|_| dies[s].is_none())?;
            let mut body = snakes[s].body.clone();
            body.push_front(head);
            if Some(head) != food {
                body.pop_back();
            }
            Some(body)
        })
        .collect()
}

/// The snakes whose head is on a cell of one of `bodies` (its own head aside), all judged
/// against the same bodies.
fn bitten(bodies: &[Option<VecDeque<Cell>>]) -> Vec<Seat> {
    let cells = |t: usize, skip: usize| bodies[t].iter().flat_map(move |b| b.iter().skip(skip));
    (0..bodies.len())
        .filter(|&s| {
            let Some(head) = bodies[s].as_ref().and_then(|b| b.front().copied()) else {
                return false;
            };
            (0..bodies.len()).any(|t| cells(t, usize::from(t == s)).any(|&c| c == head))
        })
        .collect()
}
