//! A match: several games between bots (one per seat of the game) with the seats rotating
//! game by game, so that each bot plays each seat equally often (each opening played in
//! every seating), one replay per game, and a summary.

use std::collections::BTreeMap;
use std::path::PathBuf;

use arbiter_engine::any::GameConfig;
use arbiter_engine::replay::{Reason, Replay};
use arbiter_engine::Seat;
use serde::Serialize;

use crate::game::{self, BotSpec, GameSpec, Played, Seats};
use crate::live::{Live, LiveGames, NotLive, Observer};
use arbiter_sandbox::Containment;

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    pub game: GameSpec,
    /// Number of games (seats rotate game by game).
    pub games: usize,
    /// Openings (move lists); the n games of a round of seatings (n the seat count: a pair in
    /// a two-seat game) share one opening, the openings cycled.
    pub openings: Vec<Vec<String>>,
    /// The match seed: game `i` gets [`game_seed`]`(seed, i)`, so one number replays the match.
    pub seed: u64,
}

/// The seed of game `i` of a match seeded with `seed` (SplitMix64's mix, so neighbouring games
/// get unrelated seeds).
pub fn game_seed(seed: u64, i: usize) -> u64 {
    let mut z = seed.wrapping_add((i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One game's line in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct GameLine {
    pub number: usize,
    /// Name of the bot in each seat, seat 0 first.
    pub seats: Vec<String>,
    /// The winning bot's name (alone in first place), `None` for a draw or no result.
    pub winner: Option<String>,
    /// Each seat's place (1 first) in a game of three or more seats with a result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<u32>>,
    pub reason: String,
    pub reason_code: String,
    pub moves: usize,
    pub replay: Option<String>,
}

/// Per-bot totals.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BotTotals {
    /// Games it placed first in alone.
    pub wins: usize,
    /// Games it shared first place in (a two-seat draw).
    pub draws: usize,
    /// Games it placed below first.
    pub losses: usize,
    /// In games of three or more seats, how often it took each place: `places[0]` firsts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<usize>,
    /// Games with no result (the game's rules failed, neither bot started): not draws.
    pub no_result: usize,
    /// Losses by reason code (`move_time`, `illegal_move` ...), normal ends excluded.
    pub failures: BTreeMap<String, usize>,
    pub moves: usize,
    pub think_ms: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct MatchSummary {
    pub game: GameConfig,
    /// The match seed (`--seed` plays the same match again).
    pub seed: u64,
    pub bots: Vec<String>,
    pub totals: Vec<BotTotals>,
    pub games: Vec<GameLine>,
    pub warnings: Vec<String>,
}

/// Plays the match. `on_game` sees each finished game (to print progress and save files) and
/// returns where its replay was written, if anywhere.
pub fn play(
    spec: &MatchSpec,
    bots: &[&BotSpec],
    seats: &Seats,
    containment: &Containment,
    on_game: impl FnMut(usize, &Played) -> Option<String>,
) -> MatchSummary {
    play_live(spec, bots, seats, containment, &mut NotLive, on_game)
}

/// [`play`], each game made live by `live` (watched, or with seats played by people).
pub fn play_live(
    spec: &MatchSpec,
    bots: &[&BotSpec],
    seats: &Seats,
    containment: &Containment,
    live: &mut dyn LiveGames,
    on_game: impl FnMut(usize, &Played) -> Option<String>,
) -> MatchSummary {
    play_until(spec, bots, seats, containment, live, on_game, |_| true)
}

/// [`play_live`], asking `keep_going` after every game (with the summary so far) whether to
/// play on: an SPRT stops at its decision.
pub fn play_until(
    spec: &MatchSpec,
    bots: &[&BotSpec],
    seats: &Seats,
    containment: &Containment,
    live: &mut dyn LiveGames,
    mut on_game: impl FnMut(usize, &Played) -> Option<String>,
    mut keep_going: impl FnMut(&MatchSummary) -> bool,
) -> MatchSummary {
    let n = bots.len();
    let names: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
    let mut summary = MatchSummary {
        game: spec.game.config.clone(),
        seed: spec.seed,
        bots: names,
        totals: vec![BotTotals::default(); n],
        games: Vec::new(),
        warnings: Vec::new(),
    };
    for i in 0..spec.games {
        let order = seating(i, n);
        let mut g = spec.game.clone();
        g.config = spec.game.config.for_game_of_series(i, n);
        g.seed = Some(game_seed(spec.seed, i));
        if !spec.openings.is_empty() {
            g.opening = spec.openings[(i / n) % spec.openings.len()].clone();
        }
        let game_seats = Seats {
            cores: order
                .iter()
                .map(|&b| seats.cores.get(b).copied().flatten())
                .collect(),
            scratch_root: seats.scratch_root.clone(),
        };
        let seated: Vec<&BotSpec> = order.iter().map(|&b| bots[b]).collect();
        // A game the machine spoiled (a stall, a full disk) is no result: played again.
        let played = game::play_unvoided(
            || {
                let mut setup = live.setup(i, &g, &seated);
                if let Some(replay) = setup.finished.take() {
                    return Played::finished_earlier(*replay);
                }
                game::resume_live(
                    &g,
                    &seated,
                    &game_seats,
                    containment,
                    Live {
                        observer: setup
                            .observer
                            .as_deref_mut()
                            .map(|o| o as &mut dyn Observer),
                        remote: setup.remote,
                    },
                    &setup.resume,
                )
            },
            |v| eprintln!("game {}: voided: {}; playing it again", i + 1, v.why),
        );
        for w in &played.warnings {
            if !summary.warnings.contains(w) {
                summary.warnings.push(w.clone());
            }
        }
        let path = on_game(i, &played);
        account(&mut summary, &played.replay, &order, path, i + 1);
        if !keep_going(&summary) {
            break;
        }
    }
    summary
}

/// Who sits where in game `i` of a match of `n` bots: bot `(s + i) mod n` takes seat `s`, so
/// that over `n` games every bot plays every seat once (two bots: colours alternate).
pub fn seating(i: usize, n: usize) -> Vec<usize> {
    (0..n).map(|s| (s + i) % n.max(1)).collect()
}

fn account(
    s: &mut MatchSummary,
    replay: &Replay,
    order: &[usize],
    path: Option<String>,
    number: usize,
) {
    let r = &replay.result;
    let n = order.len();
    let places = r.places(n);
    for (seat_index, &bot) in order.iter().enumerate() {
        let t = &mut s.totals[bot];
        let place = places.as_ref().map(|p| p[seat_index]);
        let shared = places
            .as_ref()
            .is_some_and(|p| p.iter().filter(|&&q| Some(q) == place).count() > 1);
        match place {
            None => t.no_result += 1,
            Some(1) if shared => t.draws += 1,
            Some(1) => t.wins += 1,
            Some(_) => {
                t.losses += 1;
                let culprit = r.reason.culprit().map(Seat::index);
                if r.reason != Reason::Normal && culprit == Some(seat_index) {
                    *t.failures.entry(r.reason.code().to_string()).or_default() += 1;
                }
            }
        }
        if let (Some(p), true) = (place, n > 2) {
            t.places.resize(n, 0);
            t.places[(p as usize).clamp(1, n) - 1] += 1;
        }
        for retired in replay
            .retired
            .iter()
            .filter(|x| x.seat().index() == seat_index)
        {
            *t.failures
                .entry(retired.reason.code().to_string())
                .or_default() += 1;
        }
        for m in replay.moves.iter().flat_map(|m| m.records()) {
            if let (true, Some(ms)) = (m.seat.index() == seat_index, m.time_ms) {
                t.moves += 1;
                t.think_ms += ms;
            }
        }
    }
    s.games.push(GameLine {
        number,
        seats: order.iter().map(|&b| s.bots[b].clone()).collect(),
        winner: r.winner.map(|w| s.bots[order[w.index()]].clone()),
        places: places.filter(|_| n > 2),
        reason: match &replay.meta.ending {
            Some(words) if r.reason == Reason::Normal => format!("{}: {words}", r.reason),
            _ => r.reason.to_string(),
        },
        reason_code: r.reason.code().to_string(),
        moves: replay.moves.len(),
        replay: path,
    });
}

/// Where a match writes: `DIR/game-0001.json` ..., `DIR/summary.json`.
pub fn replay_path(dir: &std::path::Path, i: usize) -> PathBuf {
    dir.join(format!("game-{:04}.json", i + 1))
}
