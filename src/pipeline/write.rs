//! The write stage: result rows as CSV, in input order, and the optional file of every solution.
//!
//! Rows are formatted by hand into a reused buffer (grids as 81 bytes) and quoted per RFC 4180
//! only where a field needs it (invalid records' text and error messages). A puzzle's row,
//! whose fields never need quotes, is put together in a fixed array with its numbers worked
//! out eight digits at a time, and costs about 450 instructions; writing allocates nothing.
//! The output is the same as the `csv` crate writes with its default settings. Whole records
//! go out in chunks of about 64 KiB, straight to the output with no second buffer. The
//! pipeline flushes at every batch boundary, so a crash loses at most the batch in flight.

use std::io::{self, Write};

use super::read::RecordInput;
use super::solve::Row;
use crate::grid::{CELLS, Grid};

/// The columns of the results CSV, in order.
pub const COLUMNS: [&str; 8] = [
    "line",
    "puzzle",
    "status",
    "solutions",
    "solution",
    "guesses",
    "time_ns",
    "error",
];

/// The columns of the `--emit-solutions` CSV.
pub const SOLUTION_COLUMNS: [&str; 3] = ["line", "index", "solution"];

/// Writes result rows as CSV.
///
/// Finished records gather in a buffer that goes to `out` in chunks of about 64 KiB, at
/// [`RowWriter::flush`] and when the writer is dropped: one write per record cost more than
/// formatting it. Only whole records ever reach `out`.
pub struct RowWriter<W: Write> {
    out: W,
    /// Finished records not yet handed to `out`, then the record being built.
    buf: Vec<u8>,
    /// Where the record being built starts in `buf`.
    record_start: usize,
    /// True when the current record has a field already (a comma goes before the next).
    in_record: bool,
    /// Where [`RowWriter::puzzle_row_fields`] puts a row together, kept so that it need not
    /// be cleared for every row.
    fields: Fields,
}

/// About how many bytes of finished records [`RowWriter`] gathers before handing them on.
const CHUNK: usize = 64 * 1024;

/// The longest a puzzle's row without an error can be: a separator before it, four numbers
/// of at most 20 digits, two grids, the longest status and seven commas; and room to store
/// eight bytes at once after the last number ([`Fields::number`]).
const PUZZLE_ROW_MAX: usize = 1 + 4 * 20 + 2 * CELLS + 10 + 7 + 8;

/// Fields being put together in a fixed array ([`RowWriter::puzzle_row_fields`]).
struct Fields {
    bytes: [u8; PUZZLE_ROW_MAX],
    len: usize,
}

impl Fields {
    fn byte(&mut self, b: u8) {
        self.bytes[self.len] = b;
        self.len += 1;
    }

    fn text(&mut self, text: &[u8]) {
        self.bytes[self.len..self.len + text.len()].copy_from_slice(text);
        self.len += text.len();
    }

    /// Writes the grid's line straight into place: through a local array and a copy, a row's
    /// two grids cost 24 instructions more.
    fn grid(&mut self, g: &Grid) {
        let end = self.len + CELLS;
        // The range is CELLS long, so the conversion cannot fail.
        if let Ok(line) = <&mut [u8; CELLS]>::try_from(&mut self.bytes[self.len..end]) {
            g.write_line(line);
        }
        self.len = end;
    }

    /// Writes `n` in decimal, straight into place. Below 10^8 (every line number and time
    /// in practice) the eight digits are worked out side by side in one `u64`, one per byte,
    /// and stored at once: about 20 instructions, with no call and no loop. Larger numbers go
    /// through `itoa`.
    #[inline(always)]
    fn number(&mut self, n: u64) {
        if n >= 100_000_000 {
            self.text(itoa::Buffer::new().format(n).as_bytes());
            return;
        }
        // Two 32-bit lanes hold the high and the low four digits; each is split into two
        // 16-bit lanes of two digits and those into bytes of one, the quotients by 100 and
        // by 10 coming from multiplications that stay within their lanes (10486 / 2^20 and
        // 103 / 2^10 divide exactly below 10^4 and 10^2). The first digit ends up in the
        // lowest byte, which is the first in memory.
        let x = (n / 10_000) | ((n % 10_000) << 32);
        let q = ((x * 10486) >> 20) & 0x0000_007F_0000_007F;
        let x = q | (x - q * 100) << 16;
        let q = ((x * 103) >> 10) & 0x000F_000F_000F_000F;
        let digits = q | (x - q * 10) << 8;
        // Leading zeros are zero bytes at the bottom; zero itself keeps one digit.
        let zeros = (digits.trailing_zeros() / 8).min(7);
        let ascii = (digits | 0x3030_3030_3030_3030) >> (8 * zeros);
        self.bytes[self.len..self.len + 8].copy_from_slice(&ascii.to_le_bytes());
        self.len += 8 - zeros as usize;
    }
}

