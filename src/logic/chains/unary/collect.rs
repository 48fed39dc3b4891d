//! Unary chains as nested hints: every X-, Y- and XY-cycle and forcing chain on a
//! dynamic search's grid, in Sudoku Explainer's order, each with its removals, the
//! candidates it needed gone (its rule parents), complexity and fingerprint.

use super::super::super::board::{Board, PEERS, bit, cells_of, digits_of};
use super::super::nested::{
    Fingerprint, NestedHint, cause_off, cause_on, hashmap_order, rule_parents, sort_and_dedup,
};
use super::super::{SortKey, cell_of, conjugate, digit_of, is_on, key};
use super::{NONE, Unary, on_to_off};
use crate::logic::Budget;
use crate::logic::bits::count16;

impl Unary {
    /// Every cycle and forcing chain on grid `g`, as nested hints for a dynamic search whose
    /// grid started as `base`, in Sudoku Explainer's order (passes X, Y, XY; cells; digits;
    /// a source's cycles, then its chains from "on" and from "off"), sorted and deduplicated.
    /// The X pass takes each digit's chains as `x_collect` keeps them. False when the budget
    /// ran out (`out` is then incomplete).
    pub fn collect(
        &mut self,
        base: &Board,
        g: &Board,
        out: &mut Vec<NestedHint>,
        budget: &Budget,
    ) -> bool {
        out.clear();
        if !self.collect_x(base, g, out, budget) {
            return false;
        }
        #[cfg(test)]
        self.check_x(base, g, out);
        for (y, x) in [(true, false), (true, true)] {
            self.links.start();
            // Most sources close no cycle and reach no contradiction: the reachability of
            // the whole grid's links says which, far sooner than the searches that record
            // parents or keep paths.
            self.reach.build(g, y, x, 0x1ff);
            let (rank, _, _) = Self::kind(y, x);
            for c in cells_of(g.empty) {
                let n = count16(g.cell[c]);
                if n < 2 || (!x && n > 2) {
                    continue;
                }
                if budget.spent() {
                    return false;
                }
                for d in digits_of(g.cell[c]) {
                    let source = key(c, d, true);
                    // Only a cycle that removes a candidate is a hint.
                    if self.reach.may_remove(source) {
                        self.collect_cycles(base, g, source, y, x, rank, out);
                    }
                    #[cfg(test)]
                    if !self.reach.may_remove(source) && self.reach.may_cycle(source) {
                        let mut none = Vec::new();
                        self.collect_cycles(base, g, source, y, x, rank, &mut none);
                        assert!(none.is_empty());
                    }
                    if x {
                        for s in [source, conjugate(source)] {
                            if self.reach.reaches_conjugate(s)
                                && let Some(h) = self.collect_forcing(base, g, s, y, rank)
                            {
                                out.push(h);
                            }
                        }
                    }
                }
            }
        }
        sort_and_dedup(out);
        true
    }

    /// Under test, the X pass's hints kept digit by digit are those the pass over all
    /// digits at once finds on `g`, searching the cycles of every source that may close one
    /// (also those that `reach` says remove nothing).
    #[cfg(test)]
    fn check_x(&mut self, base: &Board, g: &Board, kept: &[NestedHint]) {
        let mut fresh = Vec::new();
        self.links.start();
        self.reach.build(g, false, true, 0x1ff);
        let (rank, _, _) = Self::kind(false, true);
        for c in cells_of(g.empty) {
            if count16(g.cell[c]) < 2 {
                continue;
            }
            for d in digits_of(g.cell[c]) {
                let source = key(c, d, true);
                if self.reach.may_cycle(source) {
                    self.collect_cycles(base, g, source, false, true, rank, &mut fresh);
                }
                for s in [source, conjugate(source)] {
                    if self.reach.reaches_conjugate(s)
                        && let Some(h) = self.collect_forcing(base, g, s, false, rank)
                    {
                        fresh.push(h);
                    }
                }
            }
        }
        let describe = |h: &NestedHint| {
            (
                h.key.diff.to_bits(),
                h.key.complexity,
                h.key.rank,
                h.entries.clone(),
                h.parents.clone(),
                h.complexity,
                h.fingerprint,
            )
        };
        let kept: Vec<_> = kept.iter().map(describe).collect();
        let fresh: Vec<_> = fresh.iter().map(describe).collect();
        assert_eq!(kept, fresh);
    }

    /// The forcing chain from `source` on `g`, if its conjugate follows.
    pub(super) fn collect_forcing(
        &mut self,
        base: &Board,
        g: &Board,
        source: usize,
        y: bool,
        rank: u8,
    ) -> Option<NestedHint> {
        let epoch = self.next_gen();
        self.stamp[source] = epoch;
        self.parent[source] = NONE;
        self.cur.clear();
        self.cur.push(source as u16);
        let target = conjugate(source);
        let mut buf = [0u16; 32];
        let mut buf4 = [0u16; 4];
        while !self.cur.is_empty() {
            self.next.clear();
            for i in 0..self.cur.len() {
                let p = self.cur[i] as usize;
                let n = if is_on(p) {
                    on_to_off(g, p, y, &mut buf)
                } else {
                    let n = self.links.get(g, p, y, true, &mut buf4);
                    buf[..n].copy_from_slice(&buf4[..n]);
                    n
                };
                for &q in &buf[..n] {
                    let q = q as usize;
                    if q == target {
                        self.parent[q] = p as u32;
                        return Some(self.forcing_hint(base, g, q, y, rank));
                    }
                    // A potential that does not lead to the target is never a parent of one
                    // that does: leaving it out changes nothing else.
                    if self.stamp[q] != epoch && self.reach.reaches(q, target) {
                        self.stamp[q] = epoch;
                        self.parent[q] = p as u32;
                        self.next.push(q as u16);
                    }
                }
            }
            std::mem::swap(&mut self.cur, &mut self.next);
        }
        None
    }

