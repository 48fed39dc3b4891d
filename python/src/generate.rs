//! `generate`: new puzzles as `sudoku-batch generate` makes them, into a pyarrow array; and
//! `generate_around`: new puzzles next to given ones, as `generate --around` finds them.
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
use sudoku_batch::generate::around::{self, Neighbours, Offered};
use sudoku_batch::generate::{
    MIN_UNIQUE_CLUES, Spec, Symmetry, puzzle, puzzle_rng, random_solution, rated_around,
    rated_puzzle,
};
use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::logic::{Budget, Grader};
use sudoku_batch::pipeline::grade::tenths;
use sudoku_batch::solver::Strategy;

use crate::grade::ruleset;
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
    band: Option<(u16, u16)>,
    attempts: u64,
) -> PyResult<Spec> {
    let spec = Spec {
        symmetry: self::symmetry(symmetry)?,
        min_clues: min_clues.unwrap_or(0),
        max_clues: max_clues.unwrap_or(CELLS),
        attempts: if min_clues.is_some() || max_clues.is_some() || band.is_some() {
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
    if let Some((min, max)) = band
        && min > max
    {
        return Err(PyValueError::new_err(format!(
            "min_er={} is more than max_er={}",
            tenths(min),
            tenths(max)
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
/// With `band` (ER in tenths, both ends included), only puzzles rated within it, by `ruleset`
/// within `max_time_ms` each.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn generate(
    py: Python<'_>,
    count: usize,
    seed: u64,
    symmetry: &str,
    min_clues: Option<usize>,
    max_clues: Option<usize>,
    band: Option<(u16, u16)>,
    ruleset: &str,
    max_time_ms: Option<u64>,
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
    let spec = spec(symmetry, min_clues, max_clues, band, attempts)?;
    let ruleset = self::ruleset(ruleset)?;
    let max_time = max_time_ms.map(std::time::Duration::from_millis);
    let reserve = count.min(RESERVE);
    let mut lines = StringBuilder::with_capacity(reserve, reserve * CELLS);
    parallel::run(
        py,
        threads,
        count,
        // As the command line does: minimising only asks about solutions, so any strategy
        // gives the same puzzle.
        || {
            let grader = band.map(|_| Grader::with_ruleset(ruleset));
            (Strategy::default().solver(), grader)
        },
        |(counter, grader), range, stop| {
            let mut made: Vec<Option<Grid>> = Vec::with_capacity(range.len());
            for i in range {
                if stop.is_set() {
                    break;
                }
                let mut rng = puzzle_rng(seed, i as u64);
                made.push(match (solved, band, grader.as_mut()) {
                    (true, ..) => Some(random_solution(&mut rng)),
                    (false, Some((min, max)), Some(grader)) => {
                        let budget = || Budget {
                            deadline: max_time.map(|t| std::time::Instant::now() + t),
                            stop: Some(stop.flag()),
                        };
                        rated_puzzle(&mut rng, &spec, min..=max, &mut **counter, grader, &budget)
                            .map(|(p, _)| p)
                    }
                    _ => puzzle(&mut rng, &spec, &mut **counter),
                });
            }
            made
        },
        |made| {
            for grid in made {
                let Some(grid) = grid else {
                    return Err(PyValueError::new_err(no_fit(
                        lines.len() + 1,
                        &spec,
                        min_clues,
                        max_clues,
                        band,
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

/// The seed puzzles of `around`, each with exactly one solution, or why one is not.
fn seeds(around: &[String]) -> PyResult<Vec<Grid>> {
    let mut solver = Strategy::default().solver();
    let mut seeds = Vec::with_capacity(around.len());
    for (i, text) in around.iter().enumerate() {
        let at = |what: String| PyValueError::new_err(format!("around[{i}]: {what}"));
        let grid: Grid = text
            .trim()
            .parse()
            .map_err(|e| at(format!("not a puzzle: {e}")))?;
        if let Some(problem) = around::seed_problem(&grid, &mut *solver) {
            return Err(at(problem.into()));
        }
        seeds.push(grid);
    }
    if seeds.is_empty() {
        return Err(PyValueError::new_err("around: no puzzle to search around"));
    }
    Ok(seeds)
}

/// `count` new puzzles next to the puzzles of `around`, rated in `band` (ER in tenths, both
/// ends included), as `sudoku-batch generate --around` finds them: the same puzzles for a seed.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn generate_around(
    py: Python<'_>,
    count: usize,
    seed: u64,
    around: Vec<String>,
    band: (u16, u16),
    ruleset: &str,
    max_time_ms: Option<u64>,
    attempts: u64,
    threads: usize,
) -> PyResult<PyArrowType<ArrayData>> {
    if count > MAX_COUNT {
        return Err(PyValueError::new_err(format!(
            "count={count}: at most {} puzzles in one call",
            sudoku_batch::words::thousands(MAX_COUNT as u64)
        )));
    }
    let (min, max) = band;
    if min > max {
        return Err(PyValueError::new_err(format!(
            "min_er={} is more than max_er={}",
            tenths(min),
            tenths(max)
        )));
    }
    let seeds = seeds(&around)?;
    let ruleset = self::ruleset(ruleset)?;
    let max_time = max_time_ms.map(std::time::Duration::from_millis);
    let mut neighbours = Neighbours::new(&seeds);
    let mut lines = StringBuilder::with_capacity(count.min(RESERVE), count.min(RESERVE) * CELLS);
    let mut next = 0u64;
    while lines.len() < count {
        let round = around::ROUND.min(count - lines.len());
        let mut made: Vec<Option<Grid>> = Vec::with_capacity(round);
        parallel::run_chunked(
            py,
            threads,
            round,
            1,
            || (Strategy::default().solver(), Grader::with_ruleset(ruleset)),
            |(counter, grader), range, stop| {
                let budget = || Budget {
                    deadline: max_time.map(|t| std::time::Instant::now() + t),
                    stop: Some(stop.flag()),
                };
                range
                    .map(|i| {
                        let mut rng = puzzle_rng(seed, next + i as u64);
                        rated_around(
                            &mut rng,
                            &seeds,
                            min..=max,
                            attempts,
                            &mut **counter,
                            grader,
                            &budget,
                        )
                    })
                    .collect::<Vec<_>>()
            },
            |out| {
                made.extend(out);
                Ok(())
            },
        )?;
        next += round as u64;
        for grid in made {
            let Some(grid) = grid else {
                return Err(PyValueError::new_err(format!(
                    "puzzle {}: none of {attempts} neighbours tried was rated in the band; \
                     widen min_er/max_er or raise attempts",
                    lines.len() + 1
                )));
            };
            match neighbours.offer(grid) {
                Offered::New => {}
                Offered::Repeat => continue,
                Offered::Spent => {
                    return Err(PyValueError::new_err(format!(
                        "after {} new puzzles, the last {} neighbours found were all seeds or \
                         puzzles made before; add seeds or widen min_er/max_er",
                        lines.len(),
                        around::REPEATS
                    )));
                }
            }
            let mut line = [0u8; CELLS];
            grid.write_line(&mut line);
            lines.append_value(std::str::from_utf8(&line).expect("a grid's line is ASCII"));
            if lines.len() == count {
                break;
            }
        }
    }
    let lines: StringArray = lines.finish();
    Ok(PyArrowType(lines.into_data()))
}

/// Why puzzle `n` (1-based) was not made: no draw met the bounds within the attempts.
fn no_fit(
    n: usize,
    spec: &Spec,
    min_clues: Option<usize>,
    max_clues: Option<usize>,
    band: Option<(u16, u16)>,
) -> String {
    let clues = match (min_clues, max_clues) {
        (Some(min), Some(max)) => Some(format!("{min} to {max} clues")),
        (Some(min), None) => Some(format!("at least {min} clues")),
        (None, Some(max)) => Some(format!("at most {max} clues")),
        (None, None) => None,
    };
    let er = band.map(|(min, max)| {
        let top = if max == u16::MAX {
            "the top".to_string()
        } else {
            tenths(max)
        };
        format!("an ER from {} to {top}", tenths(min.max(10)))
    });
    let (wanted, options) = match (clues, er) {
        (Some(c), Some(e)) => (format!("{c} and {e}"), "the clue or ER bounds"),
        (Some(c), None) => (c, "min_clues/max_clues"),
        (None, Some(e)) => (e, "min_er/max_er"),
        (None, None) => ("a puzzle".to_string(), "the bounds"),
    };
    format!(
        "puzzle {n}: no draw in {} attempts had {wanted}; widen {options} or raise attempts",
        spec.attempts
    )
}
