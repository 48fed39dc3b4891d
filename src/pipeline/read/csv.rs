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

use super::{
    BOM, Column, Expected, Header, MAX_RECORD_BYTES, PUZZLE_COLUMN_NAMES, Record, RecordSource,
    SOLUTION_COLUMN_NAMES, fill_buf, invalid, puzzle, too_long,
};
use crate::grid::Grid;

mod split;
pub(crate) use split::{CsvRow, CsvSplitter};

/// Why a CSV input cannot be read with the options given.
pub(super) enum OpenError {
    Io(io::Error),
    Usage(String),
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
