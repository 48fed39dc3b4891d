//! Puzzle generation: seeded random solution grids, minimal unique puzzles made from them, and
//! the other kinds of record (several solutions, no solution, conflicting clues) that tests and
//! sample corpora need.
//!
//! Everything here is driven by [`Rng`], a small SplitMix64 generator of our own, so the same
//! seed gives the same puzzles on every platform and every version of our dependencies.

use crate::grid::{CELLS, Grid, PEERS};
use crate::solver::{Limits, Solver};

/// A seeded SplitMix64 random number generator: fast, tiny and stable across versions.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), without modulo bias worth measuring for small `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Shuffles `items` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A random complete grid.
///
/// Drops a few random non-conflicting digits on an empty grid, takes the first solution the
/// solver finds, then relabels the digits at random so that the solver's digit order leaves no
/// trace.
pub fn random_solution(rng: &mut Rng, solver: &mut dyn Solver) -> Grid {
    loop {
        let mut g = Grid::EMPTY;
        for _ in 0..11 {
            let cell = rng.below(CELLS);
            let digit = rng.below(9) as u8 + 1;
            if g.get(cell) == 0 && PEERS[cell].iter().all(|&p| g.get(p as usize) != digit) {
                g.set(cell, digit);
            }
        }
        if let Some(solution) = solver.solve(&g, Limits::count_to(1)).solution {
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

/// A minimal puzzle with exactly one solution, `solution`: starts from the full grid and
/// removes clues in random order, keeping each clue whose removal would allow a second solution.
pub fn minimal_puzzle(rng: &mut Rng, solution: &Grid, solver: &mut dyn Solver) -> Grid {
    let mut order: Vec<usize> = (0..CELLS).collect();
    rng.shuffle(&mut order);
    let mut puzzle = *solution;
    for cell in order {
        let digit = puzzle.get(cell);
        puzzle.set(cell, 0);
        if solver.solve(&puzzle, Limits::count_to(2)).solutions != 1 {
            puzzle.set(cell, digit);
        }
    }
    puzzle
}

/// The kinds of record [`mixed_puzzle`] makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Minimal, exactly one solution.
    Minimal,
    /// Exactly one solution, with some clues from the solution added back (easier).
    Easy,
    /// Two or more solutions: a minimal puzzle with clues removed.
    Multiple,
    /// No solution, though no digit is given twice in a unit.
    Unsolvable,
    /// A digit given twice in a unit.
    Conflicting,
}

/// A puzzle of `kind` made from a fresh random solution grid.
pub fn mixed_puzzle(rng: &mut Rng, kind: Kind, solver: &mut dyn Solver) -> Grid {
    let solution = random_solution(rng, solver);
    let mut puzzle = minimal_puzzle(rng, &solution, solver);
    let blanks = |p: &Grid| (0..CELLS).filter(|&i| p.get(i) == 0).collect::<Vec<_>>();
    let clues = |p: &Grid| (0..CELLS).filter(|&i| p.get(i) != 0).collect::<Vec<_>>();
    match kind {
        Kind::Minimal => {}
        Kind::Easy => {
            let mut b = blanks(&puzzle);
            rng.shuffle(&mut b);
            let extra = 5 + rng.below(20);
            for &i in b.iter().take(extra) {
                puzzle.set(i, solution.get(i));
            }
        }
        Kind::Multiple => {
            let mut c = clues(&puzzle);
            rng.shuffle(&mut c);
            for &i in c.iter().take(1 + rng.below(4)) {
                puzzle.set(i, 0);
            }
        }
        Kind::Unsolvable => {
            // A clue that contradicts the unique solution without repeating a digit in a unit:
            // any solution would also solve the minimal puzzle, whose only solution differs here.
            let mut b = blanks(&puzzle);
            rng.shuffle(&mut b);
            for i in b {
                let allowed: Vec<u8> = (1..=9)
                    .filter(|&d| d != solution.get(i))
                    .filter(|&d| PEERS[i].iter().all(|&p| puzzle.get(p as usize) != d))
                    .collect();
                if !allowed.is_empty() {
                    puzzle.set(i, allowed[rng.below(allowed.len())]);
                    break;
                }
            }
        }
        Kind::Conflicting => {
            let c = clues(&puzzle);
            let from = c[rng.below(c.len())];
            let peers: Vec<usize> = PEERS[from]
                .iter()
                .map(|&p| p as usize)
                .filter(|&p| puzzle.get(p) == 0)
                .collect();
            if let Some(&to) = peers.get(rng.below(peers.len().max(1))) {
                puzzle.set(to, puzzle.get(from));
            }
        }
    }
    puzzle
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Strategy;

    #[test]
    fn same_seed_same_puzzles() {
        let mut s = Strategy::default().solver();
        let a = mixed_puzzle(&mut Rng::new(7), Kind::Minimal, &mut *s);
        let b = mixed_puzzle(&mut Rng::new(7), Kind::Minimal, &mut *s);
        assert_eq!(a, b);
        assert_ne!(a, mixed_puzzle(&mut Rng::new(8), Kind::Minimal, &mut *s));
    }

    #[test]
    fn every_kind_is_what_it_says() {
        let mut s = Strategy::default().solver();
        let mut rng = Rng::new(42);
        for _ in 0..10 {
            let count = |k, s: &mut dyn Solver, rng: &mut Rng| {
                let p = mixed_puzzle(rng, k, s);
                (p, s.solve(&p, Limits::count_to(2)).solutions)
            };
            let (p, n) = count(Kind::Minimal, &mut *s, &mut rng);
            assert_eq!(n, 1);
            for i in 0..CELLS {
                if p.get(i) != 0 {
                    let mut q = p;
                    q.set(i, 0);
                    assert_eq!(s.solve(&q, Limits::count_to(2)).solutions, 2, "minimal");
                }
            }
            assert_eq!(count(Kind::Easy, &mut *s, &mut rng).1, 1);
            assert_eq!(count(Kind::Multiple, &mut *s, &mut rng).1, 2);
            let (p, n) = count(Kind::Unsolvable, &mut *s, &mut rng);
            assert_eq!((n, p.conflict()), (0, None));
            let (p, n) = count(Kind::Conflicting, &mut *s, &mut rng);
            assert!(n == 0 && p.conflict().is_some());
        }
    }
}
