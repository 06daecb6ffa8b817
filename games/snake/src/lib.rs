//! Snake for 2 to 4 snakes, the proof game of simultaneous moves in which a seat that dies
//! leaves the others playing. OpenSpiel's `snake` rules: a 10 x 10 grid, snakes of one cell
//! at OpenSpiel's start places, one food on the grid at a time, placed by chance (here from
//! the seed) on an empty cell; every living snake steps up, right, down or left at once; a
//! head off the grid, on another head, or on a body dies; a snake that eats grows by one. The
//! game ends when fewer than two snakes live or after the horizon (100 turns). Places: the
//! later a snake died the better (alive at the end best), then the longer.
//!
//! Rules, notation, what each seat is told and the exact food draw: docs/games/snake.md.

mod board;
mod food;
mod rules;
mod settings;
mod show;

use arbiter_game::{
    export_game, places_from, Clicks, Game, Json, Kind, Outcome, Seat, SeatSet, Turn, Viewer,
};

pub use board::{Cell, Dir};
pub use food::pick as food_pick;
pub use rules::{Cause, Fate, Snake};
pub use settings::Settings;

/// A move: the direction the snake's head steps in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub dir: Dir,
}

impl From<Dir> for Move {
    fn from(dir: Dir) -> Move {
        Move { dir }
    }
}

#[derive(Clone, Debug)]
pub struct SnakeGame {
    settings: Settings,
    snakes: Vec<Snake>,
    food: Option<Cell>,
    /// Turns played.
    turns: u32,
    seed: u64,
    /// The food placed so far (the next one is food number `placed`).
    placed: u64,
    /// A search's copy ([`Game::reseed`]): from this food on, the cells come from this seed.
    future: Option<(u64, u64)>,
    /// Each snake's head before the last turn, for the view (where a snake that died in it was).
    before: Vec<Option<Cell>>,
}

pub fn seat_name(seat: Seat) -> String {
    format!("seat {seat}")
}

impl SnakeGame {
    pub fn settings(&self) -> Settings {
        self.settings
    }

    pub fn snakes(&self) -> &[Snake] {
        &self.snakes
    }

    pub fn food(&self) -> Option<Cell> {
        self.food
    }

    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Each snake's head before the last turn (none before the first).
    pub fn heads_before(&self) -> &[Option<Cell>] {
        &self.before
    }

    /// The food placed so far.
    pub fn placed(&self) -> u64 {
        self.placed
    }

    pub fn alive(&self) -> SeatSet {
        (0..self.settings.seats)
            .filter(|&s| self.snakes[s].alive())
            .collect()
    }

    fn is_over(&self) -> bool {
        self.turns >= self.settings.horizon || self.alive().len() < 2
    }

    /// The cells no living snake and no food holds, row by row from the top left (the order
    /// the food's draw counts them in, OpenSpiel's).
    pub fn empty_cells(&self) -> Vec<Cell> {
        let (cols, rows) = (self.settings.cols, self.settings.rows);
        let mut taken = vec![false; cols * rows];
        let cells = self.snakes.iter().flat_map(|s| s.body.iter());
        for c in cells.chain(self.food.as_ref()) {
            taken[c.row as usize * cols + c.col as usize] = true;
        }
        (0..cols * rows)
            .filter(|&i| !taken[i])
            .map(|i| Cell {
                col: (i % cols) as i32,
                row: (i / cols) as i32,
            })
            .collect()
    }

    /// Puts the next food on an empty cell drawn from the seed (none when the grid is full).
    fn place_food(&mut self) {
        let empty = self.empty_cells();
        if empty.is_empty() {
            return;
        }
        let seed = match self.future {
            Some((from, seed)) if self.placed >= from => seed,
            _ => self.seed,
        };
        self.food = Some(empty[food::pick(seed, self.placed, empty.len())]);
        self.placed += 1;
    }

    /// Why `moves` is not one direction for every living snake, if it is not.
    fn check_moves(&self, moves: &[(Seat, Move)]) -> Result<(), (Seat, String)> {
        if self.is_over() {
            return Err((moves.first().map_or(0, |m| m.0), "the game is over".into()));
        }
        let alive = self.alive();
        let mut seen = SeatSet::EMPTY;
        for &(s, _) in moves {
            if !alive.contains(s) {
                let why = match self.snakes.get(s) {
                    Some(_) => format!("{} is out: it has no snake to move", seat_name(s)),
                    None => format!("{} is not a seat of this game", seat_name(s)),
                };
                return Err((s, why));
            }
            if seen.contains(s) {
                return Err((s, format!("{} moves twice", seat_name(s))));
            }
            seen.insert(s);
        }
        match alive.iter().find(|&s| !seen.contains(s)) {
            Some(s) => Err((s, format!("{}'s move is missing", seat_name(s)))),
            None => Ok(()),
        }
    }

