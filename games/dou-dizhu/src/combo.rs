//! The combinations (牌型): what a play may be, which play beats which, and every play a hand
//! can make.
//!
//! Two rule sets ([`Rules`]). **Standard** takes its combinations from Botzone's
//! FightTheLandlord2 judge, where each set of cards is at most one combination: wings are
//! distinct ranks (a trio chain `333444` takes two different solos or two different pairs),
//! four may take two different solos or two different pairs, chains of fours (space shuttles,
//! 航天飞机) exist, with or without wings. **OpenSpiel** is OpenSpiel's `dou_dizhu` exactly,
//! for comparing the two: no four with two, no shuttles, solo wings of any ranks but the
//! chain's (`333444-55`, up to three of a rank, never both jokers), the same cards as several
//! plays (`333444555666` is a chain of four trios, or three trios with the wings `666` or
//! `333`), and its rule that a chain of solos, pairs or trios without wings may not start at
//! a rank of which the hand holds all four.

use crate::cards::{Cards, ACE, BLACK_JOKER, RANKS, RED_JOKER, TWO};

/// Which combinations exist (the module's `rules` config key).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rules {
    Standard,
    OpenSpiel,
}

/// The kind of a play.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Category {
    Solo,
    Pair,
    Trio,
    TrioSolo,
    TrioPair,
    SoloChain,
    PairChain,
    /// A chain of two or more trios (飞机), without wings.
    Airplane,
    AirplaneSolos,
    AirplanePairs,
    FourSolos,
    FourPairs,
    /// A chain of two or more fours (航天飞机), standard rules only.
    Shuttle,
    ShuttleSolos,
    ShuttlePairs,
    Bomb,
    Rocket,
}

impl Category {
    /// How many cards of each rank of its main part (the chain, the trio, the four).
    fn per_rank(self) -> u8 {
        use Category::*;
        match self {
            Solo | SoloChain | Rocket => 1,
            Pair | PairChain => 2,
            Trio | TrioSolo | TrioPair | Airplane | AirplaneSolos | AirplanePairs => 3,
            FourSolos | FourPairs | Shuttle | ShuttleSolos | ShuttlePairs | Bomb => 4,
        }
    }

    fn has_wings(self) -> bool {
        use Category::*;
        matches!(
            self,
            TrioSolo
                | TrioPair
                | AirplaneSolos
                | AirplanePairs
                | FourSolos
                | FourPairs
                | ShuttleSolos
                | ShuttlePairs
        )
    }
}

/// One play: its category, the lowest rank of its main part, how many ranks that part spans
/// (1 unless a chain), and its cards.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Combo {
    pub category: Category,
    pub head: u8,
    pub len: u8,
    pub cards: Cards,
}

impl Combo {
    /// Whether this play beats `other` on the table: the rocket beats all, a bomb all but the
    /// rocket and higher bombs, anything else only the same category of the same length with
    /// a lower main part. (OpenSpiel's generator also lets any bomb follow the rocket, against
    /// its own description: the `openspiel` rules keep that.)
    pub fn beats(&self, other: &Combo, rules: Rules) -> bool {
        match self.category {
            Category::Rocket => true,
            Category::Bomb => match other.category {
                Category::Rocket => rules == Rules::OpenSpiel,
                Category::Bomb => self.head > other.head,
                _ => true,
            },
            c => c == other.category && self.len == other.len && self.head > other.head,
        }
    }

    /// Bombs and the rocket double the stake.
    pub fn is_bomb(&self) -> bool {
        matches!(self.category, Category::Bomb | Category::Rocket)
    }

    /// The cards of the main part alone.
    fn main_part(&self) -> Cards {
        let mut c = Cards::NONE;
        let per = self.category.per_rank();
        if self.category == Category::Rocket {
            return self.cards;
        }
        for r in self.head..self.head + self.len {
            c.0[usize::from(r)] = per;
        }
        c
    }

