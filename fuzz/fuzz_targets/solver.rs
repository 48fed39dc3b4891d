//! Every solver strategy on a grid made from the bytes, with a small guess budget: no panic,
//! invariants hold (see `sudoku_batch::fuzz_targets::solver`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sudoku_batch::fuzz_targets::solver(data));
