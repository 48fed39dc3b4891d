//! What a run is told about its inputs: their format, header and puzzle column
//! ([`ReadOptions`]), and the errors that stop reading ([`ReadError`]).

use std::io;

use super::*;

/// The input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// By the file name: CSV for `.csv`, tab-separated CSV for `.tsv`, Parquet for `.parquet`
    /// (each also with `.gz`, `.xz` or `.zst` after it, but Parquet), text otherwise.
    #[default]
    Auto,
    /// One puzzle per line: 81 cells, then optionally a delimiter and a comment; or one field
    /// of 81 cells anywhere in the line.
    Text,
    /// CSV with the puzzle in one column.
    Csv,
    /// Blocks of nine rows of nine cells.
    Grid,
    /// A Parquet file with the puzzle in one column (needs the cargo feature `parquet`).
    Parquet,
}

/// Whether a CSV input starts with a header row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Header {
    /// A header when no field of the first row is a puzzle.
    #[default]
    Auto,
    /// The first row is a header.
    Yes,
    /// There is no header.
    No,
}

/// Which CSV or Parquet column holds the puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Column {
    /// The first column with one of the usual names (`puzzle`, `quizzes`, ...), else the first
    /// whose values in the first rows are puzzles, else column 0.
    #[default]
    Auto,
    /// A 0-based column index.
    Index(usize),
    /// A column named in the header (case-insensitive).
    Name(String),
}

impl std::str::FromStr for Column {
    type Err = std::convert::Infallible;

    /// A number is an index, nothing (`""`) is [`Column::Auto`], anything else a name.
    fn from_str(s: &str) -> Result<Column, Self::Err> {
        Ok(match s.parse() {
            Ok(i) => Column::Index(i),
            Err(_) if s.is_empty() => Column::Auto,
            Err(_) => Column::Name(s.to_string()),
        })
    }
}

/// Column names taken to hold puzzles when no `--column` is given, in order of preference.
pub const PUZZLE_COLUMN_NAMES: [&str; 7] = [
    "puzzle", "puzzles", "quizzes", "quiz", "sudoku", "grid", "board",
];

/// Column names taken to hold stated solutions when `--expect-column` names none.
pub const SOLUTION_COLUMN_NAMES: [&str; 2] = ["solution", "solutions"];

/// Reading options.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The input format.
    pub format: Format,
    /// The puzzle column (CSV, Parquet).
    pub column: Column,
    /// Header handling (CSV).
    pub header: Header,
    /// A CSV or Parquet column holding each puzzle's stated solution, read into
    /// [`Record::expected`] (`validate --expect-column`). Other formats refuse it with
    /// [`ReadError::Usage`].
    pub expect_column: Option<Column>,
    /// The CSV field delimiter; `None`: a tab for `.tsv` files, else told by the first line.
    pub delimiter: Option<u8>,
    /// Text: the 0-based field of each line that holds the puzzle (fields separated by runs of
    /// spaces, tabs, `,`, `;` or `|`); `None`: the line's start, or its one field of 81 cells.
    pub field: Option<usize>,
    /// Read only this part of the records of all the inputs together, keeping their `line`s:
    /// a contiguous range, cut by bytes when every input is an uncompressed text or CSV file,
    /// else by record index after a pass that counts the records (stdin is copied to a
    /// temporary file for it). The parts 0..N-1 together read every record once, in order.
    /// [`Reader::from_reader`] refuses it.
    pub shard: Option<Shard>,
}

impl ReadOptions {
    /// The options that only some formats take and that are given, each with the formats
    /// that take it and its command-line name.
    fn format_only(&self) -> [(bool, &'static [Format], &'static str); 5] {
        const TABLES: &[Format] = &[Format::Csv, Format::Parquet];
        [
            (self.expect_column.is_some(), TABLES, "--expect-column"),
            (self.column != Column::Auto, TABLES, "--column"),
            (self.header != Header::Auto, &[Format::Csv], "--header"),
            (self.delimiter.is_some(), &[Format::Csv], "--delimiter"),
            (self.field.is_some(), &[Format::Text], "--field"),
        ]
    }

    /// Refuses an option given for an input of a format that does not take it.
    pub(super) fn check(&self, name: &str, format: Format) -> Result<(), ReadError> {
        let misfit = self
            .format_only()
            .into_iter()
            .find(|(given, formats, _)| *given && !formats.contains(&format));
        let Some((_, formats, option)) = misfit else {
            return Ok(());
        };
        let needs = match formats {
            [Format::Csv] => "CSV input (name it .csv or .tsv, or give --format csv)",
            [Format::Text] => "text input",
            _ => "CSV input or a Parquet file (name it .csv or .parquet, or give --format)",
        };
        Err(ReadError::Usage {
            path: name.to_string(),
            message: format!("{option} needs {needs}"),
        })
    }
}

/// An error that stops reading: the input cannot be opened or read, or the options do not fit
/// it. Bad records are not errors.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The input could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The input's name.
        path: String,
        /// The OS error.
        source: io::Error,
    },
    /// The options do not fit the input (e.g. a column name that is not in the header).
    #[error("{path}: {message}")]
    Usage {
        /// The input's name.
        path: String,
        /// What is wrong.
        message: String,
    },
}
