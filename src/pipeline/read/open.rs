//! Opening one input of a run: a file or stdin, decompressed as its first bytes say, read in
//! its format (text, CSV, grid blocks or Parquet), its bytes counted for the progress bar; or
//! a shard's slice of a plain file, read as the file's start says.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::shard::Slice;
use super::{
    BUF_SIZE, Format, MIN_BUF_SIZE, ReadError, ReadOptions, RecordSource, Source, compressed, csv,
    grid, io_error, is_a_directory, text,
};

/// Counts the bytes that pass through, for the progress bar.
pub(super) struct Counting<R> {
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

/// The format `source` is read in with `options`.
pub(super) fn format_of(source: &Source, options: &ReadOptions) -> Format {
    match options.format {
        Format::Auto => source.guess_format(),
        f => f,
    }
}

/// An input's bytes before any decoding, and how to read them.
pub(super) struct Stream<'a> {
    pub(super) name: &'a str,
    pub(super) raw: Box<dyn Read + Send>,
    pub(super) format: Format,
    /// Tab-separated unless told otherwise.
    pub(super) tsv: bool,
    /// Its size in bytes, when it is a file.
    pub(super) size: Option<u64>,
}

/// Opens one input of a run, counting the bytes read from it into `bytes_read`. An input
/// copied to `spool` (for a shard, as it can be read only once) is read from the copy.
pub(super) fn open_one(
    source: &Source,
    options: &ReadOptions,
    bytes_read: &Arc<AtomicU64>,
    spool: Option<&File>,
) -> Result<Box<dyn RecordSource>, ReadError> {
    let name = source.display_name();
    let format = format_of(source, options);
    // The copy shares its offset with the spool: each reading starts at 0.
    let spooled = |spool: &File| {
        let mut copy = spool.try_clone()?;
        copy.rewind()?;
        Ok(copy)
    };
    let spooled = |spool| spooled(spool).map_err(|e| io_error(&name, e));
    let mut size = None;
    let raw: Box<dyn Read + Send> = match source {
        Source::Stdin if format == Format::Parquet => {
            return Err(ReadError::Usage {
                path: name,
                message: "Parquet input must be a file: it is read from its end".into(),
            });
        }
        Source::Stdin => match spool {
            Some(spool) => Box::new(spooled(spool)?),
            None => Box::new(io::stdin()),
        },
        Source::Path(p) => {
            let file = match spool {
                Some(spool) => spooled(spool)?,
                None => File::open(p).map_err(|e| io_error(&name, e))?,
            };
            let meta = file.metadata().map_err(|e| io_error(&name, e))?;
            if meta.is_dir() {
                return Err(io_error(&name, is_a_directory()));
            }
            size = Some(meta.len());
            if format == Format::Parquet {
                return open_parquet(&name, file, options, bytes_read);
            }
            Box::new(file)
        }
    };
    let stream = Stream {
        name: &name,
        raw,
        format,
        tsv: source.is_tsv(),
        size,
    };
    open_stream(stream, options, bytes_read)
}

/// Opens a Parquet file.
#[cfg(feature = "parquet")]
fn open_parquet(
    name: &str,
    file: File,
    options: &ReadOptions,
    bytes_read: &Arc<AtomicU64>,
) -> Result<Box<dyn RecordSource>, ReadError> {
    let records = super::parquet::ParquetRecords::open(name, file, options, bytes_read.clone())?;
    Ok(Box::new(records))
}

/// Parquet input needs the cargo feature `parquet`.
#[cfg(not(feature = "parquet"))]
fn open_parquet(
    name: &str,
    _: File,
    _: &ReadOptions,
    _: &Arc<AtomicU64>,
) -> Result<Box<dyn RecordSource>, ReadError> {
    Err(ReadError::Usage {
        path: name.to_string(),
        message: "this build reads no Parquet (it was built without the cargo feature `parquet`)"
            .into(),
    })
}

/// Opens a byte stream in a line or CSV format: compression detected by its first bytes.
pub(super) fn open_stream(
    stream: Stream,
    options: &ReadOptions,
    bytes_read: &Arc<AtomicU64>,
) -> Result<Box<dyn RecordSource>, ReadError> {
    let (name, format, tsv) = (stream.name, stream.format, stream.tsv);
    let input = decoded(stream, bytes_read)?;
    Ok(match format {
        Format::Text | Format::Auto => Box::new(text::TextRecords::new(input, options.field)),
        Format::Csv => Box::new(open_csv(name, input, tsv, options)?),
        Format::Grid => Box::new(grid::GridRecords::new(input)),
        Format::Parquet => {
            return Err(ReadError::Usage {
                path: name.to_string(),
                message: "Parquet input must be a file: it is read from its end".into(),
            });
        }
    })
}

