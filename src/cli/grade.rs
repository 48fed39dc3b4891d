//! `sudoku-batch grade`: every puzzle rated on the Sudoku Explainer scale, through the
//! pipeline of `solve`, with the ER bands in the summary.

use sudoku_batch::pipeline::grade::GradeOptions;
use sudoku_batch::pipeline::read::Source;
use sudoku_batch::pipeline::solve::{SolveOptions, Status};
use sudoku_batch::pipeline::{Config, Output, RunError};
use sudoku_batch::solver::Limits;

use super::args::GradeArgs;
use super::progress;
use super::{Exit, stop_on_signal, to_stderr};

/// Runs `grade`.
pub fn run(args: GradeArgs) -> Result<Exit, RunError> {
    let band = match args.band.band() {
        Ok(band) => band,
        Err(message) => {
            eprintln!("sudoku-batch: error: {message}");
            return Ok(Exit::Error);
        }
    };
    let (inputs, read) = args.input.open(args.output.output.as_deref())?;
    let config = Config {
        read,
        solve: SolveOptions {
            strategy: args.solver.solver,
            // Only a puzzle proved to have exactly one solution is rated.
            limits: Limits {
                solutions: 2,
                guesses: args.solver.max_guesses,
                stop: None,
            },
            keep_solutions: false,
            find_redundant: false,
            grade: Some(GradeOptions {
                band,
                ..args.rating.options()
            }),
            ..SolveOptions::default()
        },
        threads: super::threads(args.solver.threads),
        batch_size: args.batch_size,
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
        to_stderr(|out| {
            progress::write_summary(out, &summary)?;
            progress::write_ratings(out, &summary.ratings)?;
            progress::write_band(out, &summary.ratings, &band)
        });
    }
    super::hint_resume(&summary, args.output.output.as_deref());
    let failed = summary.count(Status::Invalid) + summary.resumed_invalid + summary.ratings.unrated;
    Ok(if summary.interrupted {
        Exit::Interrupted
    } else if failed > 0 {
        Exit::Failed
    } else {
        Exit::Ok
    })
}
