//! The canonical-form stage: each puzzle's canonical form and number of automorphisms
//! ([`isomorph::canon`](crate::isomorph::canon)) found on the worker threads, the columns of
//! `canon`'s rows, and the count of the distinct forms a run saw.

use std::collections::HashSet;

use super::read::RecordInput;
use super::solve::Row;
use super::write::{Field, Kind, Value};
use crate::isomorph::canon::key;
use crate::isomorph::key_hasher::KeyHashing;

/// Whether the worker threads find each puzzle's canonical form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Canon {
    /// No: the rows have none.
    #[default]
    Off,
    /// As well as solving (`validate --duplicates isomorph`, `--against` by isomorph).
    Also,
    /// Instead of solving (`canon`): the puzzle is not searched.
    Only,
}

/// The columns of `canon`'s results, in order.
pub const CANON_COLUMNS: [Field; 6] = [
    Field::new("line", Kind::Number),
    Field::new("puzzle", Kind::Grid),
    Field::new("status", Kind::Category),
    Field::new("canonical", Kind::Grid),
    Field::new("automorphisms", Kind::Number),
    Field::new("error", Kind::Text),
];

/// The [`CANON_COLUMNS`] of a row: status `ok` with the form, or `invalid` with the reason in
/// `error`.
pub fn canon_values(row: &Row) -> [Value<'_>; 6] {
    let (puzzle, status, error) = match &row.record.input {
        RecordInput::Puzzle(g) => (Value::Grid(g), "ok", ""),
        RecordInput::Invalid { text, reason } => (Value::Text(text), "invalid", reason.as_str()),
    };
    let form = row.canonical.as_ref();
    [
        Value::Number(row.record.line),
        puzzle,
        Value::Text(status),
        form.map_or(Value::Empty, |f| Value::Grid(&f.grid)),
        form.map_or(Value::Empty, |f| Value::Number(u64::from(f.automorphisms))),
        Value::Text(error),
    ]
}

/// The distinct canonical forms seen: 16 bytes each (the form's [`key`]).
#[derive(Debug, Default, Clone)]
pub struct Classes {
    keys: HashSet<u128, KeyHashing>,
}

impl Classes {
    /// Counts the form of `row`, if it has one.
    pub fn add(&mut self, row: &Row) {
        if let Some(form) = &row.canonical {
            self.keys.insert(key(&form.grid));
        }
    }

    /// The distinct forms seen: the essentially different puzzles.
    pub fn count(&self) -> u64 {
        self.keys.len() as u64
    }
}
