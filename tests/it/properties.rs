//! Properties of the solvers and the pipeline (proptest), on puzzles made by
//! `sudoku_batch::generate` from proptest-chosen seeds: a reported solution keeps every clue and
//! fills every unit; the count does not change under the symmetries of Sudoku; adding a clue
//! from a solution never raises the count; rows do not depend on threads or batch size.
//! Case counts are kept small so `cargo test` stays quick.

use std::path::Path;

use proptest::prelude::*;
use sudoku_batch::generate::{Rng, mixed_puzzle};
use sudoku_batch::pipeline::read::Source;
use sudoku_batch::pipeline::{self, Config, Output};
use sudoku_batch::{Grid, Limits, Strategy};

use crate::util::{KINDS, Symmetry, strip_times, write};

/// Counting this far tells "several" apart well enough and stays fast.
const COUNT_TO: u64 = 10;

/// How far every search may go: to [`COUNT_TO`] solutions, within a guess budget. Plain
/// backtracking has a long tail: over 3,000 generated puzzles its worst search took 8 million
/// guesses (about a second), and one CI run of these properties took three minutes. A search
/// that runs out of budget proves nothing, so the properties skip it; the other strategies
/// never come near the budget.
fn limits() -> Limits {
    Limits {
        solutions: COUNT_TO,
        guesses: Some(10_000_000),
        stop: None,
    }
}

fn puzzle(seed: u64, kind: usize) -> Grid {
    let mut solver = Strategy::default().solver();
    mixed_puzzle(&mut Rng::new(seed), KINDS[kind % KINDS.len()], &mut *solver)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_reported_solution_keeps_every_clue_and_fills_every_unit(seed: u64, kind in 0usize..5) {
        let p = puzzle(seed, kind);
        for &strategy in Strategy::ALL {
            let mut solver = strategy.solver();
            let mut all = Vec::new();
            let outcome = solver.solve_with(&p, limits(), &mut |g| all.push(*g));
            prop_assert!(
                !outcome.aborted || strategy == Strategy::Backtrack,
                "only plain backtracking may run out of budget: {:?} on {}", strategy, p
            );
            prop_assert_eq!(all.len() as u64, outcome.solutions);
            for s in all.iter().chain(outcome.solution.iter()) {
                prop_assert!(s.is_full() && s.conflict().is_none(), "{} from {}", s, p);
                prop_assert!(s.solves(&p), "{} does not keep the clues of {}", s, p);
            }
            let distinct: std::collections::HashSet<_> = all.iter().collect();
            prop_assert_eq!(distinct.len(), all.len(), "a solution reported twice");
        }
    }

    #[test]
    fn the_count_is_the_same_under_relabelling_permutation_and_transposition(
        seed: u64, kind in 0usize..5, sym_seed: u64,
    ) {
        let p = puzzle(seed, kind);
        let sym = Symmetry::random(&mut Rng::new(sym_seed));
        let q = sym.apply(&p);
        for &strategy in Strategy::ALL {
            let mut solver = strategy.solver();
            let a = solver.solve(&p, limits());
            let b = solver.solve(&q, limits());
            if a.aborted || b.aborted {
                continue;
            }
            prop_assert_eq!(a.solutions, b.solutions, "{} vs {}", p, q);
            if a.solutions == 1 {
                prop_assert_eq!(Some(sym.apply(&a.solution.unwrap())), b.solution);
            }
        }
    }

    #[test]
    fn adding_a_clue_from_the_solution_never_raises_the_count(
        seed: u64, kind in 0usize..5, pick in 0usize..81,
    ) {
        let p = puzzle(seed, kind);
        for &strategy in Strategy::ALL {
            let mut solver = strategy.solver();
            let before = solver.solve(&p, limits());
            let Some(solution) = before.solution.filter(|_| !before.aborted) else { continue };
            let blanks: Vec<usize> = (0..81).filter(|&i| p.get(i) == 0).collect();
            if blanks.is_empty() {
                continue;
            }
            let cell = blanks[pick % blanks.len()];
            let mut q = p;
            q.set(cell, solution.get(cell));
            let after = solver.solve(&q, limits());
            if after.aborted {
                continue;
            }
            prop_assert!(after.solutions >= 1, "the solution still fits");
            prop_assert!(after.solutions <= before.solutions, "{} -> {}", p, q);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn rows_do_not_depend_on_threads_or_batch_size(
        seed: u64, threads in 1usize..4, batch_size in 1usize..40,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::new();
        let mut rng = Rng::new(seed);
        for i in 0..30 {
            if rng.below(6) == 0 {
                text.push_str("not a puzzle\n\n");
            }
            text.push_str(&format!("{}\n", puzzle(seed.wrapping_add(i), rng.below(5))));
        }
        // The same records followed by many comment lines: where the input ends after its last
        // record must not matter.
        let comment = format!("# {}\n", "-".repeat(77));
        let padded = write(dir.path(), "padded.txt", text.clone() + &comment.repeat(1000));
        let input = write(dir.path(), "in.txt", text);
        let run = |input: &Path, threads: usize, batch_size: usize, name: &str| {
            let out = dir.path().join(name);
            let config = Config {
                threads,
                batch_size,
                ..Config::new(Source::Path(input.to_path_buf()), Output::Path(out.clone()))
            };
            pipeline::run(&config, &mut |_| {}).unwrap();
            strip_times(&std::fs::read(&out).unwrap())
        };
        let reference = run(&input, 1, 4096, "one.csv");
        prop_assert!(reference.lines().count() >= 31);
        prop_assert_eq!(&reference, &run(&input, threads, batch_size, "other.csv"));
        prop_assert_eq!(&reference, &run(&padded, threads, batch_size, "padded.csv"));
    }
}
