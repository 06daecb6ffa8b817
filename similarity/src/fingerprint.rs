//! Winnowing (Schleimer, Wilkerson and Aiken, "Winnowing: local algorithms for document
//! fingerprinting", SIGMOD 2003; the algorithm of MOSS) over k-grams of normalised tokens.
//!
//! Each k-gram of tokens gets a hash; in every window of `w` consecutive hashes the minimum is
//! kept (the rightmost one on ties). Two files that share a run of at least `w + k - 1` tokens
//! share at least one kept hash, so the kept hashes find every candidate pair without
//! comparing every pair token by token.

use std::collections::HashSet;

/// The hash of every k-gram of `symbols`, in order (`symbols.len() - k + 1` of them).
pub fn kgram_hashes(symbols: &[u32], k: usize) -> Vec<u64> {
    if k == 0 || symbols.len() < k {
        return Vec::new();
    }
    symbols.windows(k).map(hash_window).collect()
}

/// A k-gram's hash: the symbols mixed in order (FNV-1a over 32-bit words, then a final
/// avalanche so that the minimum of a window is a fair pick).
fn hash_window(window: &[u32]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &s in window {
        h ^= u64::from(s);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

/// One kept hash and the index of its k-gram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    pub hash: u64,
    pub at: usize,
}

/// Winnows `hashes` with windows of `w`: the rightmost minimum of each window, each kept
/// position once. A file shorter than one window keeps its minimum.
pub fn winnow(hashes: &[u64], w: usize) -> Vec<Fingerprint> {
    let w = w.max(1);
    let mut out: Vec<Fingerprint> = Vec::new();
    if hashes.is_empty() {
        return out;
    }
    // A monotone deque of positions gives each window's rightmost minimum in O(n).
    let mut deque: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for (i, &h) in hashes.iter().enumerate() {
        while deque.back().is_some_and(|&j| hashes[j] >= h) {
            deque.pop_back();
        }
        deque.push_back(i);
        if i + 1 < w.min(hashes.len()) {
            continue;
        }
        let start = (i + 1).saturating_sub(w);
        while deque.front().is_some_and(|&j| j < start) {
            deque.pop_front();
        }
        if let Some(&m) = deque.front() {
            if out.last().is_none_or(|f| f.at != m) {
                out.push(Fingerprint {
                    hash: hashes[m],
                    at: m,
                });
            }
        }
    }
    out
}

/// Which tokens of a file are covered by a k-gram that also occurs in the template code: the
/// template's own text, wherever a student pasted it, never counts as shared.
pub fn template_mask(
    hashes: &[u64],
    k: usize,
    template: &HashSet<u64>,
    tokens: usize,
) -> Vec<bool> {
    let mut mask = vec![false; tokens];
    for (i, h) in hashes.iter().enumerate() {
        if template.contains(h) {
            let end = (i + k).min(tokens);
            for m in &mut mask[i..end] {
                *m = true;
            }
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_run_of_w_plus_k_minus_1_shares_a_fingerprint() {
        let (k, w) = (5, 4);
        let shared: Vec<u32> = (100..100 + (w + k - 1) as u32).collect();
        let mut a: Vec<u32> = (0..40).collect();
        a.extend(&shared);
        let mut b: Vec<u32> = (500..530).collect();
        b.extend(&shared);
        b.extend(600..620);
        let fa: HashSet<u64> = winnow(&kgram_hashes(&a, k), w)
            .iter()
            .map(|f| f.hash)
            .collect();
        let fb: HashSet<u64> = winnow(&kgram_hashes(&b, k), w)
            .iter()
            .map(|f| f.hash)
            .collect();
        assert!(fa.intersection(&fb).count() >= 1);
        let c: Vec<u32> = (1000..1100).collect();
        let fc: HashSet<u64> = winnow(&kgram_hashes(&c, k), w)
            .iter()
            .map(|f| f.hash)
            .collect();
        assert_eq!(fa.intersection(&fc).count(), 0);
    }

    #[test]
    fn winnowing_keeps_a_fraction_and_every_window_has_one() {
        let s: Vec<u32> = (0..1000).map(|i| (i * 7919) % 257).collect();
        let h = kgram_hashes(&s, 10);
        let w = 8;
        let f = winnow(&h, w);
        assert!(f.len() < h.len() / 2, "{} of {}", f.len(), h.len());
        for start in 0..=h.len() - w {
            assert!(f.iter().any(|p| p.at >= start && p.at < start + w));
        }
    }

    #[test]
    fn short_inputs() {
        assert!(kgram_hashes(&[1, 2], 3).is_empty());
        assert!(winnow(&[], 4).is_empty());
        assert_eq!(winnow(&[9, 3], 4).len(), 1);
    }

    #[test]
    fn template_mask_covers_the_template_kgrams() {
        let s = [1, 2, 3, 4, 5, 6];
        let h = kgram_hashes(&s, 3);
        let template: HashSet<u64> = kgram_hashes(&[2, 3, 4], 3).into_iter().collect();
        let m = template_mask(&h, 3, &template, s.len());
        assert_eq!(m, vec![false, true, true, true, false, false]);
    }
}
