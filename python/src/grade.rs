//! `grade`: every puzzle rated on the Sudoku Explainer scale, in the rows of `sudoku-batch
//! grade`.
//!
//! Each worker keeps one library [`Worker`] (a solver and a grader) for all its records, and
//! makes each chunk's record batch of [`grade_columns`] itself. As on the command line, the
//! solutions are counted to 2 and only a puzzle with exactly one is rated.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sudoku_batch::logic::Ruleset;
use sudoku_batch::pipeline::grade::{ErBand, GradeOptions, tenths};
use sudoku_batch::pipeline::solve::{SolveOptions, Worker};
use sudoku_batch::pipeline::write::{GradeText, grade_columns, grade_values};
use sudoku_batch::solver::Limits;

use crate::columns::{Columns, schema, table};
use crate::input::Puzzles;
use crate::solve::{check_lines, stoppable};
use crate::{parallel, strategy};

/// The rulesets, as the command line names them.
const RULESETS: [(&str, Ruleset); 2] = [("sukaku", Ruleset::Sukaku), ("classic", Ruleset::Classic)];

/// The ruleset called `name`.
pub fn ruleset(name: &str) -> PyResult<Ruleset> {
    RULESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, r)| r)
        .ok_or_else(|| {
            let names: Vec<&str> = RULESETS.iter().map(|(n, _)| *n).collect();
            PyValueError::new_err(format!(
                "ruleset={name:?}: choose one of {}",
                names.join(", ")
            ))
        })
}

/// Rates every puzzle; one row per puzzle, in order.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn grade(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    solver: &str,
    threads: usize,
    max_guesses: Option<u64>,
    ruleset: &str,
    max_time_ms: Option<u64>,
    min_er: Option<u16>,
    max_er: Option<u16>,
    first_line: u64,
) -> PyResult<Py<PyAny>> {
    let puzzles = Puzzles::extract(puzzles, "puzzles")?;
    check_lines(first_line, puzzles.len())?;
    if let (Some(min), Some(max)) = (min_er, max_er)
        && min > max
    {
        return Err(PyValueError::new_err(format!(
            "min_er={} is more than max_er={}",
            tenths(min),
            tenths(max)
        )));
    }
    let band = ErBand {
        min: min_er,
        max: max_er,
    };
    let options = SolveOptions {
        strategy: strategy(solver)?,
        // Only a puzzle proved to have exactly one solution is rated.
        limits: Limits {
            solutions: 2,
            guesses: max_guesses,
            stop: None,
        },
        keep_solutions: false,
        find_redundant: false,
        grade: Some(GradeOptions {
            ruleset: self::ruleset(ruleset)?,
            max_time: max_time_ms.map(std::time::Duration::from_millis),
            band,
        }),
        ..SolveOptions::default()
    };
    let columns = grade_columns(&band);
    let schema = schema(&columns);
    let mut batches = Vec::new();
    parallel::run(
        py,
        threads,
        puzzles.len(),
        || Worker::new(&options),
        |worker, range, stop| {
            let options = stoppable(&options, stop);
            let mut chunk = Columns::new(schema.clone(), range.len());
            let mut text = GradeText::default();
            for i in range {
                let row = worker.row(puzzles.record(i, first_line), &options);
                chunk.push(&grade_values(&row, &mut text, &band)[..columns.len()]);
            }
            chunk.batch()
        },
        |batch| {
            batches.push(batch?);
            Ok(())
        },
    )?;
    table(py, batches, schema)
}
