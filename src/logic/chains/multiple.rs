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
//!
//! This file owns the search itself and its scratch memory; `slot` holds one search's
//! outcome, `hints` turns searches into hints and measures their complexity, and `plus`
//! supplies the removals a stalled dynamic search asks for (the "plus" rules, then nested
//! chains).

mod closure;
mod collect;
mod hints;
mod plus;
mod slot;

use super::super::board::{Board, CELL_UNITS, UNIT_MASK, bit, cells_of, digits_of};
use super::super::technique::Hint;
use super::nested::NestedHint;
use super::unary::{Best, Unary, on_to_off};
use super::{KEYS, cell_of, conjugate, digit_of, key};
use crate::logic::bits::{Bits, count16};
use crate::logic::{Budget, GradeError};
use std::collections::HashMap;

use slot::{CAUSE_CELL, NO_NEST, Slot};

/// Which chains to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Contradictions on X links only, dynamic (7.5).
    Nishio,
    /// Cell and region chains on a fixed grid (8.0).
    Multiple,
    /// All dynamic chains (8.5), at a nesting level: 0 plain, 1 "plus" (9.0), 2 nesting
    /// forcing chains (9.5), 3 nesting multiple forcing chains (10.0), and 4 + n nesting
    /// dynamic chains of level n (10.5).
    Dynamic(u8),
}

