//! The write stage: result rows as CSV, in input order, and the optional file of every solution.
//!
//! Rows are formatted by hand into a reused buffer (numbers with `itoa`, grids as 81 bytes) and
//! quoted per RFC 4180 only where a field needs it (invalid records' text and error messages),
//! so writing costs a few hundred instructions per row and allocates nothing. The output is the
//! same as the `csv` crate writes with its default settings. Whole records go out in chunks of
//! about 64 KiB, straight to the output with no second buffer. The pipeline flushes at every
//! batch boundary, so a crash loses at most the batch in flight.

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
}

/// About how many bytes of finished records [`RowWriter`] gathers before handing them on.
const CHUNK: usize = 64 * 1024;

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
    use crate::pipeline::solve::{SolveOptions, solve_record};

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
