//! The "plus" level of dynamic chains: when a search stalls, pointing, claiming, hidden and
//! naked pairs and X-Wings on the search's own grid (the first rule that finds any), then at
//! levels 2 and 3 nested chains, and at level 4 nested dynamic chains, supply more removals,
//! each resting on the candidates the search removed that the rule needed gone. `locked`
//! keeps the units that lock each digit by the digit's places.

use super::super::super::board::{
    Board, COL0, ROW0, UNIT_CELLS, UNIT_MASK, bit, cells_of, digits_of,
};
use super::super::super::singles::{BOX_COL_ROW, INTERSECTION_KINDS, combinations, locked_in};
use super::super::key;
use super::super::nested::NestedHint;
use super::{Multiple, NESTED_CACHE_MAX, NO_NEST, NestedRemovals, Slot};
use crate::logic::Budget;
use crate::logic::bits::Bits;

#[path = "plus_locked.rs"]
mod locked;
use locked::locked_kept;

impl Multiple {
    /// The removals that pointing, claiming, hidden and naked pairs, or X-Wings (the first of
    /// these that finds any) make on the search's grid, each resting on the candidates the
    /// search removed that the rule needed gone.
    pub(super) fn advanced_potentials(
        &mut self,
        base: &Board,
        g: &Board,
        s: usize,
        level: u8,
        budget: &Budget,
    ) {
        self.advanced.clear();
        self.advanced_pool.clear();
        self.advanced_nest.clear();
        self.advanced_nested.clear();
        let slot = &self.slots[s];
        let mut out = Advanced {
            base,
            g,
            list: &mut self.advanced,
            pool: &mut self.advanced_pool,
            real: slot,
        };
        for rule in 0..4 {
            match rule {
                0 => out.locking(),
                1 => out.hidden_pairs(),
                2 => out.naked_pairs(),
                _ => out.x_wings(),
            }
            if !out.list.is_empty() {
                self.advanced_nest.resize(self.advanced.len(), NO_NEST);
                return;
            }
        }
        // Level 2: forcing chains and cycles on the search's grid; level 3: multiple forcing
        // chains too when those find nothing; level 4: dynamic forcing chains (of nesting
        // level `level - 4`). All of a rule's hints count, each resting on what it needed
        // removed. What a rule finds on a grid depends only on it and on the step's grid, so
        // it is kept for every search of the step (levels 2 and 3 share forcing chains).
        let rules: &[u8] = match level {
            0 | 1 => &[],
            2 => &[2],
            3 => &[2, 3],
            l => &[l],
        };
        for &rule in rules {
            if let Some(kept) = self.nested_cache.get(&(g.digit, rule)) {
                self.advanced.clone_from(&kept.list);
                self.advanced_pool.clone_from(&kept.pool);
                self.advanced_nest.clone_from(&kept.nest);
                self.advanced_nested.clone_from(&kept.nested);
            } else {
                let mut hints = std::mem::take(&mut self.nested_hints);
                let done = match rule {
                    2 => {
                        let unary = self.unary.get_or_insert_with(Default::default);
                        unary.collect(base, g, &mut hints, budget)
                    }
                    3 => {
                        let inner = self.inner.get_or_insert_with(Default::default);
                        inner.collect_static(base, g, &mut hints, budget)
                    }
                    l => {
                        let inner = self.inner.get_or_insert_with(Default::default);
                        inner.collect_dynamic(base, g, l - 4, &mut hints, budget)
                    }
                };
                if !done {
                    self.aborted = true;
                    self.nested_hints = hints;
                    return;
                }
                self.add_nested(&hints);
                self.nested_hints = hints;
                if self.nested_cache.len() < NESTED_CACHE_MAX {
                    self.nested_cache.insert(
                        (g.digit, rule),
                        NestedRemovals {
                            list: self.advanced.clone(),
                            pool: self.advanced_pool.clone(),
                            nest: self.advanced_nest.clone(),
                            nested: self.advanced_nested.clone(),
                        },
                    );
                }
            }
            if !self.advanced.is_empty() {
                return;
            }
        }
    }

