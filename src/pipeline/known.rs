//! Classes of isomorphs whose search result is already known: `validate --duplicates
//! --isomorphs` learns each class's status from its first member, in input order, and the
//! workers then skip the search of its later members.
//!
//! Isomorphs have the same number of solutions, and clues that conflict in one conflict in
//! all, so a later member's status is its class's: `unique`, `multiple` or `unsolvable`. A
//! class whose first member's search ran out of guesses, or whose clues conflict (the unit
//! named differs between isomorphs), is not known: its members are searched one by one.
//!
//! Whether a worker finds a class known depends on how far the writer has come, which depends
//! on the threads' timing; so the row of every later member of a known class is made the same
//! whether it was searched or not ([`copy`]): the class's status, no solution, guesses or time.
//!
//! The writer learns a class only when it reaches the class's first member, some batches
//! after a worker searched it; meanwhile the worker remembers the statuses its own searches
//! found (a few thousand of the latest, [`KnownClasses::searched`]), so that the members that
//! follow closely are not searched again. A status found that way is the class's whichever
//! member was searched, as long as no guess budget can cut one member's search short and not
//! another's: the worker remembers nothing under a budget. It is used only for records after
//! the one searched, so that the first member of a class in input order is always searched.

use crate::isomorph::key_table::{Found, Known};
use crate::solver::Outcome;

use super::solve::{Row, Status};

/// The statuses a class can be known by, at their tags (1 to 3; 0 is "not known").
const KNOWN: [Status; 3] = [Status::Unique, Status::Multiple, Status::Unsolvable];

/// The classes a worker remembers having searched itself: a power of two.
const RECENT: usize = 4096;
/// Where a remembered key keeps its tag: two bits that no form key uses (each of its halves
/// is below 2^61).
const RECENT_TAG: u32 = 125;

/// A view of the classes known so far, for one worker.
#[derive(Debug, Clone)]
pub struct KnownClasses {
    known: Known,
    /// Keys with their tags (at [`RECENT_TAG`]) of the classes this worker searched, and
    /// where the record searched was ([`position`]), each in the slot its key's low bits
    /// choose (a key of 0 at position 0: empty); allocated at the first.
    recent: Vec<(u128, u64)>,
}

/// Where a record is in input order: its input's index in the top 16 bits, its line below;
/// `None` past what those bits hold.
fn position(file: u32, line: u64) -> Option<u64> {
    (file < 1 << 16 && line < 1 << 48).then(|| u64::from(file) << 48 | line)
}

/// What a worker knows of a record's class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Class {
    /// The class's entry in the table, when the writer has seen one of its members.
    pub found: Option<Found>,
    /// The class's status, when known: the table's, or else the one this worker found.
    pub status: Option<Status>,
}

impl KnownClasses {
    /// The classes whose tags `known` holds, as [`tag`] gave them.
    pub fn new(known: Known) -> KnownClasses {
        KnownClasses {
            known,
            recent: Vec::new(),
        }
    }

    /// What is known of the class whose canonical form has `form_key`
    /// ([`key`](crate::isomorph::canon::key)), for the record at line `line` of input `file`.
    pub fn class(&self, form_key: u128, file: u32, line: u64) -> Class {
        let found = self.known.find(form_key);
        let status = match found {
            Some(f) => status(f.tag()),
            None => position(file, line).and_then(|here| self.recent(form_key, here)),
        };
        Class { found, status }
    }

    /// The status this worker found for the class of `form_key` searching a record before
    /// the one at `here`, if it remembers one.
    fn recent(&self, form_key: u128, here: u64) -> Option<Status> {
        let (kept, at) = *self.recent.get(form_key as usize & (RECENT - 1))?;
        let tag = (kept >> RECENT_TAG) as u8 & 3;
        (kept & !(3 << RECENT_TAG) == form_key && at < here)
            .then(|| status(tag))
            .flatten()
    }

    /// Remembers the status of `row`, just searched, for the class of `form_key` (the
    /// latest searches replace older ones); nothing when `budget` (a guess budget: another
    /// member's search might end otherwise).
    pub fn searched(&mut self, form_key: u128, row: &Row, budget: bool) {
        let tag = tag(row);
        let Some(at) = position(row.record.file, row.record.line) else {
            return;
        };
        if budget || tag == 0 {
            return;
        }
        if self.recent.is_empty() {
            self.recent = vec![(0, 0); RECENT];
        }
        self.recent[form_key as usize & (RECENT - 1)] =
            (form_key | u128::from(tag) << RECENT_TAG, at);
    }
}

/// The tag a class is kept with when `row` is its first member's: its status's, or 0 when
/// its members must be searched one by one.
pub fn tag(row: &Row) -> u8 {
    match row.status {
        Status::Unsolvable if row.conflict.is_some() => 0,
        s => KNOWN
            .iter()
            .position(|&k| k == s)
            .map_or(0, |i| i as u8 + 1),
    }
}

/// The status a class's tag says, if it says one.
pub fn status(tag: u8) -> Option<Status> {
    KNOWN.get(usize::from(tag).checked_sub(1)?).copied()
}

