//! Result rows as Arrow columns: the columns of the command line's verbs (the library's
//! [`COLUMNS`] for `solve`, with `validate`'s extra `problem`, and [`GRADE_COLUMNS`] for
//! `grade`), filled from the library's [`row_values`] and [`grade_values`], so that a row holds
//! what the command line writes. Numbers are `uint64`, ratings `float64` (`2.3`, as Parquet
//! output has them), texts `string`; a field the command line leaves empty is null.
//!
//! Each worker fills a [`Columns`] for its chunk of records and makes it a record batch; the
//! table is the batches in input order, so no row is copied twice. Texts are filled into plain
//! buffers that become a string array whole, rather than through Arrow's `StringBuilder`,
//! which copies each value with a call to `memcpy` and wants a grid's line checked as UTF-8
//! first: a grid's 81 characters go straight into the column, and the column is not checked
//! again, as each of its texts was a `&str` or a grid. Filling a row of `solve` took ~300
//! instructions fewer so (cachegrind), 3% of the search of a 17-clue puzzle.
//!
//! [`COLUMNS`]: sudoku_batch::pipeline::write::COLUMNS
//! [`GRADE_COLUMNS`]: sudoku_batch::pipeline::write::GRADE_COLUMNS
//! [`row_values`]: sudoku_batch::pipeline::write::row_values
//! [`grade_values`]: sudoku_batch::pipeline::write::grade_values

use std::sync::Arc;

use arrow_array::builder::{Float64Builder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_array::{RecordBatchIterator, RecordBatchReader};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer};
use arrow_pyarrow::IntoPyArrow;
use arrow_schema::{DataType, Field as ArrowField, Schema, SchemaRef};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::pipeline::write::{Field, Kind, Value};

/// The extra column of `validate`.
pub const PROBLEM: Field = Field::new("problem", Kind::Text);

/// The number columns that every row fills; the others may be null: `grade`'s `steps`, and
/// `guesses` and `time_ns` of a later isomorph that `validate` did not search.
const ALWAYS_FILLED: [&str; 2] = ["line", "solutions"];

