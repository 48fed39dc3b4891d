//! Symmetric clue patterns: the [`Symmetry`] of a pattern, its orbits of cells, and puzzles
//! whose clues keep it, minimal orbit by orbit ([`symmetric_puzzle`]).

use super::{Rng, minimal_puzzle};
use crate::grid::{CELLS, Grid};
use crate::solver::{Limits, Solver};

/// A symmetry of the clue pattern: a clue stands in a cell exactly when it stands in every
/// cell of that cell's orbit (the cells the symmetry maps it to).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Symmetry {
    /// No constraint on the pattern.
    #[default]
    None,
    /// Half-turn rotation about the centre: r,c <-> 10-r,10-c.
    Rotational,
    /// Quarter-turn rotation about the centre: orbits of four cells.
    QuarterTurn,
    /// Left-right mirror: r,c <-> r,10-c.
    Mirror,
    /// Top-bottom mirror: r,c <-> 10-r,c.
    Flip,
    /// Reflection in the main diagonal: r,c <-> c,r.
    Diagonal,
    /// Reflection in the anti-diagonal: r,c <-> 10-c,10-r.
    AntiDiagonal,
}

impl Symmetry {
    /// The 0-based cell that `cell` maps to under one step of the symmetry.
    fn image(self, cell: usize) -> usize {
        let (r, c) = (cell / 9, cell % 9);
        let (r, c) = match self {
            Symmetry::None => (r, c),
            Symmetry::Rotational => (8 - r, 8 - c),
            Symmetry::QuarterTurn => (c, 8 - r),
            Symmetry::Mirror => (r, 8 - c),
            Symmetry::Flip => (8 - r, c),
            Symmetry::Diagonal => (c, r),
            Symmetry::AntiDiagonal => (8 - c, 8 - r),
        };
        r * 9 + c
    }

    /// The orbit of `cell`: every cell the symmetry maps it to, itself included, in order of
    /// first reach.
    pub fn orbit(self, cell: usize) -> Vec<usize> {
        let mut orbit = vec![cell];
        let mut next = self.image(cell);
        while next != cell {
            orbit.push(next);
            next = self.image(next);
        }
        orbit
    }

    /// Every orbit, each listed once, ordered by its smallest cell.
    pub fn orbits(self) -> Vec<Vec<usize>> {
        (0..CELLS)
            .map(|c| self.orbit(c))
            .filter(|o| o.iter().all(|&c| c >= o[0]))
            .collect()
    }

    /// True when `grid`'s clue pattern has this symmetry.
    pub fn holds_for(self, grid: &Grid) -> bool {
        (0..CELLS).all(|c| (grid.get(c) == 0) == (grid.get(self.image(c)) == 0))
    }
}

/// A puzzle with exactly one solution, `solution`, whose clue pattern has `symmetry` and from
/// which no orbit of clues can be removed without allowing a second solution: orbits are
/// removed in random order and each one whose removal breaks uniqueness is put back. With
/// [`Symmetry::None`] the orbits are single cells, so this is [`minimal_puzzle`] itself (the same
/// puzzle for the same `rng`); with another symmetry, single clues may still be redundant.
pub fn symmetric_puzzle(
    rng: &mut Rng,
    solution: &Grid,
    solver: &mut dyn Solver,
    symmetry: Symmetry,
) -> Grid {
    if symmetry == Symmetry::None {
        return minimal_puzzle(rng, solution, solver);
    }
    let mut orbits = symmetry.orbits();
    rng.shuffle(&mut orbits);
    let mut puzzle = *solution;
    for orbit in orbits {
        for &cell in &orbit {
            puzzle.set(cell, 0);
        }
        if solver.solve(&puzzle, Limits::count_to(2)).solutions != 1 {
            for &cell in &orbit {
                puzzle.set(cell, solution.get(cell));
            }
        }
    }
    puzzle
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Strategy;
    use crate::generate::random_solution;

    #[test]
    fn orbits_cover_every_cell_once() {
        for sym in [
            Symmetry::None,
            Symmetry::Rotational,
            Symmetry::QuarterTurn,
            Symmetry::Mirror,
            Symmetry::Flip,
            Symmetry::Diagonal,
            Symmetry::AntiDiagonal,
        ] {
            let mut cells: Vec<usize> = sym.orbits().concat();
            cells.sort_unstable();
            assert_eq!(cells, (0..CELLS).collect::<Vec<_>>(), "{sym:?}");
        }
        assert_eq!(Symmetry::Rotational.orbit(0), vec![0, 80]);
        assert_eq!(Symmetry::QuarterTurn.orbit(0), vec![0, 8, 80, 72]);
        assert_eq!(Symmetry::Diagonal.orbit(1), vec![1, 9]);
        assert_eq!(Symmetry::AntiDiagonal.orbit(0), vec![0, 80]);
        assert_eq!(Symmetry::Mirror.orbit(40), vec![40]);
    }

    #[test]
    fn symmetric_puzzles_are_unique_and_orbit_minimal() {
        let mut s = Strategy::default().solver();
        let mut rng = Rng::new(3);
        for sym in [Symmetry::Rotational, Symmetry::Diagonal] {
            let solution = random_solution(&mut rng);
            let p = symmetric_puzzle(&mut rng, &solution, &mut *s, sym);
            assert!(sym.holds_for(&p), "{sym:?}: {p}");
            assert_eq!(s.solve(&p, Limits::count_to(2)).solutions, 1);
            for orbit in sym.orbits().iter().filter(|o| p.get(o[0]) != 0) {
                let mut q = p;
                orbit.iter().for_each(|&c| q.set(c, 0));
                assert_eq!(s.solve(&q, Limits::count_to(2)).solutions, 2, "{sym:?}");
            }
        }
    }
}