    /// The play's text: its ranks, lowest first; in the OpenSpiel rules an airplane with wings
    /// is written as OpenSpiel writes it, chain, `-`, wings (`333444555-666`), because the same
    /// cards can be several plays there.
    pub fn text(&self, rules: Rules) -> String {
        let winged = matches!(
            self.category,
            Category::AirplaneSolos | Category::AirplanePairs
        );
        if rules == Rules::OpenSpiel && winged {
            let main = self.main_part();
            let mut wings = self.cards;
            wings.remove(&main);
            let mut s = main.text();
            s.push('-');
            wings.push_text(&mut s);
            return s;
        }
        self.cards.text()
    }

    /// The play in words: "a pair", "a chain of 3 pairs", "an airplane of 2 trios with solo
    /// wings", "the rocket".
    pub fn describe(&self) -> String {
        use Category::*;
        let n = self.len;
        match self.category {
            Solo => "a solo".into(),
            Pair => "a pair".into(),
            Trio => "a trio".into(),
            TrioSolo => "a trio with a solo".into(),
            TrioPair => "a trio with a pair".into(),
            SoloChain => format!("a chain of {n} solos"),
            PairChain => format!("a chain of {n} pairs"),
            Airplane => format!("an airplane of {n} trios"),
            AirplaneSolos => format!("an airplane of {n} trios with solo wings"),
            AirplanePairs => format!("an airplane of {n} trios with pair wings"),
            FourSolos => "four with two solos".into(),
            FourPairs => "four with two pairs".into(),
            Shuttle => format!("a shuttle of {n} fours"),
            ShuttleSolos => format!("a shuttle of {n} fours with solo wings"),
            ShuttlePairs => format!("a shuttle of {n} fours with pair wings"),
            Bomb => "a bomb".into(),
            Rocket => "the rocket".into(),
        }
    }
}

fn combo(category: Category, head: usize, len: usize, cards: Cards) -> Combo {
    Combo {
        category,
        head: head as u8,
        len: len as u8,
        cards,
    }
}

/// `per` cards of each rank `head..head + len`.
fn run(head: usize, len: usize, per: u8) -> Cards {
    let mut c = Cards::NONE;
    for r in head..head + len {
        c.0[r] = per;
    }
    c
}

/// Which categories a generation wants: all (a lead), or what can beat a play.
#[derive(Clone, Copy)]
pub enum Want {
    All,
    Beating(Category),
}

impl Want {
    fn wants(self, c: Category) -> bool {
        match self {
            Want::All => true,
            Want::Beating(Category::Rocket) => c == Category::Bomb,
            Want::Beating(Category::Bomb) => matches!(c, Category::Bomb | Category::Rocket),
            Want::Beating(t) => c == t || matches!(c, Category::Bomb | Category::Rocket),
        }
    }
}

/// Appends every play `hand` can make among the categories `want` asks for (not yet
/// compared with the table: [`Combo::beats`] does that).
pub fn plays(hand: &Cards, rules: Rules, want: Want, out: &mut Vec<Combo>) {
    let w = |c| want.wants(c);
    same_rank(hand, &w, out);
    trio_kickers(hand, &w, out);
    for (cat, per, min) in [
        (Category::SoloChain, 1, 5),
        (Category::PairChain, 2, 3),
        (Category::Airplane, 3, 2),
    ] {
        if w(cat) {
            chains(hand, rules, cat, per, min, out);
        }
    }
    if w(Category::AirplaneSolos) || w(Category::AirplanePairs) {
        airplane_wings(hand, rules, &w, out);
    }
    if rules == Rules::Standard {
        fours(hand, &w, out);
        shuttles(hand, &w, out);
    }
}

