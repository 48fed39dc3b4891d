//! The read stage: opening an input (file, stdin, gzip) and turning it into a stream of
//! [`Record`]s, one per puzzle record, each with its line number.
//!
//! Formats: text (one puzzle per line), CSV (one column holds the puzzle) and grid blocks (nine
//! rows of nine cells). A record that is not a puzzle becomes [`RecordInput::Invalid`] with the
//! reason, never an error: only I/O failures stop reading. No record is buffered beyond
//! [`MAX_RECORD_BYTES`], so memory stays flat whatever the input holds: lines are split by a
//! capped line reader, and CSV by a bounded RFC 4180 splitter of our own (the `csv` crate would
//! buffer a whole record, however long).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::grid::{CELLS, Grid, ParseError};

/// The longest record kept in memory, in bytes. A longer line becomes one `invalid` record
/// and the rest of it is skipped without being stored.
pub const MAX_RECORD_BYTES: usize = 64 * 1024;

/// How much of an invalid record's text is kept for the `puzzle` column.
const MAX_SHOWN_BYTES: usize = 256;

/// One record of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// 1-based line number where the record starts.
    pub line: u64,
    /// The puzzle, or why the record is not one.
    pub input: RecordInput,
    /// The solution the input states beside the puzzle, when [`ReadOptions::expect_column`]
    /// asks for one (`validate --expect-column`); `None` otherwise. Boxed, as few runs ask
    /// for it: records and rows are moved from stage to stage, and a grid here would make
    /// every record larger by half.
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
        let Some(field) = field.map(trim_ascii_ws).filter(|f| !f.is_empty()) else {
            return Expected::Missing;
        };
        if field.len() > MAX_RECORD_BYTES {
            return Expected::Malformed(format!(
                "{} bytes, longer than the limit of {MAX_RECORD_BYTES} bytes",
                field.len()
            ));
        }
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    /// The first column with one of the usual names (`puzzle`, `quizzes`, ...), else column 0.
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
    /// `-` is stdin, anything else a path.
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
#[derive(Debug, Clone)]
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

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: Format::Auto,
            column: Column::Auto,
            header: Header::Auto,
            expect_column: None,
        }
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

/// An opened input: a stream of records plus what is known of its size.
pub struct Reader {
    records: Box<dyn RecordSource>,
    name: String,
    /// Bytes read from the underlying file so far (compressed bytes for gzip).
    progress: Arc<AtomicU64>,
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

/// Something that yields records one at a time.
trait RecordSource: Send {
    fn next_record(&mut self) -> io::Result<Option<Record>>;
}

/// Decompresses `input`, gzip data. Never inlined: the decoder is built on the stack, some 50
/// KiB of it, and a function that built it in place would touch that much fresh stack (13 page
/// faults, about 25 µs here) on every run, gzip or not.
#[inline(never)]
fn gunzip(input: BufReader<Counting<Box<dyn Read + Send>>>) -> Box<dyn BufRead + Send> {
    Box::new(BufReader::with_capacity(
        BUF_SIZE,
        GzipErrors(flate2::bufread::MultiGzDecoder::new(input)),
    ))
}

/// Counts the bytes that pass through, for the progress bar, and keeps the first reads short.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
    /// The most the next read asks for: [`FIRST_READ`], doubling with each read.
    limit: usize,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let len = buf.len().min(self.limit);
        let n = self.inner.read(&mut buf[..len])?;
        self.limit = self.limit.saturating_mul(2);
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The read buffer's size: large reads for large inputs.
const BUF_SIZE: usize = 256 * 1024;

/// The smallest read buffer, for a file that says it is smaller.
const MIN_BUF_SIZE: usize = 8 * 1024;

/// The read buffer for an input of `size` bytes, if known: no larger than the file. A buffer
/// of [`BUF_SIZE`] is too large for the heap, so the allocator maps fresh memory for it and
/// unmaps it at the end; on a file of 100 puzzles that cost two system calls and 6 of the
/// process's 91 page faults, 3.7% of its time. A file that grows while it is read still
/// arrives whole, in more reads.
fn buffer_size(size: Option<u64>) -> usize {
    size.and_then(|n| usize::try_from(n).ok())
        .map_or(BUF_SIZE, |n| n.clamp(MIN_BUF_SIZE, BUF_SIZE))
}

/// The most the first read of an input asks for. Filling the whole buffer first meant writing
/// up to 256 KiB into freshly mapped memory before the first record could be parsed: about
/// 0.2 ms for top1465's 120 KB, while the solvers waited. Later reads double up to the buffer.
const FIRST_READ: usize = 16 * 1024;

/// The first two bytes of a gzip stream: an input that starts with them is decompressed.
pub(crate) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Says in decompression errors that the gzip data is at fault: flate2's own messages
/// ("incomplete deflate stream") do not tell a user that the file is truncated or corrupt.
struct GzipErrors<R>(R);

impl<R: Read> Read for GzipErrors<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                e
            } else {
                io::Error::new(e.kind(), format!("corrupt or truncated gzip data: {e}"))
            }
        })
    }
}

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
        let progress = Arc::new(AtomicU64::new(0));
        let counting = Counting {
            inner: raw,
            count: progress.clone(),
            limit: FIRST_READ,
        };
        let mut buffered = BufReader::with_capacity(buffer_size(size), counting);
        // The first read, retried when it comes back `Interrupted`, as every later one is
        // (`fill_buf!`).
        let is_gzip = loop {
            match buffered.fill_buf() {
                Ok(avail) => break avail.starts_with(&GZIP_MAGIC),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io_err(e)),
            }
        };
        let input: Box<dyn BufRead + Send> = if is_gzip {
            gunzip(buffered)
        } else {
            Box::new(buffered)
        };
        if options.expect_column.is_some() && format != Format::Csv {
            return Err(ReadError::Usage {
                path: name.clone(),
                message: "--expect-column needs CSV input (name it .csv or give --format csv)"
                    .into(),
            });
        }
        let records: Box<dyn RecordSource> = match format {
            Format::Text | Format::Auto => Box::new(TextRecords::new(input)),
            Format::Csv => Box::new(
                CsvRecords::new(
                    input,
                    &options.column,
                    options.header,
                    options.expect_column.as_ref(),
                )
                .map_err(|e| match e {
                    CsvOpenError::Io(e) => io_err(e),
                    CsvOpenError::Usage(message) => ReadError::Usage {
                        path: name.clone(),
                        message,
                    },
                })?,
            ),
            Format::Grid => Box::new(GridRecords::new(input)),
        };
        Ok(Reader {
            records,
            name,
            progress,
            size,
        })
    }

    /// Reads up to `max` records into `batch` (cleared first). Returns false at the end of the
    /// input, when nothing was read.
    pub fn read_batch(&mut self, batch: &mut Vec<Record>, max: usize) -> Result<bool, ReadError> {
        batch.clear();
        while batch.len() < max {
            match self.records.next_record() {
                Ok(Some(r)) => batch.push(r),
                Ok(None) => break,
                Err(e) => {
                    return Err(ReadError::Io {
                        path: self.name.clone(),
                        source: e,
                    });
                }
            }
        }
        Ok(!batch.is_empty())
    }

    /// Reads the next record.
    pub fn next_record(&mut self) -> Result<Option<Record>, ReadError> {
        self.records.next_record().map_err(|e| ReadError::Io {
            path: self.name.clone(),
            source: e,
        })
    }

    /// The input's name, for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The input's size in bytes, when it is a file.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// A counter of the bytes read from the file so far.
    pub fn progress_counter(&self) -> Arc<AtomicU64> {
        self.progress.clone()
    }
}

