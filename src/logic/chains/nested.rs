//! Chains nested in dynamic chains (levels 2 and 3, 9.5 and 10.0): when a dynamic search
//! stalls, forcing chains (level 2), then multiple forcing chains (level 3), found on the
//! search's own grid supply more removals. Each removal rests on the candidates the search
//! removed that the nested chain needed gone (its "rule parents"), and the nested chain's
//! length counts in the length of every chain that uses it.
//!
//! Sudoku Explainer hands over every nested hint, sorted and without duplicates, so this
//! module describes a nested hint completely: its removals in the order Sudoku Explainer
//! iterates them, its rule parents, its complexity, and a fingerprint of its chains (two
//! uses of the same chain count once).

use super::super::board::{Board, CELL_UNITS, Cells, UNIT_MASK, bit, cells_of, digits_of};
use super::{SortKey, cell_of, digit_of, key};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Why a potential follows from its parent, which says which earlier removals it needed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The cell's other candidates.
    Cell,
    /// The digit's other places in a unit: 0 box, 1 row, 2 column.
    Unit(u8),
}

/// The cause of "on" potential `child` reached from "off" potential `parent` on grid `g`:
/// the cell's last candidate, else the digit's last place in the first unit (box, row,
/// column) where it is.
pub(crate) fn cause_on(g: &Board, parent: usize, child: usize) -> Cause {
    let (pc, cc, d) = (cell_of(parent), cell_of(child), digit_of(child));
    if pc == cc {
        return Cause::Cell;
    }
    for (t, &u) in CELL_UNITS[pc].iter().enumerate() {
        let mask = UNIT_MASK[u as usize];
        if mask & bit(cc) != 0 && g.digit[d] & mask & !bit(pc) == bit(cc) {
            return Cause::Unit(t as u8);
        }
    }
    Cause::Cell
}

/// The cause of "off" potential `child` reached from "on" potential `parent`.
pub(crate) fn cause_off(parent: usize, child: usize) -> Cause {
    let (pc, cc) = (cell_of(parent), cell_of(child));
    if pc == cc {
        return Cause::Cell;
    }
    for (t, &u) in CELL_UNITS[pc].iter().enumerate() {
        if UNIT_MASK[u as usize] & bit(cc) != 0 {
            return Cause::Unit(t as u8);
        }
    }
    Cause::Cell
}

/// Adds to `out` (once each) the candidates of `base` gone from `g` that an "on" potential
/// with this cause needed gone: the cell's other candidates, or the digit's other places in
/// the unit.
pub(crate) fn rule_parents(base: &Board, g: &Board, k: usize, cause: Cause, out: &mut Vec<u16>) {
    let (c, d) = (cell_of(k), digit_of(k));
    match cause {
        Cause::Cell => {
            for e in digits_of(base.cell[c] & !g.cell[c]) {
                push_once(out, key(c, e, false) as u16);
            }
        }
        Cause::Unit(t) => {
            let u = CELL_UNITS[c][t as usize] as usize;
            for x in cells_of(base.digit[d] & UNIT_MASK[u] & !g.digit[d]) {
                push_once(out, key(x, d, false) as u16);
            }
        }
    }
}

fn push_once(out: &mut Vec<u16>, k: u16) {
    if !out.contains(&k) {
        out.push(k);
    }
}

/// A nested hint, as the dynamic search that asked for it needs it.
#[derive(Debug, Clone)]
pub(crate) struct NestedHint {
    pub key: SortKey,
    /// Removals as (cell, digits), in the order of Sudoku Explainer's hash map.
    pub entries: Vec<(u8, u16)>,
    /// The removed candidates it needed gone.
    pub parents: Vec<u16>,
    /// Its own complexity (flat; nested hints of these levels nest nothing).
    pub complexity: u32,
    /// Identifies its chains: the same chains found twice count once.
    pub fingerprint: u64,
}

/// Orders removals as a `java.util.HashMap` keyed by cell index iterates them: by index
/// modulo the table's capacity (16, doubling past three quarters full), then in order of
/// insertion. `entries` are in insertion order.
pub(crate) fn hashmap_order(entries: &mut [(u8, u16)]) {
    let mut cap = 16usize;
    while entries.len() * 4 > cap * 3 {
        cap *= 2;
    }
    entries.sort_by_key(|e| e.0 as usize & (cap - 1));
}

