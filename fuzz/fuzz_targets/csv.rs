//! The CSV reader (bounded record splitter, header and column detection): no panic, invariants hold
//! (see `targets::csv_records`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../targets.rs"]
mod targets;

fuzz_target!(|data: &[u8]| targets::csv_records(data));
