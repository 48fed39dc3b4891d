//! Forcing chains that follow every consequence of an assumption: Nishio (7.5), multiple
//! (cell and region, 8.0), dynamic (8.5) and dynamic "plus" (9.0) chains.
//!
//! One search ("chaining") starts from a potential and adds its consequences, "on"
//! potentials first, each one once, until nothing follows or a potential turns up both on
//! and off. A dynamic search also removes every "off" candidate from its own copy of the
//! grid as it goes, so that later singles may rest on several earlier removals (the
//! potential's extra parents). The "plus" level, when a search stalls, asks pointing,
//! claiming, hidden and naked pairs and X-Wings for more removals on that copy.
//!
//! From these searches come the hints: a contradiction (the assumption is false), a double
//! chain (both states of a candidate force the same potential), and cell or region chains
//! (every candidate of a cell, or every place of a digit in a unit, forces the same
//! potential). A hint's complexity is the number of distinct potentials its chains rest on.

use super::super::board::{
    Board, CELL_UNITS, COL0, ROW0, UNIT_CELLS, UNIT_MASK, bit, cells_of, digits_of,
};
use super::super::singles::{BOX_COL_ROW, INTERSECTION_KINDS, combinations};
use super::super::technique::{Hint, Technique};
use super::nested::{Cause, Fingerprint, NestedHint, cause_on, rule_parents, sort_and_dedup};
use super::unary::{Best, Unary, on_to_off};
use super::{KEYS, SortKey, cell_of, conjugate, digit_of, is_on, key};
use crate::logic::{Budget, GradeError};
use std::collections::HashMap;

/// Which chains to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Contradictions on X links only, dynamic (7.5).
    Nishio,
    /// Cell and region chains on a fixed grid (8.0).
    Multiple,
    /// All dynamic chains (8.5), at a nesting level: 0 plain, 1 "plus" (9.0).
    Dynamic(u8),
}

impl Kind {
    fn base(self) -> f64 {
        match self {
            Kind::Nishio => 7.5,
            Kind::Multiple => 8.0,
            Kind::Dynamic(0) => 8.5,
            Kind::Dynamic(l) => 8.5 + 0.5 * l as f64,
        }
    }
    fn dynamic(self) -> bool {
        !matches!(self, Kind::Multiple)
    }
    fn level(self) -> u8 {
        match self {
            Kind::Dynamic(l) => l,
            _ => 0,
        }
    }
}

/// The outcome of one search: the potentials reached, each with the potentials it rests on.
struct Slot {
    epoch: u32,
    stamp: Vec<u32>,
    pstart: Vec<u32>,
    plen: Vec<u16>,
    pool: Vec<u16>,
    on_list: Vec<u16>,
    off_list: Vec<u16>,
    /// A contradiction: the potential found with its opposite, which is not added to the
    /// set, with its parents (in `pool`).
    clash: Option<(u16, u32, u16)>,
    /// And the stored opposite's key.
    clash_with: u16,
    /// Per key: the nested chain it came from (an index in `nested`), or `NO_NEST`.
    nest: Vec<u16>,
    /// The nested chains used: (fingerprint, complexity).
    nested: Vec<(u64, u32)>,
}

/// No nested chain.
const NO_NEST: u16 = u16::MAX;

impl Slot {
    fn new() -> Slot {
        Slot {
            epoch: 0,
            stamp: vec![0; KEYS],
            pstart: vec![0; KEYS],
            plen: vec![0; KEYS],
            pool: Vec::new(),
            on_list: Vec::new(),
            off_list: Vec::new(),
            clash: None,
            clash_with: 0,
            nest: vec![NO_NEST; KEYS],
            nested: Vec::new(),
        }
    }

    fn reset(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        self.pool.clear();
        self.on_list.clear();
        self.off_list.clear();
        self.clash = None;
        self.nested.clear();
    }

    #[inline(always)]
    fn has(&self, k: usize) -> bool {
        self.stamp[k] == self.epoch
    }

