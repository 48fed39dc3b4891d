//! Parquet output: typed columns (`u64` numbers, strings, dictionary-encoded categories such
//! as the status), snappy-compressed, readable by pandas, Polars, DuckDB and any Arrow reader.
//!
//! Rows are gathered in Arrow builders and handed to the Parquet writer every [`CHUNK_ROWS`]
//! rows, at the end of a batch: it encodes and compresses them then, on the writer's thread
//! while the workers solve the next batches, rather than all at the end of the run. It closes
//! a row group every [`GROUP_ROWS`] rows, so that memory stays flat however many rows the run
//! writes. The file is only readable once [`TableWriter::finish`] has written its footer, which
//! is why a Parquet output cannot be resumed.

use std::io::{self, Write};
use std::sync::Arc;

use arrow_array::builder::{Float64Builder, StringBuilder, StringDictionaryBuilder, UInt64Builder};
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use super::{Field, Kind, TableWriter, Value};
use crate::grid::CELLS;
use crate::pipeline::grade::tenths;

/// Rows per row group: enough for compression and fast scans, few enough that the encoded
/// pages held until the group is written stay a few megabytes.
const GROUP_ROWS: usize = 64 * 1024;

/// Rows gathered before they are encoded: small enough that encoding keeps pace with the rows
/// as they come, large enough that each hand-over costs little next to its rows.
const CHUNK_ROWS: usize = 4096;

/// One column being gathered.
enum Builder {
    Number(UInt64Builder),
    Rating(Float64Builder),
    Text(StringBuilder),
    Category(StringDictionaryBuilder<Int32Type>),
}

/// Writes rows of [`Value`]s as a Parquet file.
pub(super) struct ParquetWriter {
    /// `None` once finished.
    writer: Option<ArrowWriter<Box<dyn Write + Send>>>,
    schema: SchemaRef,
    columns: Vec<Builder>,
    rows: usize,
}

fn parquet_error(e: parquet::errors::ParquetError) -> io::Error {
    match e {
        parquet::errors::ParquetError::External(e) => match e.downcast::<io::Error>() {
            Ok(e) => *e,
            Err(e) => io::Error::other(e),
        },
        e => io::Error::other(e),
    }
}

impl ParquetWriter {
    pub(super) fn new(out: impl Write + Send + 'static, fields: &[Field]) -> io::Result<Self> {
        let schema = Arc::new(Schema::new(
            fields
                .iter()
                .map(|f| {
                    let data_type = match f.kind {
                        Kind::Number => DataType::UInt64,
                        Kind::Rating => DataType::Float64,
                        Kind::Text | Kind::Grid => DataType::Utf8,
                        Kind::Category => DataType::Dictionary(
                            Box::new(DataType::Int32),
                            Box::new(DataType::Utf8),
                        ),
                    };
                    arrow_schema::Field::new(f.name, data_type, true)
                })
                .collect::<Vec<_>>(),
        ));
        // Dictionaries only where values repeat: elsewhere (grids, times) they are built and
        // thrown away.
        let mut props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_dictionary_enabled(false)
            .set_max_row_group_row_count(Some(GROUP_ROWS));
        for f in fields.iter().filter(|f| f.kind == Kind::Category) {
            props = props.set_column_dictionary_enabled(ColumnPath::from(f.name), true);
        }
        let boxed: Box<dyn Write + Send> = Box::new(out);
        let writer = ArrowWriter::try_new(boxed, schema.clone(), Some(props.build()))
            .map_err(parquet_error)?;
        let mut w = ParquetWriter {
            writer: Some(writer),
            schema,
            columns: Vec::new(),
            rows: 0,
        };
        w.columns = w.new_builders();
        Ok(w)
    }

    fn new_builders(&self) -> Vec<Builder> {
        self.schema
            .fields()
            .iter()
            .map(|f| match f.data_type() {
                DataType::UInt64 => Builder::Number(UInt64Builder::with_capacity(CHUNK_ROWS)),
                DataType::Float64 => Builder::Rating(Float64Builder::with_capacity(CHUNK_ROWS)),
                DataType::Dictionary(..) => Builder::Category(StringDictionaryBuilder::new()),
                _ => Builder::Text(StringBuilder::with_capacity(CHUNK_ROWS, CHUNK_ROWS * CELLS)),
            })
            .collect()
    }

    /// Hands the rows gathered to the Parquet writer, which encodes them into the current row
    /// group and writes the group out once it holds [`GROUP_ROWS`] rows.
    fn write_chunk(&mut self) -> io::Result<()> {
        if self.writer.is_none() {
            return Ok(());
        }
        // Fresh builders of a chunk's size: a finished builder starts again from nothing and
        // would grow by copying.
        let fresh = self.new_builders();
        let columns = std::mem::replace(&mut self.columns, fresh);
        let arrays: Vec<ArrayRef> = columns
            .into_iter()
            .map(|b| -> ArrayRef {
                match b {
                    Builder::Number(mut b) => Arc::new(b.finish()),
                    Builder::Rating(mut b) => Arc::new(b.finish()),
                    Builder::Text(mut b) => Arc::new(b.finish()),
                    Builder::Category(mut b) => Arc::new(b.finish()),
                }
            })
            .collect();
        let batch = RecordBatch::try_new(self.schema.clone(), arrays).map_err(io::Error::other)?;
        if let Some(writer) = &mut self.writer {
            writer.write(&batch).map_err(parquet_error)?;
        }
        self.rows = 0;
        Ok(())
    }
}

impl TableWriter for ParquetWriter {
    fn write_row(&mut self, values: &[Value]) -> io::Result<()> {
        let mut line = [0u8; CELLS];
        let mut number = itoa::Buffer::new();
        let mut rating;
        for (i, builder) in self.columns.iter_mut().enumerate() {
            let value = values.get(i).copied().unwrap_or(Value::Empty);
            // The value as text, for the text columns.
            let text: Option<&str> = match value {
                Value::Empty | Value::Text("") => None,
                Value::Text(t) => Some(t),
                Value::Number(n) => Some(number.format(n)),
                Value::Grid(g) => {
                    g.write_line(&mut line);
                    std::str::from_utf8(&line).ok()
                }
                Value::Tenths(t) => {
                    rating = tenths(t);
                    Some(&rating)
                }
            };
            match builder {
                Builder::Number(b) => match value {
                    Value::Number(n) => b.append_value(n),
                    _ => b.append_option(text.and_then(|t| t.parse().ok())),
                },
                Builder::Rating(b) => match value {
                    Value::Tenths(t) => b.append_value(f64::from(t) / 10.0),
                    _ => b.append_option(text.and_then(|t| t.parse().ok())),
                },
                Builder::Text(b) => b.append_option(text),
                Builder::Category(b) => match text {
                    Some(t) => {
                        b.append(t).map_err(io::Error::other)?;
                    }
                    None => b.append_null(),
                },
            }
        }
        self.rows += 1;
        Ok(())
    }

    fn end_batch(&mut self) -> io::Result<()> {
        if self.rows >= CHUNK_ROWS {
            self.write_chunk()?;
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        if self.rows > 0 {
            self.write_chunk()?;
        }
        if let Some(mut writer) = self.writer.take() {
            writer.finish().map_err(parquet_error)?;
            writer.inner_mut().flush()?;
        }
        Ok(())
    }
}
