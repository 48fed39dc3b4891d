//! `canon`: every puzzle's canonical form and number of automorphisms, in the rows of
//! `sudoku-batch canon`.
//!
//! Each worker keeps one library [`Worker`] (its canonicaliser's buffers) for all its records
//! and makes each chunk's record batch of [`CANON_COLUMNS`] (with a split, [`SPLIT_COLUMNS`])
//! itself. Puzzles are not solved.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sudoku_batch::pipeline::canon::{CANON_COLUMNS, Canon, SPLIT_COLUMNS, Split, canon_values};
use sudoku_batch::pipeline::solve::{SolveOptions, Worker};

use crate::columns::{Columns, schema, table};
use crate::input::Puzzles;
use crate::parallel;
use crate::solve::{check_lines, stoppable};

/// Canonicalises every puzzle; one row per puzzle, in order. With `split` (names and shares,
/// dealt with `split_seed`), each row also names its class's part.
#[pyfunction]
pub fn canon(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    threads: usize,
    first_line: u64,
    split: Option<Vec<(String, u32)>>,
    split_seed: u64,
) -> PyResult<Py<PyAny>> {
    let puzzles = Puzzles::extract(puzzles, "puzzles")?;
    check_lines(first_line, puzzles.len())?;
    let split = split
        .map(|parts| Split::new(parts, split_seed))
        .transpose()
        .map_err(|why| PyValueError::new_err(format!("split: {why}")))?;
    let options = SolveOptions {
        canon: Canon::Only,
        ..SolveOptions::default()
    };
    let schema = match split {
        None => schema(&CANON_COLUMNS),
        Some(_) => schema(&SPLIT_COLUMNS),
    };
    let mut batches = Vec::new();
    parallel::run(
        py,
        threads,
        puzzles.len(),
        || Worker::new(&options),
        |worker, range, stop| {
            let options = stoppable(&options, stop);
            let mut chunk = Columns::new(schema.clone(), range.len());
            for i in range {
                let row = worker.row(puzzles.record(i, first_line), &options);
                match &split {
                    None => chunk.push(&canon_values(&row)),
                    Some(split) => chunk.push(&split.values(&row)),
                }
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
