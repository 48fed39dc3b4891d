//! The read stage: opening an input (a file or stdin, gzip decompressed on the fly) and turning
//! it into a stream of [`Record`]s, one per puzzle record, each with the line where it starts.
//!
//! One file per format: `text` (one puzzle per line), `csv` (one column holds the puzzle)
//! and `grid` (blocks of nine rows of nine cells); `lines` splits lines for the first and
//! the last. A record that is not a puzzle becomes [`RecordInput::Invalid`] with the reason,
//! never an error: only I/O failures and options that do not fit the input stop reading. No
//! record is held in memory beyond [`MAX_RECORD_BYTES`], so memory stays flat whatever the
//! input holds.

mod compressed;
pub(crate) mod csv;
mod grid;
mod lines;
mod text;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::grid::{CELLS, Grid};

/// The longest record kept in memory, in bytes. A longer one becomes one `invalid` record and
/// the rest of it is skipped without being stored.
pub const MAX_RECORD_BYTES: usize = 64 * 1024;

/// How much of an invalid record's text is kept for the `puzzle` column.
const MAX_SHOWN_BYTES: usize = 256;

/// The UTF-8 byte order mark, skipped at the start of an input.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The read buffer: large reads for large inputs.
const BUF_SIZE: usize = 256 * 1024;

/// One record of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// 1-based line number where the record starts.
    pub line: u64,
    /// The puzzle, or why the record is not one.
    pub input: RecordInput,
    /// The solution the input states beside the puzzle, when [`ReadOptions::expect_column`]
    /// asks for one (`validate --expect-column`); `None` otherwise. Boxed, as few runs ask for
    /// it and records are moved from stage to stage.
    pub expected: Option<Box<Expected>>,
}

/// A solution stated in the input beside a puzzle (a CSV column such as Kaggle's `solutions`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// A complete grid.
    Grid(Grid),
    /// The row has no such field, or it is empty.
    Missing,
    /// The field is not a complete grid: why.
    Malformed(String),
}

impl Expected {
    /// Reads a stated solution from a CSV field: 81 digits `1`-`9`, blanks not allowed.
    pub fn parse(field: Option<&[u8]>) -> Expected {
        let Some(field) = field.map(<[u8]>::trim_ascii).filter(|f| !f.is_empty()) else {
            return Expected::Missing;
        };
        match Grid::parse_bytes(field) {
            Ok(g) if g.is_full() => Expected::Grid(g),
            Ok(g) => Expected::Malformed(format!("{} blank cells", CELLS - g.clue_count())),
            Err(e) => Expected::Malformed(e.to_string()),
        }
    }
}

/// What a record holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordInput {
    /// A well-formed puzzle (its clues may still conflict).
    Puzzle(Grid),
    /// Not a puzzle.
    Invalid {
        /// The record text as read (cut to a few hundred bytes, invalid UTF-8 replaced).
        text: String,
        /// Why it is not a puzzle.
        reason: String,
    },
}

/// The input formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// CSV when the file name ends in `.csv` (or `.csv.gz`), text otherwise.
    #[default]
    Auto,
    /// One puzzle per line: 81 cells, then optionally a delimiter and a comment.
    Text,
    /// CSV with the puzzle in one column.
    Csv,
    /// Blocks of nine rows of nine cells.
    Grid,
}

/// Whether a CSV input starts with a header row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Header {
    /// A header when no field of the first row is a puzzle.
    #[default]
    Auto,
    /// The first row is a header.
    Yes,
    /// There is no header.
    No,
}

/// Which CSV column holds the puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Column {
    /// The first column with one of the usual names (`puzzle`, `quizzes`, ...), else column 0.
    #[default]
    Auto,
    /// A 0-based column index.
    Index(usize),
    /// A column named in the header (case-insensitive).
    Name(String),
}

impl std::str::FromStr for Column {
    type Err = std::convert::Infallible;

    /// A number is an index, anything else a name.
    fn from_str(s: &str) -> Result<Column, Self::Err> {
        Ok(match s.parse() {
            Ok(i) => Column::Index(i),
            Err(_) => Column::Name(s.to_string()),
        })
    }
}

/// Column names taken to hold puzzles when no `--column` is given, in order of preference.
pub const PUZZLE_COLUMN_NAMES: [&str; 7] = [
    "puzzle", "puzzles", "quizzes", "quiz", "sudoku", "grid", "board",
];

/// Column names taken to hold stated solutions when `--expect-column` names none.
pub const SOLUTION_COLUMN_NAMES: [&str; 2] = ["solution", "solutions"];

/// Where records come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file.
    Path(PathBuf),
}

impl Source {
    /// `-` or nothing is stdin, anything else a path.
    pub fn from_arg(arg: Option<&Path>) -> Source {
        match arg {
            None => Source::Stdin,
            Some(p) if p.as_os_str() == "-" => Source::Stdin,
            Some(p) => Source::Path(p.to_path_buf()),
        }
    }