impl Iterator for Reader {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

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

fn shown_text(bytes: &[u8]) -> String {
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

fn too_long(line: u64, bytes: &[u8], total: u64) -> Record {
    invalid(
        line,
        bytes,
        format!("record of {total} bytes is longer than the limit of {MAX_RECORD_BYTES} bytes"),
    )
}

/// [`BufRead::fill_buf`] on `$inner`, retried when a signal interrupts the read (as
/// [`BufRead::read_until`] does); any other error is returned from the calling function, as
/// `?` would. A macro rather than a function: a function returning the buffer from inside its
/// retry loop is what the borrow checker cannot yet accept, and asking for the buffer twice
/// instead cost a virtual call per line (29 instructions a line of the 17-clue corpus).
macro_rules! fill_buf {
    ($inner:expr) => {
        loop {
            match $inner.fill_buf() {
                Ok(avail) => break avail,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    };
}
pub(super) use fill_buf;

/// Splits a byte stream into lines ended by `\n`, `\r\n` or a lone `\r`, keeping at most
/// [`MAX_RECORD_BYTES`] of each line and counting the rest.
struct Lines<R> {
    inner: R,
    line: u64,
    after_cr: bool,
}

impl<R: BufRead> Lines<R> {
    fn new(inner: R) -> Self {
        Lines {
            inner,
            line: 0,
            after_cr: false,
        }
    }

    /// The next line, parsed where it lies in the input's buffer, when it is the usual line of
    /// a text corpus: exactly 81 cell characters, then `\n` or `\r`, all of it buffered, and
    /// not the first line (which may start with a byte order mark). Such a line needs neither
    /// a search for its end (cell characters are no line ends) nor a copy: the whole `solve`
    /// process on 1,000 17-clue puzzles took 278 fewer instructions a line (17.11M to 16.83M).
    /// The `\n` of a `\r\n` line end is taken at the start of the next line, so that files
    /// with Windows line ends (tdoku's corpora among them) go this way too.
    /// Its line number and grid, or `None`, having read nothing, for every other line.
    fn next_plain_puzzle(&mut self) -> io::Result<Option<(u64, Grid)>> {
        if self.line == 0 {
            return Ok(None);
        }
        let avail = fill_buf!(self.inner);
        // After a line ended by `\r`, a `\n` completes that line end; anything else starts
        // the next line.
        let start = usize::from(self.after_cr && avail.first() == Some(&b'\n'));
        let Some(&end) = avail.get(start + CELLS) else {
            return Ok(None);
        };
        if end != b'\n' && end != b'\r' {
            return Ok(None);
        }
        let Some(grid) = Grid::parse_fast(&avail[start..start + CELLS]) else {
            return Ok(None);
        };
        self.after_cr = end == b'\r';
        self.inner.consume(start + CELLS + 1);
        self.line += 1;
        Ok(Some((self.line, grid)))
    }

    /// The next line into `buf`: its line number and full length, or `None` at the end.
    fn next_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<(u64, u64)>> {
        buf.clear();
        let mut total = 0u64;
        let mut any = false;
        loop {
            let avail = fill_buf!(self.inner);
            if avail.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            if self.after_cr {
                self.after_cr = false;
                if avail[0] == b'\n' {
                    self.inner.consume(1);
                    continue;
                }
            }
            any = true;
            let (take, end) = match line_end(avail) {
                Some(i) => {
                    self.after_cr = avail[i] == b'\r';
                    (i, Some(i + 1))
                }
                None => (avail.len(), None),
            };
            let room = MAX_RECORD_BYTES.saturating_sub(buf.len());
            buf.extend_from_slice(&avail[..take.min(room)]);
            total += take as u64;
            self.inner.consume(end.unwrap_or(take));
            if end.is_some() {
                break;
            }
        }
        self.line += 1;
        Ok(Some((self.line, total)))
    }
}

/// Where the line at the start of `bytes` ends: the first `\n` or `\r`.
///
/// On x86_64 it asks memchr's SSE2 searcher directly. SSE2 is part of that architecture's
/// baseline, so the searcher needs no feature detection, whereas `memchr::memchr2` first asks
/// whether the processor has AVX2. That question runs std's feature detection, several `cpuid`
/// instructions, and under a hypervisor each one traps: 52-61 µs of every process on the KVM
/// guest of BENCHMARKS.md, for lines of about a hundred bytes where AVX2 gains nothing.
fn line_end(bytes: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(finder) = memchr::arch::x86_64::sse2::memchr::Two::new(b'\n', b'\r') {
        return finder.find(bytes);
    }
    memchr::memchr2(b'\n', b'\r', bytes)
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

fn trim_ascii_ws(b: &[u8]) -> &[u8] {
    b.trim_ascii()
}

/// Text records: one puzzle per line.
struct TextRecords<R> {
    lines: Lines<R>,
    buf: Vec<u8>,
}

impl<R: BufRead> TextRecords<R> {
    fn new(inner: R) -> Self {
        TextRecords {
            lines: Lines::new(inner),
            buf: Vec::with_capacity(256),
        }
    }
}

impl<R: BufRead + Send> RecordSource for TextRecords<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        if let Some((line, g)) = self.lines.next_plain_puzzle()? {
            return Ok(Some(puzzle(line, g)));
        }
        while let Some((line, total)) = self.lines.next_line(&mut self.buf)? {
            let mut bytes = &self.buf[..];
            if line == 1 {
                bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
            }
            let trimmed = trim_ascii_ws(bytes);
            if trimmed.is_empty() || trimmed[0] == b'#' {
                continue;
            }
            if total > MAX_RECORD_BYTES as u64 {
                return Ok(Some(too_long(line, bytes, total)));
            }
            return Ok(Some(match Grid::parse_bytes(bytes) {
                Ok(g) => puzzle(line, g),
                Err(e) => invalid(line, bytes, e),
            }));
        }
        Ok(None)
    }
}

enum CsvOpenError {
    Io(io::Error),
    Usage(String),
}

/// One CSV record split into fields. At most [`MAX_RECORD_BYTES`] of field data are kept; the
/// rest of a longer record is counted in `total` and dropped.
#[derive(Debug, Default, Clone)]
struct CsvRow {
    data: Vec<u8>,
    /// End of each field in `data`.
    ends: Vec<usize>,
    /// 1-based line where the record starts.
    line: u64,
    /// Bytes of the record in the input, delimiters and quotes included.
    total: u64,
    /// The record ended at the end of the input inside a quoted field.
    open_quote: bool,
}

impl CsvRow {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, i: usize) -> Option<&[u8]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.data[start..end])
    }

    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The record's fields joined by commas, for an invalid record's `puzzle` column.
    fn joined(&self) -> Vec<u8> {
        self.iter().collect::<Vec<_>>().join(&b","[..])
    }
}

