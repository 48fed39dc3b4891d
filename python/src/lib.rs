//! `sudoku_batch._native`: the Rust side of the Python package `sudoku_batch`.
//!
//! The package's `__init__.py` checks and converts the arguments and documents the API; this
//! module does the work with the library: it turns the puzzles into records ([`input`]),
//! solves them on the library's thread pool with one solver per worker and the GIL released
//! ([`parallel`]), and writes each chunk's rows straight into Arrow columns ([`columns`]), which
//! reach Python as one `pyarrow.Table` through the Arrow C data interface. One module per verb:
//! [`solve`] (`solve` and `validate`), [`grade`], [`canon`], [`generate`] and [`augment`]
//! (NumPy arrays rather than a table).

mod augment;
mod canon;
mod columns;
mod generate;
mod grade;
mod input;
mod parallel;
mod solve;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sudoku_batch::pipeline::max_threads;
use sudoku_batch::solver::Strategy;

/// The strategy called `name`.
fn strategy(name: &str) -> PyResult<Strategy> {
    Strategy::ALL
        .iter()
        .copied()
        .find(|s| s.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
            PyValueError::new_err(format!(
                "solver={name:?}: choose one of {}",
                names.join(", ")
            ))
        })
}

/// The most worker threads a call uses: four per CPU the process may use.
#[pyfunction(name = "max_threads")]
fn max_threads_py() -> usize {
    max_threads()
}

/// The names of the solver strategies, the default first.
#[pyfunction]
fn solvers() -> Vec<&'static str> {
    Strategy::ALL.iter().map(|s| s.name()).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::validate, m)?)?;
    m.add_function(wrap_pyfunction!(grade::grade, m)?)?;
    m.add_function(wrap_pyfunction!(canon::canon, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate_around, m)?)?;
    m.add_function(wrap_pyfunction!(augment::augment, m)?)?;
    m.add_function(wrap_pyfunction!(max_threads_py, m)?)?;
    m.add_function(wrap_pyfunction!(solvers, m)?)?;
    // The package's version, `sudoku_batch.__version__`: this crate's, which is the library's
    // and the command line's (a test of the repository keeps them equal).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
