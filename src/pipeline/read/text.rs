//! The text format: one puzzle per line, 81 cells, optionally followed by a delimiter and a
//! comment. Empty lines and lines starting with `#` are not records.

use std::io::{self, BufRead};

use super::lines::Lines;
use super::{BOM, MAX_RECORD_BYTES, Record, RecordSource, parse_record, too_long};

/// Text records: one puzzle per line.
pub(super) struct TextRecords<R> {
    lines: Lines<R>,
    buf: Vec<u8>,
}

impl<R: BufRead> TextRecords<R> {
    pub(super) fn new(inner: R) -> Self {
        TextRecords {
            lines: Lines::new(inner),
            buf: Vec::with_capacity(256),
        }
    }
}

impl<R: BufRead + Send> RecordSource for TextRecords<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        while let Some((line, total)) = self.lines.next_line(&mut self.buf)? {
            let mut bytes = &self.buf[..];
            if line == 1 {
                bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
            }
            let trimmed = bytes.trim_ascii();
            if trimmed.is_empty() || trimmed[0] == b'#' {
                continue;
            }
            if total > MAX_RECORD_BYTES as u64 {
                return Ok(Some(too_long(line, bytes, total)));
            }
            return Ok(Some(parse_record(line, bytes)));
        }
        Ok(None)
    }
}