    /// The name shown in messages.
    pub fn display_name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_string(),
            Source::Path(p) => p.display().to_string(),
        }
    }
}

/// Reading options.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The input format.
    pub format: Format,
    /// The puzzle column (CSV).
    pub column: Column,
    /// Header handling (CSV).
    pub header: Header,
    /// A CSV column holding each puzzle's stated solution, read into [`Record::expected`]
    /// (`validate --expect-column`). Other formats refuse it with [`ReadError::Usage`].
    pub expect_column: Option<Column>,
}

/// An error that stops reading: the input cannot be opened or read, or the options do not fit
/// it. Bad records are not errors.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The input could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The input's name.
        path: String,
        /// The OS error.
        source: io::Error,
    },
    /// The options do not fit the input (e.g. a column name that is not in the header).
    #[error("{path}: {message}")]
    Usage {
        /// The input's name.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// Something that yields records one at a time: one implementation per format.
trait RecordSource: Send {
    fn next_record(&mut self) -> io::Result<Option<Record>>;
}

/// An opened input: a stream of records plus what is known of its size.
pub struct Reader {
    records: Box<dyn RecordSource>,
    /// Records given back ([`Reader::unread`]), read again before the rest.
    unread: std::collections::VecDeque<Record>,
    name: String,
    /// Bytes read from the underlying file so far (compressed bytes for gzip).
    bytes_read: Arc<AtomicU64>,
    /// The file size in bytes, when known.
    size: Option<u64>,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("name", &self.name)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

/// Counts the bytes that pass through, for the progress bar.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// [`BufRead::fill_buf`] on `$inner`, retried when a signal interrupts the read (as
/// [`BufRead::read_until`] does); any other error is returned from the calling function, as
/// `?` would. A macro rather than a function: a function returning the buffer from inside its
/// retry loop is what the borrow checker cannot yet accept.
macro_rules! fill_buf {
    ($inner:expr) => {
        loop {
            match $inner.fill_buf() {
                Ok(avail) => break avail,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    };
}
use fill_buf;

impl Reader {
    /// Opens `source` with `options`. Fails when the input cannot be opened, or when the options
    /// do not fit it (a CSV column name not in the header).
    pub fn open(source: &Source, options: &ReadOptions) -> Result<Reader, ReadError> {
        let name = source.display_name();
        let io_err = |e| ReadError::Io {
            path: name.clone(),
            source: e,
        };
        let (raw, size): (Box<dyn Read + Send>, Option<u64>) = match source {
            Source::Stdin => (Box::new(io::stdin()), None),
            Source::Path(p) => {
                let file = File::open(p).map_err(io_err)?;
                let meta = file.metadata().map_err(io_err)?;
                if meta.is_dir() {
                    return Err(io_err(io::Error::new(
                        io::ErrorKind::IsADirectory,
                        "is a directory",
                    )));
                }
                (Box::new(file), Some(meta.len()).filter(|&n| n > 0))
            }
        };
        let format = match options.format {
            Format::Auto => guess_format(source),
            f => f,
        };
        Reader::from_parts(name, raw, size, format, options)
    }

    /// Reads records from any byte stream (a file already open, a socket, bytes in memory):
    /// gzip is detected as for files; `Format::Auto` reads text. `name` is used in messages.
    ///
    /// ```
    /// use sudoku_batch::pipeline::read::{ReadOptions, Reader};
    /// let input = &b"# two puzzles\n..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..\nxyz\n"[..];
    /// let records: Vec<_> = Reader::from_reader("memory", input, &ReadOptions::default())
    ///     .unwrap()
    ///     .collect::<Result<_, _>>()
    ///     .unwrap();
    /// assert_eq!(records.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3]);
    /// ```
    pub fn from_reader(
        name: &str,
        input: impl Read + Send + 'static,
        options: &ReadOptions,
    ) -> Result<Reader, ReadError> {
        let format = match options.format {
            Format::Auto => Format::Text,
            f => f,
        };
        Reader::from_parts(name.to_string(), Box::new(input), None, format, options)
    }

    fn from_parts(
        name: String,
        raw: Box<dyn Read + Send>,
        size: Option<u64>,
        format: Format,
        options: &ReadOptions,
    ) -> Result<Reader, ReadError> {
        let io_err = |e| ReadError::Io {
            path: name.clone(),
            source: e,
        };
        if format != Format::Csv {
            let csv_only = [
                (options.expect_column.is_some(), "--expect-column"),
                (options.column != Column::Auto, "--column"),
                (options.header != Header::Auto, "--header"),
            ];
            if let Some((_, option)) = csv_only.iter().find(|(given, _)| *given) {
                return Err(ReadError::Usage {
                    path: name.clone(),
                    message: format!(
                        "{option} needs CSV input (name it .csv or give --format csv)"
                    ),
                });
            }
        }
        let bytes_read = Arc::new(AtomicU64::new(0));
        let mut counting = Counting {
            inner: raw,
            count: bytes_read.clone(),
        };
        // The first bytes tell a compressed input; they are read again in front of the rest.
        let mut head = Vec::with_capacity(compressed::SNIFF_BYTES);
        (&mut counting)
            .take(compressed::SNIFF_BYTES as u64)
            .read_to_end(&mut head)
            .map_err(io_err)?;
        let kind = compressed::Kind::of(&head);
        let usage = |message| ReadError::Usage {
            path: name.clone(),
            message,
        };
        if let Some(message) = compressed::refusal(kind) {
            return Err(usage(message));
        }
        let buffered = BufReader::with_capacity(BUF_SIZE, io::Cursor::new(head).chain(counting));
        let mut input = compressed::decompress(kind, Box::new(buffered)).map_err(io_err)?;
        // Compressed text may be UTF-16 too.
        let first = (|| Ok(compressed::Kind::of(fill_buf!(input))))().map_err(io_err)?;
        if let Some(message) = compressed::refusal(first) {
            return Err(usage(message));
        }
        let records: Box<dyn RecordSource> = match format {
            Format::Text | Format::Auto => Box::new(text::TextRecords::new(input)),
            Format::Csv => Box::new(
                csv::CsvRecords::new(
                    input,
                    &options.column,
                    options.header,
                    options.expect_column.as_ref(),
                )
                .map_err(|e| match e {
                    csv::OpenError::Io(e) => io_err(e),
                    csv::OpenError::Usage(message) => ReadError::Usage {
                        path: name.clone(),
                        message,
                    },
                })?,
            ),
            Format::Grid => Box::new(grid::GridRecords::new(input)),
        };
        Ok(Reader {
            records,
            unread: Default::default(),
            name,
            bytes_read,
            size,
        })
    }

    /// Reads up to `max` records into `batch` (cleared first). Returns false at the end of the
    /// input, when nothing was read. On an error, `batch` holds the records read before it.
    pub fn read_batch(&mut self, batch: &mut Vec<Record>, max: usize) -> Result<bool, ReadError> {
        batch.clear();
        while batch.len() < max {
            match self.next_record()? {
                Some(r) => batch.push(r),
                None => break,
            }
        }
        Ok(!batch.is_empty())
    }

    /// Reads the next record.
    pub fn next_record(&mut self) -> Result<Option<Record>, ReadError> {
        if let Some(record) = self.unread.pop_front() {
            return Ok(Some(record));
        }
        self.records.next_record().map_err(|e| ReadError::Io {
            path: self.name.clone(),
            source: e,
        })
    }

    /// Gives back `records`, read from this reader and not used: they come again, in order,
    /// before the rest of the input.
    pub fn unread(&mut self, records: impl IntoIterator<Item = Record>) {
        let mut records: std::collections::VecDeque<Record> = records.into_iter().collect();
        records.append(&mut self.unread);
        self.unread = records;
    }

    /// The input's name, for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The input's size in bytes, when it is a file.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// A counter of the bytes read from the file so far (compressed bytes for gzip).
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        self.bytes_read.clone()
    }
}

impl Iterator for Reader {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

/// The format [`Format::Auto`] picks for `source`: CSV for names ending in `.csv` (or
/// `.csv.gz`), text otherwise.
fn guess_format(source: &Source) -> Format {
    let Source::Path(p) = source else {
        return Format::Text;
    };
    let name = p.to_string_lossy().to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    if name.ends_with(".csv") {
        Format::Csv
    } else {
        Format::Text
    }
}

/// An invalid record's text for the `puzzle` column: cut to [`MAX_SHOWN_BYTES`], invalid
/// UTF-8 replaced.
pub(crate) fn shown_text(bytes: &[u8]) -> String {
    if bytes.len() <= MAX_SHOWN_BYTES {
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        format!("{}...", String::from_utf8_lossy(&bytes[..MAX_SHOWN_BYTES]))
    }
}

/// The record of a well-formed puzzle, with no expected solution.
fn puzzle(line: u64, grid: Grid) -> Record {
    Record {
        line,
        input: RecordInput::Puzzle(grid),
        expected: None,
    }
}

/// The record of something that is not a puzzle, with the reason.
fn invalid(line: u64, bytes: &[u8], reason: impl ToString) -> Record {
    Record {
        line,
        input: RecordInput::Invalid {
            text: shown_text(bytes),
            reason: reason.to_string(),
        },
        expected: None,
    }
}

/// The record of a line or CSV record of `total` bytes, longer than [`MAX_RECORD_BYTES`].
fn too_long(line: u64, bytes: &[u8], total: u64) -> Record {
    invalid(
        line,
        bytes,
        format!("record of {total} bytes is longer than the limit of {MAX_RECORD_BYTES} bytes"),
    )
}

/// The record parsed from one text line or CSV field.
fn parse_record(line: u64, bytes: &[u8]) -> Record {
    match Grid::parse_bytes(bytes) {
        Ok(g) => puzzle(line, g),
        Err(e) => invalid(line, bytes, e),
    }
}

#[cfg(test)]
mod tests;
