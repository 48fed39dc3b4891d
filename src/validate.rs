//! The checks of `validate`: what is wrong with a record, in words a publisher can act on.
//!
//! The records go through the pipeline as for `solve` (counting solutions to 2, with
//! `--minimal`'s redundant-clue search and, comparing by isomorph, the canonical forms done
//! on the worker threads); a [`Checker`] then decides, row by row in input order, each
//! record's problems and counts them. Comparing duplicates by isomorph, it also tells the
//! workers which classes need no more searching ([`known`]). [`Against`] (the `against`
//! module) holds the puzzles of other corpora that no record may repeat (`--against`).

use std::fmt::{self, Write};

use crate::isomorph::canon::{canonical, key};
use crate::isomorph::key_table::KeyTable;
use crate::logic::Bounded;
use crate::pipeline::canon::form_key;
use crate::pipeline::grade::tenths;
use crate::pipeline::known::{self, KnownClasses};
use crate::pipeline::read::{Expected, RecordInput};
use crate::pipeline::solve::{Row, SolveOptions, Status};
use crate::pipeline::write::{self, Field, Kind};

mod against;

pub use against::Against;

/// The solutions `validate` counts to: 2 proves a puzzle unique.
pub const COUNT_TO: u64 = 2;

/// The report's columns: those of `solve`, then `problem`.
pub const COLUMNS: [Field; 9] = {
    let s = write::COLUMNS;
    [
        s[0],
        s[1],
        s[2],
        s[3],
        s[4],
        s[5],
        s[6],
        s[7],
        Field::new("problem", Kind::Text),
    ]
};

/// The kinds of problem a record can have, in the order they are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Not a puzzle.
    Invalid,
    /// No solution.
    Unsolvable,
    /// Two or more solutions.
    Multiple,
    /// The guess budget ran out.
    Aborted,
    /// `--expect-column`: no stated solution.
    StatedMissing,
    /// `--expect-column`: the stated solution is not a complete grid.
    StatedMalformed,
    /// `--expect-column`: the stated solution is not the unique solution.
    StatedDiffers,
    /// `--minimal`: some clue can be removed.
    Redundant,
    /// `--duplicates`: the puzzle (or an isomorph of it) appeared earlier.
    Duplicate,
    /// `--against`: the puzzle (or an isomorph of it) is in another corpus.
    Against,
    /// `--min-clues`: too few clues.
    FewClues,
    /// `--min-er`/`--max-er`: rated outside the band.
    OutsideBand,
    /// `--min-er`/`--max-er`: the grader could not rate the puzzle (time limit, or beyond
    /// the techniques it knows).
    Unrated,
}

impl Problem {
    /// Every kind, in the order the summary lists them.
    pub const ALL: [Problem; 13] = [
        Problem::Invalid,
        Problem::Unsolvable,
        Problem::Multiple,
        Problem::Aborted,
        Problem::StatedMissing,
        Problem::StatedMalformed,
        Problem::StatedDiffers,
        Problem::Redundant,
        Problem::Duplicate,
        Problem::Against,
        Problem::FewClues,
        Problem::OutsideBand,
        Problem::Unrated,
    ];

    /// The name used in the summary.
    pub fn label(self) -> &'static str {
        match self {
            Problem::Invalid => "invalid",
            Problem::Unsolvable => "unsolvable",
            Problem::Multiple => "multiple",
            Problem::Aborted => "aborted",
            Problem::StatedMissing => "stated solution missing",
            Problem::StatedMalformed => "stated solution malformed",
            Problem::StatedDiffers => "stated solution differs",
            Problem::Redundant => "redundant clues",
            Problem::Duplicate => "duplicate",
            Problem::Against => "found in --against",
            Problem::FewClues => "too few clues",
            Problem::OutsideBand => "outside the ER band",
            Problem::Unrated => "not rated",
        }
    }
}

/// `r3c4` for the 0-based cell 29.
fn cell_name(cell: usize) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// How `--duplicates` and `--against` tell two puzzles the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compare {
    /// The same clues in the same cells (blanks may be written differently).
    #[default]
    Exact,
    /// Isomorphs: the same canonical form ([`isomorph::canon`](crate::isomorph::canon)).
    Isomorph,
}

impl Compare {
    /// The word a problem starts with: `duplicate of`, `isomorph of`.
    fn words(self) -> &'static str {
        match self {
            Compare::Exact => "duplicate of",
            Compare::Isomorph => "isomorph of",
        }
    }
}

