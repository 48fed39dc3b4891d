//! Resuming an interrupted run (`solve --resume`): which rows of the existing output to keep.
//!
//! An interrupted run leaves a results file whose rows are a prefix of the full result, one row
//! per input record, flushed at batch boundaries; at worst the last row is cut short (a crash or
//! a second Ctrl-C in the middle of a write). Resuming reads that file with one CSV reader
//! and the inputs alongside it: every complete row must be the row of the next input record
//! (the same input, when the run has several and so a `file` column, the same line and the
//! same puzzle). The damaged last row, if any, is redone. The pipeline then cuts the file
//! after the last row kept and appends the rest. Nothing is modified until every check has
//! passed. Only a plain CSV output can be resumed: a compressed stream or a Parquet file
//! cannot be cut after a row and appended to.
//!
//! With `--emit-solutions`, the solutions file is read alongside too: a results row is kept
//! only if every solution it counts follows in that file, in order. The two files are flushed
//! one after the other, so a crash can leave either one ahead; the rows past the point where
//! both agree are cut from both and redone.
//!
//! The options that shape the rows (solver, limits, how the input is read) are kept beside the
//! output as `OUTPUT.resume.json` ([`RunOptions`]), written before its first row and kept
//! once it is complete; a resumed run must have the same, so that its rows fit those already
//! written, whether the output is unfinished or complete. An output with rows whose options
//! are not recorded cannot be resumed. `merge` compares the records of its parts.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

use serde::{Deserialize, Serialize};

use super::read::{PlainRecord, ReadError, Reader, Record, RecordInput};
use super::write::{FILE_COLUMN, SOLUTION_COLUMNS, names};
use super::{Config, RunError};
use crate::grid::CELLS;
use crate::words::count;
use rows::Rows;

/// What an existing results file holds, and where a resumed run starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResumePoint {
    /// Complete rows kept after the header: the input records already done.
    pub rows: u64,
    /// Byte length of the file up to the end of the last row kept (header included); the file
    /// is cut there before appending. 0 when the file must be started afresh.
    pub keep_bytes: u64,
    /// True when the file holds a header (so appending must not write one).
    pub has_header: bool,
    /// Rows kept whose `status` is `invalid` (when the header has a `status` column), so that
    /// the exit code of a resumed run covers the whole file.
    pub invalid: u64,
    /// With `--emit-solutions`: byte length of the solutions file up to the last solution of
    /// the rows kept (header included); it is cut there before appending. 0 when the file must
    /// be started afresh.
    pub solutions_bytes: u64,
}

/// Why an existing output cannot be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The output could not be read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The output is not a results file of this command and input.
    #[error("{0}")]
    Mismatch(String),
}

impl From<ReadError> for ResumeError {
    fn from(e: ReadError) -> ResumeError {
        ResumeError::Mismatch(e.to_string())
    }
}

/// The options of a run that shape its rows. A resumed run must have the same as the run that
/// began its output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOptions {
    /// `--solver`.
    pub solver: String,
    /// `--limit`.
    pub limit: u64,
    /// `--max-guesses`.
    pub max_guesses: Option<u64>,
    /// Whether `--emit-solutions` was given.
    pub emit_solutions: bool,
    /// `--format`, `--column`, `--header`, and `--delimiter` and `--field` when given.
    pub read: String,
    /// How puzzles are rated (`grade`), if they are.
    #[serde(default)]
    pub grade: Option<String>,
    /// `--shard K/N`, if given.
    #[serde(default)]
    pub shard: Option<String>,
}

/// How the input is read, as the options that say it (`--format auto, --column auto, --header
/// auto`): the words kept in the sidecar and shown when two runs differ.
fn read_words(read: &crate::pipeline::read::ReadOptions) -> String {
    use crate::pipeline::read::{Column, Format, Header};
    let format = match read.format {
        Format::Auto => "auto",
        Format::Text => "text",
        Format::Csv => "csv",
        Format::Grid => "grid",
        Format::Parquet => "parquet",
    };
    let column = match &read.column {
        Column::Auto => "auto".to_string(),
        Column::Index(i) => i.to_string(),
        Column::Name(name) => format!("\"{name}\""),
    };
    let header = match read.header {
        Header::Auto => "auto",
        Header::Yes => "yes",
        Header::No => "no",
    };
    let mut words = format!("--format {format}, --column {column}, --header {header}");
    if let Some(d) = read.delimiter {
        let d = match d {
            b'\t' => "tab".to_string(),
            b' ' => "space".to_string(),
            d => format!("'{}'", d as char),
        };
        words += &format!(", --delimiter {d}");
    }
    if let Some(f) = read.field {
        words += &format!(", --field {f}");
    }
    words
}

