//! Solver strategies behind one interface.
//!
//! Every strategy implements [`Solver`]: it counts the solutions of a puzzle up to a limit,
//! keeps the first one found, counts its guesses and hands every solution it finds to a
//! callback. [`Strategy`] names the strategies and builds a solver for each; the pipeline holds
//! one solver per worker thread and reuses it for every puzzle, so a solver keeps whatever
//! scratch memory it needs between calls and allocates nothing per puzzle.
//!
//! All strategies must agree on the number of solutions (up to the limit) of every puzzle,
//! including puzzles whose clues conflict (zero solutions), and on the solution of every puzzle
//! that has exactly one.

mod backtrack;
mod bitmask;
mod candidates;
mod fast;
mod masks;
mod singles;
pub(crate) mod trace;

pub use backtrack::BacktrackSolver;
pub use bitmask::BitmaskSolver;
pub use candidates::CandidatesSolver;
pub use fast::FastSolver;
pub use singles::SinglesSolver;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::grid::Grid;

/// A flag that, once set, stops every search and run that watches it (Ctrl-C).
///
/// It lives as long as the process, so that [`Limits`] can carry it and stay `Copy`: one flag
/// per process is the usual use, and each costs one byte that is never freed.
#[derive(Debug, Clone, Copy)]
pub struct Stop(&'static AtomicBool);

impl Stop {
    /// A new flag, not set.
    pub fn new() -> Stop {
        Stop(Box::leak(Box::new(AtomicBool::new(false))))
    }

    /// Sets the flag: the searches and runs that watch it stop soon.
    pub fn set(self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Clears the flag, for the next run.
    pub fn clear(self) {
        self.0.store(false, Ordering::SeqCst);
    }

    /// Whether the flag is set.
    pub fn is_set(self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for code that sets it from a signal handler.
    pub fn flag(self) -> &'static AtomicBool {
        self.0
    }
}

impl Default for Stop {
    fn default() -> Self {
        Stop::new()
    }
}

impl PartialEq for Stop {
    /// The same flag.
    fn eq(&self, other: &Stop) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Stop {}

/// How far one search may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many solutions (at least 1). `2` proves uniqueness.
    pub solutions: u64,
    /// Stop after this many guesses and report the search as aborted. `None` means no budget.
    pub guesses: Option<u64>,
    /// Stop when this flag is set, reporting the search as [`Outcome::stopped`]. It is looked
    /// at every [`STOP_CHECK`] guesses, so a search stops within a few milliseconds.
    pub stop: Option<Stop>,
}

/// How many guesses a search makes between two looks at [`Limits::stop`].
pub const STOP_CHECK: u64 = 1024;

impl Limits {
    /// Count up to `solutions`, with no guess budget.
    pub fn count_to(solutions: u64) -> Limits {
        Limits {
            solutions: solutions.max(1),
            guesses: None,
            stop: None,
        }
    }
}

impl Default for Limits {
    /// Count to 2 (prove uniqueness), no guess budget.
    fn default() -> Self {
        Limits::count_to(2)
    }
}

/// What one search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    /// Solutions found, at most [`Limits::solutions`].
    pub solutions: u64,
    /// The first solution found.
    pub solution: Option<Grid>,
    /// Guesses made: digits tried in a cell where that digit was not forced. What counts as
    /// forced depends on the strategy's propagation; see each strategy's documentation.
    pub guesses: u64,
    /// True when the guess budget ran out (or [`Limits::stop`] was set) before the search
    /// finished; `solutions` then counts only those found so far.
    pub aborted: bool,
    /// True when the search ended because [`Limits::stop`] was set: its result says nothing
    /// about the puzzle.
    pub stopped: bool,
}

impl Outcome {
    /// Counts `solution`, keeps it if it is the first, and hands it to `on_solution`: what
    /// every strategy does when its search completes a grid.
    fn found(&mut self, solution: Grid, on_solution: &mut dyn FnMut(&Grid)) {
        self.solutions += 1;
        self.solution.get_or_insert(solution);
        on_solution(&solution);
    }

    /// Counts one guess against the budget of `limits`. False, with [`Outcome::aborted`] set,
    /// when the budget is spent or a stop was asked for: the search must then stop.
    #[inline(always)]
    fn spend_guess(&mut self, limits: Limits) -> bool {
        if limits.guesses.is_some_and(|budget| self.guesses >= budget) {
            self.aborted = true;
            return false;
        }
        self.guesses += 1;
        if self.guesses.is_multiple_of(STOP_CHECK) && limits.stop.is_some_and(Stop::is_set) {
            self.aborted = true;
            self.stopped = true;
            return false;
        }
        true
    }
}

/// A Sudoku solver: one instance per thread, reused for many puzzles.
pub trait Solver: Send {
    /// Searches `puzzle` within `limits`, calling `on_solution` with each solution found, in the
    /// order found. Puzzles whose clues conflict have no solution.
    fn solve_with(
        &mut self,
        puzzle: &Grid,
        limits: Limits,
        on_solution: &mut dyn FnMut(&Grid),
    ) -> Outcome;

    /// Searches `puzzle` within `limits`.
    fn solve(&mut self, puzzle: &Grid, limits: Limits) -> Outcome {
        self.solve_with(puzzle, limits, &mut |_| {})
    }

    /// Whether `puzzle` has a solution whose `cell` holds another digit than `digit` (`cell`
    /// is read as blank whatever `puzzle` holds there). When `puzzle` with `digit` in `cell`
    /// has exactly one solution, this tells whether blanking the cell allows a second one:
    /// the question a generator asks of every clue it tries to remove, answered by a search
    /// for one solution of a more constrained puzzle rather than for two. This default tries
    /// each other digit the cell's peers allow; a strategy may answer in one search.
    fn solves_otherwise(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> bool {
        let mut other = *puzzle;
        other.set(cell, 0);
        (1..=9).filter(|&d| d != digit).any(|d| {
            other.set(cell, d);
            self.solve(&other, Limits::count_to(1)).solutions > 0
        })
    }
}

/// The selectable solver strategies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Strategy {
    /// Per-digit band bitboards: row/box and band/column matching, naked and hidden singles,
    /// minirow and minicolumn counting, hidden pairs before the search; branches on one digit's
    /// configuration in a band, else on a two-candidate cell (a puzzle with a band settled at
    /// the root, often one of several solutions, is searched on cells without minirow
    /// counting); copy-on-branch. The fastest; the default.
    #[default]
    Fast,
    /// Bitmask candidates, naked and hidden singles, branching on the cell with the fewest
    /// candidates, copy-on-branch recursion. Simple; a reference for the others.
    Singles,
    /// Plain backtracking: empty cells in row-major order, digits 1 to 9 checked against the
    /// row, column and box; no propagation. Slow on hard puzzles: give it a guess budget.
    Backtrack,
    /// Candidate lists with an undo log, naked-single propagation, branching on the cell with
    /// the fewest candidates.
    Candidates,
    /// Bitmask candidates, naked singles, branching on the cell with the fewest candidates,
    /// saved states on an explicit stack.
    Bitmask,
}

impl Strategy {
    /// Every strategy, in the order they are listed to users.
    pub const ALL: &'static [Strategy] = &[
        Strategy::Fast,
        Strategy::Singles,
        Strategy::Backtrack,
        Strategy::Candidates,
        Strategy::Bitmask,
    ];

    /// Builds a new solver of this strategy.
    pub fn solver(self) -> Box<dyn Solver> {
        match self {
            Strategy::Fast => Box::new(FastSolver::new()),
            Strategy::Singles => Box::new(SinglesSolver::new()),
            Strategy::Backtrack => Box::new(BacktrackSolver::new()),
            Strategy::Candidates => Box::new(CandidatesSolver::new()),
            Strategy::Bitmask => Box::new(BitmaskSolver::new()),
        }
    }

    /// The name users type with `--solver`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Fast => "fast",
            Strategy::Singles => "singles",
            Strategy::Backtrack => "backtrack",
            Strategy::Candidates => "candidates",
            Strategy::Bitmask => "bitmask",
        }
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! Checks every strategy must pass; each strategy's module runs them on itself.
    use super::*;

    pub const SOURCE_PUZZLES: [&str; 3] = [
        "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..",
        "...728....9..516......6..823..8.27.4174.3..2.28.5...3..1.3..2....7.46..5..61...49",
        ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1.",
    ];
    pub const PUBLISHED_SOLUTION_3: &str =
        "762593148941278536835461792198627354476359281253814679387146925514932867629785413";

    /// The shared checks: source puzzles unique, empty grid multiple, conflicts unsolvable,
    /// a solved grid unique, limits honoured, every reported solution valid.
    pub fn check_strategy(strategy: Strategy) {
        let mut s = strategy.solver();
        for p in SOURCE_PUZZLES {
            let g: Grid = p.parse().unwrap();
            let out = s.solve(&g, Limits::count_to(2));
            assert_eq!(out.solutions, 1, "{strategy}: {p}");
            assert!(out.solution.unwrap().solves(&g), "{strategy}: {p}");
            assert!(!out.aborted);
        }
        let g: Grid = SOURCE_PUZZLES[2].parse().unwrap();
        let out = s.solve(&g, Limits::count_to(1));
        assert_eq!(out.solution.unwrap().to_string(), PUBLISHED_SOLUTION_3);

        let solved: Grid = PUBLISHED_SOLUTION_3.parse().unwrap();
        let out = s.solve(&solved, Limits::count_to(2));
        assert_eq!(
            (out.solutions, out.guesses),
            (1, 0),
            "{strategy}: solved grid"
        );
        assert_eq!(out.solution, Some(solved));

        let out = s.solve(&Grid::EMPTY, Limits::count_to(2));
        assert_eq!(out.solutions, 2, "{strategy}: empty grid");
        let mut seen = Vec::new();
        let out = s.solve_with(&Grid::EMPTY, Limits::count_to(5), &mut |g| seen.push(*g));
        assert_eq!(out.solutions, 5);
        assert_eq!(seen.len(), 5);
        for g in &seen {
            assert!(g.solves(&Grid::EMPTY));
        }
        assert_eq!(out.solution, Some(seen[0]));
        seen.sort_by_key(|g| *g.cells());
        seen.dedup();
        assert_eq!(seen.len(), 5, "{strategy}: solutions are distinct");

        // Two 5s in row 1: no solution, whatever the limit.
        let mut conflict: Grid = SOURCE_PUZZLES[0].parse().unwrap();
        conflict.set(0, 9);
        assert_eq!(s.solve(&conflict, Limits::count_to(2)).solutions, 0);
        // Clues that do not conflict directly but admit no solution: r9c1 of the third source
        // puzzle may hold 3 or 6 as far as its units say, and its unique solution has 6 there.
        let mut dead: Grid = SOURCE_PUZZLES[2].parse().unwrap();
        dead.set(72, 3);
        assert_eq!(dead.conflict(), None);
        let out = s.solve(&dead, Limits::count_to(2));
        assert_eq!(out.solutions, 0, "{strategy}: dead puzzle");
        assert_eq!(out.solution, None);
    }
}
