//! Any game module's sparring bot, speaking the kit's line protocol (docs/game-kit.md). It
//! keeps its own copy of the game, played through the same module, and knows no game by name.
//!
//! Level 0 plays uniformly at random. Level N (1 to 5) is flat Monte Carlo: the legal moves
//! share `25 * 4^(N-1)` random playouts (25 ... 6,400), and each gets at least `2^N` of them
//! (2 ... 32: with 25 in all, a game of 49 moves would leave most untried, and level 1 would
//! play at random), each from a position its seat cannot tell from the game's
//! ([`AnyGame::sampled`]: the other hands, the stock and future chance drawn afresh by the
//! module), so the bot never searches what its seat is not told; it stops early at its
//! clock's deadline. Ties between moves go to a random one (the bot's own seed), not to the
//! first listed.
//!
//! Every shape: any seat of any count (`START s name n`); in a simultaneous turn the other
//! movers play random moves in the searched copies, and the bot follows the turn once every
//! mover's move is known; a playout scores a seat's place (1 first alone, 0 last). A move the
//! module hides from this seat (a sealed bid), or tells only in part (a card face down), is
//! guessed: a move of that seat that the module would have told this seat the same way, and
//! that leaves the position it is then told (`POSITION`) exactly as told, drawn at random
//! among such (rejection sampling, [`GUESSES`] tries). A copy that cannot follow at all (no
//! such move) plays on from the referee's legal lists at random.
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

