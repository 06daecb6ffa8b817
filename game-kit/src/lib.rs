//! arbiter-game: write a game's rules once, as a Rust type, and get a core-wasm module that
//! arbiter's referee, tools and player can run.
//!
//! - [`Game`]: the rules (seats, whose turn, legal moves, play, outcome, notation, what each
//!   seat is told and sees, the view).
//! - [`seat`]: [`Seat`], [`SeatSet`], [`Turn`] (one mover, several at once, or over),
//!   [`Viewer`] and [`Kind`] (chance, hidden information, simultaneous turns).
//! - [`Outcome`]: a place per seat, ties allowed.
//! - [`view`]: the declarative drawing vocabulary ([`View`]).
//! - [`config`]: reading a config (numbers in a range, `players`, the keys a game takes).
//! - [`abi`] and [`export_game!`]: the module's exports; the ABI is specified in
//!   `docs/game-kit.md` so that other languages (C with clang's wasm32 target) can implement it.
#![no_std]

extern crate alloc;

pub mod abi;
pub mod config;
pub mod notation;
pub mod outcome;
pub mod playout;
pub mod seat;
pub mod view;

use alloc::string::String;
use alloc::vec::Vec;

pub use config::{config_number, players};
pub use outcome::{places_from, win_scores, Outcome};
pub use seat::{Kind, Seat, SeatSet, Turn, Viewer, MAX_SEATS};
pub use serde_json::Value as Json;
pub use view::{Clicks, View};

/// One game's rules. A value is a position; [`Game::play`] (or [`Game::play_together`] for a
/// simultaneous turn) advances it.
///
/// Forced plies (a pass, a second stone that is not a choice) are moves like the others, so
/// that perft and replays count them; [`Game::forced_move`] names them so that a referee plays
/// them without asking a bot. An extra turn (Dots and Boxes) is simply the same seat again in
/// [`Game::turn`].
///
/// Only `new`, `turn`, `legal_moves`, `play` (or `play_together`), `outcome`, `scores`, the
/// notation, `tell` and `view` are required; the rest have defaults that fit a two-seat game
/// of perfect information without chance.
pub trait Game: Clone + Sized {
    type Move: Clone + PartialEq + core::fmt::Debug;

