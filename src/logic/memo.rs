//! What the rungs of the ladder found at earlier steps, for digits and units that have not
//! changed since.
//!
//! Most steps change a few digits and a few units. A rung whose search for one digit (fish,
//! intersections, strong-link chains) or in one unit (subsets) depends only on that digit's
//! places or that unit's candidates finds the same thing again while they are unchanged, so
//! its result is kept with the version it was computed at. Every change bumps one clock; a
//! digit or unit records the clock of its last change, and a kept result is valid while that
//! record is older than the result. The clock runs across puzzles, so nothing carries over.

use super::bits::Bits;
#[cfg(any(test, debug_assertions))]
use super::board::bit;
use super::board::{Board, CELL_UNITS, Cells, UNIT_MASK, cells_of};
use super::singles::{self, BOX_COL_ROW, Single};
use super::strong_links::{self, Key};
use super::subsets;
use super::technique::Hint;

/// Every unit, as bits of a `u32`.
const ALL_UNITS: u32 = (1 << 27) - 1;

/// A kept result and the clock it was computed at.
type Kept<T> = (u64, T);
/// A per-digit rung's first hint for one digit, with its rank in the rung's search order.
type Ranked = Option<(u16, Hint)>;
/// A strong-link rung's best chain for one digit, with its sort key.
type Keyed = Option<(Key, Hint)>;

/// The unit rungs whose per-unit results are kept.
#[derive(Debug, Clone, Copy)]
pub(crate) enum UnitRung {
    DirectHiddenPair = 0,
    DirectHiddenTriplet,
    NakedPair,
    NakedTriplet,
    NakedQuad,
    HiddenPair,
    HiddenTriplet,
    HiddenQuad,
}

/// Each unit's full house and hidden singles, by the unit's place in Sudoku Explainer's
/// order ([`BOX_COL_ROW`]): they are looked for at every step, and a step changes a few units.
struct Singles {
    /// The units whose cells changed since they were last looked at (bit `u` for unit `u`).
    dirty: u32,
    /// Per unit, the digits whose places there changed since it was last looked at.
    dirty_digits: [u16; 27],
    /// The units with a full house (bit `k` for the `k`-th unit of the order).
    full: u32,
    /// The units with a hidden single (bit `k` for the `k`-th unit of the order).
    hidden: u32,
    /// Per unit, its digits with one place.
    digits: [u16; 27],
}

/// The place of every unit in [`BOX_COL_ROW`].
static ORDER_OF: [u8; 27] = {
    let mut out = [0u8; 27];
    let mut k = 0;
    while k < 27 {
        out[BOX_COL_ROW[k]] = k as u8;
        k += 1;
    }
    out
};

pub(crate) struct Memo {
    clock: u64,
    singles: Singles,
    digit_changed: [u64; 9],
    unit_changed: [u64; 27],
    cell_changed: [u64; 81],
    direct_locking: [Kept<Ranked>; 9],
    locking: [Kept<Ranked>; 9],
    fish: [[Kept<Ranked>; 9]; 3],
    units: [[Kept<Option<Hint>>; 27]; 8],
    strong: [[Kept<Keyed>; 9]; 3],
    /// The clock at which each digit's strong-link graph was last built.
    strong_graph: [u64; 9],
    strong_scratch: strong_links::Scratch,
}

impl Default for Memo {
    fn default() -> Self {
        Memo {
            clock: 1,
            singles: Singles {
                dirty: ALL_UNITS,
                dirty_digits: [0x1ff; 27],
                full: 0,
                hidden: 0,
                digits: [0; 27],
            },
            digit_changed: [1; 9],
            unit_changed: [1; 27],
            cell_changed: [1; 81],
            direct_locking: [(0, None); 9],
            locking: [(0, None); 9],
            fish: [[(0, None); 9]; 3],
            units: [[(0, None); 27]; 8],
            strong: [[(0, None); 9]; 3],
            strong_graph: [0; 9],
            strong_scratch: strong_links::Scratch::default(),
        }
    }
}

impl Memo {
    /// The clock of the current step.
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// For each cell, the clock of its last change.
    pub fn cell_changed(&self) -> &[u64; 81] {
        &self.cell_changed
    }

