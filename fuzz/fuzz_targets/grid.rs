//! The grid-block reader: no panic, invariants hold (see
//! `sudoku_batch::fuzz_targets::grid_records`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sudoku_batch::fuzz_targets::grid_records(data));
