//! Per-bot statistics in the shape of seed 000's report: as first player ("offensive") and as
//! second player ("defensive"): average time, win rate, wins, losses, violations, timeouts and
//! errors, each with the games it happened in, plus the failure reasons.

use std::collections::BTreeMap;

use serde::Serialize;

use super::store::GameRow;

/// Failure codes by kind, as seed 000 groups them.
pub fn kind_of(code: &str) -> Option<Kind> {
    match code {
        "illegal_move" | "malformed_output" | "out_of_turn" | "protocol_error" => {
            Some(Kind::Violation)
        }
        "move_time" | "game_time" | "no_handshake" => Some(Kind::Timeout),
        "crash" | "memory" | "exited_early" | "failed_to_start" => Some(Kind::Error),
        _ => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Violation,
    Timeout,
    Error,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct SeatStats {
    pub games: usize,
    /// Average thinking time per move, in milliseconds.
    pub average_ms: f64,
    /// Wins / games.
    pub win_rate: f64,
    /// Game numbers (`GameRow::slot`).
    pub wins: Vec<i64>,
    pub draws: Vec<i64>,
    pub losses: Vec<i64>,
    pub violations: Vec<i64>,
    pub timeouts: Vec<i64>,
    pub errors: Vec<i64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Failure {
    pub game: i64,
    pub seat: usize,
    pub code: String,
    pub reason: String,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct BotStats {
    pub bot: String,
    /// `[as first player, as second player]`.
    pub seats: [SeatStats; 2],
    /// Count of each failure code this bot was at fault for.
    pub failure_counts: BTreeMap<String, usize>,
    pub failures: Vec<Failure>,
}

pub fn compute(bots: &[String], games: &[GameRow]) -> Vec<BotStats> {
    bots.iter()
        .map(|bot| {
            let mut s = BotStats {
                bot: bot.clone(),
                ..BotStats::default()
            };
            let mut time = [0.0f64; 2];
            let mut timed = [0i64; 2];
            for g in games {
                let Some(r) = g.result.as_ref().filter(|r| r.counts()) else {
                    continue;
                };
                for seat in 0..2 {
                    if &g.seats[seat] != bot {
                        continue;
                    }
                    let st = &mut s.seats[seat];
                    st.games += 1;
                    time[seat] += r.think_ms[seat];
                    timed[seat] += r.timed_moves[seat];
                    match r.winner.map(usize::from) {
                        None => st.draws.push(g.slot),
                        Some(w) if w == seat => st.wins.push(g.slot),
                        Some(_) => st.losses.push(g.slot),
                    }
                    if r.culprit.map(usize::from) == Some(seat) {
                        match kind_of(&r.reason_code) {
                            Some(Kind::Violation) => st.violations.push(g.slot),
                            Some(Kind::Timeout) => st.timeouts.push(g.slot),
                            Some(Kind::Error) | None => st.errors.push(g.slot),
                        }
                        *s.failure_counts.entry(r.reason_code.clone()).or_default() += 1;
                        s.failures.push(Failure {
                            game: g.slot,
                            seat,
                            code: r.reason_code.clone(),
                            reason: r.reason.clone(),
                        });
                    }
                }
            }
            for seat in 0..2 {
                let st = &mut s.seats[seat];
                st.average_ms = if timed[seat] > 0 {
                    time[seat] / timed[seat] as f64
                } else {
                    0.0
                };
                st.win_rate = if st.games > 0 {
                    st.wins.len() as f64 / st.games as f64
                } else {
                    0.0
                };
            }
            s
        })
        .collect()
}
