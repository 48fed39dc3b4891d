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
//!
//! [`RunOptions`] (the `options` module) keeps and compares the options; the `scan` module
//! reads the output (and its solutions) again row by row, over the `rows` module's CSV
//! reading; the `check` module compares those rows with the input records, on two threads.

use std::io;
use std::path::Path;
use std::sync::mpsc::{channel, sync_channel};

use super::RunError;
use super::read::{ReadError, Reader};
use check::{check_rows, scan_rows};
use scan::Scan;

pub use options::RunOptions;
pub(crate) use options::{record_options, remove_record};

mod check;
mod options;
mod rows;
mod scan;
#[cfg(test)]
mod tests;

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
