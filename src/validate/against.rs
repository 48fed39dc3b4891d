//! `--against`: the puzzles of other corpora, read whole before the run, that no record of
//! the input may repeat (or, comparing by isomorph, be an isomorph of).

use rayon::prelude::*;

use super::Compare;
use crate::isomorph::canon::{Canonicaliser, key};
use crate::isomorph::key_table::KeyTable;
use crate::pipeline::read::{ReadError, ReadOptions, Reader, Record, RecordInput, Source};

/// The puzzles of other corpora (`--against`): every record of the input whose puzzle, or an
/// isomorph of it, is among them fails with where it was found.
#[derive(Debug)]
pub struct Against {
    pub(super) compare: Compare,
    /// The corpora's names, as the messages give them.
    pub(super) names: Vec<String>,
    /// The 128-bit [`key`] of each puzzle (exact) or canonical form (isomorph), with where it
    /// was first seen.
    pub(super) keys: KeyTable,
}

impl Against {
    /// Reads every puzzle of `sources` (each read as `read` says; records that are not
    /// puzzles are skipped) on `pool`'s threads.
    pub fn read(
        sources: &[Source],
        read: &ReadOptions,
        compare: Compare,
        pool: &rayon::ThreadPool,
    ) -> Result<Against, ReadError> {
        let mut keys = KeyTable::new();
        for (file, source) in sources.iter().enumerate() {
            let mut reader = Reader::open(source, read)?;
            let mut batch: Vec<Record> = Vec::new();
            let mut found: Vec<Option<(u128, u64)>> = Vec::new();
            loop {
                let more = reader.read_batch(&mut batch, 4096)?;
                pool.install(|| {
                    batch
                        .par_iter()
                        .map_init(Canonicaliser::new, |canon, record| match &record.input {
                            RecordInput::Puzzle(p) => Some((
                                match compare {
                                    Compare::Exact => key(p),
                                    Compare::Isomorph => key(&canon.canonical(p).grid),
                                },
                                record.line,
                            )),
                            RecordInput::Invalid { .. } => None,
                        })
                        .collect_into_vec(&mut found)
                });
                for &(k, line) in found.iter().flatten() {
                    keys.first_or_insert(k, file as u32, line);
                }
                if !more {
                    break;
                }
            }
        }
        Ok(Against {
            compare,
            names: sources.iter().map(Source::display_name).collect(),
            keys,
        })
    }

    /// The distinct puzzles (exact) or classes (isomorph) held.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when no puzzle is held.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}
