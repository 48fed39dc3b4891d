//! Puzzle generation: seeded random solution grids, minimal unique puzzles made from them
//! (optionally with a symmetric clue pattern and a clue count within bounds, see [`Spec`]), and
//! the other kinds of record (several solutions, no solution, conflicting clues) that tests and
//! sample corpora need.
//!
//! Everything here is driven by [`Rng`], a small SplitMix64 generator of our own, so the same
//! seed gives the same puzzles on every platform and every version of our dependencies.
//!
//! This module makes solution grids and puzzles to a [`Spec`]; the `rng` module holds [`Rng`],
//! `minimal` takes clues away ([`minimise`]), `symmetry` keeps a clue pattern symmetric, `mixed`
//! makes the other kinds of record, `fill` finds a first solution and `search` looks for rated
//! puzzles; [`around`] holds the rules of a search next to given puzzles.

use crate::grid::{CELLS, Grid, PEERS};
use crate::solver::Solver;

pub mod around;
mod fill;
mod minimal;
mod mixed;
mod rng;
mod search;
mod symmetry;

pub use minimal::{minimal_puzzle, minimise};
pub use mixed::{Kind, mixed_puzzle};
pub use rng::{Rng, puzzle_rng};
pub use search::{close_neighbour, neighbour, rated_around, rated_puzzle};
pub use symmetry::{Symmetry, symmetric_puzzle};

/// Fewer clues never give exactly one solution (McGuire, Tugemann and Civario, 2012).
pub const MIN_UNIQUE_CLUES: usize = 17;

/// A random complete grid.
///
/// Drops a few random non-conflicting digits on an empty grid, takes the first solution the
/// `singles` strategy's search finds (see the `fill` module), then relabels the digits at random so that
/// the search's digit order leaves no trace.
pub fn random_solution(rng: &mut Rng) -> Grid {
    loop {
        let mut g = Grid::EMPTY;
        for _ in 0..11 {
            let cell = rng.below(CELLS);
            let digit = rng.below(9) as u8 + 1;
            if g.get(cell) == 0 && PEERS[cell].iter().all(|&p| g.get(p as usize) != digit) {
                g.set(cell, digit);
            }
        }
        if let Some(solution) = fill::first_solution(&g) {
            let mut labels = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
            rng.shuffle(&mut labels);
            return relabel(&solution, &labels);
        }
    }
}

/// `grid` with every digit `d` replaced by `labels[d - 1]`.
pub fn relabel(grid: &Grid, labels: &[u8; 9]) -> Grid {
    let mut out = *grid;
    for i in 0..CELLS {
        let v = grid.get(i);
        if v != 0 {
            out.set(i, labels[v as usize - 1]);
        }
    }
    out
}

/// What [`puzzle`] makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// The clue pattern's symmetry.
    pub symmetry: Symmetry,
    /// At least this many clues.
    pub min_clues: usize,
    /// At most this many clues.
    pub max_clues: usize,
    /// Draws per puzzle before giving up (at least 1).
    pub attempts: u64,
}

impl Default for Spec {
    /// No symmetry, any clue count, one draw.
    fn default() -> Self {
        Spec {
            symmetry: Symmetry::None,
            min_clues: 0,
            max_clues: CELLS,
            attempts: 1,
        }
    }
}

/// A puzzle to `spec`: a random solution grid reduced by [`symmetric_puzzle`]. The clue count of
/// such a puzzle is settled by the grid and the removal order, so when it falls outside the
/// bounds the whole draw is repeated (new grid, new order), up to `spec.attempts` times; `None`
/// when no draw fits. With the default spec this is the first draw, whatever it holds.
pub fn puzzle(rng: &mut Rng, spec: &Spec, counter: &mut dyn Solver) -> Option<Grid> {
    for _ in 0..spec.attempts.max(1) {
        let solution = random_solution(rng);
        let p = symmetric_puzzle(rng, &solution, counter, spec.symmetry);
        if (spec.min_clues..=spec.max_clues).contains(&p.clue_count()) {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Strategy;

    #[test]
    fn default_spec_is_the_plain_minimal_puzzle() {
        let mut t = Strategy::default().solver();
        let mut a = Rng::new(9);
        let got = puzzle(&mut a, &Spec::default(), &mut *t);
        let mut b = Rng::new(9);
        let solution = random_solution(&mut b);
        assert_eq!(got, Some(minimal_puzzle(&mut b, &solution, &mut *t)));
        let impossible = Spec {
            max_clues: 16,
            attempts: 2,
            ..Spec::default()
        };
        assert_eq!(puzzle(&mut a, &impossible, &mut *t), None);
    }
}