/// How puzzles are rated, as the options that say it (`--ruleset sukaku, no --max-time-ms`).
fn grade_words(grade: &crate::pipeline::grade::GradeOptions) -> String {
    let ruleset = match grade.ruleset {
        crate::logic::Ruleset::Sukaku => "sukaku",
        crate::logic::Ruleset::Classic => "classic",
    };
    let time = grade.max_time.map_or("no --max-time-ms".to_string(), |t| {
        format!("--max-time-ms {}", t.as_millis())
    });
    let band = grade.band.words();
    if band.is_empty() {
        format!("--ruleset {ruleset}, {time}")
    } else {
        format!("--ruleset {ruleset}, {time}, {band}")
    }
}

impl RunOptions {
    /// The options of `config`.
    pub fn of(config: &Config) -> RunOptions {
        let read = &config.read;
        RunOptions {
            solver: config.solve.strategy.name().to_string(),
            limit: config.solve.limits.solutions,
            max_guesses: config.solve.limits.guesses,
            emit_solutions: config.emit_solutions.is_some(),
            read: read_words(read),
            grade: config.solve.grade.map(|g| grade_words(&g)),
            shard: read.shard.map(|s| s.to_string()),
        }
    }

    /// Where the options of the output at `output` are kept.
    pub fn path(output: &Path) -> PathBuf {
        let mut name = output.as_os_str().to_owned();
        name.push(".resume.json");
        PathBuf::from(name)
    }

    /// Writes these options beside the output at `output`, as a run does before it writes the
    /// output; returns the file's path.
    pub fn record(&self, output: &Path) -> io::Result<PathBuf> {
        let path = RunOptions::path(output);
        self.write_to(&path)?;
        Ok(path)
    }

    /// Writes these options to the file at `path` (the record's own path).
    pub fn write_to(&self, path: &Path) -> io::Result<()> {
        let json = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        std::fs::write(path, json + "\n")
    }

    /// True when `text` is a record of a run's options as this tool writes them (of this
    /// version or another): a JSON object naming a solver and how the input was read.
    pub(crate) fn is_record(text: &[u8]) -> bool {
        serde_json::from_slice::<serde_json::Value>(text)
            .is_ok_and(|v| v.get("solver").is_some() && v.get("read").is_some())
    }

    /// The options kept beside the output at `output`, if any.
    pub fn recorded(output: &Path) -> Result<Option<RunOptions>, ResumeError> {
        let path = RunOptions::path(output);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            // None there, or a name too long to be had.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::InvalidFilename
                ) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| ResumeError::Mismatch(format!("{} is damaged: {e}", path.display())))
    }

    /// What differs between the options `self` of the run that began the output and those of
    /// this run, `now`, in words; `None` when they are the same.
    fn difference(&self, now: &RunOptions) -> Option<String> {
        self.compare(now, "OUTPUT was written with", "this run has")
    }

    /// What differs between `self` and `other`, in words: the first difference, as
    /// "`this` --limit 2, `that` --limit 3"; `None` when they are the same.
    pub fn compare(&self, now: &RunOptions, this: &str, that: &str) -> Option<String> {
        let was = |what: &str, a: String, b: String| {
            (a != b).then(|| format!("{this} {what} {a}, {that} {what} {b}"))
        };
        let guesses = |g: Option<u64>| g.map_or("none".into(), |g| g.to_string());
        let emits = |e: bool| if e { "a file" } else { "none" }.to_string();
        was("--solver", self.solver.clone(), now.solver.clone())
            .or_else(|| was("--limit", self.limit.to_string(), now.limit.to_string()))
            .or_else(|| {
                was(
                    "--max-guesses",
                    guesses(self.max_guesses),
                    guesses(now.max_guesses),
                )
            })
            .or_else(|| {
                was(
                    "--emit-solutions",
                    emits(self.emit_solutions),
                    emits(now.emit_solutions),
                )
            })
            .or_else(|| was("the input read with", self.read.clone(), now.read.clone()))
            .or_else(|| {
                let rating = |g: &Option<String>| g.clone().unwrap_or_else(|| "none".into());
                was("rating by", rating(&self.grade), rating(&now.grade))
            })
            .or_else(|| {
                let shard = |s: &Option<String>| s.clone().unwrap_or_else(|| "none".into());
                was("--shard", shard(&self.shard), shard(&now.shard))
            })
    }
}

