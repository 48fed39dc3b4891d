//! `generate`: new puzzles as `sudoku-batch generate` makes them, into a pyarrow array.
//!
//! Puzzle `i` of a seed comes from the library's [`puzzle_rng`] and the command line's pair of
//! solvers, so a seed gives the command line's puzzles whatever the thread count (a test
//! compares them).

use arrow_array::builder::{ArrayBuilder, StringBuilder};
use arrow_array::{Array, StringArray};
use arrow_data::ArrayData;
use arrow_pyarrow::PyArrowType;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sudoku_batch::generate::{
    MIN_UNIQUE_CLUES, Spec, Symmetry, puzzle, puzzle_rng, random_solution,
};
use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::solver::Strategy;

use crate::parallel;

/// The symmetry called `name`, as the command line names them.
fn symmetry(name: &str) -> PyResult<Symmetry> {
    const NAMES: [(&str, Symmetry); 7] = [
        ("none", Symmetry::None),
        ("rotational", Symmetry::Rotational),
        ("quarter-turn", Symmetry::QuarterTurn),
        ("mirror", Symmetry::Mirror),
        ("flip", Symmetry::Flip),
        ("diagonal", Symmetry::Diagonal),
        ("anti-diagonal", Symmetry::AntiDiagonal),
    ];
    NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, s)| s)
        .ok_or_else(|| {
            let names: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
            PyValueError::new_err(format!(
                "symmetry={name:?}: choose one of {}",
                names.join(", ")
            ))
        })
}

/// The spec the options ask for, or why it cannot be met (the command line's checks).
fn spec(
    symmetry: &str,
    min_clues: Option<usize>,
    max_clues: Option<usize>,
    attempts: u64,
) -> PyResult<Spec> {
    let spec = Spec {
        symmetry: self::symmetry(symmetry)?,
        min_clues: min_clues.unwrap_or(0),
        max_clues: max_clues.unwrap_or(CELLS),
        attempts: if min_clues.is_some() || max_clues.is_some() {
            attempts
        } else {
            1
        },
    };
    if spec.max_clues < MIN_UNIQUE_CLUES {
        return Err(PyValueError::new_err(format!(
            "max_clues={}: no puzzle with fewer than {MIN_UNIQUE_CLUES} clues has exactly one \
             solution",
            spec.max_clues
        )));
    }
    if spec.min_clues > spec.max_clues.min(CELLS) {
        return Err(PyValueError::new_err(format!(
            "min_clues={} is more than max_clues={}",
            spec.min_clues,
            spec.max_clues.min(CELLS)
        )));
    }
    Ok(spec)
}

/// The most puzzles one call makes: as many lines of 81 characters as a pyarrow string array
/// holds (2 GiB of text, its offsets being 32-bit).
const MAX_COUNT: usize = i32::MAX as usize / CELLS;

/// Lines reserved up front: enough for a small call at once; a larger one grows as the
/// puzzles come, so that memory is taken for what is made, not for what was asked.
const RESERVE: usize = 1 << 16;

/// `count` puzzles (or complete grids with `solved`) as `sudoku-batch generate` makes them.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn generate(
    py: Python<'_>,
    count: usize,
    seed: u64,
    symmetry: &str,
    min_clues: Option<usize>,
    max_clues: Option<usize>,
    attempts: u64,
    solved: bool,
    threads: usize,
) -> PyResult<PyArrowType<ArrayData>> {
    if count > MAX_COUNT {
        return Err(PyValueError::new_err(format!(
            "count={count}: at most {} puzzles in one call (a pyarrow string array holds at \
             most 2 GiB of text); make more with several calls (other seeds), or with \
             `sudoku-batch generate`, which writes them as they come",
            sudoku_batch::words::thousands(MAX_COUNT as u64)
        )));
    }
    let spec = spec(symmetry, min_clues, max_clues, attempts)?;
    let reserve = count.min(RESERVE);
    let mut lines = StringBuilder::with_capacity(reserve, reserve * CELLS);
    parallel::run(
        py,
        threads,
        count,
        // The command line's pair: the grid is the first solution `singles` finds, so a seed
        // gives the same puzzles in every version; minimising only counts solutions.
        || (Strategy::Singles.solver(), Strategy::default().solver()),
        |(filler, counter), range, stop| {
            let mut made: Vec<Option<Grid>> = Vec::with_capacity(range.len());
            for i in range {
                if stop.is_set() {
                    break;
                }
                let mut rng = puzzle_rng(seed, i as u64);
                made.push(if solved {
                    Some(random_solution(&mut rng, &mut **filler))
                } else {
                    puzzle(&mut rng, &spec, &mut **filler, &mut **counter)
                });
            }
            made
        },
        |made| {
            for grid in made {
                let Some(grid) = grid else {
                    let bounds = match (min_clues, max_clues) {
                        (Some(min), Some(max)) => format!("{min} to {max}"),
                        (Some(min), None) => format!("at least {min}"),
                        (None, _) => format!("at most {}", spec.max_clues),
                    };
                    return Err(PyValueError::new_err(format!(
                        "puzzle {}: no draw in {} attempts had {bounds} clues; widen \
                         min_clues/max_clues or raise attempts",
                        lines.len() + 1,
                        spec.attempts
                    )));
                };
                let mut line = [0u8; CELLS];
                grid.write_line(&mut line);
                lines.append_value(std::str::from_utf8(&line).expect("a grid's line is ASCII"));
            }
            Ok(())
        },
    )?;
    let lines: StringArray = lines.finish();
    Ok(PyArrowType(lines.into_data()))
}