/// Where a puzzle was seen: its input's index (16 bits) and line (48 bits) in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Place(u64);

impl Place {
    fn new(file: u32, line: u64) -> Place {
        Place((u64::from(file.min(0xffff)) << 48) | line.min((1 << 48) - 1))
    }

    fn file(self) -> usize {
        (self.0 >> 48) as usize
    }

    fn line(self) -> u64 {
        self.0 & ((1 << 48) - 1)
    }
}

/// Decides each row's problems, in input order, and counts them.
#[derive(Debug, Default)]
pub struct Checker {
    /// `--duplicates`: how puzzles are compared, and where each was first seen, kept as the
    /// 128-bit [`key`] of its clues (exact) or of its canonical form (isomorph classes) in a
    /// [`KeyTable`] (16 bytes an entry, 104 bits of the key: a false match is as unlikely one
    /// way as the other).
    seen: Option<(Compare, KeyTable)>,
    /// Comparing by isomorph: a later member of a class whose status is known takes its
    /// first member's status, the workers not searching it ([`known`]).
    copy: bool,
    /// With several inputs, their names, for `duplicate of FILE line N`.
    names: Option<Vec<String>>,
    /// `--against`.
    against: Option<Against>,
    /// `--min-clues`.
    min_clues: Option<usize>,
    /// `--min-er`/`--max-er`: the band of ER in tenths, both ends included.
    er_band: Option<(u16, u16)>,
    /// The problems found so far.
    problems: Problems,
}

/// The problems of the current row, and the counts of all rows so far.
#[derive(Debug, Default)]
struct Problems {
    /// Records with each kind of problem, indexed as [`Problem::ALL`].
    counts: [u64; Problem::ALL.len()],
    /// Records with at least one problem.
    failed: u64,
    /// The current row's problem text.
    text: String,
}

impl Problems {
    /// Counts a problem of `kind` and returns the text to write it to, after those before.
    fn next(&mut self, kind: Problem) -> &mut String {
        if !self.text.is_empty() {
            self.text.push_str("; ");
        }
        if let Some(i) = Problem::ALL.iter().position(|&k| k == kind) {
            self.counts[i] += 1;
        }
        &mut self.text
    }

    fn add(&mut self, kind: Problem, text: &str) {
        self.next(kind).push_str(text);
    }

    /// Adds a problem of `kind` written as `text` says: into the row's text, with no string
    /// of its own (in a corpus of repeats most rows have one).
    fn add_fmt(&mut self, kind: Problem, text: fmt::Arguments<'_>) {
        // Writing to a String cannot fail.
        let _ = self.next(kind).write_fmt(text);
    }
}

impl Checker {
    /// A checker for the options that are checked in the writer.
    pub fn new(duplicates: bool, min_clues: Option<usize>) -> Checker {
        Checker {
            seen: duplicates.then(|| (Compare::Exact, KeyTable::new())),
            min_clues,
            ..Checker::default()
        }
    }

    /// The same checker, failing the puzzles seen earlier compared as `compare` says (or
    /// none, for `None`). Comparing by isomorph, the rows must come from a run that finds
    /// canonical forms ([`SolveOptions::canon`](crate::pipeline::solve::SolveOptions::canon)).
    pub fn with_duplicates(self, compare: Option<Compare>) -> Checker {
        Checker {
            seen: compare.map(|c| (c, KeyTable::new())),
            ..self
        }
    }

    /// The same checker, giving a later isomorph of a puzzle whose status is known that
    /// status without a search ([`known`]), when duplicates are compared by isomorph and
    /// nothing else needs each record's own search: not `solve`'s redundant clues or ratings
    /// (`--minimal`, an ER band), not `stated` solutions (`--expect-column`). The workers
    /// must then be given [`Checker::known`].
    pub fn copying_classes(self, solve: &SolveOptions, stated: bool) -> Checker {
        let copy = matches!(self.seen, Some((Compare::Isomorph, _)))
            && !solve.find_redundant
            && !solve.keep_solutions
            && solve.grade.is_none()
            && solve.limits.solutions == COUNT_TO
            && !stated;
        Checker { copy, ..self }
    }

    /// The classes whose status is known so far, for the workers, when
    /// [`copying_classes`](Checker::copying_classes).
    pub fn known(&self) -> Option<KnownClasses> {
        match &self.seen {
            Some((Compare::Isomorph, seen)) if self.copy => Some(KnownClasses::new(seen.known())),
            _ => None,
        }
    }

