//! Human-style logical solving that rates puzzles on the Sudoku Explainer scale.
//!
//! The [`Grader`] solves a puzzle step by step the way Sudoku Explainer's batch rater
//! (`serate`) does: at every step it tries the techniques from the easiest up, applies the
//! first hint the first successful technique finds, and goes on until the grid is full. The
//! ratings are Sudoku Explainer's:
//!
//! - **ER**, the hardest step of the whole solution;
//! - **EP**, the hardest step up to and including the first placed digit;
//! - **ED**, the rating of the first step.
//!
//! Ratings are whole tenths (`23` is 2.3). Sudoku Explainer's rules, difficulty values and
//! search order were learnt from its source; the code here is our own, on bitboards.
//!
//! ```
//! use sudoku_batch::Grid;
//! use sudoku_batch::logic::{Budget, Grader};
//!
//! let puzzle: Grid =
//!     ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1."
//!         .parse()
//!         .unwrap();
//! let rating = Grader::new().grade(&puzzle, &Budget::default()).unwrap();
//! assert_eq!((rating.er, rating.ep, rating.ed), (12, 12, 12));
//! ```
//!
//! # Layout
//!
//! - `board`: the candidate grid (per-digit bitboards and per-cell masks) and unit tables;
//! - `technique`: the [`Technique`] names and the hint every technique returns;
//! - `singles`, `subsets`, `wings`, `uniqueness`, `exclusion`: the techniques below the
//!   chains, one family per module;
//! - `rate`: the ladder of techniques and the step loop; `tally`, what its steps add up to.

// Unit, cell and digit numbers are the data of this module: loops over `0..27` that index
// several tables at once say which unit they are about more plainly than iterators would.
#![allow(clippy::needless_range_loop)]

mod bits;
mod board;
mod chains;
mod exclusion;
mod memo;
mod rate;
mod singles;
mod strong_links;
mod subsets;
mod tally;
mod technique;
mod uniqueness;
mod wings;

#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use technique::Technique;

use crate::grid::Grid;
use crate::solver::{FastSolver, Limits, Solver};

/// How long a grading may run: a deadline, a stop flag, both or neither.
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget<'a> {
    /// Give up (with [`GradeError::Aborted`]) once this instant has passed.
    pub deadline: Option<Instant>,
    /// Give up as soon as this flag is set.
    pub stop: Option<&'a AtomicBool>,
}

impl Budget<'_> {
    /// True when the deadline has passed or the stop flag is set.
    fn spent(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Sudoku Explainer's ratings of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rating {
    /// The hardest step of the solution, in tenths (ER).
    pub er: u16,
    /// The hardest step up to and including the first placed digit, in tenths (EP).
    pub ep: u16,
    /// The rating of the first step, in tenths (ED).
    pub ed: u16,
    /// The technique of the (first) hardest step; [`Technique::FullHouse`] for a grid given
    /// full, which has no step.
    pub hardest: Technique,
    /// The number of steps.
    pub steps: u32,
    /// How often each technique was used, easiest first.
    pub techniques: Vec<(Technique, u32)>,
}

/// A rating asked only as far as a limit ([`Grader::grade_below`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bounded {
    /// Every step rated below the limit: the full rating, as [`Grader::grade`] gives it.
    Rated(Rating),
    /// The ER is at least this (the limit, in tenths): a step was rated this or more, or no
    /// technique rated below it applied. The rating stopped there.
    AtLeast(u16),
}

impl Bounded {
    /// The full rating, if the puzzle got one.
    pub fn rating(&self) -> Option<&Rating> {
        match self {
            Bounded::Rated(r) => Some(r),
            Bounded::AtLeast(_) => None,
        }
    }
}

/// One step of a logical solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// Its rating in tenths.
    pub rating: u16,
    /// Digits placed: (cell 0..81, digit 1..9).
    pub placements: Vec<(u8, u8)>,
    /// Candidates removed: (cell 0..81, digit 1..9).
    pub eliminations: Vec<(u8, u8)>,
    /// The cells that make the pattern (the chain's cells for chains), in cell order.
    pub cells: Vec<u8>,
}

