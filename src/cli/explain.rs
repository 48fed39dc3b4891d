//! `sudoku-batch explain`: the step trace of one puzzle, given on the command line or taken
//! from a line of an input file.

use super::Exit;
use crate::cli::args::ExplainArgs;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use sudoku_batch::explain::logic::{WalkthroughError, walkthrough};
use sudoku_batch::explain::{ExplainError, ExplainOptions, explain};
use sudoku_batch::grid::Grid;
use sudoku_batch::logic::Budget;
use sudoku_batch::pipeline::RunError;
use sudoku_batch::pipeline::output::write_err;
use sudoku_batch::pipeline::read::{Column, ReadError, ReadOptions, Reader, RecordInput, Source};

/// Runs `explain`.
pub fn run(args: ExplainArgs) -> Result<Exit, RunError> {
    let puzzle: Grid = match (&args.puzzle, &args.input, args.line) {
        (Some(text), _, _) => match text.parse() {
            Ok(g) => g,
            Err(e) => {
                eprintln!("sudoku-batch: not a puzzle: {e}");
                return Ok(Exit::Failed);
            }
        },
        (None, Some(path), Some(line)) => {
            let source = Source::from_arg(Some(path));
            let options = ReadOptions {
                format: args.format,
                column: args.column.clone().unwrap_or(Column::Auto),
                ..ReadOptions::default()
            };
            let mut reader = Reader::open(&source, &options)?;
            let record = loop {
                match reader.next_record()? {
                    Some(r) if r.line == line => break r,
                    Some(r) if r.line > line => return Err(no_record(&source, line)),
                    Some(_) => {}
                    None => return Err(no_record(&source, line)),
                }
            };
            match record.input {
                RecordInput::Puzzle(g) => g,
                RecordInput::Invalid { reason, .. } => {
                    eprintln!(
                        "sudoku-batch: {} line {line} is not a puzzle: {reason}",
                        source.display_name()
                    );
                    return Ok(Exit::Failed);
                }
            }
        }
        _ => return Err(usage("give a PUZZLE, or --input FILE with --line N".into())),
    };
    if args.logic {
        return logic(&puzzle, &args);
    }
    let options = ExplainOptions {
        strategy: args.solver.into(),
        format: args.output_format,
        max_steps: args.max_steps,
        max_guesses: args.max_guesses,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = explain(&puzzle, &options, &mut out).and_then(|_| Ok(out.flush()?));
    match result {
        Ok(()) => Ok(Exit::Ok),
        Err(ExplainError::Io(e)) => Err(write_err("<stdout>")(e)),
        Err(e) => Err(usage(e.to_string())),
    }
}

/// `explain --logic`: the human walkthrough. A puzzle without exactly one solution, or beyond
/// the grader's techniques or time, has none: exit 1 with the reason.
fn logic(puzzle: &Grid, args: &ExplainArgs) -> Result<Exit, RunError> {
    let budget = Budget {
        deadline: args
            .max_time_ms
            .map(|ms| Instant::now() + Duration::from_millis(ms)),
        stop: None,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = walkthrough(puzzle, args.output_format, &budget, &mut out);
    let flushed = out.flush();
    match result {
        Ok(_) => flushed.map(|()| Exit::Ok).map_err(write_err("<stdout>")),
        Err(WalkthroughError::Io(e)) => Err(write_err("<stdout>")(e)),
        Err(WalkthroughError::Grade(e)) => {
            eprintln!("sudoku-batch: no logical solution: {e}");
            Ok(Exit::Failed)
        }
    }
}

fn usage(message: String) -> RunError {
    RunError::Read(ReadError::Usage {
        path: "explain".into(),
        message,
    })
}

fn no_record(source: &Source, line: u64) -> RunError {
    RunError::Read(ReadError::Usage {
        path: source.display_name(),
        message: format!("no record starts at line {line}"),
    })
}
