//! The other kinds of record that tests and sample corpora need ([`Kind`]): easier puzzles,
//! puzzles of several solutions, of none, and with conflicting clues, each made from a fresh
//! minimal puzzle ([`mixed_puzzle`]).

use super::{Rng, minimal_puzzle, random_solution};
use crate::grid::{CELLS, Grid, PEERS};
use crate::solver::Solver;

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
    let solution = random_solution(rng);
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
    use crate::solver::Limits;

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
