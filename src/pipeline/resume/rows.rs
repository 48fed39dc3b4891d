//! The rows of the CSV files a resumed run reads again ([`Rows`]), one at a time.
//!
//! A row with no quote on one line, as every row this tool writes for a puzzle is, is taken
//! apart in place ([`Plain`]): only its first [`LEADING`] fields are located, and its commas
//! counted. Any other row goes through the CSV splitter (`csv-core`).
//!
//! That one pass over a plain row does the work of `memchr` (the line's end, then each of the
//! first commas) and of a byte loop (the other commas): it looks at 64 bytes at a time, with
//! SSE2, which every x86-64 CPU has, or byte by byte on other CPUs. `memchr` is the faster for
//! long haystacks, but the fields of a row are short and its cost per call, paid five times a
//! row, was most of the cost of reading the row: on the 17-clue corpus six times over
//! (294,948 rows of 187 bytes), reading a row took ~790 instructions with `memchr` and ~460
//! with this pass (callgrind), still a third of the instructions of the whole resume.

use std::fs::File;
use std::io::{self, BufReader};
use std::path::Path;

use super::ResumeError;
use crate::pipeline::read::MAX_RECORD_BYTES;
use crate::pipeline::read::csv::{CsvRow, CsvSplitter};

/// The fields of a row that a resumed run looks at: the first few.
pub(super) const LEADING: usize = 4;

/// A CSV file read row by row: plain rows in place, others by the CSV splitter.
pub(super) struct Rows {
    splitter: CsvSplitter<BufReader<File>>,
    row: CsvRow,
    /// The row just read, when `is_plain`.
    plain: Plain,
    /// The row just read was a plain line (else it is in `row`).
    is_plain: bool,
    /// Rows read so far, the header included, for messages.
    pub(super) read: u64,
}

/// A plain row: its first fields, and how many it has.
#[derive(Debug)]
struct Plain {
    /// The row up to the end of the last of its first [`LEADING`] fields.
    text: Vec<u8>,
    /// Where each of those fields ends in `text`; the next starts after the comma there.
    ends: [usize; LEADING],
    /// How many of them the row has.
    leading: usize,
    /// The fields in the row.
    fields: usize,
    end_offset: u64,
    /// The last bytes of the buffer, padded to a block.
    tail: [u8; BLOCK],
}

impl Default for Plain {
    fn default() -> Plain {
        Plain {
            text: Vec::new(),
            ends: [0; LEADING],
            leading: 0,
            fields: 0,
            end_offset: 0,
            tail: [0; BLOCK],
        }
    }
}

/// The bytes looked at together: one bit each in a `u64`.
const BLOCK: usize = 64;

impl Plain {
    /// Takes apart the row at the start of `bytes` when its line end is there, within the
    /// record cap, with no quote before it: takes its first fields, counts all of them, and
    /// returns the line's length. `None` otherwise.
    fn split(&mut self, bytes: &[u8]) -> Option<usize> {
        self.leading = 0;
        let mut fields = 1;
        let mut at = 0;
        let end = loop {
            if at > MAX_RECORD_BYTES {
                return None;
            }
            let block: &[u8; BLOCK] = match bytes.get(at..at + BLOCK) {
                Some(block) => block.try_into().ok()?,
                None => {
                    // The last bytes, padded with zeros, which are neither commas nor stops.
                    let rest = bytes.get(at..).filter(|r| !r.is_empty())?;
                    self.tail = [0; BLOCK];
                    self.tail[..rest.len()].copy_from_slice(rest);
                    &self.tail
                }
            };
            let (mut commas, stops) = classify(block);
            // The commas before the line's end, if it is in this block.
            let stop = stops.trailing_zeros();
            commas &= 1u64.checked_shl(stop).map_or(u64::MAX, |bit| bit - 1);
            while commas != 0 && self.leading < LEADING {
                self.ends[self.leading] = at + commas.trailing_zeros() as usize;
                self.leading += 1;
                fields += 1;
                commas &= commas - 1;
            }
            // Few commas are left: counted one by one, cheaper than a popcount in software.
            while commas != 0 {
                fields += 1;
                commas &= commas - 1;
            }
            if stops != 0 {
                break at + stop as usize;
            }
            at += BLOCK;
        };
        if bytes[end] == b'"' {
            return None;
        }
        self.fields = fields;
        // With fewer than LEADING commas, the last field ends with the line.
        if self.leading < LEADING {
            self.ends[self.leading] = end;
            self.leading += 1;
        }
        self.text.clear();
        self.text
            .extend_from_slice(&bytes[..self.ends[self.leading - 1]]);
        Some(end)
    }