/// Where the CSV splitter stands within a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CsvState {
    /// At the start of a field.
    FieldStart,
    /// Inside an unquoted field (or after the closing quote of a quoted one).
    Unquoted,
    /// Inside a quoted field.
    Quoted,
    /// Just after a quote inside a quoted field: `""` is a quote, anything else closes it.
    QuoteInQuoted,
}

/// Splits RFC 4180 CSV into records without ever holding more than [`MAX_RECORD_BYTES`] of one:
/// the `csv` crate buffers a whole record, so a 1 GB field (or an unbalanced quote that runs to
/// the end of a huge file) would be read into memory. Quoted fields may span lines (`""` is a
/// quote); records end at LF, CRLF or a lone CR outside quotes; empty lines are skipped; text
/// after a closing quote is appended to the field, as the `csv` crate does.
struct CsvSplitter<R> {
    inner: R,
    /// Line breaks consumed so far.
    line: u64,
    /// The last byte consumed was a CR, so a LF right after it is part of the same line break.
    after_cr: bool,
    started: bool,
}

impl<R: BufRead> CsvSplitter<R> {
    fn new(inner: R) -> Self {
        CsvSplitter {
            inner,
            line: 0,
            after_cr: false,
            started: false,
        }
    }

    /// Reads the next record into `row`; false at the end of the input.
    fn next_row(&mut self, row: &mut CsvRow) -> io::Result<bool> {
        if !self.started {
            self.started = true;
            if fill_buf!(self.inner).starts_with(BOM) {
                self.inner.consume(BOM.len());
            }
        }
        row.data.clear();
        row.ends.clear();
        row.total = 0;
        row.open_quote = false;
        row.line = self.line + 1;
        let mut state = CsvState::FieldStart;
        let mut in_record = false;
        loop {
            let avail = fill_buf!(self.inner);
            if avail.is_empty() {
                if !in_record {
                    return Ok(false);
                }
                row.open_quote = state == CsvState::Quoted;
                row.ends.push(row.data.len());
                return Ok(true);
            }
            let mut used = 0;
            let mut done = false;
            for &b in avail {
                used += 1;
                let after_cr = std::mem::replace(&mut self.after_cr, b == b'\r');
                let line_break = b == b'\r' || (b == b'\n' && !after_cr);
                if line_break {
                    self.line += 1;
                }
                if !in_record {
                    if b == b'\r' || b == b'\n' {
                        row.line = self.line + 1; // an empty line: not a record
                        continue;
                    }
                    in_record = true;
                }
                let is_eol = b == b'\r' || b == b'\n';
                if state == CsvState::QuoteInQuoted {
                    if b == b'"' {
                        state = CsvState::Quoted;
                        row.total += 1;
                        push_capped(&mut row.data, b);
                        continue;
                    }
                    state = CsvState::Unquoted;
                }
                if state == CsvState::Quoted {
                    row.total += 1;
                    if b == b'"' {
                        state = CsvState::QuoteInQuoted;
                    } else {
                        push_capped(&mut row.data, b);
                    }
                    continue;
                }
                if is_eol {
                    // A CRLF's LF was counted with its CR; either ends the record.
                    done = true;
                    break;
                }
                row.total += 1;
                match b {
                    b',' => {
                        row.ends.push(row.data.len());
                        state = CsvState::FieldStart;
                    }
                    b'"' if state == CsvState::FieldStart => state = CsvState::Quoted,
                    _ => {
                        state = CsvState::Unquoted;
                        push_capped(&mut row.data, b);
                    }
                }
            }
            self.inner.consume(used);
            if done {
                row.ends.push(row.data.len());
                return Ok(true);
            }
        }
    }
}

