//! `sudoku-batch generate`: minimal puzzles with exactly one solution (or complete grids),
//! reproducible per seed, written chunk by chunk in order with a progress bar.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::{Exit, write_error};
use crate::cli::GenerateArgs;
use crate::generate::{Rng, Spec, puzzle, random_solution};
use crate::grid::CELLS;
use crate::pipeline::{Output, RunError, thread_pool};
use crate::progress::Progress;
use crate::solver::Strategy;

/// Fewer clues never give exactly one solution (McGuire, Tugemann and Civario, 2012).
const MIN_UNIQUE_CLUES: usize = 17;

/// The puzzle spec the arguments ask for, or why it cannot be met.
fn spec(args: &GenerateArgs) -> Result<Spec, String> {
    let spec = Spec {
        symmetry: args.symmetry,
        min_clues: args.min_clues.unwrap_or(0),
        max_clues: args.max_clues.unwrap_or(CELLS),
        attempts: if args.min_clues.is_some() || args.max_clues.is_some() {
            args.attempts
        } else {
            1
        },
    };
    if spec.max_clues < MIN_UNIQUE_CLUES {
        return Err(format!(
            "--max-clues {}: no puzzle with fewer than {MIN_UNIQUE_CLUES} clues has exactly one \
             solution",
            spec.max_clues
        ));
    }
    if spec.min_clues > spec.max_clues.min(CELLS) {
        return Err(format!(
            "--min-clues {} is more than --max-clues {}",
            spec.min_clues,
            spec.max_clues.min(CELLS)
        ));
    }
    Ok(spec)
}

/// Puzzles made per parallel chunk; output is written chunk by chunk, in order.
const CHUNK: u64 = 256;

/// The generator for puzzle `index` of a run seeded with `seed`: each puzzle has its own
/// stream, so the output does not depend on how the work is split over threads.
fn puzzle_rng(seed: u64, index: u64) -> Rng {
    let mut mix = Rng::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    Rng::new(mix.next_u64())
}

/// Runs `generate`.
pub fn run(args: GenerateArgs) -> Result<Exit, RunError> {
    let spec = match spec(&args) {
        Ok(spec) => spec,
        Err(message) => {
            eprintln!("sudoku-batch: error: {message}");
            return Ok(Exit::Error);
        }
    };
    let seed = args.seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("sudoku-batch: seed {s}");
        s
    });
    let solved = args.solved;
    let output = Output::from_arg(args.output.output.as_deref());
    let name = output.display_name();
    let mut out = output.open()?;
    let pool = thread_pool(args.threads)?;
    let done = Arc::new(AtomicU64::new(0));
    let progress = Progress::new(
        args.output.progress(),
        Some(args.count).filter(|&n| n > 0),
        done.clone(),
        Instant::now(),
    );
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let lines: Vec<Option<String>> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map_init(
                    // The grid comes from the first solution a search finds, which depends on
                    // the strategy: pin it so a seed gives the same puzzles in every version.
                    // Minimising only counts solutions, so any strategy gives the same result.
                    || (Strategy::Singles.solver(), Strategy::default().solver()),
                    |(filler, counter), i| {
                        let mut rng = puzzle_rng(seed, i);
                        if solved {
                            return Some(random_solution(&mut rng, &mut **filler).to_string());
                        }
                        puzzle(&mut rng, &spec, &mut **filler, &mut **counter)
                            .map(|p| p.to_string())
                    },
                )
                .collect()
        });
        for (i, line) in (start..).zip(lines) {
            let Some(line) = line else {
                out.flush().map_err(|e| write_error(name.clone(), e))?;
                progress.finish();
                let bounds = match (args.min_clues, args.max_clues) {
                    (Some(min), Some(max)) => format!("{min} to {max}"),
                    (Some(min), None) => format!("at least {min}"),
                    (None, _) => format!("at most {}", spec.max_clues),
                };
                eprintln!(
                    "sudoku-batch: error: puzzle {}: no draw in {} attempts had {bounds} clues; \
                     widen --min-clues/--max-clues or raise --attempts",
                    i + 1,
                    spec.attempts,
                );
                return Ok(Exit::Error);
            };
            writeln!(out, "{line}").map_err(|e| write_error(name.clone(), e))?;
        }
        out.flush().map_err(|e| write_error(name.clone(), e))?;
        done.store(end, Ordering::Relaxed);
        progress.update(end);
        start = end;
    }
    progress.finish();
    Ok(Exit::Ok)
}
