//! `arbiter game check`: the conformance suite every module must pass before a contest uses it.
//!
//! Random playouts from a fixed seed, played on two copies of each position in step, checking
//! at every ply:
//! - the status is possible and both copies agree (determinism); a simultaneous turn is played
//!   on the two copies with its moves sent in opposite orders, so the order in which a referee
//!   collects them cannot matter;
//! - every legal move plays (the module formats it, then parses it back), the list has no
//!   duplicates, a forced move is the only legal one, nonsense is refused and changes nothing;
//! - every viewer's view can be drawn, and each seat is told something; a game without hidden
//!   information draws one view for everyone;
//! - hidden information: a position sampled for a seat tells that seat and shows it exactly
//!   what the real one does (so nothing it is told depends on another seat's hidden part), and
//!   over a game some samples redraw something (a sample that keeps everything would let a
//!   search read other hands); a seat is revealed its own moves as they are;
//! - in a game of three or more seats, a seat retired at a random ply never moves again and
//!   the game still ends with a ranking;
//! - the game ends within the ply bound, with a well-formed ranking and no legal move after.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use arbiter_game::view::Board;
use arbiter_game::Viewer;

use crate::{KitError, Rules, State, Status};

/// What the suite did, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The seat count the games were played with.
    pub seats: usize,
    pub playouts: u32,
    pub plies: u64,
    /// Games each seat placed first in alone.
    pub wins: Vec<u32>,
    /// Games with no seat alone in first place.
    pub draws: u32,
    pub longest: u64,
    /// Plies that were simultaneous turns.
    pub together: u64,
    /// Seats retired in a copy that then played on to a ranking.
    pub retired: u32,
    /// Positions sampled for a seat (games with hidden information).
    pub samples: u32,
    /// Whether the games hid information (under the config's kind).
    pub hidden: bool,
}

/// How much to check.
#[derive(Clone, Debug)]
pub struct Plan {
    pub config: Value,
    pub playouts: u32,
    /// A game longer than this is an error (a game that never ends).
    pub max_plies: u64,
    /// The plies of each playout checked in full (views for every viewer, what each seat is
    /// told, the legal list, nonsense refused, clicks); past them, one ply in [`THIN_STRIDE`]
    /// is, and the others only compare the two copies' status on the way to the end.
    pub thorough_plies: u64,
    pub seed: u64,
}

/// Past [`Plan::thorough_plies`], every this many plies is checked in full.
pub const THIN_STRIDE: u64 = 25;

