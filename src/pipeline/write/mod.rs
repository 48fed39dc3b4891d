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

mod csv;
mod jsonl;
#[cfg(feature = "parquet")]
mod parquet;

use std::io::{self, Write};
use std::path::Path;

use super::grade::{ErBand, techniques};
use super::read::RecordInput;
use super::solve::Row;
use crate::grid::Grid;
use crate::logic::{Bounded, Rating};

use self::csv::CsvTable;
pub use self::csv::CsvWriter;
pub use self::jsonl::JsonlWriter;

/// What a column holds, which typed formats (Parquet) keep as its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Whole numbers (`u64`).
    Number,
    /// Text.
    Text,
    /// Grids as 81-character lines (text, or an invalid record's text).
    Grid,
    /// Text with few distinct values (a status, a file name): dictionary-encoded in Parquet.
    Category,
    /// A rating in tenths ([`Value::Tenths`]): `2.3` in text, a float in Parquet.
    Rating,
}

/// One column of an output: its name and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The column's name (the CSV header, the JSON key).
    pub name: &'static str,
    /// What it holds.
    pub kind: Kind,
}

impl Field {
    /// A column named `name` holding `kind`.
    pub const fn new(name: &'static str, kind: Kind) -> Field {
        Field { name, kind }
    }
}

/// The columns of `solve`'s results, in order.
pub const COLUMNS: [Field; 8] = [
    Field::new("line", Kind::Number),
    Field::new("puzzle", Kind::Grid),
    Field::new("status", Kind::Category),
    Field::new("solutions", Kind::Number),
    Field::new("solution", Kind::Grid),
    Field::new("guesses", Kind::Number),
    Field::new("time_ns", Kind::Number),
    Field::new("error", Kind::Text),
];

/// The columns of `grade`'s results, in order.
pub const GRADE_COLUMNS: [Field; 11] = [
    Field::new("line", Kind::Number),
    Field::new("puzzle", Kind::Grid),
    Field::new("status", Kind::Category),
    Field::new("er", Kind::Rating),
    Field::new("ep", Kind::Rating),
    Field::new("ed", Kind::Rating),
    Field::new("hardest", Kind::Category),
    Field::new("steps", Kind::Number),
    Field::new("techniques", Kind::Text),
    Field::new("time_ns", Kind::Number),
    Field::new("error", Kind::Text),
];

/// The column `grade` adds after [`GRADE_COLUMNS`] with `--min-er`/`--max-er`: where each
/// rating falls against the band ([`ErBand::label`](super::grade::ErBand::label)).
pub const BAND_COLUMN: Field = Field::new("band", Kind::Category);

/// The columns of `grade`'s results: [`GRADE_COLUMNS`], and [`BAND_COLUMN`] with a band.
pub fn grade_columns(band: &ErBand) -> Vec<Field> {
    let mut columns = GRADE_COLUMNS.to_vec();
    if band.any() {
        columns.push(BAND_COLUMN);
    }
    columns
}

/// The columns of the `--emit-solutions` file.
pub const SOLUTION_COLUMNS: [Field; 3] = [
    Field::new("line", Kind::Number),
    Field::new("index", Kind::Number),
    Field::new("solution", Kind::Grid),
];

/// The column that comes first in every output of a run with more than one input: the input
/// the row's record comes from.
pub const FILE_COLUMN: Field = Field::new("file", Kind::Category);

/// The names of `fields`, in order.
pub fn names(fields: &[Field]) -> Vec<&'static str> {
    fields.iter().map(|f| f.name).collect()
}

/// One field of an output row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'a> {
    /// Nothing.
    Empty,
    /// A whole number.
    Number(u64),
    /// Text.
    Text(&'a str),
    /// A grid, as its 81-character line.
    Grid(&'a Grid),
    /// A number in tenths, written with one decimal: `23` is `2.3`.
    Tenths(u16),
}

/// The [`COLUMNS`] of a results row. `error` is where the text of the error column is kept.
pub fn row_values<'a>(row: &'a Row, error: &'a mut String) -> [Value<'a>; 8] {
    *error = row.record_error().unwrap_or_default();
    [
        Value::Number(row.record.line),
        match &row.record.input {
            RecordInput::Puzzle(g) => Value::Grid(g),
            RecordInput::Invalid { text, .. } => Value::Text(text),
        },
        Value::Text(row.status.as_str()),
        Value::Number(row.outcome.solutions),
        row.outcome
            .solution
            .as_ref()
            .map_or(Value::Empty, Value::Grid),
        Value::Number(row.outcome.guesses),
        Value::Number(row.time_ns),
        Value::Text(error),
    ]
}