    #[inline]
    fn insert(&mut self, k: usize, parents: &[u16]) {
        self.nest[k] = NO_NEST;
        self.stamp[k] = self.epoch;
        self.pstart[k] = self.pool.len() as u32;
        self.plen[k] = parents.len() as u16;
        self.pool.extend_from_slice(parents);
        if is_on(k) {
            self.on_list.push(k as u16);
        } else {
            self.off_list.push(k as u16);
        }
    }

    #[inline]
    fn parents(&self, k: usize) -> &[u16] {
        let s = self.pstart[k] as usize;
        &self.pool[s..s + self.plen[k] as usize]
    }
}

/// Scratch memory of the multiple-chain searches, kept between calls.
pub(crate) struct Multiple {
    slots: Vec<Slot>,
    queue_on: Vec<u16>,
    queue_off: Vec<u16>,
    parents: Vec<u16>,
    visit: Vec<u32>,
    visit_gen: u32,
    stack: Vec<u16>,
    advanced: Vec<(u16, u32, u16)>,
    advanced_pool: Vec<u16>,
    /// Per entry of `advanced`: the nested chain (index in `advanced_nested`) or `NO_NEST`.
    advanced_nest: Vec<u16>,
    advanced_nested: Vec<(u64, u32)>,
    /// Searches for chains nested at levels 2 and 3, made when first needed.
    unary: Option<Box<Unary>>,
    inner: Option<Box<Multiple>>,
    nested_hints: Vec<NestedHint>,
    /// Nested chains counted so far for the hint being measured: (fingerprint, complexity).
    nest_seen: Vec<(u64, u32)>,
    /// Searches run since the budget was last looked at.
    since_check: u32,
    /// Set when the budget ran out inside a search: its results are to be dropped.
    aborted: bool,
    /// Chains on a fixed grid do not depend on who asks: within one search for multiple
    /// chains, each source's chain is made once, in a slot of its own (index by source key,
    /// valid while the stamp is the current one).
    cached: Vec<(u32, u16)>,
    cache_stamp: u32,
    next_slot: usize,
    /// The nested chains' removals found on each stalled grid during one search: different
    /// assumptions often stall on the same grid, and what the nested chains find there
    /// depends only on it (and on the step's grid, fixed during the search).
    nested_cache: HashMap<[u128; 9], NestedRemovals>,
}

/// The removals nested chains make on one grid, as `advanced_potentials` leaves them.
#[derive(Clone, Default)]
struct NestedRemovals {
    list: Vec<(u16, u32, u16)>,
    pool: Vec<u16>,
    nest: Vec<u16>,
    nested: Vec<(u64, u32)>,
}

/// Grids kept in the nested cache at most, so that memory stays bounded on long searches.
const NESTED_CACHE_MAX: usize = 4096;

/// Slots: one per value of the cell being searched, one for the "off" assumption, and the
/// rest for the other places of a digit in a unit.
const OFF_SLOT: usize = 9;
const REGION_SLOT: usize = 10;
const SLOTS: usize = 19;

impl Default for Multiple {
    fn default() -> Self {
        Multiple {
            slots: (0..SLOTS).map(|_| Slot::new()).collect(),
            queue_on: Vec::new(),
            queue_off: Vec::new(),
            parents: Vec::new(),
            visit: vec![0; KEYS],
            visit_gen: 0,
            stack: Vec::new(),
            advanced: Vec::new(),
            advanced_pool: Vec::new(),
            advanced_nest: Vec::new(),
            advanced_nested: Vec::new(),
            unary: None,
            inner: None,
            nested_hints: Vec::new(),
            nest_seen: Vec::new(),
            since_check: 0,
            aborted: false,
            cached: vec![(0, 0); KEYS],
            cache_stamp: 0,
            next_slot: SLOTS,
            nested_cache: HashMap::new(),
        }
    }
}

/// How many searches run between two looks at the budget (a search takes microseconds).
const CHECK_EVERY: u32 = 64;

