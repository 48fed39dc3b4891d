//! Result rows as Arrow columns: the columns of the command line's verbs (the library's
//! [`COLUMNS`] for `solve`, with `validate`'s extra `problem`, and [`GRADE_COLUMNS`] for
//! `grade`), filled from the library's [`row_values`] and [`grade_values`], so that a row holds
//! what the command line writes. Numbers are `uint64`, ratings `float64` (`2.3`, as Parquet
//! output has them), texts `string`; a field the command line leaves empty is null.
//!
//! Each worker fills a [`Columns`] for its chunk of records and makes it a record batch; the
//! table is the batches in input order, so no row is copied twice.
//!
//! [`COLUMNS`]: sudoku_batch::pipeline::write::COLUMNS
//! [`GRADE_COLUMNS`]: sudoku_batch::pipeline::write::GRADE_COLUMNS
//! [`row_values`]: sudoku_batch::pipeline::write::row_values
//! [`grade_values`]: sudoku_batch::pipeline::write::grade_values

use std::sync::Arc;

use arrow_array::builder::{Float64Builder, StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_pyarrow::Table;
use arrow_schema::{DataType, Field as ArrowField, Schema, SchemaRef};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use sudoku_batch::grid::CELLS;
use sudoku_batch::pipeline::write::{Field, Kind, Value};

/// The extra column of `validate`.
pub const PROBLEM: Field = Field::new("problem", Kind::Text);

/// The number columns that every row fills; the others (`grade`'s `steps`) may be null.
const ALWAYS_FILLED: [&str; 4] = ["line", "solutions", "guesses", "time_ns"];

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
    Text(StringBuilder),
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
                    Builder::Text(StringBuilder::with_capacity(rows, rows * CELLS))
                }
                (_, "status") => Builder::Text(StringBuilder::with_capacity(rows, rows * 8)),
                _ => Builder::Text(StringBuilder::with_capacity(rows, 0)),
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
                (Builder::Text(b), &Value::Text(t)) if !t.is_empty() => b.append_value(t),
                (Builder::Text(b), &Value::Grid(g)) => {
                    let mut line = [0u8; CELLS];
                    g.write_line(&mut line);
                    b.append_value(std::str::from_utf8(&line).expect("a grid's line is ASCII"));
                }
                (Builder::Number(b), _) => b.append_null(),
                (Builder::Rating(b), _) => b.append_null(),
                (Builder::Text(b), _) => b.append_null(),
            }
        }
    }

    /// Rows filled since the last batch.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// The columns filled so far, emptied.
    fn finish(&mut self) -> Vec<ArrayRef> {
        self.rows = 0;
        self.builders
            .iter_mut()
            .map(|b| -> ArrayRef {
                match b {
                    Builder::Number(b) => Arc::new(b.finish()),
                    Builder::Rating(b) => Arc::new(b.finish()),
                    Builder::Text(b) => Arc::new(b.finish()),
                }
            })
            .collect()
    }

    /// The rows filled so far as a record batch; the columns are emptied.
    pub fn batch(&mut self) -> PyResult<RecordBatch> {
        let columns = self.finish();
        RecordBatch::try_new(self.schema.clone(), columns).map_err(arrow_error)
    }
}

/// The record batches, in order, as one table (of `schema`, even with no batch).
pub fn table(batches: Vec<RecordBatch>, schema: SchemaRef) -> PyResult<Table> {
    Table::try_new(batches, schema).map_err(arrow_error)
}

fn arrow_error(e: arrow_schema::ArrowError) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}
