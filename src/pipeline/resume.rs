//! Resuming an interrupted run (`solve --resume`): what the existing output already holds.
//!
//! An interrupted run leaves a results file whose rows are a prefix of the full result, one row
//! per input record, flushed at batch boundaries; at worst the last row is cut short (a crash or
//! a second Ctrl-C in the middle of a write). [`scan`] reads that file without changing it: it
//! checks the header, counts the complete rows, remembers the `line` of the last one and where
//! it ends. The pipeline then skips that many input records, checks that the last skipped
//! record is on that line, cuts the file after the last complete row and appends the rest.
//! Nothing is modified until every check has passed.
//!
//! With `--emit-solutions`, [`scan_with_solutions`] also reads the solutions file alongside: a
//! results row is kept only if every solution it counts follows in that file, in order. The
//! two files are flushed one after the other, so a crash can leave either one ahead; the rows
//! past the point where both agree are cut from both and redone.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use super::read::fill_buf;
use super::write::SOLUTION_COLUMNS;

/// What an existing results file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResumePoint {
    /// Complete rows after the header: the input records already done.
    pub rows: u64,
    /// The `line` of the last complete row (0 when there is none).
    pub last_line: u64,
    /// Byte length of the file up to the end of the last complete row (header included); the
    /// file is cut there before appending. 0 when the file must be started afresh.
    pub keep_bytes: u64,
    /// True when the file holds a header (so appending must not write one).
    pub has_header: bool,
    /// Complete rows whose `status` is `invalid` (when the header has a `status` column), so
    /// that the exit code of a resumed run covers the whole file.
    pub invalid: u64,
    /// For [`scan_with_solutions`]: byte length of the solutions file up to the last solution
    /// of the kept rows (header included); it is cut there before appending. 0 when the file
    /// must be started afresh.
    pub solutions_bytes: u64,
}

/// Why an existing output cannot be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The output could not be read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The output is not a results file of this command.
    #[error("{0}")]
    Mismatch(String),
}

/// Longest row accepted in a results file: rows this tool writes are far shorter (the puzzle
/// column is cut to 256 bytes), so a longer one means the file is something else.
const MAX_ROW_BYTES: usize = 64 * 1024;

/// Reads the results file at `path` and says where a resumed run should start. A missing or
/// empty file (or one holding only part of the header) starts afresh. `header` is the header
/// the run writes; a file with another header is refused.
pub fn scan(path: &Path, header: &[&str]) -> Result<ResumePoint, ResumeError> {
    scan_with(path, header, None)
}

/// [`scan`] for a run that also writes every solution to the file at `solutions` (whose header
/// is [`SOLUTION_COLUMNS`]): a results row is kept only when all the solutions its `solutions`
/// column counts follow in that file, as `line,index,solution` rows with indexes from 1. The
/// first row whose solutions stop short (the file ends, or its last row is damaged) and every
/// row after it are redone. A solutions file that is missing or empty starts afresh; one with
/// another header, or with rows of other lines or indexes, is refused.
pub fn scan_with_solutions(
    path: &Path,
    header: &[&str],
    solutions: &Path,
) -> Result<ResumePoint, ResumeError> {
    scan_with(path, header, Some(solutions))
}

fn scan_with(
    path: &Path,
    header: &[&str],
    solutions: Option<&Path>,
) -> Result<ResumePoint, ResumeError> {
    let Some((mut input, header_len)) = open_csv(path, header, "results")? else {
        return Ok(ResumePoint::default());
    };
    let mut solutions = match solutions {
        Some(path) => Some(Solutions::open(path)?),
        None => None,
    };
    let mut buf = Vec::new();
    let mut point = ResumePoint {
        keep_bytes: header_len,
        has_header: true,
        solutions_bytes: solutions.as_ref().map_or(0, |s| s.keep_bytes),
        ..ResumePoint::default()
    };
    let column = |name: &str| header.iter().position(|&h| h == name);
    let status_column = column("status");
    let count_column = match solutions {
        Some(_) => Some(column("solutions").ok_or_else(|| {
            ResumeError::Mismatch("the results have no solutions column to check".into())
        })?),
        None => None,
    };
    let mut row_number = 1u64;
    loop {
        let n = read_row(&mut input, &mut buf)?;
        if n == 0 {
            return Ok(point);
        }
        row_number += 1;
        let complete = buf.ends_with(b"\n");
        let fields = if complete {
            parse_row(trim_eol(&buf), header.len(), status_column, count_column)
        } else {
            None
        };
        match fields {
            Some((line, invalid, count)) => {
                if let Some(solutions) = &mut solutions {
                    if !solutions.take(line, count)? {
                        return Ok(point); // this row's solutions stop short: redo from here
                    }
                    point.solutions_bytes = solutions.keep_bytes;
                }
                point.rows += 1;
                point.invalid += u64::from(invalid);
                point.last_line = line;
                point.keep_bytes += n as u64;
            }
            None => {
                damaged_row_is_last(&mut input, &mut buf, &format!("row {row_number}"))?;
                return Ok(point);
            }
        }
    }
}

