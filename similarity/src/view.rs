//! What a side-by-side view needs: for each line of a source, the matched region it is in.

use crate::report::Region;

/// Which side of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    A,
    B,
}

/// For each line (index 0 is line 1) of a source with `lines` lines, the index into
/// `regions` of the region covering it, if any. Regions never overlap in tokens, but two may
/// share a line: the longer one (earlier in the list) keeps it.
pub fn line_regions(regions: &[Region], which: Which, lines: usize) -> Vec<Option<usize>> {
    let mut out = vec![None; lines];
    for (n, r) in regions.iter().enumerate() {
        let (first, last) = match which {
            Which::A => r.a_lines,
            Which::B => r.b_lines,
        };
        let (first, last) = (first.max(1) as usize, last as usize);
        for slot in out.iter_mut().take(last).skip(first - 1) {
            if slot.is_none() {
                *slot = Some(n);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_get_their_region() {
        let regions = vec![
            Region {
                a_lines: (2, 3),
                b_lines: (5, 5),
                tokens: 20,
            },
            Region {
                a_lines: (3, 4),
                b_lines: (1, 1),
                tokens: 12,
            },
        ];
        assert_eq!(
            line_regions(&regions, Which::A, 5),
            vec![None, Some(0), Some(0), Some(1), None]
        );
        assert_eq!(
            line_regions(&regions, Which::B, 3),
            vec![Some(1), None, None]
        );
        assert_eq!(
            line_regions(&regions, Which::B, 0),
            Vec::<Option<usize>>::new()
        );
    }
}
