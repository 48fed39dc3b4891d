//! The records a run reads: each puzzle record with its line, as a puzzle or, when it is
//! not one, its text and the reason; and the solution a record states, if any.

use super::*;

/// One record of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The input it comes from: its index in the run's list of inputs ([`Reader::names`]),
    /// from 0.
    pub file: u32,
    /// 1-based line number where the record starts (for Parquet, the row number).
    pub line: u64,
    /// The puzzle, or why the record is not one.
    pub input: RecordInput,
    /// The solution the input states beside the puzzle, when [`ReadOptions::expect_column`]
    /// asks for one (`validate --expect-column`); `None` otherwise. Boxed, as few runs ask for
    /// it and records are moved from stage to stage.
    pub expected: Option<Box<Expected>>,
}

/// A record whose line holds nothing but a puzzle written as the output's `puzzle` column
/// writes it: 81 bytes, each `1`-`9` or `.`, read in place and compared with a row's `puzzle`
/// field. `--resume` checks every row so, and parsing each line into a [`Record`], or even
/// copying it, would cost more than the rest of that check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PlainRecord {
    /// As [`Record::file`].
    pub(crate) file: u32,
    /// As [`Record::line`].
    pub(crate) line: u64,
    /// `None` when the line is the field it was compared with; the line otherwise.
    pub(crate) differs: Option<Box<[u8; CELLS]>>,
}

impl PlainRecord {
    /// The record [`Reader::next_record`] would have read; `compared` is the field that
    /// [`Reader::next_plain`] compared it with.
    pub(crate) fn into_record(self, compared: &[u8]) -> Record {
        let line = self.differs.as_deref().map_or(compared, |cells| &cells[..]);
        Record {
            file: self.file,
            ..text::line_record(self.line, line)
        }
    }
}

/// A solution stated in the input beside a puzzle (a CSV column such as Kaggle's `solutions`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// A complete grid.
    Grid(Grid),
    /// The row has no such field, or it is empty.
    Missing,
    /// The field is not a complete grid: why.
    Malformed(String),
}

impl Expected {
    /// Reads a stated solution from a CSV field: 81 digits `1`-`9`, blanks not allowed.
    pub fn parse(field: Option<&[u8]>) -> Expected {
        let Some(field) = field.map(<[u8]>::trim_ascii).filter(|f| !f.is_empty()) else {
            return Expected::Missing;
        };
        match Grid::parse_bytes(field) {
            Ok(g) if g.is_full() => Expected::Grid(g),
            Ok(g) => Expected::Malformed(format!("{} blank cells", CELLS - g.clue_count())),
            Err(e) => Expected::Malformed(e.to_string()),
        }
    }
}

/// What a record holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordInput {
    /// A well-formed puzzle (its clues may still conflict).
    Puzzle(Grid),
    /// Not a puzzle.
    Invalid {
        /// The record text as read (cut to a few hundred bytes, invalid UTF-8 replaced).
        text: String,
        /// Why it is not a puzzle.
        reason: String,
    },
}
