//! Splitting CSV records into fields: [`CsvSplitter`] feeds `csv-core` (or, for a one-line
//! record with no quote, splits it at its delimiters) into [`CsvRow`] buffers that stop growing
//! at [`MAX_RECORD_BYTES`], counting every line break (see the parent module).

use std::io::{self, BufRead};

use super::super::lines::line_breaks;
use super::super::{BOM, MAX_RECORD_BYTES, fill_buf};

/// One CSV record split into fields. At most [`MAX_RECORD_BYTES`] of field data are kept; a
/// longer record is marked [`CsvRow::too_long`] and its fields are dropped.
#[derive(Debug, Default, Clone)]
pub(crate) struct CsvRow {
    /// The fields' bytes, unescaped, one after the other. Kept at the length it grew to (up
    /// to [`MAX_RECORD_BYTES`]), for `csv-core` to write into; `ends` says what is in use.
    data: Vec<u8>,
    /// The end of each field in `data`: the first `fields` entries are in use.
    ends: Vec<usize>,
    /// The number of fields.
    fields: usize,
    /// 1-based line where the record starts.
    pub(crate) line: u64,
    /// Bytes of the record in the input, delimiters and quotes included, its line end not.
    pub(crate) total: u64,
    /// The input ended inside a quoted field.
    pub(crate) open_quote: bool,
    /// Bytes of the input consumed up to the end of this record, its line end included.
    pub(crate) end_offset: u64,
    /// The record ended with a line break, not with the end of the input.
    pub(crate) terminated: bool,
}

impl CsvRow {
    /// The number of fields.
    pub(crate) fn len(&self) -> usize {
        self.fields
    }

    /// Field `i`, if the record has it.
    pub(crate) fn get(&self, i: usize) -> Option<&[u8]> {
        let end = *self.ends[..self.fields].get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.data[start..end])
    }

    /// The fields in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// True when the record is longer than [`MAX_RECORD_BYTES`] and its fields were dropped.
    pub(crate) fn too_long(&self) -> bool {
        self.total > MAX_RECORD_BYTES as u64
    }

    /// The record's fields joined by commas, for an invalid record's `puzzle` column.
    pub(crate) fn joined(&self) -> Vec<u8> {
        self.iter().collect::<Vec<_>>().join(&b","[..])
    }
}

/// Splits a byte stream into CSV records (RFC 4180: quoted fields may span lines, `""` is a
/// quote; records end at LF, CRLF or a lone CR outside quotes; empty lines are skipped).
pub(crate) struct CsvSplitter<R> {
    inner: R,
    core: csv_core::Reader,
    /// Line breaks consumed so far.
    line: u64,
    /// The last byte consumed was a CR, so a LF right after it is part of the same line break.
    after_cr: bool,
    /// Bytes consumed so far.
    offset: u64,
    started: bool,
    /// Where the fields of a record past the cap go, to be dropped.
    scratch: Vec<u8>,
    scratch_ends: Vec<usize>,
    /// Whether a record with no quote on one line is split without `csv-core` (off in a
    /// test that compares the two ways).
    split_plain_lines: bool,
    /// The field delimiter.
    delimiter: u8,
}

impl<R: BufRead> CsvSplitter<R> {
    /// A splitter of comma-separated records.
    pub(crate) fn new(inner: R) -> Self {
        CsvSplitter::with_delimiter(inner, b',')
    }

    /// A splitter of records whose fields are separated by `delimiter`.
    pub(crate) fn with_delimiter(inner: R, delimiter: u8) -> Self {
        CsvSplitter {
            inner,
            core: csv_core::ReaderBuilder::new().delimiter(delimiter).build(),
            line: 0,
            after_cr: false,
            offset: 0,
            started: false,
            scratch: Vec::new(),
            scratch_ends: Vec::new(),
            split_plain_lines: true,
            delimiter,
        }
    }

