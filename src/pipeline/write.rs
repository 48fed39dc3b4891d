//! The write stage: result rows as CSV, in input order, and the optional file of every solution.
//!
//! Rows are written field by field into a `csv::Writer` (numbers formatted on the stack), so
//! writing allocates nothing per row. The writer is flushed at every batch boundary by the
//! pipeline, so a crash loses at most the batch in flight.

use std::io::{self, Write};

use super::read::RecordInput;
use super::solve::Row;
use crate::grid::CELLS;

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

/// The columns of the `--emit-solutions` CSV.
pub const SOLUTION_COLUMNS: [&str; 3] = ["line", "index", "solution"];

/// Writes result rows as CSV.
pub struct RowWriter<W: Write> {
    csv: csv::Writer<W>,
}

impl<W: Write> std::fmt::Debug for RowWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowWriter").finish_non_exhaustive()
    }
}

fn to_io(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

impl<W: Write> RowWriter<W> {
    /// A writer with the given header row, written at once.
    pub fn new(out: W, header: &[&str]) -> io::Result<Self> {
        let mut csv = csv::WriterBuilder::new()
            .buffer_capacity(256 * 1024)
            .from_writer(out);
        csv.write_record(header).map_err(to_io)?;
        Ok(RowWriter { csv })
    }

    /// A writer that appends rows to an output which already has its header (`--resume`).
    pub fn appending(out: W) -> Self {
        let csv = csv::WriterBuilder::new()
            .buffer_capacity(256 * 1024)
            .from_writer(out);
        RowWriter { csv }
    }

    /// Writes one results row (the [`COLUMNS`]).
    pub fn write_row(&mut self, row: &Row) -> io::Result<()> {
        self.write_row_fields(row)?;
        self.csv.write_record(None::<&[u8]>).map_err(to_io)
    }

    /// Writes the [`COLUMNS`] fields of a row without ending the record, so that a caller can
    /// append more fields (as `validate` does) before calling [`RowWriter::end_record`].
    pub fn write_row_fields(&mut self, row: &Row) -> io::Result<()> {
        let mut cells = [0u8; CELLS];
        self.number(row.record.line)?;
        match &row.record.input {
            RecordInput::Puzzle(g) => {
                g.write_line(&mut cells);
                self.field(&cells)?;
            }
            RecordInput::Invalid { text, .. } => self.field(text.as_bytes())?,
        }
        self.field(row.status.as_str().as_bytes())?;
        self.number(row.outcome.solutions)?;
        match &row.outcome.solution {
            Some(s) => {
                s.write_line(&mut cells);
                self.field(&cells)?;
            }
            None => self.field(b"")?,
        }
        self.number(row.outcome.guesses)?;
        self.number(row.time_ns)?;
        match row.error() {
            Some(e) => self.field(e.as_bytes()),
            None => self.field(b""),
        }
    }

    /// Writes one more field of the current record.
    pub fn field(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.csv.write_field(bytes).map_err(to_io)
    }

    /// Ends the current record.
    pub fn end_record(&mut self) -> io::Result<()> {
        self.csv.write_record(None::<&[u8]>).map_err(to_io)
    }

    fn number(&mut self, n: u64) -> io::Result<()> {
        let mut buf = itoa::Buffer::new();
        self.field(buf.format(n).as_bytes())
    }

    /// Writes the `--emit-solutions` rows of `row`: one `line,index,solution` per solution.
    pub fn write_solutions(&mut self, row: &Row) -> io::Result<()> {
        let mut cells = [0u8; CELLS];
        for (i, s) in row.all_solutions.iter().enumerate() {
            self.number(row.record.line)?;
            self.number(i as u64 + 1)?;
            s.write_line(&mut cells);
            self.field(&cells)?;
            self.end_record()?;
        }
        Ok(())
    }

    /// Flushes everything written so far to the underlying writer and flushes it.
    pub fn flush(&mut self) -> io::Result<()> {
        self.csv.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::read::Record;
    use crate::pipeline::solve::{SolveOptions, solve_record};

    #[test]
    fn rows_have_every_column_and_quote_when_needed() {
        let opts = SolveOptions::default();
        let mut s = opts.strategy.solver();
        let mut out = Vec::new();
        {
            let mut w = RowWriter::new(&mut out, &COLUMNS).unwrap();
            let rec = Record {
                line: 7,
                input: RecordInput::Invalid {
                    text: "a,\"b".into(),
                    reason: "cell 1: unexpected character 'a'".into(),
                },
            };
            w.write_row(&solve_record(&mut *s, rec, &opts)).unwrap();
            w.flush().unwrap();
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "line,puzzle,status,solutions,solution,guesses,time_ns,error\n\
             7,\"a,\"\"b\",invalid,0,,0,0,cell 1: unexpected character 'a'\n"
        );
    }
}
