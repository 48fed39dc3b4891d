//! The read stage: opening a run's inputs (files, directories or stdin, compressed ones
//! decompressed on the fly) and turning them into one stream of [`Record`]s, one per puzzle
//! record, each with its input and the line where it starts.
//!
//! One file per format: `text` (one puzzle per line), `csv` (one column holds the puzzle),
//! `grid` (blocks of nine rows of nine cells) and `parquet` (one column of a Parquet file);
//! `lines` splits lines for text and grids; `inputs` turns the command line's inputs into the
//! list of files read in turn ([`Source`]s); `open` opens one input (decompression, format);
//! `shard` finds the records of one part of a run (`--shard K/N`). A record that is not a
//! puzzle becomes [`RecordInput::Invalid`] with the reason, never an error: only I/O failures
//! and options that do not fit the input stop reading. No record is held in memory beyond
//! [`MAX_RECORD_BYTES`], so memory stays flat whatever the input holds.

pub(crate) mod compressed;
pub(crate) mod csv;
mod grid;
pub mod inputs;
mod lines;
#[cfg(feature = "parquet")]
mod parquet;
mod shard;
mod text;

pub use inputs::Source;
use open::{Stream, format_of, open_one, open_slice, open_stream};
use shard::Part;

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, PoisonError};

use crate::grid::{CELLS, Grid};
use crate::shard::Shard;

/// The longest record kept in memory, in bytes. A longer one becomes one `invalid` record and
/// the rest of it is skipped without being stored.
pub const MAX_RECORD_BYTES: usize = 64 * 1024;

/// How much of an invalid record's text is kept for the `puzzle` column.
const MAX_SHOWN_BYTES: usize = 256;

/// The UTF-8 byte order mark, skipped at the start of an input.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The read buffer: a few syscalls per megabyte, small enough that the bytes a read brings
/// are still in the core's cache when they are parsed (a 256 KiB buffer cost `--resume`,
/// which does little else with them, a tenth more CPU).
const BUF_SIZE: usize = 64 * 1024;

/// The read buffer of a file smaller than [`BUF_SIZE`] is its size, and at least this.
const MIN_BUF_SIZE: usize = 8 * 1024;

/// One record of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The input it comes from: its index in the run's list of inputs ([`Reader::names`]),
    /// from 0.
    pub file: u32,
    /// 1-based line number where the record starts (for Parquet, the row number).
    pub line: u64,
    /// The puzzle, or why the record is not one.
    pub input: RecordInput,
    /// The solution the input states beside the puzzle, when [`ReadOptions::expect_column`]
    /// asks for one (`validate --expect-column`); `None` otherwise. Boxed, as few runs ask for
    /// it and records are moved from stage to stage.
    pub expected: Option<Box<Expected>>,
}

/// A record whose line holds nothing but a puzzle written as the output's `puzzle` column
/// writes it: 81 bytes, each `1`-`9` or `.`, read in place and compared with a row's `puzzle`
/// field. `--resume` checks every row so, and parsing each line into a [`Record`], or even
/// copying it, would cost more than the rest of that check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PlainRecord {
    /// As [`Record::file`].
    pub(crate) file: u32,
    /// As [`Record::line`].
    pub(crate) line: u64,
    /// `None` when the line is the field it was compared with; the line otherwise.
    pub(crate) differs: Option<Box<[u8; CELLS]>>,
}

impl PlainRecord {
    /// The record [`Reader::next_record`] would have read; `compared` is the field that
    /// [`Reader::next_plain`] compared it with.
    pub(crate) fn into_record(self, compared: &[u8]) -> Record {
        let line = self.differs.as_deref().map_or(compared, |cells| &cells[..]);
        Record {
            file: self.file,
            ..text::line_record(self.line, line)
        }
    }
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
    /// By the file name: CSV for `.csv`, tab-separated CSV for `.tsv`, Parquet for `.parquet`
    /// (each also with `.gz`, `.xz` or `.zst` after it, but Parquet), text otherwise.
    #[default]
    Auto,
    /// One puzzle per line: 81 cells, then optionally a delimiter and a comment; or one field
    /// of 81 cells anywhere in the line.
    Text,
    /// CSV with the puzzle in one column.
    Csv,
    /// Blocks of nine rows of nine cells.
    Grid,
    /// A Parquet file with the puzzle in one column (needs the cargo feature `parquet`).
    Parquet,
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

/// Which CSV or Parquet column holds the puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Column {
    /// The first column with one of the usual names (`puzzle`, `quizzes`, ...), else the first
    /// whose values in the first rows are puzzles, else column 0.
    #[default]
    Auto,
    /// A 0-based column index.
    Index(usize),
    /// A column named in the header (case-insensitive).
    Name(String),
}

