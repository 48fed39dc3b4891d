//! Throughput of the strategies and of the `sudoku` crate (a port of JCZSolve) on the tdoku
//! benchmark corpora, one criterion group per file so that the ratios come from one run.
//!
//! The corpora are read from `../shared/corpora/tdoku` beside the repository; without them the
//! bench prints a message and measures nothing. Every benchmark counts solutions up to 2. To keep
//! a full run near a few minutes, each group solves at most the first 2,000 puzzles of its file
//! (all of top1465 but 1,465, all 375 of hardest_1106); `Throughput::Elements` is that count.

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudoku_batch::bench::Corpus;
use sudoku_batch::{Limits, Strategy};

/// Puzzles per group at most.
const SUBSET: usize = 2000;

fn solvers(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/tdoku");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("{}: not found; no corpus to benchmark", dir.display());
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("puzzles"))
        })
        .collect();
    files.sort();
    for path in files {
        let mut corpus = Corpus::load(&path).expect("corpus readable");
        corpus.puzzles.truncate(SUBSET);
        let theirs: Vec<sudoku::Sudoku> = corpus
            .puzzles
            .iter()
            .map(|g| sudoku::Sudoku::from_bytes(*g.cells()).expect("cells are 0-9"))
            .collect();
        let mut group = c.benchmark_group(&corpus.name);
        group.throughput(Throughput::Elements(corpus.puzzles.len() as u64));
        group.sample_size(10);
        for strategy in Strategy::ALL {
            let mut solver = strategy.solver();
            group.bench_function(strategy.name(), |b| {
                b.iter(|| {
                    let mut n = 0;
                    for p in &corpus.puzzles {
                        n += solver.solve(p, Limits::count_to(2)).solutions;
                    }
                    n
                })
            });
        }
        group.bench_function("sudoku-crate", |b| {
            b.iter(|| {
                theirs
                    .iter()
                    .map(|s| s.solutions_count_up_to(2))
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, solvers);
criterion_main!(benches);
