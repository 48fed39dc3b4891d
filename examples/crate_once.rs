//! The `sudoku` crate (a port of JCZSolve) as a whole process, for timing against the whole
//! `sudoku-batch solve` process from outside (`scripts/bench.sh`): reads a corpus file,
//! counts each puzzle's solutions up to a limit, prints one count per line.
//!
//! `cargo run --release --example crate_once -- FILE [LIMIT]` (LIMIT defaults to 2). With
//! `--time` last, it also prints the puzzles per second of its solving loop to stderr, timed
//! as `sudoku-batch bench` times its own solver: the puzzles are parsed first, and the clock
//! runs only around the solving, whose counts are printed after it has stopped.

use std::io::{BufWriter, Write};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: crate_once FILE [LIMIT] [--time]");
        std::process::exit(2);
    };
    let limit: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("crate_once: {path}: {e}");
            std::process::exit(2);
        }
    };
    // A line that is not a puzzle counts 0 solutions.
    let puzzles: Vec<Option<sudoku::Sudoku>> = text
        .lines()
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| sudoku::Sudoku::from_str_line(line).ok())
        .collect();
    let started = std::time::Instant::now();
    let counts: Vec<usize> = puzzles
        .iter()
        .map(|p| p.map_or(0, |s| s.solutions_count_up_to(limit)))
        .collect();
    let elapsed = started.elapsed().as_secs_f64();
    let mut out = BufWriter::with_capacity(256 * 1024, std::io::stdout().lock());
    for count in counts {
        if writeln!(out, "{count}").is_err() {
            std::process::exit(2);
        }
    }
    if out.flush().is_err() {
        std::process::exit(2);
    }
    if args.iter().any(|a| a == "--time") {
        eprintln!("{:.1}", puzzles.len() as f64 / elapsed);
    }
}
