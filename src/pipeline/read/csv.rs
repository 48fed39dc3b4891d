//! The CSV format: one column of each record holds the puzzle.
//!
//! The delimiter is the one given, else a tab for `.tsv` files, else the one of `,`, tab,
//! `;`, `|` and space that the first line holds most of. The puzzle column is the one given,
//! else the first column with a usual name (`puzzle`, `quizzes`, ...), else the first column
//! whose fields in the first rows are puzzles (one with blanks before a full grid), else
//! column 0; [`CsvRecords`] says which in words, for the summary.
//!
//! Records are split by `csv-core`, the `csv` crate's allocation-free state machine, into
//! buffers of our own that stop growing at [`MAX_RECORD_BYTES`]: the `csv` crate's reader
//! would hold a whole record, however long (a 1 GB field, or an unbalanced quote that runs to
//! the end of a huge file). What `csv-core` leaves to its caller is done here: line numbers
//! that count every line break (`\n`, `\r\n` or a lone `\r`, inside quoted fields too), and
//! telling a record that the input ended inside a quoted field.
//!
//! A record that is one line with no quote in it (most records of most files, and every row
//! this tool writes for a puzzle) is split at its delimiters without `csv-core`, whose state
//! machine costs about twelve instructions a byte: `--resume` reads every row of the output
//! again, and only this keeps it a small share of the run it saves (BENCHMARKS.md). Both ways
//! give the same fields; a test checks them against each other.

use std::collections::VecDeque;
use std::io::{self, BufRead};

use super::lines::line_breaks;
use super::{
    BOM, Column, Expected, Header, MAX_RECORD_BYTES, PUZZLE_COLUMN_NAMES, Record, RecordSource,
    SOLUTION_COLUMN_NAMES, fill_buf, invalid, puzzle, too_long,
};
use crate::grid::Grid;

/// Why a CSV input cannot be read with the options given.
pub(super) enum OpenError {
    Io(io::Error),
    Usage(String),
}

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

/// How to read a CSV input.
pub(super) struct CsvOptions<'a> {
    /// The puzzle column.
    pub(super) column: &'a Column,
    pub(super) header: Header,
    /// The column of the stated solution, when asked for.
    pub(super) expect: Option<&'a Column>,
    /// The field delimiter; `None`: told by the first line.
    pub(super) delimiter: Option<u8>,
}

/// The rows looked at to find the puzzle column by its content.
const SNIFF_ROWS: usize = 16;

/// The delimiters told from the first line, in order of preference when they tie.
const DELIMITERS: [u8; 4] = [b',', b'\t', b';', b'|'];

/// The delimiter of a CSV whose first line is at the start of `input`: the one of
/// [`DELIMITERS`] that the line holds most of outside quotes, else a space if it has one,
/// else a comma. Reads nothing.
fn sniff_delimiter<R: BufRead>(input: &mut R) -> io::Result<u8> {
    let avail = fill_buf!(input);
    let avail = avail.strip_prefix(BOM).unwrap_or(avail);
    let mut counts = [0usize; 256];
    let mut quoted = false;
    for &b in avail {
        match b {
            b'"' => quoted = !quoted,
            b'\n' | b'\r' if !quoted => break,
            _ if !quoted => counts[b as usize] += 1,
            _ => {}
        }
    }
    let mut best = None;
    for d in DELIMITERS {
        let n = counts[d as usize];
        if n > 0 && best.is_none_or(|b: u8| n > counts[b as usize]) {
            best = Some(d);
        }
    }
    let best = best.or((counts[b' ' as usize] > 0).then_some(b' '));
    Ok(best.unwrap_or(b','))
}

/// What the start of a CSV input says of all of it: the delimiter, the header, the columns.
/// A shard that reads a slice from the middle of a file takes it from the file's start, so
/// that every part reads the column a whole run reads.
#[derive(Debug, Clone)]
pub(super) struct CsvLayout {
    delimiter: u8,
    column: usize,
    /// The column of the stated solution, when asked for.
    expect: Option<usize>,
    /// Which column holds the puzzles and why, in words.
    column_used: String,
    /// Where the header row ends (its line end consumed), when the input has one.
    header_end: Option<u64>,
}

impl CsvLayout {
    /// The field delimiter.
    pub(super) fn delimiter(&self) -> u8 {
        self.delimiter
    }
}

/// CSV records: the puzzle is one column of each row.
pub(super) struct CsvRecords<R> {
    splitter: CsvSplitter<R>,
    layout: CsvLayout,
    record: CsvRow,
    /// The first rows, read to find the header and the columns, not yet given out.
    pending: VecDeque<CsvRow>,
}

