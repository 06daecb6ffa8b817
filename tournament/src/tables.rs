//! Tournaments of tables: the schedule of a game of N > 2 seats, and a game's points from its
//! places. Plain functions of the field; the config, the store and the runner use them.
//!
//! Which bots sit together ([`Design`]):
//! - `all`: every N-set of the bots is a table (a round robin), or for a gauntlet every
//!   challenger with every (N-1)-set of the reference bots. Every pair meets equally often:
//!   C(n-2, N-2) times in a round robin of n bots.
//! - `cyclic`: for a round robin of many bots, tables `{i + b : b in B}` mod n for every
//!   bot i and a few base blocks B, chosen greedily so that every difference between two bots'
//!   numbers (mod n) is covered, the least covered first. Every bot sits at the same number of
//!   tables; every pair meets at least once, and as near equally often as the greedy choice
//!   gets (the tests state the spread).
//!
//! Seats: the games of a table rotate its bots through the seats (game g puts the table's
//! bot k in seat (k + g) mod N), so with `games_per_table` a multiple of N every bot sits in
//! every seat equally often, at every table and so overall.

use serde::{Deserialize, Serialize};

use super::config::{ConfigError, Format, Resolved, TournamentConfig};
use super::schedule::{fnv, mix};

/// Which N-sets of bots play (module docs).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Design {
    All,
    Cyclic,
}

/// The most tables `all` makes by default; beyond it a round robin is cyclic unless the
/// config says `tables = "all"`.
pub const MAX_ALL_TABLES: u128 = 500;

/// The most seats a table has (the kit's games have 2 to 8).
pub const MAX_SEATS: usize = 8;

/// C(n, k), saturating.
pub fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        c = c.saturating_mul((n - i) as u128) / (i as u128 + 1);
    }
    c
}

/// Every k-subset of `0..n`, each ascending, in lexicographic order.
pub fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k == 0 || k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        // The rightmost index that can still move right.
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else {
            return out;
        };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// The design a round robin of `n` bots at tables of `seats` uses when the config names none.
pub fn default_design(n: usize, seats: usize) -> Design {
    if binomial(n, seats) <= MAX_ALL_TABLES {
        Design::All
    } else {
        Design::Cyclic
    }
}

/// The tables of a round robin of bots `0..n`, each as bot numbers (ascending for `all`).
pub fn round_robin(n: usize, seats: usize, design: Design) -> Vec<Vec<usize>> {
    if seats > n || seats < 2 {
        return Vec::new();
    }
    match design {
        Design::All => combinations(n, seats),
        Design::Cyclic => {
            let mut out = Vec::new();
            for block in base_blocks(n, seats) {
                for i in 0..n {
                    out.push(block.iter().map(|b| (i + b) % n).collect());
                }
            }
            out
        }
    }
}

/// The base blocks of the cyclic design: each `{0, o1, ..., o(N-1)}`, offsets picked one by
/// one to cover the least covered differences, blocks added until every difference is covered.
fn base_blocks(n: usize, seats: usize) -> Vec<Vec<usize>> {
    // cover[d]: tables at which two bots d apart (d in 1..=n/2) meet, per bot.
    let mut cover = vec![0usize; n / 2 + 1];
    let class = |a: usize, b: usize| {
        let d = a.abs_diff(b);
        d.min(n - d)
    };
    // Two bots n/2 apart meet at two tables of each block holding that difference.
    let weight = |d: usize| if 2 * d == n { 2 } else { 1 };
    let mut blocks = Vec::new();
    while cover[1..].contains(&0) {
        let mut block = vec![0usize];
        while block.len() < seats {
            let cost = |o: usize| -> (usize, usize, usize) {
                let after = |b: &usize| cover[class(*b, o)] + weight(class(*b, o));
                let zero = block.iter().filter(|&&b| cover[class(b, o)] == 0).count();
                let max = block.iter().map(after).max().unwrap_or(0);
                let sum = block.iter().map(after).sum::<usize>();
                // Most uncovered differences first, then the least covered.
                (usize::MAX - zero, max, sum)
            };
            let Some(o) = (1..n)
                .filter(|o| !block.contains(o))
                .min_by_key(|&o| (cost(o), o))
            else {
                break;
            };
            for &b in &block {
                cover[class(b, o)] += weight(class(b, o));
            }
            block.push(o);
        }
        blocks.push(block);
    }
    blocks
}

