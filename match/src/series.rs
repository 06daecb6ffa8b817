//! A match: several games between two bots with colours alternating (and each opening played
//! with both colours), one replay per game, and a summary.

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
    /// Number of games (colours alternate game by game).
    pub games: usize,
    /// Openings (move lists); game 2k and 2k+1 share opening k (cycled) with colours swapped.
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
    /// Name of the bot in seat 0 and seat 1.
    pub seats: [String; 2],
    /// The winning bot's name, `None` for a draw.
    pub winner: Option<String>,
    pub reason: String,
    pub reason_code: String,
    pub moves: usize,
    pub replay: Option<String>,
}

/// Per-bot totals.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BotTotals {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
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
    pub bots: [String; 2],
    pub totals: [BotTotals; 2],
    pub games: Vec<GameLine>,
    pub warnings: Vec<String>,
}

/// Plays the match. `on_game` sees each finished game (to print progress and save files) and
/// returns where its replay was written, if anywhere.
pub fn play(
    spec: &MatchSpec,
    bots: [&BotSpec; 2],
    seats: &Seats,
    containment: &Containment,
    on_game: impl FnMut(usize, &Played) -> Option<String>,
) -> MatchSummary {
    play_live(spec, bots, seats, containment, &mut NotLive, on_game)
}

/// [`play`], each game made live by `live` (watched, or with seats played by people).
pub fn play_live(
    spec: &MatchSpec,
    bots: [&BotSpec; 2],
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
    bots: [&BotSpec; 2],
    seats: &Seats,
    containment: &Containment,
    live: &mut dyn LiveGames,
    mut on_game: impl FnMut(usize, &Played) -> Option<String>,
    mut keep_going: impl FnMut(&MatchSummary) -> bool,
) -> MatchSummary {
    let names = [bots[0].name.clone(), bots[1].name.clone()];
    let mut summary = MatchSummary {
        game: spec.game.config.clone(),
        seed: spec.seed,
        bots: names.clone(),
        totals: Default::default(),
        games: Vec::new(),
        warnings: Vec::new(),
    };
    for i in 0..spec.games {
        // Bot A takes seat 0 in even games.
        let a_seat = if i % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        let order = if a_seat == Seat::First {
            [0, 1]
        } else {
            [1, 0]
        };
        let mut g = spec.game.clone();
        g.config = spec.game.config.for_game_of_series(i);
        g.seed = Some(game_seed(spec.seed, i));
        if !spec.openings.is_empty() {
            g.opening = spec.openings[(i / 2) % spec.openings.len()].clone();
        }
        let seat_cores = [seats.cores[order[0]], seats.cores[order[1]]];
        let game_seats = Seats {
            cores: seat_cores,
            scratch_root: seats.scratch_root.clone(),
        };
        let seated = [bots[order[0]], bots[order[1]]];
        // A game the machine spoiled (a stall, a full disk) is no result: played again.
        let played = game::play_unvoided(
            || {
                let mut setup = live.setup(i, &g, seated);
                game::play_live(
                    &g,
                    seated,
                    &game_seats,
                    containment,
                    Live {
                        observer: setup
                            .observer
                            .as_deref_mut()
                            .map(|o| o as &mut dyn Observer),
                        remote: setup.remote,
                    },
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
        account(&mut summary, &played.replay, order, path, i + 1);
        if !keep_going(&summary) {
            break;
        }
    }
    summary
}

fn account(
    s: &mut MatchSummary,
    replay: &Replay,
    order: [usize; 2],
    path: Option<String>,
    number: usize,
) {
    let r = &replay.result;
    let winner_bot = r.winner.map(|w| order[w.index()]);
    for (seat_index, &bot) in order.iter().enumerate() {
        let t = &mut s.totals[bot];
        match winner_bot {
            None if matches!(r.reason, Reason::Aborted { .. }) => t.no_result += 1,
            None => t.draws += 1,
            Some(w) if w == bot => t.wins += 1,
            Some(_) => {
                t.losses += 1;
                if r.reason != Reason::Normal {
                    *t.failures.entry(r.reason.code().to_string()).or_default() += 1;
                }
            }
        }
        for m in replay.moves.iter().filter(|m| m.seat.index() == seat_index) {
            if let Some(ms) = m.time_ms {
                t.moves += 1;
                t.think_ms += ms;
            }
        }
    }
    s.games.push(GameLine {
        number,
        seats: [s.bots[order[0]].clone(), s.bots[order[1]].clone()],
        winner: winner_bot.map(|b| s.bots[b].clone()),
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
