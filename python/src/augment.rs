//! `augment`: random isomorphs of every puzzle and its solution, as two NumPy arrays.
//!
//! Copy `k` of the puzzle at position `i` is transformed by the `k`-th transformation the
//! library draws for line `first_line + i` of input 0 ([`copies`]), so a seed gives the command
//! line's copies of a text file of the same puzzles, whatever the thread count. The arrays are
//! made first (the GIL held) and filled in place by the library's pool with the GIL released,
//! each task writing the rows of its own puzzles: no row is copied twice. The puzzles go in
//! slabs, between which the calling thread looks for Ctrl-C. On request a third array holds
//! each copy's transformation as [`TRANSFORM_WIDTH`] numbers.

use numpy::{PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::isomorph::augment::{copies, not_augmented, solution_problem, write_copies};
use sudoku_batch::pipeline::read::RecordInput;
use sudoku_batch::pipeline::solve::Status;
use sudoku_batch::solver::{Limits, Solver, Strategy};

use crate::input::Puzzles;
use crate::parallel;
use crate::solve::check_lines;

/// Puzzles per task: enough that a task's start costs nothing beside its work.
const TASK: usize = 256;

/// Puzzles between two looks for Ctrl-C: a fraction of a second of solving on one core.
const SLAB: usize = 64 * TASK;

/// A puzzle that cannot be augmented: its position and why.
type Refused = (usize, String);

/// The numbers of one transformation: 1 if it transposes first, the 9 rows of the (transposed)
/// original that rows 0 to 8 of the copy are (0-based), the 9 columns likewise, and what digits
/// 1 to 9 become: `augment --with-transform`'s text form as numbers.
const TRANSFORM_WIDTH: usize = 28;

/// The arrays of puzzles and of solutions, and of transformations if asked for.
type Copies<'py> = (
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray2<u8>>,
    Option<Bound<'py, PyArray2<u8>>>,
);

/// `copies` random isomorphs of every puzzle and of its solution: arrays of shape
/// (N * copies, 81), row `i * copies + k` being copy `k` of puzzle `i`; with `with_transform`
/// also the (N * copies, [`TRANSFORM_WIDTH`]) array of the transformations.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn augment<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    copies: usize,
    seed: u64,
    solutions: Option<&Bound<'py, PyAny>>,
    threads: usize,
    first_line: u64,
    with_transform: bool,
) -> PyResult<Copies<'py>> {
    if copies == 0 {
        return Err(PyValueError::new_err("copies=0: ask for 1 or more"));
    }
    let puzzles = Puzzles::extract(puzzles, "puzzles")?;
    let solutions = solutions
        .map(|s| Puzzles::extract(s, "solutions"))
        .transpose()?;
    let n = puzzles.len();
    if let Some(s) = &solutions
        && s.len() != n
    {
        return Err(PyValueError::new_err(format!(
            "solutions: {} of them for {n} puzzles",
            s.len()
        )));
    }
    check_lines(first_line, n)?;
    let rows = n
        .checked_mul(copies)
        .filter(|r| r.checked_mul(CELLS).is_some())
        .ok_or_else(|| {
            PyValueError::new_err(format!("{n} puzzles x {copies} copies is too many"))
        })?;
    let out_puzzles = PyArray2::<u8>::zeros(py, [rows, CELLS], false);
    let out_solutions = PyArray2::<u8>::zeros(py, [rows, CELLS], false);
    let job = Job {
        puzzles: &puzzles,
        solutions: solutions.as_ref(),
        copies,
        seed,
        first_line,
    };
    {
        let mut p = out_puzzles.readwrite();
        let mut s = out_solutions.readwrite();
        fill(py, threads, &job, p.as_slice_mut()?, s.as_slice_mut()?)?;
    }
    // The transformations are drawn again (the same for the same seed and line), on the pool:
    // cheap beside the copies, and no cost when not asked for.
    let transforms = with_transform
        .then(|| transforms(py, threads, &job, rows))
        .transpose()?;
    Ok((out_puzzles, out_solutions, transforms))
}

/// The transformations of every copy, [`TRANSFORM_WIDTH`] numbers a row.
fn transforms<'py>(
    py: Python<'py>,
    threads: usize,
    job: &Job,
    rows: usize,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let pool = parallel::pool(threads)?;
    let out = PyArray2::<u8>::zeros(py, [rows, TRANSFORM_WIDTH], false);
    {
        let mut t = out.readwrite();
        let t = t.as_slice_mut()?;
        let per_puzzle = job.copies * TRANSFORM_WIDTH;
        py.detach(|| {
            pool.install(|| {
                t.par_chunks_mut(per_puzzle)
                    .enumerate()
                    .for_each(|(i, rows)| {
                        let drawn = copies(job.seed, 0, job.first_line + i as u64);
                        for (row, t) in rows.chunks_exact_mut(TRANSFORM_WIDTH).zip(drawn) {
                            row[0] = u8::from(t.transposes());
                            row[1..10].copy_from_slice(&t.rows());
                            row[10..19].copy_from_slice(&t.cols());
                            row[19..28].copy_from_slice(&t.digits());
                        }
                    })
            })
        });
    }
    Ok(out)
}