    fn get(&self, i: usize) -> Option<&[u8]> {
        if i >= self.leading {
            return None;
        }
        let start = if i == 0 { 0 } else { self.ends[i - 1] + 1 };
        Some(&self.text[start..self.ends[i]])
    }
}

/// Bit `i` of the first mask is set where `block[i]` is a comma; of the second, where it is a
/// line end (`\n`, `\r`) or a quote.
#[cfg(target_arch = "x86_64")]
fn classify(block: &[u8; BLOCK]) -> (u64, u64) {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let (mut commas, mut stops) = (0, 0);
    for (i, chunk) in block.chunks_exact(16).enumerate() {
        // SAFETY: these need SSE2, which every x86-64 CPU has (the target enables it); the
        // load reads the 16 bytes of `chunk`, with no alignment needed.
        let (c, s) = unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            let s = _mm_or_si128(_mm_or_si128(eq(b'\n'), eq(b'\r')), eq(b'"'));
            (_mm_movemask_epi8(eq(b',')), _mm_movemask_epi8(s))
        };
        commas |= u64::from(c as u16) << (16 * i);
        stops |= u64::from(s as u16) << (16 * i);
    }
    (commas, stops)
}

#[cfg(not(target_arch = "x86_64"))]
fn classify(block: &[u8; BLOCK]) -> (u64, u64) {
    classify_bytes(block)
}

/// [`classify`], byte by byte.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn classify_bytes(block: &[u8; BLOCK]) -> (u64, u64) {
    let bit = |i: usize, yes: bool| u64::from(yes) << i;
    block
        .iter()
        .enumerate()
        .fold((0, 0), |(commas, stops), (i, &b)| {
            (
                commas | bit(i, b == b','),
                stops | bit(i, matches!(b, b'\n' | b'\r' | b'"')),
            )
        })
}