/// Why a puzzle got no rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GradeError {
    /// The budget's deadline passed or its stop flag was set.
    #[error("grading aborted: time budget spent or stop requested")]
    Aborted,
    /// The puzzle has no solution or more than one: the rating assumes exactly one.
    #[error("the puzzle does not have exactly one solution")]
    NotUnique,
    /// No technique applies: the puzzle is beyond the techniques the grader knows.
    #[error("no known technique applies")]
    TooHard,
}

/// Which version of Sudoku Explainer's ladder to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Ruleset {
    /// Sukaku Explainer's default set: Sudoku Explainer 1.2.1's techniques plus strong-link
    /// chains (skyscraper, kites and their grouped and longer forms) and the WXYZ- to
    /// TUVWXYZ-Wings. This is what the `serate` of Sukaku Explainer uses unless told otherwise.
    #[default]
    Sukaku,
    /// Sudoku Explainer 1.2.1's techniques only.
    Classic,
}

/// A reusable logical grader: one per thread, kept for many puzzles.
pub struct Grader {
    ruleset: Ruleset,
    uniqueness: FastSolver,
    scratch: rate::Scratch,
}

impl Default for Grader {
    fn default() -> Self {
        Self::new()
    }
}

impl Grader {
    /// A grader following Sukaku Explainer's default ladder.
    pub fn new() -> Self {
        Self::with_ruleset(Ruleset::default())
    }

    /// A grader following the given ladder.
    pub fn with_ruleset(ruleset: Ruleset) -> Self {
        Grader {
            ruleset,
            uniqueness: FastSolver::new(),
            scratch: rate::Scratch::default(),
        }
    }

    /// Rates `puzzle`.
    pub fn grade(&mut self, puzzle: &Grid, budget: &Budget) -> Result<Rating, GradeError> {
        match self.grade_below(puzzle, budget, u16::MAX)? {
            Bounded::Rated(rating) => Ok(rating),
            Bounded::AtLeast(_) => Err(GradeError::TooHard),
        }
    }

    /// Rates `puzzle` only as far as needed to tell whether its ER is below `limit` (in
    /// tenths): the full rating when it is, else [`Bounded::AtLeast`] as soon as that is
    /// known, which is sooner (often much sooner) than the full rating of a puzzle rated
    /// `limit` or more. The answer agrees with the full rating: `AtLeast` exactly when
    /// [`grade`](Self::grade) would rate `limit` or more, or leave the puzzle unrated because
    /// no technique it knows applies where none rated below `limit` does.
    pub fn grade_below(
        &mut self,
        puzzle: &Grid,
        budget: &Budget,
        limit: u16,
    ) -> Result<Bounded, GradeError> {
        self.run(puzzle, budget, None, limit, true)
    }

    /// [`grade_below`](Self::grade_below) for a puzzle its caller has already proved to have
    /// exactly one solution (the pipeline's own search did): not searched again here.
    pub(crate) fn grade_below_unique(
        &mut self,
        puzzle: &Grid,
        budget: &Budget,
        limit: u16,
    ) -> Result<Bounded, GradeError> {
        self.run(puzzle, budget, None, limit, false)
    }

    /// The logical solution of `puzzle`, step by step.
    pub fn steps(&mut self, puzzle: &Grid, budget: &Budget) -> Result<Vec<Step>, GradeError> {
        let mut steps = Vec::new();
        self.run(puzzle, budget, Some(&mut steps), u16::MAX, true)?;
        Ok(steps)
    }

    /// Runs the ladder on `puzzle` below `limit`, recording the `steps` if asked. With `check`
    /// the puzzle is searched for a second solution where the ladder needs to know it has one
    /// (before the uniqueness techniques, or before any answer but a full rating); without, the
    /// caller has proved it.
    fn run(
        &mut self,
        puzzle: &Grid,
        budget: &Budget,
        steps: Option<&mut Vec<Step>>,
        limit: u16,
        check: bool,
    ) -> Result<Bounded, GradeError> {
        let board = board::Board::from_values(puzzle.cells()).ok_or(GradeError::NotUnique)?;
        let solver = &mut self.uniqueness;
        let mut unique = || solver.solve(puzzle, Limits::count_to(2)).solutions == 1;
        let unique: Option<&mut dyn FnMut() -> bool> = if check { Some(&mut unique) } else { None };
        rate::run(
            board,
            self.ruleset,
            budget,
            &mut self.scratch,
            steps,
            limit,
            unique,
        )
    }
}
