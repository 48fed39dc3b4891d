//! `sudoku-batch validate`: proves a whole corpus sound.
//!
//! The records go through the same pipeline as `solve`; the library's [`Checker`] decides each
//! record's problems. This module writes only the rows that fail (or all with `--all`) with the
//! extra `problem` column, and gives the summary and the exit code.

use sudoku_batch::pipeline::canon::Canon;
use sudoku_batch::pipeline::grade::GradeOptions;
use sudoku_batch::pipeline::read::{ReadOptions, Source, inputs};
use sudoku_batch::pipeline::solve::SolveOptions;
use sudoku_batch::pipeline::write::{Value, row_values};
use sudoku_batch::pipeline::{self, Config, Output, RunError};
use sudoku_batch::solver::Limits;
use sudoku_batch::validate::{Against, COLUMNS, COUNT_TO, Checker, Compare};
use sudoku_batch::words::thousands;

use super::args::ValidateArgs;
use super::progress::{self, Bar};
use super::{Exit, to_stderr};

/// Runs `validate`.
pub fn run(args: ValidateArgs) -> Result<Exit, RunError> {
    let band = match args.er.band() {
        Ok(band) => band,
        Err(message) => {
            eprintln!("sudoku-batch: error: {message}");
            return Ok(Exit::Error);
        }
    };
    let (inputs, read) = args.input.open(args.output.output.as_deref())?;
    // No --against is none, not stdin as for the inputs.
    let against = if args.against.is_empty() {
        Vec::new()
    } else {
        inputs::expand(&args.against, None, &mut super::warn)?
    };
    if against.contains(&Source::Stdin) && inputs.contains(&Source::Stdin) {
        return Err(RunError::Usage {
            path: "<stdin>".into(),
            message: "stdin cannot be both an input and --against; name a file for one".into(),
        });
    }
    let compare = if args.isomorphs {
        Compare::Isomorph
    } else {
        Compare::Exact
    };
    let config = Config {
        read: ReadOptions {
            expect_column: args.expect_column.clone(),
            ..read
        },
        solve: SolveOptions {
            strategy: args.solver.solver,
            limits: Limits {
                solutions: COUNT_TO,
                guesses: args.solver.max_guesses,
                stop: None,
            },
            keep_solutions: false,
            find_redundant: args.minimal,
            // Rated only as far as the band needs.
            grade: band.any().then(|| GradeOptions {
                band,
                ..args.rating.options()
            }),
            canon: if args.isomorphs && (args.duplicates || !against.is_empty()) {
                Canon::Also
            } else {
                Canon::Off
            },
        },
        threads: super::threads(args.solver.threads),
        batch_size: args.batch_size,
        // Ctrl-C stops at a batch boundary, like `solve`: the report stays a valid CSV.
        stop: super::stop_on_signal(args.output.output.as_deref()),
        also_read: against.clone(),
        inputs,
        output_format: args.output_format,
        ..Config::new(
            Source::Stdin,
            Output::from_arg(args.output.output.as_deref()),
        )
    };
    // A later isomorph of a puzzle whose status is known is not searched, when nothing else
    // needs its own search.
    let mut checker = Checker::new(false, args.min_clues)
        .with_duplicates(args.duplicates.then_some(compare))
        .copying_classes(&config.solve, args.expect_column.is_some());
    let config = Config {
        known: checker.known(),
        ..config
    };
    if config.inputs.len() > 1 {
        checker = checker.with_names(config.inputs.iter().map(Source::display_name).collect());
    }
    if !against.is_empty() {
        let pool = pipeline::thread_pool(config.threads)?;
        let read = ReadOptions::default();
        checker = checker.with_against(Against::read(&against, &read, compare, &pool)?);
    }
    if args.er.any() {
        checker = checker.with_er_band(
            args.er.min_er.unwrap_or(0),
            args.er.max_er.unwrap_or(u16::MAX),
        );
    }
    let all = args.all;
    super::hint_if_reading_a_terminal(&config.inputs);
    let bar = Bar::new(args.output.progress());
    let mut error = String::new();
    let summary = pipeline::run_with(&config, &COLUMNS, &mut |p| bar.update(p), |w, row| {
        let problem = checker.check(row);
        if problem.is_empty() && !all {
            return Ok(());
        }
        let [a, b, c, d, e, f, g, h] = row_values(row, &mut error);
        w.write_row(&[a, b, c, d, e, f, g, h, Value::Text(problem)])
    });
    bar.finish();
    let summary = summary?;
    if args.output.summary() {
        to_stderr(|out| {
            progress::write_summary(out, &summary)?;
            progress::write_problems(out, &checker, summary.interrupted)?;
            match checker.classes() {
                Some(n) => writeln!(
                    out,
                    "  {} essentially different puzzles (distinct canonical forms)",
                    thousands(n)
                ),
                None => Ok(()),
            }
        });
    }
    Ok(if summary.interrupted {
        Exit::Interrupted
    } else if checker.failed() > 0 {
        Exit::Failed
    } else {
        Exit::Ok
    })
}
