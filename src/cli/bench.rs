//! `sudoku-batch bench`: solver throughput on puzzle files (any input `solve` reads), as a
//! table or CSV.

use std::io::Write;
use std::path::PathBuf;

use super::Exit;
use crate::cli::args::{BenchArgs, SolverChoice};
use sudoku_batch::bench::{self, BenchConfig, BenchError};
use sudoku_batch::pipeline::RunError;
use sudoku_batch::pipeline::output::write_err;
use sudoku_batch::pipeline::read::Source;
use sudoku_batch::solver::Limits;

/// Runs `bench`.
pub fn run(args: BenchArgs) -> Result<Exit, RunError> {
    let paths = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    };
    // Each corpus is read whole before it is timed: at a terminal that waits for Ctrl-D.
    for path in &paths {
        super::hint_if_reading_a_terminal(&[Source::from_arg(Some(path))]);
    }
    let config = BenchConfig {
        paths,
        read: args.read.options(),
        strategies: SolverChoice::strategies(&args.solver),
        limits: Limits {
            solutions: args.limit,
            guesses: args.max_guesses,
            stop: None,
        },
        threads: super::threads(args.threads.max(1)),
        runs: args.runs as usize,
    };
    let rows = bench::run(&config).map_err(|e| match e {
        BenchError::Read(e) => RunError::Read(e),
        BenchError::Threads(e) => RunError::Threads(e.to_string()),
    })?;
    let text = if args.csv {
        bench::render_csv(&rows)
    } else {
        bench::render_table(&rows)
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(write_err("<stdout>"))?;
    Ok(Exit::Ok)
}