/// Makes `row` a later member's of a class known to be `status`, counting solutions up to
/// `limit`: that status, no solution, guesses or time, nothing else the search found.
pub fn copy(row: &mut Row, status: Status, limit: u64) {
    row.status = status;
    row.outcome = Outcome {
        solutions: match status {
            Status::Unique => 1,
            Status::Multiple => limit,
            _ => 0,
        },
        ..Outcome::default()
    };
    row.time_ns = 0;
    row.conflict = None;
    row.copied = true;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::isomorph::canon::key;
    use crate::pipeline::read::{Record, RecordInput};

    fn row(puzzle: &str, status: Status) -> Row {
        let grid: Grid = puzzle.parse().unwrap();
        let mut row = Row::stopped(Record {
            file: 0,
            line: 1,
            input: RecordInput::Puzzle(grid),
            expected: None,
        });
        row.status = status;
        row.outcome = Outcome::default();
        row.conflict = grid.conflict();
        row
    }

    #[test]
    fn a_class_is_known_by_its_status_unless_the_search_ran_out_or_clues_conflict() {
        let open = ".".repeat(81);
        for s in KNOWN {
            assert_eq!(status(tag(&row(&open, s))), Some(s));
        }
        for s in [Status::Aborted, Status::Invalid, Status::Solved] {
            assert_eq!(tag(&row(&open, s)), 0, "{s}");
        }
        // Two 1s in the first row: unsolvable, but the unit named differs among isomorphs.
        let conflicting = format!("11{}", ".".repeat(79));
        assert_eq!(tag(&row(&conflicting, Status::Unsolvable)), 0);
        assert_eq!(status(0), None);
        assert_eq!(status(4), None);
    }

    #[test]
    fn a_worker_does_not_search_a_puzzle_whose_class_is_known() {
        use crate::isomorph::canon::canonical;
        use crate::isomorph::key_table::KeyTable;
        use crate::pipeline::canon::Canon;
        use crate::pipeline::solve::{SolveOptions, Worker};
        use crate::solver::Limits;

        // A puzzle that needs guesses, and the same with rows 1 and 2 swapped.
        let puzzle =
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
        let isomorph = format!("{}{}{}", &puzzle[9..18], &puzzle[..9], &puzzle[18..]);
        let options = SolveOptions {
            limits: Limits {
                solutions: 2,
                ..Limits::default()
            },
            canon: Canon::Also,
            ..SolveOptions::default()
        };
        let mut table = KeyTable::new();
        let mut worker = Worker::new(&options).with_known(Some(KnownClasses::new(table.known())));
        let record = |text: &str| row(text, Status::Unique).record;
        // Not known yet: searched.
        let first = worker.row(record(puzzle), &options);
        assert_eq!((first.status, first.copied), (Status::Unique, false));
        assert!(first.outcome.guesses > 0 && first.outcome.solution.is_some());
        let form = canonical(&puzzle.parse().unwrap()).grid;
        table.first_or_insert_tagged(key(&form), 0, 1, tag(&first));
        // Known: not searched, its status the class's, its form still found.
        let later = worker.row(record(&isomorph), &options);
        assert_eq!((later.status, later.copied), (Status::Unique, true));
        assert_eq!(
            later.outcome,
            Outcome {
                solutions: 1,
                ..Outcome::default()
            }
        );
        assert_eq!(later.canonical.map(|c| c.grid), Some(form));
        // Without the view, the same worker searches it.
        let mut plain = Worker::new(&options);
        let searched = plain.row(record(&isomorph), &options);
        assert!(!searched.copied && searched.outcome.solution.is_some());
    }

    #[test]
    fn a_worker_remembers_the_classes_it_searched_unless_under_a_guess_budget() {
        use crate::isomorph::key_table::KeyTable;
        use crate::pipeline::canon::Canon;
        use crate::pipeline::solve::{SolveOptions, Worker};
        use crate::solver::Limits;

        let puzzle =
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
        // The same with stacks 1 and 3 swapped, and digits 1 and 2.
        let isomorph: String = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                let c = [6, 7, 8, 3, 4, 5, 0, 1, 2][c];
                match puzzle.as_bytes()[r * 9 + c] {
                    b'1' => '2',
                    b'2' => '1',
                    b => b as char,
                }
            })
            .collect();
        let record = |text: &str, line: u64| {
            let mut record = row(text, Status::Unique).record;
            record.line = line;
            record
        };
        let table = KeyTable::new();
        for budget in [None, Some(1_000_000)] {
            let options = SolveOptions {
                limits: Limits {
                    solutions: 2,
                    guesses: budget,
                    ..Limits::default()
                },
                canon: Canon::Also,
                ..SolveOptions::default()
            };
            let mut worker =
                Worker::new(&options).with_known(Some(KnownClasses::new(table.known())));
            let first = worker.row(record(puzzle, 5), &options);
            assert!(!first.copied && first.outcome.guesses > 0);
            // The table has not seen the class: without a budget the worker's own search
            // is enough for a later record; with one, the isomorph is searched too.
            let later = worker.row(record(&isomorph, 6), &options);
            assert_eq!(later.status, Status::Unique);
            assert_eq!(later.copied, budget.is_none(), "budget {budget:?}");
            assert_eq!(later.class, None);
            // A record before the one searched may be its class's first: it is searched.
            let earlier = worker.row(record(&isomorph, 4), &options);
            assert!(!earlier.copied && earlier.outcome.solution.is_some());
        }
    }

    #[test]
    fn a_copied_row_keeps_only_its_class_status() {
        let mut r = row(&".".repeat(81), Status::Aborted);
        r.outcome.guesses = 50;
        r.outcome.aborted = true;
        r.time_ns = 1234;
        copy(&mut r, Status::Multiple, 2);
        assert_eq!(r.status, Status::Multiple);
        assert_eq!(
            r.outcome,
            Outcome {
                solutions: 2,
                ..Outcome::default()
            }
        );
        assert_eq!((r.time_ns, r.copied), (0, true));
        copy(&mut r, Status::Unique, 2);
        assert_eq!(r.outcome.solutions, 1);
    }
}
