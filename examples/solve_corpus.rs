//! Solves one corpus file once with one solver, for profiling under `perf`:
//! `cargo run --release --example solve_corpus -- <fast|singles|crate> <file> [limit]`.

use sudoku_batch::bench::Corpus;
use sudoku_batch::{Limits, Strategy};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map_or("fast", String::as_str);
    let corpus = Corpus::load(std::path::Path::new(&args[1])).expect("corpus readable");
    let limit: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let (mut solutions, mut guesses) = (0, 0);
    if which == "crate" {
        for g in &corpus.puzzles {
            let s = sudoku::Sudoku::from_bytes(*g.cells()).expect("cells are 0-9");
            solutions += s.solutions_count_up_to(limit as usize) as u64;
        }
    } else {
        let strategy = Strategy::ALL
            .iter()
            .copied()
            .find(|s| s.name() == which)
            .expect("strategy name");
        let mut solver = strategy.solver();
        for g in &corpus.puzzles {
            let out = solver.solve(g, Limits::count_to(limit));
            solutions += out.solutions;
            guesses += out.guesses;
        }
    }
    let n = corpus.puzzles.len() as f64;
    println!(
        "{which}: {} puzzles, {:.3} solutions/puzzle, {:.2} guesses/puzzle",
        corpus.puzzles.len(),
        solutions as f64 / n,
        guesses as f64 / n
    );
}
