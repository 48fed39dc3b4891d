//! The grid format: blocks of nine rows of nine cells, as programs write their arrays.
//!
//! A block ends after its ninth row or at a blank line; lines of only rules, braces or
//! brackets are skipped, so C- or JSON-style arrays read as they are written.

use std::io::{self, BufRead};

use super::lines::Lines;
use super::{BOM, MAX_RECORD_BYTES, MAX_SHOWN_BYTES, Record, RecordSource, invalid, puzzle};
use crate::grid::{CELLS, Grid, ParseError};

/// Grid blocks: nine rows of nine cells.
pub(super) struct GridRecords<R> {
    lines: Lines<R>,
    buf: Vec<u8>,
    cells: Vec<u8>,
    /// Text of the block so far, for an invalid record's `puzzle` column.
    text: Vec<u8>,
}

impl<R: BufRead> GridRecords<R> {
    pub(super) fn new(inner: R) -> Self {
        GridRecords {
            lines: Lines::new(inner),
            buf: Vec::new(),
            cells: Vec::with_capacity(CELLS),
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
            let trimmed = bytes.trim_ascii();
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
                let mut cells = [0u8; CELLS];
                cells.copy_from_slice(&self.cells);
                match Grid::from_cells(cells) {
                    Ok(g) => puzzle(start, g),
                    Err(e) => invalid(start, &self.text, e),
                }
            }
        }))
    }
}
