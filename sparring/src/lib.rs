//! Built-in sparring bots: arbiter plays a game itself, speaking a bot protocol on its standard
//! input and output, so students can practise against it without writing a second bot
//! (`arbiter bot GAME --depth N`).
//!
//! The engine is the rules oracle: every bot picks among `Game::legal_moves` and plays with
//! `Game::play`, so a built-in bot can never answer an illegal move. Strength is set by
//! [`BuiltinOptions::depth`], the level: 0 plays uniformly at random, 1 greedily (best move by
//! a one-ply evaluation), 2 and more search deeper by iterative deepening, each level within
//! its depth and work caps and within the time it is given ([`clock`]).
//!
//! - [`wire`]: the client side of the four protocols (`reversi`, `gobang`, `gomocup`, `duel`).
//! - [`reversi`], [`gomoku`], [`duel`]: the move choosers.
//! - [`kit`]: any game module's bot (random, then flat Monte Carlo), on the kit protocol.
//! - [`clock`]: thinking time from the limits the bot is told.

pub mod clock;
pub mod duel;
pub mod gomoku;
pub mod kit;
pub mod openings;
pub mod reversi;
mod table;
pub mod wire;

use std::io::{BufRead, Write};

use anyhow::bail;
use arbiter_engine::GameConfig;

use clock::{Clock, TimeLimits};

/// What the built-in bot plays and how.
#[derive(Clone, Debug)]
pub struct BuiltinOptions {
    /// The game and its configuration (board size, rule). For `gomocup` the size and rule
    /// announced by `START` / `INFO rule` take precedence; for `duel` the rounds and the random
    /// sequence come from `START` / `RANDOM`.
    pub game: GameConfig,
    /// `reversi`, `reversi-board`, `gobang`, `gomocup` or `duel`.
    pub protocol: String,
    /// The level: 0 = random, 1 = greedy, >= 2 = search depth in plies.
    pub depth: u32,
    /// Seeds the bot's own random choices (random moves, tie-breaks), so games are repeatable.
    pub seed: u64,
    /// The time limits the bot plays under, as far as it knows them (a protocol that tells
    /// them, Gomocup or the duel's, updates them during the game).
    pub limits: TimeLimits,
}

/// A bot's level, clock and random choices through a game.
#[derive(Clone, Debug)]
pub struct Player {
    pub depth: u32,
    pub clock: Clock,
    pub rng: Rng,
}

/// The protocols each game can be played with, first the default.
pub fn protocols_for(game: &GameConfig) -> &'static [&'static str] {
    match game {
        GameConfig::Reversi(_) => &["reversi", "reversi-board"],
        GameConfig::Gomoku(_) => &["gomocup", "gobang"],
        GameConfig::Duel2048(_) => &["duel"],
        GameConfig::Module(_) => &["kit"],
    }
}

/// Plays one game (or, for `gomocup`, as many as the manager starts) as a bot: reads commands
/// from `input`, writes answers to `output` (flushed after every line). Returns at the end
/// command or at end of input; fails on a command that contradicts the game (an illegal
/// opponent move, an unknown size).
pub fn run(opts: &BuiltinOptions, input: impl BufRead, output: impl Write) -> anyhow::Result<()> {
    let allowed = protocols_for(&opts.game);
    if !allowed.contains(&opts.protocol.as_str()) {
        bail!(
            "protocol {:?} cannot play {}: use one of {}",
            opts.protocol,
            opts.game.name(),
            allowed.join(", ")
        );
    }
    let mut player = Player {
        depth: opts.depth,
        clock: Clock::new(opts.limits),
        rng: Rng::new(opts.seed),
    };
    let p = &mut player;
    match (&opts.game, opts.protocol.as_str()) {
        (GameConfig::Reversi(c), "reversi" | "reversi-board") => {
            wire::reversi(*c, p, input, output)
        }
        (GameConfig::Gomoku(c), "gobang") => wire::gobang(*c, p, input, output),
        (GameConfig::Gomoku(c), "gomocup") => wire::gomocup(*c, p, input, output),
        (GameConfig::Duel2048(_), "duel") => wire::duel(p, input, output),
        (GameConfig::Module(_), "kit") => {
            kit::kit(arbiter_engine::AnyGame::new(&opts.game)?, p, input, output)
        }
        _ => bail!("protocol {:?} is not implemented", opts.protocol),
    }
}

/// SplitMix64: a tiny, seedable generator for the bots' random choices (no dependency).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A random element of `items`, `None` when empty.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len())).copied()
        }
    }
}
