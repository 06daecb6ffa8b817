//! Any game module's sparring bot, speaking the kit's line protocol (docs/game-kit.md). It
//! keeps its own copy of the game, played through the same module, and knows no game by name.
//!
//! Level 0 plays uniformly at random. Level N (1 to 5) is flat Monte Carlo: the legal moves
//! share `25 * 4^(N-1)` random playouts (25 ... 6,400), and each gets at least `2^N` of them
//! (2 ... 32: with 25 in all, a game of 49 moves would leave most untried, and level 1 would
//! play at random), each from a copy whose chance is drawn afresh ([`AnyGame::reseeded`]), so
//! the bot never knows the game's own future dice; it stops early at its clock's deadline.
//! More playouts, more strength, in every game. A playout runs inside the module when the
//! module offers it (the kit's `playout` request), else ply by ply through the module.

use std::io::{BufRead, Write};
use std::time::Instant;

use anyhow::{anyhow, bail};
use arbiter_engine::any::{AnyGame, AnyMove};
use arbiter_engine::Seat;

use super::wire::{next_line, send};
use super::{Player, Rng};

/// The longest random playout followed, in plies (a game that cannot end is cut there and
/// counts as a draw).
const PLAYOUT_PLIES: usize = 10_000;

/// Plays one kit game from `start` (its position before any ply).
pub fn kit(
    start: AnyGame,
    player: &mut Player,
    mut input: impl BufRead,
    mut output: impl Write,
) -> anyhow::Result<()> {
    let mut game: Option<Follower> = None;
    while let Some(line) = next_line(&mut input)? {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("START") => {
                let me = match words.next() {
                    Some("1") => Seat::First,
                    Some("2") => Seat::Second,
                    other => bail!("START wants 1 or 2, got {other:?}"),
                };
                game = Some(Follower::new(start.clone(), me));
                player.clock.restart();
                send(&mut output, "OK")?;
            }
            Some("PLAYED") => {
                let c = game
                    .as_mut()
                    .ok_or_else(|| anyhow!("PLAYED before START"))?;
                let mv = words
                    .nth(1)
                    .ok_or_else(|| anyhow!("PLAYED without a move"))?;
                c.follow(mv);
            }
            Some("POSITION") => {
                // What the module tells us is already in our own copy; skip its lines.
                let k: usize = words.next().and_then(|k| k.parse().ok()).unwrap_or(0);
                for _ in 0..k.min(1 << 20) {
                    next_line(&mut input)?;
                }
            }
            Some("LEGAL") => {
                let c = game.as_mut().ok_or_else(|| anyhow!("LEGAL before START"))?;
                c.legal = words.map(str::to_string).collect();
            }
            Some("TURN") => {
                let c = game.as_mut().ok_or_else(|| anyhow!("TURN before START"))?;
                let started = Instant::now();
                let text = c.answer(player, started)?;
                player.clock.spent(started.elapsed());
                // Answer first, then follow in our copy: a module that breaks on this move
                // must break in the referee's copy while our clock is not running.
                send(&mut output, &text)?;
                c.follow(&text);
            }
            Some("END") => return Ok(()),
            _ => {}
        }
    }
    Ok(())
}

/// Our copy of the game, and the referee's last list of legal moves. When our copy fails (the
/// module broke in our process), we go on from the referee's lists: the referee's copy fails
/// the same way and ends the game as no result, which a crash of ours would turn into a loss.
struct Follower {
    game: AnyGame,
    me: Seat,
    legal: Vec<String>,
    broken: bool,
}

impl Follower {
    fn new(game: AnyGame, me: Seat) -> Follower {
        Follower {
            game,
            me,
            legal: Vec::new(),
            broken: false,
        }
    }

    fn follow(&mut self, mv: &str) {
        if !self.broken && self.game.play_text(mv).is_err() {
            self.broken = true;
        }
    }

    fn answer(&mut self, player: &mut Player, started: Instant) -> anyhow::Result<String> {
        if self.broken || self.game.fault().is_some() {
            self.broken = true;
            let pick = player.rng.below(self.legal.len());
            return self
                .legal
                .get(pick)
                .cloned()
                .ok_or_else(|| anyhow!("no legal move"));
        }
        let mv = choose(&self.game, self.me, player, started)?;
        Ok(self.game.format_move(mv))
    }
}

/// The move to play: random at level 0, else the best mean of the playouts.
fn choose(
    game: &AnyGame,
    me: Seat,
    player: &mut Player,
    started: Instant,
) -> anyhow::Result<AnyMove> {
    if let Some(why) = game.fault() {
        bail!("{why}");
    }
    let moves = game.legal_moves();
    if moves.is_empty() {
        bail!("no legal move in our copy of the game");
    }
    if player.depth == 0 || moves.len() == 1 {
        return Ok(moves[player.rng.below(moves.len())]);
    }
    let level = player.depth.min(5);
    let budget = (25usize << (2 * (level - 1))).max(moves.len() << level);
    let deadline = player.clock.deadline(started, 20);
    let mut wins = vec![0.0f64; moves.len()];
    let mut tries = vec![0u32; moves.len()];
    // Round robin over the moves in a random order: a search the clock cuts short has sampled
    // moves from all over the list, not only its front (one Amazons queen's moves).
    let mut order: Vec<usize> = (0..moves.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, player.rng.below(i + 1));
    }
    for i in 0..budget {
        if deadline.expired() {
            break;
        }
        let k = order[i % moves.len()];
        let mut copy = game.reseeded(player.rng.next_u64());
        if copy.play(moves[k]).is_err() {
            continue;
        }
        wins[k] += playout(&mut copy, me, &mut player.rng);
        tries[k] += 1;
    }
    let mean = |k: usize| {
        if tries[k] == 0 {
            -1.0
        } else {
            wins[k] / f64::from(tries[k])
        }
    };
    let best = (0..moves.len())
        .max_by(|&a, &b| mean(a).total_cmp(&mean(b)))
        .unwrap_or(0);
    Ok(moves[best])
}

/// Plays at random to the end: 1 if `me` wins, 0.5 for a draw (or a cut playout), 0 lost.
/// The module plays it by itself where it offers to (one request, not two a ply); we go on
/// from wherever it stopped.
fn playout(game: &mut AnyGame, me: Seat, rng: &mut Rng) -> f64 {
    game.random_playout(rng.next_u64());
    for _ in 0..PLAYOUT_PLIES {
        if let Some(o) = game.outcome() {
            return match o.winner {
                Some(w) if w == me => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        let moves = game.legal_moves();
        if moves.is_empty() || game.play(moves[rng.below(moves.len())]).is_err() {
            break;
        }
    }
    0.5
}
