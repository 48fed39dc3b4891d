//! # sudoku-batch
//!
//! Solve, validate, grade, generate, explain and benchmark large Sudoku corpora. The library
//! holds the solver strategies, the validation checks, the logical grader and the streaming
//! pipeline; the `sudoku-batch` binary (the default feature `cli`) is a thin command-line shell
//! over it.
//!
//! ```
//! use sudoku_batch::{Grid, Limits, Strategy};
//!
//! let puzzle: Grid =
//!     ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1."
//!         .parse()
//!         .unwrap();
//! let mut solver = Strategy::default().solver();
//! let outcome = solver.solve(&puzzle, Limits::count_to(2));
//! assert_eq!(outcome.solutions, 1); // exactly one solution: a proper Sudoku
//! assert_eq!(
//!     outcome.solution.unwrap().to_string(),
//!     "762593148941278536835461792198627354476359281253814679387146925514932867629785413"
//! );
//! ```
#![deny(missing_docs)]

pub mod bench;
pub mod explain;
pub mod generate;
pub mod grid;
pub mod isomorph;
pub mod logic;
pub mod pipeline;
#[cfg(feature = "report")]
pub mod report;
pub mod shard;
pub mod solver;
pub mod validate;
pub mod words;

pub use grid::{Grid, ParseError};
pub use solver::{Limits, Outcome, Solver, Stop, Strategy};
