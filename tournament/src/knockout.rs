//! Knockout brackets as plain functions (no storage): single or double elimination, seeded so
//! that the first two seeds can meet only in the final, byes for a field that is not a power
//! of two (the top seeds get them), matches of N games with colours alternating and a
//! documented tie-break: pairs of extra games, then the higher seed (docs/tournaments.md).
//!
//! Entrants are indices `0..n` in seed order (0 is the first seed). Matches are two-seat.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Elimination {
    #[default]
    Single,
    /// A loser drops to the losers' bracket; its winner meets the winners' bracket's in the
    /// grand final, played again (a reset) if the losers' bracket's winner wins it.
    Double,
}

/// Which part of the bracket a match belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    Winners,
    Losers,
    GrandFinal,
    /// The grand final again, when the losers' bracket's winner won the first.
    Reset,
}

/// Where one side of a match comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    Seed(usize),
    Winner(usize),
    Loser(usize),
    /// Nobody: the other side goes through without playing.
    Bye,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    pub id: usize,
    pub part: Part,
    /// Round within its part, from 1.
    pub round: usize,
    pub sources: [Source; 2],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bracket {
    pub entrants: usize,
    /// Slots in the first round: the power of two at or above `entrants`.
    pub size: usize,
    pub elimination: Elimination,
    /// In the order they can be played: every match's sources come before it.
    pub matches: Vec<Match>,
}

/// The first round's slots: seed `order[k]` (from 1) plays slot `k`; 1 and 2 meet only in the
/// final, 1-4 only in the semi-finals, and so on.
pub fn slot_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let m = order.len() * 2 + 1;
        order = order.iter().flat_map(|&s| [s, m - s]).collect();
    }
    order
}

impl Bracket {
    pub fn new(entrants: usize, elimination: Elimination) -> Bracket {
        let size = entrants.max(2).next_power_of_two();
        let mut b = Bracket {
            entrants,
            size,
            elimination,
            matches: Vec::new(),
        };
        let seat = |s: usize| {
            if s <= entrants {
                Source::Seed(s - 1)
            } else {
                Source::Bye
            }
        };
        let slots = slot_order(size);
        let mut winners: Vec<usize> = slots
            .chunks(2)
            .map(|c| b.add(Part::Winners, 1, [seat(c[0]), seat(c[1])]))
            .collect();
        let mut wb_rounds = vec![winners.clone()];
        let mut round = 1;
        while winners.len() > 1 {
            round += 1;
            winners = winners
                .chunks(2)
                .map(|c| {
                    b.add(
                        Part::Winners,
                        round,
                        [Source::Winner(c[0]), Source::Winner(c[1])],
                    )
                })
                .collect();
            wb_rounds.push(winners.clone());
        }
        if elimination == Elimination::Double {
            let champion = b.losers_bracket(&wb_rounds);
            let wb = Source::Winner(winners[0]);
            let gf = b.add(Part::GrandFinal, 1, [wb, champion]);
            b.add(Part::Reset, 1, [Source::Winner(gf), Source::Loser(gf)]);
        }
        b
    }

    fn add(&mut self, part: Part, round: usize, sources: [Source; 2]) -> usize {
        let id = self.matches.len();
        self.matches.push(Match {
            id,
            part,
            round,
            sources,
        });
        id
    }

    /// The losers' bracket of the winners' rounds `wb`: the first round's losers play each
    /// other, then each round takes the next winners' round's losers (in reverse order, so
    /// that two who met do not meet again at once), then halves. Returns its winner's source.
    fn losers_bracket(&mut self, wb: &[Vec<usize>]) -> Source {
        if wb.len() == 1 {
            return Source::Loser(wb[0][0]);
        }
        let mut round = 1;
        let mut alive: Vec<usize> = wb[0]
            .chunks(2)
            .map(|c| {
                self.add(
                    Part::Losers,
                    round,
                    [Source::Loser(c[0]), Source::Loser(c[1])],
                )
            })
            .collect();
        for dropping in &wb[1..] {
            round += 1;
            let incoming: Vec<usize> = dropping.iter().rev().copied().collect();
            alive = alive
                .iter()
                .zip(incoming)
                .map(|(&a, d)| self.add(Part::Losers, round, [Source::Winner(a), Source::Loser(d)]))
                .collect();
            if alive.len() > 1 {
                round += 1;
                alive = alive
                    .chunks(2)
                    .map(|c| {
                        self.add(
                            Part::Losers,
                            round,
                            [Source::Winner(c[0]), Source::Winner(c[1])],
                        )
                    })
                    .collect();
            }
        }
        Source::Winner(alive[0])
    }
}

