//! Reading the results files of `solve`, `validate` and `grade` back, row by row, in any of
//! their formats: CSV (split by the pipeline's CSV splitter, each row held up to its cap), JSON
//! lines, or Parquet (in record batches); CSV and JSON lines also gzip-, xz- or
//! zstd-compressed, told by their first bytes as the pipeline's inputs are. Each row's fields
//! are the text the CSV output would hold, in a buffer reused from row to row, so memory stays
//! flat whatever the file's length.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use crate::pipeline::RunError;
use crate::pipeline::read::compressed::{self, Kind};
use crate::pipeline::read::csv::{CsvRow, CsvSplitter};

/// The columns the report reads; the others (`solution`, `techniques`) are skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Col {
    File,
    Line,
    Puzzle,
    Status,
    Solutions,
    Guesses,
    TimeNs,
    Error,
    Problem,
    Er,
    Ep,
    Ed,
    Hardest,
    Steps,
    Band,
}

/// Every [`Col`], in order.
pub(crate) const COLS: [Col; 15] = [
    Col::File,
    Col::Line,
    Col::Puzzle,
    Col::Status,
    Col::Solutions,
    Col::Guesses,
    Col::TimeNs,
    Col::Error,
    Col::Problem,
    Col::Er,
    Col::Ep,
    Col::Ed,
    Col::Hardest,
    Col::Steps,
    Col::Band,
];

impl Col {
    /// The column's name in the outputs.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Col::File => "file",
            Col::Line => "line",
            Col::Puzzle => "puzzle",
            Col::Status => "status",
            Col::Solutions => "solutions",
            Col::Guesses => "guesses",
            Col::TimeNs => "time_ns",
            Col::Error => "error",
            Col::Problem => "problem",
            Col::Er => "er",
            Col::Ep => "ep",
            Col::Ed => "ed",
            Col::Hardest => "hardest",
            Col::Steps => "steps",
            Col::Band => "band",
        }
    }

    fn of(name: &str) -> Option<Col> {
        COLS.into_iter().find(|c| c.name() == name)
    }
}

/// One row as read: the text of each column the report reads, as the CSV output writes it
/// (empty when the file has no such column or the field is empty or null).
#[derive(Debug, Default)]
pub(crate) struct Row {
    fields: [Vec<u8>; COLS.len()],
    /// Where the row is in the results file: its line (CSV, JSON lines) or row number
    /// (Parquet), for messages.
    pub(crate) at: u64,
}

impl Row {
    /// The text of column `col`.
    pub(crate) fn get(&self, col: Col) -> &[u8] {
        &self.fields[col as usize]
    }

    /// Every column's text, to be filled (by the Parquet reader).
    #[cfg(feature = "parquet")]
    pub(crate) fn fields_mut(&mut self) -> &mut [Vec<u8>; COLS.len()] {
        &mut self.fields
    }

    fn clear(&mut self) {
        self.fields.iter_mut().for_each(Vec::clear);
    }

    fn set(&mut self, col: Col, text: &[u8]) {
        self.fields[col as usize].extend_from_slice(text);
    }
}

/// A JSON line's object, with its line number.
type JsonRow = (u64, serde_json::Map<String, serde_json::Value>);

/// The longest JSON line read (a row of `solve` is about 300 bytes; an invalid record's text
/// is cut to 256).
const MAX_JSON_LINE: u64 = 1024 * 1024;

/// A results file open for reading.
pub(crate) struct Results {
    /// The columns the file has, in its order.
    pub(crate) columns: Vec<String>,
    rows: Rows,
    name: String,
}

enum Rows {
    Csv {
        splitter: Box<CsvSplitter<Box<dyn BufRead + Send>>>,
        row: CsvRow,
        /// Each field's [`Col`], `None` for those not read.
        map: Vec<Option<Col>>,
    },
    Jsonl {
        input: Box<dyn BufRead + Send>,
        line: Vec<u8>,
        lines: u64,
        /// The first object, read to learn the columns and not yet given out.
        first: Option<JsonRow>,
    },
    #[cfg(feature = "parquet")]
    Parquet(super::parquet::ParquetRows),
}

/// An error in the results file `name`.
pub(crate) fn bad(name: &str, message: impl Into<String>) -> RunError {
    RunError::Usage {
        path: name.to_string(),
        message: message.into(),
    }
}

fn io_err(name: &str) -> impl Fn(io::Error) -> RunError + '_ {
    move |source| {
        RunError::Read(crate::pipeline::read::ReadError::Io {
            path: name.to_string(),
            source,
        })
    }
}

