//! `arbiter game check`: the conformance suite every module must pass before a contest uses it.
//!
//! Random playouts from a fixed seed, played on two copies of each position in step, checking
//! at every ply: the status is consistent, both copies agree (determinism), every legal move
//! plays (notation round trip: the module formats it, then parses it back), the list has no
//! duplicates, a forced move is the only legal one, nonsense is refused and changes nothing,
//! the view can be drawn, and each seat is told something.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use arbiter_game::view::Board;

use crate::{KitError, Rules, State, Status};

/// What the suite did, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub playouts: u32,
    pub plies: u64,
    pub wins: [u32; 2],
    pub draws: u32,
    pub longest: u64,
}

/// How much to check.
#[derive(Clone, Debug)]
pub struct Plan {
    pub config: Value,
    pub playouts: u32,
    /// A game longer than this is an error (a game that never ends).
    pub max_plies: u64,
    pub seed: u64,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            config: Value::Object(Default::default()),
            playouts: 20,
            max_plies: 10_000,
            seed: 1,
        }
    }
}

/// A small deterministic generator (xorshift64*), so that a failing playout can be replayed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() >> 33) as usize % n.max(1)
    }

    /// The next 64 bits (xorshift64*).
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// A failed check: what, in which playout, after which moves.
fn broken(rules: &Rules, what: String, game: u32, moves: &[String]) -> KitError {
    let tail = moves.len().saturating_sub(12);
    KitError::Module {
        module: rules.label().to_string(),
        what: format!(
            "failed the conformance check in playout {game} after {} plies (last: {}): {what}",
            moves.len(),
            moves[tail..].join(" ")
        ),
    }
}

/// Runs the suite.
pub fn run(rules: &mut Rules, plan: &Plan) -> Result<Summary, KitError> {
    let mut sum = Summary::default();
    let mut rng = Rng::new(plan.seed);
    for game in 0..plan.playouts {
        let seed = plan.seed.wrapping_add(u64::from(game));
        let a = rules.start(&plan.config, seed)?;
        let b = rules.start(&plan.config, seed)?;
        let mut moves = Vec::new();
        let status = loop {
            let (st, board) =
                same_position(rules, a, b).map_err(|w| broken(rules, w, game, &moves))?;
            let Some(_) = st.to_move else { break st };
            if moves.len() as u64 >= plan.max_plies {
                return Err(broken(rules, "the game did not end".into(), game, &moves));
            }
            let legal = rules.legal(a)?;
            check_legal(rules, a, &st, &legal).map_err(|w| broken(rules, w, game, &moves))?;
            check_clicks(rules, a, &board, &legal).map_err(|w| broken(rules, w, game, &moves))?;
            let mv = legal[rng.below(legal.len())].clone();
            for s in [a, b] {
                if let Err(why) = rules.play(s, &mv)? {
                    let what = format!("refused its own legal move {mv:?}: {why}");
                    return Err(broken(rules, what, game, &moves));
                }
            }
            moves.push(mv);
        };
        if !rules.legal(a)?.is_empty() {
            return Err(broken(
                rules,
                "lists legal moves after the end".into(),
                game,
                &moves,
            ));
        }
        rules.release(a)?;
        rules.release(b)?;
        tally(&mut sum, &status, moves.len() as u64);
    }
    Ok(sum)
}

fn tally(sum: &mut Summary, status: &Status, plies: u64) {
    sum.playouts += 1;
    sum.plies += plies;
    sum.longest = sum.longest.max(plies);
    match status.outcome.as_ref().and_then(|o| o.winner) {
        Some(w) if w < 2 => sum.wins[w] += 1,
        _ => sum.draws += 1,
    }
}

/// Both copies answer alike, and the view and each seat's content are sound; the status and
/// the view's board.
fn same_position(rules: &mut Rules, a: State, b: State) -> Result<(Status, Board), String> {
    let words = |e: KitError| e.to_string();
    let (sa, sb) = (
        rules.status(a).map_err(words)?,
        rules.status(b).map_err(words)?,
    );
    if sa != sb {
        return Err(format!("not deterministic: {sa:?} then {sb:?}"));
    }
    let (va, vb) = (rules.view(a).map_err(words)?, rules.view(b).map_err(words)?);
    if va != vb {
        return Err("not deterministic: two views of one position differ".into());
    }
    for seat in 0..rules.info().seats {
        let (ta, tb) = (
            rules.tell(a, seat).map_err(words)?,
            rules.tell(b, seat).map_err(words)?,
        );
        if ta != tb {
            return Err(format!(
                "not deterministic: seat {seat} told {ta:?} then {tb:?}"
            ));
        }
        if ta.trim().is_empty() || ta.lines().any(|l| l.trim().is_empty()) {
            return Err(format!("told seat {seat} an empty line: {ta:?}"));
        }
    }
    Ok((sa, va.board))
}

