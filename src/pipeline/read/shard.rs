//! Which records of the inputs a shard (`--shard K/N`) reads, found without parsing the
//! records before them where the layout allows it.
//!
//! - **By bytes**, when every input is an uncompressed regular file of text or CSV (one record
//!   a line): the inputs' bytes, one file after the other, are cut into N ranges
//!   ([`Shard::range`] of their total size), and shard K reads the records whose first byte
//!   lies in its range. In each file it seeks to its range's start and moves on to the next
//!   record start: the start of a line, the byte after a `\n` (or after a lone `\r`, which the
//!   readers take as a line end too). The line breaks before it are counted, not parsed, so
//!   that rows keep the file's line numbers. Empty and `#` lines are no records, whichever part
//!   reads them. A CSV file's delimiter, header and puzzle column come from its start, as in a
//!   whole run.
//! - **CSV quotes**: a quoted field may hold a line break, which is then no record start. A
//!   cut is taken at a line start only when the file has no `"` before it; otherwise the file
//!   is parsed as CSV from the last known record start up to the cut, so a quoted field that
//!   spans lines is never split, at the cost of parsing that much of the file.
//! - **By record index** otherwise (compressed files, grid blocks spanning lines, Parquet,
//!   stdin): the records of all the inputs are counted in a first pass and shard K reads those
//!   in [`Shard::range`] of the count. Stdin and pipes, which can be read only once, are
//!   copied to unnamed temporary files as they are read, and both passes read the copies.
//!
//! Each way, the ranges of parts 0..N-1 follow each other and cover every record, so their
//! outputs concatenated are one run's.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::ops::Range;

use super::csv::{CsvLayout, CsvRow, CsvSplitter};
use super::lines::line_breaks;
use super::open::{csv_layout, format_of, open_one};
use super::{
    BUF_SIZE, Format, ReadError, ReadOptions, Record, RecordSource, Source, compressed, fill_buf,
    io_error,
};
use crate::shard::Shard;

/// A place in a file: a byte offset, and the line breaks before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Cut {
    /// Bytes from the file's start.
    pub(super) offset: u64,
    /// Line breaks before `offset` (`\n`, `\r\n` or a lone `\r`, each one): the line that
    /// starts there is line `lines + 1`.
    pub(super) lines: u64,
}

/// The part of one file a shard reads by bytes.
#[derive(Debug, Clone)]
pub(super) struct Slice {
    /// Where it starts: the start of a line, at or after which a record may start.
    pub(super) start: Cut,
    /// The byte after its end: the next part's start, or the end of the file.
    pub(super) end: u64,
    /// For CSV, what the file's start says of it; `None` for text.
    pub(super) csv: Option<CsvLayout>,
}

/// Which records of the inputs a reader reads.
pub(super) enum Part {
    /// Every record.
    All,
    /// Those whose index among all the inputs' records, from 0, is in the range.
    Records(Range<u64>),
    /// Of each input, in order, the records of its slice; `None`: none of its records.
    Bytes(Vec<Option<Slice>>),
}

/// The records of an input none of whose bytes a shard reads: none.
pub(super) struct Nothing;

impl RecordSource for Nothing {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        Ok(None)
    }
}

/// Which records of `sources` the shard of `options`, if any, reads. Counts the records first
/// unless the inputs can be cut by bytes, reading those copied to `spools` from the copies.
pub(super) fn part(
    sources: &[Source],
    options: &ReadOptions,
    spools: &[Option<File>],
) -> Result<Part, ReadError> {
    let Some(shard) = options.shard else {
        return Ok(Part::All);
    };
    if let Some(slices) = by_bytes(sources, options, shard)? {
        return Ok(Part::Bytes(slices));
    }
    let total = count_records(sources, options, spools)?;
    Ok(Part::Records(shard.range(total)))
}

