//! The schedule: which games a tournament plays, derived only from the config, the bots'
//! current versions and the seed, so a resumed or repeated run plays exactly the same games.

use arbiter_engine::any::GameConfig;

use super::config::{Format, Resolved};

/// One game to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    /// The pairing in config order (`pair[0]` is listed first in the config).
    pub pair: [String; 2],
    /// 0, or 1 for the second leg of a double round robin.
    pub leg: u32,
    /// Game number within the leg, from 0.
    pub number: u32,
    /// Bot names in seat order: `seats[0]` moves first.
    pub seats: [String; 2],
    /// Index into the config's openings.
    pub opening: Option<usize>,
    pub config: GameConfig,
    /// Position in the play order (a seeded shuffle, so a stopped tournament has sampled all
    /// pairings evenly).
    pub order: u64,
}

impl Planned {
    /// A stable name for logs and replay files.
    pub fn key(&self) -> String {
        format!(
            "{}-vs-{}.L{}.G{}",
            self.seats[0], self.seats[1], self.leg, self.number
        )
    }
}

/// The pairings of the format, each as `[a, b]` in config order.
pub fn pairings(r: &Resolved) -> Vec<[String; 2]> {
    let names: Vec<&String> = r.file.bots.iter().map(|b| &b.name).collect();
    let mut out = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in names.iter().skip(i + 1) {
            let keep = match r.file.format {
                Format::Gauntlet => {
                    let ra = r.file.reference.contains(a);
                    let rb = r.file.reference.contains(b);
                    ra != rb
                }
                _ => true,
            };
            if keep {
                out.push([(*a).clone(), (*b).clone()]);
            }
        }
    }
    out
}

pub fn legs(r: &Resolved) -> u32 {
    match r.file.format {
        Format::DoubleRoundRobin => 2,
        _ => 1,
    }
}

/// The games of the pairings for which `involve` holds (all of them for a new tournament; one
/// bot's for a new submission), in play order.
pub fn plan(r: &Resolved, involve: impl Fn(&[String; 2]) -> bool) -> Vec<Planned> {
    if r.file.format.staged() {
        // Made round by round as results come in (crate::staged).
        return Vec::new();
    }
    let gpp = r.file.games_per_pairing;
    let mut out = Vec::new();
    for pair in pairings(r).into_iter().filter(|p| involve(p)) {
        for leg in 0..legs(r) {
            for k in 0..gpp {
                // Within a pair of games the colours swap; the second leg starts with the other
                // bot first so both legs together are balanced even with one opening.
                let a_first = (k % 2 == 0) == (leg % 2 == 0);
                let seats = if a_first {
                    [pair[0].clone(), pair[1].clone()]
                } else {
                    [pair[1].clone(), pair[0].clone()]
                };
                let global = leg as usize * gpp + k;
                let opening = (!r.openings.is_empty()).then(|| (global / 2) % r.openings.len());
                out.push(Planned {
                    pair: pair.clone(),
                    leg,
                    number: k as u32,
                    seats,
                    opening,
                    config: r.game.for_game_of_series(global, 2),
                    order: 0,
                });
            }
        }
    }
    // Seeded order; the key hash makes a game's place independent of which other games exist.
    for p in &mut out {
        p.order = mix(r.file.seed ^ fnv(&p.key()));
    }
    out.sort_by(|x, y| x.order.cmp(&y.order).then_with(|| x.key().cmp(&y.key())));
    out
}

pub(crate) fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// splitmix64's finaliser.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
