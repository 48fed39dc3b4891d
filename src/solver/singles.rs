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

use super::{Limits, Outcome, Solver};
use crate::grid::{CELLS, Grid, PEERS};

const ALL: u16 = 0x1FF;

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

#[derive(Clone, Copy)]
struct State {
    /// Candidates of each empty cell; 0 for a filled cell.
    cand: [u16; CELLS],
    /// Digits placed, 0 for empty.
    grid: [u8; CELLS],
    /// Number of filled cells.
    filled: u8,
}

impl State {
    /// Places `digit` in `cell` and removes it from the peers; false on a contradiction.
    fn place(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1u16 << (digit - 1);
        if self.cand[cell] & bit == 0 {
            return false;
        }
        self.grid[cell] = digit;
        self.cand[cell] = 0;
        self.filled += 1;
        for &p in &PEERS[cell] {
            let p = p as usize;
            if self.grid[p] == 0 && self.cand[p] & bit != 0 {
                self.cand[p] &= !bit;
                if self.cand[p] == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Applies naked and hidden singles until none is left; false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            let mut changed = false;
            for cell in 0..CELLS {
                if self.grid[cell] == 0 {
                    let m = self.cand[cell];
                    if m == 0 {
                        return false;
                    }
                    if m & (m - 1) == 0 {
                        if !self.place(cell, m.trailing_zeros() as u8 + 1) {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
            for unit in &UNITS {
                let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
                for &c in unit {
                    let m = self.cand[c];
                    twice |= once & m;
                    once |= m;
                    if self.grid[c] != 0 {
                        placed |= 1 << (self.grid[c] - 1);
                    }
                }
                if once | placed != ALL {
                    return false; // some digit has no place left in this unit
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden ^= bit;
                    let Some(&cell) = unit.iter().find(|&&c| self.cand[c] & bit != 0) else {
                        return false; // an earlier placement in this loop took its place
                    };
                    if !self.place(cell, bit.trailing_zeros() as u8 + 1) {
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
}

/// Solver of the `singles` strategy. See the module documentation.
#[derive(Debug, Default)]
pub struct SinglesSolver {
    solutions: u64,
    first: Option<Grid>,
    guesses: u64,
    aborted: bool,
}

impl SinglesSolver {
    /// A new solver.
    pub fn new() -> Self {
        Self::default()
    }

    fn search(&mut self, mut state: State, limits: Limits, on_solution: &mut dyn FnMut(&Grid)) {
        if !state.propagate() {
            return;
        }
        if state.filled as usize == CELLS {
            // Only digits 1-9 are ever placed, so the grid is valid.
            let g = Grid::from_cells(state.grid).unwrap_or(Grid::EMPTY);
            self.solutions += 1;
            self.first.get_or_insert(g);
            on_solution(&g);
            return;
        }
        let mut best = usize::MAX;
        let mut best_count = u32::MAX;
        for cell in 0..CELLS {
            if state.grid[cell] == 0 {
                let n = state.cand[cell].count_ones();
                if n < best_count {
                    best = cell;
                    best_count = n;
                    if n == 2 {
                        break;
                    }
                }
            }
        }
        let mut mask = state.cand[best];
        while mask != 0 {
            if self.solutions >= limits.solutions || self.aborted {
                return;
            }
            let bit = mask & mask.wrapping_neg();
            mask ^= bit;
            if mask != 0 {
                // Not the last candidate: a real guess, within the budget.
                if limits.guesses.is_some_and(|b| self.guesses >= b) {
                    self.aborted = true;
                    return;
                }
                self.guesses += 1;
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
        *self = SinglesSolver::default();
        let mut state = State {
            cand: [ALL; CELLS],
            grid: [0; CELLS],
            filled: 0,
        };
        let ok = puzzle
            .cells()
            .iter()
            .enumerate()
            .all(|(cell, &d)| d == 0 || state.place(cell, d));
        if ok {
            self.search(state, limits, on_solution);
        }
        Outcome {
            solutions: self.solutions,
            solution: self.first,
            guesses: self.guesses,
            aborted: self.aborted,
        }
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
