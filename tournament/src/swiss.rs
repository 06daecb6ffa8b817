//! Swiss pairing and standings, as plain functions (no storage): a round pairs players of
//! equal or near score who have not met, gives who moves first to the one who has moved first
//! less often, and gives a bye to one player of an odd field; the standings break ties by
//! Buchholz, Sonneborn-Berger and the games between the tied players (docs/tournaments.md).
//!
//! Players are indices `0..n` in seed order (0 is the first seed). Pairings are two-seat: a
//! Swiss of tables of more seats is another format.

use serde::{Deserialize, Serialize};

/// What the pairing of a round needs to know of a player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Player {
    /// Points so far (game points: a win 1, a draw 1/2).
    pub score: f64,
    /// Opponents met, one entry per round played against them.
    pub opponents: Vec<usize>,
    /// Per round played: `true` if the player moved first in the round's first game.
    pub firsts: Vec<bool>,
    /// Byes received.
    pub byes: u32,
}

impl Player {
    /// Rounds moved first minus rounds moved second.
    fn colour_balance(&self) -> i32 {
        self.firsts
            .iter()
            .map(|&f| if f { 1 } else { -1 })
            .sum::<i32>()
    }

    /// How much the player wants to move first: positive wants first, negative second. Two
    /// rounds in a row with one colour, or a balance of 2, make the wish strong (3).
    fn colour_wish(&self) -> i32 {
        let balance = self.colour_balance();
        let last_two = match self.firsts.as_slice() {
            [.., a, b] if a == b => Some(*b),
            _ => None,
        };
        match last_two {
            Some(true) => -3,
            Some(false) => 3,
            None if balance.abs() >= 2 => -3 * balance.signum(),
            None => match self.firsts.last() {
                Some(true) => -1,
                Some(false) => 1,
                None => 0,
            },
        }
    }
}

/// One pairing: `first` moves first in the round's first game (colours then alternate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    pub first: usize,
    pub second: usize,
}

/// A round's pairings, stored before the round is played.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub pairings: Vec<Pairing>,
    /// The player of an odd field who does not play this round.
    pub bye: Option<usize>,
    /// Pairings of players who had met before: only when no pairing without one exists (a
    /// field with nearly as few players as rounds).
    #[serde(default)]
    pub repeats: usize,
}

/// Fields up to this size are paired by trying every pairing (at most 135,135 of them);
/// larger ones by improving a greedy pairing until no exchange of partners improves it.
const EXHAUSTIVE_UP_TO: usize = 14;

/// A candidate round: its cost, its bye and its pairs.
type Candidate = (f64, Option<usize>, Vec<(usize, usize)>);

/// Pairs the next round of `players` (in seed order).
///
/// Each possible pairing has a cost, and the round is the pairing of least total cost: a
/// repeat costs most, then two players who must both move first (or both second: two rounds
/// in a row with one colour, or two more of one colour), then the score gap (squared, in half
/// points), then milder colour wishes, then the distance from the Dutch system's partner (the
/// top half of a score group meets the bottom half).
pub fn pair_round(players: &[Player]) -> Round {
    let order = ranking_order(players);
    let mut best: Option<Candidate> = None;
    for bye in bye_candidates(players, &order) {
        let field: Vec<usize> = order.iter().copied().filter(|&p| Some(p) != bye).collect();
        let costs = Costs::new(players, &field);
        let paired = if field.len() <= EXHAUSTIVE_UP_TO {
            costs.exhaustive()
        } else {
            costs.improve(costs.greedy())
        };
        let total = costs.total(&paired);
        let clean = total < REPEAT;
        if best.as_ref().is_none_or(|b| total < b.0) {
            best = Some((total, bye, paired));
        }
        // The lowest eligible bye whose round pairs without a repeat.
        if clean {
            break;
        }
    }
    let Some((_, bye, paired)) = best else {
        return Round::default();
    };
    let repeats = paired
        .iter()
        .filter(|&&(a, b)| players[a].opponents.contains(&b))
        .count();
    let pairings = paired
        .into_iter()
        .enumerate()
        .map(|(board, (a, b))| colours(players, a, b, board))
        .collect();
    Round {
        pairings,
        bye,
        repeats,
    }
}

/// Players by score (highest first), then seed.
fn ranking_order(players: &[Player]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .total_cmp(&players[a].score)
            .then(a.cmp(&b))
    });
    order
}

/// Who may sit out an odd round, best first: fewest byes, then lowest score, then last seed.
/// `[None]` for an even field.
fn bye_candidates(players: &[Player], order: &[usize]) -> Vec<Option<usize>> {
    if players.len() % 2 == 0 {
        return vec![None];
    }
    let mut c: Vec<usize> = order.iter().rev().copied().collect();
    c.sort_by_key(|&p| players[p].byes);
    c.into_iter().map(Some).collect()
}