/// A gauntlet's tables: every challenger with every (N-1)-set of the reference bots.
pub fn gauntlet(challengers: &[usize], reference: &[usize], seats: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if seats < 2 {
        return out;
    }
    for &c in challengers {
        for set in combinations(reference.len(), seats - 1) {
            let mut table = vec![c];
            table.extend(set.iter().map(|&k| reference[k]));
            out.push(table);
        }
    }
    out
}

/// The seat order of game `game` of a table: the table's bots rotated by `game`.
pub fn seat_order<T: Clone>(table: &[T], game: usize) -> Vec<T> {
    let n = table.len();
    (0..n)
        .map(|s| table[(s + n - game % n.max(1)) % n.max(1)].clone())
        .collect()
}

/// Points of 1st, 2nd, ... place when the config gives none: N-1 for the winner down to 0
/// for the last (a 3-seat game: 2, 1, 0), so a place is worth one point more than the next.
pub fn default_points(seats: usize) -> Vec<f64> {
    (0..seats).rev().map(|p| p as f64).collect()
}

/// Each seat's points from its place (1 = first; seats sharing a place get that place's
/// points). A place beyond the list gives 0.
pub fn points(places: &[u32], per_place: &[f64]) -> Vec<f64> {
    places
        .iter()
        .map(|&p| {
            let k = (p as usize).saturating_sub(1);
            per_place.get(k).copied().unwrap_or(0.0)
        })
        .collect()
}

/// One game of a table to store.
#[derive(Clone, Debug, PartialEq)]
pub struct TableGame {
    /// The table's number in the schedule, from 0.
    pub table: usize,
    /// The game's number at its table, from 0.
    pub number: usize,
    /// Bot names in seat order.
    pub seats: Vec<String>,
    pub config: arbiter_engine::any::GameConfig,
    /// Position in the play order (a seeded shuffle, as for pairings).
    pub order: u64,
}

impl TableGame {
    /// A stable name: the table's bots (in table order), the table and the game.
    pub fn key(&self) -> String {
        format!("T{}.G{}:{}", self.table, self.number, self.seats.join(","))
    }
}

/// The games per table the config asks for (default one per seat).
pub fn games_per_table(file: &TournamentConfig, seats: usize) -> usize {
    file.games_per_table.unwrap_or(seats)
}

/// The tables of the config's format, as bot numbers in config order.
pub fn tables_of(file: &TournamentConfig, seats: usize) -> Vec<Vec<usize>> {
    let n = file.bots.len();
    match file.format {
        Format::Gauntlet => {
            let is_ref = |i: &usize| file.reference.contains(&file.bots[*i].name);
            let reference: Vec<usize> = (0..n).filter(is_ref).collect();
            let challengers: Vec<usize> = (0..n).filter(|i| !is_ref(i)).collect();
            gauntlet(&challengers, &reference, seats)
        }
        _ => round_robin(
            n,
            seats,
            file.tables.unwrap_or_else(|| default_design(n, seats)),
        ),
    }
}

/// How many tables the config makes, without making them.
fn table_count(file: &TournamentConfig, seats: usize) -> u128 {
    let n = file.bots.len();
    match file.format {
        Format::Gauntlet => {
            let r = file.reference.len();
            (n.saturating_sub(r) as u128).saturating_mul(binomial(r, seats - 1))
        }
        _ => match file.tables.unwrap_or_else(|| default_design(n, seats)) {
            Design::All => binomial(n, seats),
            // A few base blocks of n tables each: n-1 differences, at least one per block.
            Design::Cyclic => (n as u128) * (n as u128 / 2).max(1),
        },
    }
}

