//! The grid state of the `singles` and `bitmask` strategies: a 9-bit candidate mask per cell.
//!
//! ```text
//!   bit  8 7 6 5 4 3 2 1 0
//! digit  9 8 7 6 5 4 3 2 1      e.g. 0b0_0010_0101 = {1, 3, 6}
//! ```
//!
//! Placing a digit clears its bit in the masks of the cell's 20 peers; a peer left with an
//! empty mask is a contradiction. The two strategies share this state, its naked singles and
//! its choice of branch cell; they differ in what else they propagate (`singles` adds hidden
//! singles) and in how they search (recursion on copies, or an explicit stack).

use super::trace::{Reason, Trace};
use crate::grid::{CELLS, Grid, PEERS};

/// Every digit.
pub(super) const ALL: u16 = 0x1FF;

/// Candidate masks and placed digits; small enough to copy at every branch.
#[derive(Clone, Copy)]
pub(super) struct Masks {
    /// Candidates of each empty cell; 0 for a filled cell.
    pub cand: [u16; CELLS],
    /// Digits placed, 0 for empty.
    pub grid: [u8; CELLS],
    /// Number of filled cells.
    pub filled: u8,
}

impl Masks {
    /// The empty grid: every digit possible everywhere.
    pub const START: Masks = Masks {
        cand: [ALL; CELLS],
        grid: [0; CELLS],
        filled: 0,
    };

    /// The state of `puzzle`'s clues, or `None` when they conflict (`place` refuses a digit
    /// that a peer already took).
    pub fn of(puzzle: &Grid) -> Option<Masks> {
        let mut state = Masks::START;
        let fits = puzzle
            .cells()
            .iter()
            .enumerate()
            .all(|(cell, &d)| d == 0 || state.place(cell, d));
        fits.then_some(state)
    }

    /// Places `digit` in `cell` and removes it from the peers; false on a contradiction.
    pub fn place(&mut self, cell: usize, digit: u8) -> bool {
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

    /// One pass over the grid placing every naked single (a cell with one candidate left),
    /// reporting each to `trace`. `None` on a contradiction, else whether anything was placed.
    pub fn naked_singles<T: Trace>(&mut self, trace: &mut T) -> Option<bool> {
        let mut changed = false;
        for cell in 0..CELLS {
            if self.grid[cell] == 0 {
                let m = self.cand[cell];
                if m == 0 {
                    return None;
                }
                if m & (m - 1) == 0 {
                    let digit = m.trailing_zeros() as u8 + 1;
                    trace.place(cell, digit, Reason::NakedSingle);
                    if !self.place(cell, digit) {
                        return None;
                    }
                    changed = true;
                }
            }
        }
        Some(changed)
    }

    /// True when every cell holds a digit.
    pub fn is_full(&self) -> bool {
        self.filled as usize == CELLS
    }

    /// The grid of placed digits.
    pub fn grid(&self) -> Grid {
        // Only digits 1-9 are ever placed, so the grid is valid.
        Grid::from_cells(self.grid).unwrap_or(Grid::EMPTY)
    }

    /// The empty cell with the fewest candidates, the first in row-major order on a tie (0 if
    /// no cell is empty). After propagation no empty cell has fewer than 2, so 2 ends the scan
    /// early.
    pub fn fewest(&self) -> usize {
        let mut best = 0;
        let mut best_count = u32::MAX;
        for cell in 0..CELLS {
            if self.grid[cell] == 0 {
                let n = self.cand[cell].count_ones();
                if n < best_count {
                    best = cell;
                    best_count = n;
                    if n <= 2 {
                        break;
                    }
                }
            }
        }
        best
    }
}