/// A match's side as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    Entrant(usize),
    Bye,
    /// Not known until an earlier match ends.
    Pending,
}

/// What became of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Both sides known and it was not decided: to play.
    Ready([usize; 2]),
    /// Won by side 0 or 1 (played, or through a bye).
    Won(usize),
    /// Not playable yet, or not played at all (a reset the first grand final made needless,
    /// two byes).
    Waiting,
    NotPlayed,
}

impl Bracket {
    /// Every match's sides and outcome, given the winners (side 0 or 1) of the matches played.
    pub fn resolve(&self, played: &[Option<usize>]) -> Vec<([Side; 2], Outcome)> {
        let mut out: Vec<([Side; 2], Outcome)> = Vec::with_capacity(self.matches.len());
        for m in &self.matches {
            let side = |s: Source, out: &[([Side; 2], Outcome)]| match s {
                Source::Seed(e) => Side::Entrant(e),
                Source::Bye => Side::Bye,
                Source::Winner(k) | Source::Loser(k) => {
                    let (sides, outcome) = out[k];
                    match outcome {
                        Outcome::Won(w) => {
                            sides[if matches!(s, Source::Winner(_)) {
                                w
                            } else {
                                1 - w
                            }]
                        }
                        Outcome::NotPlayed => Side::Bye,
                        _ => Side::Pending,
                    }
                }
            };
            let sides = [side(m.sources[0], &out), side(m.sources[1], &out)];
            let reset_needless = m.part == Part::Reset
                && matches!(
                    out[match m.sources[0] {
                        Source::Winner(k) => k,
                        _ => 0,
                    }]
                    .1,
                    Outcome::Won(0)
                );
            let outcome = match sides {
                _ if reset_needless => Outcome::NotPlayed,
                [Side::Bye, Side::Bye] => Outcome::NotPlayed,
                [Side::Entrant(_), Side::Bye] => Outcome::Won(0),
                [Side::Bye, Side::Entrant(_)] => Outcome::Won(1),
                [Side::Entrant(a), Side::Entrant(b)] => match played.get(m.id).copied().flatten() {
                    Some(w) => Outcome::Won(w.min(1)),
                    None => Outcome::Ready([a, b]),
                },
                _ => Outcome::Waiting,
            };
            out.push((sides, outcome));
        }
        out
    }

    /// The champion, once the final (or its reset) is decided.
    pub fn champion(&self, played: &[Option<usize>]) -> Option<usize> {
        let resolved = self.resolve(played);
        let last = |part: Part| {
            self.matches
                .iter()
                .rev()
                .find(|m| m.part == part)
                .map(|m| m.id)
        };
        let decisive = match self.elimination {
            Elimination::Single => last(Part::Winners)?,
            Elimination::Double => {
                let reset = last(Part::Reset)?;
                if resolved[reset].1 == Outcome::NotPlayed {
                    last(Part::GrandFinal)?
                } else {
                    reset
                }
            }
        };
        match resolved[decisive] {
            (sides, Outcome::Won(w)) => match sides[w] {
                Side::Entrant(e) => Some(e),
                _ => None,
            },
            _ => None,
        }
    }