/// Where [`grade_values`] keeps the text it makes for one row.
#[derive(Debug, Default)]
pub struct GradeText {
    techniques: String,
    error: String,
    band: String,
}

/// The [`grade_columns`] of a results row for `band`: the first 11 are [`GRADE_COLUMNS`], the
/// last [`BAND_COLUMN`] (to be written only with a band). The ratings are empty when the row
/// was not rated, or its rating stopped at a bound (which `band` then says: `>= 9.0`).
pub fn grade_values<'a>(row: &'a Row, text: &'a mut GradeText, band: &ErBand) -> [Value<'a>; 12] {
    text.error = row.error().unwrap_or_default();
    let bounded = row.rating.as_ref().and_then(|r| r.as_ref().ok());
    text.band = bounded
        .filter(|_| band.any())
        .map(|b| band.label(band.side(b)))
        .unwrap_or_default();
    let rating = bounded.and_then(Bounded::rating);
    text.techniques = rating.map(techniques).unwrap_or_default();
    let of = |f: fn(&Rating) -> Value<'a>| rating.map_or(Value::Empty, f);
    [
        Value::Number(row.record.line),
        match &row.record.input {
            RecordInput::Puzzle(g) => Value::Grid(g),
            RecordInput::Invalid { text, .. } => Value::Text(text),
        },
        Value::Text(row.status.as_str()),
        of(|r| Value::Tenths(r.er)),
        of(|r| Value::Tenths(r.ep)),
        of(|r| Value::Tenths(r.ed)),
        of(|r| Value::Text(r.hardest.name())),
        of(|r| Value::Number(u64::from(r.steps))),
        Value::Text(&text.techniques),
        Value::Number(row.time_ns),
        Value::Text(&text.error),
        Value::Text(&text.band),
    ]
}

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

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum OutputFormat {
    /// Comma-separated values with a header row.
    #[default]
    Csv,
    /// Tab-separated values with a header row.
    Tsv,
    /// One JSON object per line: numbers as numbers, empty fields as null.
    Jsonl,
    /// Parquet: typed columns in row groups (needs the cargo feature `parquet`).
    Parquet,
}

/// A compression applied to a whole output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compression {
    /// None.
    #[default]
    None,
    /// gzip (`.gz`).
    Gzip,
    /// zstd (`.zst`).
    Zstd,
    /// xz (`.xz`).
    Xz,
}

/// How an output is written: its format and compression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Encoding {
    /// The format.
    pub format: OutputFormat,
    /// The compression of the whole file.
    pub compression: Compression,
}

/// The names of the formats, as an output's name ends: what [`Encoding::of`] reads.
const FORMAT_NAMES: [(&str, OutputFormat); 5] = [
    ("csv", OutputFormat::Csv),
    ("tsv", OutputFormat::Tsv),
    ("jsonl", OutputFormat::Jsonl),
    ("ndjson", OutputFormat::Jsonl),
    ("parquet", OutputFormat::Parquet),
];

/// The compressions, as an output's name ends.
const COMPRESSION_NAMES: [(&str, Compression); 4] = [
    ("gz", Compression::Gzip),
    ("zst", Compression::Zstd),
    ("zstd", Compression::Zstd),
    ("xz", Compression::Xz),
];

/// The format an output named `base` (its name without a compression suffix) asks for:
/// `Ok(None)` when the name has no extension, an error naming the extension when it is not
/// one of [`FORMAT_NAMES`].
fn format_by_name(base: &str) -> Result<Option<OutputFormat>, String> {
    let Some(extension) = Path::new(base).extension() else {
        return Ok(None);
    };
    let extension = extension.to_string_lossy();
    match FORMAT_NAMES.iter().find(|(name, _)| *name == extension) {
        Some((_, format)) => Ok(Some(*format)),
        None => {
            let json = if extension == "json" {
                "JSON lines (one object a line) are written to a name ending in .jsonl; "
            } else {
                ""
            };
            Err(format!(
                "the name ends in .{extension}, which is no output format: {json}name it .csv, \
                 .tsv, .jsonl or .parquet (optionally .gz, .zst or .xz after it), or give \
                 --output-format to write one whatever the name"
            ))
        }
    }
}

/// The format an output's name says: none (no extension), or why its extension is none.
type Named = Result<Option<OutputFormat>, String>;

