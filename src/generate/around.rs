//! The rules of a neighbourhood search that the command line and the Python package share:
//! which seed puzzles it accepts ([`seed_problem`]), and which of the neighbours found, in
//! index order, it keeps ([`Neighbours`]): never a seed, never one kept before, and no more
//! once [`REPEATS`] in a row were repeats (the neighbourhood is spent).

use std::collections::HashSet;

use crate::grid::Grid;
use crate::solver::{Limits, Solver};

/// Neighbours made per round: each takes long (a rating of the hard end), so a round is
/// short, and it ends where the count asked for is reached.
pub const ROUND: usize = 16;

/// Neighbours found in a row that repeat a seed or an earlier one, after which the search
/// gives up.
pub const REPEATS: u64 = 1000;

/// Why `seed` cannot be searched around (it must have exactly one solution), if it cannot.
pub fn seed_problem(seed: &Grid, solver: &mut dyn Solver) -> Option<&'static str> {
    match solver.solve(seed, Limits::count_to(2)).solutions {
        1 => None,
        0 => Some("the puzzle has no solution"),
        _ => Some("the puzzle has more than one solution"),
    }
}

/// What became of a neighbour offered to [`Neighbours::offer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offered {
    /// A new puzzle: keep it.
    New,
    /// A seed or a puzzle kept before: pass it over.
    Repeat,
    /// The last [`REPEATS`] offered were all repeats: stop.
    Spent,
}

/// The seeds and the puzzles kept so far, with the repeats in a row.
#[derive(Debug, Clone)]
pub struct Neighbours {
    seen: HashSet<Grid>,
    repeats: u64,
}

impl Neighbours {
    /// A search around `seeds`, nothing kept yet.
    pub fn new(seeds: &[Grid]) -> Neighbours {
        Neighbours {
            seen: seeds.iter().copied().collect(),
            repeats: 0,
        }
    }

    /// Whether `found`, the next neighbour in index order, is kept.
    pub fn offer(&mut self, found: Grid) -> Offered {
        if self.seen.insert(found) {
            self.repeats = 0;
            return Offered::New;
        }
        self.repeats += 1;
        if self.repeats >= REPEATS {
            Offered::Spent
        } else {
            Offered::Repeat
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Strategy;

    #[test]
    fn seeds_and_repeats_are_passed_over_until_the_neighbourhood_is_spent() {
        let seed: Grid = ".".repeat(81).parse().unwrap();
        let mut other = seed;
        other.set(0, 1);
        let mut n = Neighbours::new(&[seed]);
        assert_eq!(n.offer(seed), Offered::Repeat);
        assert_eq!(n.offer(other), Offered::New);
        for _ in 0..REPEATS - 1 {
            assert_eq!(n.offer(other), Offered::Repeat);
        }
        assert_eq!(n.offer(seed), Offered::Spent);
        // A new one in between starts the count again.
        let mut n = Neighbours::new(&[seed]);
        for _ in 0..REPEATS - 1 {
            assert_eq!(n.offer(seed), Offered::Repeat);
        }
        assert_eq!(n.offer(other), Offered::New);
        assert_eq!(n.offer(seed), Offered::Repeat);
    }

    #[test]
    fn a_seed_needs_exactly_one_solution() {
        let mut solver = Strategy::default().solver();
        let unique: Grid =
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
                .parse()
                .unwrap();
        assert_eq!(seed_problem(&unique, &mut *solver), None);
        let open: Grid = ".".repeat(81).parse().unwrap();
        assert_eq!(
            seed_problem(&open, &mut *solver),
            Some("the puzzle has more than one solution")
        );
        let mut none = unique;
        none.set(1, 1);
        assert_eq!(
            seed_problem(&none, &mut *solver),
            Some("the puzzle has no solution")
        );
    }
}
