//! Aligned pair (6.2) and aligned triplet (7.5) exclusion: a combination of digits for two
//! or three cells is impossible when it repeats a digit in cells that see each other, or when
//! it takes every candidate of a cell that sees them all (an "excluder"); a digit no possible
//! combination uses leaves its cell.

use super::board::{Board, Cells, PEERS, bit, cells_of, digits_of};
use super::technique::{Hint, Technique};

/// The cells that may take part, with their excluders: cells with two or more candidates,
/// none of whose peers is a naked single, and whose peers include cells with two to
/// `max_excluder` candidates (the excluders).
fn candidates(b: &Board, max_excluder: u32, cells: &mut Vec<(u8, Cells)>) {
    cells.clear();
    for c in 0..81 {
        if b.count(c) < 2 {
            continue;
        }
        let mut excl = 0u128;
        let mut single = false;
        for p in cells_of(PEERS[c]) {
            let n = b.count(p);
            if n == 1 {
                single = true;
            } else if n >= 2 && n <= max_excluder {
                excl |= bit(p);
            }
        }
        if !single && excl != 0 {
            cells.push((c as u8, excl));
        }
    }
}

/// Aligned pair exclusion: two cells with at least two common excluders of two candidates.
pub(crate) fn aligned_pair(b: &Board, list: &mut Vec<(u8, Cells)>) -> Option<Hint> {
    candidates(b, 2, list);
    // Pairs in Sudoku Explainer's order: (0,1), (0,2), (1,2), (0,3), ...
    for n2 in 1..list.len() {
        for n1 in 0..n2 {
            let (c0, e0) = (list[n1].0 as usize, list[n1].1);
            let (c1, e1) = (list[n2].0 as usize, list[n2].1);
            let common = e0 & e1;
            if common.count_ones() < 2 {
                continue;
            }
            // forbid[x]: the digits y such that (x, y) fills an excluder.
            let mut forbid = [0u16; 9];
            for e in cells_of(common) {
                let m = b.cell[e];
                let x = m.trailing_zeros() as usize;
                let y = (m & (m - 1)).trailing_zeros() as usize;
                forbid[x] |= 1 << y;
                forbid[y] |= 1 << x;
            }
            let see = PEERS[c0] & bit(c1) != 0;
            let (m0, m1) = (b.cell[c0], b.cell[c1]);
            let (mut ok0, mut ok1) = (0u16, 0u16);
            for x in digits_of(m0) {
                let mut allowed = m1 & !forbid[x];
                if see {
                    allowed &= !(1 << x);
                }
                if allowed != 0 {
                    ok0 |= 1 << x;
                    ok1 |= allowed;
                }
            }
            let mut h = Hint::new(Technique::AlignedPairExclusion, 6.2);
            for d in digits_of(m0 & !ok0) {
                h.elim[d] |= bit(c0);
            }
            for d in digits_of(m1 & !ok1) {
                h.elim[d] |= bit(c1);
            }
            if h.is_worth() {
                h.cells = bit(c0) | bit(c1) | common;
                return Some(h);
            }
        }
    }
    None
}

/// Aligned triplet exclusion: two cells and a third among their excluders' cells, with at
/// least two common excluders of two or three candidates.
pub(crate) fn aligned_triplet(b: &Board, list: &mut Vec<(u8, Cells)>) -> Option<Hint> {
    candidates(b, 3, list);
    let mut in_list: Cells = 0;
    let mut excluders = [0u128; 81];
    for &(c, e) in list.iter() {
        in_list |= bit(c as usize);
        excluders[c as usize] = e;
    }
    for n2 in 1..list.len() {
        for n1 in 0..n2 {
            let (c0, e0) = (list[n1].0 as usize, list[n1].1);
            let (c1, e1) = (list[n2].0 as usize, list[n2].1);
            let exclude = !(bit(c0) | bit(c1));
            // The third cell: first the first cell's excluders, then the second's others.
            let first = e0 & in_list & exclude;
            let second = e1 & !e0 & in_list & exclude;
            for t in cells_of(first).chain(cells_of(second)) {
                let et = list
                    .iter()
                    .find(|&&(c, _)| c as usize == t)
                    .map_or(0, |x| x.1);
                let common = e0 & e1 & et;
                if common.count_ones() < 2 {
                    continue;
                }
                if let Some(h) = triplet(b, [c0, c1, t], common) {
                    return Some(h);
                }
            }
        }
    }
    None
}

fn triplet(b: &Board, cells: [usize; 3], common: Cells) -> Option<Hint> {
    let mut excl = [0u16; 20];
    let mut n = 0;
    for e in cells_of(common) {
        excl[n] = b.cell[e];
        n += 1;
    }
    let excl = &excl[..n];
    let see01 = PEERS[cells[0]] & bit(cells[1]) != 0;
    let see02 = PEERS[cells[0]] & bit(cells[2]) != 0;
    let see12 = PEERS[cells[1]] & bit(cells[2]) != 0;
    let m = [b.cell[cells[0]], b.cell[cells[1]], b.cell[cells[2]]];
    let mut ok = [0u16; 3];
    for x in digits_of(m[0]) {
        for y in digits_of(m[1]) {
            if x == y && see01 {
                continue;
            }
            for z in digits_of(m[2]) {
                if (x == z && see02) || (y == z && see12) {
                    continue;
                }
                let s = (1u16 << x) | (1 << y) | (1 << z);
                if excl.iter().any(|&e| e & !s == 0) {
                    continue;
                }
                ok[0] |= 1 << x;
                ok[1] |= 1 << y;
                ok[2] |= 1 << z;
            }
        }
    }
    let mut h = Hint::new(Technique::AlignedTripletExclusion, 7.5);
    for k in 0..3 {
        for d in digits_of(m[k] & !ok[k]) {
            h.elim[d] |= bit(cells[k]);
        }
    }
    if h.is_worth() {
        h.cells = bit(cells[0]) | bit(cells[1]) | bit(cells[2]) | common;
        Some(h)
    } else {
        None
    }
}