/// Opens the CSV file at `path` and checks its header against `header`. `None` when the file
/// is missing, empty or holds only the start of the header (a crash cut it): it starts afresh.
/// Otherwise the reader, placed after the header, and the header's length in bytes.
fn open_csv(
    path: &Path,
    header: &[&str],
    what: &str,
) -> Result<Option<(BufReader<File>, u64)>, ResumeError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let mut input = BufReader::with_capacity(64 * 1024, file);
    let mut buf = Vec::new();
    let expected = header.join(",");
    let header_len = read_row(&mut input, &mut buf)?;
    if header_len == 0 {
        return Ok(None);
    }
    if !buf.ends_with(b"\n") {
        // A header cut short by a crash: nothing was written after it.
        return if expected.as_bytes().starts_with(&buf) {
            Ok(None)
        } else {
            Err(ResumeError::Mismatch(format!(
                "not a {what} file: the header should be {expected:?}"
            )))
        };
    }
    let got = trim_eol(&buf);
    if got != expected.as_bytes() {
        return Err(ResumeError::Mismatch(format!(
            "not a {what} file of this command: its header is {:?}, expected {expected:?}",
            String::from_utf8_lossy(&got[..got.len().min(200)])
        )));
    }
    Ok(Some((input, header_len as u64)))
}

/// The solutions file of a resumed run, read alongside the results.
struct Solutions {
    /// `None` when the file is missing or empty: no solution is there.
    input: Option<BufReader<File>>,
    /// Bytes up to the end of the last solution taken so far (header included).
    keep_bytes: u64,
    /// Solution rows read so far, for messages.
    rows: u64,
    buf: Vec<u8>,
}

impl Solutions {
    fn open(path: &Path) -> Result<Solutions, ResumeError> {
        let opened = open_csv(path, &SOLUTION_COLUMNS, "solutions")?;
        let keep_bytes = opened.as_ref().map_or(0, |(_, len)| *len);
        Ok(Solutions {
            input: opened.map(|(input, _)| input),
            keep_bytes,
            rows: 0,
            buf: Vec::new(),
        })
    }

    /// Reads the `count` solutions of the results row for `line`. True when all of them are
    /// there; false when the file ends first or its last row is damaged (the row is then
    /// redone). Fails on a solution of another line or index, or on a damaged row in the
    /// middle of the file.
    fn take(&mut self, line: u64, count: u64) -> Result<bool, ResumeError> {
        let mut bytes = 0;
        for index in 1..=count {
            let Some(input) = &mut self.input else {
                return Ok(false);
            };
            let n = read_row(input, &mut self.buf)?;
            if n == 0 {
                return Ok(false);
            }
            self.rows += 1;
            let fields = if self.buf.ends_with(b"\n") {
                parse_fields(trim_eol(&self.buf), SOLUTION_COLUMNS.len())
            } else {
                None
            };
            let Some(fields) = fields else {
                let row = format!("row {} of the solutions", self.rows + 1);
                damaged_row_is_last(input, &mut self.buf, &row)?;
                return Ok(false);
            };
            let got = (number(fields.get(0)), number(fields.get(1)));
            if got != (Some(line), Some(index)) {
                return Err(ResumeError::Mismatch(format!(
                    "the solutions do not match the results: row {} of the solutions should be \
                     solution {index} of line {line}",
                    self.rows + 1
                )));
            }
            bytes += n as u64;
        }
        self.keep_bytes += bytes;
        Ok(true)
    }
}

/// After a damaged `row` (cut short, or with the wrong fields): fine when it was the file's last
/// row, which a crash may leave and which is then redone; an error when more rows follow, as
/// the file was then edited or is not ours.
fn damaged_row_is_last(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    row: &str,
) -> Result<(), ResumeError> {
    if read_row(input, buf)? == 0 {
        return Ok(());
    }
    Err(ResumeError::Mismatch(format!(
        "{row} is damaged and is not the last row"
    )))
}

