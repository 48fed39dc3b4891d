//! The write stage: result rows in input order, as CSV, JSON lines or Parquet, and the optional
//! file of every solution.
//!
//! A row is a list of [`Value`]s whose columns a list of [`Field`]s names and types. Every
//! format is a [`TableWriter`], one file each: `csv` (the `csv` crate's writer), `jsonl` (one
//! JSON object a line) and `parquet` (typed columns in row groups of bounded size, behind the
//! cargo feature `parquet`). [`Encoding`] picks the format and the compression (gzip, zstd) of
//! an output from its name or the option given. The pipeline ends every batch with
//! [`TableWriter::end_batch`] (the line formats flush there, so a crash loses at most the
//! batches in flight) and the run with [`TableWriter::finish`] (compressed streams and Parquet
//! write their trailers there).
//!
//! The `columns` module names and types the columns and makes each row's values; `encoding`
//! picks the format and the compression; `compressed` is the compressed stream under a line
//! format.

mod columns;
mod compressed;
mod csv;
mod encoding;
mod jsonl;
#[cfg(feature = "parquet")]
mod parquet;

use std::io;

pub use self::columns::{
    BAND_COLUMN, COLUMNS, FILE_COLUMN, Field, GRADE_COLUMNS, GradeText, Kind, SOLUTION_COLUMNS,
    Value, grade_columns, grade_values, names, row_values,
};
pub use self::compressed::Compressed;
pub use self::csv::CsvWriter;
pub use self::encoding::{Compression, Encoding, OutputFormat};
pub use self::jsonl::JsonlWriter;

/// A table being written: rows of [`Value`]s, one for each of its [`Field`]s.
pub trait TableWriter: Send {
    /// Writes one row.
    fn write_row(&mut self, values: &[Value]) -> io::Result<()>;

    /// Ends a batch of rows: the line formats hand every row written to the output; Parquet
    /// ends a row group once it holds enough rows.
    fn end_batch(&mut self) -> io::Result<()>;

    /// Ends the table: writes what is held, then a compressed stream's or Parquet's trailer.
    /// Nothing may be written after it.
    fn finish(&mut self) -> io::Result<()>;
}

/// Writes `values` to `writer`, after `first` when there is one (the `file` column).
pub(crate) fn write_after(
    writer: &mut dyn TableWriter,
    first: Option<Value>,
    values: &[Value],
) -> io::Result<()> {
    let Some(first) = first else {
        return writer.write_row(values);
    };
    let mut all = [Value::Empty; 16];
    if values.len() < all.len() {
        all[0] = first;
        all[1..=values.len()].copy_from_slice(values);
        writer.write_row(&all[..=values.len()])
    } else {
        let all: Vec<Value> = std::iter::once(first)
            .chain(values.iter().copied())
            .collect();
        writer.write_row(&all)
    }
}