    /// The same checker, naming the input in its messages (`duplicate of FILE line N`): for
    /// a run of several inputs, `names` in the order of
    /// [`Record::file`](crate::pipeline::read::Record::file).
    pub fn with_names(self, names: Vec<String>) -> Checker {
        Checker {
            names: Some(names),
            ..self
        }
    }

    /// The same checker, failing every puzzle found in `against`. Comparing by isomorph,
    /// the rows must come from a run that finds canonical forms.
    pub fn with_against(self, against: Against) -> Checker {
        Checker {
            against: Some(against),
            ..self
        }
    }

    /// The essentially different puzzles seen so far (distinct canonical forms), when
    /// duplicates are compared by isomorph.
    pub fn classes(&self) -> Option<u64> {
        match &self.seen {
            Some((Compare::Isomorph, seen)) => Some(seen.len() as u64),
            _ => None,
        }
    }

    /// The same checker, also failing puzzles rated outside `min..=max` (ER in tenths) or not
    /// rated at all; the rows must come from a run that rates them
    /// ([`SolveOptions::grade`](crate::pipeline::solve::SolveOptions::grade)).
    pub fn with_er_band(self, min: u16, max: u16) -> Checker {
        Checker {
            er_band: Some((min, max)),
            ..self
        }
    }

    /// The key of `row`'s canonical form, when puzzles are compared by isomorph: the form the
    /// workers found, found here if the run did not ask them for it, so that no isomorph is
    /// missed whoever calls the checker.
    fn form_key(&self, row: &Row) -> Option<u128> {
        let isomorph = matches!(self.seen, Some((Compare::Isomorph, _)))
            || self
                .against
                .as_ref()
                .is_some_and(|a| a.compare == Compare::Isomorph);
        match (&row.record.input, row.canonical) {
            (RecordInput::Puzzle(_), Some(_)) => form_key(row),
            (RecordInput::Puzzle(puzzle), None) if isomorph => Some(key(&canonical(puzzle).grid)),
            _ => None,
        }
    }

    /// With `--duplicates`, for a puzzle seen earlier: how it was compared, where it was
    /// first seen, and (comparing by isomorph, its form's key being `form_key`) its class's
    /// tag ([`known::tag`]). The puzzle is recorded as seen here otherwise.
    fn first(&mut self, row: &Row, form_key: Option<u128>) -> Option<(Compare, Place, u8)> {
        let RecordInput::Puzzle(puzzle) = &row.record.input else {
            return None;
        };
        let here = Place::new(row.record.file, row.record.line);
        let tag = if self.copy { known::tag(row) } else { 0 };
        let (compare, seen) = self.seen.as_mut()?;
        let (file, line, tag) = match (*compare, row.class) {
            // A class the worker found in the table has its first member's place there
            // already (only this checker adds, in input order).
            (Compare::Isomorph, Some(found)) => seen.first_found(found),
            (Compare::Isomorph, None) => {
                seen.first_or_insert_tagged(form_key?, row.record.file, row.record.line, tag)
            }
            // Tags are kept for classes only.
            (Compare::Exact, _) => {
                seen.first_or_insert_tagged(key(puzzle), row.record.file, row.record.line, 0)
            }
        };
        let first = Place::new(file, line);
        (first != here).then_some((*compare, first, tag))
    }