    fn add_nested(&mut self, hints: &[NestedHint]) {
        for h in hints {
            if h.parents.is_empty() {
                continue;
            }
            let start = self.advanced_pool.len() as u32;
            self.advanced_pool.extend_from_slice(&h.parents);
            let idx = self.advanced_nested.len() as u16;
            self.advanced_nested.push((h.fingerprint, h.complexity));
            for &(c, m) in &h.entries {
                for d in digits_of(m) {
                    self.advanced.push((
                        key(c as usize, d, false) as u16,
                        start,
                        h.parents.len() as u16,
                    ));
                    self.advanced_nest.push(idx);
                }
            }
        }
    }
}

/// Collects the removals of the "plus" rules on a search's grid.
struct Advanced<'a> {
    base: &'a Board,
    g: &'a Board,
    list: &'a mut Vec<(u16, u32, u16)>,
    pool: &'a mut Vec<u16>,
    real: &'a Slot,
}

impl Advanced<'_> {
    /// Adds one hint's removals: `entries` are (cell, digits) in the order Sudoku Explainer's
    /// hash map of removals yields them, `parents` the removed candidates the hint needs.
    fn add(&mut self, entries: &mut [(u8, u16)], parents: &[u16]) {
        if parents.is_empty() || entries.is_empty() {
            return;
        }
        // A java.util.HashMap keyed by cell index iterates by index modulo its capacity,
        // which doubles past three quarters full, keeping insertion order within a bucket.
        let mut cap = 16usize;
        while entries.len() * 4 > cap * 3 {
            cap *= 2;
        }
        entries.sort_by_key(|e| e.0 as usize & (cap - 1));
        let start = self.pool.len() as u32;
        for &p in parents {
            debug_assert!(self.real.has(p as usize));
            self.pool.push(p);
        }
        let len = parents.len() as u16;
        for &(c, m) in entries.iter() {
            for d in digits_of(m) {
                self.list
                    .push((key(c as usize, d, false) as u16, start, len));
            }
        }
    }

    /// Removed from the search: in the base grid, gone from the search's grid.
    #[inline]
    fn removed(&self, c: usize, d: usize) -> bool {
        self.base.has(c, d) && !self.g.has(c, d)
    }

    fn locking(&mut self) {
        let g = self.g;
        // The units that lock each digit, worked out for all of them at once: most digits
        // have none.
        let locked: [[u16; 4]; 9] = locked_kept(g);
        for (rank, (k1, k2)) in INTERSECTION_KINDS.into_iter().enumerate() {
            for (d, locked) in locked.iter().enumerate() {
                for i1 in digits_of(locked[rank]) {
                    // Of the units of the second kind, only the one holding all the places
                    // (at least two) of the first can lock: no need to try the other eight.
                    let Some((_, u2)) = locked_in(g, d, k1 + i1, k2) else {
                        continue;
                    };
                    let (r1, r2) = (UNIT_MASK[k1 + i1], UNIT_MASK[u2]);
                    let gone = g.digit[d] & r2 & !r1;
                    if gone == 0 {
                        continue;
                    }
                    let mut entries = [(0u8, 0u16); 9];
                    let mut n = 0;
                    for x in cells_of(gone) {
                        entries[n] = (x as u8, 1 << d);
                        n += 1;
                    }
                    let mut parents = [0u16; 9];
                    let mut np = 0;
                    for &x in &UNIT_CELLS[k1 + i1] {
                        let x = x as usize;
                        if self.removed(x, d) && r2 & bit(x) == 0 {
                            parents[np] = key(x, d, false) as u16;
                            np += 1;
                        }
                    }
                    self.add(&mut entries[..n], &parents[..np]);
                }
            }
        }
    }

    fn hidden_pairs(&mut self) {
        let g = self.g;
        for &u in &BOX_COL_ROW {
            if g.empty_in(u) <= 4 {
                continue;
            }
            let mask = UNIT_MASK[u];
            // A hidden pair is two digits with the same two places: without one, the
            // unit's 36 pairs of digits need not be tried.
            if !hidden_pair_possible(g, mask) {
                continue;
            }
            for set in combinations(2, 9) {
                let mut common = 0u128;
                let mut ok = true;
                for d in digits_of(set as u16) {
                    let p = g.digit[d] & mask;
                    if !p.many() {
                        ok = false;
                        break;
                    }
                    common |= p;
                }
                if !ok || !common.two() {
                    continue;
                }
                let mut entries = [(0u8, 0u16); 2];
                let mut n = 0;
                for x in cells_of(common) {
                    let m = g.cell[x] & !(set as u16);
                    if m != 0 {
                        entries[n] = (x as u8, m);
                        n += 1;
                    }
                }
                let mut parents = [0u16; 18];
                let mut np = 0;
                for &x in &UNIT_CELLS[u] {
                    let x = x as usize;
                    if common & bit(x) == 0 {
                        for d in digits_of(set as u16) {
                            if self.base.has(x, d) {
                                parents[np] = key(x, d, false) as u16;
                                np += 1;
                            }
                        }
                    }
                }
                self.add(&mut entries[..n], &parents[..np]);
            }
        }
    }

    fn naked_pairs(&mut self) {
        let g = self.g;
        for &u in &BOX_COL_ROW {
            if g.empty_in(u) < 4 {
                continue;
            }
            let cells = &UNIT_CELLS[u];
            // A naked pair is two cells with the same two candidates: without one, the
            // unit's 36 pairs of cells need not be tried.
            if !naked_pair_possible(g, cells) {
                continue;
            }
            for set in combinations(2, 9) {
                let mut digits = 0u16;
                let mut chosen = [0usize; 2];
                let mut ok = true;
                for (i, k) in digits_of(set as u16).enumerate() {
                    let x = cells[k] as usize;
                    if !g.cell[x].many() {
                        ok = false;
                        break;
                    }
                    digits |= g.cell[x];
                    chosen[i] = x;
                }
                if !ok || !digits.two() {
                    continue;
                }
                let mut entries = [(0u8, 0u16); 9];
                let mut n = 0;
                for &x in cells {
                    let x = x as usize;
                    if x != chosen[0] && x != chosen[1] {
                        let m = g.cell[x] & digits;
                        if m != 0 {
                            entries[n] = (x as u8, m);
                            n += 1;
                        }
                    }
                }
                let mut parents = [0u16; 18];
                let mut np = 0;
                for &x in &chosen {
                    for d in digits_of(self.base.cell[x] & !digits) {
                        parents[np] = key(x, d, false) as u16;
                        np += 1;
                    }
                }
                self.add(&mut entries[..n], &parents[..np]);
            }
        }
    }

    fn x_wings(&mut self) {
        let g = self.g;
        let mut placed = [0u32; 9];
        for &v in &g.value {
            if v != 0 {
                placed[v as usize - 1] += 1;
            }
        }
        // An X-Wing is two lines where a digit has the same two places: without one, the
        // table of places and the pairs of lines need not be worked out.
        if !x_wing_possible(g, &placed) {
            return;
        }
        // Each line's places of each digit, as positions in the line, worked out once.
        let mut lines = [[[0u16; 9]; 9]; 2];
        for (t, kind) in [COL0, ROW0].into_iter().enumerate() {
            for (d, places) in lines[t].iter_mut().enumerate() {
                for (i, pat) in places.iter_mut().enumerate() {
                    for (k, &x) in UNIT_CELLS[kind + i].iter().enumerate() {
                        *pat |= ((g.digit[d] >> x & 1) as u16) << k;
                    }
                }
            }
        }
        for (t, (base_kind, cover_kind)) in [(COL0, ROW0), (ROW0, COL0)].into_iter().enumerate() {
            for set in combinations(2, 9) {
                for d in 0..9 {
                    if placed[d] + 4 > 9 {
                        continue;
                    }
                    let mut union = 0u16;
                    let mut ok = true;
                    for i in digits_of(set as u16) {
                        let pat = lines[t][d][i];
                        if !pat.many() {
                            ok = false;
                            break;
                        }
                        union |= pat;
                    }
                    if !ok || !union.two() {
                        continue;
                    }
                    let mut base_cells = 0u128;
                    for i in digits_of(set as u16) {
                        base_cells |= UNIT_MASK[base_kind + i];
                    }
                    let mut cover_cells = 0u128;
                    let mut entries = [(0u8, 0u16); 14];
                    let mut n = 0;
                    for i in digits_of(union) {
                        cover_cells |= UNIT_MASK[cover_kind + i];
                        for &x in &UNIT_CELLS[cover_kind + i] {
                            let x = x as usize;
                            if base_cells & bit(x) == 0 && g.has(x, d) {
                                entries[n] = (x as u8, 1 << d);
                                n += 1;
                            }
                        }
                    }
                    if n == 0 {
                        continue;
                    }
                    let mut parents = [0u16; 18];
                    let mut np = 0;
                    for i in digits_of(set as u16) {
                        for &x in &UNIT_CELLS[base_kind + i] {
                            let x = x as usize;
                            if self.removed(x, d) && cover_cells & bit(x) == 0 {
                                parents[np] = key(x, d, false) as u16;
                                np += 1;
                            }
                        }
                    }
                    self.add(&mut entries[..n], &parents[..np]);
                }
            }
        }
    }
}

