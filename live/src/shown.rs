//! What a live game shows the people who follow it, and nothing that recovers its seed
//! (issue 32). The seed is in the replay's `meta.seed` (each bot's `ARBITER_SEED` is drawn from
//! it) and, for a game with chance, in its configuration (the 2048 duel's sequence, a module's
//! dice): with it, a page that runs the module deals the whole game to come.
//!
//! - The start's replay ([`skeleton`]) has no `meta.seed` and no commands; the 2048 duel's
//!   chance is given as its sequence, which the rules deal to both bots at the start anyway; a
//!   module game's seed is a stand-in's, drawn afresh for the game.
//! - A module game is then followed through that stand-in (the player runs the module with the
//!   stand-in's seed) for as long as the stand-in shows exactly what the real game shows
//!   ([`Face`]: the side to move, the forced move, the scores, the end, the view and what each
//!   seat is told) and accepts every move played. A game without chance never differs. Once one
//!   does (a die, a deal), the hub sends each position instead ([`position`]) and the player
//!   draws those: it never learns the chance still to come.
//! - A module game that hides something (hands, sealed bids) or has simultaneous turns is
//!   always followed from positions, each made for its viewer ([`position`] with a
//!   [`Viewer`]): a person's seat sees what that seat sees, spectators the public view, and
//!   a move the viewer may not know is masked ([`masked`]).

use arbiter_engine::any::AnyMove;
use arbiter_engine::any::{AnyGame, GameConfig};
use arbiter_engine::duel2048::{self, RandomSource};
use arbiter_engine::module::MoveText;
use arbiter_engine::replay::{Meta, MoveRecord, Replay};
use arbiter_engine::{Seat, Turn, Viewer};
use serde_json::{json, Value};

/// The most legal moves a position sent to a person lists (beyond, the person types the move).
const MAX_LEGAL: usize = 4096;
/// The largest `clicks` answer a position sent to a person carries, in bytes.
const MAX_CLICKS: usize = 256 * 1024;

/// The replay the followers of a game start from: its game, players and opening, with nothing
/// that recovers the seed. `stand_in` replaces a module game's seed.
pub fn skeleton(replay: &Replay, stand_in: u64) -> Replay {
    let mut skeleton = replay.clone();
    skeleton.moves.clear();
    skeleton.scores = None;
    skeleton.failure = None;
    skeleton.module_wasm = None;
    skeleton.meta = Meta {
        event: replay.meta.event.clone(),
        date: replay.meta.date.clone(),
        ..Meta::default()
    };
    for p in &mut skeleton.players {
        p.command = None;
    }
    match &mut skeleton.game {
        GameConfig::Duel2048(c) => {
            if let RandomSource::Seed(s) = c.random {
                c.random =
                    RandomSource::Sequence(duel2048::random_sequence(s, usize::from(c.rounds)));
            }
        }
        GameConfig::Module(m) => m.seed = stand_in,
        GameConfig::Reversi(_) | GameConfig::Gomoku(_) => {}
    }
    skeleton
}

/// Everything a player or a bot sees of a module game's position.
#[derive(PartialEq, Eq, Debug)]
pub struct Face {
    to_move: Option<Seat>,
    forced: Option<String>,
    scores: Vec<i64>,
    outcome: Option<(Vec<u32>, Option<String>)>,
    view: String,
    told: Vec<String>,
}

impl Face {
    /// The face of `g`, a module game's position (`None` for a built-in game, whose stand-in
    /// is the game itself).
    pub fn of(g: &AnyGame) -> Option<Face> {
        let rules = g.as_module()?;
        Some(Face {
            to_move: g.to_move(),
            forced: g.forced_move().map(|m| g.format_move(m)),
            scores: g.scores(),
            outcome: g.places().map(|p| (p, g.end_words())),
            // What everyone may see: the hub's positions reach spectators too.
            view: rules.view(Viewer::Public),
            told: Seat::all(g.seats()).map(|s| rules.tell(s)).collect(),
        })
    }
}

/// Whether a game's followers must each be shown their own positions: a module game that
/// hides something from some seat, or whose turns may be simultaneous (a mover must not see
/// the others' choices, nor a spectator a move the table does not see).
pub fn is_private(g: &AnyGame) -> bool {
    g.as_module().is_some_and(|r| {
        let kind = r.kind();
        kind.hidden || kind.simultaneous
    })
}