    /// The module's name (`connect-four`); replays and the command line use it.
    const NAME: &'static str;
    /// The rules' version: bump it whenever a game's moves or results could change.
    const VERSION: &'static str;
    /// The seat counts the game can be played with, smallest first (`&[2, 3, 4, 6]` for
    /// Chinese Checkers); the config's `players` picks one (the first when it is absent). At
    /// most [`MAX_SEATS`].
    const SEATS: &'static [usize] = &[2];
    /// Chance, hidden information, simultaneous turns: what the game can have under some
    /// configuration (a position's own is [`Game::kind`]).
    const KIND: Kind = Kind::PLAIN;
    /// The config keys the game reads besides `players` (`&["cols", "rows"]`): the kit then
    /// refuses any other key by name, so that a misspelt one is not silently ignored. `None`
    /// (the default) leaves keys unchecked.
    const CONFIG_KEYS: Option<&'static [&'static str]> = None;

    /// The start position from a configuration (JSON, `{}` for the defaults; read `players`
    /// with [`players`]) and a seed (where the game has chance, it draws from the seed only).
    fn new(config: &Json, seed: u64) -> Result<Self, String>;

    /// The number of seats of this game (what `players` picked).
    fn seats(&self) -> usize {
        Self::SEATS.first().copied().unwrap_or(2)
    }

    /// What this game has under its configuration: [`Game::KIND`] unless a configuration turns
    /// something off (Goofspiel without `imp_info` hides nothing). At most `KIND`.
    fn kind(&self) -> Kind {
        Self::KIND
    }

    /// Whose turn it is: one seat, several at once, or nobody once the game is over.
    fn turn(&self) -> Turn;

    /// The ply `seat` must make when it has no choice (a pass), so that the referee plays it
    /// without asking.
    fn forced_move(&self, _seat: Seat) -> Option<Self::Move> {
        None
    }

    /// Appends every legal ply of `seat` in this turn to `out` (the forced one alone, when
    /// there is one). Asked only for a seat that moves now (a game of one mover at a time may
    /// ignore `seat`).
    fn legal_moves(&self, seat: Seat, out: &mut Vec<Self::Move>);

    /// Plays the move of the seat to move in a turn of one seat ([`Turn::Seat`]) if it is
    /// legal; otherwise leaves the position as it was and says why not. A game whose turns are
    /// all simultaneous keeps the default, which refuses.
    fn play(&mut self, _mv: &Self::Move) -> Result<(), String> {
        Err("this game's turns are simultaneous: every mover's move is played together".into())
    }

    /// Plays a simultaneous turn: one move per mover, in seat order (the kit sorts them, so
    /// the order in which they were collected cannot matter). All are legal or none is
    /// played: an illegal one leaves the position as it was and names its seat.
    fn play_together(&mut self, _moves: &[(Seat, Self::Move)]) -> Result<(), (Seat, String)> {
        Err((0, "this game has no simultaneous turns".into()))
    }

    /// `Some` once the game is over: every seat's place.
    fn outcome(&self) -> Option<Outcome>;

    /// The running score per seat.
    fn scores(&self) -> Vec<i64>;

    /// Reads a move in the game's notation.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// Writes a move in the canonical notation; `parse_move` reads it back.
    fn format_move(&self, mv: &Self::Move) -> String;

    /// What `seat` is told about the position: the bot protocol's content, all it may know
    /// (its own hand, never another's). One or more lines, no empty line.
    fn tell(&self, seat: Seat) -> String;

    /// The position as the player draws it for `viewer`: everything ([`Viewer::All`]), what one
    /// seat sees, or what a spectator sees while the game runs ([`Viewer::Public`]). A game
    /// without hidden information draws the same for all.
    fn view(&self, viewer: Viewer) -> View;

    /// What `to` learns of `by`'s move `mv`, in the position before it is played: the move's
    /// text (the default: every ply is public), another text (`"card"` for a card played face
    /// down), or `None` (nothing: `to` sees only what [`Game::tell`] says next). A seat is
    /// always told its own moves.
    fn reveal(&self, _by: Seat, mv: &Self::Move, _to: Viewer) -> Option<String> {
        Some(self.format_move(mv))
    }

    /// A game with chance: draws the chance of every ply after the current one from `seed`
    /// instead. A search calls it on its copies (`clone` with a `seed`), so that it cannot
    /// see the game's own future dice; the roll the side to move already knows stays.
    /// Games without chance keep the default, which does nothing.
    fn reseed(&mut self, _seed: u64) {}

    /// A position `seat` cannot tell from this one: everything it knows (what [`Game::tell`]
    /// and [`Viewer::Seat`] show it) kept, everything it does not (other hands, the deck,
    /// future chance) drawn afresh from `seed`, consistently with what it knows. A search for
    /// `seat` plays on such positions, so that it never reads another seat's hand. The default
    /// (a reseeded copy) is right only for games without hidden information: a game whose
    /// [`Kind`] says `hidden` must implement it.
    fn sample(&self, _seat: Seat, seed: u64) -> Self {
        let mut copy = self.clone();
        copy.reseed(seed);
        copy
    }

    /// `seat` failed mid-game (crashed, ran out of time, sent an illegal move) in a game of
    /// three or more seats: take it out and go on for the others (its pieces removed or left,
    /// its turns skipped; its place decided by the rules at the end), answering `true`; or
    /// answer `false` (the default): the game ends there, the failed seat last and the others
    /// placed by their running scores. A two-seat game always ends with the failed seat's loss.
    fn retire(&mut self, _seat: Seat) -> bool {
        false
    }

    /// How a person at `seat` makes its legal move `mv` by clicking the board in the player,
    /// in the view's coordinates: the cells in order (Amazons' queen, target and arrow), or one
    /// line (Dots and Boxes' edge). `None` (the default) for every move: the player then offers
    /// the legal moves as a list. Two moves of one seat must not share the same clicks.
    fn clicks(&self, _seat: Seat, _mv: &Self::Move) -> Option<Clicks> {
        None
    }
}

