//! The `sudoku` crate (a port of JCZSolve) as a whole process, for timing against the whole
//! `sudoku-batch solve` process from outside (`scripts/bench.sh`): reads a corpus file,
//! counts each puzzle's solutions up to a limit, prints one count per line.
//!
//! `cargo run --release --example crate_once -- FILE [LIMIT]` (LIMIT defaults to 2). With
//! `--time` last, it also prints the puzzles per second of its solving loop (parsing included,
//! process start and reading excluded) to stderr.

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
    let started = std::time::Instant::now();
    let mut out = BufWriter::with_capacity(256 * 1024, std::io::stdout().lock());
    let mut puzzles = 0u64;
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let count = sudoku::Sudoku::from_str_line(line)
            .map(|s| s.solutions_count_up_to(limit))
            .unwrap_or(0);
        puzzles += 1;
        if writeln!(out, "{count}").is_err() {
            std::process::exit(2);
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    if out.flush().is_err() {
        std::process::exit(2);
    }
    if args.iter().any(|a| a == "--time") {
        eprintln!("{:.1}", puzzles as f64 / elapsed);
    }
}
