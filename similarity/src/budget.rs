//! Which of a corpus's documents one report reads: at most `max_versions` of each owner (the
//! latest), then fair shares ([`crate::fair`]) of the report's sources, bytes and tokens. An
//! owner past a share loses their oldest versions first, with a note; an owner under it loses
//! nothing, however much the others hand in.

use std::collections::HashMap;

use crate::corpus::Document;
use crate::params::Params;
use crate::report::Skipped;

/// The documents to compare, in the corpus's order.
pub fn admitted<'c>(
    docs: &'c [Document],
    params: &Params,
    skipped: &mut Vec<Skipped>,
) -> Vec<&'c Document> {
    let mut kept: Vec<&Document> = latest_versions(docs, params.max_versions, skipped);
    let limits: [(&str, Cost, u64); 3] = [
        ("sources", Cost::Count, params.max_documents as u64),
        ("bytes", Cost::Bytes, params.max_total_bytes as u64),
        ("tokens", Cost::Tokens, params.max_total_tokens as u64),
    ];
    for (unit, cost, budget) in limits {
        let costs = costs(&kept, cost, params);
        let items: Vec<(&str, u64)> = kept
            .iter()
            .zip(&costs)
            .map(|(d, &c)| (d.owner.as_str(), c))
            .collect();
        let keep = crate::fair::keep(&items, budget);
        if keep.iter().all(|&k| k) {
            continue;
        }
        note_cut(&kept, &keep, unit, budget, skipped);
        kept = kept
            .into_iter()
            .zip(keep)
            .filter_map(|(d, k)| k.then_some(d))
            .collect();
    }
    kept
}

#[derive(Clone, Copy)]
enum Cost {
    Count,
    Bytes,
    Tokens,
}

/// What each document costs. Tokens are counted only when the sources could exceed the
/// budget (each token is at least a byte), and by the lexer: one quick linear pass that
/// gives the parser's count on ordinary code.
fn costs(docs: &[&Document], cost: Cost, params: &Params) -> Vec<u64> {
    let bytes = |d: &Document| d.source.len() as u64;
    match cost {
        Cost::Count => vec![1; docs.len()],
        Cost::Bytes => docs.iter().map(|d| bytes(d)).collect(),
        Cost::Tokens => {
            let bound: u64 = docs
                .iter()
                .map(|d| bytes(d).min(params.max_tokens as u64))
                .sum();
            if bound <= params.max_total_tokens as u64 {
                return docs.iter().map(|d| bytes(d)).collect();
            }
            crate::parallel::map_nice(docs, params.threads, params.nice, |d| {
                if d.source.len() > params.max_bytes {
                    return 0;
                }
                crate::lexer::lex(d.language, &d.source, params.max_tokens)
                    .map_or(0, |t| t.len() as u64)
            })
        }
    }
}

/// At most `max` documents of each owner: their latest (documents are listed oldest first).
fn latest_versions<'c>(
    docs: &'c [Document],
    max: usize,
    skipped: &mut Vec<Skipped>,
) -> Vec<&'c Document> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut keep = vec![false; docs.len()];
    for (n, d) in docs.iter().enumerate().rev() {
        let count = seen.entry(d.owner.as_str()).or_default();
        *count += 1;
        keep[n] = *count <= max;
    }
    let all: Vec<&Document> = docs.iter().collect();
    if keep.iter().any(|k| !k) {
        note_cut(&all, &keep, "versions", max as u64, skipped);
    }
    all.into_iter()
        .zip(keep)
        .filter_map(|(d, k)| k.then_some(d))
        .collect()
}

/// One note per owner who lost versions.
fn note_cut(
    docs: &[&Document],
    keep: &[bool],
    unit: &str,
    budget: u64,
    skipped: &mut Vec<Skipped>,
) {
    let mut cut: Vec<(&str, usize, usize)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for (d, &k) in docs.iter().zip(keep) {
        let n = *at.entry(d.owner.as_str()).or_insert_with(|| {
            cut.push((d.owner.as_str(), 0, 0));
            cut.len() - 1
        });
        cut[n].2 += 1;
        cut[n].1 += usize::from(!k);
    }
    for (owner, lost, of) in cut.into_iter().filter(|c| c.1 > 0) {
        let what = if lost == of && of == 1 {
            "left out".to_string()
        } else {
            format!("{lost} of {of} versions left out, the oldest")
        };
        let reason = if unit == "versions" {
            format!("{what}: only the latest {budget} are read")
        } else {
            format!(
                "{what}: the report reads at most {budget} {unit} in all, and each student a fair share of them"
            )
        };
        skipped.push(Skipped {
            owner: owner.to_string(),
            version: String::new(),
            reason,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Origin;
    use crate::language::Language;

    fn doc(owner: &str, version: usize, source: &str) -> Document {
        Document {
            owner: owner.into(),
            version: version.to_string(),
            id: None,
            language: Language::C,
            origin: Origin::Student,
            source: source.into(),
        }
    }

    #[test]
    fn a_prolific_owner_loses_only_their_own_oldest_versions() {
        let mut docs = vec![doc("alice", 1, "int a;")];
        docs.extend((0..30).map(|v| doc("mallory", v, &"}".repeat(1000))));
        docs.push(doc("bob", 1, "int b;"));
        let params = Params {
            max_versions: 20,
            max_total_bytes: 5_000,
            ..Params::default()
        };
        let mut skipped = Vec::new();
        let kept = admitted(&docs, &params, &mut skipped);
        let owners: Vec<(&str, &str)> = kept
            .iter()
            .map(|d| (d.owner.as_str(), d.version.as_str()))
            .collect();
        // 5,000 bytes: alice and bob keep theirs, mallory her latest four.
        assert_eq!(
            owners,
            vec![
                ("alice", "1"),
                ("mallory", "26"),
                ("mallory", "27"),
                ("mallory", "28"),
                ("mallory", "29"),
                ("bob", "1")
            ]
        );
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(skipped.iter().all(|s| s.owner == "mallory"));
        assert!(skipped[0].reason.contains("10 of 30 versions left out"));
        assert!(skipped[1].reason.contains("16 of 20 versions"));
    }

    #[test]
    fn tokens_are_counted_only_when_they_could_exceed_the_budget() {
        let docs = [doc("a", 1, "int x;"), doc("b", 1, &"} ".repeat(50))];
        let refs: Vec<&Document> = docs.iter().collect();
        let params = Params {
            max_total_tokens: 10,
            ..Params::default()
        };
        assert_eq!(costs(&refs, Cost::Tokens, &params), vec![3, 50]);
        assert_eq!(costs(&refs, Cost::Tokens, &Params::default()), vec![6, 100]);
    }
}
