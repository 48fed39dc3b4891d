//! The integration tests, one binary: each module runs the `sudoku-batch` binary (or calls the
//! library) for one command or one concern; `util` holds what they share. The fixtures are in
//! `tests/data/`; the oracle is the `sudoku` crate, which shares no code with ours.
//!
//! One binary rather than one per file: cargo compiles and links each file under `tests/` as a
//! crate of its own, so ten files meant ten links and ten copies of every helper.

mod util;

mod augment;
mod band;
mod bench;
mod canon;
mod canon_duplicates;
mod differential;
mod explain;
mod fuzz_smoke;
mod generate;
mod grade;
mod guard;
mod hostile;
mod inputs;
mod interrupt;
mod known_classes;
mod merge;
mod messages;
mod output;
mod output_formats;
mod properties;
#[cfg(feature = "report")]
mod report;
mod resume;
mod robust;
mod safety;
mod scheduling;
mod shard_choice;
mod shards;
mod solve;
mod split;
mod validate;
mod version;
