//! The text reader and `Grid::parse_bytes`: no panic, invariants hold (see
//! `targets::text_records`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../targets.rs"]
mod targets;

fuzz_target!(|data: &[u8]| targets::text_records(data));
