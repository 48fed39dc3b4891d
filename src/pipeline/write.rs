//! The write stage: result rows as CSV, in input order, and the optional file of every
//! solution.
//!
//! A row is a list of [`Value`]s, written by the `csv` crate's writer (quoting only the fields
//! that need it: invalid records' text and error messages). The pipeline flushes at every
//! batch boundary, so a crash loses at most the batches in flight.

use std::io::{self, Write};

use super::grade::{techniques, tenths};
use super::read::RecordInput;
use super::solve::Row;
use crate::grid::{CELLS, Grid};

/// The columns of the results CSV, in order.
pub const COLUMNS: [&str; 8] = [
    "line",
    "puzzle",
    "status",
    "solutions",
    "solution",
    "guesses",
    "time_ns",
    "error",
];

/// The columns of `grade`'s results, in order.
pub const GRADE_COLUMNS: [&str; 11] = [
    "line",
    "puzzle",
    "status",
    "er",
    "ep",
    "ed",
    "hardest",
    "steps",
    "techniques",
    "time_ns",
    "error",
];

/// The columns of the `--emit-solutions` CSV.
pub const SOLUTION_COLUMNS: [&str; 3] = ["line", "index", "solution"];

/// One field of an output row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'a> {
    /// Nothing.
    Empty,
    /// A whole number.
    Number(u64),
    /// Text.
    Text(&'a str),
    /// A grid, as its 81-character line.
    Grid(&'a Grid),
}

/// The [`COLUMNS`] of a results row. `error` is where the text of the error column is kept.
pub fn row_values<'a>(row: &'a Row, error: &'a mut String) -> [Value<'a>; 8] {
    *error = row.error().unwrap_or_default();
    [
        Value::Number(row.record.line),
        match &row.record.input {
            RecordInput::Puzzle(g) => Value::Grid(g),
            RecordInput::Invalid { text, .. } => Value::Text(text),
        },
        Value::Text(row.status.as_str()),
        Value::Number(row.outcome.solutions),
        row.outcome
            .solution
            .as_ref()
            .map_or(Value::Empty, Value::Grid),
        Value::Number(row.outcome.guesses),
        Value::Number(row.time_ns),
        Value::Text(error),
    ]
}

/// Where [`grade_values`] keeps the text it makes for one row.
#[derive(Debug, Default)]
pub struct GradeText {
    er: String,
    ep: String,
    ed: String,
    techniques: String,
    error: String,
}

/// The [`GRADE_COLUMNS`] of a results row; ratings are empty when the row was not rated.
pub fn grade_values<'a>(row: &'a Row, text: &'a mut GradeText) -> [Value<'a>; 11] {
    text.error = row.error().unwrap_or_default();
    let rating = row.rating.as_ref().and_then(|r| r.as_ref().ok());
    if let Some(r) = rating {
        text.er = tenths(r.er);
        text.ep = tenths(r.ep);
        text.ed = tenths(r.ed);
        text.techniques = techniques(r);
    }
    let or_empty = |v: Value<'a>| if rating.is_some() { v } else { Value::Empty };
    [
        Value::Number(row.record.line),
        match &row.record.input {
            RecordInput::Puzzle(g) => Value::Grid(g),
            RecordInput::Invalid { text, .. } => Value::Text(text),
        },
        Value::Text(row.status.as_str()),
        or_empty(Value::Text(&text.er)),
        or_empty(Value::Text(&text.ep)),
        or_empty(Value::Text(&text.ed)),
        rating.map_or(Value::Empty, |r| Value::Text(r.hardest.name())),
        rating.map_or(Value::Empty, |r| Value::Number(u64::from(r.steps))),
        or_empty(Value::Text(&text.techniques)),
        Value::Number(row.time_ns),
        Value::Text(&text.error),
    ]
}

/// Writes rows of [`Value`]s as CSV.
pub struct CsvWriter<W: Write> {
    inner: csv::Writer<W>,
}

impl<W: Write> std::fmt::Debug for CsvWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CsvWriter").finish_non_exhaustive()
    }
}

/// The `csv` crate's error as the I/O error it wraps (the only kind its writer gives for
/// records of the same length).
fn io_error(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

impl<W: Write> CsvWriter<W> {
    /// A writer whose first row is `header`.
    pub fn new(out: W, header: &[&str]) -> io::Result<Self> {
        let mut w = CsvWriter::appending(out);
        w.inner.write_record(header).map_err(io_error)?;
        Ok(w)
    }

    /// A writer that appends rows to an output which already has its header (`--resume`).
    pub fn appending(out: W) -> Self {
        CsvWriter {
            inner: csv::WriterBuilder::new()
                .flexible(true)
                .buffer_capacity(64 * 1024)
                .from_writer(out),
        }
    }

    /// Writes one row.
    pub fn write_row(&mut self, values: &[Value]) -> io::Result<()> {
        for value in values {
            match value {
                Value::Empty => self.inner.write_field(b""),
                Value::Number(n) => self.inner.write_field(itoa::Buffer::new().format(*n)),
                Value::Text(t) => self.inner.write_field(t),
                Value::Grid(g) => {
                    let mut line = [0u8; CELLS];
                    g.write_line(&mut line);
                    self.inner.write_field(line)
                }
            }
            .map_err(io_error)?;
        }
        self.inner.write_record(None::<&[u8]>).map_err(io_error)
    }

    /// Hands every row written to the output and flushes it.
    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::read::Record;
    use crate::pipeline::solve::{SolveOptions, solve_record};

    fn write(rows: &[Row]) -> String {
        let mut out = Vec::new();
        {
            let mut w = CsvWriter::new(&mut out, &COLUMNS).unwrap();
            let mut error = String::new();
            for row in rows {
                w.write_row(&row_values(row, &mut error)).unwrap();
            }
            w.flush().unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    fn solved(text: &str) -> Row {
        let opts = SolveOptions::default();
        let input = match text.parse() {
            Ok(g) => RecordInput::Puzzle(g),
            Err(e) => RecordInput::Invalid {
                text: text.into(),
                reason: e.to_string(),
            },
        };
        let record = Record {
            line: 7,
            input,
            expected: None,
        };
        solve_record(&mut *opts.strategy.solver(), record, &opts)
    }

    #[test]
    fn rows_have_every_column_and_quote_when_needed() {
        let text = write(&[solved("a,\"b")]);
        assert_eq!(
            text,
            "line,puzzle,status,solutions,solution,guesses,time_ns,error\n\
             7,\"a,\"\"b\",invalid,0,,0,0,cell 1: unexpected character 'a'\n"
        );
    }

    #[test]
    fn a_puzzle_row_holds_its_grids_and_numbers() {
        let p = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";
        let row = solved(p);
        let text = write(std::slice::from_ref(&row));
        let line = text.lines().nth(1).unwrap();
        let solution = row.outcome.solution.unwrap().to_string();
        assert_eq!(
            line,
            format!(
                "7,{p},unique,1,{solution},{},{},",
                row.outcome.guesses, row.time_ns
            )
        );
    }
}
