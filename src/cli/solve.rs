//! `sudoku-batch solve`: the streaming pipeline with its results rows.

use sudoku_batch::pipeline::read::Source;
use sudoku_batch::pipeline::solve::{SolveOptions, Status};
use sudoku_batch::pipeline::{Config, Output, RunError};

use super::args::SolveArgs;
use super::{Exit, print_summary, stop_on_signal};

/// Runs `solve`.
pub fn run(args: SolveArgs) -> Result<Exit, RunError> {
    let (inputs, read) = args.input.open(args.output.output.as_deref())?;
    let config = Config {
        read,
        solve: SolveOptions {
            strategy: args.solver.solver,
            limits: args.solver.limits(),
            keep_solutions: args.emit_solutions.is_some(),
            find_redundant: false,
            grade: None,
            ..SolveOptions::default()
        },
        threads: super::threads(args.solver.threads),
        batch_size: args.batch_size,
        emit_solutions: args.emit_solutions.clone(),
        stop: stop_on_signal(args.output.output.as_deref()),
        resume: args.resume,
        inputs,
        output_format: args.output_format,
        ..Config::new(
            Source::Stdin,
            Output::from_arg(args.output.output.as_deref()),
        )
    };
    let summary = super::run_with_bar(&config, args.output.progress())?;
    if args.output.summary() {
        print_summary(&summary);
    }
    super::hint_resume(&summary, args.output.output.as_deref());
    Ok(if summary.interrupted {
        Exit::Interrupted
    } else if summary.count(Status::Invalid) + summary.resumed_invalid > 0 {
        Exit::Failed
    } else {
        Exit::Ok
    })
}