impl<R: BufRead> CsvRecords<R> {
    pub(super) fn new(mut input: R, options: &CsvOptions) -> Result<Self, OpenError> {
        let delimiter = match options.delimiter {
            Some(d) => d,
            None => sniff_delimiter(&mut input).map_err(OpenError::Io)?,
        };
        let mut splitter = CsvSplitter::with_delimiter(input, delimiter);
        let mut first = CsvRow::default();
        let has_first = splitter.next_row(&mut first).map_err(OpenError::Io)?;
        let (column, expect) = (options.column, options.expect);
        let is_header = has_first
            && match options.header {
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
        // A column given by index must be in the first row (the header, or the first record):
        // refused here as a name not in the header is, not left to make every row invalid.
        if has_first {
            let width = first.len();
            for (option, given) in [("--column", Some(column)), ("--expect-column", expect)] {
                if let Some(&Column::Index(i)) = given
                    && i >= width
                {
                    let what = if is_header {
                        format!(
                            "the header has {}: {}",
                            crate::words::count(width as u64, "column", "columns"),
                            names.join(", ")
                        )
                    } else {
                        format!(
                            "the first row has {}",
                            crate::words::count(width as u64, "field", "fields")
                        )
                    };
                    return Err(OpenError::Usage(format!(
                        "{option} {i}: no such column ({what}, numbered from 0)"
                    )));
                }
            }
        }
        let header_end = (has_first && is_header).then_some(first.end_offset);
        let mut pending = VecDeque::new();
        if has_first && !is_header {
            pending.push_back(first);
        }
        // The first data rows, for the columns chosen by their content.
        let by_content = matches!(column, Column::Auto) || matches!(expect, Some(Column::Auto));
        while by_content && pending.len() < SNIFF_ROWS {
            let mut row = CsvRow::default();
            if !splitter.next_row(&mut row).map_err(OpenError::Io)? {
                break;
            }
            pending.push_back(row);
        }
        let found = |full: bool, not: Option<usize>| {
            column_by_content(pending.iter().map(|r| r as &dyn Fields), full, not)
        };
        let (column, how) = match resolve_column(column, &PUZZLE_COLUMN_NAMES, &names, is_header)? {
            Some(c) => c,
            None => match found(false, None).or_else(|| found(true, None)) {
                Some(i) => (i, "found by its content"),
                None => (0, "the first: no column holds puzzles in the first rows"),
            },
        };
        let expect = match expect {
            None => None,
            Some(c) => Some(
                match resolve_column(c, &SOLUTION_COLUMN_NAMES, &names, is_header)? {
                    Some(found) => found,
                    None => found(true, Some(column))
                        .map(|i| (i, "found by its content"))
                        .ok_or_else(|| {
                            OpenError::Usage(format!(
                                "no column named {} and none holding solved grids in the first \
                                 rows; name the stated solutions' column",
                                SOLUTION_COLUMN_NAMES.join(" or ")
                            ))
                        })?,
                },
            ),
        };
        let column_used = describe_column(column, names.get(column), how)
            + &describe_expect(expect.map(|(i, how)| (i, names.get(i), how)));
        let expect = expect.map(|(i, _)| i);
        Ok(CsvRecords {
            splitter,
            layout: CsvLayout {
                delimiter,
                column,
                expect,
                column_used,
                header_end,
            },
            record: CsvRow::default(),
            pending,
        })
    }

    /// What the start of the input said: to read a slice of the same file the same way.
    pub(super) fn layout(&self) -> &CsvLayout {
        &self.layout
    }

    /// The records of a slice of an input whose start gave `layout`: `input` starts at
    /// `start` of the input, where a record (or an empty line) starts, after `lines` line
    /// breaks. The header row is skipped when the slice holds it.
    pub(super) fn from_layout(
        input: R,
        layout: CsvLayout,
        start: u64,
        lines: u64,
    ) -> io::Result<Self> {
        let mut splitter = CsvSplitter::with_delimiter(input, layout.delimiter);
        if start > 0 {
            splitter = splitter.starting_at(start, lines);
        }
        if layout.header_end.is_some_and(|end| start < end) {
            let mut header = CsvRow::default();
            splitter.next_row(&mut header)?;
        }
        Ok(CsvRecords {
            splitter,
            layout,
            record: CsvRow::default(),
            pending: VecDeque::new(),
        })
    }
}

/// The fields of one row, as the column finder looks at them (a CSV row, a Parquet row).
pub(super) trait Fields {
    /// Field `i`, if the row has it.
    fn field(&self, i: usize) -> Option<&[u8]>;
    /// The number of fields.
    fn count(&self) -> usize;
}

impl Fields for CsvRow {
    fn field(&self, i: usize) -> Option<&[u8]> {
        self.get(i)
    }

