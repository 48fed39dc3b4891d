//! Complete grids for the generator: the first solution of a partly filled grid in the search
//! order of the `singles` strategy ([`SinglesSolver`]), found on per-digit bitboards.
//!
//! The grids `generate` makes from a seed have always been the first solution `singles` finds,
//! and a seed must keep giving the same puzzles. That solution depends only on the search:
//! naked and hidden singles to their fixpoint (which does not depend on the order the rules
//! run in), then a branch on the first cell, in row-major order, with the fewest candidates,
//! its digits tried in increasing order. This module runs that same search on nine 81-bit
//! boards (one per digit: the cells where it may still go) instead of 81 candidate masks, so a
//! naked single is a bit-sliced count over the nine boards and a hidden single an AND with a
//! unit's mask; the tests check it against [`SinglesSolver`] on many grids.
//!
//! [`SinglesSolver`]: crate::solver::SinglesSolver

use crate::grid::{CELLS, Grid, PEERS};

/// Cell `i` is bit `i`.
type Board = u128;

/// Every cell.
const ALL_CELLS: Board = (1 << CELLS) - 1;

/// The 27 units as boards: rows, columns, boxes.
const UNITS: [Board; 27] = {
    let mut units = [0; 27];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 9, cell % 9);
        units[r] |= 1 << cell;
        units[9 + c] |= 1 << cell;
        units[18 + r / 3 * 3 + c / 3] |= 1 << cell;
        cell += 1;
    }
    units
};

/// The units of each cell, bit `u` for unit `u` of [`UNITS`].
const CELL_UNITS: [u32; CELLS] = {
    let mut units = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 9, cell % 9);
        units[cell] = 1 << r | 1 << (9 + c) | 1 << (18 + r / 3 * 3 + c / 3);
        cell += 1;
    }
    units
};

/// Every unit, as bits of [`CELL_UNITS`].
const ALL_UNITS: u32 = (1 << 27) - 1;

/// Each cell's 20 peers as a board, the cell itself included.
const PEER_BOARDS: [Board; CELLS] = {
    let mut boards = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut i = 0;
        while i < 20 {
            boards[cell] |= 1 << PEERS[cell][i];
            i += 1;
        }
        boards[cell] |= 1 << cell;
        cell += 1;
    }
    boards
};

/// The search state: where each digit may still go, and where it stands.
#[derive(Clone, Copy)]
struct State {
    /// Empty cells where digit `d + 1` may go.
    cand: [Board; 9],
    /// Cells holding digit `d + 1`.
    placed: [Board; 9],
    /// Empty cells.
    empty: Board,
    /// The units where digit `d + 1` stands.
    placed_units: [u32; 9],
    /// Digits whose candidates changed since their last look for hidden singles (bit `d` for
    /// digit `d + 1`): the others cannot have one that was not placed then.
    changed: u16,
}

impl State {
    /// Puts digit index `d` in `cell` (one bit), which must be empty with `d` possible. A peer
    /// left with no candidate is found by the next [`State::propagate`].
    #[inline]
    fn place(&mut self, d: usize, cell: Board) {
        let i = cell.trailing_zeros() as usize;
        self.placed[d] |= cell;
        self.placed_units[d] |= CELL_UNITS[i];
        self.empty &= !cell;
        for (e, c) in self.cand.iter_mut().enumerate() {
            self.changed |= u16::from(*c & cell != 0) << e;
            *c &= !cell;
        }
        self.cand[d] &= !PEER_BOARDS[i];
        self.changed |= 1 << d;
    }