/// What every task reads.
struct Job<'a> {
    puzzles: &'a Puzzles,
    solutions: Option<&'a Puzzles>,
    copies: usize,
    seed: u64,
    first_line: u64,
}

/// Fills `puzzles` and `solutions` (the output arrays' memory) slab by slab on the pool.
fn fill(
    py: Python<'_>,
    threads: usize,
    job: &Job,
    puzzles: &mut [u8],
    solutions: &mut [u8],
) -> PyResult<()> {
    let pool = parallel::pool(threads)?;
    // The cells of one puzzle's copies (`copies` is at least 1).
    let per_puzzle = job.copies * CELLS;
    let slabs = puzzles
        .chunks_mut(SLAB * per_puzzle)
        .zip(solutions.chunks_mut(SLAB * per_puzzle));
    let count = job.puzzles.len();
    for (slab, (p, s)) in slabs.enumerate() {
        py.check_signals()?;
        let first = slab * SLAB;
        let end = (first + SLAB).min(count);
        let refused = py.detach(|| {
            pool.install(|| {
                (first..end)
                    .step_by(TASK)
                    .collect::<Vec<_>>()
                    .into_par_iter()
                    .zip(p.par_chunks_mut(TASK * per_puzzle))
                    .zip(s.par_chunks_mut(TASK * per_puzzle))
                    .map_init(
                        || Strategy::Fast.solver(),
                        |solver, ((start, p), s)| {
                            let end = (start + TASK).min(end);
                            task(job, &mut **solver, start..end, p, s)
                        },
                    )
                    .filter_map(Result::err)
                    .min_by_key(|(i, _)| *i)
            })
        });
        if let Some((i, why)) = refused {
            return Err(PyValueError::new_err(format!("puzzles[{i}]: {why}")));
        }
    }
    Ok(())
}

/// Writes the copies of the puzzles `range` into `puzzles` and `solutions` (their rows only);
/// the first puzzle that cannot be augmented stops it.
fn task(
    job: &Job,
    solver: &mut dyn Solver,
    range: std::ops::Range<usize>,
    puzzles: &mut [u8],
    solutions: &mut [u8],
) -> Result<(), Refused> {
    let per_puzzle = job.copies * CELLS;
    for (k, i) in range.enumerate() {
        let line = job.first_line + i as u64;
        let (puzzle, solution) = pair(job, solver, i).map_err(|why| (i, why))?;
        let rows = k * per_puzzle..(k + 1) * per_puzzle;
        write_copies(
            &puzzle,
            &solution,
            copies(job.seed, 0, line),
            &mut puzzles[rows.clone()],
            &mut solutions[rows],
        );
    }
    Ok(())
}

/// Puzzle `i` and its solution: the one given, checked, or the only one, found.
fn pair(job: &Job, solver: &mut dyn Solver, i: usize) -> Result<(Grid, Grid), String> {
    let puzzle = match job.puzzles.record(i, job.first_line).input {
        RecordInput::Puzzle(g) => g,
        RecordInput::Invalid { reason, .. } => return Err(reason),
    };
    if let Some(solutions) = job.solutions {
        let solution = match solutions.record(i, job.first_line).input {
            RecordInput::Puzzle(g) => g,
            RecordInput::Invalid { reason, .. } => {
                return Err(format!("the solution is not a grid: {reason}"));
            }
        };
        return match solution_problem(&puzzle, &solution) {
            Some(why) => Err(why),
            None => Ok((puzzle, solution)),
        };
    }
    let limits = Limits::count_to(2);
    let outcome = solver.solve(&puzzle, limits);
    let status = Status::of(&outcome, limits);
    match outcome.solution {
        Some(solution) if status == Status::Unique => Ok((puzzle, solution)),
        _ => {
            // Only a puzzle with no solution is looked at for conflicting clues, as `solve` does.
            let conflict = (status == Status::Unsolvable)
                .then(|| puzzle.conflict())
                .flatten()
                .map(|c| c.to_string());
            Err(not_augmented(status, conflict).unwrap_or_default())
        }
    }
}