fn push_capped(data: &mut Vec<u8>, b: u8) {
    if data.len() < MAX_RECORD_BYTES {
        data.push(b);
    }
}

/// CSV records: the puzzle is one column of each row.
struct CsvRecords<R> {
    splitter: CsvSplitter<R>,
    column: usize,
    /// The column of the stated solution, when asked for.
    expect: Option<usize>,
    record: CsvRow,
    /// The first row, when it turned out not to be a header.
    pending: Option<CsvRow>,
}

impl<R: BufRead> CsvRecords<R> {
    fn new(
        input: R,
        column: &Column,
        header: Header,
        expect: Option<&Column>,
    ) -> Result<Self, CsvOpenError> {
        let mut splitter = CsvSplitter::new(input);
        let mut first = CsvRow::default();
        let has_first = splitter.next_row(&mut first).map_err(CsvOpenError::Io)?;
        let is_header = has_first
            && match header {
                Header::Yes => true,
                Header::No => false,
                Header::Auto => {
                    matches!(column, Column::Name(_))
                        || matches!(expect, Some(Column::Name(_)))
                        || !first.iter().any(|f| Grid::parse_bytes(f).is_ok())
                }
            };
        let names: Vec<String> = if is_header {
            first
                .iter()
                .map(|f| String::from_utf8_lossy(f).trim().to_ascii_lowercase())
                .collect()
        } else {
            Vec::new()
        };
        let column = resolve_column(column, &PUZZLE_COLUMN_NAMES, Some(0), &names, is_header)?;
        let expect = expect
            .map(|c| resolve_column(c, &SOLUTION_COLUMN_NAMES, None, &names, is_header))
            .transpose()?;
        Ok(CsvRecords {
            splitter,
            column,
            expect,
            record: CsvRow::default(),
            pending: (has_first && !is_header).then_some(first),
        })
    }
}

/// The index of `column` given the header's lower-cased `names` (empty without a header).
/// [`Column::Auto`] takes the first of `auto_names` in the header, else `fallback`.
fn resolve_column(
    column: &Column,
    auto_names: &[&str],
    fallback: Option<usize>,
    names: &[String],
    is_header: bool,
) -> Result<usize, CsvOpenError> {
    match column {
        Column::Index(i) => Ok(*i),
        Column::Auto => auto_names
            .iter()
            .find_map(|want| names.iter().position(|n| n == want))
            .or(fallback)
            .ok_or_else(|| {
                CsvOpenError::Usage(format!(
                    "no column named {} found for the stated solution",
                    auto_names.join(" or ")
                ))
            }),
        Column::Name(want) => {
            let want_lc = want.trim().to_ascii_lowercase();
            match names.iter().position(|n| *n == want_lc) {
                Some(i) => Ok(i),
                None if !is_header => Err(CsvOpenError::Usage(format!(
                    "column {want:?} not found: the input has no header row"
                ))),
                None => Err(CsvOpenError::Usage(format!(
                    "column {want:?} not found; the header has: {}",
                    names.join(", ")
                ))),
            }
        }
    }
}

