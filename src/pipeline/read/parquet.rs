//! The Parquet format: one text column of the file holds the puzzles, as in data sets
//! downloaded as Parquet. The column is found as for CSV (by `--column`, by its name, or by
//! its content in the first rows); a record's `line` is its row number, from 1.
//!
//! The file is read in record batches of the puzzle column (and the stated solutions' column,
//! when asked for) only, so memory stays flat whatever its size.

use std::fs::File;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};

use super::csv::{
    Fields, OpenError, column_by_content, describe_column, describe_expect, resolve_column,
};
use super::{
    Expected, PUZZLE_COLUMN_NAMES, ReadError, ReadOptions, Record, RecordSource,
    SOLUTION_COLUMN_NAMES, invalid, puzzle,
};
use crate::grid::Grid;

/// Rows per record batch read.
const BATCH_ROWS: usize = 4096;

/// The rows looked at to find a column by its content.
const SNIFF_ROWS: usize = 16;

/// The records of a Parquet file.
pub(super) struct ParquetRecords {
    batches: ParquetRecordBatchReader,
    batch: Option<RecordBatch>,
    /// The next row of `batch`.
    row: usize,
    /// The puzzle column and the stated solutions' column in the batches read.
    puzzle_at: usize,
    expect_at: Option<usize>,
    /// Rows given out so far.
    rows: u64,
    column_used: String,
    /// Progress: the file's size spread over its rows.
    bytes_read: Arc<AtomicU64>,
    size: u64,
    total_rows: u64,
}

/// `array`'s value at `row` as bytes, when it is a text or binary column and not null.
fn bytes_at(array: &dyn Array, row: usize) -> Option<&[u8]> {
    if array.is_null(row) {
        return None;
    }
    Some(match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().value(row).as_bytes(),
        DataType::LargeUtf8 => array.as_string::<i64>().value(row).as_bytes(),
        DataType::Utf8View => array.as_string_view().value(row).as_bytes(),
        DataType::Binary => array.as_binary::<i32>().value(row),
        DataType::LargeBinary => array.as_binary::<i64>().value(row),
        DataType::BinaryView => array.as_binary_view().value(row),
        _ => return None,
    })
}

/// What a column of `data_type` holds, in words (not Arrow's type names).
fn kind_words(data_type: &DataType) -> String {
    match data_type {
        DataType::List(item)
        | DataType::LargeList(item)
        | DataType::ListView(item)
        | DataType::LargeListView(item)
        | DataType::FixedSizeList(item, _) => {
            format!("lists of {}", kind_words(item.data_type()))
        }
        t if t.is_integer() => "whole numbers".into(),
        t if t.is_numeric() => "numbers".into(),
        DataType::Boolean => "true/false values".into(),
        DataType::Null => "only nulls".into(),
        DataType::Struct(_) => "records of several fields".into(),
        DataType::Map(..) => "maps".into(),
        DataType::Dictionary(_, values) => kind_words(values),
        t if t.is_temporal() => "dates or times".into(),
        _ => "values of another kind".into(),
    }
}

/// True for the column types that can hold puzzles.
fn is_text(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
    )
}

/// One row of a record batch, for the column finder.
struct BatchRow<'a> {
    batch: &'a RecordBatch,
    row: usize,
}

impl Fields for BatchRow<'_> {
    fn field(&self, i: usize) -> Option<&[u8]> {
        bytes_at(self.batch.column(i).as_ref(), self.row)
    }

    fn count(&self) -> usize {
        self.batch.num_columns()
    }
}

