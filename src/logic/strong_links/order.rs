//! The orders in which Sukaku Explainer tries strong-link chains, and their names: the
//! permutations of the links, the sequences of kinds of unit, their ranks as tables, and the
//! name of a sequence of kinds.

use super::super::singles::combinations;

/// Sukaku Explainer's name for the kinds of unit in chain order: 0 box, 1 row, 2 column, with
/// rows and columns swapped or the sequence read backwards where that reads smaller.
pub(super) fn line_name(set: &[u8]) -> ([u8; 4], usize) {
    let n = set.len();
    let mut orig = [0u8; 4];
    let mut lines = [0u8; 4];
    let mut current = [0u8; 4];
    let mut reverse = [0u8; 4];
    let mut one = false;
    for (i, &s) in set.iter().enumerate() {
        orig[i] = s;
        lines[i] = if s == 2 { 1 } else { s };
        let swapped = match s {
            1 => {
                one = true;
                2
            }
            2 => 1,
            x => x,
        };
        current[i] = swapped;
        reverse[n - 1 - i] = swapped;
    }
    if reverse[..n] > current[..n] {
        reverse = current;
    }
    if one {
        if orig[..n] > reverse[..n] {
            (reverse, n)
        } else {
            (orig, n)
        }
    } else {
        (lines, n)
    }
}

/// Sukaku Explainer's permutations of the link order, in the order it tries them (Heap's
/// countdown variant), for `n` links.
pub(super) fn permutations(n: usize) -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    let mut q = [0u8, 1, 2, 3];
    let mut r = [0usize, 1, 2, 3, 4];
    r[n] = n;
    out.push(q);
    let mut s = 1;
    while s < n {
        r[s] -= 1;
        let t = s % 2 * r[s];
        q.swap(t, s);
        out.push(q);
        s = 1;
        while r[s] == 0 {
            r[s] = s;
            s += 1;
        }
    }
    out
}

/// The rank of each sequence of kinds among those Sukaku Explainer tries for `n` links:
/// positions 0..3n taken n at a time, position i of kind index / n, kept when
/// index % n == i.
pub(super) fn kind_ranks(n: usize) -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    for comb in combinations(n as u32, 3 * n as u32) {
        let mut kinds = [0u8; 4];
        let mut i = 0;
        let mut ok = true;
        for idx in 0..3 * n {
            if comb & (1 << idx) != 0 {
                if idx % n != i {
                    ok = false;
                    break;
                }
                kinds[i] = (idx / n) as u8;
                i += 1;
            }
        }
        if ok {
            out.push(kinds);
        }
    }
    out
}

/// A sequence of at most four small numbers as one number (base 4), for rank tables.
pub(super) fn code(seq: &[u8]) -> usize {
    seq.iter().fold(0, |c, &x| c * 4 + x as usize)
}

pub(super) fn rank_table(seqs: &[[u8; 4]], n: usize) -> Vec<u8> {
    let mut t = vec![u8::MAX; 256];
    for (rank, s) in seqs.iter().enumerate() {
        t[code(&s[..n])] = rank as u8;
    }
    t
}