impl<R: BufRead + Send> RecordSource for CsvRecords<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        if let Some(first) = self.pending.take() {
            self.record = first;
        } else if !self.splitter.next_row(&mut self.record)? {
            return Ok(None);
        }
        let row = &self.record;
        let line = row.line;
        let expected = self.expect.map(|i| Box::new(Expected::parse(row.get(i))));
        let mut record = if row.total > MAX_RECORD_BYTES as u64 {
            too_long(line, &row.joined(), row.total)
        } else if row.open_quote {
            invalid(
                line,
                &row.joined(),
                "unbalanced quote: a quoted field runs to the end of the input",
            )
        } else {
            match row.get(self.column) {
                None => invalid(
                    line,
                    &row.joined(),
                    format!(
                        "no column {} (the row has {} fields)",
                        self.column + 1,
                        row.len()
                    ),
                ),
                Some(field) => match Grid::parse_bytes(trim_ascii_ws(field)) {
                    Ok(g) => puzzle(line, g),
                    Err(e) => invalid(line, field, e),
                },
            }
        };
        record.expected = expected;
        Ok(Some(record))
    }
}

/// Grid blocks: nine rows of nine cells, as the source material writes its arrays. A block
/// ends after its ninth row or at a blank line; lines of only rules, braces or brackets are
/// skipped, so C- or JSON-style arrays read as they are written.
struct GridRecords<R> {
    lines: Lines<R>,
    buf: Vec<u8>,
    cells: Vec<u8>,
    /// Text of the block so far, for an invalid record's `puzzle` column.
    text: Vec<u8>,
}

impl<R: BufRead> GridRecords<R> {
    fn new(inner: R) -> Self {
        GridRecords {
            lines: Lines::new(inner),
            buf: Vec::new(),
            cells: Vec::with_capacity(81),
            text: Vec::new(),
        }
    }
}

/// The cells of one grid row, or why it is not one: cells are digits, `0` `.` `_` `-1` blanks,
/// separated by spaces, commas or `|`; braces and brackets are ignored. A row of only `-` `+`
/// `=` (and spaces) is a separator and gives no cells.
fn grid_row_cells(line: &[u8], cells: &mut Vec<u8>) -> Result<(), ParseError> {
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        match b {
            b'-' if line.get(i + 1) == Some(&b'1') => {
                cells.push(0);
                i += 2;
                continue;
            }
            b'1'..=b'9' => cells.push(b - b'0'),
            b'0' | b'.' | b'_' => cells.push(0),
            b' ' | b'\t' | b',' | b'|' | b'{' | b'}' | b'[' | b']' | b'(' | b')' | b';' => {}
            b'-' | b'+' | b'=' => {}
            _ => {
                let mut probe = Vec::from(&line[i..]);
                probe.truncate(4);
                return Err(match Grid::parse_bytes(&probe) {
                    Err(ParseError::UnexpectedChar { found, .. }) => ParseError::UnexpectedChar {
                        cell: cells.len() + 1,
                        found,
                    },
                    _ => ParseError::InvalidUtf8 {
                        cell: cells.len() + 1,
                        byte: b,
                    },
                });
            }
        }
        i += 1;
    }
    Ok(())
}