impl ParquetRecords {
    /// Opens the Parquet file `file`, named `name` in messages.
    pub(super) fn open(
        name: &str,
        file: File,
        options: &ReadOptions,
        bytes_read: Arc<AtomicU64>,
    ) -> Result<ParquetRecords, ReadError> {
        let usage = |message: String| ReadError::Usage {
            path: name.to_string(),
            message,
        };
        let io_err = |source: io::Error| ReadError::Io {
            path: name.to_string(),
            source,
        };
        let parquet_err = |e: parquet::errors::ParquetError| usage(format!("not readable: {e}"));
        let size = file.metadata().map_err(io_err)?.len();
        let metadata = ArrowReaderMetadata::load(&file, Default::default()).map_err(parquet_err)?;
        let fields = metadata.schema().fields().clone();
        let names: Vec<String> = fields.iter().map(|f| f.name().to_lowercase()).collect();
        let total_rows = metadata.metadata().file_metadata().num_rows().max(0) as u64;
        // The first rows of every text column, for the columns chosen by their content.
        let by_content = matches!(options.column, super::Column::Auto)
            || matches!(options.expect_column, Some(super::Column::Auto));
        let first = if by_content {
            let text: Vec<usize> = (0..fields.len())
                .filter(|&i| is_text(fields[i].data_type()))
                .collect();
            let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(
                file.try_clone().map_err(io_err)?,
                metadata.clone(),
            );
            let mask = ProjectionMask::roots(builder.parquet_schema(), text.iter().copied());
            let mut sniff = builder
                .with_projection(mask)
                .with_batch_size(SNIFF_ROWS)
                .with_limit(SNIFF_ROWS)
                .build()
                .map_err(parquet_err)?;
            let batch = sniff.next().transpose().map_err(|e| usage(e.to_string()))?;
            batch.map(|b| (text, b))
        } else {
            None
        };
        let found = |full: bool, not: Option<usize>| -> Option<usize> {
            let (text, batch) = first.as_ref()?;
            let rows: Vec<BatchRow> = (0..batch.num_rows())
                .map(|row| BatchRow { batch, row })
                .collect();
            let not = not.and_then(|n| text.iter().position(|&t| t == n));
            let at = column_by_content(rows.iter().map(|r| r as &dyn Fields), full, not)?;
            Some(text[at])
        };
        let resolve = |column, auto_names: &[&str]| {
            resolve_column(column, auto_names, &names, true).map_err(|e| match e {
                OpenError::Usage(m) => usage(m),
                OpenError::Io(e) => io_err(e),
            })
        };
        let (column, how) = match resolve(&options.column, &PUZZLE_COLUMN_NAMES)? {
            Some(c) => c,
            None => match found(false, None).or_else(|| found(true, None)) {
                Some(i) => (i, "found by its content"),
                None => {
                    return Err(usage(
                        "no column holds puzzles in the first rows; name it with --column".into(),
                    ));
                }
            },
        };
        let expect = match &options.expect_column {
            None => None,
            Some(c) => Some(match resolve(c, &SOLUTION_COLUMN_NAMES)? {
                Some(found) => found,
                None => found(true, Some(column))
                    .map(|i| (i, "found by its content"))
                    .ok_or_else(|| {
                        usage(
                            "no column named solution or solutions and none holding solved \
                             grids in the first rows; name the stated solutions' column"
                                .into(),
                        )
                    })?,
            }),
        };
        let expect_used = describe_expect(expect.map(|(i, how)| {
            let name = fields.get(i).map(|f| f.name());
            (i, name, how)
        }));
        let expect = expect.map(|(i, _)| i);
        for i in [Some(column), expect].into_iter().flatten() {
            let Some(field) = fields.get(i) else {
                return Err(usage(format!(
                    "no column {i} (the file has {}, numbered from 0)",
                    crate::words::count(fields.len() as u64, "column", "columns")
                )));
            };
            if !is_text(field.data_type()) {
                return Err(usage(format!(
                    "column {i} (\"{}\") holds {}, not text: name the column of puzzles \
                     with --column",
                    field.name(),
                    kind_words(field.data_type())
                )));
            }
        }
        let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(file, metadata);
        let mut projected: Vec<usize> = [Some(column), expect].into_iter().flatten().collect();
        projected.sort_unstable();
        projected.dedup();
        let mask = ProjectionMask::roots(builder.parquet_schema(), projected.iter().copied());
        let batches = builder
            .with_projection(mask)
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(parquet_err)?;
        let at = |i: usize| projected.iter().position(|&p| p == i).unwrap_or(0);
        Ok(ParquetRecords {
            batches,
            batch: None,
            row: 0,
            puzzle_at: at(column),
            expect_at: expect.map(at),
            rows: 0,
            column_used: describe_column(column, Some(fields[column].name()), how) + &expect_used,
            bytes_read,
            size,
            total_rows,
        })
    }
}

impl RecordSource for ParquetRecords {
    fn column_used(&self) -> Option<String> {
        Some(self.column_used.clone())
    }

    fn next_record(&mut self) -> io::Result<Option<Record>> {
        while self.batch.as_ref().is_none_or(|b| self.row >= b.num_rows()) {
            let Some(batch) = self.batches.next() else {
                return Ok(None);
            };
            let batch = batch.map_err(io::Error::other)?;
            let share = (self.size * batch.num_rows() as u64).checked_div(self.total_rows);
            self.bytes_read
                .fetch_add(share.unwrap_or(0), Ordering::Relaxed);
            self.batch = Some(batch);
            self.row = 0;
        }
        let Some(batch) = &self.batch else {
            return Ok(None);
        };
        self.rows += 1;
        let line = self.rows;
        let field = bytes_at(batch.column(self.puzzle_at).as_ref(), self.row);
        let mut record = match field {
            None => invalid(line, b"", "the puzzle field is empty (null)"),
            Some(bytes) => match Grid::parse_bytes(bytes.trim_ascii()) {
                Ok(g) => puzzle(line, g),
                Err(e) => invalid(line, bytes, e),
            },
        };
        if let Some(i) = self.expect_at {
            let stated = bytes_at(batch.column(i).as_ref(), self.row);
            record.expected = Some(Box::new(Expected::parse(stated)));
        }
        self.row += 1;
        Ok(Some(record))
    }
}