    /// The problems of `row`, joined with `; `; empty when it passes. Must be called once per
    /// row, in input order (duplicates name the earlier line). With
    /// [`copying_classes`](Checker::copying_classes), a later isomorph of a puzzle whose status
    /// is known is made [`copy`](known::copy)'s row first, searched or not.
    pub fn check(&mut self, row: &mut Row) -> &str {
        self.problems.text.clear();
        let form_key = self.form_key(row);
        let first = self.first(row, form_key);
        if let Some((Compare::Isomorph, _, tag)) = first
            && self.copy
            && let Some(status) = known::status(tag)
        {
            known::copy(row, status, COUNT_TO);
        }
        match row.status {
            Status::Invalid => self.problems.add(Problem::Invalid, "invalid"),
            Status::Unsolvable => self.problems.add(Problem::Unsolvable, "unsolvable"),
            Status::Multiple => self.problems.add(Problem::Multiple, "multiple"),
            Status::Aborted => self.problems.add_fmt(
                Problem::Aborted,
                format_args!("aborted after {} guesses", row.outcome.guesses),
            ),
            Status::Unique | Status::Solved => {}
        }
        match row.record.expected.as_deref() {
            None => {}
            Some(Expected::Missing) => self
                .problems
                .add(Problem::StatedMissing, "stated solution missing"),
            Some(Expected::Malformed(why)) => self.problems.add_fmt(
                Problem::StatedMalformed,
                format_args!("stated solution malformed: {why}"),
            ),
            Some(Expected::Grid(stated)) => {
                // Only a unique solution can be compared; other statuses already fail.
                if let (Status::Unique, Some(solution)) = (row.status, &row.outcome.solution) {
                    let differs =
                        (0..crate::grid::CELLS).find(|&i| stated.get(i) != solution.get(i));
                    if let Some(i) = differs {
                        self.problems.add_fmt(
                            Problem::StatedDiffers,
                            format_args!(
                                "stated solution differs at {} (stated {}, solution {})",
                                cell_name(i),
                                stated.get(i),
                                solution.get(i)
                            ),
                        );
                    }
                }
            }
        }
        if !row.redundant_clues.is_empty() {
            let cells: Vec<String> = row
                .redundant_clues
                .iter()
                .map(|&c| cell_name(c as usize))
                .collect();
            self.problems.add_fmt(
                Problem::Redundant,
                format_args!("redundant clues: {}", cells.join(" ")),
            );
        }
        if let RecordInput::Puzzle(puzzle) = &row.record.input {
            if let Some((compare, first, _)) = first {
                let (words, line) = (compare.words(), first.line());
                match &self.names {
                    Some(names) => self.problems.add_fmt(
                        Problem::Duplicate,
                        format_args!("{words} {} line {line}", names[first.file()]),
                    ),
                    None => self
                        .problems
                        .add_fmt(Problem::Duplicate, format_args!("{words} line {line}")),
                }
            }
            if let Some(against) = &self.against {
                let k = match against.compare {
                    Compare::Exact => Some(key(puzzle)),
                    Compare::Isomorph => form_key,
                };
                if let Some(found) = k
                    .and_then(|k| against.keys.get(k))
                    .map(|(f, l)| Place::new(f, l))
                {
                    self.problems.add_fmt(
                        Problem::Against,
                        format_args!(
                            "{} {} line {}",
                            against.compare.words(),
                            against.names[found.file()],
                            found.line()
                        ),
                    );
                }
            }
            let clues = puzzle.clue_count();
            if let Some(min) = self.min_clues.filter(|&min| clues < min) {
                self.problems.add_fmt(
                    Problem::FewClues,
                    format_args!("{clues} clues, fewer than {min}"),
                );
            }
        }
        if let (Some((min, max)), Some(rated)) = (self.er_band, &row.rating) {
            match rated {
                // Rated against this band, the rating stops at its limit, one tenth above
                // `max` (or, without `max`, at `min`, which passes).
                Ok(Bounded::AtLeast(limit)) if *limit > max => self.problems.add_fmt(
                    Problem::OutsideBand,
                    format_args!("ER above {}", tenths(max)),
                ),
                Ok(Bounded::AtLeast(_)) => {}
                Ok(Bounded::Rated(r)) if r.er < min => self.problems.add_fmt(
                    Problem::OutsideBand,
                    format_args!("ER {}, below {}", tenths(r.er), tenths(min)),
                ),
                Ok(Bounded::Rated(r)) if r.er > max => self.problems.add_fmt(
                    Problem::OutsideBand,
                    format_args!("ER {}, above {}", tenths(r.er), tenths(max)),
                ),
                Ok(Bounded::Rated(_)) => {}
                Err(e) => self
                    .problems
                    .add_fmt(Problem::Unrated, format_args!("not rated: {e}")),
            }
        }
        if !self.problems.text.is_empty() {
            self.problems.failed += 1;
        }
        &self.problems.text
    }

    /// Records that failed so far.
    pub fn failed(&self) -> u64 {
        self.problems.failed
    }

    /// Records with `kind` of problem so far.
    pub fn count(&self, kind: Problem) -> u64 {
        Problem::ALL
            .iter()
            .position(|&k| k == kind)
            .map_or(0, |i| self.problems.counts[i])
    }
}

#[cfg(test)]
mod tests;
