//! Resuming an interrupted run (`solve --resume`): what the existing output already holds.
//!
//! An interrupted run leaves a results file whose rows are a prefix of the full result, one row
//! per input record, flushed at batch boundaries; at worst the last row is cut short (a crash or
//! a second Ctrl-C in the middle of a write). [`scan`] reads that file without changing it: it
//! checks the header, counts the complete rows, remembers the `line` of the last one and where
//! it ends. The pipeline then skips that many input records, checks that the last skipped
//! record is on that line, cuts the file after the last complete row and appends the rest.
//! Nothing is modified until every check has passed.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

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
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(ResumePoint::default()),
        Err(e) => return Err(e.into()),
    };
    let mut input = BufReader::with_capacity(64 * 1024, file);
    let mut buf = Vec::new();
    let expected = header.join(",");

    let header_len = read_row(&mut input, &mut buf)?;
    if header_len == 0 {
        return Ok(ResumePoint::default());
    }
    if !buf.ends_with(b"\n") {
        // A header cut short by a crash: nothing was written after it.
        return if expected.as_bytes().starts_with(&buf) {
            Ok(ResumePoint::default())
        } else {
            Err(ResumeError::Mismatch(format!(
                "not a results file: the header should be {expected:?}"
            )))
        };
    }
    let got = trim_eol(&buf);
    if got != expected.as_bytes() {
        return Err(ResumeError::Mismatch(format!(
            "not a results file of this command: its header is {:?}, expected {expected:?}",
            String::from_utf8_lossy(&got[..got.len().min(200)])
        )));
    }
    let mut point = ResumePoint {
        keep_bytes: header_len as u64,
        has_header: true,
        ..ResumePoint::default()
    };
    let status_column = header.iter().position(|&h| h == "status");
    let mut row_number = 1u64;
    loop {
        let n = read_row(&mut input, &mut buf)?;
        if n == 0 {
            return Ok(point);
        }
        row_number += 1;
        let complete = buf.ends_with(b"\n");
        let fields = if complete {
            parse_row(trim_eol(&buf), header.len(), status_column)
        } else {
            None
        };
        match fields {
            Some((line, invalid)) => {
                point.rows += 1;
                point.invalid += u64::from(invalid);
                point.last_line = line;
                point.keep_bytes += n as u64;
            }
            None => {
                // A damaged row is redone when it is the last one; a damaged row followed by
                // more rows means the file was edited or is not ours.
                if read_row(&mut input, &mut buf)? == 0 {
                    return Ok(point);
                }
                return Err(ResumeError::Mismatch(format!(
                    "row {row_number} is damaged and is not the last row"
                )));
            }
        }
    }
}

/// Reads one CSV row (a quoted field may hold line breaks) into `buf`, newline included when
/// there is one; returns its length in bytes, 0 at the end of the file. Fails on a row longer
/// than [`MAX_ROW_BYTES`].
fn read_row(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    buf.clear();
    let mut in_quotes = false;
    loop {
        let avail = input.fill_buf()?;
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

/// The `line` (first field) of a complete row with `want` fields and whether its status (the
/// field at `status`) is `invalid`, or `None` when the row is damaged (wrong field count,
/// unbalanced quotes, a `line` that is not a number).
fn parse_row(row: &[u8], want: usize, status: Option<usize>) -> Option<(u64, bool)> {
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
    let line = std::str::from_utf8(record.get(0)?).ok()?;
    let invalid = status.and_then(|i| record.get(i)) == Some(b"invalid");
    Some((line.parse().ok()?, invalid))
}

#[cfg(test)]
mod tests {
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
}