impl<W: Write> std::fmt::Debug for RowWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowWriter").finish_non_exhaustive()
    }
}

/// True when a field must be quoted: it holds a quote, a comma or a line break.
fn needs_quotes(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .any(|&b| matches!(b, b'"' | b',' | b'\n' | b'\r'))
}

impl<W: Write> RowWriter<W> {
    /// A writer whose first record is the given header row; like every record, it reaches
    /// `out` with the first chunk, at the first [`RowWriter::flush`] or when the writer is
    /// dropped.
    pub fn new(out: W, header: &[&str]) -> io::Result<Self> {
        let mut w = RowWriter::appending(out);
        for h in header {
            w.field(h.as_bytes())?;
        }
        w.end_record()?;
        Ok(w)
    }

    /// A writer that appends rows to an output which already has its header (`--resume`).
    pub fn appending(out: W) -> Self {
        RowWriter {
            out,
            buf: Vec::with_capacity(CHUNK + 512),
            record_start: 0,
            in_record: false,
            fields: Fields {
                bytes: [0; PUZZLE_ROW_MAX],
                len: 0,
            },
        }
    }

    /// Writes one results row (the [`COLUMNS`]).
    pub fn write_row(&mut self, row: &Row) -> io::Result<()> {
        self.write_row_fields(row)?;
        self.end_record()
    }

    /// Writes the [`COLUMNS`] fields of a row without ending the record, so that a caller can
    /// append more fields (as `validate` does) before calling [`RowWriter::end_record`].
    pub fn write_row_fields(&mut self, row: &Row) -> io::Result<()> {
        match (&row.record.input, row.conflict) {
            (RecordInput::Puzzle(puzzle), None) => {
                self.puzzle_row_fields(puzzle, row);
                Ok(())
            }
            _ => self.row_fields_one_by_one(row),
        }
    }

    /// [`RowWriter::write_row_fields`] for a puzzle with no error, whose fields never need
    /// quotes: they are put together in a fixed array and appended at once. Field by field,
    /// with a capacity check and often a `memcpy` call per field and a scan for quotes in
    /// the status and the empty error, a row cost about 660 instructions.
    fn puzzle_row_fields(&mut self, puzzle: &Grid, row: &Row) {
        let out = &mut self.fields;
        out.len = 0;
        if self.in_record {
            out.byte(b',');
        }
        out.number(row.record.line);
        out.byte(b',');
        out.grid(puzzle);
        out.byte(b',');
        out.text(row.status.as_str().as_bytes());
        out.byte(b',');
        out.number(row.outcome.solutions);
        out.byte(b',');
        if let Some(solution) = &row.outcome.solution {
            out.grid(solution);
        }
        out.byte(b',');
        out.number(row.outcome.guesses);
        out.byte(b',');
        out.number(row.time_ns);
        // The error field is empty.
        out.byte(b',');
        self.buf.extend_from_slice(&out.bytes[..out.len]);
        self.in_record = true;
    }

    /// [`RowWriter::write_row_fields`] for any row, a field at a time.
    fn row_fields_one_by_one(&mut self, row: &Row) -> io::Result<()> {
        self.number(row.record.line);
        match &row.record.input {
            RecordInput::Puzzle(g) => self.grid(g),
            RecordInput::Invalid { text, .. } => self.field(text.as_bytes())?,
        }
        self.field(row.status.as_str().as_bytes())?;
        self.number(row.outcome.solutions);
        match &row.outcome.solution {
            Some(s) => self.grid(s),
            None => self.field(b"")?,
        }
        self.number(row.outcome.guesses);
        self.number(row.time_ns);
        match row.error() {
            Some(e) => self.field(e.as_bytes()),
            None => self.field(b""),
        }
    }

