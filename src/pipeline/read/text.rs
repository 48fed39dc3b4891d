//! The text format: one puzzle per line, 81 cells, optionally followed by a delimiter and a
//! comment. Empty lines and lines starting with `#` are not records.
//!
//! A line that does not start with a puzzle is searched for one: its fields (separated by runs
//! of spaces, tabs, `,`, `;` or `|`) are tried, and the one field of exactly 81 cells is the
//! puzzle, as in the `HASH PUZZLE RATING` lines of rated puzzle banks or `id;puzzle` lists.
//! Two or more such fields make the record invalid, as which is meant cannot be told; the
//! option `field` (`--field N`) then names the field to take on every line.

use std::io::{self, BufRead};

use super::lines::Lines;
use super::{BOM, MAX_RECORD_BYTES, PlainLine, Record, RecordSource, invalid, puzzle, too_long};
use crate::grid::{CELLS, Grid};

/// Text records: one puzzle per line.
pub(super) struct TextRecords<R> {
    lines: Lines<R>,
    buf: Vec<u8>,
    /// The field that holds the puzzle on every line, when given.
    field: Option<usize>,
}

impl<R: BufRead> TextRecords<R> {
    pub(super) fn new(inner: R, field: Option<usize>) -> Self {
        TextRecords::starting_at(inner, field, 0)
    }

    /// The records of a slice of a file that starts at the start of a line, after `lines`
    /// line breaks: they keep the file's line numbers.
    pub(super) fn starting_at(inner: R, field: Option<usize>, lines: u64) -> Self {
        TextRecords {
            lines: Lines::starting_at(inner, lines),
            buf: Vec::with_capacity(256),
            field,
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
            return Ok(Some(match self.field {
                Some(n) => field_record(line, bytes, n),
                None => line_record(line, bytes),
            }));
        }
        Ok(None)
    }

    fn next_plain(&mut self, field: &[u8]) -> io::Result<Option<PlainLine>> {
        if self.field.is_some_and(|n| n > 0) {
            return Ok(None);
        }
        let field: Option<&[u8; CELLS]> = field.try_into().ok();
        // A plain line holds no line break: its end is looked for right after its 81 bytes.
        self.lines.take_line_of_len_in_place(CELLS, |line| {
            let cells: &[u8; CELLS] = line.try_into().ok()?;
            // One pass that checks the cells and compares them with the field, `&` and `|`
            // rather than `&&` and an early exit: no branches, so the loop vectorises.
            let other = field.unwrap_or(cells);
            let (plain, diff) = cells
                .iter()
                .zip(other)
                .fold((true, 0), |(ok, diff), (&b, &f)| {
                    (
                        ok & ((b == b'.') | (b.wrapping_sub(b'1') < 9)),
                        diff | (b ^ f),
                    )
                });
            let same = field.is_some() && diff == 0;
            plain.then(|| (!same).then(|| Box::new(*cells)))
        })
    }
}

/// True for the bytes that separate the fields of a text line.
fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b',' | b';' | b'|')
}

/// The fields of a text line: the runs of bytes between separators.
fn fields(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|&b| is_separator(b)).filter(|f| !f.is_empty())
}

/// The record of a line: the puzzle at its start, else its one field of 81 cells.
pub(super) fn line_record(line: u64, bytes: &[u8]) -> Record {
    let error = match Grid::parse_bytes(bytes) {
        Ok(g) => return puzzle(line, g),
        Err(e) => e,
    };
    let mut found = None;
    let mut at = Vec::new();
    for (i, field) in fields(bytes).enumerate() {
        if let Ok(g) = Grid::parse_bytes(field) {
            found.get_or_insert(g);
            at.push(i.to_string());
        }
    }
    match (found, at.len()) {
        (Some(g), 1) => puzzle(line, g),
        (None, _) => invalid(line, bytes, error),
        (Some(_), _) => {
            let last = at.pop().unwrap_or_default();
            let reason = format!(
                "fields {} and {last} (numbered from 0) each hold 81 cells; --field N picks one",
                at.join(", ")
            );
            invalid(line, bytes, reason)
        }
    }
}

/// The record of field `n` of a line.
fn field_record(line: u64, bytes: &[u8], n: usize) -> Record {
    match fields(bytes).nth(n) {
        Some(field) => match Grid::parse_bytes(field) {
            Ok(g) => puzzle(line, g),
            Err(e) => invalid(line, bytes, e),
        },
        None => invalid(
            line,
            bytes,
            format!(
                "no field {n} (the line has {}, numbered from 0)",
                crate::words::count(fields(bytes).count() as u64, "field", "fields")
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::read::RecordInput;

    const P: &str =
        "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";

    fn read(text: &str, field: Option<usize>) -> Vec<Result<String, String>> {
        let mut records = TextRecords::new(text.as_bytes(), field);
        let mut out = Vec::new();
        while let Some(r) = records.next_record().unwrap() {
            out.push(match r.input {
                RecordInput::Puzzle(g) => Ok(g.to_string()),
                RecordInput::Invalid { reason, .. } => Err(reason),
            });
        }
        out
    }

    #[test]
    fn a_puzzle_is_found_in_any_one_field() {
        let text =
            format!("9f3a0c {P} 4.5\n12;{P}\nx|{P}|y\n{P}|tail\n{P} {P}\nid {P} {P}\nnone here\n");
        let got = read(&text, None);
        let ok = Ok(P.to_string());
        assert_eq!(
            got[..5],
            [ok.clone(), ok.clone(), ok.clone(), ok.clone(), ok]
        );
        assert_eq!(
            got[5],
            Err("fields 1 and 2 (numbered from 0) each hold 81 cells; --field N picks one".into())
        );
        assert_eq!(got[6], Err("cell 1: unexpected character 'n'".into()));
    }

    #[test]
    fn field_n_picks_the_field_on_every_line() {
        let text = format!("id {P} {P}\nshort\n");
        let got = read(&text, Some(2));
        assert_eq!(got[0], Ok(P.to_string()));
        assert_eq!(
            got[1],
            Err("no field 2 (the line has 1 field, numbered from 0)".into())
        );
        assert_eq!(
            read(&format!("{P} 12\n"), Some(1))[0],
            Err("2 cells, expected 81".into())
        );
    }
}
