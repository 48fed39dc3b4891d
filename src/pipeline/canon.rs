//! The canonical-form stage: each puzzle's canonical form and number of automorphisms
//! ([`isomorph::canon`](crate::isomorph::canon)) found on the worker threads, the columns of
//! `canon`'s rows, the parts of `canon --split`, and the count of the distinct forms a run
//! saw.

use super::read::RecordInput;
use super::solve::Row;
use super::write::{Field, Kind, Value};
use crate::grid::Grid;
use crate::isomorph::augment::split_part;
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

/// The columns of `canon --split`'s results: [`CANON_COLUMNS`] with `part` before `error`.
pub const SPLIT_COLUMNS: [Field; 7] = {
    let c = CANON_COLUMNS;
    [
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        Field::new("part", Kind::Category),
        c[5],
    ]
};

/// Named parts (train, test, ...) with their shares of the isomorph classes, and the seed that
/// deals the classes into them ([`split_part`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    names: Vec<String>,
    shares: Vec<u32>,
    seed: u64,
}

impl Split {
    /// The parts `parts` (name and share, in order) dealt with `seed`; refused, with the reason,
    /// unless there are two or more, with distinct non-empty names, at least one share above 0.
    pub fn new(parts: Vec<(String, u32)>, seed: u64) -> Result<Split, String> {
        let mut names: Vec<String> = Vec::with_capacity(parts.len());
        let mut shares = Vec::with_capacity(parts.len());
        for (name, share) in parts {
            if name.trim().is_empty() {
                return Err("a part has an empty name".into());
            }
            if names.contains(&name) {
                return Err(format!("the part `{name}` is named twice"));
            }
            names.push(name);
            shares.push(share);
        }
        if names.len() < 2 || shares.iter().all(|&share| share == 0) {
            return Err("give two parts or more, at least one with a share above 0".into());
        }
        Ok(Split {
            names,
            shares,
            seed,
        })
    }

    /// The part of the puzzle whose canonical form is `form`: the same for all its isomorphs.
    pub fn part(&self, form: &Grid) -> &str {
        self.part_of_key(key(form))
    }

    /// The part of the puzzle whose canonical form's [`key`] is `form_key`.
    fn part_of_key(&self, form_key: u128) -> &str {
        // The low half of the form's key: every isomorph has the same.
        &self.names[split_part(form_key as u64, self.seed, &self.shares)]
    }

    /// The [`SPLIT_COLUMNS`] of a row: [`canon_values`] with the part of its class, empty for
    /// a record that is not a puzzle.
    pub fn values<'a>(&'a self, row: &'a Row) -> [Value<'a>; 7] {
        let [line, puzzle, status, form, automorphisms, error] = canon_values(row);
        let part = form_key(row).map_or(Value::Empty, |k| Value::Text(self.part_of_key(k)));
        [line, puzzle, status, form, automorphisms, part, error]
    }
}

/// The [`key`] of `row`'s canonical form, if it has one: as the worker found it, else found
/// here.
pub fn form_key(row: &Row) -> Option<u128> {
    let form = row.canonical.as_ref()?;
    Some(row.form_key.unwrap_or_else(|| key(&form.grid)))
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
        if let Some(k) = form_key(row) {
            self.add_key(k);
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
    use super::{Classes, Split};

    #[test]
    fn a_split_needs_two_named_parts_and_a_share() {
        let parts = |p: &[(&str, u32)]| p.iter().map(|&(n, s)| (n.to_string(), s)).collect();
        assert!(Split::new(parts(&[("train", 8), ("test", 2)]), 0).is_ok());
        assert!(Split::new(parts(&[("train", 0), ("test", 1)]), 0).is_ok());
        for bad in [
            &[("train", 8)][..],
            &[("train", 0), ("test", 0)],
            &[("train", 8), ("train", 2)],
            &[("train", 8), (" ", 2)],
        ] {
            assert!(Split::new(parts(bad), 0).is_err(), "{bad:?}");
        }
    }

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
