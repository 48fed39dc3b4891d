//! Side-by-side single-thread throughput of our strategies and the `sudoku` crate (a port of
//! JCZSolve) on the tdoku corpora, for the performance section of the README.
//!
//! `cargo run --release --example versus -- [limit] [runs] [files...]`; files default to every
//! corpus in `../shared/corpora/tdoku`. Prints puzzles/s (median of the runs) and the ratio.

use std::path::PathBuf;
use std::time::Instant;

use sudoku_batch::bench::{Corpus, bench_corpus};
use sudoku_batch::{Limits, Strategy};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let limit: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(2);
    let runs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let mut files: Vec<PathBuf> = args.iter().skip(2).map(PathBuf::from).collect();
    if files.is_empty() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/tdoku");
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        found.retain(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("puzzles"))
        });
        found.sort();
        files = found;
    }
    println!(
        "{:<34} {:>10} {:>10} {:>7} {:>8} {:>9}",
        "file", "fast/s", "crate/s", "ratio", "guesses", "no-guess%"
    );
    for path in files {
        let corpus = Corpus::load(&path).expect("corpus readable");
        let fast = bench_corpus(&corpus, Strategy::Fast, Limits::count_to(limit), 1, runs)
            .expect("bench runs");
        let theirs: Vec<sudoku::Sudoku> = corpus
            .puzzles
            .iter()
            .map(|g| sudoku::Sudoku::from_bytes(*g.cells()).expect("cells are 0-9"))
            .collect();
        let mut rates: Vec<f64> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                let mut n = 0;
                for s in &theirs {
                    n += s.solutions_count_up_to(limit as usize);
                }
                std::hint::black_box(n);
                theirs.len() as f64 / start.elapsed().as_secs_f64()
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        let crate_rate = rates[rates.len() / 2];
        println!(
            "{:<34} {:>10.0} {:>10.0} {:>7.2} {:>8.2} {:>9.1}",
            corpus.name,
            fast.median_rate,
            crate_rate,
            fast.median_rate / crate_rate,
            fast.guesses_per_puzzle,
            fast.no_guess_percent
        );
    }
}