/// Sorts nested hints as Sudoku Explainer does (stable, by rating, complexity and kind) and
/// keeps the first of those with the same removals.
pub(crate) fn sort_and_dedup(hints: &mut Vec<NestedHint>) {
    hints.sort_by(|a, b| order(&a.key, &b.key));
    // A hint's removals as a set of candidates (each cell appears once in its entries).
    let mut seen: HashSet<Removals, BuildHasherDefault<WordHasher>> =
        HashSet::with_capacity_and_hasher(hints.len(), Default::default());
    hints.retain(|h| {
        let mut set = [0 as Cells; 9];
        for &(c, m) in &h.entries {
            for d in digits_of(m) {
                set[d] |= bit(c as usize);
            }
        }
        seen.insert(Removals::new(&set))
    });
}

/// A set of removals (the cells that lose each digit), with a hash of it worked out once.
#[derive(PartialEq, Eq)]
struct Removals {
    hash: u64,
    set: [Cells; 9],
}

impl Removals {
    fn new(set: &[Cells; 9]) -> Removals {
        let hash = set.iter().fold(0u64, |a, &w| {
            (a ^ w as u64 ^ (w >> 64) as u64)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29)
        });
        Removals { hash, set: *set }
    }
}

impl Hash for Removals {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// A running fingerprint of potential keys.
#[derive(Default, Clone, Copy)]
pub(crate) struct Fingerprint(u64);

impl Fingerprint {
    pub fn add(&mut self, k: usize) {
        self.0 = (self.0 ^ (k as u64 + 1))
            .wrapping_mul(0x100_0000_01b3)
            .rotate_left(7);
    }
    pub fn end_target(&mut self) {
        self.add(usize::MAX >> 1);
    }
    pub fn value(self) -> u64 {
        self.0
    }
}

/// The best sort key of the hints kept so far for each set of removals, which tells the
/// hints `sort_and_dedup` would drop before they are described: a hint whose removals an
/// earlier hint of the same or a lower key already makes never comes first among them
/// (the sort is stable), and leaving it out changes which of the others come first in none.
#[derive(Default)]
pub(crate) struct Dominance {
    best: HashMap<Removals, SortKey, BuildHasherDefault<WordHasher>>,
}

impl Dominance {
    /// Forgets every hint: a new collection starts.
    pub fn clear(&mut self) {
        if !self.best.is_empty() {
            self.best.clear();
        }
    }

    /// True when a hint removing `elim` with key `key` may survive `sort_and_dedup` among
    /// those offered so far (it is then taken as offered); false when one offered before it
    /// with the same removals sorts no later.
    pub fn admits(&mut self, elim: &[Cells; 9], key: SortKey) -> bool {
        let removals = Removals::new(elim);
        match self.best.get_mut(&removals) {
            Some(best) if !sorts_before(&key, best) => false,
            Some(best) => {
                *best = key;
                true
            }
            None => {
                self.best.insert(removals, key);
                true
            }
        }
    }
}

/// True when `a` sorts strictly before `b` in `sort_and_dedup`.
fn sorts_before(a: &SortKey, b: &SortKey) -> bool {
    order(a, b).is_lt()
}

/// The order of `sort_and_dedup`: by rating, complexity and kind.
fn order(a: &SortKey, b: &SortKey) -> std::cmp::Ordering {
    a.diff
        .total_cmp(&b.diff)
        .then(a.complexity.cmp(&b.complexity))
        .then(a.rank.cmp(&b.rank))
}

/// A multiplicative hash of a key's words, for the maps of this module's callers (their keys
/// are few and not adversarial).
#[derive(Default)]
pub(crate) struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Of hints offered in any order with keys and removals drawn from a few, those
    /// `Dominance` admits sort and deduplicate to what all of them do.
    #[test]
    fn admitted_hints_dedup_as_all() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut dropped = 0;
        for round in 0..200 {
            let mut all = Vec::new();
            let mut admitted = Vec::new();
            let mut dominance = Dominance::default();
            for i in 0..(5 + round % 40) {
                let cell = next(4) as u8;
                let digits = 1 + next(3) as u16;
                let complexity = 4 + next(5) as u32;
                let key = SortKey::new(9.0 + 0.5 * next(2) as f64, complexity, next(3) as u8);
                let h = NestedHint {
                    key,
                    entries: vec![(cell, digits)],
                    parents: vec![i as u16],
                    complexity,
                    fingerprint: i as u64,
                };
                let mut elim = [0 as Cells; 9];
                for d in digits_of(digits) {
                    elim[d] |= bit(cell as usize);
                }
                if dominance.admits(&elim, key) {
                    admitted.push(h.clone());
                } else {
                    dropped += 1;
                }
                all.push(h);
            }
            sort_and_dedup(&mut all);
            sort_and_dedup(&mut admitted);
            let ids = |v: &[NestedHint]| v.iter().map(|h| h.fingerprint).collect::<Vec<_>>();
            assert_eq!(ids(&all), ids(&admitted), "round {round}");
        }
        assert!(dropped > 0);
    }
}
