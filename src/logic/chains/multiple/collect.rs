//! Dynamic chains nested in a dynamic search (Sudoku Explainer's level 4, 10.5): a search
//! run on the outer search's stalled grid keeps every hint it finds, each described as the
//! outer search needs it: its removals, the candidates the outer search removed that its
//! chains needed gone (walking every parent of every potential, as Sudoku Explainer does
//! for a dynamic chain), its complexity and a fingerprint of its chains.

use super::super::super::board::{Board, cells_of};
use super::super::super::technique::Hint;
use super::super::nested::{Cause, Fingerprint, NestedHint, hashmap_order, rule_parents};
use super::super::unary::Best;
use super::super::{SortKey, is_on};
use super::{CAUSE_CELL, Multiple};

/// Where a hint's chains end.
pub(super) enum Targets<'a> {
    /// Both sides of the contradiction in this slot.
    Clash(usize),
    /// Potential `q` in each of these slots, whose starting potentials are on for the given
    /// reason (none for a double chain, whose start is an assumption either way).
    Common(&'a [usize], usize, Option<Cause>),
}

fn decode(cause: u8) -> Cause {
    if cause == CAUSE_CELL {
        Cause::Cell
    } else {
        Cause::Unit(cause)
    }
}

impl Multiple {
    /// Offers a hint found on grid `g`: to `best`, or, when the search is nested, to the
    /// collected hints.
    pub(super) fn emit(
        &mut self,
        g: &Board,
        best: &mut Best,
        key: SortKey,
        targets: Targets<'_>,
        make: impl FnOnce() -> Hint,
    ) {
        let Some(outer) = self.collect_base.take() else {
            self.offer(best, key, make);
            return;
        };
        let h = make();
        // Nothing is in `collected` before a search's first hint: the keys kept are those
        // of an earlier search.
        if self.collected.is_empty() {
            self.collected_keys.clear();
        }
        // A hint that `sort_and_dedup` would drop is not described.
        if h.is_worth() && self.collected_keys.admits(&h.elim, key) {
            let mut entries: Vec<(u8, u16)> = Vec::new();
            for (d, &cells) in h.elim.iter().enumerate() {
                for c in cells_of(cells) {
                    match entries.iter_mut().find(|e| e.0 as usize == c) {
                        Some(e) => e.1 |= 1 << d,
                        None => entries.push((c as u8, 1 << d)),
                    }
                }
            }
            hashmap_order(&mut entries);
            let mut parents = Vec::new();
            let mut fp = Fingerprint::default();
            match targets {
                Targets::Clash(s) => {
                    let (k, start, len) = self.slots[s].clash.expect("a contradiction");
                    let extra =
                        self.slots[s].pool[start as usize..(start + len as u32) as usize].to_vec();
                    let cause = decode(self.slots[s].clash_cause);
                    let with = self.slots[s].clash_with as usize;
                    self.walk(
                        &outer,
                        g,
                        s,
                        k as usize,
                        Some((&extra, cause)),
                        None,
                        &mut parents,
                        &mut fp,
                    );
                    self.walk(&outer, g, s, with, None, None, &mut parents, &mut fp);
                }
                Targets::Common(slots, q, root) => {
                    for &s in slots {
                        self.walk(&outer, g, s, q, None, root, &mut parents, &mut fp);
                    }
                }
            }
            self.collected.push(NestedHint {
                key,
                entries,
                parents,
                complexity: key.complexity,
                fingerprint: fp.value(),
            });
        }
        self.collect_base = Some(outer);
    }

    /// Walks the potentials chain target `k` of slot `s` rests on, breadth first as Sudoku
    /// Explainer lists a chain: adds each to `fp`, and for each "on" one the candidates of
    /// `outer` gone from `g` that it needed gone to `parents`. `extra` gives the parents
    /// and cause of a target not stored in the slot (a contradiction's); `root` the cause of
    /// the chain's starting potential.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        outer: &Board,
        g: &Board,
        s: usize,
        k: usize,
        extra: Option<(&[u16], Cause)>,
        root: Option<Cause>,
        parents: &mut Vec<u16>,
        fp: &mut Fingerprint,
    ) {
        self.visit_gen = self.visit_gen.wrapping_add(1);
        if self.visit_gen == 0 {
            self.visit.fill(0);
            self.visit_gen = 1;
        }
        let epoch = self.visit_gen;
        let slot = &self.slots[s];
        self.stack.clear();
        self.stack.push(k as u16);
        let mut i = 0;
        while i < self.stack.len() {
            let p = self.stack[i] as usize;
            i += 1;
            if self.visit[p] == epoch {
                continue;
            }
            self.visit[p] = epoch;
            fp.add(p);
            let (ps, cause) = match extra {
                Some((ps, cause)) if p == k => (ps, Some(cause)),
                _ => {
                    let ps = slot.parents(p);
                    let cause = if ps.is_empty() {
                        root
                    } else {
                        Some(decode(slot.cause(p)))
                    };
                    (ps, cause)
                }
            };
            if let Some(cause) = cause.filter(|_| is_on(p)) {
                rule_parents(outer, g, p, cause, parents);
            }
            self.stack.extend_from_slice(ps);
        }
        fp.end_target();
    }
}
