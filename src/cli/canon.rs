//! `sudoku-batch canon`: every puzzle's canonical form, through the pipeline of `solve`, with
//! the count of essentially different puzzles in the summary.

use sudoku_batch::pipeline;
use sudoku_batch::pipeline::canon::{Canon, Classes, SPLIT_COLUMNS, Split};
use sudoku_batch::pipeline::read::Source;
use sudoku_batch::pipeline::solve::{SolveOptions, Status};
use sudoku_batch::pipeline::{Config, Output, RunError};

use std::io::Write;

use sudoku_batch::pipeline::Summary;
use sudoku_batch::words::{count, thousands};

use super::args::{CanonArgs, SplitShares};
use super::progress::Bar;
use super::{Exit, stop_on_signal, to_stderr};

/// Runs `canon`.
pub fn run(args: CanonArgs) -> Result<Exit, RunError> {
    let (inputs, read) = args.input.open(args.output.output.as_deref())?;
    let config = Config {
        read,
        solve: SolveOptions {
            canon: Canon::Only,
            ..SolveOptions::default()
        },
        threads: super::threads(args.threads),
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
    let summary = match &args.split {
        None => super::run_with_bar(&config, args.output.progress())?,
        Some(split) => run_split(&config, split, args.split_seed, args.output.progress())?,
    };
    if args.output.summary() {
        to_stderr(|out| write_summary(out, &summary));
    }
    let failed = summary.count(Status::Invalid) + summary.resumed_invalid;
    Ok(if summary.interrupted {
        Exit::Interrupted
    } else if failed > 0 {
        Exit::Failed
    } else {
        Exit::Ok
    })
}

/// `canon --split`: `canon`'s rows with the `part` each puzzle's class is dealt to, and the
/// count of the distinct forms seen.
fn run_split(
    config: &Config,
    split: &SplitShares,
    seed: u64,
    progress: bool,
) -> Result<Summary, RunError> {
    let split = Split::new(split.0.clone(), seed).expect("parts checked when read");
    let mut classes = Classes::default();
    let bar = Bar::new(progress);
    let summary = pipeline::run_with(config, &SPLIT_COLUMNS, &mut |p| bar.update(p), |w, row| {
        classes.add(row);
        w.write_row(&split.values(row))
    });
    bar.finish();
    let mut summary = summary?;
    summary.classes = Some(classes.count());
    Ok(summary)
}

/// Writes `canon`'s summary: records, rate, puzzles and invalid records, and the essentially
/// different puzzles among them.
fn write_summary(out: &mut dyn Write, summary: &Summary) -> std::io::Result<()> {
    super::progress::write_head(out, summary)?;
    writeln!(
        out,
        "  {}, {} invalid",
        count(summary.puzzles(), "puzzle", "puzzles"),
        thousands(summary.count(Status::Invalid))
    )?;
    if let Some(classes) = summary.classes {
        writeln!(
            out,
            "  {} essentially different (distinct canonical forms)",
            thousands(classes)
        )?;
    }
    Ok(())
}
