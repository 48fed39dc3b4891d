//! Aligned pair (6.2) and aligned triplet (7.5) exclusion: a combination of digits for two
//! or three cells is impossible when it repeats a digit in cells that see each other, or when
//! it takes every candidate of a cell that sees them all (an "excluder"); a digit no possible
//! combination uses leaves its cell.

use super::bits::Bits;
use super::board::{Board, Cells, PEERS, bit, cells_of, digits_of};
use super::technique::{Hint, Technique};

/// The cells that may take part, with their excluders: cells with two or more candidates,
/// none of whose peers is a naked single, and whose peers include cells with two to
/// `max_excluder` candidates (the excluders).
fn candidates(b: &Board, max_excluder: u32, cells: &mut Vec<(u8, Cells)>) {
    cells.clear();
    // Cells by their number of candidates: one, two or more, and two to `max_excluder`.
    let (mut single, mut many, mut excluders) = (0u128, 0u128, 0u128);
    for c in cells_of(b.empty) {
        let n = b.count(c);
        if n == 1 {
            single |= bit(c);
        } else if n >= 2 {
            many |= bit(c);
            if n <= max_excluder {
                excluders |= bit(c);
            }
        }
    }
    for c in cells_of(many) {
        let excl = PEERS[c] & excluders;
        if PEERS[c] & single == 0 && excl != 0 {
            cells.push((c as u8, excl));
        }
    }
}

/// The last search of a rung that found nothing: its clock (0 when the last search found a
/// hint) and the cells that could take part then.
#[derive(Default)]
pub(crate) struct NoneSince {
    at: u64,
    listed: Cells,
}

impl NoneSince {
    /// The cells changed since the last search that found nothing (every cell when there was
    /// none), and the cells of `list` that could not take part then.
    fn fresh(&self, b: &Board, list: &[(u8, Cells)], changed: &[u64; 81]) -> (Cells, Cells) {
        let mut in_list: Cells = 0;
        for &(c, _) in list {
            in_list |= bit(c as usize);
        }
        let mut fresh: Cells = in_list & !self.listed;
        for c in cells_of(b.empty) {
            if changed[c] > self.at {
                fresh |= bit(c);
            }
        }
        (fresh, in_list)
    }
}

/// Aligned pair exclusion: two cells with at least two common excluders of two candidates.
///
/// Whether two cells remove anything depends only on their candidates and those of their
/// common excluders, and with fewer excluders fewer combinations are ruled out. So when the
/// last search found nothing (`none`, with `changed` the clock of each cell's last change), a
/// pair removing something now has a cell, or a common excluder, changed since (an excluder
/// that is new has changed: its candidates fell to two), or a cell that could not take part
/// then. Only those pairs are tried, in the same order, so the same pair wins.
pub(crate) fn aligned_pair(
    b: &Board,
    list: &mut Vec<(u8, Cells)>,
    none: &mut NoneSince,
    clock: u64,
    changed: &[u64; 81],
) -> Option<Hint> {
    candidates(b, 2, list);
    let (fresh, in_list) = none.fresh(b, list, changed);
    // Pairs in Sudoku Explainer's order: (0,1), (0,2), (1,2), (0,3), ...
    for n2 in 1..list.len() {
        for n1 in 0..n2 {
            let (c0, e0) = (list[n1].0 as usize, list[n1].1);
            let (c1, e1) = (list[n2].0 as usize, list[n2].1);
            let common = e0 & e1;
            if !common.many() || (bit(c0) | bit(c1) | common) & fresh == 0 {
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
                none.at = 0;
                return Some(h);
            }
        }
    }
    none.at = clock;
    none.listed = in_list;
    None
}

/// Aligned triplet exclusion: two cells and a third among their excluders' cells, with at
/// least two common excluders of two or three candidates.
///
/// Whether three cells remove anything depends only on their candidates and those of their
/// common excluders; with fewer excluders, or the same ones, no more combinations are ruled
/// out. So three cells that removed nothing are remembered with the clock of the step (see
/// `memo`), and later steps skip them while none of the three and none of their excluders now
/// has changed since (`changed`, the clock of each cell's last change): a cell that became an
/// excluder since has changed too, as its candidates fell to three or fewer. When the whole
/// search last found nothing, a triplet removing something now is one that was not tried or
/// not the same then: one of its cells or excluders changed since, or one of its cells joined
/// the cells that may take part (a peer's naked single was placed, or a peer became an
/// excluder). Only those are tried, without looking them up.
pub(crate) fn aligned_triplet(
    b: &Board,
    list: &mut Vec<(u8, Cells)>,
    known: &mut TripleCache,
    clock: u64,
    changed: &[u64; 81],
) -> Option<Hint> {
    candidates(b, 3, list);
    let mut excluders = [0u128; 81];
    for &(c, e) in list.iter() {
        excluders[c as usize] = e;
    }
    let (fresh, in_list) = known.none.fresh(b, list, changed);
    for n2 in 1..list.len() {
        let (c1, e1) = (list[n2].0 as usize, list[n2].1);
        for n1 in 0..n2 {
            let (c0, e0) = (list[n1].0 as usize, list[n1].1);
            let pair_common = e0 & e1;
            if !pair_common.many() {
                // Every triplet needs two excluders common to its first two cells.
                continue;
            }
            let pair = bit(c0) | bit(c1);
            let mut exclude = !pair;
            if (pair | pair_common) & fresh == 0 {
                // Only a fresh third cell can make this triplet new.
                exclude &= fresh;
            }
            // The third cell: first the first cell's excluders, then the second's others.
            let first = e0 & in_list & exclude;
            let second = e1 & !e0 & in_list & exclude;
            for t in cells_of(first).chain(cells_of(second)) {
                let common = pair_common & excluders[t];
                if !common.many() {
                    continue;
                }
                let cells = pair | bit(t) | common;
                if cells & fresh == 0 {
                    continue;
                }
                // The same three cells come up in other roles and at later steps; their
                // outcome does not depend on the roles.
                let unchanged_since = |at: u64| cells_of(cells).all(|c| changed[c] <= at);
                if known.get(c0, c1, t).is_some_and(unchanged_since) {
                    continue;
                }
                match triplet(b, [c0, c1, t], common) {
                    Some(h) => {
                        known.none.at = 0;
                        return Some(h);
                    }
                    None => known.put(c0, c1, t, clock),
                }
            }
        }
    }
    known.none.at = clock;
    known.none.listed = in_list;
    None
}