/// Solos, pairs, trios, bombs and the rocket.
fn same_rank(hand: &Cards, w: &impl Fn(Category) -> bool, out: &mut Vec<Combo>) {
    let kinds = [
        (Category::Solo, 1),
        (Category::Pair, 2),
        (Category::Trio, 3),
        (Category::Bomb, 4),
    ];
    for (cat, n) in kinds {
        if !w(cat) {
            continue;
        }
        for r in 0..RANKS {
            if hand.count(r) >= n {
                out.push(combo(cat, r, 1, run(r, 1, n)));
            }
        }
    }
    if w(Category::Rocket) && hand.count(BLACK_JOKER) > 0 && hand.count(RED_JOKER) > 0 {
        let mut c = Cards::NONE;
        c.0[BLACK_JOKER] = 1;
        c.0[RED_JOKER] = 1;
        out.push(combo(Category::Rocket, BLACK_JOKER, 1, c));
    }
}

/// A trio with a solo or a pair of any other rank (both rule sets).
fn trio_kickers(hand: &Cards, w: &impl Fn(Category) -> bool, out: &mut Vec<Combo>) {
    for (cat, n) in [(Category::TrioSolo, 1), (Category::TrioPair, 2)] {
        if !w(cat) {
            continue;
        }
        for t in (0..=TWO).filter(|&t| hand.count(t) >= 3) {
            for k in (0..RANKS).filter(|&k| k != t && hand.count(k) >= n) {
                let mut c = run(t, 1, 3);
                c.0[k] = n;
                out.push(combo(cat, t, 1, c));
            }
        }
    }
}

/// The chains `head..head + len` (at most to the ace) of `per` cards a rank that `hand`
/// holds, for every head and length.
fn each_chain(hand: &Cards, per: u8, mut f: impl FnMut(usize, usize)) {
    for head in 0..=ACE {
        let mut len = 0;
        while head + len <= ACE && hand.count(head + len) >= per {
            len += 1;
            f(head, len);
        }
    }
}

fn chains(hand: &Cards, rules: Rules, cat: Category, per: u8, min: usize, out: &mut Vec<Combo>) {
    each_chain(hand, per, |head, len| {
        // OpenSpiel's generator skips a head of which the hand holds all four.
        let skipped = rules == Rules::OpenSpiel && hand.count(head) == 4;
        if len >= min && !skipped {
            out.push(combo(cat, head, len, run(head, len, per)));
        }
    });
}

/// Calls `f` with every choice of `k` distinct ranks from `from` (ascending).
fn choose(from: &[usize], k: usize, f: &mut impl FnMut(&[usize])) {
    fn go(from: &[usize], k: usize, at: usize, cur: &mut Vec<usize>, f: &mut impl FnMut(&[usize])) {
        if cur.len() == k {
            f(cur);
            return;
        }
        for i in at..from.len() {
            if from.len() - i < k - cur.len() {
                break;
            }
            cur.push(from[i]);
            go(from, k, i + 1, cur, f);
            cur.pop();
        }
    }
    go(from, k, 0, &mut Vec::with_capacity(k), f);
}

/// Calls `f` with every multiset of `k` solo wings from `hand` outside `chain` as OpenSpiel
/// draws them: up to three of a rank, at most one of each joker and never both.
fn openspiel_solo_wings(hand: &Cards, chain: &Cards, k: usize, f: &mut impl FnMut(&Cards)) {
    fn go(
        hand: &Cards,
        chain: &Cards,
        left: usize,
        below: usize,
        cur: &mut Cards,
        f: &mut impl FnMut(&Cards),
    ) {
        if left == 0 {
            f(cur);
            return;
        }
        for r in (0..below).rev() {
            // At most three of a rank (the jokers: one each, as the pack has).
            let cap = 3.min(hand.count(r));
            let other_joker = r > TWO && cur.count(BLACK_JOKER + RED_JOKER - r) > 0;
            if chain.count(r) > 0 || cur.count(r) >= cap || other_joker {
                continue;
            }
            cur.0[r] += 1;
            // Non-increasing ranks: each multiset once.
            go(hand, chain, left - 1, r + 1, cur, f);
            cur.0[r] -= 1;
        }
    }
    let mut cur = Cards::NONE;
    go(hand, chain, k, RANKS, &mut cur, f);
}

