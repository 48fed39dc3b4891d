//! Puzzle generation: seeded random solution grids, minimal unique puzzles made from them
//! (optionally with a symmetric clue pattern and a clue count within bounds, see [`Spec`]), and
//! the other kinds of record (several solutions, no solution, conflicting clues) that tests and
//! sample corpora need.
//!
//! Everything here is driven by [`Rng`], a small SplitMix64 generator of our own, so the same
//! seed gives the same puzzles on every platform and every version of our dependencies.

use crate::grid::{CELLS, Grid, PEERS, box_of};
use crate::solver::{Limits, Solver};

mod fill;
mod search;

pub use search::{close_neighbour, neighbour, rated_around, rated_puzzle};

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

/// Fewer clues never give exactly one solution (McGuire, Tugemann and Civario, 2012).
pub const MIN_UNIQUE_CLUES: usize = 17;

/// The generator for puzzle `index` of a run seeded with `seed`: each puzzle has its own
/// stream, so the puzzles do not depend on how the work is split over threads, nor on which
/// front end (the command line, the Python package) splits it.
pub fn puzzle_rng(seed: u64, index: u64) -> Rng {
    let mut mix = Rng::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    Rng::new(mix.next_u64())
}

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

    #[test]
    fn same_seed_same_puzzles() {
        let mut s = Strategy::default().solver();
        let a = mixed_puzzle(&mut Rng::new(7), Kind::Minimal, &mut *s);
        let b = mixed_puzzle(&mut Rng::new(7), Kind::Minimal, &mut *s);
        assert_eq!(a, b);
        assert_ne!(a, mixed_puzzle(&mut Rng::new(8), Kind::Minimal, &mut *s));
    }

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