    /// The same splitter, reading an input that starts at byte `offset` of a file, where a
    /// record (or an empty line) starts after `lines` line breaks: no byte order mark is
    /// looked for, and lines are numbered on from there.
    pub(crate) fn starting_at(mut self, offset: u64, lines: u64) -> Self {
        self.started = true;
        self.offset = offset;
        self.line = lines;
        self
    }

    /// Skips the empty lines before the next record: where it starts, and the line breaks
    /// before it; `None` at the end of the input.
    pub(crate) fn record_start(&mut self) -> io::Result<Option<(u64, u64)>> {
        Ok(self.skip_to_record()?.then_some((self.offset, self.line)))
    }

    /// The same splitter, splitting every record with `csv-core`.
    #[cfg(test)]
    pub(crate) fn always_csv_core(mut self) -> Self {
        self.split_plain_lines = false;
        self
    }

    /// Splits the next record at its delimiters when it is a line with no quote, all of it
    /// buffered and within the cap; false, having read nothing, otherwise.
    fn plain_line(&mut self, row: &mut CsvRow) -> io::Result<bool> {
        let delimiter = self.delimiter;
        let found = self.next_plain_line(|line| {
            row.data.clear();
            row.ends.clear();
            let mut start = 0;
            for comma in memchr::memchr_iter(delimiter, line).chain([line.len()]) {
                row.data.extend_from_slice(&line[start..comma]);
                row.ends.push(row.data.len());
                start = comma + 1;
            }
            row.fields = row.ends.len();
            row.total = line.len() as u64;
        })?;
        if found.is_some() {
            row.open_quote = false;
            row.terminated = true;
            row.end_offset = self.offset;
        }
        Ok(found.is_some())
    }

    /// When the next record is a line with no quote, all of it buffered and within the cap:
    /// hands `f` the line (without its line end), consumes it and returns what `f` gives.
    /// `None`, having read nothing, otherwise; at the end of the input too.
    pub(crate) fn next_plain_line<T>(
        &mut self,
        f: impl FnOnce(&[u8]) -> T,
    ) -> io::Result<Option<T>> {
        self.next_plain_line_by(|avail| {
            // The line's end, unless a quote comes first.
            let end = memchr::memchr3(b'\n', b'\r', b'"', avail)?;
            (avail[end] != b'"' && end <= MAX_RECORD_BYTES).then(|| (end, f(&avail[..end])))
        })
    }

    /// As [`CsvSplitter::next_plain_line`], with the line found by `split`: it is handed the
    /// buffered bytes from the record's start and returns the length of the line, when they
    /// hold its line end and no quote comes before it, with what it makes of the line. A
    /// caller that takes the line apart in one pass finds its end in the same pass.
    pub(crate) fn next_plain_line_by<T>(
        &mut self,
        split: impl FnOnce(&[u8]) -> Option<(usize, T)>,
    ) -> io::Result<Option<T>> {
        // Most calls come at the start of a record, where there is nothing to skip.
        let at_record = self.started
            && matches!(fill_buf!(self.inner).first(), Some(&b) if b != b'\n' && b != b'\r');
        if !at_record && !self.skip_to_record()? {
            return Ok(None);
        }
        let avail = fill_buf!(self.inner);
        let Some((end, out)) = split(avail) else {
            return Ok(None);
        };
        if end > MAX_RECORD_BYTES || !matches!(avail.get(end), Some(b'\n' | b'\r')) {
            return Ok(None);
        }
        self.after_cr = avail[end] == b'\r';
        self.line += 1;
        self.offset += end as u64 + 1;
        self.inner.consume(end + 1);
        Ok(Some(out))
    }

