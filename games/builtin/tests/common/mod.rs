//! The engine and the kit side by side: perft over the engine, and random playouts that play
//! the engine and a kit game (native or a module) in step, comparing every answer.

// Each test file uses a part of this.
#![allow(dead_code)]

use arbiter_engine::duel2048::{self, Direction, Duel};
use arbiter_engine::gomoku::{Gomoku, Point};
use arbiter_engine::reversi::{self, Reversi};
use arbiter_engine::{Game, Seat};
use arbiter_kit_host::check::Rng;
use arbiter_kit_host::{Rules, State};
use serde_json::Value;

/// Perft over the engine's `Game`, counted as the kit counts (`kit_host::perft`): a finished
/// game has no leaves below it. The engine's own tables count it as one leaf at any depth;
/// the two agree wherever no game ends before the last ply.
pub fn engine_perft<G: Game>(g: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = g.clone();
            child.play_unchecked(m);
            engine_perft(&child, depth - 1)
        })
        .sum()
}

/// Plays `moves` (engine notation) on both sides.
pub fn play_both<G: Game>(rules: &mut Rules, s: State, g: &mut G, moves: &[&str]) {
    for m in moves {
        let mv = g.parse_move(m).expect("the engine reads the move");
        g.play(mv).expect("the engine plays the move");
        rules
            .play(s, m)
            .expect("the kit answers")
            .expect("the kit plays the move");
    }
}

/// One position through the kit and in the engine: every answer must agree.
pub fn same_position<G: Game>(rules: &mut Rules, s: State, g: &G) -> Result<(), String> {
    let st = rules.status(s).map_err(|e| e.to_string())?;
    let want_to_move = g.to_move().map(arbiter_engine::Seat::index);
    let want_forced = g.forced_move().map(|m| g.format_move(m));
    let want_scores = g.scores().to_vec();
    let forced = st.forced_move().map(String::from);
    if (st.to_move(), &forced, &st.scores) != (want_to_move, &want_forced, &want_scores) {
        return Err(format!(
            "status {st:?}, engine: to move {want_to_move:?}, forced {want_forced:?}, \
             scores {want_scores:?}"
        ));
    }
    let want_end = g
        .outcome()
        .map(|o| o.winner.map(arbiter_engine::Seat::index));
    let end = st.outcome.as_ref().map(|o| o.winner());
    if end != want_end || st.outcome.as_ref().is_some_and(|o| o.scores != want_scores) {
        return Err(format!(
            "outcome {:?}, engine {:?}",
            st.outcome,
            g.outcome()
        ));
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let want: Vec<String> = moves.iter().map(|m| g.format_move(*m)).collect();
    let legal = rules.legal(s).map_err(|e| e.to_string())?;
    if legal != want {
        return Err(format!("legal {legal:?}, engine {want:?}"));
    }
    Ok(())
}

/// What a playout comparison did.
#[derive(Debug, Default)]
pub struct Played {
    pub plies: u64,
    /// Refusals compared: illegal moves both sides refused with the same words.
    pub refusals: u64,
    pub finished: u32,
}

/// `playouts` random games from `start` (the engine's) and `config` (the kit's) with seeds
/// `seed..`, in step: at every ply the status, the legal list and the outcome agree, and a
/// move the engine refuses (`probes` of the position) is refused through the kit with the
/// engine's words and changes nothing.
pub fn compare_playouts<G: Game>(
    rules: &mut Rules,
    config: &Value,
    start: impl Fn(u64) -> G,
    probes: impl Fn(&G) -> Vec<G::Move>,
    playouts: u32,
    seed: u64,
) -> Played {
    let mut done = Played::default();
    let mut rng = Rng::new(seed);
    for game in 0..playouts {
        let game_seed = seed + u64::from(game);
        let mut g = start(game_seed);
        let s = rules
            .start(config, game_seed)
            .expect("the kit starts the game");
        loop {
            let at = |w: String| format!("playout {game} ply {}: {w}", g.ply());
            same_position(rules, s, &g).map_err(at).unwrap();
            done.refusals += compare_refusals(rules, s, &g, probes(&g));
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            let Some(&mv) = moves.get(rng.below(moves.len())) else {
                break;
            };
            let text = g.format_move(mv);
            g.play(mv).expect("a legal move plays");
            rules.play(s, &text).unwrap().expect("the kit plays it");
            done.plies += 1;
        }
        done.finished += u32::from(g.outcome().is_some());
        rules.release(s).unwrap();
    }
    done
}

/// Moves the engine refuses here are refused through the kit with the same reason, and leave
/// the position as it was. Returns how many were compared.
fn compare_refusals<G: Game>(rules: &mut Rules, s: State, g: &G, probes: Vec<G::Move>) -> u64 {
    let mut compared = 0;
    for mv in probes {
        let Err(why) = g.clone().play(mv) else {
            continue;
        };
        let text = g.format_move(mv);
        let kit = rules.play(s, &text).unwrap();
        assert_eq!(kit, Err(why.to_string()), "{text} at ply {}", g.ply());
        compared += 1;
    }
    if compared > 0 {
        same_position(rules, s, g).expect("a refused move changes nothing");
    }
    compared
}

/// A pass, and one row of squares (the row turns with the ply): occupied squares, squares that
/// flip nothing, and a placement while the side must pass.
pub fn reversi_probes(g: &Reversi) -> Vec<reversi::Move> {
    let n = g.size();
    let row = (g.ply() % usize::from(n)) as u8;
    let mut probes = vec![reversi::Move::Pass];
    probes.extend((0..n).map(|col| reversi::Move::Place { row, col }));
    probes
}

/// Black's forbidden points under renju, and the last stone's point (taken).
pub fn gomoku_probes(g: &Gomoku) -> Vec<Point> {
    let mut probes: Vec<Point> = match g.to_move() {
        Some(Seat::FIRST) => g.forbidden_points().into_iter().map(|(p, _)| p).collect(),
        _ => Vec::new(),
    };
    probes.extend(g.history().last());
    probes
}

/// Every slide, a skip, and the two corners: wrong steps, unchanged boards, cells the
/// sequence does not give, taken cells.
pub fn duel_probes(_: &Duel) -> Vec<duel2048::Move> {
    let mut probes: Vec<duel2048::Move> = Direction::ALL.map(duel2048::Move::Slide).to_vec();
    probes.push(duel2048::Move::Skip);
    probes.push(duel2048::Move::Place { row: 0, col: 0 });
    probes.push(duel2048::Move::Place { row: 3, col: 7 });
    probes
}
