//! JSON lines output: one object per row, the columns as keys in order, numbers as numbers,
//! grids and text as strings, empty fields as `null`, so that every object has every key.

use std::io::{self, BufWriter, Write};

use super::{Compressed, Field, TableWriter, Value};
use crate::grid::CELLS;
use crate::pipeline::grade::tenths;

/// Writes rows of [`Value`]s as JSON lines.
pub struct JsonlWriter<W: Write> {
    out: BufWriter<W>,
    /// Each column's key as written, `"name":`, with the comma before it after the first.
    keys: Vec<Vec<u8>>,
}

impl<W: Write> std::fmt::Debug for JsonlWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonlWriter").finish_non_exhaustive()
    }
}

impl<W: Write> JsonlWriter<W> {
    /// A writer of rows with `fields`; nothing is written before the first row.
    pub fn new(out: W, fields: &[Field]) -> Self {
        let keys = fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let mut key = if i == 0 { b"{".to_vec() } else { b",".to_vec() };
                // Column names are plain words, but escape them as any string would be.
                serde_json::to_writer(&mut key, f.name).expect("a string serializes");
                key.push(b':');
                key
            })
            .collect();
        JsonlWriter {
            out: BufWriter::with_capacity(64 * 1024, out),
            keys,
        }
    }

    /// Writes one row: one object on one line.
    pub fn write_row(&mut self, values: &[Value]) -> io::Result<()> {
        for (key, value) in self.keys.iter().zip(values) {
            self.out.write_all(key)?;
            match value {
                Value::Empty | Value::Text("") => self.out.write_all(b"null")?,
                Value::Number(n) => self
                    .out
                    .write_all(itoa::Buffer::new().format(*n).as_bytes())?,
                Value::Text(t) => {
                    serde_json::to_writer(&mut self.out, t).map_err(io::Error::from)?
                }
                Value::Grid(g) => {
                    let mut line = [0u8; CELLS];
                    g.write_line(&mut line);
                    self.out.write_all(b"\"")?;
                    self.out.write_all(&line)?;
                    self.out.write_all(b"\"")?;
                }
                Value::Tenths(t) => self.out.write_all(tenths(*t).as_bytes())?,
            }
        }
        self.out.write_all(b"}\n")
    }

    /// Hands every row written to the output and flushes it.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl TableWriter for JsonlWriter<Compressed> {
    fn write_row(&mut self, values: &[Value]) -> io::Result<()> {
        JsonlWriter::write_row(self, values)
    }

    fn end_batch(&mut self) -> io::Result<()> {
        self.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.flush()?;
        self.out.get_mut().finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::pipeline::write::Kind;

    #[test]
    fn numbers_are_numbers_and_empty_fields_null() {
        let fields = [
            Field::new("line", Kind::Number),
            Field::new("puzzle", Kind::Grid),
            Field::new("solution", Kind::Grid),
            Field::new("error", Kind::Text),
        ];
        let grid = Grid::EMPTY;
        let mut out = Vec::new();
        let mut w = JsonlWriter::new(&mut out, &fields);
        w.write_row(&[
            Value::Number(7),
            Value::Text("a\"b\n"),
            Value::Empty,
            Value::Text(""),
        ])
        .unwrap();
        w.write_row(&[
            Value::Number(8),
            Value::Grid(&grid),
            Value::Empty,
            Value::Text("x"),
        ])
        .unwrap();
        w.flush().unwrap();
        drop(w);
        let text = String::from_utf8(out).unwrap();
        let dots = ".".repeat(81);
        assert_eq!(
            text,
            format!(
                "{{\"line\":7,\"puzzle\":\"a\\\"b\\n\",\"solution\":null,\"error\":null}}\n\
                 {{\"line\":8,\"puzzle\":\"{dots}\",\"solution\":null,\"error\":\"x\"}}\n"
            )
        );
        for line in text.lines() {
            serde_json::from_str::<serde_json::Value>(line).unwrap();
        }
    }
}