/// What the start of the CSV file `source` says of it, found as [`open_one`] finds it.
pub(super) fn csv_layout(
    source: &Source,
    options: &ReadOptions,
) -> Result<csv::CsvLayout, ReadError> {
    let name = source.display_name();
    let path = path_of(source)?;
    let file = File::open(path).map_err(|e| io_error(&name, e))?;
    let size = file.metadata().map_err(|e| io_error(&name, e))?.len();
    let stream = Stream {
        name: &name,
        raw: Box::new(file),
        format: Format::Csv,
        tsv: source.is_tsv(),
        size: Some(size),
    };
    let input = decoded(stream, &Arc::default())?;
    Ok(open_csv(&name, input, source.is_tsv(), options)?
        .layout()
        .clone())
}

/// The file `source` names; stdin, which is never cut by bytes, is refused.
fn path_of(source: &Source) -> Result<&std::path::Path, ReadError> {
    match source {
        Source::Path(path) => Ok(path),
        Source::Stdin => Err(ReadError::Usage {
            path: source.display_name(),
            message: "stdin is not cut by bytes".into(),
        }),
    }
}

/// Opens a shard's slice of the plain (uncompressed, line-per-record) file `source`, reading
/// it as its start said (`slice.csv`); its bytes are counted into `bytes_read`.
pub(super) fn open_slice(
    source: &Source,
    options: &ReadOptions,
    slice: &Slice,
    bytes_read: &Arc<AtomicU64>,
) -> Result<Box<dyn RecordSource>, ReadError> {
    let name = source.display_name();
    let io_err = |e| io_error(&name, e);
    let path = path_of(source)?;
    let mut file = File::open(path).map_err(io_err)?;
    file.seek(SeekFrom::Start(slice.start.offset))
        .map_err(io_err)?;
    let len = slice.end - slice.start.offset;
    let counting = Counting {
        inner: file.take(len),
        count: bytes_read.clone(),
    };
    let input = BufReader::with_capacity(buffer_size(Some(len)), counting);
    let lines = slice.start.lines;
    Ok(match &slice.csv {
        None => Box::new(text::TextRecords::starting_at(input, options.field, lines)),
        Some(layout) => Box::new(
            csv::CsvRecords::from_layout(input, layout.clone(), slice.start.offset, lines)
                .map_err(io_err)?,
        ),
    })
}

/// The read buffer for an input of `size` bytes, when known.
fn buffer_size(size: Option<u64>) -> usize {
    // A small file gets a buffer its size: the buffer is zeroed before its first use, which
    // for thousands of small inputs would cost more than reading them.
    size.map_or(BUF_SIZE, |n| {
        usize::try_from(n + 1).map_or(BUF_SIZE, |n| n.clamp(MIN_BUF_SIZE, BUF_SIZE))
    })
}

/// Opens the CSV records of `input` (already decoded), a tab-separated one when `tsv`.
fn open_csv(
    name: &str,
    input: Box<dyn BufRead + Send>,
    tsv: bool,
    options: &ReadOptions,
) -> Result<csv::CsvRecords<Box<dyn BufRead + Send>>, ReadError> {
    let delimiter = options.delimiter.or(tsv.then_some(b'\t'));
    let csv_options = csv::CsvOptions {
        column: &options.column,
        header: options.header,
        expect: options.expect_column.as_ref(),
        delimiter,
    };
    csv::CsvRecords::new(input, &csv_options).map_err(|e| match e {
        csv::OpenError::Io(e) => io_error(name, e),
        csv::OpenError::Usage(message) => ReadError::Usage {
            path: name.to_string(),
            message,
        },
    })
}

/// The bytes of `stream` as its format reads them: decompressed as its first bytes say, UTF-16
/// and unsupported compressions refused.
fn decoded(
    stream: Stream,
    bytes_read: &Arc<AtomicU64>,
) -> Result<Box<dyn BufRead + Send>, ReadError> {
    let name = stream.name;
    let io_err = |e| io_error(name, e);
    let mut counting = Counting {
        inner: stream.raw,
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
        path: name.to_string(),
        message,
    };
    if let Some(message) = compressed::refusal(kind) {
        return Err(usage(message));
    }
    if matches!(kind, compressed::Kind::Xz | compressed::Kind::Zstd) {
        // The header that states the memory its decoder needs.
        let more = compressed::HEADER_BYTES - head.len().min(compressed::HEADER_BYTES);
        (&mut counting)
            .take(more as u64)
            .read_to_end(&mut head)
            .map_err(io_err)?;
        if let Some(message) = compressed::too_large(kind, &head) {
            return Err(usage(message));
        }
    }
    let capacity = buffer_size(stream.size);
    let buffered = BufReader::with_capacity(capacity, io::Cursor::new(head).chain(counting));
    let mut input = compressed::decompress(kind, Box::new(buffered)).map_err(io_err)?;
    // Compressed text may be UTF-16 too.
    let first = (|| Ok(compressed::Kind::of(fill_buf!(input))))().map_err(io_err)?;
    if let Some(message) = compressed::refusal(first) {
        return Err(usage(message));
    }
    Ok(input)
}
