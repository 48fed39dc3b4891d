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

use super::masks::Masks;
use super::trace::{NoTrace, Reason, Trace};
use super::{Limits, Outcome, Solver};
use crate::grid::Grid;

/// Fills naked singles until none is left; false on a contradiction.
fn propagate<T: Trace>(state: &mut Masks, trace: &mut T) -> bool {
    loop {
        match state.naked_singles(trace) {
            None => return false,
            Some(true) => {}
            Some(false) => return true,
        }
    }
}

/// A branch point: the state before it, its cell, and the candidates not yet tried there.
struct Frame {
    state: Masks,
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
        let Some(mut cur) = Masks::of(puzzle) else {
            return out; // conflicting clues
        };
        let mut depth = 0;
        let mut ok = propagate(&mut cur, trace);
        loop {
            if ok {
                if cur.is_full() {
                    out.found(cur.grid(), on_solution);
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
                if !out.spend_guess(limits) {
                    return out;
                }
                trace.guess(depth as usize, cell, digit, top.left);
            }
            ok = cur.place(cell, digit) && propagate(&mut cur, trace);
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