/// Appends `main` with each choice of `k` distinct wings of `n` cards from `hand` (ranks
/// outside `main`; pairs never jokers).
fn distinct_wings(hand: &Cards, main: &Cards, k: usize, n: u8, mut push: impl FnMut(Cards)) {
    let from: Vec<usize> = (0..RANKS)
        .filter(|&r| main.count(r) == 0 && hand.count(r) >= n && (n == 1 || r <= TWO))
        .collect();
    choose(&from, k, &mut |ranks| {
        let mut c = *main;
        for &r in ranks {
            c.0[r] = n;
        }
        push(c);
    });
}

fn airplane_wings(hand: &Cards, rules: Rules, w: &impl Fn(Category) -> bool, out: &mut Vec<Combo>) {
    each_chain(hand, 3, |head, len| {
        if len < 2 {
            return;
        }
        let main = run(head, len, 3);
        if w(Category::AirplaneSolos) {
            let mut push = |c: Cards| out.push(combo(Category::AirplaneSolos, head, len, c));
            match rules {
                Rules::Standard => distinct_wings(hand, &main, len, 1, &mut push),
                Rules::OpenSpiel => openspiel_solo_wings(hand, &main, len, &mut |wings| {
                    let mut c = main;
                    c.add(wings);
                    push(c);
                }),
            }
        }
        if w(Category::AirplanePairs) {
            distinct_wings(hand, &main, len, 2, |c| {
                out.push(combo(Category::AirplanePairs, head, len, c))
            });
        }
    });
}

/// Four with two distinct solos or two distinct pairs (standard rules).
fn fours(hand: &Cards, w: &impl Fn(Category) -> bool, out: &mut Vec<Combo>) {
    for q in (0..=TWO).filter(|&q| hand.count(q) == 4) {
        let main = run(q, 1, 4);
        for (cat, n) in [(Category::FourSolos, 1), (Category::FourPairs, 2)] {
            if w(cat) {
                distinct_wings(hand, &main, 2, n, |c| out.push(combo(cat, q, 1, c)));
            }
        }
    }
}

/// Chains of two or more fours, bare or with twice as many distinct solos or pairs
/// (standard rules).
fn shuttles(hand: &Cards, w: &impl Fn(Category) -> bool, out: &mut Vec<Combo>) {
    each_chain(hand, 4, |head, len| {
        if len < 2 {
            return;
        }
        let main = run(head, len, 4);
        if w(Category::Shuttle) {
            out.push(combo(Category::Shuttle, head, len, main));
        }
        for (cat, n) in [(Category::ShuttleSolos, 1), (Category::ShuttlePairs, 2)] {
            if w(cat) {
                distinct_wings(hand, &main, 2 * len, n, |c| {
                    out.push(combo(cat, head, len, c))
                });
            }
        }
    });
}

/// The ranks of `cards` held exactly `n` times, ascending.
fn held(cards: &Cards, n: u8) -> Vec<usize> {
    (0..RANKS).filter(|&r| cards.count(r) == n).collect()
}

/// `ranks` as a chain (consecutive, at most to the ace): its head and length.
fn as_chain(ranks: &[usize]) -> Option<(usize, usize)> {
    let (&first, &last) = (ranks.first()?, ranks.last()?);
    let consecutive = ranks.windows(2).all(|p| p[1] == p[0] + 1);
    (consecutive && last <= ACE).then_some((first, ranks.len()))
}

