//! The grid-block reader: no panic, invariants hold (see
//! `targets::grid_records`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../targets.rs"]
mod targets;

fuzz_target!(|data: &[u8]| targets::grid_records(data));