impl Multiple {
    /// The best hint of the given kind of chains.
    pub fn find(
        &mut self,
        b: &Board,
        kind: Kind,
        budget: &Budget,
    ) -> Result<Option<Hint>, GradeError> {
        self.aborted = false;
        self.cache_stamp = self.cache_stamp.wrapping_add(1);
        if self.cache_stamp == 0 {
            self.cached.fill((0, 0));
            self.cache_stamp = 1;
        }
        self.next_slot = SLOTS;
        self.nested_cache.clear();
        let mut best = Best::none();
        for c in cells_of(b.empty) {
            let card = b.cell[c].count_ones();
            if card > 2 || (card > 1 && kind.dynamic()) {
                self.cell_hints(b, c, kind, &mut best, budget)?;
            }
        }
        if self.aborted {
            // A search cut short may have offered a hint it would not have found.
            return Err(GradeError::Aborted);
        }
        Ok(best.hint)
    }

    /// The slot holding the chain from `source`: for chains on a fixed grid, made once per
    /// search and kept; otherwise made now into `slot`.
    fn chain_in(
        &mut self,
        b: &Board,
        source: usize,
        slot: usize,
        kind: Kind,
        budget: &Budget,
    ) -> Result<usize, GradeError> {
        if kind.dynamic() {
            self.tick(budget)?;
            self.chain(b, slot, source, kind, budget);
            return Ok(slot);
        }
        let (stamp, s) = self.cached[source];
        if stamp == self.cache_stamp {
            return Ok(s as usize);
        }
        self.tick(budget)?;
        let s = self.next_slot;
        self.next_slot += 1;
        if self.slots.len() <= s {
            self.slots.push(Slot::new());
        }
        self.chain(b, s, source, kind, budget);
        self.cached[source] = (self.cache_stamp, s as u16);
        Ok(s)
    }

    fn tick(&mut self, budget: &Budget) -> Result<(), GradeError> {
        if self.aborted {
            return Err(GradeError::Aborted);
        }
        self.since_check += 1;
        if self.since_check >= CHECK_EVERY {
            self.since_check = 0;
            if budget.spent() {
                return Err(GradeError::Aborted);
            }
        }
        Ok(())
    }

    fn offer(&self, best: &mut Best, key: SortKey, make: impl FnOnce() -> Hint) {
        if best.beaten_by(&key) {
            let h = make();
            if h.is_worth() {
                best.key = key;
                best.hint = Some(h);
            }
        }
    }

