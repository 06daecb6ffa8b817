//! Fair shares of a report's budgets (sources, bytes, tokens): when the owners' sources
//! together exceed a budget, each owner gets the same allowance, the largest that fits (water
//! filling: owners under it keep everything, so only the largest are cut), and keeps their
//! latest versions within it. One student handing in many or huge sources therefore cuts only
//! their own, never another student's.

use std::collections::HashMap;

/// The largest allowance `c` with `sum(min(load, c)) <= budget`; `None` when all loads fit.
pub fn allowance(loads: &[u64], budget: u64) -> Option<u64> {
    let total = loads.iter().fold(0u64, |s, &l| s.saturating_add(l));
    if total <= budget {
        return None;
    }
    let mut sorted = loads.to_vec();
    sorted.sort_unstable();
    let mut left = budget;
    for (n, &load) in sorted.iter().enumerate() {
        let owners = (sorted.len() - n) as u64;
        if load.saturating_mul(owners) > left {
            return Some(left / owners);
        }
        left -= load;
    }
    Some(left)
}

/// Which items to keep: `items` are (owner, cost) listed oldest first; within its owner's
/// allowance each owner keeps its newest items, as many as fit. What the allowances leave of
/// the budget (they are whole numbers, items are indivisible) goes to the newest items left.
pub fn keep<'o>(items: &[(&'o str, u64)], budget: u64) -> Vec<bool> {
    let mut loads: HashMap<&'o str, u64> = HashMap::new();
    for &(owner, cost) in items {
        let l = loads.entry(owner).or_default();
        *l = l.saturating_add(cost);
    }
    let owners: Vec<u64> = loads.values().copied().collect();
    let Some(cap) = allowance(&owners, budget) else {
        return vec![true; items.len()];
    };
    let mut used: HashMap<&str, u64> = HashMap::new();
    let mut out = vec![false; items.len()];
    let mut left = budget;
    for (n, &(owner, cost)) in items.iter().enumerate().rev() {
        let u = used.entry(owner).or_default();
        // Newest first; an older version that still fits after a larger one was cut is kept.
        if u.saturating_add(cost) <= cap {
            *u += cost;
            left -= cost;
            out[n] = true;
        }
    }
    for (n, &(_, cost)) in items.iter().enumerate().rev() {
        if !out[n] && cost <= left {
            left -= cost;
            out[n] = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_owners_keep_everything_and_large_ones_are_cut() {
        assert_eq!(allowance(&[1, 2, 3], 10), None);
        // 10 to share: 1 and 2 fit, the two large owners get 3.5 each.
        assert_eq!(allowance(&[1, 2, 100, 100], 10), Some(3));
        assert_eq!(allowance(&[50, 50], 10), Some(5));
        assert_eq!(allowance(&[], 0), None);
    }

    #[test]
    fn owners_keep_their_latest_items() {
        let items = [
            ("mallory", 40),
            ("alice", 5),
            ("mallory", 40),
            ("bob", 5),
            ("mallory", 40),
        ];
        let kept = keep(&items, 60);
        // 60 to share: alice and bob keep theirs (5 each), mallory's allowance is 50: her
        // latest version only.
        assert_eq!(kept, vec![false, true, false, true, true]);
        assert_eq!(keep(&items, 1000), vec![true; 5]);
        // Eight owners, five places: the allowance is 0 (5/8), and the newest five get them.
        let one: Vec<(&str, u64)> = ["a", "b", "c", "d", "e", "f", "g", "h"]
            .iter()
            .map(|o| (*o, 1))
            .collect();
        let kept = keep(&one, 5);
        assert_eq!(
            kept,
            vec![false, false, false, true, true, true, true, true]
        );
    }
}