    /// A new puzzle: everything counts as changed.
    pub fn start(&mut self) {
        self.clock += 1;
        self.digit_changed = [self.clock; 9];
        self.unit_changed = [self.clock; 27];
        self.cell_changed = [self.clock; 81];
        self.singles.dirty = ALL_UNITS;
        self.singles.dirty_digits = [0x1ff; 27];
    }

    /// Records what changed between `before` and `after` (one step).
    #[cfg(test)]
    pub fn changed(&mut self, before: &Board, after: &Board) {
        let (digits, cells) = Self::difference(before, after);
        let changes: Vec<(Cells, u16)> = cells_of(cells)
            .map(|c| (bit(c), before.cell[c] ^ after.cell[c]))
            .collect();
        self.record(digits, &changes);
    }

    /// The digits whose places differ between `before` and `after`, and the cells whose
    /// candidates or value differ. The candidates of a cell are the bits of the digits' sets,
    /// and a placed cell leaves `empty`: the cells that changed are those where a digit's set
    /// or `empty` differs.
    #[cfg(any(test, debug_assertions))]
    pub fn difference(before: &Board, after: &Board) -> (u16, Cells) {
        let mut cells = before.empty ^ after.empty;
        let mut digits = 0u16;
        for d in 0..9 {
            let differ = before.digit[d] ^ after.digit[d];
            if differ != 0 {
                digits |= 1 << d;
                cells |= differ;
            }
        }
        debug_assert_eq!(
            cells,
            (0..81)
                .filter(|&c| before.cell[c] != after.cell[c] || before.value[c] != after.value[c])
                .fold(0, |set, c| set | bit(c))
        );
        (digits, cells)
    }

    /// Records one step that changed the places of `digits` (bit d for digit d + 1): each of
    /// `changes` is a set of cells and the candidates (or, for a cell given its digit, all the
    /// candidates) they lost.
    pub fn record(&mut self, digits: u16, changes: &[(Cells, u16)]) {
        self.clock += 1;
        for d in super::board::digits_of(digits) {
            self.digit_changed[d] = self.clock;
        }
        let mut cells = 0;
        for &(set, lost) in changes {
            cells |= set;
            for c in cells_of(set) {
                for &u in &CELL_UNITS[c] {
                    self.singles.dirty_digits[u as usize] |= lost;
                }
            }
        }
        let mut units = 0u32;
        for c in cells_of(cells) {
            self.cell_changed[c] = self.clock;
            for &u in &CELL_UNITS[c] {
                self.unit_changed[u as usize] = self.clock;
                units |= 1 << u;
            }
        }
        self.singles.dirty |= units;
    }

    /// A full house, else the first hidden single in Sudoku Explainer's unit order (then the
    /// lowest digit): `singles::hidden_single`, looking again only at the units changed
    /// since the last call.
    pub fn single(&mut self, b: &Board) -> Option<Single> {
        let s = &mut self.singles;
        let mut dirty = std::mem::take(&mut s.dirty);
        while dirty != 0 {
            let u = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let k = 1u32 << ORDER_OF[u];
            let empty = b.empty & UNIT_MASK[u];
            if empty.one() && b.cell[empty.trailing_zeros() as usize] != 0 {
                s.full |= k;
            } else {
                s.full &= !k;
            }
            // Only the digits whose places changed in the unit can have gained or lost a
            // single there.
            let mut digits = s.digits[u];
            for d in super::board::digits_of(std::mem::take(&mut s.dirty_digits[u])) {
                if (b.digit[d] & UNIT_MASK[u]).one() {
                    digits |= 1 << d;
                } else {
                    digits &= !(1 << d);
                }
            }
            s.digits[u] = digits;
            if digits != 0 {
                s.hidden |= k;
            } else {
                s.hidden &= !k;
            }
        }
        if s.full != 0 {
            return singles::full_house_in(b, BOX_COL_ROW[s.full.trailing_zeros() as usize]);
        }
        if s.hidden != 0 {
            let u = BOX_COL_ROW[s.hidden.trailing_zeros() as usize];
            let d = s.digits[u].trailing_zeros() as usize;
            return Some(singles::hidden_single_at(b, u, d));
        }
        None
    }

    /// [`single`](Self::single) as a hint.
    pub fn hidden_single(&mut self, b: &Board) -> Option<Hint> {
        self.single(b).map(|s| s.hint())
    }