/// Reads one CSV row (a quoted field may hold line breaks) into `buf`, newline included when
/// there is one; returns its length in bytes, 0 at the end of the file. Fails on a row longer
/// than [`MAX_ROW_BYTES`].
fn read_row(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    buf.clear();
    let mut in_quotes = false;
    loop {
        let avail = fill_buf!(input);
        if avail.is_empty() {
            return Ok(buf.len());
        }
        let mut used = avail.len();
        let mut done = false;
        for (i, &b) in avail.iter().enumerate() {
            if b == b'"' {
                in_quotes = !in_quotes;
            } else if b == b'\n' && !in_quotes {
                used = i + 1;
                done = true;
                break;
            }
        }
        buf.extend_from_slice(&avail[..used]);
        input.consume(used);
        if buf.len() > MAX_ROW_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a row longer than {MAX_ROW_BYTES} bytes: not a results file"),
            ));
        }
        if done {
            return Ok(buf.len());
        }
    }
}

fn trim_eol(row: &[u8]) -> &[u8] {
    let row = row.strip_suffix(b"\n").unwrap_or(row);
    row.strip_suffix(b"\r").unwrap_or(row)
}

/// The fields of a complete row with `want` fields, or `None` when the row is damaged (wrong
/// field count, unbalanced quotes).
fn parse_fields(row: &[u8], want: usize) -> Option<csv::ByteRecord> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(row);
    let mut record = csv::ByteRecord::new();
    if !reader.read_byte_record(&mut record).ok()? || record.len() != want {
        return None;
    }
    // Unbalanced quotes make the csv crate read to the end; a second record means the row
    // held a line break outside quotes, which `read_row` does not produce.
    if reader.read_byte_record(&mut csv::ByteRecord::new()).ok()? {
        return None;
    }
    Some(record)
}

/// A field holding a decimal number.
fn number(field: Option<&[u8]>) -> Option<u64> {
    std::str::from_utf8(field?).ok()?.parse().ok()
}

/// The `line` (first field) of a complete results row with `want` fields, whether its status
/// (the field at `status`) is `invalid`, and the number in its field at `count` (0 without
/// one); `None` when the row is damaged (wrong field count, unbalanced quotes, a `line` or
/// count that is not a number).
fn parse_row(
    row: &[u8],
    want: usize,
    status: Option<usize>,
    count: Option<usize>,
) -> Option<(u64, bool, u64)> {
    let record = parse_fields(row, want)?;
    let line = number(record.get(0))?;
    let invalid = status.and_then(|i| record.get(i)) == Some(b"invalid");
    let count = match count {
        Some(i) => number(record.get(i))?,
        None => 0,
    };
    Some((line, invalid, count))
}

#[cfg(test)]
mod tests {
    use super::super::test_input::Interrupting;
    use super::*;

    const HEADER: [&str; 3] = ["line", "puzzle", "status"];

