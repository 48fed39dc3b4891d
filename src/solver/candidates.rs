//! The `candidates` strategy: candidate lists with an undo log, naked-single propagation,
//! fewest-candidates branching.
//!
//! Every empty cell keeps its list of candidate digits, held as elimination counts:
//! `removed[cell][d - 1]` is the number of placed peers that hold `d`, and `d` is a candidate
//! of an empty cell while that count is 0; `count[cell]` is the length of the list. Assigning
//! `d` to a cell adds one to the count of `d` in each of its 20 peers and appends the cell to
//! the trail, the undo log. Undoing an assignment subtracts those ones again, so a candidate
//! eliminated by two assignments comes back only when both are undone, and undoing the trail
//! back to a mark restores exactly the state at the mark.
//!
//! A peer left with one candidate goes on a queue and is filled in turn, cascading
//! (naked-single propagation); a peer left with none fails the branch. An assignment always
//! finishes updating all 20 peers before it reports the failure, so that its undo is exact.
//! Then the search branches on the empty cell with the fewest candidates (minimum remaining
//! values, the first such cell in row-major order), trying its candidates in increasing order.
//! A branch point is a frame on an explicit stack: the trail length before it, its cell, and the
//! candidates still to try; each try first undoes the trail back to that length. The trail, the
//! queue and the stack are `Vec`s kept in the solver and reused, so a puzzle allocates nothing
//! once they have grown.
//!
//! Every digit tried at a branch point counts as a guess except the last candidate left, which
//! by then is forced (the same rule as `singles`).

use super::trace::{NoTrace, Reason, Trace};
use super::{Limits, Outcome, Solver};
use crate::grid::{CELLS, Grid, PEERS};

/// A branch point: the trail length before it, its cell, and the candidates not yet tried.
#[derive(Debug)]
struct Frame {
    mark: usize,
    cell: u8,
    left: u16,
    depth: u32,
}

/// Solver of the `candidates` strategy. See the module documentation.
#[derive(Debug)]
pub struct CandidatesSolver {
    /// Digits placed, 0 for empty.
    grid: [u8; CELLS],
    /// For each cell and digit, how many placed peers hold that digit.
    removed: [[u8; 9]; CELLS],
    /// For each empty cell, how many candidates it has left.
    count: [u8; CELLS],
    /// Number of filled cells.
    filled: usize,
    /// The undo log: assigned cells, in order.
    trail: Vec<u8>,
    /// Empty cells left with one candidate, waiting to be filled.
    singles: Vec<u8>,
    /// Open branch points, innermost last.
    stack: Vec<Frame>,
}

impl Default for CandidatesSolver {
    fn default() -> Self {
        CandidatesSolver {
            grid: [0; CELLS],
            removed: [[0; 9]; CELLS],
            count: [9; CELLS],
            filled: 0,
            trail: Vec::new(),
            singles: Vec::new(),
            stack: Vec::new(),
        }
    }
}

impl CandidatesSolver {
    /// A new solver.
    pub fn new() -> Self {
        Self::default()
    }

    /// The candidates of `cell` as a mask, bit `d - 1` for digit `d`.
    fn candidates(&self, cell: usize) -> u16 {
        let mut mask = 0;
        for (k, &n) in self.removed[cell].iter().enumerate() {
            if n == 0 {
                mask |= 1 << k;
            }
        }
        mask
    }

    /// Assigns `digit` to the empty `cell`; false if it is not a candidate there or a peer is
    /// left without candidates. Every change is on the trail, whatever the result.
    fn assign(&mut self, cell: usize, digit: u8) -> bool {
        let k = digit as usize - 1;
        if self.removed[cell][k] != 0 {
            return false;
        }
        self.grid[cell] = digit;
        self.filled += 1;
        self.trail.push(cell as u8);
        let mut ok = true;
        for &p in &PEERS[cell] {
            let p = p as usize;
            self.removed[p][k] += 1;
            if self.removed[p][k] == 1 && self.grid[p] == 0 {
                self.count[p] -= 1;
                match self.count[p] {
                    0 => ok = false,
                    1 => self.singles.push(p as u8),
                    _ => {}
                }
            }
        }
        ok
    }

