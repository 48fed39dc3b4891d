//! The `singles` strategy: 9-bit candidate masks, naked and hidden singles, fewest-candidates
//! branching.
//!
//! Each cell keeps a mask of the digits still possible (bit `d - 1` for digit `d`). Placing a
//! digit clears its bit from the 20 peers. Propagation repeats two rules until neither applies:
//! a cell with one candidate takes it (naked single), and a digit with one place left in a row,
//! column or box goes there (hidden single). Then the search branches on the empty cell with the
//! fewest candidates, trying them in increasing order on a copy of the state (copy-on-branch, so
//! undoing a branch is just dropping the copy). Every digit tried at a branch point counts as a
//! guess except the last candidate left, which by then is forced.

use super::masks::{ALL, Masks};
use super::trace::NoTrace;
use super::{Limits, Outcome, Solver};
use crate::grid::Grid;

/// The 27 units (9 rows, 9 columns, 9 boxes) as cell lists.
static UNITS: [[usize; 9]; 27] = {
    let mut units = [[0usize; 9]; 27];
    let mut u = 0;
    while u < 9 {
        let mut i = 0;
        while i < 9 {
            units[u][i] = u * 9 + i;
            units[9 + u][i] = i * 9 + u;
            units[18 + u][i] = (u / 3 * 3 + i / 3) * 9 + u % 3 * 3 + i % 3;
            i += 1;
        }
        u += 1;
    }
    units
};

/// Applies naked and hidden singles until none is left; false on a contradiction.
fn propagate(state: &mut Masks) -> bool {
    loop {
        let Some(mut changed) = state.naked_singles(&mut NoTrace) else {
            return false;
        };
        for unit in &UNITS {
            let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
            for &c in unit {
                let m = state.cand[c];
                twice |= once & m;
                once |= m;
                if state.grid[c] != 0 {
                    placed |= 1 << (state.grid[c] - 1);
                }
            }
            if once | placed != ALL {
                return false; // some digit has no place left in this unit
            }
            let mut hidden = once & !twice;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden ^= bit;
                let Some(&cell) = unit.iter().find(|&&c| state.cand[c] & bit != 0) else {
                    return false; // an earlier placement in this loop took its place
                };
                if !state.place(cell, bit.trailing_zeros() as u8 + 1) {
                    return false;
                }
                changed = true;
            }
        }
        if !changed {
            return true;
        }
    }
}

/// Solver of the `singles` strategy. See the module documentation.
#[derive(Debug, Default)]
pub struct SinglesSolver {
    /// What the current search has found so far.
    out: Outcome,
}

impl SinglesSolver {
    /// A new solver.
    pub fn new() -> Self {
        Self::default()
    }

    fn search(&mut self, mut state: Masks, limits: Limits, on_solution: &mut dyn FnMut(&Grid)) {
        if !propagate(&mut state) {
            return;
        }
        if state.is_full() {
            self.out.found(state.grid(), on_solution);
            return;
        }
        let best = state.fewest();
        let mut mask = state.cand[best];
        while mask != 0 {
            if self.out.solutions >= limits.solutions || self.out.aborted {
                return;
            }
            let bit = mask & mask.wrapping_neg();
            mask ^= bit;
            // Not the last candidate: a real guess, within the budget.
            if mask != 0 && !self.out.spend_guess(limits) {
                return;
            }
            let mut next = state;
            if next.place(best, bit.trailing_zeros() as u8 + 1) {
                self.search(next, limits, on_solution);
            }
        }
    }
}

impl Solver for SinglesSolver {
    fn solve_with(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        self.out = Outcome::default();
        if let Some(state) = Masks::of(puzzle) {
            self.search(state, limits, on_solution);
        }
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Strategy, tests::check_strategy};

    #[test]
    fn passes_the_shared_checks() {
        check_strategy(Strategy::Singles);
    }

    #[test]
    fn units_are_rows_columns_boxes() {
        use super::*;
        use crate::grid::{box_cells, col_cells, row_cells};
        for u in 0..9 {
            assert_eq!(UNITS[u], row_cells(u));
            assert_eq!(UNITS[9 + u], col_cells(u));
            assert_eq!(UNITS[18 + u], box_cells(u));
        }
    }
}