impl std::str::FromStr for Column {
    type Err = std::convert::Infallible;

    /// A number is an index, nothing (`""`) is [`Column::Auto`], anything else a name.
    fn from_str(s: &str) -> Result<Column, Self::Err> {
        Ok(match s.parse() {
            Ok(i) => Column::Index(i),
            Err(_) if s.is_empty() => Column::Auto,
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

/// Reading options.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The input format.
    pub format: Format,
    /// The puzzle column (CSV, Parquet).
    pub column: Column,
    /// Header handling (CSV).
    pub header: Header,
    /// A CSV or Parquet column holding each puzzle's stated solution, read into
    /// [`Record::expected`] (`validate --expect-column`). Other formats refuse it with
    /// [`ReadError::Usage`].
    pub expect_column: Option<Column>,
    /// The CSV field delimiter; `None`: a tab for `.tsv` files, else told by the first line.
    pub delimiter: Option<u8>,
    /// Text: the 0-based field of each line that holds the puzzle (fields separated by runs of
    /// spaces, tabs, `,`, `;` or `|`); `None`: the line's start, or its one field of 81 cells.
    pub field: Option<usize>,
    /// Read only this part of the records of all the inputs together, keeping their `line`s:
    /// a contiguous range, cut by bytes when every input is an uncompressed text or CSV file,
    /// else by record index after a pass that counts the records (stdin is copied to a
    /// temporary file for it). The parts 0..N-1 together read every record once, in order.
    /// [`Reader::from_reader`] refuses it.
    pub shard: Option<Shard>,
}

impl ReadOptions {
    /// The options that only some formats take and that are given, each with the formats
    /// that take it and its command-line name.
    fn format_only(&self) -> [(bool, &'static [Format], &'static str); 5] {
        const TABLES: &[Format] = &[Format::Csv, Format::Parquet];
        [
            (self.expect_column.is_some(), TABLES, "--expect-column"),
            (self.column != Column::Auto, TABLES, "--column"),
            (self.header != Header::Auto, &[Format::Csv], "--header"),
            (self.delimiter.is_some(), &[Format::Csv], "--delimiter"),
            (self.field.is_some(), &[Format::Text], "--field"),
        ]
    }

    /// Refuses an option given for an input of a format that does not take it.
    fn check(&self, name: &str, format: Format) -> Result<(), ReadError> {
        let misfit = self
            .format_only()
            .into_iter()
            .find(|(given, formats, _)| *given && !formats.contains(&format));
        let Some((_, formats, option)) = misfit else {
            return Ok(());
        };
        let needs = match formats {
            [Format::Csv] => "CSV input (name it .csv or .tsv, or give --format csv)",
            [Format::Text] => "text input",
            _ => "CSV input or a Parquet file (name it .csv or .parquet, or give --format)",
        };
        Err(ReadError::Usage {
            path: name.to_string(),
            message: format!("{option} needs {needs}"),
        })
    }
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

/// A plain line read in place by [`RecordSource::next_plain`]: its number, and its cells when
/// they are not the field it was compared with.
type PlainLine = (u64, Option<Box<[u8; CELLS]>>);

/// Something that yields records one at a time: one implementation per format.
trait RecordSource: Send {
    fn next_record(&mut self) -> io::Result<Option<Record>>;

    /// The next record, when it is a line that holds nothing but a puzzle as the output writes
    /// it, read in place and compared with `field`: its line, and the line when it is not
    /// `field` ([`PlainRecord::differs`]). `None`, having read nothing of it, otherwise (and
    /// always, for formats that do not look).
    fn next_plain(&mut self, field: &[u8]) -> io::Result<Option<PlainLine>> {
        let _ = field;
        Ok(None)
    }

    /// Which column holds the puzzles and how it was chosen, for formats with columns.
    fn column_used(&self) -> Option<String> {
        None
    }
}

/// The run's inputs, opened one after the other as one stream of records, plus what is known
/// of their size.
pub struct Reader {
    records: Box<dyn RecordSource>,
    /// The inputs, in order.
    sources: Arc<[Source]>,
    /// Their names, for messages and the `file` column.
    names: Arc<[String]>,
    /// The input being read: its index in `sources`.
    current: usize,
    options: ReadOptions,
    /// Bytes read from the underlying files so far (compressed bytes for gzip).
    bytes_read: Arc<AtomicU64>,
    /// The files' total size in bytes, when known.
    size: Option<u64>,
    /// The puzzle column of each input with columns, as [`RecordSource::column_used`] says:
    /// the distinct ones, in the order met, each with the inputs it was said of.
    columns: ColumnsUsed,
    /// The records read: those whose index among all the inputs' records (from 0) is in this
    /// range; everything unless [`ReadOptions::shard`] is read by record index.
    keep: Range<u64>,
    /// Records met so far in the inputs, kept or not.
    met: u64,
    /// Of each input, the bytes read, when [`ReadOptions::shard`] is read by bytes.
    slices: Option<Vec<Option<shard::Slice>>>,
    /// For a shard, the inputs that can be read only once (stdin, pipes) copied to temporary
    /// files, by input; empty otherwise.
    spools: Vec<Option<File>>,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("name", &self.name())
            .field("size", &self.size)
            .finish_non_exhaustive()
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
        Reader::open_all(std::slice::from_ref(source), options)
    }

    /// Opens `sources`, to be read one after the other as one stream of records, each record
    /// telling its input ([`Record::file`]). Every input is checked now (it exists, is no
    /// directory, and its format takes the options given) and the first is opened; each later
    /// one is opened when the one before it ends, so that a later input that cannot be read
    /// stops the reading there. With [`ReadOptions::shard`], the part is found now: stdin and
    /// pipes are copied to temporary files, then the inputs are cut by bytes or counted.
    pub fn open_all(sources: &[Source], options: &ReadOptions) -> Result<Reader, ReadError> {
        if sources.is_empty() {
            return Err(ReadError::Usage {
                path: "<input>".into(),
                message: "no input to read".into(),
            });
        }
        if sources.iter().filter(|s| **s == Source::Stdin).count() > 1 {
            return Err(ReadError::Usage {
                path: "<stdin>".into(),
                message: "stdin (-) is named more than once".into(),
            });
        }
        let mut size = Some(0u64);
        for source in sources {
            let name = source.display_name();
            options.check(&name, format_of(source, options))?;
            if let Source::Path(p) = source {
                let meta = std::fs::metadata(p).map_err(|e| io_error(&name, e))?;
                if meta.is_dir() {
                    return Err(io_error(&name, is_a_directory()));
                }
                size = size.map(|n| n + meta.len());
            } else {
                size = None;
            }
        }
        let spools = shard::spools(sources, options)?;
        let (keep, slices) = match shard::part(sources, options, &spools)? {
            Part::All => (0..u64::MAX, None),
            Part::Records(keep) => (keep, None),
            Part::Bytes(slices) => {
                let bytes = slices.iter().flatten().map(|s| s.end - s.start.offset);
                size = Some(bytes.sum());
                (0..u64::MAX, Some(slices))
            }
        };
        let mut reader = Reader {
            records: Box::new(shard::Nothing),
            names: sources.iter().map(Source::display_name).collect(),
            sources: sources.into(),
            current: 0,
            options: options.clone(),
            bytes_read: Arc::new(AtomicU64::new(0)),
            size: size.filter(|&n| n > 0),
            columns: ColumnsUsed::default(),
            keep,
            met: 0,
            slices,
            spools,
        };
        reader.records = reader.open_current()?;
        reader.note_column();
        Ok(reader)
    }

    /// Opens the input [`Reader::current`] names: its slice when the shard is read by bytes.
    fn open_current(&self) -> Result<Box<dyn RecordSource>, ReadError> {
        let source = &self.sources[self.current];
        match &self.slices {
            None => {
                let spool = self.spools.get(self.current).and_then(Option::as_ref);
                open_one(source, &self.options, &self.bytes_read, spool)
            }
            Some(slices) => match &slices[self.current] {
                Some(slice) => open_slice(source, &self.options, slice, &self.bytes_read),
                None => Ok(Box::new(shard::Nothing)),
            },
        }
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
        options.check(name, format)?;
        if options.shard.is_some() {
            return Err(ReadError::Usage {
                path: name.to_string(),
                message: "--shard needs the inputs opened by Reader::open_all (files or \
                          stdin), which it may read twice"
                    .into(),
            });
        }
        let bytes_read = Arc::new(AtomicU64::new(0));
        let stream = Stream {
            name,
            raw: Box::new(input),
            format,
            tsv: false,
            size: None,
        };
        let records = open_stream(stream, options, &bytes_read)?;
        let reader = Reader {
            records,
            sources: Arc::new([Source::Stdin]),
            names: Arc::new([name.to_string()]),
            current: 0,
            options: options.clone(),
            bytes_read,
            size: None,
            columns: ColumnsUsed::default(),
            keep: 0..u64::MAX,
            met: 0,
            slices: None,
            spools: Vec::new(),
        };
        reader.note_column();
        Ok(reader)
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

    /// Reads the next record: from the input being read, or from the next one when it ends.
    pub fn next_record(&mut self) -> Result<Option<Record>, ReadError> {
        loop {
            if self.met >= self.keep.end {
                return Ok(None);
            }
            let next = self
                .records
                .next_record()
                .map_err(|e| io_error(self.name(), e))?;
            if let Some(mut record) = next {
                self.met += 1;
                if self.met <= self.keep.start {
                    continue;
                }
                record.file = self.current as u32;
                return Ok(Some(record));
            }
            if self.current + 1 >= self.sources.len() {
                return Ok(None);
            }
            self.current += 1;
            self.records = self.open_current()?;
            self.note_column();
        }
    }

    /// The next record when it is a [`PlainRecord`], read in place and compared with `field`;
    /// `None`, having read nothing, otherwise: [`Reader::next_record`] then reads it. Also
    /// `None` at the end of each input.
    pub(crate) fn next_plain(&mut self, field: &[u8]) -> Result<Option<PlainRecord>, ReadError> {
        // Before and after the records kept, `next_record` skips or ends.
        if !self.keep.contains(&self.met) {
            return Ok(None);
        }
        let next = self
            .records
            .next_plain(field)
            .map_err(|e| io_error(self.name(), e))?;
        self.met += u64::from(next.is_some());
        Ok(next.map(|(line, differs)| PlainRecord {
            file: self.current as u32,
            line,
            differs,
        }))
    }

    /// Keeps what the input just opened says of its puzzle column, with its name.
    fn note_column(&self) {
        if let Some(column) = self.records.column_used() {
            let mut columns = self
                .columns
                .0
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let name = self.name().to_string();
            match columns.iter_mut().find(|(c, _)| *c == column) {
                Some((_, names)) if !names.contains(&name) => names.push(name),
                Some(_) => {}
                None => columns.push((column, vec![name])),
            }
        }
    }

    /// The name of the input being read, for messages.
    pub fn name(&self) -> &str {
        &self.names[self.current]
    }

    /// The names of every input, in order: [`Record::file`] indexes them.
    pub fn names(&self) -> Arc<[String]> {
        self.names.clone()
    }

    /// The inputs' total size in bytes, when they are files.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// A counter of the bytes read from the files so far (compressed bytes for gzip).
    pub fn bytes_read(&self) -> Arc<AtomicU64> {
        self.bytes_read.clone()
    }

    /// The puzzle columns of the inputs opened so far (CSV and Parquet), in words: which
    /// column, and how it was chosen. Each distinct one once, with the inputs it is for.
    pub fn columns(&self) -> ColumnsUsed {
        self.columns.clone()
    }
}

/// The puzzle columns of the inputs opened so far, as [`Reader::columns`] gives them; shared
/// with the reader, which adds to them as it opens inputs.
#[derive(Debug, Clone, Default)]
pub struct ColumnsUsed(Arc<Mutex<Vec<ColumnUsed>>>);

/// One puzzle column in words, and the names of the inputs it was said of.
type ColumnUsed = (String, Vec<String>);

impl ColumnsUsed {
    /// The summary's lines: each distinct column in words, and when the run has `many` inputs,
    /// the inputs it is for (the first three, and how many more).
    pub fn lines(&self, many: bool) -> Vec<String> {
        let columns = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        columns
            .iter()
            .map(|(column, names)| {
                if !many {
                    return column.clone();
                }
                let mut shown = names.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
                if names.len() > 3 {
                    shown += &format!(" and {} more", names.len() - 3);
                }
                format!("{shown}: {column}")
            })
            .collect()
    }
}

impl Iterator for Reader {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

/// The error for a failed read or open of the input `name`.
fn io_error(name: &str, source: io::Error) -> ReadError {
    ReadError::Io {
        path: name.to_string(),
        source,
    }
}

fn is_a_directory() -> io::Error {
    io::Error::new(io::ErrorKind::IsADirectory, "is a directory")
}

/// An invalid record's text for the `puzzle` column: cut to its first 256 bytes (then `...`),
/// invalid UTF-8 replaced by U+FFFD.
pub fn shown_text(bytes: &[u8]) -> String {
    let (shown, cut) = if bytes.len() > MAX_SHOWN_BYTES {
        (&bytes[..MAX_SHOWN_BYTES], "...")
    } else {
        (bytes, "")
    };
    // Text that is UTF-8, as nearly all is, is checked by `from_utf8`, which takes ASCII a word
    // at a time; `from_utf8_lossy` takes it a byte at a time.
    let mut text = match std::str::from_utf8(shown) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(shown).into_owned(),
    };
    text.push_str(cut);
    text
}

/// The record of a well-formed puzzle, with no expected solution.
fn puzzle(line: u64, grid: Grid) -> Record {
    Record {
        file: 0,
        line,
        input: RecordInput::Puzzle(grid),
        expected: None,
    }
}

/// The record of something that is not a puzzle, with the reason.
fn invalid(line: u64, bytes: &[u8], reason: impl ToString) -> Record {
    Record {
        file: 0,
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

mod open;

#[cfg(test)]
mod tests;
