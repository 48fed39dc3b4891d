//! The two halves of reading an output again alongside its input: one thread reads the rows
//! to keep ([`scan_rows`]) and hands them over in batches; the other checks each one against
//! the next input record ([`check_rows`]): the same input, line and puzzle.

use std::sync::mpsc::{Receiver, Sender, SyncSender};

use super::scan::Scan;
use super::{ResumeError, ResumePoint};
use crate::grid::CELLS;
use crate::pipeline::RunError;
use crate::pipeline::read::{PlainRecord, Reader, Record, RecordInput};
use crate::words::count;

/// Rows of the output handed over at a time. Each batch handed over may wake the other
/// thread, which on a busy machine waits for a core: a few large batches keep those waits few.
const BATCH: usize = 4096;

/// Rows of the output to keep, as [`scan_rows`] hands them over.
#[derive(Default)]
pub(super) struct Batch {
    /// The `puzzle` and `file` fields of the rows, one after the other.
    text: Vec<u8>,
    rows: Vec<ScannedRow>,
}

/// One row of a [`Batch`].
struct ScannedRow {
    line: u64,
    /// Where its `puzzle` ends in [`Batch::text`]; it starts where the row before ends.
    puzzle_end: usize,
    /// Where its `file` field ends, after the puzzle, when the run has several inputs.
    file_end: Option<usize>,
    /// What the output holds up to the end of this row.
    point: ResumePoint,
}

/// Reads the rows of `scan` to keep into batches for `tx`, then the error that stopped it, if
/// any. The batches checked come back by `done`, to be filled again.
pub(super) fn scan_rows(
    mut scan: Scan,
    tx: &SyncSender<Result<Batch, ResumeError>>,
    done: &Receiver<Batch>,
) {
    loop {
        let mut batch = done.try_recv().unwrap_or_default();
        batch.text.clear();
        batch.rows.clear();
        let mut ended = None;
        while batch.rows.len() < BATCH {
            match scan.next_row() {
                Ok(Some(line)) => {
                    batch.text.extend_from_slice(scan.puzzle());
                    let puzzle_end = batch.text.len();
                    let file_end = scan.file().map(|file| {
                        batch.text.extend_from_slice(file);
                        batch.text.len()
                    });
                    batch.rows.push(ScannedRow {
                        line,
                        puzzle_end,
                        file_end,
                        point: scan.point,
                    });
                }
                Ok(None) => {
                    ended = Some(None);
                    break;
                }
                Err(e) => {
                    ended = Some(Some(e));
                    break;
                }
            }
        }
        if tx.send(Ok(batch)).is_err() {
            return;
        }
        if let Some(error) = ended {
            if let Some(e) = error {
                let _ = tx.send(Err(e));
            }
            return;
        }
    }
}

/// Checks every row of `rows` against the next record of `reader`, whose inputs are `names`,
/// from `start`; the point after the last row. Each batch checked goes back by `done`.
pub(super) fn check_rows(
    start: ResumePoint,
    rows: Receiver<Result<Batch, ResumeError>>,
    done: &Sender<Batch>,
    reader: &mut Reader,
    names: &[String],
    fail: &dyn Fn(ResumeError) -> RunError,
) -> Result<ResumePoint, RunError> {
    let (inputs, have) = match names {
        [one] => (one.clone(), "has"),
        _ => ("the inputs".to_string(), "have"),
    };
    let mut point = start;
    while let Ok(batch) = rows.recv() {
        let batch = batch.map_err(fail)?;
        let mut at = 0;
        for row in &batch.rows {
            let puzzle = &batch.text[at..row.puzzle_end];
            let file = row.file_end.map(|end| &batch.text[row.puzzle_end..end]);
            at = row.file_end.unwrap_or(row.puzzle_end);
            let number = row.point.rows;
            let item = if let Some(plain) = reader.next_plain(puzzle)? {
                Item::Plain(plain)
            } else if let Some(record) = reader.next_record()? {
                Item::Record(record)
            } else {
                // The rest of the output, counted for the message.
                let mut total = batch.rows.last().map_or(number, |r| r.point.rows);
                while let Ok(Ok(batch)) = rows.recv() {
                    total = batch.rows.last().map_or(total, |r| r.point.rows);
                }
                return Err(fail(ResumeError::Mismatch(format!(
                    "OUTPUT does not match INPUT: it has {} but {inputs} {have} only {}",
                    count(total, "row", "rows"),
                    count(number - 1, "record", "records")
                ))));
            };
            let (record_file, record_line, same) = match &item {
                Item::Plain(plain) => (plain.file, plain.line, plain.differs.is_none()),
                Item::Record(record) => (record.file, record.line, same_puzzle(record, puzzle)),
            };
            let name = names.get(record_file as usize).map_or("", String::as_str);
            let same_file = file.is_none_or(|file| file == name.as_bytes());
            if !same_file || record_line != row.line || !same {
                let text = puzzle_text(&item.into_record(puzzle));
                let file = file.map_or(String::new(), |f| {
                    format!("{} ", String::from_utf8_lossy(f))
                });
                return Err(fail(ResumeError::Mismatch(format!(
                    "OUTPUT does not match INPUT: row {number} is for {file}line {} and puzzle \
                     {}, but record {number} of {inputs} is {}on line {record_line} and is {text}",
                    row.line,
                    String::from_utf8_lossy(puzzle),
                    if names.len() > 1 {
                        format!("in {name} ")
                    } else {
                        String::new()
                    },
                ))));
            }
            point = row.point;
        }
        let _ = done.send(batch);
    }
    Ok(point)
}

/// A record of the input: most lines of most inputs are plain ones, read without parsing them.
enum Item {
    Plain(PlainRecord),
    Record(Record),
}

impl Item {
    /// The record; `puzzle` is the row's field that a plain record was compared with.
    fn into_record(self, puzzle: &[u8]) -> Record {
        match self {
            Item::Plain(plain) => plain.into_record(puzzle),
            Item::Record(record) => record,
        }
    }
}

/// The text of a record's `puzzle` column.
fn puzzle_text(record: &Record) -> String {
    match &record.input {
        RecordInput::Puzzle(g) => g.to_string(),
        RecordInput::Invalid { text, .. } => text.clone(),
    }
}

/// Whether `field`, the `puzzle` column of a row, is the text written for `record`.
fn same_puzzle(record: &Record, field: &[u8]) -> bool {
    match &record.input {
        RecordInput::Puzzle(g) => {
            let mut line = [0u8; CELLS];
            g.write_line(&mut line);
            line == field
        }
        RecordInput::Invalid { text, .. } => text.as_bytes() == field,
    }
}
