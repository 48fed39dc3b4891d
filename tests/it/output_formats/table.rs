//! Outputs read back by their content (magic bytes, then the first character), not by their
//! name: CSV, JSON lines and Parquet, compressed or not, as one [`Table`] of text fields.

use std::io::Read;
use std::path::Path;

/// The columns that hold whole numbers: JSON numbers and Parquet `UInt64`.
const NUMBERS: [&str; 5] = ["line", "solutions", "guesses", "time_ns", "index"];

/// The columns with few distinct values: dictionary-encoded in Parquet.
#[cfg(feature = "parquet")]
const CATEGORIES: [&str; 2] = ["status", "file"];

/// An output read back: its format, its column names, and its rows as text fields (numbers
/// written out, null as an empty field).
#[derive(Debug, PartialEq)]
pub(super) struct Table {
    /// `csv`, `jsonl` or `parquet`, then `.gz` or `.zst` when compressed as a whole.
    pub format: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The table without the column `name` (`time_ns`, which differs from run to run).
    pub(super) fn without(mut self, name: &str) -> Table {
        if let Some(i) = self.header.iter().position(|h| h == name) {
            self.header.remove(i);
            for row in &mut self.rows {
                row.remove(i);
            }
        }
        self
    }

    /// The values of the column `name`.
    pub(super) fn column(&self, name: &str) -> Vec<&str> {
        let i = self.header.iter().position(|h| h == name).unwrap();
        self.rows.iter().map(|r| r[i].as_str()).collect()
    }
}

/// Reads the output at `path` back, checking on the way that JSON lines keep their columns in
/// order and numbers as numbers, and that Parquet columns have their types.
pub(super) fn table(path: &Path) -> Table {
    let bytes = std::fs::read(path).unwrap();
    if bytes.starts_with(b"PAR1") {
        return parquet_table(path);
    }
    let (bytes, suffix) = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut text = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_end(&mut text)
            .unwrap();
        (text, ".gz")
    } else if bytes.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        (zstd::decode_all(&bytes[..]).unwrap(), ".zst")
    } else {
        (bytes, "")
    };
    let mut table = if bytes.starts_with(b"{") || bytes.is_empty() {
        jsonl_table(&bytes)
    } else {
        csv_table(&bytes)
    };
    table.format.push_str(suffix);
    table
}

fn csv_table(bytes: &[u8]) -> Table {
    let mut reader = csv::Reader::from_reader(bytes);
    let header = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    Table {
        format: "csv".into(),
        header,
        rows,
    }
}

fn jsonl_table(bytes: &[u8]) -> Table {
    let mut header: Option<Vec<String>> = None;
    let mut rows = Vec::new();
    for line in std::str::from_utf8(bytes).unwrap().lines() {
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(line).unwrap();
        // serde_json's map sorts its keys: their order is read from the line itself.
        let mut keys: Vec<String> = object.keys().cloned().collect();
        keys.sort_by_key(|k| line.find(&format!("\"{k}\":")));
        assert_eq!(header.get_or_insert_with(|| keys.clone()), &keys, "{line}");
        let row = keys
            .iter()
            .map(|k| match &object[k] {
                serde_json::Value::Null => String::new(),
                serde_json::Value::Number(n) => {
                    assert!(NUMBERS.contains(&k.as_str()) && n.is_u64(), "{k}: {line}");
                    n.to_string()
                }
                serde_json::Value::String(s) => {
                    assert!(!NUMBERS.contains(&k.as_str()), "{k} a string: {line}");
                    s.clone()
                }
                other => panic!("{k}: {other:?} in {line}"),
            })
            .collect();
        rows.push(row);
    }
    Table {
        format: "jsonl".into(),
        header: header.unwrap_or_default(),
        rows,
    }
}

#[cfg(feature = "parquet")]
fn parquet_table(path: &Path) -> Table {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, UInt64Type};
    use arrow_schema::DataType;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    let file = std::fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let schema = reader.schema().clone();
    let header: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
    for field in schema.fields() {
        let name = field.name().as_str();
        let want = if NUMBERS.contains(&name) {
            DataType::UInt64
        } else if CATEGORIES.contains(&name) {
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
        } else {
            DataType::Utf8
        };
        assert_eq!(field.data_type(), &want, "{name}");
    }
    let cell = |array: &dyn Array, row: usize| -> String {
        if array.is_null(row) {
            return String::new();
        }
        match array.data_type() {
            DataType::UInt64 => array.as_primitive::<UInt64Type>().value(row).to_string(),
            DataType::Utf8 => array.as_string::<i32>().value(row).to_string(),
            _ => {
                let dict = array.as_dictionary::<Int32Type>();
                let key = dict.keys().value(row) as usize;
                dict.values().as_string::<i32>().value(key).to_string()
            }
        }
    };
    let mut rows = Vec::new();
    for batch in reader.build().unwrap() {
        let batch = batch.unwrap();
        for row in 0..batch.num_rows() {
            let fields = (0..batch.num_columns())
                .map(|c| cell(batch.column(c).as_ref(), row))
                .collect();
            rows.push(fields);
        }
    }
    Table {
        format: "parquet".into(),
        header,
        rows,
    }
}

#[cfg(not(feature = "parquet"))]
fn parquet_table(path: &Path) -> Table {
    panic!(
        "{}: a Parquet file from a build without Parquet",
        path.display()
    )
}
