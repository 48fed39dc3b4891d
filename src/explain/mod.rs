//! Step-by-step explanation of how one puzzle is solved: the engine of `sudoku-batch explain`.
//!
//! [`explain`] prints the starting grid with each empty cell's candidates, then every step of
//! the search as the chosen strategy makes it, then the solution and the totals. The steps come
//! from the strategy's own search code, run with a recorder in place of the no-op trace the
//! plain solver uses (see `solver::trace`), so the explanation is exactly what the solver does:
//!
//! - **place**: a digit placed without a guess, with its reason: `naked single` (the cell had
//!   one candidate left) or `last alternative` (the last candidate of a branch point, forced
//!   once the others failed). `backtrack` has no forced placements.
//! - **guess**: a digit tried at a branch point, with its depth and the alternatives still to
//!   try there. For `backtrack` every digit placed is a guess, its depth is the position of the
//!   cell among the empty cells, and its alternatives are the digits above it, not yet checked.
//! - **dead end**: the state at some depth has no way forward; the search restores the state
//!   saved at the branch point it backs up to (depth 0: nothing left to try).
//!
//! The explanation stops at the first solution. It then says whether the puzzle has another
//! one, counted with the `bitmask` strategy (fast on any puzzle). Long traces are cut after
//! [`ExplainOptions::max_steps`] steps; the totals still count every step.
//!
//! In [`ExplainFormat::Json`] every line is one JSON object whose `step` field names it:
//! `start`, `place`, `guess`, `dead_end`, `truncated`, `solution`, `no_solution`, `aborted`,
//! `totals`. Rows and columns are numbered 1 to 9. For example:
//!
//! ```text
//! {"step":"start","strategy":"bitmask","puzzle":"..29…","candidates":["347","1367","",…]}
//! {"step":"guess","depth":1,"row":3,"col":1,"digit":3,"alternatives":[4]}
//! {"step":"place","row":2,"col":1,"digit":7,"reason":"naked single"}
//! {"step":"dead_end","depth":2,"back_to":2}
//! {"step":"place","row":1,"col":1,"digit":7,"reason":"last alternative"}
//! {"step":"truncated","max_steps":10000}
//! {"step":"solution","grid":"762985143…","unique":true}
//! {"step":"totals","placements":137,"guesses":13,"dead_ends":13,"truncated":false}
//! ```
//!
//! `candidates` lists the 81 cells row-major, `""` for a given cell; `start` also carries a
//! `conflict` message when two clues conflict, and `no_solution` a `reason` in that case.
//!
//! ```
//! use sudoku_batch::explain::{ExplainOptions, explain};
//!
//! let puzzle =
//!     ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1."
//!         .parse()
//!         .unwrap();
//! let mut out = Vec::new();
//! let totals = explain(&puzzle, &ExplainOptions::default(), &mut out).unwrap();
//! assert_eq!(totals.guesses, 0); // naked singles alone solve this one
//! assert!(String::from_utf8(out).unwrap().contains("762593148"));
//! ```

pub mod logic;
mod recorder;

use std::io::{self, Write};

use crate::grid::Grid;
use crate::solver::{BacktrackSolver, BitmaskSolver, CandidatesSolver, Limits, Solver, Strategy};
use recorder::Recorder;

/// How the steps are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ExplainFormat {
    /// Lines for people: candidate grid, numbered steps, solution rows, totals.
    #[default]
    Text,
    /// One JSON object per line.
    #[cfg_attr(feature = "cli", value(alias = "jsonl"))]
    Json,
}

/// What to explain and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExplainOptions {
    /// The strategy whose search is shown: `bitmask`, `backtrack` or `candidates`.
    pub strategy: Strategy,
    /// Text or JSON lines.
    pub format: ExplainFormat,
    /// Print at most this many steps, then one "trace truncated" line; later steps are still
    /// counted in the totals.
    pub max_steps: u64,
    /// Guess budget for the search; `None` for none. Plain backtracking may otherwise run for
    /// hours on a hard puzzle.
    pub max_guesses: Option<u64>,
}

impl ExplainOptions {
    /// Steps printed by default before the trace is cut.
    pub const DEFAULT_MAX_STEPS: u64 = 10_000;
}

impl Default for ExplainOptions {
    /// `bitmask`, text, 10,000 steps, no guess budget.
    fn default() -> Self {
        ExplainOptions {
            strategy: Strategy::Bitmask,
            format: ExplainFormat::Text,
            max_steps: Self::DEFAULT_MAX_STEPS,
            max_guesses: None,
        }
    }
}

/// What an explanation counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExplainTotals {
    /// Digits placed without a guess (naked singles and last alternatives).
    pub placements: u64,
    /// Digits guessed; equal to [`Outcome::guesses`](crate::Outcome::guesses) of the strategy.
    pub guesses: u64,
    /// Dead ends met.
    pub dead_ends: u64,
    /// Steps printed (at most [`ExplainOptions::max_steps`]).
    pub steps_printed: u64,
    /// True when some steps were not printed.
    pub truncated: bool,
    /// True when the guess budget ran out before a solution was found.
    pub aborted: bool,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Solutions of the puzzle counted up to 2: `0`, `1`, or `2` for two or more.
    pub solution_count: u64,
}

/// Why a puzzle cannot be explained.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// The strategy has no step trace.
    #[error(
        "the {0} strategy cannot be explained; use bitmask (the default), backtrack or candidates"
    )]
    Unsupported(Strategy),
    /// Writing the explanation failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// True for the strategies [`explain`] can trace.
pub fn can_explain(strategy: Strategy) -> bool {
    matches!(
        strategy,
        Strategy::Bitmask | Strategy::Backtrack | Strategy::Candidates
    )
}

/// Writes to `out` how `options.strategy` solves `puzzle`, step by step, stopping at the first
/// solution, and returns the totals. See the module documentation for the steps and formats.
///
/// # Errors
/// [`ExplainError::Unsupported`] for a strategy without a trace (before anything is written),
/// [`ExplainError::Io`] when writing fails.
pub fn explain(
    puzzle: &Grid,
    options: &ExplainOptions,
    out: &mut dyn Write,
) -> Result<ExplainTotals, ExplainError> {
    if !can_explain(options.strategy) {
        return Err(ExplainError::Unsupported(options.strategy));
    }
    let mut rec = Recorder {
        out,
        format: options.format,
        max_steps: options.max_steps,
        totals: ExplainTotals::default(),
        error: None,
    };
    rec.start(puzzle, options.strategy)?;
    let limits = Limits {
        guesses: options.max_guesses,
        ..Limits::count_to(1)
    };
    let none = &mut |_: &Grid| {};
    let outcome = match options.strategy {
        Strategy::Backtrack => BacktrackSolver::new().run(puzzle, limits, none, &mut rec),
        Strategy::Candidates => CandidatesSolver::new().run(puzzle, limits, none, &mut rec),
        _ => BitmaskSolver::new().run(puzzle, limits, none, &mut rec),
    };
    if let Some(e) = rec.error.take() {
        return Err(e.into());
    }
    rec.totals.aborted = outcome.aborted;
    rec.totals.solution = outcome.solution;
    rec.totals.solution_count = if outcome.aborted {
        BitmaskSolver::new()
            .solve(puzzle, Limits::count_to(2))
            .solutions
    } else if outcome.solution.is_some() {
        // The first solution is known; look for a second one.
        BitmaskSolver::new()
            .solve(puzzle, Limits::count_to(2))
            .solutions
            .max(1)
    } else {
        0
    };
    rec.finish(puzzle, options.strategy)?;
    Ok(rec.totals)
}

#[cfg(test)]
mod tests;
