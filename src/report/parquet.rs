//! Parquet results files read back: the columns the report reads, in record batches, each
//! field turned into the text the CSV output writes (numbers in decimal, ratings with one
//! decimal), whatever Arrow type the file gives it (the tool writes `u64`, dictionary strings
//! and `f64`; a file saved again by pandas may hold `i64` or plain strings).

use std::fs::File;
use std::io::Write as _;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};

use super::read::{COLS, Col, Row, bad};
use crate::pipeline::RunError;

/// Rows per record batch.
const BATCH_ROWS: usize = 8192;

/// The rows of a Parquet results file.
pub(crate) struct ParquetRows {
    /// Every column of the file, in its order.
    pub(crate) columns: Vec<String>,
    batches: ParquetRecordBatchReader,
    batch: Option<RecordBatch>,
    /// The [`Col`] of each column of the batches.
    map: Vec<Col>,
    row: usize,
    rows: u64,
}

impl ParquetRows {
    pub(crate) fn open(path: &Path, name: &str) -> Result<ParquetRows, RunError> {
        let file = File::open(path).map_err(|e| bad(name, e.to_string()))?;
        let not_readable =
            |e: parquet::errors::ParquetError| bad(name, format!("not readable: {e}"));
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(not_readable)?;
        let fields = builder.schema().fields().clone();
        let columns: Vec<String> = fields.iter().map(|f| f.name().clone()).collect();
        let read: Vec<(usize, Col)> = columns
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                COLS.into_iter()
                    .find(|col| col.name() == c)
                    .map(|col| (i, col))
            })
            .collect();
        let mask = ProjectionMask::roots(builder.parquet_schema(), read.iter().map(|&(i, _)| i));
        let batches = builder
            .with_projection(mask)
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(not_readable)?;
        Ok(ParquetRows {
            columns,
            batches,
            batch: None,
            map: read.into_iter().map(|(_, col)| col).collect(),
            row: 0,
            rows: 0,
        })
    }

    pub(crate) fn next_row(&mut self, row: &mut Row, name: &str) -> Result<bool, RunError> {
        while self.batch.as_ref().is_none_or(|b| self.row >= b.num_rows()) {
            let Some(batch) = self.batches.next() else {
                return Ok(false);
            };
            self.batch = Some(batch.map_err(|e| bad(name, format!("not readable: {e}")))?);
            self.row = 0;
        }
        let Some(batch) = &self.batch else {
            return Ok(false);
        };
        self.rows += 1;
        row.at = self.rows;
        for (i, &col) in self.map.iter().enumerate() {
            let array = batch.column(i).as_ref();
            let text = &mut row.fields_mut()[col as usize];
            if !write_text(array, self.row, text) {
                return Err(bad(
                    name,
                    format!(
                        "column {:?} holds {}, not text or numbers",
                        col.name(),
                        array.data_type()
                    ),
                ));
            }
        }
        self.row += 1;
        Ok(true)
    }
}

/// Writes `array`'s value at `row` as text into `out` (nothing for a null); false for a type
/// that is neither text nor a number.
fn write_text(array: &dyn Array, row: usize, out: &mut Vec<u8>) -> bool {
    if array.is_null(row) {
        return true;
    }
    macro_rules! int {
        ($t:ty) => {{
            let _ = write!(out, "{}", array.as_primitive::<$t>().value(row));
        }};
    }
    match array.data_type() {
        DataType::Utf8 => out.extend_from_slice(array.as_string::<i32>().value(row).as_bytes()),
        DataType::LargeUtf8 => {
            out.extend_from_slice(array.as_string::<i64>().value(row).as_bytes())
        }
        DataType::Utf8View => out.extend_from_slice(array.as_string_view().value(row).as_bytes()),
        DataType::UInt64 => int!(UInt64Type),
        DataType::UInt32 => int!(UInt32Type),
        DataType::UInt16 => int!(UInt16Type),
        DataType::UInt8 => int!(UInt8Type),
        DataType::Int64 => int!(Int64Type),
        DataType::Int32 => int!(Int32Type),
        DataType::Int16 => int!(Int16Type),
        DataType::Int8 => int!(Int8Type),
        DataType::Float64 => {
            let _ = write!(out, "{:.1}", array.as_primitive::<Float64Type>().value(row));
        }
        DataType::Float32 => {
            let _ = write!(out, "{:.1}", array.as_primitive::<Float32Type>().value(row));
        }
        DataType::Dictionary(_, _) => {
            let dictionary = array.as_any_dictionary();
            let Some(key) = key_at(dictionary.keys(), row) else {
                return false;
            };
            return write_text(dictionary.values().as_ref(), key, out);
        }
        _ => return false,
    }
    true
}

/// The key at `row` of a dictionary's keys (an integer array).
fn key_at(keys: &dyn Array, row: usize) -> Option<usize> {
    macro_rules! key {
        ($t:ty) => {
            usize::try_from(keys.as_primitive::<$t>().value(row)).ok()
        };
    }
    match keys.data_type() {
        DataType::Int8 => key!(Int8Type),
        DataType::Int16 => key!(Int16Type),
        DataType::Int32 => key!(Int32Type),
        DataType::Int64 => key!(Int64Type),
        DataType::UInt8 => key!(UInt8Type),
        DataType::UInt16 => key!(UInt16Type),
        DataType::UInt32 => key!(UInt32Type),
        DataType::UInt64 => key!(UInt64Type),
        _ => None,
    }
}