impl Rows {
    /// Opens the CSV file at `path` and checks its header against `header`. `None` when the
    /// file is missing, empty or holds only the start of the header (a crash cut it): it
    /// starts afresh. Otherwise the rows, placed after the header, and the header's length in
    /// bytes.
    pub(super) fn open(
        path: &Path,
        header: &[&str],
        what: &str,
    ) -> Result<Option<(Rows, u64)>, ResumeError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let mut rows = Rows {
            splitter: CsvSplitter::new(BufReader::with_capacity(64 * 1024, file)),
            row: CsvRow::default(),
            plain: Plain::default(),
            is_plain: false,
            read: 0,
        };
        let expected = header.join(",");
        // The header is read field by field, whatever it holds.
        if !rows.splitter.next_row(&mut rows.row)? {
            return Ok(None);
        }
        rows.read = 1;
        let got = rows.row.joined();
        if !rows.row.terminated && expected.as_bytes().starts_with(&got) {
            // A header cut short by a crash: nothing was written after it.
            return Ok(None);
        }
        if got != expected.as_bytes() || !rows.row.terminated {
            return Err(ResumeError::Mismatch(format!(
                "not a {what} file of this command: its header is {:?}, expected {expected:?}",
                String::from_utf8_lossy(&got[..got.len().min(200)])
            )));
        }
        let header_len = rows.row.end_offset;
        Ok(Some((rows, header_len)))
    }

    /// Reads the next row; false at the end of the file.
    pub(super) fn next(&mut self) -> io::Result<bool> {
        let plain = &mut self.plain;
        let found = self
            .splitter
            .next_plain_line_by(|bytes| Some((plain.split(bytes)?, ())))?;
        self.is_plain = found.is_some();
        let more = if self.is_plain {
            self.plain.end_offset = self.splitter.offset();
            true
        } else {
            self.splitter.next_row(&mut self.row)?
        };
        self.read += u64::from(more);
        Ok(more)
    }

    /// Field `i` of the row just read, when it is one of the first [`LEADING`] or the row was
    /// not a plain line.
    pub(super) fn get(&self, i: usize) -> Option<&[u8]> {
        if self.is_plain {
            self.plain.get(i)
        } else {
            self.row.get(i)
        }
    }

    /// Where the row just read ends in the file, its line end included.
    pub(super) fn end_offset(&self) -> u64 {
        if self.is_plain {
            self.plain.end_offset
        } else {
            self.row.end_offset
        }
    }

    /// Whether the row just read is whole: ended by a line break, with `fields` fields.
    pub(super) fn whole(&self, fields: usize) -> bool {
        let row = &self.row;
        if self.is_plain {
            self.plain.fields == fields
        } else {
            row.terminated && !row.open_quote && !row.too_long() && row.len() == fields
        }
    }

    /// After a row that is not whole: fine when it was the file's last row, which a crash may
    /// leave and which is then redone; an error when more rows follow, as the file was then
    /// edited or is not ours.
    pub(super) fn damaged_row_is_last(&mut self, what: &str) -> Result<(), ResumeError> {
        let row = self.read;
        if self.next()? {
            return Err(ResumeError::Mismatch(format!(
                "row {row} of {what} is damaged and is not the last row"
            )));
        }
        Ok(())
    }

    /// Field `i` of the row just read, as a decimal number.
    pub(super) fn number(&self, i: usize) -> Option<u64> {
        let field = self.get(i)?;
        if field.is_empty() || field.len() > 19 {
            return None;
        }
        field.iter().try_fold(0, |n, &d| {
            let digit = d.wrapping_sub(b'0');
            (digit < 10).then(|| n * 10 + u64::from(digit))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_is_classify_bytes() {
        let mut block = [0u8; BLOCK];
        for seed in 0..4096u32 {
            for (i, b) in block.iter_mut().enumerate() {
                let x = seed.wrapping_mul(2654435761).rotate_left(i as u32 * 5);
                *b = [b',', b'\n', b'\r', b'"', b'a', 0, 0xff, x as u8][(x >> 7) as usize % 8];
            }
            assert_eq!(classify(&block), classify_bytes(&block), "{block:?}");
        }
    }

    #[test]
    fn split_finds_the_first_fields_and_counts_them_all() {
        let split = |bytes: &[u8]| {
            let mut plain = Plain::default();
            let end = plain.split(bytes)?;
            let leading: Vec<&[u8]> = (0..plain.leading).filter_map(|i| plain.get(i)).collect();
            Some((end, leading.join(&b"|"[..]), plain.fields))
        };
        let long = "x".repeat(40);
        let row = format!("12,{long},unique,1,{long},,9\n3,");
        let leading = format!("12|{long}|unique|1").into_bytes();
        assert_eq!(split(row.as_bytes()), Some((row.len() - 3, leading, 7)));
        for (bytes, want) in [
            (&b"a\n"[..], Some((1, b"a".to_vec(), 1))),
            (b",\r\n", Some((1, b"|".to_vec(), 2))),
            (b"1,2\n", Some((3, b"1|2".to_vec(), 2))),
            (b"1,2,3,4\n", Some((7, b"1|2|3|4".to_vec(), 4))),
            (b"1,2,3,4,5,6\n", Some((11, b"1|2|3|4".to_vec(), 6))),
            (b"1,2,3,4,5", None),
            (b"1,\"2\"\n", None),
            (b"", None),
        ] {
            assert_eq!(split(bytes), want, "{:?}", String::from_utf8_lossy(bytes));
        }
        // Every length across the blocks, line end at each place.
        for len in 0..200 {
            let mut bytes: Vec<u8> = (0..len)
                .map(|i| if i % 3 == 2 { b',' } else { b'7' })
                .collect();
            let commas = bytes.iter().filter(|&&b| b == b',').count();
            bytes.extend_from_slice(b"\n,,,");
            let got = split(&bytes).unwrap();
            assert_eq!((got.0, got.2), (len, commas + 1), "length {len}");
        }
    }
}