/// The files a resumed run writes.
pub(crate) struct Files<'a> {
    /// The results.
    pub(crate) results: &'a Path,
    /// The results' header.
    pub(crate) header: &'a [&'a str],
    /// The `--emit-solutions` file.
    pub(crate) solutions: Option<&'a Path>,
}

/// Checks that the output at `files.results` was begun with `options` (when given), then
/// reads it alongside `reader` ([`skip_done`]). An output with rows whose options are not
/// recorded is refused, complete or not: its rows may be of other options.
pub(crate) fn resume(
    reader: &mut Reader,
    files: &Files,
    options: Option<&RunOptions>,
) -> Result<ResumePoint, RunError> {
    let fail = |message: String| RunError::Resume {
        path: files.results.display().to_string(),
        message,
    };
    let recorded = RunOptions::recorded(files.results).map_err(|e| fail(e.to_string()))?;
    if let (Some(was), Some(now)) = (&recorded, options)
        && let Some(difference) = was.difference(now)
    {
        return Err(fail(difference));
    }
    let point = skip_done(reader, files.results, files.header, files.solutions)?;
    if recorded.is_none() && options.is_some() && point.rows > 0 {
        return Err(fail(format!(
            "the options of the run that wrote it are unknown ({} is missing), so its rows \
             cannot be known to be those of this run's options; run without --resume",
            RunOptions::path(files.results).display()
        )));
    }
    Ok(point)
}