/// When the module says how moves are clicked (the `clicks` op): every legal move, and only
/// those, has clicks on the board, and no two moves are clicked the same way.
fn check_clicks(
    rules: &mut Rules,
    s: State,
    board: &Board,
    legal: &[String],
) -> Result<(), String> {
    let words = |e: KitError| e.to_string();
    let Some(clicks) = rules.clicks(s).map_err(words)? else {
        return Ok(());
    };
    let corner = board.grid.corners();
    let on = |[c, r]: [u16; 2], extra: u16| c < board.cols + extra && r < board.rows + extra;
    let listed: HashSet<&str> = clicks.iter().map(|c| c.mv.as_str()).collect();
    if let Some(m) = legal.iter().find(|m| !listed.contains(m.as_str())) {
        return Err(format!("clicks: the legal move {m:?} has no clicks"));
    }
    let mut seen = HashMap::new();
    for c in &clicks {
        if !legal.contains(&c.mv) {
            return Err(format!("clicks: {:?} is not a legal move", c.mv));
        }
        let fits = match (&c.cells, &c.line) {
            (Some(cells), None) => !cells.is_empty() && cells.iter().all(|&p| on(p, 0)),
            (None, Some([a, b])) => on(*a, corner) && on(*b, corner) && a != b,
            _ => false,
        };
        if !fits {
            return Err(format!(
                "clicks: {:?} is not clicked on the board ({} x {}): {:?} {:?}",
                c.mv, board.cols, board.rows, c.cells, c.line
            ));
        }
        if let Some(other) = seen.insert((&c.cells, &c.line), &c.mv) {
            return Err(format!(
                "clicks: {:?} and {other:?} are clicked the same way",
                c.mv
            ));
        }
    }
    Ok(())
}

/// The legal list of a position in play, and that nonsense is refused without effect.
fn check_legal(rules: &mut Rules, s: State, st: &Status, legal: &[String]) -> Result<(), String> {
    if legal.is_empty() {
        return Err("no legal move, yet the game is not over".into());
    }
    let mut seen = HashSet::new();
    if let Some(mv) = legal.iter().find(|m| !seen.insert(m.as_str())) {
        return Err(format!("lists {mv:?} twice"));
    }
    if let Some(bad) = legal
        .iter()
        .find(|m| m.is_empty() || m.contains(['\n', '\r']))
    {
        return Err(format!(
            "lists a move that cannot be written on one line: {bad:?}"
        ));
    }
    // Moves travel as one word of a protocol line, and the referee keeps them inline.
    if let Some(bad) = legal.iter().find(|m| m.contains(char::is_whitespace)) {
        return Err(format!(
            "lists the move {bad:?}, which has a space in it: a move is one word"
        ));
    }
    let max = arbiter_engine::module::MOVE_MAX;
    if let Some(bad) = legal.iter().find(|m| m.len() > max) {
        return Err(format!(
            "lists the move {bad:?} of {} bytes: a move is at most {max} bytes",
            bad.len()
        ));
    }
    if let Some(f) = &st.forced {
        if legal != [f.clone()] {
            return Err(format!(
                "forced move {f:?} is not the one legal move ({legal:?})"
            ));
        }
    }
    let words = |e: KitError| e.to_string();
    let probe = rules.duplicate(s).map_err(words)?;
    for junk in ["", "~not a move~", "99999 99999"] {
        if rules.play(probe, junk).map_err(words)?.is_ok() {
            return Err(format!("accepted the nonsense move {junk:?}"));
        }
    }
    let after = rules.status(probe).map_err(words)?;
    rules.release(probe).map_err(words)?;
    if &after != st {
        return Err("a refused move changed the position".into());
    }
    Ok(())
}