    /// Bytes of the input consumed so far.
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    /// Skips the line breaks before a record (empty lines) and a leading byte order mark;
    /// false at the end of the input.
    fn skip_to_record(&mut self) -> io::Result<bool> {
        if !self.started {
            self.started = true;
            if fill_buf!(self.inner).starts_with(BOM) {
                self.inner.consume(BOM.len());
                self.offset += BOM.len() as u64;
            }
        }
        loop {
            let avail = fill_buf!(self.inner);
            match avail.first() {
                None => return Ok(false),
                Some(b'\n' | b'\r') => {}
                Some(_) => return Ok(true),
            }
            let n = avail
                .iter()
                .take_while(|&&b| b == b'\n' || b == b'\r')
                .count();
            self.line += line_breaks(&avail[..n], &mut self.after_cr);
            self.offset += n as u64;
            let found = n < avail.len();
            self.inner.consume(n);
            if found {
                return Ok(true);
            }
        }
    }

    /// Reads the next record into `row`; false at the end of the input.
    pub(crate) fn next_row(&mut self, row: &mut CsvRow) -> io::Result<bool> {
        use csv_core::ReadRecordResult as R;
        if !self.skip_to_record()? {
            return Ok(false);
        }
        row.line = self.line + 1;
        if self.split_plain_lines && self.plain_line(row)? {
            return Ok(true);
        }
        row.total = 0;
        row.open_quote = false;
        row.terminated = false;
        // `data` and `ends` are used at their full length while `csv-core` writes into them.
        let (data_len, ends_len) = (row.data.capacity().max(1024), row.ends.capacity().max(16));
        row.data.resize(data_len, 0);
        row.ends.resize(ends_len, 0);
        let (mut out_len, mut ends_len) = (0, 0);
        // Past the cap, fields go to the scratch buffers and are dropped.
        if self.scratch.is_empty() {
            self.scratch.resize(1024, 0);
            self.scratch_ends.resize(64, 0);
        }
        let mut dropping = false;
        // The end of the input is fed to `csv-core` as a line break, which ends the record,
        // unless the record is inside a quoted field: that takes the line break in, and only
        // the end of the input (an empty input) closes it.
        let mut fed_end = false;
        loop {
            let avail = fill_buf!(self.inner);
            let eof = avail.is_empty();
            let input: &[u8] = match (eof, fed_end) {
                (false, _) => avail,
                (true, false) => b"\n",
                (true, true) => b"",
            };
            let (result, nin, nout, nend) = if dropping {
                self.core
                    .read_record(input, &mut self.scratch, &mut self.scratch_ends)
            } else {
                self.core
                    .read_record(input, &mut row.data[out_len..], &mut row.ends[ends_len..])
            };
            if !eof {
                self.line += line_breaks(&input[..nin], &mut self.after_cr);
                self.offset += nin as u64;
                row.total += nin as u64;
                self.inner.consume(nin);
            } else if !fed_end && nin == 1 {
                fed_end = true;
                row.open_quote = result != R::Record;
            }
            if !dropping {
                out_len += nout;
                ends_len += nend;
            }
            match result {
                R::InputEmpty => {}
                R::OutputFull | R::OutputEndsFull if dropping => {}
                R::OutputFull if row.data.len() >= MAX_RECORD_BYTES => dropping = true,
                R::OutputFull => {
                    let len = (row.data.len() * 2).min(MAX_RECORD_BYTES);
                    row.data.resize(len, 0);
                }
                R::OutputEndsFull => {
                    let len = row.ends.len() * 2;
                    row.ends.resize(len, 0);
                }
                R::Record | R::End => {
                    row.terminated = !eof;
                    break;
                }
            }
        }
        if row.terminated {
            // The line break that ended the record is not part of it.
            row.total -= 1;
        }
        row.end_offset = self.offset;
        row.fields = ends_len;
        if dropping {
            // What was kept of the field being read when the cap was reached, to show.
            if row.ends.len() == ends_len {
                row.ends.push(out_len);
            } else {
                row.ends[ends_len] = out_len;
            }
            row.fields += 1;
        } else if row.open_quote && ends_len > 0 {
            // The line break fed at the end went into the last field.
            row.ends[ends_len - 1] -= 1;
        }
        Ok(true)
    }
}