/// How many random guesses of a turn's hidden moves are tried for one that fits what the
/// seat is told next; past them, the last guess the rules accept is kept.
const GUESSES: usize = 256;

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
                let seats = start.seats();
                let me = words
                    .next()
                    .and_then(|w| w.parse::<usize>().ok())
                    .filter(|n| (1..=seats).contains(n))
                    .and_then(|n| Seat::from_index(n - 1))
                    .ok_or_else(|| anyhow!("START wants a seat from 1 to {seats}"))?;
                game = Some(Follower::new(start.clone(), me));
                player.clock.restart();
                send(&mut output, "OK")?;
            }
            Some("PLAYED") => {
                let c = game
                    .as_mut()
                    .ok_or_else(|| anyhow!("PLAYED before START"))?;
                let by = words
                    .next()
                    .and_then(|w| w.parse::<usize>().ok())
                    .and_then(|n| n.checked_sub(1))
                    .and_then(Seat::from_index)
                    .ok_or_else(|| anyhow!("PLAYED without a seat"))?;
                let mv = words
                    .next()
                    .ok_or_else(|| anyhow!("PLAYED without a move"))?;
                c.follow(by, mv);
            }
            Some("POSITION") => {
                // What the module tells us: our copy is already there, unless a turn's moves
                // were hidden from us; then they are guessed to fit it.
                let k: usize = words.next().and_then(|k| k.parse().ok()).unwrap_or(0);
                let mut told = Vec::with_capacity(k.min(256));
                for _ in 0..k.min(1 << 20) {
                    told.push(next_line(&mut input)?.unwrap_or_default());
                }
                if let Some(c) = game.as_mut() {
                    c.observe(&told, &mut player.rng);
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
                let me = c.me;
                c.follow(me, &text);
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
    /// What is known so far of the moves of a simultaneous turn (played once every mover's is,
    /// or guessed when the next position comes first).
    turn: Vec<(Seat, Known)>,
    broken: bool,
}

/// What this seat knows of another's move.
#[derive(Clone, Copy)]
enum Known {
    /// The move itself.
    Move(AnyMove),
    /// Only what the module revealed of it (a card face down): a move told this way.
    Told(AnyMove),
}

impl Follower {
    fn new(game: AnyGame, me: Seat) -> Follower {
        Follower {
            game,
            me,
            legal: Vec::new(),
            turn: Vec::new(),
            broken: false,
        }
    }

    /// Plays `by`'s move `mv` in our copy: at once in a turn of one seat, with the others'
    /// once all are known in a simultaneous turn. A text that is not a move the rules accept
    /// there is what the module revealed of a hidden one.
    fn follow(&mut self, by: Seat, mv: &str) {
        if self.broken {
            return;
        }
        let movers = self.game.turn().movers();
        let Ok(parsed) = self.game.parse_move(mv) else {
            self.broken = true;
            return;
        };
        let known = if self.game.legal_moves_of(by).contains(&parsed) {
            Known::Move(parsed)
        } else {
            Known::Told(parsed)
        };
        if movers.len() <= 1 {
            self.broken = match known {
                Known::Move(m) => self.game.play(m).is_err(),
                // A move of one seat told in part: the first that reads the same way.
                Known::Told(_) => !self.guess_turn(&[(by, known)], None, &mut Rng::new(0)),
            };
            return;
        }
        if !movers.contains(by) || self.turn.iter().any(|(s, _)| *s == by) {
            self.broken = true;
            return;
        }
        self.turn.push((by, known));
        let all_known = self.turn.iter().all(|(_, k)| matches!(k, Known::Move(_)));
        if self.turn.len() == movers.len() && all_known {
            let mut turn: Vec<(Seat, AnyMove)> = std::mem::take(&mut self.turn)
                .into_iter()
                .filter_map(|(s, k)| match k {
                    Known::Move(m) => Some((s, m)),
                    Known::Told(_) => None,
                })
                .collect();
            turn.sort_by_key(|(s, _)| *s);
            self.broken = self.game.play_together(&turn).is_err();
        }
    }

    /// The position we are told before a turn of ours: a simultaneous turn still open in our
    /// copy (moves hidden from us) is completed by a guess that fits it.
    fn observe(&mut self, told: &[String], rng: &mut Rng) {
        if self.broken || self.turn.is_empty() {
            return;
        }
        let known = std::mem::take(&mut self.turn);
        self.broken = !self.guess_turn(&known, Some(told), rng);
    }

    /// Plays the open turn with a guess for every move not known: each a legal move of its
    /// seat that the module would reveal to us as we were told (nothing for a hidden one), the
    /// whole fitting `told` (what we are told afterwards) when given. Random guesses, the first
    /// that fits; `false` when the rules accept none.
    fn guess_turn(
        &mut self,
        known: &[(Seat, Known)],
        told: Option<&[String]>,
        rng: &mut Rng,
    ) -> bool {
        let movers: Vec<Seat> = self.game.turn().movers().iter().collect();
        let mut choices: Vec<(Seat, Vec<AnyMove>)> = Vec::with_capacity(movers.len());
        for &seat in &movers {
            let options = match known.iter().find(|(s, _)| *s == seat) {
                Some((_, Known::Move(m))) => vec![*m],
                Some((_, Known::Told(text))) => self.reads_as(seat, Some(*text)),
                None => self.reads_as(seat, None),
            };
            if options.is_empty() {
                return false;
            }
            choices.push((seat, options));
        }
        let mut fallback = None;
        for _ in 0..GUESSES {
            let joint: Vec<(Seat, AnyMove)> = choices
                .iter()
                .map(|(s, options)| (*s, options[rng.below(options.len())]))
                .collect();
            let mut copy = self.game.clone();
            let played = match joint.as_slice() {
                [(_, one)] => copy.play(*one).is_ok(),
                _ => copy.play_together(&joint).is_ok(),
            };
            if !played {
                continue;
            }
            let fits = told.is_none_or(|t| tells(&copy, self.me) == t);
            if fits {
                self.game = copy;
                return true;
            }
            fallback = Some(copy);
        }
        match fallback {
            Some(copy) => {
                self.game = copy;
                true
            }
            None => false,
        }
    }

    /// `seat`'s legal moves that the module reveals to us as `text` (`None`: hidden).
    fn reads_as(&self, seat: Seat, text: Option<AnyMove>) -> Vec<AnyMove> {
        let want = text.map(|t| self.game.format_move(t));
        self.game
            .legal_moves_of(seat)
            .into_iter()
            .filter(|m| {
                let told = self.game.told_to(&[(seat, *m)], self.me);
                told.first().cloned().flatten() == want
            })
            .collect()
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

/// The lines the module tells `seat` in `game` (as the referee's `POSITION` sends them).
fn tells(game: &AnyGame, seat: Seat) -> Vec<String> {
    let text = game.as_module().map(|m| m.tell(seat)).unwrap_or_default();
    text.lines().map(str::to_string).collect()
}

/// The move to play: random at level 0, else the best mean of the playouts (ties at random).
fn choose(
    game: &AnyGame,
    me: Seat,
    player: &mut Player,
    started: Instant,
) -> anyhow::Result<AnyMove> {
    if let Some(why) = game.fault() {
        bail!("{why}");
    }
    let moves = game.legal_moves_of(me);
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
        // Only what this seat knows: the rest drawn afresh.
        let mut copy = game.sampled(me, player.rng.next_u64());
        if play_with_others(&mut copy, me, moves[k], &mut player.rng).is_err() {
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
    // In the shuffled order, the first best: equal means do not favour the list's front.
    let best = order
        .iter()
        .copied()
        .reduce(|a, b| if mean(b) > mean(a) { b } else { a })
        .unwrap_or(0);
    Ok(moves[best])
}

/// Plays `me`'s move `mv`, with random moves for the other movers of a simultaneous turn.
fn play_with_others(game: &mut AnyGame, me: Seat, mv: AnyMove, rng: &mut Rng) -> Result<(), ()> {
    let movers = game.turn().movers();
    if movers.len() <= 1 {
        return game.play(mv).map_err(|_| ());
    }
    let mut joint = Vec::with_capacity(movers.len());
    for s in movers.iter() {
        if s == me {
            joint.push((s, mv));
        } else {
            let theirs = game.legal_moves_of(s);
            let pick = *theirs.get(rng.below(theirs.len())).ok_or(())?;
            joint.push((s, pick));
        }
    }
    game.play_together(&joint).map_err(|_| ())
}

/// One random ply: every mover's move picked at random.
fn random_ply(game: &mut AnyGame, rng: &mut Rng) -> Result<(), ()> {
    let mut joint = Vec::new();
    for s in game.turn().movers().iter() {
        let moves = game.legal_moves_of(s);
        joint.push((s, *moves.get(rng.below(moves.len())).ok_or(())?));
    }
    match joint.as_slice() {
        [] => Err(()),
        [(_, one)] => game.play(*one).map_err(|_| ()),
        _ => game.play_together(&joint).map_err(|_| ()),
    }
}

/// What a place is worth to the search: 1 for first alone, 0 for last, shared places in
/// between (two seats: 1 won, 0.5 drawn, 0 lost).
fn place_value(places: &[u32], me: Seat) -> f64 {
    let n = places.len();
    let Some(&mine) = places.get(me.index()) else {
        return 0.5;
    };
    if n < 2 {
        return 0.5;
    }
    let tied = places.iter().filter(|&&p| p == mine).count();
    // The mean of the places the tied group spans, mapped to 1 (first) .. 0 (last).
    let mean_place = f64::from(mine) + (tied as f64 - 1.0) / 2.0;
    (n as f64 - mean_place) / (n as f64 - 1.0)
}

/// Plays at random to the end and scores `me`'s place (0.5 for a cut playout). The module
/// plays it by itself where it offers to (one request, not two a ply); we go on from wherever
/// it stopped.
fn playout(game: &mut AnyGame, me: Seat, rng: &mut Rng) -> f64 {
    game.random_playout(rng.next_u64());
    for _ in 0..PLAYOUT_PLIES {
        if let Some(places) = game.places() {
            return place_value(&places, me);
        }
        if random_ply(game, rng).is_err() {
            break;
        }
    }
    0.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_worth_one_to_zero() {
        assert_eq!(place_value(&[1, 2], Seat::FIRST), 1.0);
        assert_eq!(place_value(&[1, 2], Seat::SECOND), 0.0);
        assert_eq!(place_value(&[1, 1], Seat::SECOND), 0.5);
        assert_eq!(place_value(&[2, 1, 3], Seat::FIRST), 0.5);
        assert_eq!(place_value(&[1, 1, 3], Seat::FIRST), 0.75);
    }
}
