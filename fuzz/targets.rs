//! The bodies of the fuzz targets: arbitrary bytes in, no panic out, and the invariants each
//! stage promises checked with `assert!`.
//!
//! This file is included (`#[path]`) by the cargo-fuzz targets in `fuzz/fuzz_targets/`
//! (nightly, libFuzzer) and by the stable smoke test under `cargo test` (random and structured
//! inputs), so both run exactly the same code. A panic here is a bug: either in the stage, or in
//! the invariant.
#![allow(dead_code)]

use std::io::Cursor;

use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::pipeline::read::{Column, Format, Header, ReadOptions, Reader, RecordInput};
use sudoku_batch::solver::{Limits, Strategy};

/// The first two bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Guess budget of the solver target: enough for most puzzles, small enough that an empty-ish
/// grid with a huge search space stays fast.
pub const SOLVER_GUESS_BUDGET: u64 = 2_000;

/// `Grid::parse_bytes` on arbitrary bytes: no panic; a grid it accepts prints as 81 cells that
/// parse back to the same grid.
pub fn parse_grid(data: &[u8]) {
    if let Ok(g) = Grid::parse_bytes(data) {
        let text = g.to_string();
        assert_eq!(text.len(), CELLS);
        assert_eq!(Grid::parse_bytes(text.as_bytes()), Ok(g));
        assert!(g.cells().iter().all(|&v| v <= 9));
    }
}

/// Reads `data` in `format` to the end and checks every record: line numbers increase, a
/// puzzle has cells 0-9, an invalid record's text is cut short. Returns the record count.
fn read_all(data: &[u8], options: &ReadOptions) -> usize {
    let reader = match Reader::from_reader("fuzz", Cursor::new(data.to_vec()), options) {
        Ok(r) => r,
        Err(_) => return 0, // a usage error (CSV column) or a gzip header error
    };
    let mut last_line = 0;
    let mut count = 0;
    for record in reader {
        let Ok(record) = record else {
            break; // an I/O error ends reading: only gzip data can cause one here
        };
        assert!(
            record.line > last_line,
            "line {} after line {last_line}",
            record.line
        );
        last_line = record.line;
        match &record.input {
            RecordInput::Puzzle(g) => assert!(g.cells().iter().all(|&v| v <= 9)),
            RecordInput::Invalid { text, reason } => {
                assert!(
                    text.len() <= 4 * 256 + 3,
                    "shown text of {} bytes",
                    text.len()
                );
                assert!(!reason.is_empty());
            }
        }
        count += 1;
    }
    // A record takes at least one byte of the text it is read from, and gzip input expands:
    // deflate writes at most 1,032 bytes for each byte it reads (zlib's documented limit).
    let text_bytes = if data.starts_with(&GZIP_MAGIC) {
        data.len() * 1032
    } else {
        data.len()
    };
    assert!(count <= text_bytes.max(1), "more records than bytes");
    count
}

/// The text reader on arbitrary bytes (also `Grid::parse_bytes` on the whole input).
pub fn text_records(data: &[u8]) {
    parse_grid(data);
    read_all(
        data,
        &ReadOptions {
            format: Format::Text,
            ..ReadOptions::default()
        },
    );
}

/// The CSV reader on arbitrary bytes, with header detection and with explicit options.
pub fn csv_records(data: &[u8]) {
    for (column, header) in [
        (Column::Auto, Header::Auto),
        (Column::Index(1), Header::No),
        (Column::Name("puzzle".into()), Header::Yes),
    ] {
        read_all(
            data,
            &ReadOptions {
                format: Format::Csv,
                column,
                header,
                ..ReadOptions::default()
            },
        );
    }
}

/// The grid-block reader on arbitrary bytes.
pub fn grid_records(data: &[u8]) {
    read_all(
        data,
        &ReadOptions {
            format: Format::Grid,
            ..ReadOptions::default()
        },
    );
}

/// A grid made from arbitrary bytes: one byte per cell, mostly blanks (a byte of 0-89 gives a
/// digit, anything else a blank), so that both over- and under-constrained grids come up.
pub fn grid_from_bytes(data: &[u8]) -> Grid {
    let mut cells = [0u8; CELLS];
    for (cell, &b) in cells.iter_mut().zip(data) {
        *cell = if b < 90 { b % 9 + 1 } else { 0 };
    }
    Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
}

/// Every strategy on the grid made from `data`, with a small guess budget: no panic; every
/// solution reported solves the puzzle; conflicting clues have no solution; strategies that
/// finish agree on the count (to 2), and on the solution when it is unique.
pub fn solver(data: &[u8]) {
    let puzzle = grid_from_bytes(data);
    let limits = Limits {
        solutions: 2,
        guesses: Some(SOLVER_GUESS_BUDGET),
        stop: None,
    };
    let mut settled: Option<(Strategy, u64, Option<Grid>)> = None;
    for &strategy in Strategy::ALL {
        let mut solver = strategy.solver();
        let mut seen = 0u64;
        let outcome = solver.solve_with(&puzzle, limits, &mut |g| {
            assert!(
                g.solves(&puzzle),
                "{strategy}: a reported solution of {puzzle} is wrong"
            );
            seen += 1;
        });
        assert!(outcome.solutions <= limits.solutions);
        assert_eq!(seen, outcome.solutions, "{strategy}: callback count");
        if let Some(s) = outcome.solution {
            assert!(s.solves(&puzzle), "{strategy}: solution of {puzzle}");
        }
        assert_eq!(outcome.solution.is_some(), outcome.solutions > 0);
        if puzzle.conflict().is_some() {
            assert_eq!(
                outcome.solutions, 0,
                "{strategy}: conflicting clues of {puzzle}"
            );
        }
        if outcome.aborted {
            continue;
        }
        let unique = (outcome.solutions == 1)
            .then_some(outcome.solution)
            .flatten();
        match settled {
            None => settled = Some((strategy, outcome.solutions, unique)),
            Some((first, n, sol)) => {
                assert_eq!(n, outcome.solutions, "{first} vs {strategy} on {puzzle}");
                assert_eq!(sol, unique, "{first} vs {strategy} on {puzzle}");
            }
        }
    }
}

/// Every target on the same input: what the stable smoke test runs.
pub fn all(data: &[u8]) {
    text_records(data);
    csv_records(data);
    grid_records(data);
    solver(data);
}
