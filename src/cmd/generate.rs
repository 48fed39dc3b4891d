//! `sudoku-batch generate`: minimal puzzles with exactly one solution, reproducible per seed.

use std::io::Write;

use rayon::prelude::*;

use super::{Exit, write_error};
use crate::cli::GenerateArgs;
use crate::generate::{Rng, minimal_puzzle, random_solution};
use crate::pipeline::{Output, RunError, thread_pool};
use crate::solver::Strategy;

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
    let seed = args.seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("sudoku-batch: seed {s}");
        s
    });
    let output = Output::from_arg(args.output.output.as_deref());
    let name = output.display_name();
    let mut out = output.open()?;
    let pool = thread_pool(args.threads)?;
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let lines: Vec<String> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map_init(
                    // The grid comes from the first solution a search finds, which depends on
                    // the strategy: pin it so a seed gives the same puzzles in every version.
                    // Minimising only counts solutions, so any strategy gives the same result.
                    || (Strategy::Singles.solver(), Strategy::default().solver()),
                    |(filler, counter), i| {
                        let mut rng = puzzle_rng(seed, i);
                        let solution = random_solution(&mut rng, &mut **filler);
                        minimal_puzzle(&mut rng, &solution, &mut **counter).to_string()
                    },
                )
                .collect()
        });
        for line in lines {
            writeln!(out, "{line}").map_err(|e| write_error(name.clone(), e))?;
        }
        out.flush().map_err(|e| write_error(name.clone(), e))?;
        start = end;
    }
    Ok(Exit::Ok)
}
