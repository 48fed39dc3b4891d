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

use super::super::board::{Board, CELL_UNITS, UNIT_MASK, bit, cells_of, digits_of};
use super::{SortKey, cell_of, digit_of, key};

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
    hints.sort_by(|a, b| {
        a.key
            .diff
            .total_cmp(&b.key.diff)
            .then(a.key.complexity.cmp(&b.key.complexity))
            .then(a.key.rank.cmp(&b.key.rank))
    });
    // A hint's removals as a set of candidates (each cell appears once in its entries),
    // with a hash of it that tells most different sets apart at once.
    let mut seen: Vec<(u64, [u128; 9])> = Vec::with_capacity(hints.len());
    hints.retain(|h| {
        let mut set = [0u128; 9];
        for &(c, m) in &h.entries {
            for d in digits_of(m) {
                set[d] |= bit(c as usize);
            }
        }
        let hash = set.iter().fold(0u64, |a, &w| {
            (a ^ w as u64 ^ (w >> 64) as u64)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29)
        });
        if seen.iter().any(|&(x, s)| x == hash && s == set) {
            return false;
        }
        seen.push((hash, set));
        true
    });
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
