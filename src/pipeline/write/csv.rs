//! CSV output: the `csv` crate's writer, quoting only the fields that need it (invalid
//! records' text and error messages).

use std::io::{self, Write};

use super::{Compressed, TableWriter, Value};
use crate::grid::CELLS;
use crate::pipeline::grade::tenths;

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
    if !e.is_io_error() {
        // The crate's own words (its Display), not its error's debug text.
        return io::Error::other(e.to_string());
    }
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        _ => io::Error::other("CSV error"),
    }
}

impl<W: Write> CsvWriter<W> {
    /// A writer whose first row is `header`.
    pub fn new(out: W, header: &[&str]) -> io::Result<Self> {
        let mut w = CsvWriter::appending(out);
        w.inner.write_record(header).map_err(io_error)?;
        Ok(w)
    }

    /// A writer whose first row is `header`, its fields separated by `delimiter` (a tab for
    /// tab-separated values).
    pub fn with_delimiter(out: W, header: &[&str], delimiter: u8) -> io::Result<Self> {
        let mut w = CsvWriter::appending_with(out, delimiter);
        w.inner.write_record(header).map_err(io_error)?;
        Ok(w)
    }

    /// A writer that appends rows to an output which already has its header (`--resume`).
    pub fn appending(out: W) -> Self {
        CsvWriter::appending_with(out, b',')
    }

    fn appending_with(out: W, delimiter: u8) -> Self {
        CsvWriter {
            inner: csv::WriterBuilder::new()
                .flexible(true)
                .delimiter(delimiter)
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
                Value::Tenths(t) => self.inner.write_field(tenths(*t)),
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

/// A CSV table of the pipeline: a [`CsvWriter`] until it is finished.
pub(super) struct CsvTable(Option<CsvWriter<Compressed>>);

impl CsvTable {
    pub(super) fn new(writer: CsvWriter<Compressed>) -> Self {
        CsvTable(Some(writer))
    }

    fn writer(&mut self) -> io::Result<&mut CsvWriter<Compressed>> {
        self.0
            .as_mut()
            .ok_or_else(|| io::Error::other("the table is finished"))
    }
}

impl TableWriter for CsvTable {
    fn write_row(&mut self, values: &[Value]) -> io::Result<()> {
        self.writer()?.write_row(values)
    }

    fn end_batch(&mut self) -> io::Result<()> {
        self.writer()?.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        let Some(writer) = self.0.take() else {
            return Ok(());
        };
        let mut out = writer.inner.into_inner().map_err(|e| e.into_error())?;
        out.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::read::{Record, RecordInput};
    use crate::pipeline::solve::Row;
    use crate::pipeline::solve::{SolveOptions, solve_record};
    use crate::pipeline::write::{COLUMNS, names, row_values};

    fn write(rows: &[Row]) -> String {
        let mut out = Vec::new();
        {
            let mut w = CsvWriter::new(&mut out, &names(&COLUMNS)).unwrap();
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
            file: 0,
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