/// The one combination these cards make when written without a dash: every category of the
/// standard rules (each set of cards is at most one), or in the OpenSpiel rules those without
/// wings on a chain (an airplane with wings is written with its dash: [`parse_winged`]).
pub fn classify(cards: &Cards, rules: Rules) -> Option<Combo> {
    use Category::*;
    let n = cards.total();
    let by: [Vec<usize>; 5] = core::array::from_fn(|k| held(cards, k as u8));
    let kinds = (1..=4).filter(|&k| !by[k].is_empty()).count();
    let c = |cat, head, len| Some(combo(cat, head, len, *cards));
    if n == 2 && cards.count(BLACK_JOKER) == 1 && cards.count(RED_JOKER) == 1 {
        return c(Rocket, BLACK_JOKER, 1);
    }
    if kinds == 1 {
        let k = (1..=4).find(|&k| !by[k].is_empty())?;
        let single = [Solo, Pair, Trio, Bomb][k - 1];
        if by[k].len() == 1 {
            return c(single, by[k][0], 1);
        }
        let (head, len) = as_chain(&by[k])?;
        return match k {
            1 if len >= 5 => c(SoloChain, head, len),
            2 if len >= 3 => c(PairChain, head, len),
            3 => c(Airplane, head, len),
            4 if rules == Rules::Standard => c(Shuttle, head, len),
            _ => None,
        };
    }
    if by[3].len() == 1 && by[4].is_empty() {
        let t = by[3][0];
        if n == 4 && by[1].len() == 1 {
            return c(TrioSolo, t, 1);
        }
        if n == 5 && by[2].len() == 1 {
            return c(TrioPair, t, 1);
        }
    }
    if rules == Rules::Standard {
        return classify_winged(cards, &by);
    }
    None
}

/// Four with two, airplanes and shuttles with wings, as Botzone's judge reads them.
fn classify_winged(cards: &Cards, by: &[Vec<usize>; 5]) -> Option<Combo> {
    use Category::*;
    let n = cards.total();
    let c = |cat, head, len| Some(combo(cat, head, len, *cards));
    if by[4].len() == 1 && by[3].is_empty() {
        let q = by[4][0];
        if n == 6 && by[1].len() == 2 {
            return c(FourSolos, q, 1);
        }
        if n == 8 && by[2].len() == 2 {
            return c(FourPairs, q, 1);
        }
    }
    if by[3].len() >= 2 {
        let (head, len) = as_chain(&by[3])?;
        if n == 4 * len && by[1].len() == len {
            return c(AirplaneSolos, head, len);
        }
        if n == 5 * len && by[2].len() == len {
            return c(AirplanePairs, head, len);
        }
    }
    if by[4].len() >= 2 && by[3].is_empty() {
        let (head, len) = as_chain(&by[4])?;
        if n == 6 * len && by[1].len() == 2 * len {
            return c(ShuttleSolos, head, len);
        }
        if n == 8 * len && by[2].len() == 2 * len {
            return c(ShuttlePairs, head, len);
        }
    }
    None
}

/// An airplane with wings in OpenSpiel's writing, `chain-wings` (`333444-56`, `333444-5566`):
/// `len` trios in a row, then `len` solos (any ranks but the chain's, up to three of a rank,
/// not both jokers) or `len` distinct pairs.
pub fn parse_winged(chain: &Cards, wings: &Cards) -> Option<Combo> {
    let trios = held(chain, 3);
    if trios.len() < 2 || trios.len() * 3 != chain.total() {
        return None;
    }
    let (head, len) = as_chain(&trios)?;
    if (0..RANKS).any(|r| chain.count(r) > 0 && wings.count(r) > 0) {
        return None;
    }
    let mut cards = *chain;
    cards.add(wings);
    let both_jokers = wings.count(BLACK_JOKER) > 0 && wings.count(RED_JOKER) > 0;
    if wings.total() == len && !both_jokers && (0..=TWO).all(|r| wings.count(r) <= 3) {
        return Some(combo(Category::AirplaneSolos, head, len, cards));
    }
    let pairs = held(wings, 2);
    if wings.total() == 2 * len && pairs.len() == len {
        return Some(combo(Category::AirplanePairs, head, len, cards));
    }
    None
}

/// The plays of a category a table play asks for, for messages: "a higher pair".
pub fn what_beats(table: &Combo) -> String {
    match table.category {
        Category::Rocket => "nothing beats the rocket (but a bomb in the openspiel rules)".into(),
        Category::Bomb => "only a higher bomb or the rocket beats a bomb".into(),
        _ => format!(
            "beat it with {} of higher rank{}, a bomb or the rocket",
            table.describe(),
            if table.category.has_wings() {
                " (any wings)"
            } else {
                ""
            }
        ),
    }
}

#[cfg(test)]
mod tests;