fn triplet(b: &Board, cells: [usize; 3], common: Cells) -> Option<Hint> {
    let m = [b.cell[cells[0]], b.cell[cells[1]], b.cell[cells[2]]];
    let see = |i: usize, j: usize| PEERS[cells[i]] & bit(cells[j]) != 0;
    let (see01, see02, see12) = (see(0, 1), see(0, 2), see(1, 2));
    // A combination (one digit per cell) is impossible when two cells that see each other
    // get the same digit, or when it holds every candidate of an excluder. Only the
    // excluders whose candidates all belong to the three cells can be held.
    let all = m[0] | m[1] | m[2];
    let mut held = [0u16; 20];
    let mut n = 0;
    for e in cells_of(common) {
        let em = b.cell[e];
        if em & !all == 0 {
            held[n] = em;
            n += 1;
        }
    }
    let held = &held[..n];
    // The digits of each cell that some possible combination uses, the third cell's for all
    // the first two's choices at once. The search stops as soon as every digit is used:
    // nothing leaves, which is the usual outcome.
    let mut ok = [0u16; 3];
    'x: for x in digits_of(m[0]) {
        let bx = 1u16 << x;
        'y: for y in digits_of(m[1]) {
            let by = 1u16 << y;
            if see01 && x == y {
                continue;
            }
            let mut z = m[2];
            if see02 {
                z &= !bx;
            }
            if see12 {
                z &= !by;
            }
            // An excluder held by x and y rules out every z; one held but for one digit
            // rules out that digit.
            for &e in held {
                let rest = e & !(bx | by);
                if rest == 0 {
                    continue 'y;
                }
                if rest.one() {
                    z &= !rest;
                }
            }
            if z != 0 {
                ok[0] |= bx;
                ok[1] |= by;
                ok[2] |= z;
                if ok == m {
                    return None;
                }
                if ok[1] == m[1] && ok[2] == m[2] {
                    // x is used; only the first cell's other digits can add anything.
                    continue 'x;
                }
            }
        }
    }
    let mut h = Hint::new(Technique::AlignedTripletExclusion, 7.5);
    for k in 0..3 {
        for d in digits_of(m[k] & !ok[k]) {
            h.elim[d] |= bit(cells[k]);
        }
    }
    h.cells = bit(cells[0]) | bit(cells[1]) | bit(cells[2]) | common;
    Some(h)
}

/// Sets of three cells that removed nothing, with the clock of the step that tried them.
pub(crate) struct TripleCache {
    slots: Vec<(u32, u64)>,
    /// The last search that found nothing.
    none: NoneSince,
}

impl Default for TripleCache {
    fn default() -> Self {
        TripleCache {
            slots: vec![(u32::MAX, 0); 1 << 15],
            none: NoneSince::default(),
        }
    }
}

impl TripleCache {
    fn key(a: usize, b: usize, c: usize) -> u32 {
        let mut t = [a as u32, b as u32, c as u32];
        t.sort_unstable();
        (t[0] * 81 + t[1]) * 81 + t[2]
    }

    fn home(key: u32, mask: usize) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> 17) as usize & mask
    }

    /// The clock at which {a, b, c} was found to remove nothing, if remembered.
    fn get(&self, a: usize, b: usize, c: usize) -> Option<u64> {
        let key = Self::key(a, b, c);
        let mask = self.slots.len() - 1;
        let mut i = Self::home(key, mask);
        for _ in 0..16 {
            let (k, at) = self.slots[i];
            if k == key {
                return Some(at);
            }
            if k == u32::MAX {
                return None;
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// Remembers that {a, b, c} removed nothing at `clock`. When its neighbourhood in the
    /// table is full, an old entry gives way: forgetting only costs a repeated evaluation.
    fn put(&mut self, a: usize, b: usize, c: usize, clock: u64) {
        let key = Self::key(a, b, c);
        let mask = self.slots.len() - 1;
        let home = Self::home(key, mask);
        let mut i = home;
        let mut oldest = home;
        for _ in 0..16 {
            let (k, at) = self.slots[i];
            if k == key || k == u32::MAX {
                self.slots[i] = (key, clock);
                return;
            }
            if at < self.slots[oldest].1 {
                oldest = i;
            }
            i = (i + 1) & mask;
        }
        self.slots[oldest] = (key, clock);
    }
}