/// Games the schedule holds (an upper bound for `cyclic`), without making it.
pub fn scheduled_games(file: &TournamentConfig, seats: usize) -> u128 {
    table_count(file, seats).saturating_mul(games_per_table(file, seats) as u128)
}

/// Every game of the tournament, in play order.
pub fn plan(r: &Resolved) -> Vec<TableGame> {
    let seats = r.seats;
    let gpt = games_per_table(&r.file, seats);
    let names: Vec<&String> = r.file.bots.iter().map(|b| &b.name).collect();
    let mut out = Vec::new();
    for (t, table) in tables_of(&r.file, seats).iter().enumerate() {
        let bots: Vec<String> = table.iter().map(|&i| names[i].clone()).collect();
        for g in 0..gpt {
            out.push(TableGame {
                table: t,
                number: g,
                seats: seat_order(&bots, g),
                config: r.game.for_game_of_series(t * gpt + g, seats),
                order: 0,
            });
        }
    }
    for p in &mut out {
        p.order = mix(r.file.seed ^ fnv(&p.key()));
    }
    out.sort_by(|x, y| x.order.cmp(&y.order).then_with(|| x.key().cmp(&y.key())));
    out
}

/// The config's keys for tables checked against the game's seats.
pub fn check_config(c: &TournamentConfig, seats: usize) -> Result<(), ConfigError> {
    let bad = |m: String| Err(ConfigError::Invalid(m));
    if c.games_per_pairing_given && c.games_per_table.is_some() {
        return bad(
            "games_per_pairing and games_per_table both given: a game of two seats plays \
             pairings (games_per_pairing), a game of more seats plays tables (games_per_table)"
                .into(),
        );
    }
    if seats <= 2 {
        for (key, given) in [
            ("games_per_table", c.games_per_table.is_some()),
            ("points_per_place", c.points_per_place.is_some()),
            ("tables", c.tables.is_some()),
        ] {
            if given {
                return bad(format!(
                    "{key} is for games of more than two seats; this game has two (use \
                     games_per_pairing)"
                ));
            }
        }
        return Ok(());
    }
    if seats > MAX_SEATS {
        return bad(format!(
            "the game has {seats} seats: tables hold at most {MAX_SEATS}"
        ));
    }
    if c.games_per_pairing_given {
        return bad(format!(
            "games_per_pairing is for games of two seats; this game has {seats}: use \
             games_per_table (a multiple of {seats})"
        ));
    }
    if !matches!(c.format, Format::RoundRobin | Format::Gauntlet) {
        return bad(format!(
            "a game of {seats} seats plays format = \"round-robin\" or \"gauntlet\" (tables of \
             {seats} bots)"
        ));
    }
    let gpt = games_per_table(c, seats);
    if gpt == 0 || gpt % seats != 0 {
        return bad(format!(
            "games_per_table = {gpt}: must be a multiple of {seats} (every bot of a table sits \
             in every seat equally often)"
        ));
    }
    if gpt > crate::config::MAX_GAMES_PER_PAIRING {
        return bad(format!(
            "games_per_table = {gpt}: more than the limit of {}",
            crate::config::MAX_GAMES_PER_PAIRING
        ));
    }
    if let Some(p) = &c.points_per_place {
        if p.len() != seats {
            return bad(format!(
                "points_per_place has {} values: give one per place ({seats})",
                p.len()
            ));
        }
        if p.iter().any(|x| !x.is_finite() || x.abs() > 1e9) {
            return bad("points_per_place: every value must be a finite number".into());
        }
    }
    if c.game.openings.as_ref().is_some_and(|o| !o.is_empty()) {
        return bad(
            "game.openings: tables of more than two seats start from the initial \
                    position"
                .into(),
        );
    }
    match c.format {
        Format::Gauntlet => {
            let refs = c.reference.len();
            if refs < seats - 1 {
                return bad(format!(
                    "a gauntlet at tables of {seats} needs at least {} reference bots (each \
                     table: one challenger and {} of them); {refs} given",
                    seats - 1,
                    seats - 1
                ));
            }
        }
        _ => {
            if c.bots.len() < seats {
                return bad(format!(
                    "{} bots for tables of {seats}: give at least {seats}",
                    c.bots.len()
                ));
            }
        }
    }
    Ok(())
}

