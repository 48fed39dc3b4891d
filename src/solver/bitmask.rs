//! The `bitmask` strategy: 9-bit candidate masks, naked singles, fewest-candidates branching
//! on an explicit stack of saved states.
//!
//! Each empty cell keeps a mask of the digits still possible in it:
//!
//! ```text
//!   bit  8 7 6 5 4 3 2 1 0
//! digit  9 8 7 6 5 4 3 2 1      e.g. 0b0_0010_0101 = {1, 3, 6}
//! ```
//!
//! Placing a digit clears its bit in the masks of the cell's 20 peers; a peer left with an
//! empty mask is a contradiction. Propagation fills naked singles (cells whose mask has one
//! bit) until none is left; this strategy does no hidden singles. Then it branches on the empty
//! cell with the fewest candidates (minimum remaining values, the first such cell in row-major
//! order), trying its candidates in increasing order. Before the first try the whole grid state
//! (masks, digits, count) is pushed on an explicit stack, a `Vec` kept in the solver and reused
//! for every puzzle; each later try restores that saved state, so a failed branch is undone by
//! one copy. There is no recursion: a frame holds the saved state, the branch cell and the
//! candidates still to try, and is popped as its last candidate is taken.
//!
//! Every digit tried at a branch point counts as a guess except the last candidate left, which
//! by then is forced (the same rule as `singles`).

use super::trace::{NoTrace, Reason, Trace};
use super::{Limits, Outcome, Solver};
use crate::grid::{CELLS, Grid, PEERS};

const ALL: u16 = 0x1FF;

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
    const START: State = State {
        cand: [ALL; CELLS],
        grid: [0; CELLS],
        filled: 0,
    };

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

    /// Fills naked singles until none is left; false on a contradiction.
    fn propagate<T: Trace>(&mut self, trace: &mut T) -> bool {
        loop {
            let mut changed = false;
            for cell in 0..CELLS {
                if self.grid[cell] == 0 {
                    let m = self.cand[cell];
                    if m == 0 {
                        return false;
                    }
                    if m & (m - 1) == 0 {
                        let digit = m.trailing_zeros() as u8 + 1;
                        trace.place(cell, digit, Reason::NakedSingle);
                        if !self.place(cell, digit) {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// The empty cell with the fewest candidates, the first in row-major order on a tie.
    /// After propagation no empty cell has fewer than 2, so 2 ends the scan early.
    fn fewest(&self) -> usize {
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

/// A branch point: the state before it, its cell, and the candidates not yet tried there.
struct Frame {
    state: State,
    cell: u8,
    left: u16,
    depth: u32,
}

/// Solver of the `bitmask` strategy. See the module documentation.
#[derive(Default)]
pub struct BitmaskSolver {
    /// The explicit search stack, reused from puzzle to puzzle.
    stack: Vec<Frame>,
}

impl std::fmt::Debug for BitmaskSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BitmaskSolver").finish_non_exhaustive()
    }
}

impl BitmaskSolver {
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
        self.stack.clear();
        let mut cur = State::START;
        // `place` refuses a digit already removed by a peer, which catches conflicting clues.
        let clues_fit = puzzle
            .cells()
            .iter()
            .enumerate()
            .all(|(cell, &d)| d == 0 || cur.place(cell, d));
        if !clues_fit {
            return out;
        }
        let mut depth = 0;
        let mut ok = cur.propagate(trace);
        loop {
            if ok {
                if cur.filled as usize == CELLS {
                    // Only digits 1-9 are ever placed, so the grid is valid.
                    let g = Grid::from_cells(cur.grid).unwrap_or(Grid::EMPTY);
                    out.solutions += 1;
                    out.solution.get_or_insert(g);
                    on_solution(&g);
                    if out.solutions >= limits.solutions.max(1) {
                        return out;
                    }
                } else {
                    let cell = cur.fewest();
                    self.stack.push(Frame {
                        state: cur,
                        cell: cell as u8,
                        left: cur.cand[cell],
                        depth: depth + 1,
                    });
                }
            } else {
                let back_to = self.stack.last().map_or(0, |f| f.depth);
                trace.dead_end(depth as usize, back_to as usize);
            }
            // Try the next candidate of the deepest open branch point.
            let Some(top) = self.stack.last_mut() else {
                return out;
            };
            let bit = top.left & top.left.wrapping_neg();
            top.left ^= bit;
            let digit = bit.trailing_zeros() as u8 + 1;
            let cell = top.cell as usize;
            cur = top.state;
            depth = top.depth;
            if top.left == 0 {
                self.stack.pop();
                trace.place(cell, digit, Reason::LastAlternative);
            } else {
                if limits.guesses.is_some_and(|b| out.guesses >= b) {
                    out.aborted = true;
                    return out;
                }
                out.guesses += 1;
                trace.guess(depth as usize, cell, digit, top.left);
            }
            ok = cur.place(cell, digit) && cur.propagate(trace);
        }
    }
}

impl Solver for BitmaskSolver {
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

    #[test]
    fn passes_the_shared_checks() {
        check_strategy(Strategy::Bitmask);
    }
}
