//! Every solver strategy on a grid made from the bytes, with a small guess budget: no panic,
//! invariants hold (see `targets::solver`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../targets.rs"]
mod targets;

fuzz_target!(|data: &[u8]| targets::solver(data));