    /// A result kept for digit `d` if still valid, else `compute`d and kept. Lent, not
    /// copied: a hint is some two hundred bytes, and most kept results are looked at only to
    /// see that they found nothing.
    #[inline(always)]
    fn per_digit<T>(
        clock: u64,
        changed: u64,
        slot: &mut Kept<T>,
        compute: impl FnOnce() -> T,
    ) -> &T {
        // Changes made after the result was computed carry a later clock.
        if slot.0 < changed {
            slot.1 = compute();
            slot.0 = clock;
        }
        &slot.1
    }

    /// The first hint of a per-digit rung: lowest rank, then lowest digit.
    fn first_by_digit(
        clock: u64,
        changed: &[u64; 9],
        slots: &mut [Kept<Ranked>; 9],
        mut compute: impl FnMut(usize) -> Option<(u16, Hint)>,
    ) -> Option<Hint> {
        let mut best: Option<&(u16, Hint)> = None;
        for (d, slot) in slots.iter_mut().enumerate() {
            let r = Self::per_digit(clock, changed[d], slot, || compute(d));
            if let Some(r) = r
                && best.is_none_or(|(br, _)| r.0 < *br)
            {
                best = Some(r);
            }
        }
        best.map(|(_, h)| *h)
    }

    pub fn direct_locking(&mut self, b: &Board) -> Option<Hint> {
        Self::first_by_digit(
            self.clock,
            &self.digit_changed,
            &mut self.direct_locking,
            |d| singles::direct_locking(b, d),
        )
    }

    pub fn locking(&mut self, b: &Board) -> Option<Hint> {
        Self::first_by_digit(self.clock, &self.digit_changed, &mut self.locking, |d| {
            subsets::locking(b, d)
        })
    }

    pub fn fish(&mut self, b: &Board, degree: u32) -> Option<Hint> {
        let slots = &mut self.fish[degree as usize - 2];
        Self::first_by_digit(self.clock, &self.digit_changed, slots, |d| {
            subsets::fish(b, d, degree)
        })
    }

    /// The first hint of a per-unit rung in Sudoku Explainer's unit order.
    pub fn unit_rung(&mut self, b: &Board, rung: UnitRung) -> Option<Hint> {
        let slots = &mut self.units[rung as usize];
        for &u in &BOX_COL_ROW {
            let r = Self::per_digit(
                self.clock,
                self.unit_changed[u],
                &mut slots[u],
                || match rung {
                    UnitRung::DirectHiddenPair => singles::direct_hidden_set(b, u, 2),
                    UnitRung::DirectHiddenTriplet => singles::direct_hidden_set(b, u, 3),
                    UnitRung::NakedPair => subsets::naked_set(b, u, 2),
                    UnitRung::NakedTriplet => subsets::naked_set(b, u, 3),
                    UnitRung::NakedQuad => subsets::naked_set(b, u, 4),
                    UnitRung::HiddenPair => subsets::hidden_set(b, u, 2),
                    UnitRung::HiddenTriplet => subsets::hidden_set(b, u, 3),
                    UnitRung::HiddenQuad => subsets::hidden_set(b, u, 4),
                },
            );
            if r.is_some() {
                return *r;
            }
        }
        None
    }

    /// The best chain of `n` strong links over all digits.
    pub fn strong_links(&mut self, b: &Board, n: usize) -> Option<Hint> {
        let mut best: Option<&(Key, Hint)> = None;
        let scratch = &mut self.strong_scratch;
        let graph = &mut self.strong_graph;
        let (clock, changed) = (self.clock, &self.digit_changed);
        for (d, slot) in self.strong[n - 2].iter_mut().enumerate() {
            let r = Self::per_digit(clock, changed[d], slot, || {
                // The graph is kept like a result: valid while the digit is unchanged.
                let rebuild = graph[d] < changed[d];
                if rebuild {
                    graph[d] = clock;
                }
                strong_links::strong_links(b, n, d, scratch, rebuild)
            });
            if let Some(r) = r
                && best.is_none_or(|(bk, _)| r.0.before(bk))
            {
                best = Some(r);
            }
        }
        best.map(|(_, h)| *h)
    }
}