const REPEAT: f64 = 1e9;
/// Between a float of one point (400) and of two (1600).
const MUST_CLASH: f64 = 1000.0;

/// The cost of pairing any two of a field (positions in ranking order).
struct Costs {
    field: Vec<usize>,
    cost: Vec<Vec<f64>>,
}

impl Costs {
    fn new(players: &[Player], field: &[usize]) -> Costs {
        let n = field.len();
        // Each position's score group, for the Dutch partner.
        let mut ideal = vec![0usize; n];
        let mut start = 0;
        while start < n {
            let score = players[field[start]].score;
            let end = (start..n)
                .find(|&k| players[field[k]].score != score)
                .unwrap_or(n);
            let half = (end - start).div_ceil(2);
            for (k, slot) in ideal.iter_mut().enumerate().take(end).skip(start) {
                *slot = if k < start + half { k + half } else { k - half };
            }
            start = end;
        }
        let cost = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let (p, q) = (&players[field[i]], &players[field[j]]);
                        let gap = ((p.score - q.score).abs() * 2.0).round();
                        let c = clash(p.colour_wish(), q.colour_wish());
                        let mut x = 100.0 * gap * gap + 10.0 * f64::from(c);
                        x += (i.abs_diff(ideal[j]) + j.abs_diff(ideal[i])) as f64 * 0.01;
                        if c >= 3 {
                            x += MUST_CLASH;
                        }
                        if p.opponents.contains(&field[j]) {
                            x += REPEAT;
                        }
                        x
                    })
                    .collect()
            })
            .collect();
        Costs {
            field: field.to_vec(),
            cost,
        }
    }

    fn total(&self, paired: &[(usize, usize)]) -> f64 {
        let pos = |p: usize| self.field.iter().position(|&q| q == p).unwrap_or(0);
        paired.iter().map(|&(a, b)| self.cost[pos(a)][pos(b)]).sum()
    }

    /// Positions to players, the better placed first, in board order (by the better placed).
    fn players(&self, pairs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
        let mut pairs: Vec<(usize, usize)> = pairs
            .into_iter()
            .map(|(i, j)| (i.min(j), i.max(j)))
            .collect();
        pairs.sort();
        pairs
            .into_iter()
            .map(|(i, j)| (self.field[i], self.field[j]))
            .collect()
    }

    /// The first free player in ranking order takes its cheapest free partner, and so on.
    fn greedy(&self) -> Vec<(usize, usize)> {
        let n = self.field.len();
        let mut free = vec![true; n];
        let mut pairs = Vec::with_capacity(n / 2);
        for i in 0..n {
            if !free[i] {
                continue;
            }
            free[i] = false;
            let j = (0..n)
                .filter(|&j| free[j])
                .min_by(|&a, &b| self.cost[i][a].total_cmp(&self.cost[i][b]).then(a.cmp(&b)));
            if let Some(j) = j {
                free[j] = false;
                pairs.push((i, j));
            }
        }
        pairs
    }

    /// Exchanges partners between two pairs while that lowers the total (positions in, players
    /// out).
    fn improve(&self, mut pairs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
        let c = |a: usize, b: usize| self.cost[a][b];
        loop {
            let mut better = false;
            for x in 0..pairs.len() {
                for y in x + 1..pairs.len() {
                    let ((a, b), (d, e)) = (pairs[x], pairs[y]);
                    let now = c(a, b) + c(d, e);
                    let swap1 = c(a, d) + c(b, e);
                    let swap2 = c(a, e) + c(b, d);
                    if swap1 < now - 1e-9 && swap1 <= swap2 {
                        pairs[x] = (a, d);
                        pairs[y] = (b, e);
                        better = true;
                    } else if swap2 < now - 1e-9 {
                        pairs[x] = (a, e);
                        pairs[y] = (b, d);
                        better = true;
                    }
                }
            }
            if !better {
                return self.players(pairs);
            }
        }
    }

    /// The cheapest of every perfect pairing of a small field.
    fn exhaustive(&self) -> Vec<(usize, usize)> {
        let n = self.field.len();
        let mut free = vec![true; n];
        let mut now = Vec::with_capacity(n / 2);
        let mut best = (f64::INFINITY, Vec::new());
        self.search(&mut free, &mut now, 0.0, &mut best);
        self.players(best.1)
    }

    fn search(
        &self,
        free: &mut [bool],
        now: &mut Vec<(usize, usize)>,
        spent: f64,
        best: &mut (f64, Vec<(usize, usize)>),
    ) {
        if spent >= best.0 {
            return;
        }
        let Some(i) = free.iter().position(|&f| f) else {
            *best = (spent, now.clone());
            return;
        };
        free[i] = false;
        for j in i + 1..free.len() {
            if free[j] {
                free[j] = false;
                now.push((i, j));
                self.search(free, now, spent + self.cost[i][j], best);
                now.pop();
                free[j] = true;
            }
        }
        free[i] = true;
    }
}