    fn scan_bytes(bytes: &[u8]) -> Result<ResumePoint, ResumeError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        std::fs::write(&path, bytes).unwrap();
        scan(&path, &HEADER)
    }

    #[test]
    fn missing_empty_or_half_header_starts_afresh() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            scan(&dir.path().join("none.csv"), &HEADER).unwrap(),
            ResumePoint::default()
        );
        assert_eq!(scan_bytes(b"").unwrap(), ResumePoint::default());
        assert_eq!(scan_bytes(b"line,puz").unwrap(), ResumePoint::default());
        // What a run killed before its first write leaves of an earlier run's output.
        assert_eq!(scan_bytes(b"l").unwrap(), ResumePoint::default());
        assert!(scan_bytes(b"other").is_err());
    }

    #[test]
    fn counts_complete_rows_and_drops_a_damaged_last_row() {
        let full = b"line,puzzle,status\n3,\"a\nb\",x\n7,p,unique\n";
        let p = scan_bytes(full).unwrap();
        assert_eq!(
            (p.rows, p.last_line, p.keep_bytes),
            (2, 7, full.len() as u64)
        );
        let mut cut = full.to_vec();
        cut.extend_from_slice(b"9,p,uni");
        assert_eq!(scan_bytes(&cut).unwrap(), p, "partial last row");
        let mut ragged = full.to_vec();
        ragged.extend_from_slice(b"9,p\n");
        assert_eq!(scan_bytes(&ragged).unwrap(), p, "too few fields");
        let mut open_quote = full.to_vec();
        open_quote.extend_from_slice(b"9,\"p,x\n");
        assert_eq!(scan_bytes(&open_quote).unwrap(), p, "unbalanced quote");
    }

    #[test]
    fn a_row_is_kept_only_with_all_its_solutions() {
        const HEADER: [&str; 4] = ["line", "puzzle", "status", "solutions"];
        let results: &[u8] = b"line,puzzle,status,solutions\n1,a,unique,1\n2,b,invalid,0\n\
                               3,c,multiple,2\n";
        let row_ends = [29, 42, 56, results.len()];
        let solutions: &[u8] = b"line,index,solution\n1,1,x\n3,1,y\n3,2,z\n";
        let solution_ends = [20, 26, 32, solutions.len()];
        let dir = tempfile::tempdir().unwrap();
        let (r, s) = (dir.path().join("r.csv"), dir.path().join("s.csv"));
        let scan_pair = |solutions: &[u8]| {
            std::fs::write(&r, results).unwrap();
            std::fs::write(&s, solutions).unwrap();
            scan_with_solutions(&r, &HEADER, &s)
        };
        let kept = |p: ResumePoint| (p.rows, p.keep_bytes, p.solutions_bytes);
        let all = (3, row_ends[3] as u64, solution_ends[3] as u64);
        assert_eq!(kept(scan_pair(solutions).unwrap()), all);
        let mut extra = solutions.to_vec();
        extra.extend_from_slice(b"4,1,w\n");
        assert_eq!(kept(scan_pair(&extra).unwrap()), all, "solutions ahead");
        // Row 3's second solution is missing or cut short: rows 1 and 2 stay.
        let two = (2, row_ends[2] as u64, solution_ends[1] as u64);
        assert_eq!(kept(scan_pair(&solutions[..32]).unwrap()), two);
        assert_eq!(kept(scan_pair(&solutions[..35]).unwrap()), two);
        // No solutions file at all: row 1 already lacks its solution.
        let none = (0, row_ends[0] as u64, 0);
        assert_eq!(kept(scan_pair(b"").unwrap()), none);
        assert_eq!(kept(scan_pair(b"line,ind").unwrap()), none);
        std::fs::remove_file(&s).unwrap();
        assert_eq!(kept(scan_with_solutions(&r, &HEADER, &s).unwrap()), none);
        // Solutions of another run, or another file: refused.
        assert!(scan_pair(b"line,index,solution\n1,1,x\n3,2,z\n").is_err());
        assert!(scan_pair(b"line,index,solution\n2,1,x\n").is_err());
        assert!(scan_pair(b"line,index,solution\n1,1\n3,1,y\n").is_err());
        assert!(scan_pair(b"a,b\n").is_err());
        // Results without a solutions column cannot be checked.
        std::fs::write(&r, b"line,puzzle,status\n1,a,unique\n").unwrap();
        std::fs::write(&s, solutions).unwrap();
        let err = scan_with_solutions(&r, &HEADER[..3], &s).unwrap_err();
        assert!(err.to_string().contains("no solutions column"), "{err}");
    }

    #[test]
    fn damaged_row_in_the_middle_or_wrong_header_is_refused() {
        assert!(matches!(
            scan_bytes(b"line,puzzle,status\n3,p\n4,p,x\n"),
            Err(ResumeError::Mismatch(_))
        ));
        assert!(matches!(
            scan_bytes(b"a,b,c\n1,2,3\n"),
            Err(ResumeError::Mismatch(_))
        ));
    }

    #[test]
    fn rows_interrupted_by_a_signal_are_retried() {
        let text = "line,puzzle\n1,\"a\nb\"\n2,c\n";
        // A buffer of 4 bytes: every row takes several reads, each after a failed one.
        let mut input = io::BufReader::with_capacity(4, Interrupting::new(text.into()));
        let mut buf = Vec::new();
        let mut rows = Vec::new();
        while read_row(&mut input, &mut buf).unwrap() > 0 {
            rows.push(String::from_utf8(buf.clone()).unwrap());
        }
        assert_eq!(rows, ["line,puzzle\n", "1,\"a\nb\"\n", "2,c\n"]);
    }
}