/// The slices of `sources` that shard `shard` reads, or `None` when some input cannot be cut
/// by bytes (it is not an uncompressed regular file of text or CSV).
fn by_bytes(
    sources: &[Source],
    options: &ReadOptions,
    shard: Shard,
) -> Result<Option<Vec<Option<Slice>>>, ReadError> {
    let mut files = Vec::with_capacity(sources.len());
    for source in sources {
        // Stdin and pipes are not even opened here: opening a pipe waits for its writer.
        let Source::Path(path) = source else {
            return Ok(None);
        };
        let format = format_of(source, options);
        if source.reads_once() || !matches!(format, Format::Text | Format::Csv) {
            return Ok(None);
        }
        let name = source.display_name();
        let mut file = File::open(path).map_err(|e| io_error(&name, e))?;
        let size = file.metadata().map_err(|e| io_error(&name, e))?.len();
        // As the whole run tells a compressed input: by its first bytes, whatever its name.
        let mut head = Vec::with_capacity(compressed::SNIFF_BYTES);
        (&mut file)
            .take(compressed::SNIFF_BYTES as u64)
            .read_to_end(&mut head)
            .map_err(|e| io_error(&name, e))?;
        if compressed::Kind::of(&head) != compressed::Kind::Plain {
            return Ok(None);
        }
        files.push((file, size, format == Format::Csv));
    }
    let range = shard.range(files.iter().map(|(_, size, _)| size).sum());
    let mut slices = Vec::with_capacity(files.len());
    let mut before = 0;
    for (source, (mut file, size, is_csv)) in sources.iter().zip(files) {
        // This file's share of the range, in its own offsets.
        let from = range.start.saturating_sub(before).min(size);
        let to = range.end.saturating_sub(before).min(size);
        before += size;
        if from >= to {
            slices.push(None);
            continue;
        }
        let csv = if is_csv {
            Some(csv_layout(source, options)?)
        } else {
            None
        };
        let quotes = csv.as_ref().map(CsvLayout::delimiter);
        let name = source.display_name();
        let io_err = |e| io_error(&name, e);
        let start = align(&mut file, Cut::default(), from, quotes).map_err(io_err)?;
        // A part that runs to the file's end has nothing to look for there.
        let end = if to == size {
            size
        } else {
            align(&mut file, start, to, quotes).map_err(io_err)?.offset
        };
        slices.push((start.offset < end).then_some(Slice { start, end, csv }));
    }
    Ok(Some(slices))
}

/// The first place at or after `target` in `file` where a record may start: the start of a
/// line (for CSV, `quotes` giving the delimiter, one outside any quoted field), else the end
/// of the file. `from` is such a place at or before `target`: the file is read from there.
fn align<F: Read + Seek>(
    file: &mut F,
    from: Cut,
    target: u64,
    quotes: Option<u8>,
) -> io::Result<Cut> {
    if target <= from.offset {
        return Ok(from);
    }
    file.seek(SeekFrom::Start(from.offset))?;
    if let Some(cut) = line_start(
        BufReader::with_capacity(BUF_SIZE, &mut *file),
        from,
        target,
        quotes.is_some(),
    )? {
        return Ok(cut);
    }
    // A quote came before the line start (only CSV looks for one): parse the CSV to know
    // where its records start.
    let delimiter = quotes.unwrap_or(b',');
    file.seek(SeekFrom::Start(from.offset))?;
    record_start(
        BufReader::with_capacity(BUF_SIZE, file),
        from,
        target,
        delimiter,
    )
}

/// The first line start at or after `target` in `input`, which starts at `from`; `None`, when
/// `quotes`, if a `"` comes before it. Reads lines without splitting them: line breaks are
/// counted a buffer at a time.
fn line_start<R: BufRead>(
    mut input: R,
    from: Cut,
    target: u64,
    quotes: bool,
) -> io::Result<Option<Cut>> {
    let Cut {
        mut offset,
        mut lines,
    } = from;
    let mut after_cr = false;
    let mut last = None;
    while offset < target {
        let avail = fill_buf!(input);
        if avail.is_empty() {
            return Ok(Some(Cut { offset, lines }));
        }
        let n = usize::try_from(target - offset).map_or(avail.len(), |n| n.min(avail.len()));
        let chunk = &avail[..n];
        if quotes && memchr::memchr(b'"', chunk).is_some() {
            return Ok(None);
        }
        lines += line_breaks(chunk, &mut after_cr);
        last = chunk.last().copied();
        input.consume(n);
        offset += n as u64;
    }
    // `target` is a line start when what comes before it ends a line: nothing (`from`), a
    // `\n`, or a `\r` with no `\n` after it.
    if matches!(last, None | Some(b'\n')) {
        return Ok(Some(Cut { offset, lines }));
    }
    loop {
        let avail = fill_buf!(input);
        if after_cr {
            // The `\r` counted already; a `\n` right after it is the same line break.
            if avail.first() == Some(&b'\n') {
                input.consume(1);
                offset += 1;
            }
            return Ok(Some(Cut { offset, lines }));
        }
        if avail.is_empty() {
            return Ok(Some(Cut { offset, lines }));
        }
        let found = if quotes {
            memchr::memchr3(b'\n', b'\r', b'"', avail)
        } else {
            memchr::memchr2(b'\n', b'\r', avail)
        };
        let Some(i) = found else {
            let n = avail.len();
            input.consume(n);
            offset += n as u64;
            continue;
        };
        if avail[i] == b'"' {
            return Ok(None);
        }
        after_cr = avail[i] == b'\r';
        lines += 1;
        input.consume(i + 1);
        offset += i as u64 + 1;
        if !after_cr {
            return Ok(Some(Cut { offset, lines }));
        }
    }
}

