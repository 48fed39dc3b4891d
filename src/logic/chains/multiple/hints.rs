//! Hints from multiple-chain searches: contradictions, double chains, cell and region
//! chains, each rated by the distinct potentials its chains rest on (nested chains counted
//! once each); and every cell and region chain on a fixed grid as nested hints for level 3.

use super::super::super::board::{Board, CELL_UNITS, UNIT_MASK, bit, cells_of, digits_of};
use super::super::super::technique::{Hint, Technique};
use super::super::nested::{
    Cause, Fingerprint, NestedHint, cause_on, rule_parents, sort_and_dedup,
};
use super::super::unary::Best;
use super::super::{SortKey, cell_of, conjugate, digit_of, is_on, key};
use super::collect::Targets;
use super::slot::{none_common, push_all};
use super::{Kind, Multiple, NO_NEST, OFF_SLOT, Slot};
use crate::logic::{Budget, GradeError};

impl Multiple {
    pub(super) fn offer(&self, best: &mut Best, key: SortKey, make: impl FnOnce() -> Hint) {
        if best.beaten_by(&key) {
            let h = make();
            if h.is_worth() {
                best.key = key;
                best.hint = Some(h);
            }
        }
    }

    pub(super) fn cell_hints(
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
                let cx = self.clash_complexity(vi, self.limit(best, 7));
                let k = SortKey::new(base, cx, 7);
                self.emit(b, best, k, Targets::Clash(vi), || {
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
                    let cx = self.clash_complexity(OFF_SLOT, self.limit(best, 7));
                    let k = SortKey::new(base, cx, 7);
                    self.emit(b, best, k, Targets::Clash(OFF_SLOT), || {
                        place_hint(b, t_contra, k.diff, c, v)
                    });
                }
            }
            // The potentials both chains reach: none at most cells.
            if double && !none_common(&self.slots, &[vi, OFF_SLOT]) {
                for i in 0..self.slots[vi].on_list.len() {
                    let q = self.slots[vi].on_list[i] as usize;
                    if self.slots[OFF_SLOT].has(q) {
                        let cx = self.count(&[vi, OFF_SLOT], q, self.limit(best, 1));
                        let k = SortKey::new(base, cx, 1);
                        let t = Targets::Common(&[vi, OFF_SLOT], q, None);
                        self.emit(b, best, k, t, || {
                            place_hint(b, t_double, k.diff, cell_of(q), digit_of(q))
                        });
                    }
                }
                for i in 0..self.slots[vi].off_list.len() {
                    let q = self.slots[vi].off_list[i] as usize;
                    if self.slots[OFF_SLOT].has(q) {
                        let cx = self.count(&[vi, OFF_SLOT], q, self.limit(best, 1));
                        let k = SortKey::new(base, cx, 1);
                        let t = Targets::Common(&[vi, OFF_SLOT], q, None);
                        self.emit(b, best, k, t, || remove_hint(t_double, k.diff, q));
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
        if !nishio && card >= 2 && !none_common(&self.slots, value_slots) {
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
                        let cx = self.count(value_slots, q, self.limit(best, 5));
                        let k = SortKey::new(base, cx, 5);
                        let t = Targets::Common(value_slots, q, Some(Cause::Cell));
                        self.emit(b, best, k, t, || {
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
        for (unit, &u) in CELL_UNITS[c].iter().enumerate() {
            let unit = unit as u8;
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
                    self.chain_in(b, key(x, v, true), OFF_SLOT, kind, budget)?
                };
                n += 1;
            }
            let slots = &slots[..n];
            if none_common(&self.slots, slots) {
                continue;
            }
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
                        let cx = self.count(slots, q, self.limit(best, 6));
                        let k = SortKey::new(base, cx, 6);
                        let t = Targets::Common(slots, q, Some(Cause::Unit(unit)));
                        self.emit(b, best, k, t, || {
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

    /// The complexity from which a hint of kind `rank` cannot replace `best`: nothing when
    /// every hint is kept (a nested search) or none is found yet. A search offers hints of
    /// one base rating, so a longer chain never rates lower: one of the best's complexity
    /// replaces it only with a lower rank, and a longer one never does.
    pub(super) fn limit(&self, best: &Best, rank: u8) -> u32 {
        if self.collect_base.is_some() || best.hint.is_none() {
            return u32::MAX;
        }
        let c = best.key.complexity;
        if rank < best.key.rank {
            c.saturating_add(1)
        } else {
            c
        }
    }

    /// The complexity of a hint whose chains end at `k` in each of `slots`: the distinct
    /// potentials each chain rests on, summed, plus the complexity of every distinct nested
    /// chain they use; counted only up to `limit` (then a number not below it), from which
    /// the hint is not wanted.
    fn count(&mut self, slots: &[usize], k: usize, limit: u32) -> u32 {
        self.nest_seen.clear();
        let mut total = 0;
        for &s in slots {
            total += self.count_from(s, k as u16, &[], limit.saturating_sub(total));
            if total >= limit {
                return total;
            }
        }
        total + self.nest_seen.iter().map(|n| n.1).sum::<u32>()
    }

    /// Both sides of slot `s`'s contradiction, counted up to `limit` as `count` does.
    fn clash_complexity(&mut self, s: usize, limit: u32) -> u32 {
        self.nest_seen.clear();
        let (k, start, len) = self.slots[s].clash.unwrap();
        let with = self.slots[s].clash_with;
        let parents: Vec<u16> =
            self.slots[s].pool[start as usize..start as usize + len as usize].to_vec();
        let a = self.count_from(s, k, &parents, limit);
        if a >= limit {
            return a;
        }
        let b = self.count_from(s, with, &[], limit - a);
        a + b + self.nest_seen.iter().map(|n| n.1).sum::<u32>()
    }

    /// Distinct potentials reached from `k` through the parents: those of `extra` when given
    /// (a potential not stored in the slot), else `k`'s own; counted up to `limit`. Nested
    /// chains met on the way are added to `nest_seen`.
    fn count_from(&mut self, s: usize, k: u16, extra: &[u16], limit: u32) -> u32 {
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
            push_all(&mut self.stack, slot.parents(k as usize));
            note_nest(slot, k as usize, &mut self.nest_seen);
        } else {
            push_all(&mut self.stack, extra);
        }
        while let Some(p) = self.stack.pop() {
            if count >= limit {
                break;
            }
            let p = p as usize;
            if self.visit[p] == g {
                continue;
            }
            self.visit[p] = g;
            count += 1;
            push_all(&mut self.stack, slot.parents(p));
            note_nest(slot, p, &mut self.nest_seen);
        }
        count
    }

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
        self.aborted = false;
        self.new_cache();
        for c in cells_of(g.empty) {
            if g.cell[c].count_ones() <= 2 {
                continue;
            }
            if budget.spent() {
                return false;
            }
            // A cell whose closures show no hint adds nothing (checked in tests).
            let may = self.closures.may_hint(g, c, Kind::Multiple);
            if !may && !cfg!(test) {
                continue;
            }
            let before = out.len();
            let values: Vec<usize> = digits_of(g.cell[c]).collect();
            let mut value_slots = [0usize; 9];
            for (vi, &v) in values.iter().enumerate() {
                let Ok(vs) = self.chain_in(g, key(c, v, true), OFF_SLOT, Kind::Multiple, budget)
                else {
                    return false;
                };
                value_slots[vi] = vs;
                for &u in &CELL_UNITS[c] {
                    let places = g.digit[v] & UNIT_MASK[u as usize];
                    if places.count_ones() < 2 || places.trailing_zeros() as usize != c {
                        continue;
                    }
                    let mut slots = [0usize; 9];
                    let mut n = 0;
                    for x in cells_of(places) {
                        slots[n] = if x == c {
                            vs
                        } else {
                            let Ok(s) =
                                self.chain_in(g, key(x, v, true), OFF_SLOT, Kind::Multiple, budget)
                            else {
                                return false;
                            };
                            s
                        };
                        n += 1;
                    }
                    let kind = CELL_UNITS[c].iter().position(|&w| w == u).unwrap() as u8;
                    self.collect_common(base, g, &slots[..n], Cause::Unit(kind), 6, out);
                }
            }
            let slots = value_slots[..values.len()].to_vec();
            self.collect_common(base, g, &slots, Cause::Cell, 5, out);
            debug_assert!(may || out.len() == before, "cell {c}");
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

/// Adds the nested chain of key `k` in `slot`, if any, to `seen` (once per fingerprint).
/// A search that nests nothing (most) has none to look up.
#[inline]
fn note_nest(slot: &Slot, k: usize, seen: &mut Vec<(u64, u32)>) {
    if slot.nested.is_empty() {
        return;
    }
    let n = slot.nest(k);
    if n != NO_NEST {
        let nested = slot.nested[n as usize];
        if !seen.iter().any(|s| s.0 == nested.0) {
            seen.push(nested);
        }
    }
}
