//! Splitting a byte stream into lines with bounded memory, for the text and grid formats.
//!
//! `BufRead::read_until` would hold a whole line however long it is; this keeps at most
//! [`MAX_RECORD_BYTES`] of each and counts the rest, so a 1 GB line with no line break costs
//! 64 KiB. Lines end at `\n`, `\r\n` or a lone `\r`, and every one of them counts as a line.

use std::io::{self, BufRead};

use super::{MAX_RECORD_BYTES, fill_buf};

/// The lines of a byte stream, numbered from 1.
pub(super) struct Lines<R> {
    inner: R,
    line: u64,
    /// The last line ended with `\r`: a `\n` right after it belongs to that line end.
    after_cr: bool,
}

impl<R: BufRead> Lines<R> {
    pub(super) fn new(inner: R) -> Self {
        Lines::starting_at(inner, 0)
    }

    /// The lines of a stream that starts at the start of a line, after `lines` line breaks
    /// of the file it is a slice of: the first is numbered `lines + 1`.
    pub(super) fn starting_at(inner: R, lines: u64) -> Self {
        Lines {
            inner,
            line: lines,
            after_cr: false,
        }
    }

    /// Reads the next line into `buf` (without its line end, cut to [`MAX_RECORD_BYTES`]):
    /// returns its number and full length in bytes, or `None` at the end of the input.
    pub(super) fn next_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<(u64, u64)>> {
        buf.clear();
        let mut total = 0u64;
        let mut any = false;
        loop {
            let avail = fill_buf!(self.inner);
            if avail.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            if self.after_cr {
                self.after_cr = false;
                if avail[0] == b'\n' {
                    self.inner.consume(1);
                    continue;
                }
            }
            any = true;
            let (take, end) = match memchr::memchr2(b'\n', b'\r', avail) {
                Some(i) => {
                    self.after_cr = avail[i] == b'\r';
                    (i, Some(i + 1))
                }
                None => (avail.len(), None),
            };
            let room = MAX_RECORD_BYTES.saturating_sub(buf.len());
            buf.extend_from_slice(&avail[..take.min(room)]);
            total += take as u64;
            self.inner.consume(end.unwrap_or(take));
            if end.is_some() {
                break;
            }
        }
        self.line += 1;
        Ok(Some((self.line, total)))
    }

    /// Looks at the next line in the buffer, without copying it, when all of it and its line
    /// end are there: when `take` takes it (returns `Some`), consumes it and returns its number
    /// and what `take` gave. `None`, having consumed nothing of the line, otherwise.
    pub(super) fn take_line_in_place<T>(
        &mut self,
        take: impl FnOnce(&[u8]) -> Option<T>,
    ) -> io::Result<Option<(u64, T)>> {
        if !self.past_cr()? {
            return Ok(None);
        }
        let avail = fill_buf!(self.inner);
        let Some(end) = memchr::memchr2(b'\n', b'\r', avail) else {
            return Ok(None);
        };
        self.take_first(end, take)
    }

    /// [`Lines::take_line_in_place`] for `take` that takes only lines of `len` bytes with no
    /// line break in them: when a line end follows the first `len` bytes of the buffer, they
    /// are handed to `take` without a search for the line end. Any other line is looked at as
    /// `take_line_in_place` does.
    pub(super) fn take_line_of_len_in_place<T>(
        &mut self,
        len: usize,
        take: impl Fn(&[u8]) -> Option<T>,
    ) -> io::Result<Option<(u64, T)>> {
        if !self.past_cr()? {
            return Ok(None);
        }
        if matches!(fill_buf!(self.inner).get(len), Some(b'\n' | b'\r'))
            && let Some(taken) = self.take_first(len, &take)?
        {
            return Ok(Some(taken));
        }
        self.take_line_in_place(take)
    }

    /// After a line that ended with `\r`, consumes the `\n` that completes its line end, if
    /// there is one; false at the end of the input.
    fn past_cr(&mut self) -> io::Result<bool> {
        if self.after_cr {
            let avail = fill_buf!(self.inner);
            if avail.is_empty() {
                return Ok(false);
            }
            self.after_cr = false;
            if avail[0] == b'\n' {
                self.inner.consume(1);
            }
        }
        Ok(true)
    }

    /// Hands the buffer's first `end` bytes, which a line end follows, to `take`; when it takes
    /// them, consumes the line and its line end.
    fn take_first<T>(
        &mut self,
        end: usize,
        take: impl FnOnce(&[u8]) -> Option<T>,
    ) -> io::Result<Option<(u64, T)>> {
        let avail = fill_buf!(self.inner);
        let Some(out) = take(&avail[..end]) else {
            return Ok(None);
        };
        self.after_cr = avail[end] == b'\r';
        self.inner.consume(end + 1);
        self.line += 1;
        Ok(Some((self.line, out)))
    }
}

/// The line breaks in `bytes`: every `\n` and every `\r`, but a `\n` right after a `\r` (which
/// `after_cr` carries over from the bytes before) only once, as the readers count lines.
pub(super) fn line_breaks(bytes: &[u8], after_cr: &mut bool) -> u64 {
    let Some(&last) = bytes.last() else {
        return 0;
    };
    // Counting one byte is a vector loop; most files have no `\r`, which one search tells.
    let mut n = memchr::memchr_iter(b'\n', bytes).count() as u64;
    for i in memchr::memchr_iter(b'\r', bytes) {
        if bytes.get(i + 1) != Some(&b'\n') {
            n += 1;
        }
    }
    if *after_cr && bytes[0] == b'\n' {
        n -= 1;
    }
    *after_cr = last == b'\r';
    n
}