/// The start of the first CSV record at or after `target` in `input`, which starts at `from`
/// (a record start), found by splitting the records on the way; the end of the input when
/// there is none.
fn record_start<R: BufRead>(input: R, from: Cut, target: u64, delimiter: u8) -> io::Result<Cut> {
    let mut splitter = CsvSplitter::with_delimiter(input, delimiter);
    if from.offset > 0 {
        splitter = splitter.starting_at(from.offset, from.lines);
    }
    let mut row = CsvRow::default();
    while let Some((offset, lines)) = splitter.record_start()? {
        // A file's first line starts at its first byte, a byte order mark included: the
        // splitter has stepped over the mark, and no line break, to get here.
        let offset = if lines == 0 { 0 } else { offset };
        if offset >= target {
            return Ok(Cut { offset, lines });
        }
        splitter.next_row(&mut row)?;
    }
    Ok(Cut {
        offset: splitter.offset(),
        lines: 0,
    })
}

/// How many records `sources` hold together, read with `options` (but its shard), those
/// copied to `spools` from the copies: a pass of its own before a shard is read by record
/// index.
fn count_records(
    sources: &[Source],
    options: &ReadOptions,
    spools: &[Option<File>],
) -> Result<u64, ReadError> {
    let all = ReadOptions {
        shard: None,
        ..options.clone()
    };
    let ignored = Default::default();
    let mut count = 0;
    for (i, source) in sources.iter().enumerate() {
        let spool = spools.get(i).and_then(Option::as_ref);
        let mut records = open_one(source, &all, &ignored, spool)?;
        let name = source.display_name();
        while records
            .next_record()
            .map_err(|e| io_error(&name, e))?
            .is_some()
        {
            count += 1;
        }
    }
    Ok(count)
}

/// For a shard, each of `sources` that can be read only once ([`Source::reads_once`]: stdin,
/// a pipe) copied to an unnamed temporary file, which goes when it is closed: its records are
/// counted before the shard's are read. Nothing without a shard.
pub(super) fn spools(
    sources: &[Source],
    options: &ReadOptions,
) -> Result<Vec<Option<File>>, ReadError> {
    if options.shard.is_none() {
        return Ok(Vec::new());
    }
    let spool = |source: &Source| -> Result<Option<File>, ReadError> {
        if !source.reads_once() {
            return Ok(None);
        }
        let name = source.display_name();
        let mut input: Box<dyn Read> = match source {
            Source::Stdin => Box::new(io::stdin()),
            Source::Path(p) => Box::new(File::open(p).map_err(|e| io_error(&name, e))?),
        };
        let mut file = tempfile::tempfile().map_err(|e| ReadError::Usage {
            path: name.clone(),
            message: format!(
                "--shard copies this input, which can be read only once, to a temporary file to \
                 count its records, and none could be made ({e}); set TMPDIR to a writable \
                 directory"
            ),
        })?;
        io::copy(&mut input, &mut file).map_err(|e| {
            let message = format!("copying it to a temporary file for --shard: {e}");
            io_error(&name, io::Error::new(e.kind(), message))
        })?;
        Ok(Some(file))
    };
    sources.iter().map(spool).collect()
}

#[cfg(test)]
mod tests;
