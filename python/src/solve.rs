//! `solve` and `validate`: the rows of the command line's verbs, as Arrow record batches.
//!
//! Both run the library's [`solve_record`] on every record (`validate` through a [`Worker`],
//! which also rates the puzzle for an ER band), so a row holds what the command line writes
//! for the same record. `solve` makes each chunk's batch on the worker that solved
//! it; `validate` hands the rows to the library's [`Checker`] in input order on the calling
//! thread, as the command line's writer does, since a duplicate names the earlier line.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sudoku_batch::pipeline::canon::Canon;
use sudoku_batch::pipeline::grade::{ErBand, GradeOptions};
use sudoku_batch::pipeline::solve::{Row, SolveOptions, Worker, solve_record};
use sudoku_batch::pipeline::write::{COLUMNS, Value, row_values};
use sudoku_batch::solver::{Limits, Stop};
use sudoku_batch::validate::{COUNT_TO, Checker, Compare};

use crate::columns::{Columns, PROBLEM, schema, table};
use crate::input::Puzzles;
use crate::{parallel, strategy};

/// `options` with the stop flag of one call.
pub fn stoppable(options: &SolveOptions, stop: Stop) -> SolveOptions {
    SolveOptions {
        limits: Limits {
            stop: Some(stop),
            ..options.limits
        },
        ..*options
    }
}

/// The `line` of every record: `first_line` for the first, then one more each. Checked here,
/// so that no line number wraps around.
pub fn check_lines(first_line: u64, len: usize) -> PyResult<()> {
    match first_line.checked_add(len.saturating_sub(1) as u64) {
        Some(_) => Ok(()),
        None => Err(PyValueError::new_err(format!(
            "first_line={first_line}: the line of the last of {len} puzzles is past 2**64 - 1"
        ))),
    }
}

/// Solves every puzzle; one row per puzzle, in order.
#[pyfunction]
pub fn solve(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    limit: u64,
    solver: &str,
    threads: usize,
    max_guesses: Option<u64>,
    first_line: u64,
) -> PyResult<Py<PyAny>> {
    let puzzles = Puzzles::extract(puzzles, "puzzles")?;
    check_lines(first_line, puzzles.len())?;
    let options = SolveOptions {
        strategy: strategy(solver)?,
        limits: Limits {
            solutions: limit.max(1),
            guesses: max_guesses,
            stop: None,
        },
        ..SolveOptions::default()
    };
    let schema = schema(&COLUMNS);
    let mut batches = Vec::new();
    parallel::run(
        py,
        threads,
        puzzles.len(),
        || options.strategy.solver(),
        |solver, range, stop| {
            let options = stoppable(&options, stop);
            let mut chunk = Columns::new(schema.clone(), range.len());
            let mut error = String::new();
            for i in range {
                let row = solve_record(&mut **solver, puzzles.record(i, first_line), &options);
                chunk.push(&row_values(&row, &mut error));
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

/// `validate`'s checks: the rows of the records that fail (of every record with `all`), with
/// the `problem` column.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn validate(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    solver: &str,
    threads: usize,
    max_guesses: Option<u64>,
    expected: Option<&Bound<'_, PyAny>>,
    minimal: bool,
    duplicates: bool,
    isomorphs: bool,
    min_clues: Option<usize>,
    band: Option<(u16, u16)>,
    ruleset: &str,
    max_time_ms: Option<u64>,
    all: bool,
    first_line: u64,
) -> PyResult<Py<PyAny>> {
    let puzzles = Puzzles::extract(puzzles, "puzzles")?;
    check_lines(first_line, puzzles.len())?;
    let expected = expected
        .map(|e| Puzzles::extract(e, "expected"))
        .transpose()?;
    if let Some(e) = &expected
        && e.len() != puzzles.len()
    {
        return Err(PyValueError::new_err(format!(
            "expected: {} solutions for {} puzzles",
            e.len(),
            puzzles.len()
        )));
    }
    // As `sudoku-batch validate`: count to 2, search for redundant clues and rate (with an ER
    // band) on the workers.
    let grade = GradeOptions {
        ruleset: crate::grade::ruleset(ruleset)?,
        max_time: max_time_ms.map(std::time::Duration::from_millis),
        // Rated only as far as the band needs (no end: 0 and the greatest number).
        band: ErBand {
            min: band.map(|b| b.0).filter(|&m| m > 0),
            max: band.map(|b| b.1).filter(|&m| m < u16::MAX),
        },
    };
    let options = SolveOptions {
        strategy: strategy(solver)?,
        limits: Limits {
            solutions: COUNT_TO,
            guesses: max_guesses,
            stop: None,
        },
        keep_solutions: false,
        find_redundant: minimal,
        grade: band.map(|_| grade),
        // The workers find the forms that isomorph duplicates are told by.
        canon: if duplicates && isomorphs {
            Canon::Also
        } else {
            Canon::Off
        },
    };
    let compare = if isomorphs {
        Compare::Isomorph
    } else {
        Compare::Exact
    };
    // A later isomorph of a puzzle whose status is known is not searched, when nothing else
    // needs its own search.
    let mut checker = Checker::new(false, min_clues)
        .with_duplicates(duplicates.then_some(compare))
        .copying_classes(&options, expected.is_some());
    if let Some((min, max)) = band {
        checker = checker.with_er_band(min, max);
    }
    let known = checker.known();
    let fields: Vec<_> = COLUMNS.iter().copied().chain([PROBLEM]).collect();
    let schema = schema(&fields);
    let mut error = String::new();
    let mut report = Columns::new(schema.clone(), 0);
    let mut batches = Vec::new();
    parallel::run(
        py,
        threads,
        puzzles.len(),
        || Worker::new(&options).with_known(known.clone()),
        |worker, range, stop| {
            let options = stoppable(&options, stop);
            range
                .map(|i| {
                    let mut record = puzzles.record(i, first_line);
                    record.expected = expected.as_ref().map(|e| Box::new(e.expected(i)));
                    worker.row(record, &options)
                })
                .collect::<Vec<Row>>()
        },
        |mut rows| {
            for row in &mut rows {
                let problem = checker.check(row);
                if all || !problem.is_empty() {
                    let values = row_values(row, &mut error);
                    report.push(values.iter().chain([&Value::Text(problem)]));
                }
            }
            // Batches of the size of `solve`'s: a string column holds at most 2 GiB.
            if report.len() >= parallel::CHUNK {
                batches.push(report.batch()?);
            }
            Ok(())
        },
    )?;
    if report.len() > 0 || batches.is_empty() {
        batches.push(report.batch()?);
    }
    table(py, batches, schema)
}