impl Encoding {
    /// The encoding of an output named `path` (`None`: stdout): `format` when given, else by
    /// the name's extension (`.csv`, `.tsv`, `.jsonl` or `.ndjson`, `.parquet`; CSV for a
    /// name with none, and for a path that is no regular file: a pipe, `/dev/stdout`);
    /// compressed when the name ends in `.gz`, `.zst` or `.xz`. Any other extension is
    /// refused unless `format` is given, as are a bzip2 name and a compressed Parquet file
    /// (Parquet compresses its own pages).
    pub fn of(path: Option<&Path>, format: Option<OutputFormat>) -> Result<Encoding, String> {
        let (named, compression) = Encoding::by_name(path)?;
        let format = match format {
            Some(format) => format,
            None => named?.unwrap_or_default(),
        };
        Encoding::checked(format, compression)
    }

    /// The encoding of the `--emit-solutions` file named `path` (`None`: stdout) of a run
    /// whose results are written with `results`: the format its name says (as for
    /// [`Encoding::of`]), else (a name with no extension or another one, a pipe) the results'
    /// format; compressed when its name says. A `.json` name is refused.
    pub fn for_solutions(path: Option<&Path>, results: Encoding) -> Result<Encoding, String> {
        let (named, compression) = Encoding::by_name(path)?;
        let json = path.is_some_and(|p| p.to_string_lossy().to_ascii_lowercase().contains(".json"));
        let format = match named {
            Ok(format) => format.unwrap_or(results.format),
            Err(e) if json => return Err(e),
            Err(_) => results.format,
        };
        Encoding::checked(format, compression)
    }

    /// The compression the name of `path` says, and the format: `None` for stdout, a path
    /// that is no regular file, and a name without extension; an error naming an extension
    /// that is no format. A bzip2 name is refused.
    fn by_name(path: Option<&Path>) -> Result<(Named, Compression), String> {
        let stream = path.is_some_and(|p| std::fs::metadata(p).is_ok_and(|m| !m.is_file()));
        let name = match path.and_then(Path::file_name) {
            Some(name) if !stream => name.to_string_lossy().to_ascii_lowercase(),
            _ => return Ok((Ok(None), Compression::None)),
        };
        if name.ends_with(".bz2") {
            return Err(
                "bzip2 is not written: name the output .gz, .zst or .xz to compress it".into(),
            );
        }
        let (base, compression) = COMPRESSION_NAMES
            .iter()
            .find_map(|(suffix, c)| Some((name.strip_suffix(suffix)?.strip_suffix('.')?, *c)))
            .unwrap_or((name.as_str(), Compression::None));
        Ok((format_by_name(base), compression))
    }

    /// `format` with `compression`, unless they do not go together or this build lacks them.
    fn checked(format: OutputFormat, compression: Compression) -> Result<Encoding, String> {
        if format == OutputFormat::Parquet && compression != Compression::None {
            return Err(
                "a Parquet output is not compressed as a whole: Parquet compresses its \
                 own pages; drop the .gz, .zst or .xz"
                    .into(),
            );
        }
        if format == OutputFormat::Parquet && !cfg!(feature = "parquet") {
            return Err(
                "this build writes no Parquet (it was built without the cargo feature `parquet`)"
                    .into(),
            );
        }
        Ok(Encoding {
            format,
            compression,
        })
    }

    /// The encoding in words, for messages.
    pub fn describe(&self) -> String {
        let format = match self.format {
            OutputFormat::Csv => "CSV",
            OutputFormat::Tsv => "tab-separated values",
            OutputFormat::Jsonl => "JSON lines",
            OutputFormat::Parquet => "Parquet",
        };
        match self.compression {
            Compression::None => format.to_string(),
            Compression::Gzip => format!("gzip-compressed {format}"),
            Compression::Zstd => format!("zstd-compressed {format}"),
            Compression::Xz => format!("xz-compressed {format}"),
        }
    }

    /// True for the one encoding a run can append to (`--resume`): plain CSV.
    pub fn appendable(&self) -> bool {
        *self == Encoding::default()
    }