impl Default for Plan {
    fn default() -> Self {
        Plan {
            config: Value::Object(Default::default()),
            playouts: 20,
            max_plies: 10_000,
            thorough_plies: u64::MAX,
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

/// The suite for every seat count the module allows (or the one the config's `players`
/// picks): one summary per count.
pub fn run_every_count(rules: &mut Rules, plan: &Plan) -> Result<Vec<Summary>, KitError> {
    let picked = plan.config.get(arbiter_game::config::PLAYERS).is_some();
    let counts = match picked {
        true => vec![None],
        false => rules.info().seats.iter().map(|&n| Some(n)).collect(),
    };
    let several = counts.len() > 1;
    let mut out = Vec::new();
    for n in counts {
        let mut p = plan.clone();
        if let (Some(n), true) = (n, several) {
            p.config[arbiter_game::config::PLAYERS] = n.into();
        }
        out.push(run(rules, &p)?);
    }
    Ok(out)
}

/// Runs the suite with the plan's config.
pub fn run(rules: &mut Rules, plan: &Plan) -> Result<Summary, KitError> {
    let mut sum = Summary::default();
    let mut rng = Rng::new(plan.seed);
    // Samples and retirements draw from generators of their own, so the playouts are the
    // same moves whatever else is checked (a version 1 and a version 2 build of one game
    // play the same games).
    let mut side = Rng::new(plan.seed ^ 0x005E_ED0F_C4EC);
    let mut redrew = false;
    for game in 0..plan.playouts {
        let seed = plan.seed.wrapping_add(u64::from(game));
        let mut p = Playout {
            a: rules.start(&plan.config, seed)?,
            b: rules.start(&plan.config, seed)?,
            moves: Vec::new(),
            game,
        };
        sum.seats = rules.seats(p.a);
        sum.hidden = rules.kind(p.a).hidden;
        let retire_at = (sum.seats > 2).then(|| side.below(40) as u64);
        let status = loop {
            let ply = p.moves.len() as u64;
            let full = ply < plan.thorough_plies || ply % THIN_STRIDE == 0;
            let st = match full {
                true => p.step_checks(rules, &mut sum, &mut side, &mut redrew)?,
                false => p.same_status(rules)?,
            };
            if st.movers.is_empty() {
                break st;
            }
            if p.moves.len() as u64 >= plan.max_plies {
                return Err(p.broken(rules, "the game did not end".into()));
            }
            if retire_at == Some(p.moves.len() as u64) {
                p.check_retire(rules, &mut side, plan.max_plies, &mut sum)?;
            }
            p.play_random(rules, &st, &mut rng, &mut sum)?;
        };
        p.check_end(rules)?;
        tally(&mut sum, &status, p.moves.len() as u64);
    }
    if sum.hidden && sum.samples > 0 && !redrew {
        return Err(KitError::Module {
            module: rules.label().to_string(),
            what: format!(
                "says its game hides information, but none of {} positions sampled for a seat \
                 redrew anything: a sample must redraw what the seat cannot see (other hands, \
                 the stock), or a search reads it",
                sum.samples
            ),
        });
    }
    Ok(sum)
}

/// One playout: two copies of the game played in step.
struct Playout {
    a: State,
    b: State,
    moves: Vec<String>,
    game: u32,
}

impl Playout {
    fn broken(&self, rules: &Rules, what: String) -> KitError {
        broken(rules, what, self.game, &self.moves)
    }

    /// The one check of a thinly checked ply: both copies are in the same status.
    fn same_status(&self, rules: &mut Rules) -> Result<Status, KitError> {
        let (sa, sb) = (rules.status(self.a)?, rules.status(self.b)?);
        if sa != sb {
            return Err(self.broken(rules, format!("not deterministic: {sa:?} then {sb:?}")));
        }
        Ok(sa)
    }

    /// The checks of one position; its status.
    fn step_checks(
        &self,
        rules: &mut Rules,
        sum: &mut Summary,
        rng: &mut Rng,
        redrew: &mut bool,
    ) -> Result<Status, KitError> {
        let (st, board) = same_position(rules, self.a, self.b, self.moves.len())
            .map_err(|w| self.broken(rules, w))?;
        if st.movers.is_empty() {
            return Ok(st);
        }
        // Every ply of a game that hides something; now and then in the others, whose
        // samples must simply keep everything a seat knows.
        let due = rules.kind(self.a).hidden || self.moves.len() % 10 == 0;
        if due && rules.info().abi >= 2 {
            let seat = rng.below(rules.seats(self.a));
            let changed = check_sample(rules, self.a, seat, rng.next_u64())
                .map_err(|w| self.broken(rules, w))?;
            sum.samples += 1;
            *redrew |= changed;
        }
        for &seat in &st.movers {
            let legal = rules.legal_of(self.a, seat)?;
            let forced = st
                .movers
                .iter()
                .position(|&m| m == seat)
                .and_then(|i| st.forced[i].clone());
            check_legal(rules, self.a, &st, &legal, forced.as_deref())
                .map_err(|w| self.broken(rules, format!("seat {seat}: {w}")))?;
            // Clicks are for people in the player, never a verdict: every fourth ply (a list
            // of Amazons' 2,000 moves with their cells is the costliest answer of a ply).
            if self.moves.len() % 4 == 0 {
                check_clicks(rules, self.a, seat, &board, &legal)
                    .map_err(|w| self.broken(rules, w))?;
            }
        }
        Ok(st)
    }

    /// Plays one random ply on both copies: a simultaneous turn's moves sent in opposite
    /// orders.
    fn play_random(
        &mut self,
        rules: &mut Rules,
        st: &Status,
        rng: &mut Rng,
        sum: &mut Summary,
    ) -> Result<(), KitError> {
        let mut joint = Vec::new();
        for &seat in &st.movers {
            let legal = rules.legal_of(self.a, seat)?;
            joint.push((seat, legal[rng.below(legal.len())].clone()));
        }
        check_reveal(rules, self.a, &joint).map_err(|w| self.broken(rules, w))?;
        let words = joint
            .iter()
            .map(|(s, m)| {
                if joint.len() > 1 {
                    format!("{s}:{m}")
                } else {
                    m.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(",");
        if let [(_, mv)] = joint.as_slice() {
            for s in [self.a, self.b] {
                if let Err(why) = rules.play(s, mv)? {
                    let what = format!("refused its own legal move {mv:?}: {why}");
                    return Err(self.broken(rules, what));
                }
            }
        } else {
            sum.together += 1;
            let mut reversed = joint.clone();
            reversed.reverse();
            for (s, order) in [(self.a, &joint), (self.b, &reversed)] {
                if let Err((seat, why)) = rules.play_together(s, order)? {
                    let what = format!("refused its own legal move of seat {seat}: {why}");
                    return Err(self.broken(rules, what));
                }
            }
        }
        self.moves.push(words);
        Ok(())
    }

    /// Retires a random seat of a copy: the game must go on without it to a ranking (or end
    /// there, when the rules say so).
    fn check_retire(
        &self,
        rules: &mut Rules,
        rng: &mut Rng,
        max_plies: u64,
        sum: &mut Summary,
    ) -> Result<(), KitError> {
        let copy = rules.duplicate(self.a)?;
        let seat = rng.below(rules.seats(copy));
        let outcome = retire_and_play_on(rules, copy, seat, rng, max_plies);
        rules.release(copy)?;
        if outcome.map_err(|w| self.broken(rules, format!("after retiring seat {seat}: {w}")))? {
            sum.retired += 1;
        }
        Ok(())
    }

    fn check_end(&self, rules: &mut Rules) -> Result<(), KitError> {
        let seats = rules.seats(self.a);
        for seat in 0..seats {
            if !rules.legal_of(self.a, seat)?.is_empty() {
                let what = format!("lists legal moves of seat {seat} after the end");
                return Err(self.broken(rules, what));
            }
        }
        rules.release(self.a)?;
        rules.release(self.b)?;
        Ok(())
    }
}

/// Retires `seat` in `s` and plays random moves to the end: `Ok(true)` when the game went on
/// and ended with a ranking without the seat ever moving again, `Ok(false)` when the rules
/// end the game instead (the default).
fn retire_and_play_on(
    rules: &mut Rules,
    s: State,
    seat: usize,
    rng: &mut Rng,
    max_plies: u64,
) -> Result<bool, String> {
    let words = |e: KitError| e.to_string();
    let before = rules.status(s).map_err(words)?;
    if !rules.retire(s, seat).map_err(words)? {
        let after = rules.status(s).map_err(words)?;
        if after != before {
            return Err("answered that the game cannot go on, yet changed the position".into());
        }
        return Ok(false);
    }
    for _ in 0..max_plies {
        let st = rules.status(s).map_err(words)?;
        if st.movers.is_empty() {
            return Ok(true);
        }
        // A retired seat moves no more, or only by forced moves the referee plays for it.
        if let Some(i) = st.movers.iter().position(|&m| m == seat) {
            if st.forced[i].is_none() {
                return Err(format!(
                    "the retired seat {seat} is to move again, with a choice"
                ));
            }
        }
        let mut joint = Vec::new();
        for &m in &st.movers {
            let legal = rules.legal_of(s, m).map_err(words)?;
            if legal.is_empty() {
                return Err(format!("seat {m} is to move but has no legal move"));
            }
            joint.push((m, legal[rng.below(legal.len())].clone()));
        }
        let refused = match joint.as_slice() {
            [(_, mv)] => rules.play(s, mv).map_err(words)?.err(),
            _ => rules
                .play_together(s, &joint)
                .map_err(words)?
                .err()
                .map(|(_, w)| w),
        };
        if let Some(why) = refused {
            return Err(format!("refused its own legal move: {why}"));
        }
    }
    Err("the game did not end".into())
}

fn tally(sum: &mut Summary, status: &Status, plies: u64) {
    sum.playouts += 1;
    sum.plies += plies;
    sum.longest = sum.longest.max(plies);
    sum.wins.resize(sum.seats, 0);
    match status.outcome.as_ref().and_then(|o| o.winner()) {
        Some(w) if w < sum.wins.len() => sum.wins[w] += 1,
        _ => sum.draws += 1,
    }
}

/// Both copies answer alike, and the views and each seat's content are sound; the status and
/// the view's board.
fn same_position(
    rules: &mut Rules,
    a: State,
    b: State,
    ply: usize,
) -> Result<(Status, Board), String> {
    let words = |e: KitError| e.to_string();
    let (sa, sb) = (
        rules.status(a).map_err(words)?,
        rules.status(b).map_err(words)?,
    );
    if sa != sb {
        return Err(format!("not deterministic: {sa:?} then {sb:?}"));
    }
    let seats = rules.seats(a);
    // Every viewer's view in a game that hides something; in the others (whose views must
    // all be the whole view) now and then, and never in a version 1 module (one view).
    let hidden = rules.kind(a).hidden;
    let others = rules.info().abi >= 2 && (hidden || ply % 10 == 0);
    let viewers = std::iter::once(Viewer::All).chain(
        others
            .then(|| std::iter::once(Viewer::Public).chain((0..seats).map(Viewer::Seat)))
            .into_iter()
            .flatten(),
    );
    let mut all = None;
    for viewer in viewers {
        let (va, vb) = (
            rules.view_as(a, viewer).map_err(words)?,
            rules.view_as(b, viewer).map_err(words)?,
        );
        if va != vb {
            return Err(format!(
                "not deterministic: two views of one position for {viewer:?} differ"
            ));
        }
        match &all {
            None => all = Some(va),
            Some(whole) if !hidden && *whole != va => {
                return Err(format!(
                    "says its game hides nothing, yet draws another view for {viewer:?}"
                ))
            }
            Some(_) => {}
        }
    }
    for seat in 0..seats {
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
    let board = all.map(|v| v.board).ok_or("no view")?;
    Ok((sa, board))
}

/// A position sampled for `seat` tells it and shows it exactly what `s` does: nothing the
/// seat is told may depend on what it cannot see. Whether the sample redrew anything.
fn check_sample(rules: &mut Rules, s: State, seat: usize, seed: u64) -> Result<bool, String> {
    let words = |e: KitError| e.to_string();
    let sample = rules.sample(s, seat, seed).map_err(words)?;
    let result = (|| {
        let (told, told_sample) = (
            rules.tell(s, seat).map_err(words)?,
            rules.tell(sample, seat).map_err(words)?,
        );
        if told != told_sample {
            return Err(format!(
                "a position sampled for seat {seat} tells it {told_sample:?}, the real one \
                 {told:?}: what a seat is told depends on what it cannot see, or the sample \
                 changed what it knows"
            ));
        }
        let view = |r: &mut Rules, st| r.view_as(st, Viewer::Seat(seat)).map_err(words);
        if view(rules, s)? != view(rules, sample)? {
            return Err(format!(
                "a position sampled for seat {seat} shows it another view than the real one"
            ));
        }
        let (st, st_sample) = (
            rules.status(s).map_err(words)?,
            rules.status(sample).map_err(words)?,
        );
        if st.movers != st_sample.movers {
            return Err(format!(
                "a position sampled for seat {seat} has other movers ({:?}, not {:?})",
                st_sample.movers, st.movers
            ));
        }
        let whole = |r: &mut Rules, st| r.view_as(st, Viewer::All).map_err(words);
        let mut changed = whole(rules, s)? != whole(rules, sample)?;
        for other in (0..rules.seats(s)).filter(|&o| o != seat) {
            changed |=
                rules.tell(s, other).map_err(words)? != rules.tell(sample, other).map_err(words)?;
        }
        Ok(changed)
    })();
    rules.release(sample).map_err(words)?;
    result
}

/// Each mover of a ply is revealed its own move as it is.
fn check_reveal(rules: &mut Rules, s: State, joint: &[(usize, String)]) -> Result<(), String> {
    let words = |e: KitError| e.to_string();
    for (i, (seat, mv)) in joint.iter().enumerate() {
        let told = rules.reveal(s, joint, Some(*seat)).map_err(words)?;
        if told[i].as_deref() != Some(mv) {
            return Err(format!(
                "revealed seat {seat}'s own move {mv:?} to it as {:?}",
                told[i]
            ));
        }
    }
    rules.reveal(s, joint, None).map_err(words)?;
    Ok(())
}

/// When the module says how moves are clicked (the `clicks` op): every legal move of `seat`,
/// and only those, has clicks on the board, and no two moves are clicked the same way.
fn check_clicks(
    rules: &mut Rules,
    s: State,
    seat: usize,
    board: &Board,
    legal: &[String],
) -> Result<(), String> {
    let words = |e: KitError| e.to_string();
    let Some(clicks) = rules.clicks_of(s, Some(seat)).map_err(words)? else {
        return Ok(());
    };
    let corner = board.grid.corners();
    let on = |at: [u16; 2], extra: u16| match extra {
        0 => board.has(at),
        _ => at[0] < board.cols + extra && at[1] < board.rows + extra,
    };
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

/// The legal list of a mover, and that nonsense is refused without effect.
fn check_legal(
    rules: &mut Rules,
    s: State,
    st: &Status,
    legal: &[String],
    forced: Option<&str>,
) -> Result<(), String> {
    if legal.is_empty() {
        return Err("no legal move, yet it is to move".into());
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
    if let Some(f) = forced {
        if legal != [f.to_string()] {
            return Err(format!(
                "forced move {f:?} is not the one legal move ({legal:?})"
            ));
        }
    }
    // Nonsense is refused only in a turn of one seat: a simultaneous turn's refusals are
    // checked by the moves of every mover at once, which the playout sends.
    if st.movers.len() != 1 {
        return Ok(());
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