    /// Undoes the assignments on the trail after its first `mark` entries, latest first.
    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let Some(cell) = self.trail.pop() else { break };
            let cell = cell as usize;
            let k = self.grid[cell] as usize - 1;
            self.grid[cell] = 0;
            self.filled -= 1;
            // Undone in reverse order, each peer is empty now exactly when it was empty at
            // the assignment, so the candidate counts come back as they were.
            for &p in &PEERS[cell] {
                let p = p as usize;
                self.removed[p][k] -= 1;
                if self.removed[p][k] == 0 && self.grid[p] == 0 {
                    self.count[p] += 1;
                }
            }
        }
    }

    /// Fills the queued naked singles, cascading; false on a contradiction.
    fn propagate<T: Trace>(&mut self, trace: &mut T) -> bool {
        while let Some(cell) = self.singles.pop() {
            let cell = cell as usize;
            if self.grid[cell] != 0 {
                continue;
            }
            let digit = self.candidates(cell).trailing_zeros() as u8 + 1;
            trace.place(cell, digit, Reason::NakedSingle);
            if !self.assign(cell, digit) {
                return false;
            }
        }
        true
    }

    /// The empty cell with the fewest candidates, the first in row-major order on a tie.
    fn fewest(&self) -> usize {
        let mut best = 0;
        let mut best_count = u8::MAX;
        for cell in 0..CELLS {
            if self.grid[cell] == 0 && self.count[cell] < best_count {
                best = cell;
                best_count = self.count[cell];
                if best_count <= 2 {
                    break;
                }
            }
        }
        best
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
        self.grid = [0; CELLS];
        self.removed = [[0; 9]; CELLS];
        self.count = [9; CELLS];
        self.filled = 0;
        self.trail.clear();
        self.singles.clear();
        self.stack.clear();
        for (cell, &d) in puzzle.cells().iter().enumerate() {
            // `assign` refuses a digit a peer already holds, which catches conflicting clues.
            if d != 0 && !self.assign(cell, d) {
                return out;
            }
        }
        let mut depth = 0;
        let mut ok = self.propagate(trace);
        loop {
            if ok {
                if self.filled == CELLS {
                    // Only digits 1-9 are ever placed, so the grid is valid.
                    let g = Grid::from_cells(self.grid).unwrap_or(Grid::EMPTY);
                    out.found(g, on_solution);
                    if out.solutions >= limits.solutions.max(1) {
                        return out;
                    }
                } else {
                    let cell = self.fewest();
                    self.stack.push(Frame {
                        mark: self.trail.len(),
                        cell: cell as u8,
                        left: self.candidates(cell),
                        depth: depth + 1,
                    });
                }
            } else {
                self.singles.clear();
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
            let (cell, mark, left) = (top.cell as usize, top.mark, top.left);
            depth = top.depth;
            if left == 0 {
                self.stack.pop();
            }
            self.undo_to(mark);
            if left == 0 {
                trace.place(cell, digit, Reason::LastAlternative);
            } else {
                if !out.spend_guess(limits) {
                    return out;
                }
                trace.guess(depth as usize, cell, digit, left);
            }
            ok = self.assign(cell, digit) && self.propagate(trace);
        }
    }
}

impl Solver for CandidatesSolver {
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
        check_strategy(Strategy::Candidates);
    }

    /// r1c1 and r5c5 of an empty grid both eliminate 5 from r1c5; undoing one assignment must
    /// leave 5 eliminated, undoing both must bring it back.
    #[test]
    fn undo_restores_a_doubly_removed_candidate_only_when_both_are_undone() {
        let mut s = CandidatesSolver::new();
        s.run(&Grid::EMPTY, Limits::count_to(1), &mut |_| {}, &mut NoTrace);
        // Start over from an empty state by hand.
        s.undo_to(0);
        assert_eq!(s.filled, 0);
        assert!(s.count.iter().all(|&n| n == 9));
        assert!(s.assign(0, 5));
        assert!(s.assign(40, 5));
        assert_eq!(s.candidates(4) & (1 << 4), 0);
        assert_eq!(s.count[4], 8);
        s.undo_to(1);
        assert_eq!(s.candidates(4) & (1 << 4), 0, "still removed by r1c1");
        s.undo_to(0);
        assert_eq!(s.candidates(4), 0x1FF);
        assert_eq!(s.count[4], 9);
        assert!(s.removed.iter().all(|r| r.iter().all(|&n| n == 0)));
    }
}
