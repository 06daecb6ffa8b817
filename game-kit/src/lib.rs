//! arbiter-game: write a game's rules once, as a Rust type, and get a core-wasm module that
//! arbiter's referee, tools and player can run.
//!
//! - [`Game`]: the rules (start, turn, legal moves, play, outcome, notation, what each seat is
//!   told, the view).
//! - [`view`]: the declarative drawing vocabulary ([`View`]).
//! - [`abi`] and [`export_game!`]: the module's exports; the ABI is specified in
//!   `docs/game-kit.md` so that other languages (C with clang's wasm32 target) can implement it.
#![no_std]

extern crate alloc;

pub mod abi;
pub mod notation;
pub mod playout;
pub mod view;

use alloc::string::String;
use alloc::vec::Vec;

pub use serde_json::Value as Json;
pub use view::{Clicks, View};

/// A seat at the table: 0 moves first. An index rather than an enum so that games with more
/// than two seats fit the same interface later.
pub type Seat = usize;

/// The end of a game by its rules.
#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The winning seat, `None` for a draw.
    pub winner: Option<Seat>,
    /// Final score per seat, as shown to people.
    pub scores: Vec<i64>,
    /// Why the game ended, in words ("four in a row", "no move for second").
    pub reason: String,
}

impl Outcome {
    /// The end of a game won by making a line (`line`: "four in a row") and drawn when the
    /// board fills: `None` while neither has happened. Scores are 1 for the winner, else 0.
    pub fn line_or_full(winner: Option<Seat>, full: bool, line: &str) -> Option<Outcome> {
        let reason = match winner {
            Some(_) => line,
            None if full => "the board is full",
            None => return None,
        };
        Some(Outcome {
            winner,
            scores: win_scores(winner),
            reason: reason.into(),
        })
    }
}

/// 1 for the winning seat, 0 for the other (both 0 with no winner).
pub fn win_scores(winner: Option<Seat>) -> Vec<i64> {
    (0..2).map(|s| i64::from(winner == Some(s))).collect()
}

/// One game's rules. A value is a position; [`Game::play`] advances it.
///
/// Forced plies (a pass, a second stone that is not a choice) are moves like the others, so
/// that perft and replays count them; [`Game::forced_move`] names them so that a referee plays
/// them without asking a bot. An extra turn (Dots and Boxes) is simply the same seat again in
/// [`Game::to_move`].
pub trait Game: Clone + Sized {
    type Move: Clone + PartialEq + core::fmt::Debug;

    /// The module's name (`connect-four`); replays and the command line use it.
    const NAME: &'static str;
    /// The rules' version: bump it whenever a game's moves or results could change.
    const VERSION: &'static str;
    /// Seats at the table (2 in this version of the kit).
    const SEATS: usize = 2;

    /// The start position from a configuration (JSON, `{}` for the defaults) and a seed (where
    /// the game has chance, it draws from the seed only).
    fn new(config: &Json, seed: u64) -> Result<Self, String>;

    /// The seat that plays next, `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;

    /// The ply the side to move must make when it has no choice.
    fn forced_move(&self) -> Option<Self::Move> {
        None
    }

    /// Appends every legal ply to `out` (the forced one alone, when there is one).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays `mv` if legal; otherwise leaves the position as it was and says why not.
    fn play(&mut self, mv: &Self::Move) -> Result<(), String>;

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The running score per seat.
    fn scores(&self) -> Vec<i64>;

    /// Reads a move in the game's notation.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// Writes a move in the canonical notation; `parse_move` reads it back.
    fn format_move(&self, mv: &Self::Move) -> String;

    /// What `seat` is told about the position: the bot protocol's content. Hidden
    /// information stays hidden by leaving it out. One or more lines, no empty line.
    fn tell(&self, seat: Seat) -> String;

    /// The position as the player draws it.
    fn view(&self) -> View;

    /// A game with chance: draws the chance of every ply after the current one from `seed`
    /// instead. A search calls it on its copies (`clone` with a `seed`), so that it cannot
    /// see the game's own future dice; the roll the side to move already knows stays.
    /// Games without chance keep the default, which does nothing.
    fn reseed(&mut self, _seed: u64) {}

    /// How a person makes the legal move `mv` by clicking the board in the player, in the
    /// view's coordinates: the cells in order (Amazons' queen, target and arrow), or one line
    /// (Dots and Boxes' edge). `None` (the default) for every move: the player then offers the
    /// legal moves as a list. Two moves must not share the same clicks.
    fn clicks(&self, _mv: &Self::Move) -> Option<Clicks> {
        None
    }
}

/// A whole number from a game's config: `default` when `key` is absent, an error in words when
/// it is not a number in `range`.
pub fn config_number(
    config: &Json,
    key: &str,
    default: usize,
    range: core::ops::RangeInclusive<usize>,
) -> Result<usize, String> {
    let Some(v) = config.get(key) else {
        return Ok(default);
    };
    v.as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            alloc::format!(
                "{key} must be a whole number from {} to {}",
                range.start(),
                range.end()
            )
        })
}

/// Why the player could not build `g`'s legal moves from clicks, if it could not: a move
/// without clicks while others have some, a move of no cells, a cell off the view's board, a
/// line between places that are not corners (cells board) or points, or two moves clicked
/// the same way (the player could not tell them apart).
pub fn check_clicks<G: Game>(g: &G) -> Result<(), String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let board = g.view().board;
    let corner = board.grid.corners();
    let on = |[c, r]: [u16; 2], extra: u16| c < board.cols + extra && r < board.rows + extra;
    if moves.iter().all(|m| g.clicks(m).is_none()) {
        return Ok(());
    }
    let mut seen: Vec<(Clicks, String)> = Vec::new();
    for m in &moves {
        let name = g.format_move(m);
        let Some(clicks) = g.clicks(m) else {
            return Err(alloc::format!("{name} has no clicks, other moves have"));
        };
        let fits = match &clicks {
            Clicks::Cells(cells) => !cells.is_empty() && cells.iter().all(|&c| on(c, 0)),
            Clicks::Line(a, b) => on(*a, corner) && on(*b, corner) && a != b,
        };
        if !fits {
            return Err(alloc::format!(
                "{name}: clicks {clicks:?} are off the board"
            ));
        }
        if let Some((_, other)) = seen.iter().find(|(c, _)| *c == clicks) {
            return Err(alloc::format!(
                "{name} and {other} are clicked the same way"
            ));
        }
        seen.push((clicks, name));
    }
    Ok(())
}

/// Counts the leaves of the move tree to `depth` (plies, forced ones included).
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 || game.to_move().is_none() {
        return u64::from(depth == 0);
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut child = game.clone();
            match child.play(m) {
                Ok(()) => perft(&child, depth - 1),
                Err(_) => 0,
            }
        })
        .sum()
}