/// How badly two colour wishes clash: 0 when they differ in sign or either is indifferent,
/// else the weaker of the two.
fn clash(a: i32, b: i32) -> i32 {
    if a.signum() == b.signum() && a != 0 {
        a.abs().min(b.abs())
    } else {
        0
    }
}

/// Who of `a` and `b` (`a` the better placed) moves first on board `board`: the stronger
/// wish to; with equal wishes `a` gets its wish; without wishes, the better placed player
/// moves first on even boards and second on odd ones (so that a first round's colours come
/// out even).
fn colours(players: &[Player], a: usize, b: usize, board: usize) -> Pairing {
    let (wa, wb) = (players[a].colour_wish(), players[b].colour_wish());
    let a_first = if wa.abs() != wb.abs() {
        if wa.abs() > wb.abs() {
            wa > 0
        } else {
            wb < 0
        }
    } else if wa != 0 {
        wa > 0
    } else {
        board % 2 == 0
    };
    if a_first {
        Pairing {
            first: a,
            second: b,
        }
    } else {
        Pairing {
            first: b,
            second: a,
        }
    }
}

/// A played round between two players: the points each scored over the round's games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    pub round: usize,
    pub first: usize,
    pub second: usize,
    /// Points of `first` and `second` over the round's games.
    pub points: [f64; 2],
    /// Games the round had (with no result left out).
    pub games: u32,
}

/// A row of Swiss standings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub rank: usize,
    pub player: usize,
    /// Game points, a bye's included.
    pub score: f64,
    /// Sum of the opponents' scores (a bye counts as an opponent with the player's own score).
    pub buchholz: f64,
    /// Sum over opponents of the share of the round's points won against them times their
    /// score (a bye: the player's own score, as a won round).
    pub sonneborn_berger: f64,
    /// Points in the games between the players tied with this one on the measures above.
    pub head_to_head: f64,
    pub rounds: u32,
    pub byes: u32,
}

/// Each player's state after `played` rounds and `byes` (player, round), for the next
/// round's pairing; a bye scores `bye_points`.
pub fn players(n: usize, played: &[Played], byes: &[usize], bye_points: f64) -> Vec<Player> {
    let mut out = vec![Player::default(); n];
    let mut rounds: Vec<&Played> = played.iter().collect();
    rounds.sort_by_key(|p| p.round);
    for p in rounds {
        if p.first >= n || p.second >= n {
            continue;
        }
        for (side, me, them) in [(0, p.first, p.second), (1, p.second, p.first)] {
            out[me].score += p.points[side];
            out[me].opponents.push(them);
            out[me].firsts.push(side == 0);
        }
    }
    for &b in byes.iter().filter(|&&b| b < n) {
        out[b].score += bye_points;
        out[b].byes += 1;
    }
    out
}

/// The standings: score, then Buchholz, then Sonneborn-Berger, then the games between the
/// players still tied, then seed.
pub fn standings(n: usize, played: &[Played], byes: &[usize], bye_points: f64) -> Vec<Row> {
    let state = players(n, played, byes, bye_points);
    let mut rows: Vec<Row> = (0..n)
        .map(|i| Row {
            player: i,
            score: state[i].score,
            rounds: state[i].opponents.len() as u32,
            byes: state[i].byes,
            ..Row::default()
        })
        .collect();
    for p in played.iter().filter(|p| p.first < n && p.second < n) {
        for (side, me, them) in [(0, p.first, p.second), (1, p.second, p.first)] {
            rows[me].buchholz += state[them].score;
            if p.games > 0 {
                rows[me].sonneborn_berger +=
                    p.points[side] / f64::from(p.games) * state[them].score;
            }
        }
    }
    for (i, row) in rows.iter_mut().enumerate() {
        let own = state[i].score * f64::from(state[i].byes);
        row.buchholz += own;
        row.sonneborn_berger += own;
    }
    let key = |r: &Row| (r.score, r.buchholz, r.sonneborn_berger);
    rows.sort_by(|a, b| cmp3(key(b), key(a)).then(a.player.cmp(&b.player)));
    head_to_head(&mut rows, played, key);
    rows.sort_by(|a, b| {
        cmp3(key(b), key(a))
            .then(b.head_to_head.total_cmp(&a.head_to_head))
            .then(a.player.cmp(&b.player))
    });
    for (k, r) in rows.iter_mut().enumerate() {
        r.rank = k + 1;
    }
    rows
}

