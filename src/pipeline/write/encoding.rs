//! How an output is written ([`Encoding`]): its format and its compression, told by its name
//! or the option given, and the [`TableWriter`] that writes it.

use std::io::{self, Write};
use std::path::Path;

use super::csv::{CsvTable, CsvWriter};
use super::jsonl::JsonlWriter;
use super::{Compressed, Field, TableWriter, names};

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
            OutputFormat::Parquet => Box::new(super::parquet::ParquetWriter::new(out, fields)?),
            #[cfg(not(feature = "parquet"))]
            OutputFormat::Parquet => return Err(io::Error::other("no Parquet in this build")),
        })
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