    /// A writer of a table with `fields` to `out`. A CSV or JSON lines table `appending` to
    /// rows already there writes no header; a new CSV table writes its header at once.
    pub fn writer(
        &self,
        out: Box<dyn Write + Send>,
        fields: &[Field],
        appending: bool,
    ) -> io::Result<Box<dyn TableWriter>> {
        let out = match self.compression {
            Compression::None => Compressed::Plain(out),
            // The fastest level: results are mostly the same few characters, on which the
            // default level spends several times as long for a few percent less.
            Compression::Gzip => Compressed::Gzip(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::fast(),
            )),
            Compression::Zstd => Compressed::Zstd(zstd::stream::write::Encoder::new(out, 3)?),
            // A low preset: xz is slow, and results repeat the same few characters.
            Compression::Xz => Compressed::Xz(liblzma::write::XzEncoder::new(out, 1)),
        };
        Ok(match self.format {
            OutputFormat::Csv if appending => Box::new(CsvTable::new(CsvWriter::appending(out))),
            OutputFormat::Csv => {
                let mut writer = CsvWriter::new(out, &names(fields))?;
                writer.flush()?;
                Box::new(CsvTable::new(writer))
            }
            OutputFormat::Tsv => {
                let mut writer = CsvWriter::with_delimiter(out, &names(fields), b'\t')?;
                writer.flush()?;
                Box::new(CsvTable::new(writer))
            }
            OutputFormat::Jsonl => Box::new(JsonlWriter::new(out, fields)),
            #[cfg(feature = "parquet")]
            OutputFormat::Parquet => Box::new(parquet::ParquetWriter::new(out, fields)?),
            #[cfg(not(feature = "parquet"))]
            OutputFormat::Parquet => return Err(io::Error::other("no Parquet in this build")),
        })
    }
}

/// An output stream, compressed or not.
pub enum Compressed {
    /// As it is.
    Plain(Box<dyn Write + Send>),
    /// gzip.
    Gzip(flate2::write::GzEncoder<Box<dyn Write + Send>>),
    /// zstd.
    Zstd(zstd::stream::write::Encoder<'static, Box<dyn Write + Send>>),
    /// xz.
    Xz(liblzma::write::XzEncoder<Box<dyn Write + Send>>),
}

impl Compressed {
    /// Ends the compressed stream (its trailer) and flushes the output.
    pub fn finish(&mut self) -> io::Result<()> {
        match self {
            Compressed::Plain(w) => w.flush(),
            Compressed::Gzip(w) => w.try_finish(),
            Compressed::Zstd(w) => w.do_finish(),
            Compressed::Xz(w) => w.try_finish(),
        }
    }
}

impl Write for Compressed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Compressed::Plain(w) => w.write(buf),
            Compressed::Gzip(w) => w.write(buf),
            Compressed::Zstd(w) => w.write(buf),
            Compressed::Xz(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Compressed::Plain(w) => w.write_all(buf),
            Compressed::Gzip(w) => w.write_all(buf),
            Compressed::Zstd(w) => w.write_all(buf),
            Compressed::Xz(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Compressed::Plain(w) => w.flush(),
            Compressed::Gzip(w) => w.flush(),
            Compressed::Zstd(w) => w.flush(),
            Compressed::Xz(w) => w.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoding_follows_the_name_unless_told() {
        let of = |name: &str, format| Encoding::of(Some(Path::new(name)), format);
        let enc = |format, compression| Encoding {
            format,
            compression,
        };
        use {Compression as C, OutputFormat as F};
        assert_eq!(of("out.csv", None), Ok(enc(F::Csv, C::None)));
        assert_eq!(of("out.CSV.gz", None), Ok(enc(F::Csv, C::Gzip)));
        assert_eq!(of("out.jsonl", None), Ok(enc(F::Jsonl, C::None)));
        assert_eq!(of("out.ndjson.zst", None), Ok(enc(F::Jsonl, C::Zstd)));
        assert_eq!(of("out", None), Ok(enc(F::Csv, C::None)));
        assert_eq!(of("out.txt", Some(F::Jsonl)), Ok(enc(F::Jsonl, C::None)));
        assert_eq!(of("out.tsv", None), Ok(enc(F::Tsv, C::None)));
        assert_eq!(of("out.csv.xz", None), Ok(enc(F::Csv, C::Xz)));
        assert_eq!(of("out.jsonl.xz", None), Ok(enc(F::Jsonl, C::Xz)));
        assert_eq!(of("x.json", Some(F::Csv)), Ok(enc(F::Csv, C::None)));
        assert_eq!(of("/dev/null", None), Ok(enc(F::Csv, C::None)));
        let json = of("x.json", None).unwrap_err();
        assert!(
            json.contains(".jsonl") && json.contains("--output-format"),
            "{json}"
        );
        assert!(of("out.txt", None).is_err());
        assert!(of("out.csv.bz2", None).is_err());
        assert_eq!(Encoding::of(None, None), Ok(Encoding::default()));
        assert!(of("out.parquet.gz", None).is_err());
        if cfg!(feature = "parquet") {
            assert_eq!(of("out.parquet", None), Ok(enc(F::Parquet, C::None)));
        } else {
            assert!(of("out.parquet", None).is_err());
        }
        assert!(of("out.csv", None).unwrap().appendable());
        assert!(!of("out.csv.gz", None).unwrap().appendable());
    }
}