impl<R: BufRead + Send> RecordSource for GridRecords<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        self.cells.clear();
        self.text.clear();
        let mut start = 0u64;
        let mut rows = 0;
        let mut error: Option<String> = None;
        while let Some((line, total)) = self.lines.next_line(&mut self.buf)? {
            let mut bytes = &self.buf[..];
            if line == 1 {
                bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
            }
            let trimmed = trim_ascii_ws(bytes);
            // Rules (`---+---`), lone braces or brackets: no cells, not a row.
            let is_separator = trimmed.iter().all(|b| b" \t-+=|{}[]();,".contains(b))
                && !trimmed.windows(2).any(|w| w == b"-1");
            if trimmed.is_empty() || trimmed[0] == b'#' || (is_separator && !trimmed.is_empty()) {
                if rows == 0 {
                    continue; // between blocks
                }
                if trimmed.is_empty() || trimmed[0] == b'#' {
                    break; // a blank line ends a short block
                }
                continue; // a separator row inside a block
            }
            if rows == 0 {
                start = line;
            }
            rows += 1;
            if !self.text.is_empty() {
                self.text.push(b'\n');
            }
            if self.text.len() < MAX_SHOWN_BYTES {
                self.text.extend_from_slice(trimmed);
            }
            if total > MAX_RECORD_BYTES as u64 {
                error.get_or_insert(format!(
                    "line {line} of {total} bytes is longer than the limit of {MAX_RECORD_BYTES} bytes"
                ));
            } else if error.is_none() {
                let before = self.cells.len();
                if let Err(e) = grid_row_cells(trimmed, &mut self.cells) {
                    error = Some(e.to_string());
                } else if self.cells.len() - before != 9 {
                    error = Some(format!(
                        "line {line}: {} cells in a grid row, expected 9",
                        self.cells.len() - before
                    ));
                }
            }
            if rows == 9 {
                break;
            }
        }
        if rows == 0 {
            return Ok(None);
        }
        if error.is_none() && rows != 9 {
            error = Some(format!("{rows} rows, expected 9"));
        }
        Ok(Some(match error {
            Some(reason) => invalid(start, &self.text, reason),
            None => {
                let mut cells = [0u8; 81];
                cells.copy_from_slice(&self.cells);
                match Grid::from_cells(cells) {
                    Ok(g) => puzzle(start, g),
                    Err(e) => invalid(start, &self.text, e),
                }
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_input::Interrupting;
    use super::*;

    const P1: &str =
        "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";

    /// A byte source that notes how much each read asks for.
    struct Asked {
        data: io::Cursor<Vec<u8>>,
        asked: Arc<std::sync::Mutex<Vec<usize>>>,
    }

    impl Read for Asked {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.asked.lock().unwrap().push(buf.len());
            self.data.read(buf)
        }
    }

    #[test]
    fn line_end_finds_the_first_newline_or_carriage_return() {
        // Lengths across the searcher's 16- and 64-byte steps, line ends at every offset,
        // and bytes that differ from the two needles in one bit.
        let mut rng = crate::generate::Rng::new(3);
        let alphabet = [
            b'.', b'1', b'9', b'\n', b'\r', b'\x0B', b'\x0C', b'\x8A', b'\x8D',
        ];
        for len in 0..300 {
            for _ in 0..20 {
                let mut bytes: Vec<u8> = (0..len).map(|_| alphabet[rng.below(3)]).collect();
                for _ in 0..rng.below(3) {
                    if len > 0 {
                        let at = rng.below(len);
                        bytes[at] = alphabet[3 + rng.below(6)];
                    }
                }
                let expected = bytes.iter().position(|&b| b == b'\n' || b == b'\r');
                assert_eq!(line_end(&bytes), expected, "{bytes:?}");
            }
        }
    }

    #[test]
    fn first_reads_are_short_and_every_record_and_byte_arrives() {
        let text: String = (0..20_000).map(|_| format!("{P1}\n")).collect();
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let input = Asked {
            data: io::Cursor::new(text.clone().into_bytes()),
            asked: asked.clone(),
        };
        let mut reader = Reader::from_reader("memory", input, &ReadOptions::default()).unwrap();
        let counter = reader.progress_counter();
        let mut records = 0;
        while let Some(r) = reader.next_record().unwrap() {
            records += 1;
            assert_eq!(r.line, records);
        }
        assert_eq!(records, 20_000);
        assert_eq!(counter.load(Ordering::Relaxed), text.len() as u64);
        let asked = asked.lock().unwrap();
        // 16, 32, 64, 128 KiB, then the whole buffer.
        assert_eq!(
            asked[..5],
            [
                FIRST_READ,
                2 * FIRST_READ,
                4 * FIRST_READ,
                8 * FIRST_READ,
                BUF_SIZE
            ]
        );
        assert!(asked[5..].iter().all(|&n| n == BUF_SIZE), "{asked:?}");
    }

    #[test]
    fn the_buffer_fits_a_small_file_and_caps_a_large_one() {
        assert_eq!(buffer_size(None), BUF_SIZE);
        assert_eq!(buffer_size(Some(1)), MIN_BUF_SIZE);
        assert_eq!(buffer_size(Some(8_200)), 8_200);
        assert_eq!(buffer_size(Some(1 << 40)), BUF_SIZE);
        // A file that grows after it was measured is still read to its end.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("growing.txt");
        std::fs::write(&path, format!("{P1}\n")).unwrap();
        let mut reader =
            Reader::open(&Source::Path(path.clone()), &ReadOptions::default()).unwrap();
        let more: String = (0..1_000).map(|_| format!("{P1}\n")).collect();
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        io::Write::write_all(&mut file, more.as_bytes()).unwrap();
        let mut records = 0;
        while reader.next_record().unwrap().is_some() {
            records += 1;
        }
        assert_eq!(records, 1_001);
    }

    fn read_all(bytes: &[u8], format: Format) -> Vec<Record> {
        read_all_from(Box::new(io::Cursor::new(bytes.to_vec())), format)
    }

    fn read_all_from(input: Box<dyn BufRead + Send>, format: Format) -> Vec<Record> {
        let mut src: Box<dyn RecordSource> = match format {
            Format::Csv => Box::new(
                CsvRecords::new(input, &Column::Auto, Header::Auto, None)
                    .unwrap_or_else(|_| panic!("csv open")),
            ),
            Format::Grid => Box::new(GridRecords::new(input)),
            _ => Box::new(TextRecords::new(input)),
        };
        let mut out = Vec::new();
        while let Some(r) = src.next_record().unwrap() {
            out.push(r);
        }
        out
    }

    #[test]
    fn reads_interrupted_by_a_signal_are_retried() {
        let rows: String = P1
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect();
        let inputs = [
            (
                format!("\u{feff}# c\n{P1}\r\n{P1} x\n\n{P1}\r{P1}\n{P1}"),
                Format::Text,
            ),
            (
                format!("\u{feff}id,puzzle\n1,{P1}\n2,\"{P1}\"\r\n3,x\n"),
                Format::Csv,
            ),
            (format!("{rows}\n{rows}"), Format::Grid),
        ];
        for (input, format) in inputs {
            let whole = summary(&read_all(input.as_bytes(), format));
            assert!(whole.len() >= 2, "{format:?}");
            // A small buffer sends lines the general way, a large one in place.
            for capacity in [16, 8192] {
                let interrupting = Interrupting::new(input.clone().into_bytes());
                let input = Box::new(BufReader::with_capacity(capacity, interrupting));
                assert_eq!(summary(&read_all_from(input, format)), whole, "{format:?}");
            }
        }
    }

    #[test]
    fn a_first_read_interrupted_by_a_signal_is_retried() {
        // The first read looks for the gzip magic; here it fails with `Interrupted` first.
        let interrupting = Interrupting::new(format!("{P1}\n{P1}\n").into_bytes());
        let reader = Reader::from_reader("memory", interrupting, &ReadOptions::default());
        let records: Vec<_> = reader.unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(
            summary(&records),
            summary(&read_all(format!("{P1}\n{P1}\n").as_bytes(), Format::Text))
        );
        assert_eq!(records.len(), 2);
    }

    #[test]
    fn lines_read_in_place_match_the_general_reader() {
        // A line of exactly 81 cells is parsed where it lies in the input's buffer; a buffer
        // too small to hold one sends every line through the general reader. Both must give
        // the same records, whatever the line ends and wherever the buffer cuts a line.
        let lines = [
            P1.to_string(),
            P1.replace('.', "0"),
            format!("{P1} comment"),
            format!("{P1},x"),
            P1[..80].to_string(),
            format!("{}x", &P1[..80]),
            format!("{P1}1"),
            "# comment".to_string(),
            String::new(),
            "  ".to_string(),
        ];
        let ends = ["\n", "\r\n", "\r"];
        let mut rng = crate::generate::Rng::new(5);
        let read = |input: &str, capacity: usize| {
            let buffered = BufReader::with_capacity(capacity, io::Cursor::new(input.to_owned()));
            let mut src = TextRecords::new(buffered);
            let mut out = Vec::new();
            while let Some(r) = src.next_record().unwrap() {
                out.push(r);
            }
            out
        };
        for _ in 0..300 {
            let mut input = String::new();
            for _ in 0..rng.below(12) {
                input += &lines[rng.below(lines.len())];
                input += ends[rng.below(ends.len())];
            }
            if rng.below(2) == 0 {
                input += P1; // a last line with no end
            }
            let general = read(&input, 16);
            for capacity in [82, 83, 100, 164, 8192] {
                assert_eq!(read(&input, capacity), general, "{input:?} at {capacity}");
            }
        }
    }

    fn summary(records: &[Record]) -> Vec<(u64, String)> {
        records
            .iter()
            .map(|r| match &r.input {
                RecordInput::Puzzle(g) => (r.line, g.to_string()),
                RecordInput::Invalid { reason, .. } => (r.line, format!("invalid: {reason}")),
            })
            .collect()
    }

    #[test]
    fn text_skips_comments_and_blank_lines_and_counts_lines() {
        let input = format!(
            "\u{feff}# header\r\n\r\n{P1}\r\n   \n{P1} 7.1\rxyz\n{}",
            &P1[..80]
        );
        let got = summary(&read_all(input.as_bytes(), Format::Text));
        assert_eq!(
            got,
            vec![
                (3, P1.to_string()),
                (5, P1.to_string()),
                (6, "invalid: cell 1: unexpected character 'x'".to_string()),
                (7, "invalid: 80 cells, expected 81".to_string()),
            ]
        );
    }

    #[test]
    fn overlong_line_is_one_invalid_record_and_is_not_kept() {
        let mut input = vec![b'1'; MAX_RECORD_BYTES * 3];
        input.extend_from_slice(format!("\n{P1}\n").as_bytes());
        let records = read_all(&input, Format::Text);
        assert_eq!(records.len(), 2);
        let RecordInput::Invalid { text, reason } = &records[0].input else {
            panic!("expected invalid")
        };
        assert!(reason.starts_with(&format!("record of {} bytes", MAX_RECORD_BYTES * 3)));
        assert!(text.len() < 300);
        assert_eq!(records[1].line, 2);
    }

    #[test]
    fn csv_detects_header_and_puzzle_column() {
        let input = format!(
            "id,Puzzle,solution\n1,{P1},x\n2,\"{}\",y\n3\n",
            P1.replace('.', "0")
        );
        let got = summary(&read_all(input.as_bytes(), Format::Csv));
        assert_eq!(
            got,
            vec![
                (2, P1.to_string()),
                (3, P1.to_string()),
                (4, "invalid: no column 2 (the row has 1 fields)".to_string()),
            ]
        );
    }

    /// The splitter splits well-formed CSV into the same fields as the `csv` crate, and numbers
    /// lines by every line break (the `csv` crate's positions lag behind after CRLF).
    #[test]
    fn csv_splitter_agrees_with_the_csv_crate() {
        let input = b"\xEF\xBB\xBFa,b,c\r\n\"x,y\",\"he said \"\"hi\"\"\",\r\n\n\"multi\nline\",2,3\rlast,,\"\"";
        let mut ours = Vec::new();
        let mut splitter = CsvSplitter::new(&input[..]);
        let mut row = CsvRow::default();
        while splitter.next_row(&mut row).unwrap() {
            let fields: Vec<Vec<u8>> = row.iter().map(<[u8]>::to_vec).collect();
            ours.push((row.line, fields));
        }
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(&input[3..]);
        let theirs: Vec<Vec<Vec<u8>>> = reader
            .byte_records()
            .map(|r| {
                let r = r.unwrap();
                r.iter().map(<[u8]>::to_vec).collect()
            })
            .collect();
        let (lines, fields): (Vec<u64>, Vec<_>) = ours.into_iter().unzip();
        assert_eq!(fields, theirs);
        assert_eq!(lines, [1, 2, 4, 6]);
    }

    #[test]
    fn csv_without_header_uses_column_zero() {
        let input = format!("{P1},comment\n{P1}\n");
        let got = summary(&read_all(input.as_bytes(), Format::Csv));
        assert_eq!(got, vec![(1, P1.to_string()), (2, P1.to_string())]);
    }

    #[test]
    fn csv_reads_the_stated_solution_column() {
        let sol = "1".repeat(81);
        let input = format!(
            "puzzle,Solution\n{P1},{sol}\n{P1},{}\n{P1},\n{P1}\n{P1},12x\n",
            &P1.replace('.', "1")[..]
        );
        let mut src = CsvRecords::new(
            io::Cursor::new(input.into_bytes()),
            &Column::Auto,
            Header::Auto,
            Some(&Column::Name("solution".into())),
        )
        .unwrap_or_else(|_| panic!("csv open"));
        let mut got = Vec::new();
        while let Some(r) = src.next_record().unwrap() {
            got.push(r.expected.map(|e| *e));
        }
        let blanks = P1.replace('.', "1");
        assert_eq!(blanks.len(), 81);
        assert_eq!(
            got,
            vec![
                Some(Expected::Grid(sol.parse().unwrap())),
                Some(Expected::Grid(blanks.parse().unwrap())),
                Some(Expected::Missing),
                Some(Expected::Missing),
                Some(Expected::Malformed(
                    "cell 3: unexpected character 'x'".into()
                )),
            ]
        );
        let mut half = P1.to_string();
        half.replace_range(..1, "1");
        assert_eq!(
            Expected::parse(Some(half.as_bytes())),
            Expected::Malformed("56 blank cells".into())
        );
    }

    #[test]
    fn csv_column_name_missing_is_a_usage_error() {
        let input = io::Cursor::new(b"a,b\n1,2\n".to_vec());
        let Err(CsvOpenError::Usage(m)) =
            CsvRecords::new(input, &Column::Name("puzzle".into()), Header::Auto, None)
        else {
            panic!("expected a usage error")
        };
        assert_eq!(m, "column \"puzzle\" not found; the header has: a, b");
    }

    #[test]
    fn grid_blocks_in_every_style() {
        let braces = "{ -1,-1,2,9,-1,-1,-1,-1,-1},\n\
                      { -1,-1,-1,-1,-1,-1,8,-1,5},\n\
                      { -1,5,8,-1,-1,-1,7,-1,-1},\n\
                      { 1,-1,9,-1,3,-1,-1,-1,-1},\n\
                      { -1,-1,-1,-1,7,8,-1,-1,-1},\n\
                      { -1,-1,6,-1,-1,-1,-1,3,-1},\n\
                      { 9,4,-1,-1,5,-1,-1,-1,1},\n\
                      { -1,-1,-1,-1,-1,7,-1,-1,9},\n\
                      { 6,8,-1,-1,-1,3,5,-1,-1},\n";
        let pretty = ". . 2 | 9 . . | . . .\n. . . | . . . | 8 . 5\n. 5 8 | . . . | 7 . .\n\
                      ------+-------+------\n1 . 9 | . 3 . | . . .\n. . . | . 7 8 | . . .\n\
                      . . 6 | . . . | . 3 .\n======+=======+======\n9 4 . | . 5 . | . . 1\n\
                      . . . | . . 7 | . . 9\n6 8 . | . . 3 | 5 . .\n";
        let input = format!("{braces}\n\n{pretty}{braces}");
        let got = summary(&read_all(input.as_bytes(), Format::Grid));
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0], (1, P1.to_string()));
        assert_eq!(got[1], (12, P1.to_string()));
        assert_eq!(got[2], (23, P1.to_string()));
    }

    #[test]
    fn grid_short_block_is_invalid_and_reading_goes_on() {
        let input = "1 2 3 4 5 6 7 8 9\n\n. . 2 x . . . . .\n\n";
        let got = summary(&read_all(input.as_bytes(), Format::Grid));
        assert_eq!(
            got,
            vec![
                (1, "invalid: 1 rows, expected 9".to_string()),
                (3, "invalid: cell 4: unexpected character 'x'".to_string()),
            ]
        );
    }
}
