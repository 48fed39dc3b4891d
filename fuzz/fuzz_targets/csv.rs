//! The CSV reader (bounded record splitter, header and column detection): no panic, invariants hold
//! (see `sudoku_batch::fuzz_targets::csv_records`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sudoku_batch::fuzz_targets::csv_records(data));