    /// Each seat's key for its place: the turn it died in (later is better; alive at the end
    /// best), then its length.
    fn place_keys(&self) -> Vec<(u32, u32)> {
        self.snakes
            .iter()
            .map(|s| (s.fate.map_or(u32::MAX, |f| f.turn), s.length()))
            .collect()
    }

    fn reason(&self) -> String {
        let alive: Vec<Seat> = self.alive().iter().collect();
        match alive.as_slice() {
            [one] => format!("{} is the last snake left", seat_name(*one)),
            [] => {
                let last = self
                    .snakes
                    .iter()
                    .filter_map(|s| s.fate)
                    .map(|f| f.turn)
                    .max();
                format!(
                    "the last snakes died together in turn {}",
                    last.unwrap_or(0)
                )
            }
            _ => format!("the horizon came with {} snakes alive", alive.len()),
        }
    }
}

impl Game for SnakeGame {
    type Move = Move;
    const NAME: &'static str = "snake";
    const VERSION: &'static str = "1.0.0";
    const SEATS: &'static [usize] = &[2, 3, 4];
    const KIND: Kind = Kind {
        chance: true,
        hidden: false,
        simultaneous: true,
    };
    const CONFIG_KEYS: Option<&'static [&'static str]> = Some(settings::KEYS);

    fn new(config: &Json, seed: u64) -> Result<Self, String> {
        let s = Settings::read(config, Self::SEATS)?;
        let snakes = (0..s.seats)
            .map(|seat| Snake::new(board::start(seat, s.seats, s.cols, s.rows)))
            .collect();
        let mut g = SnakeGame {
            settings: s,
            snakes,
            food: None,
            turns: 0,
            seed,
            placed: 0,
            future: None,
            before: Vec::new(),
        };
        g.place_food();
        Ok(g)
    }

    fn seats(&self) -> usize {
        self.settings.seats
    }

    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Over
        } else {
            Turn::Together(self.alive())
        }
    }

    fn legal_moves(&self, seat: Seat, out: &mut Vec<Move>) {
        if !self.is_over() && self.alive().contains(seat) {
            out.extend(Dir::ALL.map(Move::from));
        }
    }

    fn play_together(&mut self, moves: &[(Seat, Move)]) -> Result<(), (Seat, String)> {
        self.check_moves(moves)?;
        let dirs: Vec<(Seat, Dir)> = moves.iter().map(|&(s, m)| (s, m.dir)).collect();
        let size = (self.settings.cols, self.settings.rows);
        self.before = self.snakes.iter().map(Snake::head).collect();
        let eater = rules::resolve(&mut self.snakes, &dirs, self.food, size, self.turns + 1);
        self.turns += 1;
        if eater.is_some() {
            self.food = None;
            // As OpenSpiel: a new food only when one was eaten and the game goes on.
            if !self.is_over() {
                self.place_food();
            }
        }
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| Outcome {
            places: places_from(&self.place_keys()),
            scores: self.scores(),
            reason: self.reason(),
        })
    }

    /// The food each snake ate (OpenSpiel's returns).
    fn scores(&self) -> Vec<i64> {
        self.snakes.iter().map(|s| i64::from(s.fruits)).collect()
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        Dir::read(text.trim()).map(Move::from).ok_or_else(|| {
            format!(
                "{:?} is not a move: up, right, down or left",
                arbiter_game::config::cut(text.trim(), 20)
            )
        })
    }

    fn format_move(&self, mv: &Move) -> String {
        mv.dir.name().into()
    }

    fn tell(&self, seat: Seat) -> String {
        show::tell(self, seat)
    }

    fn view(&self, _viewer: Viewer) -> arbiter_game::View {
        show::view(self)
    }

    /// The food placed after the current one comes from `seed` (the one on the grid stays).
    fn reseed(&mut self, seed: u64) {
        self.future = Some((self.placed, seed));
    }

    /// A seat whose bot failed: its snake is taken off the grid as if it died in the turn being
    /// played (it ties with the snakes that die in that turn), and the others play on.
    fn retire(&mut self, seat: Seat) -> bool {
        if !self.is_over() && self.alive().contains(seat) {
            let snake = &mut self.snakes[seat];
            snake.fate = Some(Fate {
                turn: self.turns + 1,
                cause: Cause::Retired,
            });
            snake.body.clear();
        }
        true
    }

    /// One click: the cell the head steps to (the wall's ring around the grid for a step off
    /// it).
    fn clicks(&self, seat: Seat, mv: &Move) -> Option<Clicks> {
        let to = self.snakes.get(seat)?.head()?.step(mv.dir);
        Some(Clicks::Cells(vec![show::at(to)]))
    }
}

export_game!(SnakeGame);

#[cfg(test)]
mod tests;