    /// Naked and hidden singles until neither applies; false on a contradiction (an empty
    /// cell with no candidate, or a digit with no place left in a unit that lacks it).
    fn propagate(&mut self) -> bool {
        loop {
            let (mut once, mut twice) = (0, 0);
            for &c in &self.cand {
                twice |= once & c;
                once |= c;
            }
            if self.empty & !once != 0 {
                return false;
            }
            let mut changed = false;
            let mut singles = self.empty & !twice;
            while singles != 0 {
                let cell = singles & singles.wrapping_neg();
                singles ^= cell;
                // A single placed earlier in this loop may have taken its last candidate.
                let Some(d) = (0..9).find(|&d| self.cand[d] & cell != 0) else {
                    return false;
                };
                self.place(d, cell);
                changed = true;
            }
            let mut digits = std::mem::take(&mut self.changed);
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let mut units = !self.placed_units[d] & ALL_UNITS;
                while units != 0 {
                    let u = units.trailing_zeros() as usize;
                    units &= units - 1;
                    // A hidden single placed earlier in this loop may stand in this unit.
                    if self.placed_units[d] >> u & 1 != 0 {
                        continue;
                    }
                    let here = self.cand[d] & UNITS[u];
                    if here == 0 {
                        return false;
                    }
                    if here & (here - 1) == 0 {
                        self.place(d, here);
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// The first empty cell in row-major order with the fewest candidates.
    fn branch_cell(&self) -> Board {
        let (mut once, mut twice, mut thrice) = (0, 0, 0);
        for &c in &self.cand {
            thrice |= twice & c;
            twice |= once & c;
            once |= c;
        }
        let pairs = self.empty & twice & !thrice;
        if pairs != 0 {
            return pairs & pairs.wrapping_neg();
        }
        let mut best = (0, u32::MAX);
        let mut m = self.empty;
        while m != 0 {
            let cell = m & m.wrapping_neg();
            m ^= cell;
            let n = self.cand.iter().filter(|&&c| c & cell != 0).count() as u32;
            if n < best.1 {
                best = (cell, n);
            }
        }
        best.0
    }

    /// The first solution below this state, in the order of the `singles` search.
    fn first_solution(mut self) -> Option<State> {
        if !self.propagate() {
            return None;
        }
        if self.empty == 0 {
            return Some(self);
        }
        let cell = self.branch_cell();
        for d in 0..9 {
            if self.cand[d] & cell != 0 {
                let mut next = self;
                next.place(d, cell);
                if let Some(done) = next.first_solution() {
                    return Some(done);
                }
            }
        }
        None
    }

    /// The grid of the digits placed.
    fn grid(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (d, &board) in self.placed.iter().enumerate() {
            let mut m = board;
            while m != 0 {
                cells[m.trailing_zeros() as usize] = d as u8 + 1;
                m &= m - 1;
            }
        }
        Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
    }
}

/// The first solution of `grid` that the `singles` strategy finds, or `None` when it has none.
pub fn first_solution(grid: &Grid) -> Option<Grid> {
    let mut state = State {
        cand: [ALL_CELLS; 9],
        placed: [0; 9],
        empty: ALL_CELLS,
        placed_units: [0; 9],
        changed: 0x1FF,
    };
    for (i, &v) in grid.cells().iter().enumerate() {
        if v != 0 {
            let (d, cell) = (v as usize - 1, 1 << i);
            if state.cand[d] & cell == 0 {
                return None; // the digit stands in a peer already
            }
            state.place(d, cell);
        }
    }
    state.first_solution().map(|s| s.grid())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;
    use crate::solver::{Limits, SinglesSolver, Solver};

    /// Partly filled grids of every density, some with no solution or conflicting clues:
    /// the first solution must be the one `singles` finds, or none when it finds none.
    #[test]
    fn agrees_with_the_singles_strategy() {
        let mut singles = SinglesSolver::new();
        let mut rng = Rng::new(31);
        let mut solved = 0;
        for n in 0..600 {
            let mut g = Grid::EMPTY;
            for _ in 0..(n % 30) {
                g.set(rng.below(CELLS), rng.below(9) as u8 + 1);
            }
            let want = singles.solve(&g, Limits::count_to(1)).solution;
            assert_eq!(first_solution(&g), want, "{g}");
            solved += want.is_some() as usize;
        }
        // Both kinds were met.
        assert!((100..600).contains(&solved), "{solved}");
    }
}