/// True when two digits have the same two places in the unit `mask` (a hidden pair's
/// pattern, whatever else it removes).
fn hidden_pair_possible(g: &Board, mask: u128) -> bool {
    let mut twos = [0u128; 9];
    let mut n = 0;
    for d in 0..9 {
        let p = g.digit[d] & mask;
        if p.two() {
            if twos[..n].contains(&p) {
                return true;
            }
            twos[n] = p;
            n += 1;
        }
    }
    false
}

/// True when two of `cells` have the same two candidates (a naked pair's pattern).
fn naked_pair_possible(g: &Board, cells: &[u8; 9]) -> bool {
    let mut seen = 0u64;
    let mut twos = [0u16; 9];
    let mut n = 0;
    for &x in cells {
        let m = g.cell[x as usize];
        if m.two() {
            // Most sets of two candidates are told apart by a bit of 64 (a hash of the pair).
            let h = 1u64 << (m.wrapping_mul(0x9e37) >> 10 & 63);
            if seen & h != 0 && twos[..n].contains(&m) {
                return true;
            }
            seen |= h;
            twos[n] = m;
            n += 1;
        }
    }
    false
}

/// True when some digit placed at most five times has the same two places in two rows or
/// in two columns (an X-Wing's pattern).
fn x_wing_possible(g: &Board, placed: &[u32; 9]) -> bool {
    for d in 0..9 {
        if placed[d] + 4 > 9 {
            continue;
        }
        for kind in [ROW0, COL0] {
            let mut twos = [0u128; 9];
            let mut n = 0;
            for i in 0..9 {
                let p = g.digit[d] & UNIT_MASK[kind + i];
                if p.two() {
                    // The two places as positions across the line: rows shifted onto row 0,
                    // columns onto column 0.
                    let pos = if kind == ROW0 { p >> (9 * i) } else { p >> i };
                    if twos[..n].contains(&pos) {
                        return true;
                    }
                    twos[n] = pos;
                    n += 1;
                }
            }
        }
    }
    false
}

#[cfg(test)]
#[path = "plus_tests.rs"]
mod tests;