fn cmp3(a: (f64, f64, f64), b: (f64, f64, f64)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0)
        .then(a.1.total_cmp(&b.1))
        .then(a.2.total_cmp(&b.2))
}

/// Fills `head_to_head` for each group of rows tied on `key` (rows sorted by it).
fn head_to_head(rows: &mut [Row], played: &[Played], key: impl Fn(&Row) -> (f64, f64, f64)) {
    let mut start = 0;
    while start < rows.len() {
        let mut end = start + 1;
        while end < rows.len() && key(&rows[end]) == key(&rows[start]) {
            end += 1;
        }
        if end - start > 1 {
            let tied: Vec<usize> = rows[start..end].iter().map(|r| r.player).collect();
            for r in &mut rows[start..end] {
                r.head_to_head = played
                    .iter()
                    .filter(|p| tied.contains(&p.first) && tied.contains(&p.second))
                    .map(|p| {
                        if p.first == r.player {
                            p.points[0]
                        } else if p.second == r.player {
                            p.points[1]
                        } else {
                            0.0
                        }
                    })
                    .sum();
            }
        }
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `rounds` rounds of `n` players where the lower index always wins every game.
    fn run(n: usize, rounds: usize, games: u32) -> (Vec<Round>, Vec<Played>, Vec<usize>) {
        let mut played = Vec::new();
        let mut byes = Vec::new();
        let mut all = Vec::new();
        for r in 0..rounds {
            let state = players(n, &played, &byes, f64::from(games));
            let round = pair_round(&state);
            for p in &round.pairings {
                let first_wins = p.first < p.second;
                let g = f64::from(games);
                played.push(Played {
                    round: r,
                    first: p.first,
                    second: p.second,
                    points: if first_wins { [g, 0.0] } else { [0.0, g] },
                    games,
                });
            }
            byes.extend(round.bye);
            all.push(round);
        }
        (all, played, byes)
    }

    #[test]
    fn no_one_meets_twice_plays_twice_in_a_round_or_sits_out_twice() {
        for n in [2usize, 3, 7, 8, 16, 33, 300] {
            // A Swiss of n - 1 rounds may leave no pairing without a repeat for the last
            // rounds (its earlier rounds were not chosen as a round robin's).
            let rounds = if n > 10 { 9 } else { n.div_ceil(2) };
            let (all, _, byes) = run(n, rounds, 1);
            let mut met = std::collections::HashSet::new();
            for round in &all {
                assert_eq!(round.repeats, 0, "{n} players");
                let mut seen = vec![false; n];
                for p in &round.pairings {
                    assert!(met.insert((p.first.min(p.second), p.first.max(p.second))));
                    for q in [p.first, p.second] {
                        assert!(!seen[q], "{q} plays twice in a round");
                        seen[q] = true;
                    }
                }
                assert_eq!(round.bye.is_some(), n % 2 == 1);
                if let Some(b) = round.bye {
                    assert!(!seen[b]);
                    seen[b] = true;
                }
                assert!(seen.iter().all(|&s| s), "everyone plays or has the bye");
            }
            let mut sorted = byes.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), byes.len(), "{n} players: a second bye");
        }
    }

    #[test]
    fn the_bye_goes_to_the_lowest_score() {
        let (all, played, byes) = run(7, 3, 1);
        for (r, round) in all.iter().enumerate() {
            let before: Vec<Played> = played.iter().filter(|p| p.round < r).copied().collect();
            let state = players(7, &before, &byes[..r], 1.0);
            let b = round.bye.unwrap();
            let lowest = state
                .iter()
                .enumerate()
                .filter(|(_, p)| p.byes == 0)
                .map(|(_, p)| p.score)
                .fold(f64::INFINITY, f64::min);
            assert_eq!(state[b].score, lowest, "round {r}");
        }
    }

    #[test]
    fn colours_balance_and_never_three_in_a_row() {
        let n = 40;
        let (_, played, _) = run(n, 9, 1);
        let state = players(n, &played, &[], 1.0);
        for (i, p) in state.iter().enumerate() {
            let balance = p.colour_balance();
            assert!(balance.abs() <= 2, "player {i}: {:?}", p.firsts);
            for w in p.firsts.windows(3) {
                assert!(
                    !(w[0] == w[1] && w[1] == w[2]),
                    "player {i}: {:?}",
                    p.firsts
                );
            }
        }
        let off: usize = state
            .iter()
            .filter(|p| p.colour_balance().abs() > 1)
            .count();
        assert!(off <= n / 10, "{off} of {n} players two colours off");
    }

    #[test]
    fn pairs_are_of_equal_or_near_score() {
        let (all, played, byes) = run(64, 6, 1);
        // With 64 players and the lower index always winning, score groups stay even: a
        // pairing leaves its score group only where colours must (two in a row), and then by
        // one point at most.
        let (mut same, mut total) = (0, 0);
        for (r, round) in all.iter().enumerate() {
            let before: Vec<Played> = played.iter().filter(|p| p.round < r).copied().collect();
            let state = players(64, &before, &byes, 1.0);
            for p in &round.pairings {
                let gap = (state[p.first].score - state[p.second].score).abs();
                assert!(gap <= 1.0, "round {r}: gap {gap}");
                same += usize::from(gap == 0.0);
                total += 1;
            }
        }
        assert!(
            same * 10 >= total * 9,
            "{same} of {total} within a score group"
        );
    }

    #[test]
    fn a_small_field_with_many_rounds_still_pairs() {
        // Four players and three rounds is a round robin: it must be found without repeats.
        let (all, _, _) = run(4, 3, 1);
        assert!(all.iter().all(|r| r.repeats == 0 && r.pairings.len() == 2));
        // More rounds than opponents: repeats only then, and counted.
        let (all, _, _) = run(4, 5, 1);
        assert!(all[3].repeats > 0);
        assert_eq!(all[3].pairings.len(), 2);
    }

    #[test]
    fn ties_are_broken_by_buchholz_then_sonneborn_berger_then_head_to_head() {
        // 0 beat 2, 1 beat 3 (round 0); 0 beat 3, 2 beat 1 (round 1); scores 0: 2, 1: 1, 2: 1,
        // 3: 0. 1 and 2 are tied on score; Buchholz: 1 met 3 (0) and 2 (1) = 1; 2 met 0 (2) and
        // 1 (1) = 3: 2 is ahead.
        let g = |round, first, second, points| Played {
            round,
            first,
            second,
            points,
            games: 1,
        };
        let played = [
            g(0, 0, 2, [1.0, 0.0]),
            g(0, 1, 3, [1.0, 0.0]),
            g(1, 0, 3, [1.0, 0.0]),
            g(1, 2, 1, [1.0, 0.0]),
        ];
        let rows = standings(4, &played, &[], 1.0);
        let order: Vec<usize> = rows.iter().map(|r| r.player).collect();
        assert_eq!(order, [0, 2, 1, 3]);
        assert_eq!(rows[1].buchholz, 3.0);
        assert_eq!(rows[2].buchholz, 1.0);
        // Equal on score and Buchholz, told apart by Sonneborn-Berger: a draw each against
        // opponents of different scores.
        let played = [
            g(0, 0, 1, [0.5, 0.5]),
            g(0, 2, 3, [0.5, 0.5]),
            g(1, 0, 2, [1.0, 0.0]),
            g(1, 1, 3, [0.0, 1.0]),
        ];
        let rows = standings(4, &played, &[], 1.0);
        // 0: 1.5, 3: 1.5, 1: 0.5, 2: 0.5. Buchholz of 0: 0.5 + 0.5; of 3: 0.5 + 0.5. SB of 0:
        // 0.5 x 0.5 + 1 x 0.5 = 0.75; of 3: 0.5 x 0.5 + 1 x 0.5 = 0.75 -> head to head: they
        // never met (0 each) -> seed: 0 first.
        assert_eq!(rows[0].player, 0);
        assert_eq!(rows[1].player, 3);
        assert_eq!(rows[0].sonneborn_berger, 0.75);
        // Head to head decides between two tied players who met.
        let played = [g(0, 1, 0, [1.0, 0.0]), g(1, 0, 1, [1.0, 0.0])];
        let rows = standings(2, &played, &[], 1.0);
        assert_eq!(rows[0].score, rows[1].score);
        assert_eq!(rows[0].head_to_head, rows[1].head_to_head);
        assert_eq!(rows[0].player, 0, "then seed");
    }

    #[test]
    fn a_bye_counts_its_points_and_as_an_opponent_of_equal_score() {
        let (_, played, byes) = run(5, 4, 2);
        let rows = standings(5, &played, &byes, 2.0);
        for r in &rows {
            assert_eq!(r.rounds + r.byes, 4);
        }
        let with_bye = rows.iter().find(|r| r.byes == 1).unwrap();
        assert!(with_bye.buchholz >= with_bye.score);
    }
}
