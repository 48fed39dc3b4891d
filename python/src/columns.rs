//! Result rows as Arrow columns: the columns of `sudoku-batch solve` (and `validate`'s extra
//! `problem`), filled from the library's [`row_values`], so that a row holds what the command
//! line writes. Numbers are `uint64`, texts `string`; a field the command line leaves empty is
//! null.
//!
//! Each worker fills a [`Columns`] for its chunk of records and makes it a record batch; the
//! table is the batches in input order, so no row is copied twice.

use std::sync::Arc;

use arrow_array::builder::{StringBuilder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_pyarrow::Table;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use sudoku_batch::grid::CELLS;
use sudoku_batch::pipeline::solve::Row;
use sudoku_batch::pipeline::write::{COLUMNS, Value, row_values};

/// The extra column of `validate`.
pub const PROBLEM: &str = "problem";

/// The schema of `solve`'s rows, and with `problem` of `validate`'s.
pub fn schema(problem: bool) -> SchemaRef {
    let mut fields: Vec<Field> = COLUMNS
        .iter()
        .map(|&name| {
            if is_number(name) {
                Field::new(name, DataType::UInt64, false)
            } else {
                Field::new(name, DataType::Utf8, true)
            }
        })
        .collect();
    if problem {
        fields.push(Field::new(PROBLEM, DataType::Utf8, true));
    }
    Arc::new(Schema::new(fields))
}

/// The columns that hold numbers; the others hold text.
fn is_number(name: &str) -> bool {
    matches!(name, "line" | "solutions" | "guesses" | "time_ns")
}

/// One column being filled.
enum Builder {
    Number(UInt64Builder),
    Text(StringBuilder),
}

/// Columns being filled, one row at a time.
pub struct Columns {
    schema: SchemaRef,
    builders: Vec<Builder>,
    /// Where `row_values` puts the text of the `error` column.
    error: String,
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
            error: String::new(),
            rows: 0,
        }
    }

    /// Appends `row`, and for `validate` its problems.
    pub fn push(&mut self, row: &Row, problem: Option<&str>) {
        self.rows += 1;
        let values = row_values(row, &mut self.error);
        let extra = problem.map(Value::Text);
        for (builder, value) in self.builders.iter_mut().zip(values.iter().chain(&extra)) {
            match (builder, value) {
                (Builder::Number(b), &Value::Number(n)) => b.append_value(n),
                (Builder::Text(b), &Value::Text(t)) if !t.is_empty() => b.append_value(t),
                (Builder::Text(b), &Value::Grid(g)) => {
                    let mut line = [0u8; CELLS];
                    g.write_line(&mut line);
                    b.append_value(std::str::from_utf8(&line).expect("a grid's line is ASCII"));
                }
                (Builder::Number(b), _) => b.append_null(),
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