    fn separator(&mut self) {
        if self.in_record {
            self.buf.push(b',');
        }
        self.in_record = true;
    }

    /// Writes one more field of the current record, quoted if it needs it.
    pub fn field(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.separator();
        if needs_quotes(bytes) {
            self.buf.push(b'"');
            for &b in bytes {
                if b == b'"' {
                    self.buf.push(b'"');
                }
                self.buf.push(b);
            }
            self.buf.push(b'"');
        } else {
            self.buf.extend_from_slice(bytes);
        }
        Ok(())
    }

    fn grid(&mut self, g: &Grid) {
        self.separator();
        // A fixed-size line converts in a few vector operations; an iterator extending the
        // record went byte by byte.
        let mut line = [0u8; CELLS];
        g.write_line(&mut line);
        self.buf.extend_from_slice(&line);
    }

    fn number(&mut self, n: u64) {
        self.separator();
        let mut buf = itoa::Buffer::new();
        self.buf.extend_from_slice(buf.format(n).as_bytes());
    }

    /// Ends the current record; it goes to the underlying writer with the next chunk.
    pub fn end_record(&mut self) -> io::Result<()> {
        self.buf.push(b'\n');
        self.in_record = false;
        self.record_start = self.buf.len();
        if self.record_start >= CHUNK {
            self.hand_on()?;
        }
        Ok(())
    }

    /// Hands the finished records to the underlying writer.
    fn hand_on(&mut self) -> io::Result<()> {
        let done = self.record_start;
        self.record_start = 0;
        // Dropped even on an error: part of them may have gone out, and the run stops on a
        // write error, so a later flush (or the drop) must not write them again.
        let result = self.out.write_all(&self.buf[..done]);
        self.buf.drain(..done);
        result
    }

    /// Writes the `--emit-solutions` rows of `row`: one `line,index,solution` per solution.
    pub fn write_solutions(&mut self, row: &Row) -> io::Result<()> {
        for (i, s) in row.all_solutions.iter().enumerate() {
            self.number(row.record.line);
            self.number(i as u64 + 1);
            self.grid(s);
            self.end_record()?;
        }
        Ok(())
    }

    /// Hands every finished record to the underlying writer and flushes it.
    pub fn flush(&mut self) -> io::Result<()> {
        self.hand_on()?;
        self.out.flush()
    }
}

