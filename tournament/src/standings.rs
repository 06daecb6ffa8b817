//! Standings as seed 001 ranks a class: per pairing (and leg), whoever won more games takes
//! the match for 3 points, an even match gives both 1; game points (win 1, draw 1/2) break ties.

use std::collections::BTreeMap;

use serde::Serialize;

use super::store::GameRow;

/// A finished game reduced to what standings need.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Bot names in seat order.
    pub seats: [String; 2],
    /// The winning seat, `None` for a draw.
    pub winner: Option<usize>,
    /// Which match the game belongs to: the leg number.
    pub leg: i64,
}

impl Outcome {
    pub fn from_rows(rows: &[GameRow]) -> Vec<Outcome> {
        rows.iter()
            .filter_map(|g| {
                g.result.as_ref().map(|r| Outcome {
                    seats: g.seats.clone(),
                    winner: r.winner.map(usize::from),
                    leg: g.leg,
                })
            })
            .collect()
    }
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Row {
    pub rank: usize,
    pub bot: String,
    pub match_points: u32,
    pub matches_won: u32,
    pub matches_drawn: u32,
    pub matches_lost: u32,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub game_points: f64,
}

/// One cell of the crosstable: `row` bot's results against `column` bot.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Cell {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Standings {
    pub rows: Vec<Row>,
    /// Bots in config order and the crosstable `cells[i][j]` (i's results against j).
    pub bots: Vec<String>,
    pub cells: Vec<Vec<Cell>>,
}

/// Ranks `bots` (all listed, even without games) by match points, then game points, then
/// wins, then name.
pub fn compute(bots: &[String], games: &[Outcome]) -> Standings {
    let index: BTreeMap<&str, usize> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let n = bots.len();
    let mut cells = vec![vec![Cell::default(); n]; n];
    // Per (pair, leg): games won by the lower and the higher index.
    let mut matches: BTreeMap<(usize, usize, i64), [u32; 2]> = BTreeMap::new();
    for g in games {
        let (Some(&a), Some(&b)) = (
            index.get(g.seats[0].as_str()),
            index.get(g.seats[1].as_str()),
        ) else {
            continue;
        };
        if a == b {
            continue;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        let m = matches.entry((lo, hi, g.leg)).or_default();
        let winner = g.winner.map(|s| if s == 0 { a } else { b });
        for (me, them) in [(a, b), (b, a)] {
            let c = &mut cells[me][them];
            c.games += 1;
            match winner {
                None => {
                    c.draws += 1;
                    c.points += 0.5;
                }
                Some(w) if w == me => {
                    c.wins += 1;
                    c.points += 1.0;
                }
                Some(_) => c.losses += 1,
            }
        }
        if let Some(w) = winner {
            m[usize::from(w == hi)] += 1;
        }
    }
    let mut rows: Vec<Row> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut r = Row {
                bot: b.clone(),
                ..Row::default()
            };
            for c in &cells[i] {
                r.games += c.games;
                r.wins += c.wins;
                r.draws += c.draws;
                r.losses += c.losses;
                r.game_points += c.points;
            }
            r
        })
        .collect();
    for (&(lo, hi, _), won) in &matches {
        let (l, h) = (won[0], won[1]);
        if l > h {
            rows[lo].matches_won += 1;
            rows[hi].matches_lost += 1;
        } else if h > l {
            rows[hi].matches_won += 1;
            rows[lo].matches_lost += 1;
        } else {
            rows[lo].matches_drawn += 1;
            rows[hi].matches_drawn += 1;
        }
    }
    for r in &mut rows {
        r.match_points = 3 * r.matches_won + r.matches_drawn;
    }
    rows.sort_by(|x, y| {
        y.match_points
            .cmp(&x.match_points)
            .then(y.game_points.total_cmp(&x.game_points))
            .then(y.wins.cmp(&x.wins))
            .then(x.bot.cmp(&y.bot))
    });
    // Equal match and game points share a rank.
    for i in 0..rows.len() {
        rows[i].rank = if i > 0
            && rows[i].match_points == rows[i - 1].match_points
            && rows[i].game_points == rows[i - 1].game_points
        {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    Standings {
        rows,
        bots: bots.to_vec(),
        cells,
    }
}