/// The schema of rows with the library's `fields`.
pub fn schema(fields: &[Field]) -> SchemaRef {
    let fields: Vec<ArrowField> = fields
        .iter()
        .map(|f| match f.kind {
            Kind::Number => {
                ArrowField::new(f.name, DataType::UInt64, !ALWAYS_FILLED.contains(&f.name))
            }
            Kind::Rating => ArrowField::new(f.name, DataType::Float64, true),
            Kind::Text | Kind::Grid | Kind::Category => {
                ArrowField::new(f.name, DataType::Utf8, true)
            }
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// One column being filled.
enum Builder {
    Number(UInt64Builder),
    Rating(Float64Builder),
    Text(Texts),
}

/// A column of texts being filled: their bytes one after another, where each ends, and which
/// are null.
struct Texts {
    bytes: Vec<u8>,
    ends: Vec<i32>,
    nulls: NullBufferBuilder,
}

impl Texts {
    fn with_capacity(rows: usize, bytes: usize) -> Texts {
        let mut ends = Vec::with_capacity(rows + 1);
        ends.push(0);
        Texts {
            bytes: Vec::with_capacity(bytes),
            ends,
            nulls: NullBufferBuilder::new(rows),
        }
    }

    fn push_str(&mut self, text: &str) {
        self.bytes.extend_from_slice(text.as_bytes());
        self.end(true);
    }

    fn push_grid(&mut self, grid: &Grid) {
        let mut line = [0u8; CELLS];
        grid.write_line(&mut line);
        self.bytes.extend_from_slice(&line);
        self.end(true);
    }

    fn push_null(&mut self) {
        self.end(false);
    }

    fn end(&mut self, valid: bool) {
        // A batch holds a few thousand rows of short texts, far from the 2 GiB an `i32` offset
        // can reach.
        let end = i32::try_from(self.bytes.len()).expect("a batch's texts are under 2 GiB");
        self.ends.push(end);
        self.nulls.append(valid);
    }

    /// The texts filled so far as an array; the column is emptied.
    fn finish(&mut self) -> StringArray {
        let bytes = std::mem::take(&mut self.bytes);
        let ends = OffsetBuffer::new(std::mem::replace(&mut self.ends, vec![0]).into());
        // SAFETY: the bytes are UTF-8 and each text ends at a character boundary: every text
        // was pushed whole, as a `&str` or as a grid's ASCII line. (Checking them again costs
        // as much as filling the column: 150 instructions a row.)
        unsafe { StringArray::new_unchecked(ends, bytes.into(), self.nulls.finish()) }
    }
}

/// Columns being filled, one row at a time.
pub struct Columns {
    schema: SchemaRef,
    builders: Vec<Builder>,
    /// Rows filled since the last batch.
    rows: usize,
}

impl Columns {
    /// Empty columns of `schema`, with room for `rows` rows.
    pub fn new(schema: SchemaRef, rows: usize) -> Columns {
        let builders = schema
            .fields()
            .iter()
            .map(|f| match (f.data_type(), f.name().as_str()) {
                (DataType::UInt64, _) => Builder::Number(UInt64Builder::with_capacity(rows)),
                (DataType::Float64, _) => Builder::Rating(Float64Builder::with_capacity(rows)),
                (_, "puzzle" | "solution") => {
                    Builder::Text(Texts::with_capacity(rows, rows * CELLS))
                }
                (_, "status") => Builder::Text(Texts::with_capacity(rows, rows * 8)),
                _ => Builder::Text(Texts::with_capacity(rows, 0)),
            })
            .collect();
        Columns {
            schema,
            builders,
            rows: 0,
        }
    }

    /// Appends one row: a value for each column, in order.
    pub fn push<'a, 'v: 'a>(&mut self, values: impl IntoIterator<Item = &'a Value<'v>>) {
        self.rows += 1;
        for (builder, value) in self.builders.iter_mut().zip(values) {
            match (builder, value) {
                (Builder::Number(b), &Value::Number(n)) => b.append_value(n),
                (Builder::Rating(b), &Value::Tenths(t)) => b.append_value(f64::from(t) / 10.0),
                (Builder::Text(b), &Value::Text(t)) if !t.is_empty() => b.push_str(t),
                (Builder::Text(b), &Value::Grid(g)) => b.push_grid(g),
                (Builder::Number(b), _) => b.append_null(),
                (Builder::Rating(b), _) => b.append_null(),
                (Builder::Text(b), _) => b.push_null(),
            }
        }
    }

    /// Rows filled since the last batch.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// The rows filled so far as a record batch; the columns are emptied.
    pub fn batch(&mut self) -> PyResult<RecordBatch> {
        self.rows = 0;
        let columns = self
            .builders
            .iter_mut()
            .map(|b| -> ArrayRef {
                match b {
                    Builder::Number(b) => Arc::new(b.finish()),
                    Builder::Rating(b) => Arc::new(b.finish()),
                    Builder::Text(b) => Arc::new(b.finish()),
                }
            })
            .collect();
        RecordBatch::try_new(self.schema.clone(), columns).map_err(arrow_error)
    }
}

/// The record batches, in order, as one `pyarrow.Table` (of `schema`, even with no batch).
/// They are handed over as one stream, which pyarrow reads whole: handing each batch over on
/// its own costs ~20 us a batch, more than the table's other handling together.
pub fn table(py: Python<'_>, batches: Vec<RecordBatch>, schema: SchemaRef) -> PyResult<Py<PyAny>> {
    let stream: Box<dyn RecordBatchReader + Send> = Box::new(RecordBatchIterator::new(
        batches.into_iter().map(Ok),
        schema,
    ));
    Ok(stream.into_pyarrow(py)?.call_method0("read_all")?.unbind())
}

fn arrow_error(e: arrow_schema::ArrowError) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}
