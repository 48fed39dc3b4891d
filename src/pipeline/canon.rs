//! The canonical-form stage: each puzzle's canonical form and number of automorphisms
//! ([`isomorph::canon`](crate::isomorph::canon)) found on the worker threads, the columns of
//! `canon`'s rows, and the count of the distinct forms a run saw.

use super::read::RecordInput;
use super::solve::Row;
use super::write::{Field, Kind, Value};
use crate::isomorph::canon::key;

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

/// The distinct canonical forms seen, as their [`key`]s: appended as they come and, every time
/// the keys appended since the last count outnumber the distinct ones before them, sorted and
/// cut to the distinct ones. Appending touches memory in order, where a hash set's insert
/// misses the cache on most rows; the keys take 16 to 32 bytes per distinct form (at least
/// a fixed 2 MB of room).
#[derive(Debug, Default, Clone)]
pub struct Classes {
    /// `keys[..distinct]` sorted and distinct; the rest as they came.
    keys: Vec<u128>,
    distinct: usize,
}

impl Classes {
    /// Keys appended before the first sort: some room whatever the number of classes.
    const ROOM: usize = 1 << 16;

    /// Counts the form of `row`, if it has one.
    pub fn add(&mut self, row: &Row) {
        if let Some(form) = &row.canonical {
            self.add_key(key(&form.grid));
        }
    }

    fn add_key(&mut self, key: u128) {
        self.keys.push(key);
        if self.keys.len() >= 2 * self.distinct.max(Self::ROOM) {
            self.sort();
        }
    }

    fn sort(&mut self) {
        self.keys.sort_unstable();
        self.keys.dedup();
        self.distinct = self.keys.len();
    }

    /// The distinct forms seen: the essentially different puzzles.
    pub fn count(&mut self) -> u64 {
        self.sort();
        self.distinct as u64
    }
}

#[cfg(test)]
mod tests {
    use super::Classes;

    #[test]
    fn classes_count_each_key_once_across_the_sorts() {
        let mut classes = Classes::default();
        // 300,000 keys of 100,000 classes, each class three times far apart: the sorts (at
        // 131,072 keys, then at twice the distinct ones) fall between repeats.
        for _ in 0..3 {
            for k in 0..100_000u128 {
                classes.add_key(k * 0x9e37_79b9_7f4a_7c15);
            }
        }
        assert_eq!(classes.count(), 100_000);
        assert_eq!(classes.keys.len(), 100_000);
        classes.add_key(7);
        classes.add_key(7);
        assert_eq!(classes.count(), 100_001);
        assert_eq!(Classes::default().count(), 0);
    }
}