/// The points per place the config gives, or the default.
pub fn points_per_place(file: &TournamentConfig, seats: usize) -> Vec<f64> {
    file.points_per_place
        .clone()
        .unwrap_or_else(|| default_points(seats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How often each pair of `n` bots meets at `tables`.
    fn meetings(n: usize, tables: &[Vec<usize>]) -> Vec<Vec<usize>> {
        let mut m = vec![vec![0; n]; n];
        for t in tables {
            for &a in t {
                for &b in t {
                    if a != b {
                        m[a][b] += 1;
                    }
                }
            }
        }
        m
    }

    fn pair_counts(n: usize, tables: &[Vec<usize>]) -> Vec<usize> {
        let m = meetings(n, tables);
        m.iter()
            .enumerate()
            .flat_map(|(a, row)| row[a + 1..].iter().copied())
            .collect()
    }

    #[test]
    fn combinations_are_every_subset_once() {
        for (n, k) in [(5, 2), (6, 3), (7, 4), (8, 8), (3, 4)] {
            let c = combinations(n, k);
            assert_eq!(c.len() as u128, binomial(n, k), "C({n},{k})");
            let mut sorted = c.clone();
            sorted.dedup();
            assert_eq!(sorted.len(), c.len());
            assert!(c.iter().all(|s| s.windows(2).all(|w| w[0] < w[1])));
        }
        assert_eq!(binomial(12, 3), 220);
        assert_eq!(binomial(1000, 8), 24_115_080_524_699_431_125);
    }

    #[test]
    fn all_sets_meet_every_pair_equally() {
        for (n, k) in [(4, 3), (6, 3), (7, 4), (9, 6)] {
            let t = round_robin(n, k, Design::All);
            let counts = pair_counts(n, &t);
            let want = binomial(n - 2, k - 2) as usize;
            assert!(counts.iter().all(|&c| c == want), "n {n} k {k}: {counts:?}");
        }
    }

    #[test]
    fn cyclic_tables_cover_every_pair_and_give_every_bot_as_many_tables() {
        for (n, k) in [(12, 3), (13, 3), (7, 3), (20, 4), (31, 6), (9, 8), (100, 3)] {
            let t = round_robin(n, k, Design::Cyclic);
            assert!(t.iter().all(|x| {
                let mut s = x.clone();
                s.sort();
                s.dedup();
                s.len() == k
            }));
            let per_bot: Vec<usize> = (0..n)
                .map(|b| t.iter().filter(|x| x.contains(&b)).count())
                .collect();
            assert!(
                per_bot.iter().all(|&c| c == per_bot[0]),
                "n {n}: {per_bot:?}"
            );
            let counts = pair_counts(n, &t);
            let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
            assert!(*lo >= 1, "n {n} k {k}: a pair never meets");
            // Greedy blocks: near balance, and far fewer tables than every set.
            assert!(hi - lo <= 2 + k / 2, "n {n} k {k}: meetings {lo}..{hi}");
            assert!(
                (t.len() as u128) <= table_bound(n),
                "n {n}: {} tables",
                t.len()
            );
            println!(
                "cyclic n {n} k {k}: {} tables, pair meetings {lo}..{hi}",
                t.len()
            );
        }
    }

    fn table_bound(n: usize) -> u128 {
        (n as u128) * (n as u128 / 2).max(1)
    }

    #[test]
    fn cyclic_twelve_at_three_is_small_and_near_balanced() {
        let t = round_robin(12, 3, Design::Cyclic);
        let counts = pair_counts(12, &t);
        assert!(t.len() <= 36, "{} tables", t.len());
        assert!(*counts.iter().min().unwrap() >= 1);
        assert!(*counts.iter().max().unwrap() <= 3, "{counts:?}");
    }

    #[test]
    fn gauntlet_meets_every_reference_equally_and_no_challenger_twice() {
        let t = gauntlet(&[0, 1], &[2, 3, 4, 5], 3);
        assert_eq!(t.len(), 2 * 6);
        let m = meetings(6, &t);
        for (c, row) in m.iter().enumerate().take(2) {
            for (r, &met) in row.iter().enumerate().skip(2) {
                assert_eq!(met, 3, "challenger {c} reference {r}");
            }
        }
        assert_eq!(m[0][1], 0);
    }

    #[test]
    fn rotation_puts_every_bot_in_every_seat_once_per_cycle() {
        let table = ["a", "b", "c", "d"];
        let mut seen = std::collections::BTreeMap::<(&str, usize), usize>::new();
        for g in 0..8 {
            for (seat, bot) in seat_order(&table, g).into_iter().enumerate() {
                *seen.entry((bot, seat)).or_default() += 1;
            }
        }
        assert_eq!(seen.len(), 16);
        assert!(seen.values().all(|&c| c == 2));
        assert_eq!(seat_order(&table, 0), table.to_vec());
        assert_eq!(seat_order(&table, 1), vec!["d", "a", "b", "c"]);
    }

    #[test]
    fn points_follow_places_and_ties_share_a_place() {
        let per = default_points(3);
        assert_eq!(per, vec![2.0, 1.0, 0.0]);
        assert_eq!(points(&[2, 1, 3], &per), vec![1.0, 2.0, 0.0]);
        assert_eq!(points(&[1, 1, 3], &per), vec![2.0, 2.0, 0.0]);
        assert_eq!(points(&[1, 9], &[5.0]), vec![5.0, 0.0]);
    }

    fn config(extra: &str) -> TournamentConfig {
        let text = format!(
            "{extra}\n[game]\nname = \"reversi\"\n[[bots]]\nname = \"a\"\ncommand = \"x\"\n\
             [[bots]]\nname = \"b\"\ncommand = \"x\"\n[[bots]]\nname = \"c\"\ncommand = \"x\"\n"
        );
        TournamentConfig::parse(&text, "test").unwrap()
    }

    fn refusal(extra: &str, seats: usize) -> String {
        match check_config(&config(extra), seats) {
            Err(e) => e.to_string(),
            Ok(()) => String::new(),
        }
    }

    #[test]
    fn table_keys_are_checked_against_the_seats() {
        assert!(check_config(&config(""), 3).is_ok());
        assert!(check_config(&config("games_per_table = 6"), 3).is_ok());
        assert!(check_config(&config("games_per_pairing = 4"), 2).is_ok());
        let both = refusal("games_per_pairing = 2\ngames_per_table = 3", 3);
        assert!(both.contains("both given"), "{both}");
        let both = refusal("games_per_pairing = 2\ngames_per_table = 3", 2);
        assert!(both.contains("both given"), "{both}");
        assert!(refusal("games_per_pairing = 2", 3).contains("use games_per_table"));
        assert!(refusal("games_per_table = 4", 3).contains("multiple of 3"));
        assert!(refusal("games_per_table = 3", 2).contains("two"));
        assert!(refusal("points_per_place = [1.0]", 3).contains("one per place"));
        assert!(refusal("format = \"swiss\"", 3).contains("round-robin"));
        assert!(refusal("", 4).contains("at least 4"));
        assert!(refusal("", 9).contains("at most 8"));
    }
}