    fn cell_hints(
        &mut self,
        b: &Board,
        c: usize,
        kind: Kind,
        best: &mut Best,
        budget: &Budget,
    ) -> Result<(), GradeError> {
        let card = b.cell[c].count_ones();
        let base = kind.base();
        let (t_contra, t_double, t_cell, t_region) = match kind {
            Kind::Nishio => (
                Technique::NishioForcingChain,
                Technique::NishioForcingChain,
                Technique::CellForcingChain,
                Technique::RegionForcingChain,
            ),
            Kind::Multiple => (
                Technique::CellForcingChain,
                Technique::CellForcingChain,
                Technique::CellForcingChain,
                Technique::RegionForcingChain,
            ),
            Kind::Dynamic(0) => (
                Technique::DynamicContradictionChain,
                Technique::DynamicDoubleChain,
                Technique::DynamicCellChain,
                Technique::DynamicRegionChain,
            ),
            Kind::Dynamic(1) => (
                Technique::DynamicForcingChainPlus,
                Technique::DynamicForcingChainPlus,
                Technique::DynamicForcingChainPlus,
                Technique::DynamicForcingChainPlus,
            ),
            Kind::Dynamic(_) => (
                Technique::NestedForcingChain,
                Technique::NestedForcingChain,
                Technique::NestedForcingChain,
                Technique::NestedForcingChain,
            ),
        };
        let nishio = kind == Kind::Nishio;
        let contradiction = kind.dynamic();
        let double = card >= 3 && !nishio && kind.dynamic();
        let values: Vec<usize> = digits_of(b.cell[c]).collect();
        let mut value_slots = [0usize; 9];
        for (index, &v) in values.iter().enumerate() {
            let p_on = key(c, v, true);
            let vi = self.chain_in(b, p_on, index, kind, budget)?;
            value_slots[index] = vi;
            if contradiction && self.slots[vi].clash.is_some() {
                let cx = self.clash_complexity(vi);
                let k = SortKey::new(base, cx, 7);
                self.offer(best, k, || {
                    let mut h = Hint::new(t_contra, k.diff);
                    h.elim[v] = bit(c);
                    h.cells = bit(c);
                    h
                });
            }
            if contradiction || double {
                self.tick(budget)?;
                self.chain(b, OFF_SLOT, conjugate(p_on), kind, budget);
                if contradiction && self.slots[OFF_SLOT].clash.is_some() {
                    let cx = self.clash_complexity(OFF_SLOT);
                    let k = SortKey::new(base, cx, 7);
                    self.offer(best, k, || place_hint(b, t_contra, k.diff, c, v));
                }
            }
            if double {
                for i in 0..self.slots[vi].on_list.len() {
                    let q = self.slots[vi].on_list[i] as usize;
                    if self.slots[OFF_SLOT].has(q) {
                        let cx = self.count(&[vi, OFF_SLOT], q);
                        let k = SortKey::new(base, cx, 1);
                        self.offer(best, k, || {
                            place_hint(b, t_double, k.diff, cell_of(q), digit_of(q))
                        });
                    }
                }
                for i in 0..self.slots[vi].off_list.len() {
                    let q = self.slots[vi].off_list[i] as usize;
                    if self.slots[OFF_SLOT].has(q) {
                        let cx = self.count(&[vi, OFF_SLOT], q);
                        let k = SortKey::new(base, cx, 1);
                        self.offer(best, k, || remove_hint(t_double, k.diff, q));
                    }
                }
            }
            if !nishio {
                self.region_hints(b, c, v, vi, kind, t_region, best, budget)?;
            }
        }
        let value_slots = &value_slots[..values.len()];
        // Sudoku Explainer asks for two candidates, or more with multiple chains on, which
        // every kind here but Nishio (which has no cell chains) has.
        if !nishio && card >= 2 {
            let first = value_slots[0];
            for on in [true, false] {
                let list_len = if on {
                    self.slots[first].on_list.len()
                } else {
                    self.slots[first].off_list.len()
                };
                for i in 0..list_len {
                    let q = if on {
                        self.slots[first].on_list[i]
                    } else {
                        self.slots[first].off_list[i]
                    } as usize;
                    if value_slots[1..].iter().all(|&s| self.slots[s].has(q)) {
                        let cx = self.count(value_slots, q);
                        let k = SortKey::new(base, cx, 5);
                        self.offer(best, k, || {
                            let mut h = if is_on(q) {
                                place_hint(b, t_cell, k.diff, cell_of(q), digit_of(q))
                            } else {
                                remove_hint(t_cell, k.diff, q)
                            };
                            h.cells |= bit(c);
                            h
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Region chains from the first place of digit `v` in each unit of cell `c`.
    #[allow(clippy::too_many_arguments)]
    fn region_hints(
        &mut self,
        b: &Board,
        c: usize,
        v: usize,
        vi: usize,
        kind: Kind,
        tech: Technique,
        best: &mut Best,
        budget: &Budget,
    ) -> Result<(), GradeError> {
        let base = kind.base();
        for &u in &CELL_UNITS[c] {
            let places = b.digit[v] & UNIT_MASK[u as usize];
            let card = places.count_ones();
            // Each unit is searched once, from its first place of the digit.
            if card < 2 || places.trailing_zeros() as usize != c {
                continue;
            }
            // Slot of each place: the cell's own search for the first, fresh ones for the rest.
            let mut slots = [0usize; 9];
            let mut n = 0;
            for x in cells_of(places) {
                slots[n] = if x == c {
                    vi
                } else {
                    self.chain_in(b, key(x, v, true), REGION_SLOT + n - 1, kind, budget)?
                };
                n += 1;
            }
            let slots = &slots[..n];
            for on in [true, false] {
                let list_len = if on {
                    self.slots[vi].on_list.len()
                } else {
                    self.slots[vi].off_list.len()
                };
                for i in 0..list_len {
                    let q = if on {
                        self.slots[vi].on_list[i]
                    } else {
                        self.slots[vi].off_list[i]
                    } as usize;
                    if slots[1..].iter().all(|&s| self.slots[s].has(q)) {
                        let cx = self.count(slots, q);
                        let k = SortKey::new(base, cx, 6);
                        self.offer(best, k, || {
                            let mut h = if is_on(q) {
                                place_hint(b, tech, k.diff, cell_of(q), digit_of(q))
                            } else {
                                remove_hint(tech, k.diff, q)
                            };
                            h.cells |= places;
                            h
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// The complexity of a hint whose chains end at `k` in each of `slots`: the distinct
    /// potentials each chain rests on, summed, plus the complexity of every distinct nested
    /// chain they use.
    fn count(&mut self, slots: &[usize], k: usize) -> u32 {
        self.nest_seen.clear();
        let mut total = 0;
        for &s in slots {
            total += self.count_from(s, k as u16, &[]);
        }
        total + self.nest_seen.iter().map(|n| n.1).sum::<u32>()
    }

    /// Both sides of slot `s`'s contradiction.
    fn clash_complexity(&mut self, s: usize) -> u32 {
        self.nest_seen.clear();
        let (k, start, len) = self.slots[s].clash.unwrap();
        let with = self.slots[s].clash_with;
        let parents: Vec<u16> =
            self.slots[s].pool[start as usize..start as usize + len as usize].to_vec();
        let a = self.count_from(s, k, &parents);
        let b = self.count_from(s, with, &[]);
        a + b + self.nest_seen.iter().map(|n| n.1).sum::<u32>()
    }

    /// Distinct potentials reached from `k` through the parents: those of `extra` when given
    /// (a potential not stored in the slot), else `k`'s own. Nested chains met on the way
    /// are added to `nest_seen`.
    fn count_from(&mut self, s: usize, k: u16, extra: &[u16]) -> u32 {
        self.visit_gen = self.visit_gen.wrapping_add(1);
        if self.visit_gen == 0 {
            self.visit.fill(0);
            self.visit_gen = 1;
        }
        let g = self.visit_gen;
        let slot = &self.slots[s];
        self.stack.clear();
        let mut count = 1;
        self.visit[k as usize] = g;
        if extra.is_empty() {
            self.stack.extend_from_slice(slot.parents(k as usize));
            note_nest(slot, k as usize, &mut self.nest_seen);
        } else {
            self.stack.extend_from_slice(extra);
        }
        while let Some(p) = self.stack.pop() {
            let p = p as usize;
            if self.visit[p] == g {
                continue;
            }
            self.visit[p] = g;
            count += 1;
            self.stack.extend_from_slice(slot.parents(p));
            note_nest(slot, p, &mut self.nest_seen);
        }
        count
    }

    /// One search from `start` into slot `s`, stopping at the first contradiction.
    fn chain(&mut self, base: &Board, s: usize, start: usize, kind: Kind, budget: &Budget) {
        let y = kind != Kind::Nishio;
        let dynamic = kind.dynamic();
        let level = kind.level();
        let mut g = *base;
        self.slots[s].reset();
        self.slots[s].insert(start, &[]);
        self.queue_on.clear();
        self.queue_off.clear();
        let (mut ho, mut hf) = (0usize, 0usize);
        if is_on(start) {
            self.queue_on.push(start as u16);
        } else {
            self.queue_off.push(start as u16);
        }
        let mut buf = [0u16; 32];
        loop {
            if ho < self.queue_on.len() {
                let p = self.queue_on[ho] as usize;
                ho += 1;
                let n = on_to_off(&g, p, y, &mut buf);
                for &q in &buf[..n] {
                    let q = q as usize;
                    let slot = &mut self.slots[s];
                    if slot.has(conjugate(q)) {
                        let start = slot.pool.len() as u32;
                        slot.pool.push(p as u16);
                        slot.clash = Some((q as u16, start, 1));
                        slot.clash_with = conjugate(q) as u16;
                        return;
                    } else if !slot.has(q) {
                        slot.insert(q, &[p as u16]);
                        self.queue_off.push(q as u16);
                    }
                }
                continue;
            }
            if hf < self.queue_off.len() {
                let p = self.queue_off[hf] as usize;
                hf += 1;
                if self.off_to_on_dynamic(base, &g, s, p, y) {
                    return;
                }
                if dynamic {
                    g.remove(cell_of(p), digit_of(p));
                }
                continue;
            }
            if level > 0 {
                self.advanced_potentials(base, &g, s, level, budget);
                if self.aborted {
                    return;
                }
                let mut added = false;
                for i in 0..self.advanced.len() {
                    let (q, start, len) = self.advanced[i];
                    let slot = &mut self.slots[s];
                    if !slot.has(q as usize) {
                        let parents =
                            &self.advanced_pool[start as usize..(start + len as u32) as usize];
                        slot.insert(q as usize, parents);
                        let n = self.advanced_nest[i];
                        if n != NO_NEST {
                            let idx = slot.nested.len() as u16;
                            slot.nested.push(self.advanced_nested[n as usize]);
                            slot.nest[q as usize] = idx;
                        }
                        self.queue_off.push(q);
                        added = true;
                    }
                }
                if added {
                    continue;
                }
            }
            return;
        }
    }

    /// The "on" consequences of the "off" potential `p` on the search's grid `g`, with the
    /// earlier removals they rest on; true when one of them contradicts the slot.
    fn off_to_on_dynamic(&mut self, base: &Board, g: &Board, s: usize, p: usize, y: bool) -> bool {
        let (c, d) = (cell_of(p), digit_of(p));
        let mut found = [(0u16, 0u32, 0u16); 4];
        let mut n = 0;
        self.parents.clear();
        if y && g.cell[c].count_ones() == 2 {
            let other = (g.cell[c] & !(1 << d)).trailing_zeros() as usize;
            let start = self.parents.len() as u32;
            self.parents.push(p as u16);
            for e in digits_of(base.cell[c] & !g.cell[c]) {
                self.parents.push(key(c, e, false) as u16);
            }
            found[n] = (
                key(c, other, true) as u16,
                start,
                (self.parents.len() as u32 - start) as u16,
            );
            n += 1;
        }
        for &u in &CELL_UNITS[c] {
            let mask = UNIT_MASK[u as usize];
            let rest = g.digit[d] & mask & !bit(c);
            if rest.count_ones() != 1 {
                continue;
            }
            let k = key(rest.trailing_zeros() as usize, d, true) as u16;
            if found[..n].iter().any(|f| f.0 == k) {
                continue;
            }
            let start = self.parents.len() as u32;
            self.parents.push(p as u16);
            for x in cells_of(base.digit[d] & mask & !g.digit[d]) {
                self.parents.push(key(x, d, false) as u16);
            }
            found[n] = (k, start, (self.parents.len() as u32 - start) as u16);
            n += 1;
        }
        for &(k, start, len) in &found[..n] {
            let k = k as usize;
            let parents = &self.parents[start as usize..(start + len as u32) as usize];
            let slot = &mut self.slots[s];
            if slot.has(conjugate(k)) {
                let pstart = slot.pool.len() as u32;
                slot.pool.extend_from_slice(parents);
                slot.clash = Some((k as u16, pstart, len));
                slot.clash_with = conjugate(k) as u16;
                return true;
            } else if !slot.has(k) {
                slot.insert(k, parents);
                self.queue_on.push(k as u16);
            }
        }
        false
    }

    /// The removals that pointing, claiming, hidden and naked pairs, or X-Wings (the first of
    /// these that finds any) make on the search's grid, each resting on the candidates the
    /// search removed that the rule needed gone.
    fn advanced_potentials(
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
        // chains too. All of a rule's hints count, each resting on what it needed removed.
        if let Some(kept) = self.nested_cache.get(&g.digit) {
            self.advanced.clone_from(&kept.list);
            self.advanced_pool.clone_from(&kept.pool);
            self.advanced_nest.clone_from(&kept.nest);
            self.advanced_nested.clone_from(&kept.nested);
            return;
        }
        let mut hints = std::mem::take(&mut self.nested_hints);
        if level >= 2 {
            let unary = self.unary.get_or_insert_with(Default::default);
            if !unary.collect(base, g, &mut hints, budget) {
                self.aborted = true;
            }
            self.add_nested(&hints);
        }
        if level >= 3 && self.advanced.is_empty() && !self.aborted {
            let inner = self.inner.get_or_insert_with(Default::default);
            if !inner.collect_static(base, g, &mut hints, budget) {
                self.aborted = true;
            }
            self.add_nested(&hints);
        }
        self.nested_hints = hints;
        if !self.aborted && self.nested_cache.len() < NESTED_CACHE_MAX {
            self.nested_cache.insert(
                g.digit,
                NestedRemovals {
                    list: self.advanced.clone(),
                    pool: self.advanced_pool.clone(),
                    nest: self.advanced_nest.clone(),
                    nested: self.advanced_nested.clone(),
                },
            );
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

fn place_hint(b: &Board, tech: Technique, diff: f64, c: usize, d: usize) -> Hint {
    let mut h = Hint::new(tech, diff);
    for e in digits_of(b.cell[c] & !(1 << d)) {
        h.elim[e] = bit(c);
    }
    h.place = Some((c as u8, d as u8));
    h.cells = bit(c);
    h
}

fn remove_hint(tech: Technique, diff: f64, q: usize) -> Hint {
    let mut h = Hint::new(tech, diff);
    h.elim[digit_of(q)] = bit(cell_of(q));
    h.cells = bit(cell_of(q));
    h
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
        for (k1, k2) in INTERSECTION_KINDS {
            for d in 0..9 {
                for i1 in 0..9 {
                    let r1 = UNIT_MASK[k1 + i1];
                    let p1 = g.digit[d] & r1;
                    if p1.count_ones() < 2 {
                        continue;
                    }
                    for i2 in 0..9 {
                        let r2 = UNIT_MASK[k2 + i2];
                        if r1 & r2 == 0 || p1 & !r2 != 0 {
                            continue;
                        }
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
    }

    fn hidden_pairs(&mut self) {
        let g = self.g;
        for &u in &BOX_COL_ROW {
            if g.empty_in(u) <= 4 {
                continue;
            }
            let mask = UNIT_MASK[u];
            for set in combinations(2, 9) {
                let mut common = 0u128;
                let mut ok = true;
                for d in digits_of(set as u16) {
                    let p = g.digit[d] & mask;
                    if p.count_ones() <= 1 {
                        ok = false;
                        break;
                    }
                    common |= p;
                }
                if !ok || common.count_ones() != 2 {
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
            for set in combinations(2, 9) {
                let mut digits = 0u16;
                let mut chosen = [0usize; 2];
                let mut ok = true;
                for (i, k) in digits_of(set as u16).enumerate() {
                    let x = cells[k] as usize;
                    if g.cell[x].count_ones() <= 1 {
                        ok = false;
                        break;
                    }
                    digits |= g.cell[x];
                    chosen[i] = x;
                }
                if !ok || digits.count_ones() != 2 {
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
        for (base_kind, cover_kind) in [(COL0, ROW0), (ROW0, COL0)] {
            for set in combinations(2, 9) {
                for d in 0..9 {
                    if placed[d] + 4 > 9 {
                        continue;
                    }
                    let mut union = 0u16;
                    let mut ok = true;
                    for i in digits_of(set as u16) {
                        let mut pat = 0u16;
                        for (k, &x) in UNIT_CELLS[base_kind + i].iter().enumerate() {
                            pat |= ((g.digit[d] >> x & 1) as u16) << k;
                        }
                        if pat.count_ones() <= 1 {
                            ok = false;
                            break;
                        }
                        union |= pat;
                    }
                    if !ok || union.count_ones() != 2 {
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

impl Multiple {
    /// Every cell and region forcing chain on the fixed grid `g` (Sudoku Explainer's
    /// multiple forcing chains, 8.0), as nested hints for a dynamic search whose grid
    /// started as `base`, sorted and deduplicated.
    /// False when the budget ran out (`out` is then incomplete).
    pub fn collect_static(
        &mut self,
        base: &Board,
        g: &Board,
        out: &mut Vec<NestedHint>,
        budget: &Budget,
    ) -> bool {
        out.clear();
        for c in cells_of(g.empty) {
            if g.cell[c].count_ones() <= 2 {
                continue;
            }
            if budget.spent() {
                return false;
            }
            let values: Vec<usize> = digits_of(g.cell[c]).collect();
            for (vi, &v) in values.iter().enumerate() {
                self.chain(g, vi, key(c, v, true), Kind::Multiple, budget);
                for &u in &CELL_UNITS[c] {
                    let places = g.digit[v] & UNIT_MASK[u as usize];
                    if places.count_ones() < 2 || places.trailing_zeros() as usize != c {
                        continue;
                    }
                    let mut slots = [0usize; 9];
                    let mut n = 0;
                    for x in cells_of(places) {
                        if x == c {
                            slots[n] = vi;
                        } else {
                            let s = REGION_SLOT + n - 1;
                            self.chain(g, s, key(x, v, true), Kind::Multiple, budget);
                            slots[n] = s;
                        }
                        n += 1;
                    }
                    let kind = CELL_UNITS[c].iter().position(|&w| w == u).unwrap() as u8;
                    self.collect_common(base, g, &slots[..n], Cause::Unit(kind), 6, out);
                }
            }
            let slots: Vec<usize> = (0..values.len()).collect();
            self.collect_common(base, g, &slots, Cause::Cell, 5, out);
        }
        sort_and_dedup(out);
        true
    }

    /// The potentials every slot of `slots` reached (on ones first, in the first slot's
    /// order), each as a nested hint.
    fn collect_common(
        &mut self,
        base: &Board,
        g: &Board,
        slots: &[usize],
        root: Cause,
        rank: u8,
        out: &mut Vec<NestedHint>,
    ) {
        let first = slots[0];
        for on in [true, false] {
            let len = if on {
                self.slots[first].on_list.len()
            } else {
                self.slots[first].off_list.len()
            };
            for i in 0..len {
                let q = if on {
                    self.slots[first].on_list[i]
                } else {
                    self.slots[first].off_list[i]
                } as usize;
                if !slots[1..].iter().all(|&s| self.slots[s].has(q)) {
                    continue;
                }
                let (c, d) = (cell_of(q), digit_of(q));
                let mask = if on { g.cell[c] & !(1 << d) } else { 1 << d };
                if mask == 0 {
                    continue;
                }
                let mut parents = Vec::new();
                let mut fp = Fingerprint::default();
                let mut complexity = 0;
                for &s in slots {
                    let mut k = q;
                    loop {
                        complexity += 1;
                        fp.add(k);
                        let ps = self.slots[s].parents(k);
                        if ps.is_empty() {
                            if is_on(k) {
                                rule_parents(base, g, k, root, &mut parents);
                            }
                            break;
                        }
                        let p = ps[0] as usize;
                        if is_on(k) {
                            rule_parents(base, g, k, cause_on(g, p, k), &mut parents);
                        }
                        k = p;
                    }
                    fp.end_target();
                }
                out.push(NestedHint {
                    key: SortKey::new(8.0, complexity, rank),
                    entries: vec![(c as u8, mask)],
                    parents,
                    complexity,
                    fingerprint: fp.value(),
                });
            }
        }
    }
}

/// Adds the nested chain of key `k` in `slot`, if any, to `seen` (once per fingerprint).
fn note_nest(slot: &Slot, k: usize, seen: &mut Vec<(u64, u32)>) {
    let n = slot.nest[k];
    if n != NO_NEST {
        let nested = slot.nested[n as usize];
        if !seen.iter().any(|s| s.0 == nested.0) {
            seen.push(nested);
        }
    }
}