    /// Final places (1 = champion) of every entrant once the bracket is decided: those out in
    /// the same match round share the order of their seeds (a later exit is a better place).
    pub fn placement(&self, played: &[Option<usize>]) -> Vec<usize> {
        let resolved = self.resolve(played);
        // (exit stage, entrant): a larger stage is a later exit.
        let mut exit: Vec<(usize, usize)> = (0..self.entrants).map(|e| (0, e)).collect();
        for (k, m) in self.matches.iter().enumerate() {
            let (sides, outcome) = resolved[k];
            let Outcome::Won(w) = outcome else { continue };
            let Side::Entrant(loser) = sides[1 - w] else {
                continue;
            };
            let eliminates = match self.elimination {
                Elimination::Single => true,
                Elimination::Double => m.part != Part::Winners,
            };
            if eliminates {
                exit[loser].0 = exit[loser].0.max(k + 1);
            }
        }
        if let Some(c) = self.champion(played) {
            exit[c].0 = usize::MAX;
        }
        // A Reset's loser and the grand final's loser in a bracket whose reset is needless
        // are both runners-up: their exit is the last match they played.
        exit.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        exit.into_iter().map(|(_, e)| e).collect()
    }
}

/// How a match is played and decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRule {
    /// Games of a match; side 0 (the better seed, or the winners' side) moves first in the
    /// first game, and colours alternate.
    pub games: u32,
    /// Pairs of games added one pair at a time while the match is level.
    pub extra_pairs: u32,
}

/// What a match needs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Games to add to the match (all the first `games` at once, then one pair at a time).
    Play(u32),
    /// Won by side 0 or 1; `by_rule` when level after every extra pair (side 0 goes through).
    Won { side: usize, by_rule: bool },
    /// Games still being played.
    Playing,
}

impl MatchRule {
    /// `points` are side 0's points in each game scheduled so far (`None`: not finished).
    pub fn progress(&self, points: &[Option<f64>]) -> Progress {
        let scheduled = points.len() as u32;
        if scheduled == 0 {
            return Progress::Play(self.games.max(1));
        }
        if points.iter().any(Option::is_none) {
            return Progress::Playing;
        }
        let mine: f64 = points.iter().flatten().sum();
        let theirs = f64::from(scheduled) - mine;
        if mine > theirs {
            return Progress::Won {
                side: 0,
                by_rule: false,
            };
        }
        if theirs > mine {
            return Progress::Won {
                side: 1,
                by_rule: false,
            };
        }
        let extra_played = scheduled.saturating_sub(self.games.max(1)).div_ceil(2);
        if extra_played < self.extra_pairs {
            Progress::Play(2)
        } else {
            Progress::Won {
                side: 0,
                by_rule: true,
            }
        }
    }