impl<W: Write> Drop for RowWriter<W> {
    /// Hands on the finished records, as a `BufWriter` writes its buffer when dropped; errors
    /// are ignored there as here. A record left unfinished is dropped.
    fn drop(&mut self) {
        let _ = self.hand_on();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::read::Record;
    use crate::pipeline::solve::{SolveOptions, Status, solve_record};
    use crate::solver::Solver;

    #[test]
    fn fields_are_quoted_as_the_csv_crate_quotes_them() {
        let fields: [&[u8]; 8] = [
            b"plain",
            b"a,b",
            b"say \"hi\"",
            b"cr\rlf\n",
            b"",
            b" x ",
            b"#",
            b"\0",
        ];
        let mut ours = Vec::new();
        let mut w = RowWriter::new(&mut ours, &["a", "b"]).unwrap();
        for f in fields {
            w.field(f).unwrap();
        }
        w.end_record().unwrap();
        drop(w);
        let mut theirs = csv::WriterBuilder::new()
            .flexible(true)
            .from_writer(Vec::new());
        theirs.write_record(["a", "b"]).unwrap();
        theirs.write_record(fields).unwrap();
        assert_eq!(ours, theirs.into_inner().unwrap());
    }

    /// Keeps every write it is given, as a separate piece.
    #[derive(Default)]
    struct Pieces(Vec<Vec<u8>>);

    impl Write for &mut Pieces {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn only_whole_records_go_out_and_nothing_is_lost() {
        let mut pieces = Pieces::default();
        let mut expected = b"n,text\n".to_vec();
        {
            let mut w = RowWriter::new(&mut pieces, &["n", "text"]).unwrap();
            // About four chunks of records, then one more after a flush, then one left
            // unfinished when the writer is dropped.
            for i in 0..5000u64 {
                w.number(i);
                w.field(&[b'x'; 97][..(i % 98) as usize]).unwrap();
                w.end_record().unwrap();
                expected.extend_from_slice(
                    format!("{i},{}\n", "x".repeat((i % 98) as usize)).as_bytes(),
                );
            }
            w.flush().unwrap();
            w.number(7);
            w.end_record().unwrap();
            expected.extend_from_slice(b"7\n");
            w.number(8); // never ended
        }
        assert!(pieces.0.len() > 3, "{} writes", pieces.0.len());
        assert!(pieces.0.iter().all(|p| p.ends_with(b"\n")));
        assert_eq!(pieces.0.concat(), expected);
    }

    #[test]
    fn numbers_come_out_as_to_string_writes_them() {
        let mut numbers: Vec<u64> = (0..20_000).collect();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            numbers.push(x >> (x % 64));
        }
        for p in 1..20 {
            let ten = 10u64.pow(p);
            numbers.extend([ten - 1, ten, ten + 1]);
        }
        numbers.push(u64::MAX);
        for n in numbers {
            let mut f = Fields {
                bytes: [b'x'; PUZZLE_ROW_MAX],
                len: 3,
            };
            f.number(n);
            f.byte(b',');
            assert_eq!(f.bytes[3..f.len], format!("{n},").into_bytes()[..], "{n}");
        }
    }

    #[test]
    fn puzzle_rows_come_out_as_field_by_field() {
        let puzzle: Grid = crate::solver::tests::SOURCE_PUZZLES[0].parse().unwrap();
        let solution = crate::solver::FastSolver::new()
            .solve(&puzzle, crate::solver::Limits::count_to(1))
            .solution;
        let numbers = [0, 1, 9, 10, 99, 100, 12_345, 999_999, 1 << 40, u64::MAX];
        let mut rows = Vec::new();
        for (i, &n) in numbers.iter().enumerate() {
            let m = numbers[(i * 7 + 3) % numbers.len()];
            let mut row = solve_record(
                &mut crate::solver::FastSolver::new(),
                Record {
                    line: n,
                    input: RecordInput::Puzzle(puzzle),
                    expected: None,
                },
                &SolveOptions::default(),
            );
            row.status = Status::ALL[i % Status::ALL.len()];
            row.outcome.solutions = m;
            row.outcome.solution = if i % 3 == 0 { None } else { solution };
            row.outcome.guesses = numbers[(i * 3 + 1) % numbers.len()];
            row.time_ns = u64::MAX - n;
            rows.push(row);
        }
        let (mut fast, mut general) = (Vec::new(), Vec::new());
        {
            let (mut f, mut g) = (
                RowWriter::appending(&mut fast),
                RowWriter::appending(&mut general),
            );
            for row in &rows {
                f.write_row(row).unwrap();
                g.row_fields_one_by_one(row).unwrap();
                g.end_record().unwrap();
                // Fields appended after a row's, as `validate` does, and a row after them.
                f.field(b"x").unwrap();
                f.write_row_fields(row).unwrap();
                f.end_record().unwrap();
                g.field(b"x").unwrap();
                g.row_fields_one_by_one(row).unwrap();
                g.end_record().unwrap();
            }
        }
        assert_eq!(
            String::from_utf8(fast).unwrap(),
            String::from_utf8(general).unwrap()
        );
    }

    #[test]
    fn rows_have_every_column_and_quote_when_needed() {
        let opts = SolveOptions::default();
        let mut s = opts.strategy.solver();
        let mut out = Vec::new();
        {
            let mut w = RowWriter::new(&mut out, &COLUMNS).unwrap();
            let rec = Record {
                line: 7,
                input: RecordInput::Invalid {
                    text: "a,\"b".into(),
                    reason: "cell 1: unexpected character 'a'".into(),
                },
                expected: None,
            };
            w.write_row(&solve_record(&mut *s, rec, &opts)).unwrap();
            w.flush().unwrap();
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "line,puzzle,status,solutions,solution,guesses,time_ns,error\n\
             7,\"a,\"\"b\",invalid,0,,0,0,cell 1: unexpected character 'a'\n"
        );
    }
}