/// The legal moves of `seat` in `g`, in a new vector.
pub fn legal<G: Game>(g: &G, seat: Seat) -> Vec<G::Move> {
    let mut out = Vec::new();
    // A game may list the side to move's moves whatever seat it is asked for.
    if g.turn().movers().contains(seat) {
        g.legal_moves(seat, &mut out);
    }
    out
}

/// Every combination of one legal move per mover of a simultaneous turn (a joint move), in
/// seat order; one combination per legal move in a turn of one seat. Empty once over.
pub fn joint_moves<G: Game>(g: &G) -> Vec<Vec<(Seat, G::Move)>> {
    let mut joint: Vec<Vec<(Seat, G::Move)>> = alloc::vec![Vec::new()];
    let movers = g.turn().movers();
    if movers.is_empty() {
        return Vec::new();
    }
    for seat in movers.iter() {
        let moves = legal(g, seat);
        let mut next = Vec::with_capacity(joint.len() * moves.len());
        for partial in &joint {
            for m in &moves {
                let mut j = partial.clone();
                j.push((seat, m.clone()));
                next.push(j);
            }
        }
        joint = next;
    }
    joint
}

/// Plays one joint move: through [`Game::play`] in a turn of one seat, [`Game::play_together`]
/// in a simultaneous one.
pub fn play_joint<G: Game>(g: &mut G, moves: &[(Seat, G::Move)]) -> Result<(), (Seat, String)> {
    match (g.turn(), moves) {
        (Turn::Seat(s), [(by, mv)]) if *by == s => g.play(mv).map_err(|e| (s, e)),
        (Turn::Seat(s), _) => Err((s, "a turn of one seat takes one move of that seat".into())),
        (Turn::Together(_), _) => g.play_together(moves),
        // The game's own words for a move after the end (version 1 modules answered them).
        (Turn::Over, [(by, mv)]) => g.play(mv).map_err(|e| (*by, e)),
        (Turn::Over, _) => Err((0, "the game is over".into())),
    }
}

/// Why the player could not build `g`'s legal moves from clicks, if it could not: a move
/// without clicks while others of its seat have some, a move of no cells, a cell off the
/// view's board, a line between places that are not corners (cells board) or points, or two
/// moves of one seat clicked the same way (the player could not tell them apart).
pub fn check_clicks<G: Game>(g: &G) -> Result<(), String> {
    let board = g.view(Viewer::All).board;
    for seat in g.turn().movers().iter() {
        check_seat_clicks(g, seat, &board)?;
    }
    Ok(())
}

fn check_seat_clicks<G: Game>(g: &G, seat: Seat, board: &view::Board) -> Result<(), String> {
    let moves = legal(g, seat);
    let corner = board.grid.corners();
    let on = |at: [u16; 2], extra: u16| match extra {
        0 => board.has(at),
        _ => at[0] < board.cols + extra && at[1] < board.rows + extra,
    };
    if moves.iter().all(|m| g.clicks(seat, m).is_none()) {
        return Ok(());
    }
    let mut seen: Vec<(Clicks, String)> = Vec::new();
    for m in &moves {
        let name = g.format_move(m);
        let Some(clicks) = g.clicks(seat, m) else {
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

/// Counts the leaves of the move tree to `depth` (plies, forced ones included; a simultaneous
/// turn is one ply with a child per joint move, as OpenSpiel counts it). A finished game is no
/// leaf below it.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match game.turn() {
        Turn::Over => 0,
        Turn::Seat(seat) => {
            let moves = legal(game, seat);
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
        Turn::Together(_) => joint_moves(game)
            .iter()
            .map(|j| {
                if depth == 1 {
                    return 1;
                }
                let mut child = game.clone();
                match child.play_together(j) {
                    Ok(()) => perft(&child, depth - 1),
                    Err(_) => 0,
                }
            })
            .sum(),
    }
}