    /// Side moving first in game `k` of a match.
    pub fn first_side(k: u32) -> usize {
        (k % 2) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays a bracket to its end, the better seed (lower index) winning every match.
    fn play_out(b: &Bracket) -> Vec<Option<usize>> {
        let mut played = vec![None; b.matches.len()];
        loop {
            let ready: Vec<(usize, [usize; 2])> = b
                .resolve(&played)
                .iter()
                .enumerate()
                .filter_map(|(k, (_, o))| match o {
                    Outcome::Ready(s) => Some((k, *s)),
                    _ => None,
                })
                .collect();
            if ready.is_empty() {
                return played;
            }
            for (k, [a, c]) in ready {
                played[k] = Some(usize::from(c < a));
            }
        }
    }

    #[test]
    fn seeds_meet_as_late_as_they_can() {
        assert_eq!(slot_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
        let b = Bracket::new(16, Elimination::Single);
        assert_eq!(b.matches.len(), 15);
        let played = play_out(&b);
        let r = b.resolve(&played);
        let final_ = r.last().unwrap();
        assert_eq!(final_.0, [Side::Entrant(0), Side::Entrant(1)]);
        assert_eq!(b.champion(&played), Some(0));
        assert_eq!(b.placement(&played)[..4], [0, 1, 2, 3]);
    }

    #[test]
    fn byes_go_to_the_top_seeds_and_every_entrant_plays_to_the_end() {
        for n in 2..=33 {
            let b = Bracket::new(n, Elimination::Single);
            let played = play_out(&b);
            let r = b.resolve(&played);
            let byes = r
                .iter()
                .filter(|(s, _)| {
                    s.contains(&Side::Bye) && s.iter().any(|x| matches!(x, Side::Entrant(_)))
                })
                .map(|(s, _)| match s {
                    [Side::Entrant(e), _] | [_, Side::Entrant(e)] => *e,
                    _ => unreachable!(),
                })
                .collect::<Vec<_>>();
            assert_eq!(byes.len(), b.size - n, "{n} entrants");
            assert!(byes.iter().all(|&e| e < b.size - n), "{n}: byes {byes:?}");
            let games = r.iter().filter(|(s, o)| {
                matches!(o, Outcome::Won(_)) && s.iter().all(|x| matches!(x, Side::Entrant(_)))
            });
            assert_eq!(games.count(), n - 1, "{n}: a knockout plays n - 1 matches");
            assert_eq!(b.champion(&played), Some(0));
            let mut places = b.placement(&played);
            assert_eq!(places[0], 0);
            places.sort();
            assert_eq!(places, (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn double_elimination_gives_everyone_two_losses_but_the_champion() {
        for n in [2, 3, 5, 8, 12, 16] {
            let b = Bracket::new(n, Elimination::Double);
            // The second seed beats the first in the grand final, forcing the reset.
            let mut played = vec![None; b.matches.len()];
            loop {
                let ready: Vec<(usize, [usize; 2])> = b
                    .resolve(&played)
                    .iter()
                    .enumerate()
                    .filter_map(|(k, (_, o))| match o {
                        Outcome::Ready(s) => Some((k, *s)),
                        _ => None,
                    })
                    .collect();
                if ready.is_empty() {
                    break;
                }
                for (k, [a, c]) in ready {
                    let upset = b.matches[k].part == Part::GrandFinal;
                    played[k] = Some(usize::from((c < a) != upset));
                }
            }
            let r = b.resolve(&played);
            let mut losses = vec![0; n];
            for (s, o) in &r {
                let Outcome::Won(w) = o else { continue };
                if let (true, Side::Entrant(l)) =
                    (s.iter().all(|x| matches!(x, Side::Entrant(_))), s[1 - w])
                {
                    losses[l] += 1;
                }
            }
            let champion = b.champion(&played).unwrap();
            assert_eq!(champion, 0, "{n}: seed 1 wins the reset");
            for (e, l) in losses.iter().enumerate() {
                assert_eq!(*l, if e == champion { 1 } else { 2 }, "{n}: entrant {e}");
            }
            assert_eq!(b.placement(&played)[..2], [0, 1]);
        }
    }

    #[test]
    fn a_reset_is_not_played_when_the_winners_side_wins_the_grand_final() {
        let b = Bracket::new(4, Elimination::Double);
        let played = play_out(&b);
        let r = b.resolve(&played);
        assert_eq!(r.last().unwrap().1, Outcome::NotPlayed);
        assert_eq!(b.champion(&played), Some(0));
    }

    #[test]
    fn a_level_match_plays_pairs_of_games_then_the_better_seed_goes_through() {
        let rule = MatchRule {
            games: 4,
            extra_pairs: 1,
        };
        assert_eq!(rule.progress(&[]), Progress::Play(4));
        assert_eq!(
            rule.progress(&[Some(1.0), None, None, None]),
            Progress::Playing
        );
        let level = [Some(1.0), Some(0.0), Some(0.5), Some(0.5)];
        assert_eq!(rule.progress(&level), Progress::Play(2));
        let mut more = level.to_vec();
        more.extend([Some(0.0), Some(0.0)]);
        assert_eq!(
            rule.progress(&more),
            Progress::Won {
                side: 1,
                by_rule: false
            }
        );
        let mut still = level.to_vec();
        still.extend([Some(1.0), Some(0.0)]);
        assert_eq!(
            rule.progress(&still),
            Progress::Won {
                side: 0,
                by_rule: true
            }
        );
        assert_eq!(MatchRule::first_side(0), 0);
        assert_eq!(MatchRule::first_side(3), 1);
    }
}
