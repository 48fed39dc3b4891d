//! `sudoku-batch augment`: random isomorphs of every puzzle, through the pipeline of `solve`;
//! the library's [`Augmenter`] writes each record's rows.

use sudoku_batch::isomorph::augment::{Augmenter, columns};
use sudoku_batch::pipeline::read::Source;
use sudoku_batch::pipeline::solve::{SolveOptions, Status};
use sudoku_batch::pipeline::{self, Config, Output, RunError};
use sudoku_batch::solver::{Limits, Strategy};
use sudoku_batch::words::count;

use super::args::AugmentArgs;
use super::progress::{self, Bar};
use super::{Exit, to_stderr};

/// Runs `augment`.
pub fn run(args: AugmentArgs) -> Result<Exit, RunError> {
    let (inputs, read) = args.input.open(args.output.output.as_deref())?;
    let config = Config {
        read,
        solve: SolveOptions {
            // Counting to 2 proves the one solution the copies carry.
            strategy: Strategy::Fast,
            limits: Limits::count_to(2),
            keep_solutions: false,
            find_redundant: false,
            grade: None,
            ..SolveOptions::default()
        },
        threads: super::threads(args.threads),
        batch_size: args.batch_size,
        stop: super::stop_on_signal(args.output.output.as_deref()),
        inputs,
        output_format: args.output_format,
        ..Config::new(
            Source::Stdin,
            Output::from_arg(args.output.output.as_deref()),
        )
    };
    let seed = args.seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("sudoku-batch: seed {s}");
        s
    });
    let mut augmenter = Augmenter::new(seed, args.copies, args.with_transform);
    super::hint_if_reading_a_terminal(&config.inputs);
    let bar = Bar::new(args.output.progress());
    let summary = pipeline::run_with(
        &config,
        &columns(args.with_transform),
        &mut |p| bar.update(p),
        |w, row| augmenter.write(w, row),
    );
    bar.finish();
    let summary = summary?;
    let augmented = summary.count(Status::Unique);
    let skipped = summary.records - augmented;
    if args.output.summary() {
        to_stderr(|out| {
            progress::write_summary(out, &summary)?;
            writeln!(
                out,
                "  {} augmented into {} (seed {seed}); {} not augmented",
                count(augmented, "puzzle", "puzzles"),
                count(augmented.saturating_mul(args.copies), "copy", "copies"),
                count(skipped, "record", "records"),
            )
        });
    }
    Ok(if summary.interrupted {
        Exit::Interrupted
    } else if skipped > 0 {
        Exit::Failed
    } else {
        Exit::Ok
    })
}
