//! `sudoku-batch solve`: the streaming pipeline with CSV results.

use super::{Exit, print_summary, stop_on_signal};
use crate::cli::SolveArgs;
use crate::pipeline::read::Source;
use crate::pipeline::solve::{SolveOptions, Status};
use crate::pipeline::{self, Config, Output, RunError};

/// Runs `solve`.
pub fn run(args: SolveArgs) -> Result<Exit, RunError> {
    let config = Config {
        read: args.input.read.options(),
        solve: SolveOptions {
            strategy: args.solver.solver,
            limits: args.solver.limits(),
            keep_solutions: args.emit_solutions.is_some(),
            find_redundant: false,
        },
        threads: args.solver.threads,
        batch_size: args.batch_size,
        progress: args.output.progress(),
        emit_solutions: args.emit_solutions.clone(),
        stop: stop_on_signal(),
        resume: args.resume,
        ..Config::new(
            Source::from_arg(args.input.input.as_deref()),
            Output::from_arg(args.output.output.as_deref()),
        )
    };
    super::hint_if_reading_a_terminal(&config.source);
    let summary = pipeline::run(&config)?;
    if args.output.summary() {
        print_summary(&summary);
    }
    Ok(if summary.interrupted {
        Exit::Interrupted
    } else if summary.count(Status::Invalid) + summary.resumed_invalid > 0 {
        Exit::Failed
    } else {
        Exit::Ok
    })
}