impl Results {
    /// Opens the results file at `path`: Parquet, JSON lines (its first byte `{`) or CSV,
    /// decompressed first when compressed.
    pub(crate) fn open(path: &Path) -> Result<Results, RunError> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(io_err(&name))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(bad(&name, "is a directory, not a results file"));
        }
        let mut raw: Box<dyn BufRead + Send> = Box::new(BufReader::with_capacity(64 * 1024, file));
        let head = raw.fill_buf().map_err(io_err(&name))?;
        let kind = Kind::of(&head[..head.len().min(compressed::SNIFF_BYTES)]);
        if kind == Kind::Parquet {
            return Self::open_parquet(path, name);
        }
        if let Some(why) = compressed::refusal(kind) {
            return Err(bad(&name, why));
        }
        let mut input = compressed::decompress(kind, raw).map_err(io_err(&name))?;
        let first = input
            .fill_buf()
            .map_err(io_err(&name))?
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .copied();
        if first == Some(b'{') {
            return Self::open_jsonl(input, name);
        }
        let mut splitter = CsvSplitter::new(input);
        let mut row = CsvRow::default();
        if !splitter.next_row(&mut row).map_err(io_err(&name))? {
            return Err(bad(&name, "is empty: no header, no rows"));
        }
        let columns: Vec<String> = row
            .iter()
            .map(|f| String::from_utf8_lossy(f).trim().to_string())
            .collect();
        let map = columns.iter().map(|c| Col::of(c)).collect();
        Ok(Results {
            columns,
            rows: Rows::Csv {
                splitter: Box::new(splitter),
                row,
                map,
            },
            name,
        })
    }

    fn open_jsonl(input: Box<dyn BufRead + Send>, name: String) -> Result<Results, RunError> {
        let mut rows = Rows::Jsonl {
            input,
            line: Vec::new(),
            lines: 0,
            first: None,
        };
        let Some((at, object)) = rows.next_json(&name)? else {
            return Err(bad(&name, "is empty: no rows"));
        };
        let columns = object.keys().cloned().collect();
        if let Rows::Jsonl { first, .. } = &mut rows {
            *first = Some((at, object));
        }
        Ok(Results {
            columns,
            rows,
            name,
        })
    }

    #[cfg(feature = "parquet")]
    fn open_parquet(path: &Path, name: String) -> Result<Results, RunError> {
        let rows = super::parquet::ParquetRows::open(path, &name)?;
        Ok(Results {
            columns: rows.columns.clone(),
            rows: Rows::Parquet(rows),
            name,
        })
    }

    #[cfg(not(feature = "parquet"))]
    fn open_parquet(_: &Path, name: String) -> Result<Results, RunError> {
        Err(bad(
            &name,
            "is a Parquet file: this build has no Parquet support (the cargo feature `parquet`)",
        ))
    }

    /// Whether the file has column `col`.
    pub(crate) fn has(&self, col: Col) -> bool {
        self.columns.iter().any(|c| c == col.name())
    }

    /// Reads the next row into `row`; false at the end of the file.
    pub(crate) fn next_row(&mut self, row: &mut Row) -> Result<bool, RunError> {
        row.clear();
        let name = &self.name;
        match &mut self.rows {
            Rows::Csv {
                splitter,
                row: csv,
                map,
            } => {
                if !splitter.next_row(csv).map_err(io_err(name))? {
                    return Ok(false);
                }
                row.at = csv.line;
                if csv.too_long() {
                    return Err(bad(
                        name,
                        format!(
                            "line {}: a row of {} bytes, longer than any that solve, validate \
                             or grade writes",
                            csv.line, csv.total
                        ),
                    ));
                }
                if csv.len() != map.len() {
                    return Err(bad(
                        name,
                        format!(
                            "line {}: {} fields, but the header has {} (a damaged row?)",
                            csv.line,
                            csv.len(),
                            map.len()
                        ),
                    ));
                }
                for (field, col) in csv.iter().zip(map.iter()) {
                    if let Some(col) = col {
                        row.set(*col, field);
                    }
                }
                Ok(true)
            }
            Rows::Jsonl { .. } => {
                let Some((at, object)) = self.rows.next_json(name)? else {
                    return Ok(false);
                };
                row.at = at;
                for (key, value) in &object {
                    let Some(col) = Col::of(key) else { continue };
                    let text = &mut row.fields[col as usize];
                    match value {
                        serde_json::Value::Null => {}
                        serde_json::Value::String(s) => text.extend_from_slice(s.as_bytes()),
                        other => text.extend_from_slice(other.to_string().as_bytes()),
                    }
                }
                Ok(true)
            }
            #[cfg(feature = "parquet")]
            Rows::Parquet(rows) => rows.next_row(row, name),
        }
    }
}

impl Rows {
    /// The next JSON object, with its line; `None` at the end of the input.
    fn next_json(&mut self, name: &str) -> Result<Option<JsonRow>, RunError> {
        let Rows::Jsonl {
            input,
            line,
            lines,
            first,
        } = self
        else {
            return Ok(None);
        };
        if let Some(first) = first.take() {
            return Ok(Some(first));
        }
        loop {
            line.clear();
            let n = input
                .by_ref()
                .take(MAX_JSON_LINE)
                .read_until(b'\n', line)
                .map_err(io_err(name))?;
            if n == 0 {
                return Ok(None);
            }
            *lines += 1;
            if n as u64 == MAX_JSON_LINE && !line.ends_with(b"\n") {
                return Err(bad(
                    name,
                    format!("line {lines}: longer than {MAX_JSON_LINE} bytes"),
                ));
            }
            if line.trim_ascii().is_empty() {
                continue;
            }
            let object: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(line)
                .map_err(|e| {
                bad(
                    name,
                    format!("line {lines}: not a JSON object of a row: {e}"),
                )
            })?;
            return Ok(Some((*lines, object)));
        }
    }
}
