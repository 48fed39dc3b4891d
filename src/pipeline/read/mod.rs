//! The read stage: opening a run's inputs (files, directories or stdin, compressed ones
//! decompressed on the fly) and turning them into one stream of [`Record`]s, one per puzzle
//! record, each with its input and the line where it starts.
//!
//! One file per format: `text` (one puzzle per line), `csv` (one column holds the puzzle),
//! `grid` (blocks of nine rows of nine cells) and `parquet` (one column of a Parquet file);
//! `lines` splits lines for text and grids; `inputs` turns the command line's inputs into the
//! list of files read in turn ([`Source`]s); `open` opens one input (decompression, format);
//! `shard` finds the records of one part of a run (`--shard K/N`); `options` holds what a run
//! is told about its inputs and the errors that stop reading, `record` the records. A record
//! that is not a puzzle becomes [`RecordInput::Invalid`] with the reason, never an error: only
//! I/O failures and options that do not fit the input stop reading. No record is held in memory beyond
//! [`MAX_RECORD_BYTES`], so memory stays flat whatever the input holds.

pub(crate) mod compressed;
pub(crate) mod csv;
mod grid;
pub mod inputs;
mod lines;
mod options;
#[cfg(feature = "parquet")]
mod parquet;
mod record;
mod shard;
mod text;

pub use inputs::Source;
use open::{Stream, format_of, open_one, open_slice, open_stream};
pub use options::{
    Column, Format, Header, PUZZLE_COLUMN_NAMES, ReadError, ReadOptions, SOLUTION_COLUMN_NAMES,
};
pub(crate) use record::PlainRecord;
pub use record::{Expected, Record, RecordInput};
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

/// [`BufRead::fill_buf`](std::io::BufRead::fill_buf) on `$inner`, retried when a signal interrupts the read (as
/// [`BufRead::read_until`](std::io::BufRead::read_until) does); any other error is returned from the calling function, as
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