/// Reads the results file at `path` (whose header must be `header`) alongside `reader`, which
/// it leaves after the last record whose row is kept; with `solutions`, the solutions file too.
pub(crate) fn skip_done(
    reader: &mut Reader,
    path: &Path,
    header: &[&str],
    solutions: Option<&Path>,
) -> Result<ResumePoint, RunError> {
    let fail = |e: ResumeError| RunError::Resume {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let scan = Scan::open(path, header, solutions).map_err(fail)?;
    let start = scan.point;
    let names = reader.names();
    // The output is read and taken apart on another thread, the input read and compared with
    // it here: the two halves of the work are about the same size.
    std::thread::scope(|threads| {
        let (tx, rx) = sync_channel(4);
        let (done_tx, done_rx) = channel();
        threads.spawn(move || scan_rows(scan, &tx, &done_rx));
        // `rx` is dropped when the check returns, which ends the scan at its next batch.
        check_rows(start, rx, &done_tx, reader, &names, &fail)
    })
}

/// Rows of the output handed over at a time. Each batch handed over may wake the other
/// thread, which on a busy machine waits for a core: a few large batches keep those waits few.
const BATCH: usize = 4096;

/// Rows of the output to keep, as [`scan_rows`] hands them over.
#[derive(Default)]
struct Batch {
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
fn scan_rows(mut scan: Scan, tx: &SyncSender<Result<Batch, ResumeError>>, done: &Receiver<Batch>) {
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
fn check_rows(
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

/// The results file (and the solutions file) of a resumed run, read row by row.
struct Scan {
    /// `None` when the file starts afresh.
    results: Option<Rows>,
    fields: usize,
    /// The `file` column, when the run has several inputs.
    file_column: Option<usize>,
    line_column: usize,
    puzzle_column: usize,
    status_column: Option<usize>,
    /// The `solutions` column, when the solutions file is checked.
    count_column: Option<usize>,
    solutions: Option<Solutions>,
    point: ResumePoint,
}

impl Scan {
    fn open(path: &Path, header: &[&str], solutions: Option<&Path>) -> Result<Scan, ResumeError> {
        let column = |name: &str| header.iter().position(|&h| h == name);
        let count_column = match solutions {
            Some(_) => Some(column("solutions").ok_or_else(|| {
                ResumeError::Mismatch("the results have no solutions column to check".into())
            })?),
            None => None,
        };
        let file_column = column(FILE_COLUMN.name);
        let solutions = solutions
            .map(|s| Solutions::open(s, file_column.is_some()))
            .transpose()?;
        let results = Rows::open(path, header, "results")?;
        let point = ResumePoint {
            keep_bytes: results.as_ref().map_or(0, |r| r.1),
            has_header: results.is_some(),
            solutions_bytes: solutions.as_ref().map_or(0, |s| s.keep_bytes),
            ..ResumePoint::default()
        };
        Ok(Scan {
            results: results.map(|r| r.0),
            fields: header.len(),
            file_column,
            line_column: column("line").unwrap_or(0),
            puzzle_column: column("puzzle").unwrap_or(1),
            status_column: column("status"),
            count_column,
            solutions,
            point,
        })
    }

    /// Reads the next row to keep and returns its `line`; `None` at the end of those: the end
    /// of the file, a damaged last row, or a row whose solutions stop short.
    fn next_row(&mut self) -> Result<Option<u64>, ResumeError> {
        let Some(results) = &mut self.results else {
            return Ok(None);
        };
        if !results.next()? {
            return Ok(None);
        }
        let line = results.number(self.line_column);
        let count = match self.count_column {
            Some(i) => results.number(i),
            None => Some(0),
        };
        let (Some(line), Some(count)) = (line, count) else {
            results.damaged_row_is_last("the results")?;
            return Ok(None);
        };
        if !results.whole(self.fields) {
            results.damaged_row_is_last("the results")?;
            return Ok(None);
        }
        if let Some(solutions) = &mut self.solutions {
            let file = self.file_column.and_then(|i| results.get(i));
            if !solutions.take(file, line, count)? {
                return Ok(None); // this row's solutions stop short: redo from here
            }
            self.point.solutions_bytes = solutions.keep_bytes;
        }
        let status = self.status_column.and_then(|i| results.get(i));
        self.point.rows += 1;
        self.point.invalid += u64::from(status == Some(b"invalid"));
        self.point.keep_bytes = results.end_offset();
        Ok(Some(line))
    }

    /// The `file` column of the row [`Scan::next_row`] returned last, when there is one.
    fn file(&self) -> Option<&[u8]> {
        let i = self.file_column?;
        Some(self.results.as_ref()?.get(i).unwrap_or_default())
    }

    /// The `puzzle` column of the row [`Scan::next_row`] returned last.
    fn puzzle(&self) -> &[u8] {
        self.results
            .as_ref()
            .and_then(|r| r.get(self.puzzle_column))
            .unwrap_or_default()
    }
}

/// The solutions file of a resumed run, read alongside the results.
struct Solutions {
    /// `None` when the file is missing or empty: no solution is there.
    rows: Option<Rows>,
    /// Its rows start with a `file` column.
    with_file: bool,
    /// Bytes up to the end of the last solution taken so far (header included).
    keep_bytes: u64,
}

impl Solutions {
    fn open(path: &Path, with_file: bool) -> Result<Solutions, ResumeError> {
        let columns = with_file
            .then_some(FILE_COLUMN)
            .into_iter()
            .chain(SOLUTION_COLUMNS);
        let header = names(&columns.collect::<Vec<_>>());
        let opened = Rows::open(path, &header, "solutions")?;
        Ok(Solutions {
            with_file,
            keep_bytes: opened.as_ref().map_or(0, |(_, len)| *len),
            rows: opened.map(|(rows, _)| rows),
        })
    }

    /// Reads the `count` solutions of the results row for `line` (of the input `file`, with
    /// several inputs). True when all of them are there; false when the file ends first or its
    /// last row is damaged (the row is then redone). Fails on a solution of another input,
    /// line or index, or on a damaged row in the middle of the file.
    fn take(&mut self, file: Option<&[u8]>, line: u64, count: u64) -> Result<bool, ResumeError> {
        let Some(rows) = &mut self.rows else {
            return Ok(count == 0);
        };
        let at = usize::from(self.with_file);
        let mut end = self.keep_bytes;
        for index in 1..=count {
            if !rows.next()? {
                return Ok(false);
            }
            if !rows.whole(SOLUTION_COLUMNS.len() + at) {
                rows.damaged_row_is_last("the solutions")?;
                return Ok(false);
            }
            let same_file = !self.with_file || rows.get(0) == file;
            if !same_file || (rows.number(at), rows.number(at + 1)) != (Some(line), Some(index)) {
                return Err(ResumeError::Mismatch(format!(
                    "the solutions do not match the results: row {} of the solutions should be \
                     solution {index} of line {line}",
                    rows.read
                )));
            }
            end = rows.end_offset();
        }
        self.keep_bytes = end;
        Ok(true)
    }
}

mod rows;
#[cfg(test)]
mod tests;