impl Kind {
    fn base(self) -> f64 {
        match self {
            Kind::Nishio => 7.5,
            Kind::Multiple => 8.0,
            Kind::Dynamic(0) => 8.5,
            Kind::Dynamic(l) => 8.5 + 0.5 * l.min(4) as f64,
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

/// Scratch memory of the multiple-chain searches, kept between calls.
pub(crate) struct Multiple {
    slots: Vec<Slot>,
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
    /// A chain depends only on its source and the grid searched, not on who asks: within
    /// one search, each "on" source's chain is made once, in a slot of its own (index by
    /// source key, valid while the stamp is the current one).
    cached: Vec<(u32, u16)>,
    cache_stamp: u32,
    next_slot: usize,
    /// The nested chains' removals found on each stalled grid, by rule (see
    /// `advanced_potentials`), while the step's grid stays `cache_base`: different
    /// assumptions, and the searches of several levels, often stall on the same grid, and
    /// what a nested rule finds there depends only on it and on the step's grid.
    nested_cache: HashMap<([u128; 9], u8), NestedRemovals>,
    cache_base: Option<Box<Board>>,
    /// When set, the search is nested in an outer dynamic search whose grid started as this
    /// board: every hint found is kept in `collected` as a nested hint instead of the best.
    collect_base: Option<Box<Board>>,
    collected: Vec<NestedHint>,
    /// The best key of the hints in `collected` for each set of removals.
    collected_keys: super::nested::Dominance,
    /// Closures of the grid being searched, which tell the cells that yield no hint.
    closures: closure::Closures,
    /// The grid `places` counts are for, and per digit and unit the digit's places there:
    /// a dynamic search keeps its own copy as it removes candidates, so that the digit's
    /// last place in a unit is told by one count instead of a cell-set test.
    places_of: Option<Box<Board>>,
    places: Places,
}

/// Per digit and unit (0..27): the digit's places there.
type Places = [[u8; 27]; 9];

fn count_places(b: &Board) -> Places {
    std::array::from_fn(|d| std::array::from_fn(|u| (b.digit[d] & UNIT_MASK[u]).count_ones() as u8))
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
const NESTED_CACHE_MAX: usize = 16384;

/// Slots: one per value of the cell being searched (Nishio chains, which nothing else asks
/// for), one for the "off" assumption, then the kept "on" chains (see `cached`).
const OFF_SLOT: usize = 9;
const SLOTS: usize = 10;

impl Default for Multiple {
    fn default() -> Self {
        Multiple {
            slots: (0..SLOTS).map(|_| Slot::new()).collect(),
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
            cache_base: None,
            collect_base: None,
            collected: Vec::new(),
            collected_keys: Default::default(),
            closures: Default::default(),
            places_of: None,
            places: [[0; 27]; 9],
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
        let mut best = Best::none();
        self.search(b, kind, &mut best, budget)?;
        Ok(best.hint)
    }

    /// Every dynamic chain of nesting `level` on grid `g`, as nested hints for an outer
    /// dynamic search whose grid started as `base`, sorted and deduplicated (Sudoku
    /// Explainer's dynamic forcing chains nested at level 4). False when the budget ran out.
    pub fn collect_dynamic(
        &mut self,
        base: &Board,
        g: &Board,
        level: u8,
        out: &mut Vec<NestedHint>,
        budget: &Budget,
    ) -> bool {
        self.collect_base = Some(Box::new(*base));
        self.collected.clear();
        let mut best = Best::none();
        let ok = self
            .search(g, Kind::Dynamic(level), &mut best, budget)
            .is_ok();
        self.collect_base = None;
        std::mem::swap(out, &mut self.collected);
        super::nested::sort_and_dedup(out);
        ok
    }

    fn search(
        &mut self,
        b: &Board,
        kind: Kind,
        best: &mut Best,
        budget: &Budget,
    ) -> Result<(), GradeError> {
        self.aborted = false;
        self.new_cache();
        if self.cache_base.as_deref() != Some(b) {
            self.nested_cache.clear();
            self.cache_base = Some(Box::new(*b));
        }
        for c in cells_of(b.empty) {
            let card = count16(b.cell[c]);
            if card > 2 || (card > 1 && kind.dynamic()) {
                // Nishio and multiple chains skip the cells whose closures show no hint.
                if matches!(kind, Kind::Nishio | Kind::Multiple)
                    && !self.closures.may_hint(b, c, kind)
                {
                    #[cfg(test)]
                    self.check_no_hint(b, c, kind, budget)?;
                    continue;
                }
                self.cell_hints(b, c, kind, best, budget)?;
            }
        }
        if self.aborted {
            // A search cut short may have offered a hint it would not have found.
            return Err(GradeError::Aborted);
        }
        Ok(())
    }

    /// Forgets the chains kept: a new grid is to be searched.
    fn new_cache(&mut self) {
        self.cache_stamp = self.cache_stamp.wrapping_add(1);
        if self.cache_stamp == 0 {
            self.cached.fill((0, 0));
            self.cache_stamp = 1;
        }
        self.next_slot = SLOTS;
        self.closures.start();
    }

    /// The slot holding the chain from "on" potential `source`, made once per search and
    /// kept: a chain depends only on its source and the search's grid, and every "on" chain
    /// is asked for by its cell and again by up to three of its digit's units. Nishio chains,
    /// asked for once, are made into `slot`.
    fn chain_in(
        &mut self,
        b: &Board,
        source: usize,
        slot: usize,
        kind: Kind,
        budget: &Budget,
    ) -> Result<usize, GradeError> {
        if kind == Kind::Nishio {
            // Only the cell's own search asks: no need to keep it.
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

    /// One search from `start` into slot `s`, stopping at the first contradiction.
    fn chain(&mut self, base: &Board, s: usize, start: usize, kind: Kind, budget: &Budget) {
        let y = kind != Kind::Nishio;
        let dynamic = kind.dynamic();
        let level = kind.level();
        let mut g = *base;
        if self.places_of.as_deref() != Some(base) {
            self.places = count_places(base);
            self.places_of = Some(Box::new(*base));
        }
        let mut places = self.places;
        self.slots[s].reset();
        self.slots[s].insert(start, &[]);
        // The slot's lists of "on" and "off" potentials, in the order found, are the queues:
        // `ho` and `hf` the next of each to follow.
        let (mut ho, mut hf) = (0usize, 0usize);
        let mut buf = [0u16; 32];
        loop {
            if ho < self.slots[s].on_list.len() {
                let p = self.slots[s].on_list[ho] as usize;
                ho += 1;
                let n = on_to_off(&g, p, y, &mut buf);
                let slot = &mut self.slots[s];
                for &q in &buf[..n] {
                    let q = q as usize;
                    // `q` is "off": it and its opposite in one look.
                    let pair = slot.pair(q);
                    if pair & 2 != 0 {
                        let start = slot.pool.len() as u32;
                        slot.pool.push(p as u16);
                        slot.clash = Some((q as u16, start, 1));
                        slot.clash_with = conjugate(q) as u16;
                        return;
                    } else if pair == 0 {
                        slot.insert(q, &[p as u16]);
                    }
                }
                continue;
            }
            if hf < self.slots[s].off_list.len() {
                let p = self.slots[s].off_list[hf] as usize;
                hf += 1;
                if self.off_to_on_dynamic(base, &g, &places, s, p, y) {
                    return;
                }
                if dynamic {
                    let (c, d) = (cell_of(p), digit_of(p));
                    if g.remove(c, d) {
                        for &u in &CELL_UNITS[c] {
                            places[d][u as usize] -= 1;
                        }
                    }
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
                            slot.set_nest(q as usize, idx);
                        }
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
    /// earlier removals they rest on; true when one of them contradicts the slot. `places`
    /// counts the places of each digit in each unit on `g`, where `p` is still a candidate.
    fn off_to_on_dynamic(
        &mut self,
        base: &Board,
        g: &Board,
        places: &Places,
        s: usize,
        p: usize,
        y: bool,
    ) -> bool {
        let (c, d) = (cell_of(p), digit_of(p));
        debug_assert!(g.digit[d] & bit(c) != 0);
        if y && g.cell[c].two() {
            let other = (g.cell[c] & !(1 << d)).trailing_zeros() as usize;
            if self.consequence(base, g, s, p, key(c, other, true), CAUSE_CELL) {
                return true;
            }
        }
        for (t, &u) in CELL_UNITS[c].iter().enumerate() {
            // The digit's only other place in the unit: two places there, `c` one of them.
            let last = places[d][u as usize] == 2;
            // The count tells what the cell set would, at every step the tests take.
            #[cfg(test)]
            assert_eq!(last, (g.digit[d] & UNIT_MASK[u as usize] & !bit(c)).one());
            if !last {
                continue;
            }
            let rest = g.digit[d] & UNIT_MASK[u as usize] & !bit(c);
            let k = key(rest.trailing_zeros() as usize, d, true);
            // A place found through an earlier unit is in the slot by now.
            if self.consequence(base, g, s, p, k, t as u8) {
                return true;
            }
        }
        false
    }

    /// Adds "on" potential `k`, a consequence of "off" potential `p` for the given cause
    /// (`CAUSE_CELL` or the index of the unit in `CELL_UNITS`), to slot `s` unless it is
    /// there; true when its opposite is there (the contradiction is kept). Its parents, `p`
    /// and the candidates of `base` gone from `g` in its cell or unit, are only listed for
    /// a potential that is kept.
    #[inline(always)]
    fn consequence(
        &mut self,
        base: &Board,
        g: &Board,
        s: usize,
        p: usize,
        k: usize,
        cause: u8,
    ) -> bool {
        let slot = &self.slots[s];
        let clash = slot.has(conjugate(k));
        if !clash && slot.has(k) {
            return false;
        }
        let (c, d) = (cell_of(p), digit_of(p));
        self.parents.clear();
        self.parents.push(p as u16);
        if cause == CAUSE_CELL {
            for e in digits_of(base.cell[c] & !g.cell[c]) {
                self.parents.push(key(c, e, false) as u16);
            }
        } else {
            let mask = UNIT_MASK[CELL_UNITS[c][cause as usize] as usize];
            for x in cells_of(base.digit[d] & mask & !g.digit[d]) {
                self.parents.push(key(x, d, false) as u16);
            }
        }
        let slot = &mut self.slots[s];
        if clash {
            let start = slot.pool.len() as u32;
            slot::push_all(&mut slot.pool, &self.parents);
            slot.clash = Some((k as u16, start, self.parents.len() as u16));
            slot.clash_with = conjugate(k) as u16;
            slot.clash_cause = cause;
            return true;
        }
        slot.insert(k, &self.parents);
        slot.set_cause(k, cause);
        false
    }
}
