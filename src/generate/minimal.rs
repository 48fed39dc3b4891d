//! Minimal puzzles: clues taken away in random order, each kept when its removal would allow a
//! second solution ([`minimise`]), with the cheap cases (a clue its units force back) told
//! without a search.

use super::Rng;
use crate::grid::{CELLS, Grid, box_of};
use crate::solver::Solver;

/// A minimal puzzle with exactly one solution, `solution`: starts from the full grid and
/// removes clues in random order, keeping each clue whose removal would allow a second solution.
pub fn minimal_puzzle(rng: &mut Rng, solution: &Grid, solver: &mut dyn Solver) -> Grid {
    minimise(rng, solution, solver)
}

/// `puzzle` (which has exactly one solution) made minimal: its clues are tried in random order
/// (a shuffle of all 81 cells, blanks skipped) and each one whose removal would allow a second
/// solution is kept.
///
/// Whether it would is asked of `solver` as [`Solver::solves_otherwise`] (one search for a
/// solution with another digit in the cell, not a count to two), and not asked at all when the
/// clues left force the digit back at once: its row, column and box hold the eight other
/// digits, or a unit of the cell has no other blank cell where the digit may go.
pub fn minimise(rng: &mut Rng, puzzle: &Grid, solver: &mut dyn Solver) -> Grid {
    let mut order: [u8; CELLS] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut order);
    let mut puzzle = *puzzle;
    let mut units = Units::of(&puzzle);
    for cell in order {
        let cell = cell as usize;
        let digit = puzzle.get(cell);
        if digit == 0 {
            continue;
        }
        puzzle.set(cell, 0);
        units.toggle(cell, digit);
        if !units.forces(&puzzle, cell, digit) && solver.solves_otherwise(&puzzle, cell, digit) {
            puzzle.set(cell, digit);
            units.toggle(cell, digit);
        }
    }
    puzzle
}

/// The digits given in each row, column and box of a grid (bit `d - 1` for digit `d`).
struct Units {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Units {
    /// The digits `grid` gives in each unit (a grid without conflicts).
    fn of(grid: &Grid) -> Units {
        let mut units = Units {
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        };
        for cell in 0..CELLS {
            let digit = grid.get(cell);
            if digit != 0 {
                units.toggle(cell, digit);
            }
        }
        units
    }

    /// Adds `digit` in `cell` to its units, or takes it away when they hold it.
    fn toggle(&mut self, cell: usize, digit: u8) {
        let bit = 1 << (digit - 1);
        self.rows[cell / 9] ^= bit;
        self.cols[cell % 9] ^= bit;
        self.boxes[box_of(cell)] ^= bit;
    }

    /// The digits `cell`'s row, column and box give.
    fn seen(&self, cell: usize) -> u16 {
        self.rows[cell / 9] | self.cols[cell % 9] | self.boxes[box_of(cell)]
    }

    /// True when the clues of `grid` (which these units describe) leave `digit` as the only
    /// choice for the blank `cell` by a naked or a hidden single: then every solution of
    /// `grid` has `digit` there.
    fn forces(&self, grid: &Grid, cell: usize, digit: u8) -> bool {
        let bit = 1 << (digit - 1);
        if self.seen(cell) | bit == 0x1FF {
            return true;
        }
        // Another blank cell of the unit where the digit may go.
        let open =
            |other: usize| other != cell && grid.get(other) == 0 && self.seen(other) & bit == 0;
        let (r, c, b) = (cell / 9, cell % 9, box_of(cell));
        !(0..9).any(|i| open(r * 9 + i))
            || !(0..9).any(|i| open(i * 9 + c))
            || !(0..9).any(|i| open((b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Strategy;
    use crate::generate::random_solution;
    use crate::solver::Limits;

    /// The generator's question, asked of the `fast` strategy in one search and of `singles`
    /// by the trait's default, must be the count to two's answer for every clue of a minimal
    /// puzzle and of that puzzle with a few clues put back.
    #[test]
    fn solves_otherwise_agrees_with_counting_to_two() {
        let mut fast = Strategy::Fast.solver();
        let mut singles = Strategy::Singles.solver();
        let mut rng = Rng::new(12);
        let (mut kept, mut freed) = (0, 0);
        for _ in 0..12 {
            let solution = random_solution(&mut rng);
            let minimal = minimal_puzzle(&mut rng, &solution, &mut *fast);
            let mut fuller = minimal;
            for _ in 0..4 {
                let c = rng.below(CELLS);
                fuller.set(c, solution.get(c));
            }
            for p in [minimal, fuller] {
                for c in (0..CELLS).filter(|&c| p.get(c) != 0) {
                    let mut q = p;
                    q.set(c, 0);
                    let two = fast.solve(&q, Limits::count_to(2)).solutions == 2;
                    assert_eq!(fast.solves_otherwise(&p, c, p.get(c)), two, "{p} r{c}");
                    assert_eq!(singles.solves_otherwise(&q, c, p.get(c)), two, "{p} r{c}");
                    if two { kept += 1 } else { freed += 1 }
                }
            }
        }
        assert!(kept > 100 && freed > 10, "{kept} {freed}");
    }
}
