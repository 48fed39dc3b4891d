//! The `backtrack` strategy: the plain depth-first search, with no candidates and no
//! propagation.
//!
//! The empty cells are listed once in row-major order. The search walks that list: in each
//! cell it tries the digits above the one it holds (1 to 9 on the first visit), in increasing
//! order, checking each for a conflict by scanning the cell's row, column and box. The first
//! digit that fits is placed and the search moves to the next empty cell; when no digit fits
//! (a dead end) the cell is cleared and the search steps back to the previous empty cell to
//! try its next digit. Reaching the end of the list is a solution; to look for more the search
//! steps back from the last cell as from a dead end. It is iterative: the list index and the
//! digits in the grid are the whole search state, so nothing is saved and nothing recursed.
//!
//! Every digit placed counts as a guess, even when it is the only digit that could fit: this
//! strategy does not know which digits are forced. Digits rejected by the conflict scan are not
//! counted. With a budget of `n` guesses the search aborts when it is about to place digit
//! `n + 1`, so an aborted search reports exactly `n` guesses.
//!
//! The search never places a digit that conflicts with the grid, so it would happily fill in
//! around clues that conflict with each other: those puzzles are rejected up front (0
//! solutions). Plain backtracking can need billions of steps on hard puzzles with few clues,
//! which is why the guess budget matters most here.

use super::trace::{NoTrace, Trace};
use super::{Limits, Outcome, Solver};
use crate::grid::{CELLS, Grid};

/// Solver of the `backtrack` strategy. See the module documentation.
#[derive(Debug, Default)]
pub struct BacktrackSolver {
    /// The empty cells of the current puzzle, row-major; kept to reuse its allocation.
    empties: Vec<u8>,
}

/// True when `digit` is not in the row, column or box of `cell`.
fn fits(grid: &[u8; CELLS], cell: usize, digit: u8) -> bool {
    let (r, c) = (cell / 9, cell % 9);
    let (r0, c0) = (r / 3 * 3, c / 3 * 3);
    for k in 0..9 {
        if grid[r * 9 + k] == digit
            || grid[k * 9 + c] == digit
            || grid[(r0 + k / 3) * 9 + c0 + k % 3] == digit
        {
            return false;
        }
    }
    true
}

impl BacktrackSolver {
    /// A new solver.
    pub fn new() -> Self {
        Self::default()
    }

    /// The search, reporting its steps to `trace`.
    pub(crate) fn run<T: Trace>(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
        trace: &mut T,
    ) -> Outcome {
        let mut out = Outcome::default();
        if puzzle.conflict().is_some() {
            return out;
        }
        let mut grid = *puzzle.cells();
        self.empties.clear();
        self.empties
            .extend((0..CELLS).filter(|&i| grid[i] == 0).map(|i| i as u8));
        let n = self.empties.len();
        // Index in `empties` of the cell being filled; `i == n` means the grid is full.
        let mut i = 0;
        loop {
            if i == n {
                // Only fitting digits are placed, so a full grid is a solution.
                let g = Grid::from_cells(grid).unwrap_or(Grid::EMPTY);
                out.found(g, on_solution);
                if out.solutions >= limits.solutions.max(1) || n == 0 {
                    return out;
                }
                // Look for the next solution: the last cell tries its next digit.
                i = n - 1;
                continue;
            }
            let cell = self.empties[i] as usize;
            let from = grid[cell] + 1;
            // Clear the cell first so that its own old digit does not block the scan.
            grid[cell] = 0;
            match (from..=9).find(|&d| fits(&grid, cell, d)) {
                Some(d) => {
                    if !out.spend_guess(limits) {
                        return out;
                    }
                    // Digits above `d` are still to try here: bits d..9 of the mask.
                    trace.guess(i + 1, cell, d, 0x1FF & !((1u16 << d) - 1));
                    grid[cell] = d;
                    i += 1;
                }
                None => {
                    trace.dead_end(i + 1, i);
                    if i == 0 {
                        return out;
                    }
                    i -= 1;
                }
            }
        }
    }
}

impl Solver for BacktrackSolver {
    fn solve_with(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome {
        self.run(puzzle, limits, on_solution, &mut NoTrace)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Strategy, tests::check_strategy};
    use super::*;

    #[test]
    fn passes_the_shared_checks() {
        check_strategy(Strategy::Backtrack);
    }

    /// The 17-clue puzzle built to resist plain backtracking (its first row is blank and its
    /// solution starts 987654321): far more than 1000 guesses are needed, so the budget must
    /// stop the search with exactly the budget spent.
    #[test]
    fn guess_budget_aborts_with_the_budget_spent() {
        let g: Grid =
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
                .parse()
                .unwrap();
        let limits = Limits {
            guesses: Some(1000),
            ..Limits::count_to(2)
        };
        let out = BacktrackSolver::new().solve(&g, limits);
        assert!(out.aborted);
        assert_eq!(out.guesses, 1000);
        assert_eq!(out.solutions, 0);
    }

    #[test]
    fn every_placed_digit_is_a_guess() {
        // One blank: the only digit that fits is placed, and counted.
        let mut g: Grid = super::super::tests::PUBLISHED_SOLUTION_3.parse().unwrap();
        g.set(40, 0);
        let out = BacktrackSolver::new().solve(&g, Limits::count_to(2));
        assert_eq!((out.solutions, out.guesses), (1, 1));
    }
}