    fn count(&self) -> usize {
        self.len()
    }
}

/// The column whose fields are puzzles (`full`: complete grids) in the most of `rows`, the
/// first of those that tie; never `not`. Without `full`, only a column with a blank in some
/// row counts, so that a puzzle column comes before the solution column beside it.
pub(super) fn column_by_content<'a>(
    rows: impl Iterator<Item = &'a dyn Fields>,
    full: bool,
    not: Option<usize>,
) -> Option<usize> {
    let mut hits: Vec<usize> = Vec::new();
    for row in rows {
        if hits.len() < row.count() {
            hits.resize(row.count(), 0);
        }
        for (i, hit) in hits.iter_mut().enumerate().take(row.count()) {
            let Some(Ok(grid)) = row.field(i).map(|f| Grid::parse_bytes(f.trim_ascii())) else {
                continue;
            };
            *hit += usize::from(grid.is_full() == full);
        }
    }
    let best = (0..hits.len())
        .filter(|&i| Some(i) != not && hits[i] > 0)
        .max_by_key(|&i| (hits[i], std::cmp::Reverse(i)))?;
    Some(best)
}

/// The summary's words for the puzzle column `index`, named `name` in the header, chosen
/// `how`.
pub(super) fn describe_column(index: usize, name: Option<&String>, how: &str) -> String {
    match name {
        Some(name) => format!("puzzles from column {index} (\"{name}\"), {how}"),
        None => format!("puzzles from column {index}, {how}"),
    }
}

/// The summary's words for the stated solutions' column (`validate --expect-column`), when
/// there is one: its index, its name in the header, how it was chosen.
pub(super) fn describe_expect(expect: Option<(usize, Option<&String>, &str)>) -> String {
    match expect {
        None => String::new(),
        Some((i, Some(name), how)) => format!("; solutions from column {i} (\"{name}\"), {how}"),
        Some((i, None, how)) => format!("; solutions from column {i}, {how}"),
    }
}

/// The index of `column` given the header's lower-cased `names` (empty without a header), and
/// how it was chosen; `None` for [`Column::Auto`] when no header name is one of `auto_names`.
pub(super) fn resolve_column(
    column: &Column,
    auto_names: &[&str],
    names: &[String],
    is_header: bool,
) -> Result<Option<(usize, &'static str)>, OpenError> {
    match column {
        Column::Index(i) => Ok(Some((*i, "as --column says"))),
        Column::Auto => Ok(auto_names
            .iter()
            .find_map(|want| names.iter().position(|n| n == want))
            .map(|i| (i, "found by its name"))),
        Column::Name(want) => {
            let want_lc = want.trim().to_ascii_lowercase();
            match names.iter().position(|n| *n == want_lc) {
                Some(i) => Ok(Some((i, "as --column says"))),
                None if !is_header => Err(OpenError::Usage(format!(
                    "column {want:?} not found: the input has no header row"
                ))),
                None => Err(OpenError::Usage(format!(
                    "column {want:?} not found; the header has: {}",
                    names.join(", ")
                ))),
            }
        }
    }
}

impl<R: BufRead + Send> RecordSource for CsvRecords<R> {
    fn column_used(&self) -> Option<String> {
        Some(self.layout.column_used.clone())
    }

    fn next_record(&mut self) -> io::Result<Option<Record>> {
        if let Some(first) = self.pending.pop_front() {
            self.record = first;
        } else if !self.splitter.next_row(&mut self.record)? {
            return Ok(None);
        }
        let row = &self.record;
        let line = row.line;
        let mut record = if row.too_long() {
            too_long(line, &row.joined(), row.total)
        } else if row.open_quote {
            invalid(
                line,
                &row.joined(),
                "unbalanced quote: a quoted field runs to the end of the input",
            )
        } else {
            match row.get(self.layout.column) {
                None => invalid(
                    line,
                    &row.joined(),
                    format!(
                        "no column {} (the row has {}, numbered from 0)",
                        self.layout.column,
                        crate::words::count(row.len() as u64, "field", "fields")
                    ),
                ),
                Some(field) => match Grid::parse_bytes(field.trim_ascii()) {
                    Ok(g) => puzzle(line, g),
                    Err(e) => invalid(line, field, e),
                },
            }
        };
        if let Some(i) = self.layout.expect {
            record.expected = Some(Box::new(if row.too_long() {
                Expected::Malformed(format!(
                    "the record is longer than the limit of {MAX_RECORD_BYTES} bytes"
                ))
            } else {
                Expected::parse(row.get(i))
            }));
        }
        Ok(Some(record))
    }
}
