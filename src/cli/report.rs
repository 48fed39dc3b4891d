//! `sudoku-batch report`: the results files of solve, validate and grade turned into one HTML
//! page (and the same numbers as JSON), by the library's [`sudoku_batch::report`].

use sudoku_batch::pipeline::{Output, RunError};
use sudoku_batch::report::{Limits, ReportConfig};

use super::Exit;
use super::args::ReportArgs;

/// Runs `report`.
pub fn run(args: ReportArgs) -> Result<Exit, RunError> {
    let config = ReportConfig {
        inputs: args.results,
        output: Output::from_arg(Some(&args.output)),
        json: args.json,
        limits: Limits {
            top: args.top,
            failures: args.failures,
        },
    };
    sudoku_batch::report::run(&config)?;
    Ok(Exit::Ok)
}