/// A position as the hub sends it when the player cannot rebuild it: the status, the view as
/// `viewer` sees it, the movers of a simultaneous turn and, when `chooser` (a person) is to
/// move, its legal moves and how to click them.
pub fn position(g: &AnyGame, viewer: Viewer, chooser: Option<Seat>) -> Value {
    let view = g
        .as_module()
        .and_then(|r| serde_json::from_str::<Value>(&r.view(viewer)).ok())
        .unwrap_or(Value::Null);
    // Places, not only the winner: in a game of N seats several may share first place
    // (Dou Dizhu's peasants), and the player checks the end's result against them.
    let outcome = g.outcome().map(|o| {
        json!({
            "winner": o.winner.map(Seat::index),
            "places": g.places(),
            "reason": g.end_words().unwrap_or_default(),
        })
    });
    let mut p = json!({
        "to_move": g.to_move().map(Seat::index),
        "forced": g.forced_move().map(|m| g.format_move(m)),
        "scores": g.scores(),
        "outcome": outcome,
        "view": view,
    });
    if let Turn::Together(set) = g.turn() {
        p["movers"] = json!(set.iter().map(Seat::index).collect::<Vec<_>>());
    }
    let Some(seat) = chooser.filter(|s| g.turn().movers().contains(*s)) else {
        return p;
    };
    if let Some(f) = g.forced_move_of(seat) {
        p["own_forced"] = json!(g.format_move(f));
        return p;
    }
    let legal: Vec<String> = g
        .legal_moves_of(seat)
        .into_iter()
        .take(MAX_LEGAL + 1)
        .map(|m| g.format_move(m))
        .collect();
    if legal.len() <= MAX_LEGAL {
        p["legal"] = json!(legal);
    }
    if g.to_move().is_none() {
        // Whose choices these are, in a turn of several movers.
        p["chooser"] = json!(seat.index());
    }
    let clicks = g.as_module().and_then(|r| r.clicks(seat));
    if let Some(c) = clicks.filter(|c| c.len() <= MAX_CLICKS) {
        p["clicks"] = serde_json::from_str(&c).unwrap_or(Value::Null);
    }
    p
}

/// The moves of a ply (its record and those played with it), read in `g`'s notation.
fn ply_moves(g: &AnyGame, record: &MoveRecord) -> Option<Vec<(Seat, AnyMove)>> {
    record
        .records()
        .map(|r| g.parse_move(&r.mv).ok().map(|m| (r.seat, m)))
        .collect()
}

/// Plays a recorded ply (one move, or a simultaneous turn's) on `g`.
pub fn play_record(g: &mut AnyGame, record: &MoveRecord) -> bool {
    if record.with.is_empty() {
        return g.play_text(&record.mv).is_ok();
    }
    let Some(mut moves) = ply_moves(g, record) else {
        return false;
    };
    moves.sort_by_key(|(s, _)| *s);
    g.play_together(&moves).is_ok()
}

/// A ply's record as `viewer` may know it, `before` being the position it was played from:
/// a move the module does not reveal to the viewer is `?` (a seat always knows its own).
pub fn masked(before: &AnyGame, record: &MoveRecord, viewer: Viewer) -> MoveRecord {
    if before.as_module().is_none() || viewer == Viewer::All {
        return record.clone();
    }
    let Some(moves) = ply_moves(before, record) else {
        return record.clone();
    };
    let told = before.told(&moves, viewer);
    let shown = |i: usize, r: &MoveRecord| {
        let own = viewer == Viewer::Seat(r.seat);
        let text = match told.get(i).cloned().flatten() {
            _ if own => r.mv.clone(),
            Some(t) if MoveText::new(&t).is_some() => t,
            _ => "?".to_string(),
        };
        MoveRecord {
            log: None,
            with: Vec::new(),
            mv: text,
            ..r.clone()
        }
    };
    let mut out = shown(0, record);
    out.with = record
        .with
        .iter()
        .enumerate()
        .map(|(i, r)| shown(i + 1, r))
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::replay::Player;

    #[test]
    fn the_skeleton_keeps_no_seed() {
        let mut duel = GameConfig::default_for("duel2048").unwrap();
        if let GameConfig::Duel2048(c) = &mut duel {
            c.rounds = 20;
            c.random = RandomSource::Seed(987_654_321);
        }
        let players = Seat::BOTH.map(|s| Player {
            name: format!("p{}", s.index()),
            seat: s,
            command: Some("./secret-bot --flag".into()),
        });
        let mut replay = Replay::new(duel, players);
        replay.meta.seed = Some(123_456_789);
        let s = skeleton(&replay, 5);
        let text = serde_json::to_string(&s).unwrap();
        assert!(!text.contains("123456789"), "{text}");
        assert!(!text.contains("987654321"), "{text}");
        assert!(!text.contains("secret-bot"), "{text}");
        // The duel's sequence is the game's own: both rebuild the same positions.
        let (a, b) = (
            replay.start_position().unwrap(),
            s.start_position().unwrap(),
        );
        match (a, b) {
            (AnyGame::Duel2048(a), AnyGame::Duel2048(b)) => assert_eq!(a.sequence(), b.sequence()),
            _ => panic!("not a duel"),
        }
    }
}
