//! The results file of a resumed run, and its solutions file, read again row by row
//! ([`Scan`]): which rows are whole, whose solutions all follow, and where each one ends.

use std::path::Path;

use super::rows::Rows;
use super::{ResumeError, ResumePoint};
use crate::pipeline::write::{FILE_COLUMN, SOLUTION_COLUMNS, names};

/// The results file (and the solutions file) of a resumed run, read row by row.
pub(super) struct Scan {
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
    pub(super) point: ResumePoint,
}

impl Scan {
    pub(super) fn open(
        path: &Path,
        header: &[&str],
        solutions: Option<&Path>,
    ) -> Result<Scan, ResumeError> {
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
    pub(super) fn next_row(&mut self) -> Result<Option<u64>, ResumeError> {
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
    pub(super) fn file(&self) -> Option<&[u8]> {
        let i = self.file_column?;
        Some(self.results.as_ref()?.get(i).unwrap_or_default())
    }

    /// The `puzzle` column of the row [`Scan::next_row`] returned last.
    pub(super) fn puzzle(&self) -> &[u8] {
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