    fn forcing_hint(
        &self,
        base: &Board,
        g: &Board,
        target: usize,
        y: bool,
        rank: u8,
    ) -> NestedHint {
        let mut parents = Vec::new();
        let mut fp = Fingerprint::default();
        let mut complexity = 0;
        let mut k = target;
        loop {
            complexity += 1;
            fp.add(k);
            let p = self.parent[k];
            if p == NONE {
                break;
            }
            let p = p as usize;
            if is_on(k) {
                rule_parents(base, g, k, cause_on(g, p, k), &mut parents);
            }
            k = p;
        }
        fp.end_target();
        let (c, d) = (cell_of(target), digit_of(target));
        let mask = if is_on(target) {
            g.cell[c] & !(1 << d)
        } else {
            1 << d
        };
        NestedHint {
            key: SortKey::new(if y { 7.0 } else { 6.6 }, complexity, rank),
            entries: vec![(c as u8, mask)],
            parents,
            complexity,
            fingerprint: fp.value(),
        }
    }

    /// Every cycle through `source` on `g`, in the order the cycle search closes them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn collect_cycles(
        &mut self,
        base: &Board,
        g: &Board,
        source: usize,
        y: bool,
        x: bool,
        rank: u8,
        out: &mut Vec<NestedHint>,
    ) {
        let epoch = self.next_gen();
        self.stamp[source] = epoch;
        self.parent[source] = NONE;
        self.objs.clear();
        self.marks.clear();
        self.cur.clear();
        self.cur.push(source as u16);
        let mut buf = [0u16; 32];
        let mut buf4 = [0u16; 4];
        let mut iteration = 0u32;
        while !self.cur.is_empty() {
            iteration += 1;
            let first = self.objs.len();
            for i in 0..self.cur.len() {
                let p = self.cur[i] as usize;
                let n = on_to_off(g, p, y, &mut buf);
                let path = self.path_marks(p);
                for &q in &buf[..n] {
                    // Only the source's component leads back to it, and only through itself.
                    if self.reach.linked(q as usize, source) {
                        self.offer(p, q, path);
                    }
                }
            }
            self.next.clear();
            for oi in first..self.objs.len() {
                let q = self.objs[oi].0 as usize;
                let n = self.links.get(g, q, y, x, &mut buf4);
                for &r in &buf4[..n] {
                    let r = r as usize;
                    if iteration >= 2
                        && r == source
                        && let Some(h) = self.cycle_nested(base, g, oi, source, y, x, rank)
                    {
                        out.push(h);
                    }
                    if self.stamp[r] != epoch && self.reach.linked(r, source) {
                        self.stamp[r] = epoch;
                        self.parent[r] = oi as u32;
                        self.next.push(r as u16);
                    }
                }
            }
            std::mem::swap(&mut self.cur, &mut self.next);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn cycle_nested(
        &mut self,
        base: &Board,
        g: &Board,
        oi: usize,
        source: usize,
        y: bool,
        x: bool,
        rank: u8,
    ) -> Option<NestedHint> {
        // The path from the closing "on" potential (the source again) back to the source,
        // each node with its parent: (key, parent key).
        let mut path: Vec<(usize, usize)> = Vec::new();
        path.push((source, self.objs[oi].0 as usize));
        let mut o = oi;
        loop {
            let (ok, op) = self.objs[o];
            path.push((ok as usize, op as usize));
            let op = op as usize;
            let po = self.parent[op];
            if po == NONE {
                break;
            }
            path.push((op, self.objs[po as usize].0 as usize));
            o = po as usize;
        }
        let mut cells = 0u128;
        for &(k, _) in &path {
            cells |= bit(cell_of(k));
        }
        // The removals, in the order Sudoku Explainer collects them: candidates seen by an
        // "on" potential (in path order, peers in cell order) that an "off" one sees too.
        let mut back = [0u128; 9];
        for &(k, _) in &path {
            if !is_on(k) {
                let (c, d) = (cell_of(k), digit_of(k));
                back[d] |= PEERS[c] & !cells & g.digit[d];
            }
        }
        let mut entries: Vec<(u8, u16)> = Vec::new();
        let mut seen = [0u128; 9];
        for &(k, _) in &path {
            if is_on(k) {
                let (c, d) = (cell_of(k), digit_of(k));
                for z in cells_of(PEERS[c] & !cells & g.digit[d] & back[d] & !seen[d]) {
                    seen[d] |= bit(z);
                    match entries.iter_mut().find(|e| e.0 as usize == z) {
                        Some(e) => e.1 |= 1 << d,
                        None => entries.push((z as u8, 1 << d)),
                    }
                }
            }
        }
        if entries.is_empty() {
            return None;
        }
        hashmap_order(&mut entries);
        let mut parents = Vec::new();
        let mut fp = Fingerprint::default();
        for &(k, p) in &path {
            fp.add(k);
            // Forward chain: "on" potentials; reversed chain: the "off" ones, turned on.
            let cause = if is_on(k) {
                cause_on(g, p, k)
            } else {
                cause_off(p, k)
            };
            rule_parents(base, g, k, cause, &mut parents);
        }
        fp.end_target();
        for &(k, _) in path.iter().rev() {
            fp.add(conjugate(k));
        }
        fp.end_target();
        let complexity = path.len() as u32;
        let base_diff = if y && x { 7.0 } else { 6.5 };
        Some(NestedHint {
            key: SortKey::new(base_diff, complexity, rank),
            entries,
            parents,
            complexity,
            fingerprint: fp.value(),
        })
    }
}
