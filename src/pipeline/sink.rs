//! Where a run's rows go, in input order ([`Sink`]): the results through a [`ResultsWriter`],
//! the `--emit-solutions` file, the progress report and the [`Summary`]; started (emptied, or
//! cut after the rows a resumed run keeps), flushed at every batch and ended once.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::output::{Opened, Outputs, write_err};
use super::read::Reader;
use super::resume::ResumePoint;
use super::solutions::Emitter;
use super::solve::Row;
use super::write::{
    Encoding, FILE_COLUMN, Field, SOLUTION_COLUMNS, TableWriter, Value, write_after,
};
use super::{Progress, RunError, Summary};

/// A results writer, as [`run_with`](super::run_with)'s `write` gets it: rows of values in the
/// run's output format, each after the `file` column when the run has several inputs.
pub struct ResultsWriter {
    inner: Box<dyn TableWriter>,
    /// With several inputs, their names.
    names: Option<Arc<[String]>>,
    /// The input of the row being written.
    file: u32,
}

impl std::fmt::Debug for ResultsWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResultsWriter").finish_non_exhaustive()
    }
}

impl ResultsWriter {
    /// Writes one row: the values of the columns the run was given, in order.
    pub fn write_row(&mut self, values: &[Value]) -> io::Result<()> {
        let file = self.names.as_ref().map(|n| n[self.file as usize].as_str());
        write_after(&mut *self.inner, file.map(Value::Text), values)
    }
}

/// What a run's outputs hold: their columns, encodings, and the inputs' names when each row
/// starts with one.
pub(super) struct Tables<'c> {
    pub(super) columns: &'c [Field],
    /// The results' and the solutions file's.
    pub(super) encodings: (Encoding, Option<Encoding>),
    pub(super) names: Option<Arc<[String]>>,
}

/// Where a run's rows go, in input order: the results, the `--emit-solutions` file, the
/// progress report and the tally.
pub(super) struct Sink<'a, F> {
    results: ResultsWriter,
    results_name: String,
    pub(super) solutions: Option<(String, Arc<Emitter>)>,
    /// The sequence number of the next row, from 0.
    seq: u64,
    write: F,
    pub(super) summary: Summary,
    progress: &'a mut dyn FnMut(&Progress),
    bytes_read: Arc<AtomicU64>,
    bytes_total: Option<u64>,
    started: Instant,
    /// A row of a puzzle stopped mid-search came: it and every row after it are not written.
    pub(super) stopped: bool,
}

impl<'a, F: FnMut(&mut ResultsWriter, &mut Row) -> io::Result<()>> Sink<'a, F> {
    /// Starts the outputs: emptied, or, when resuming, cut after the rows kept and appended
    /// to. A CSV header goes out at once, so that the output is a valid CSV from the start.
    pub(super) fn open(
        outputs: Outputs,
        tables: Tables,
        resumed: Option<ResumePoint>,
        reader: &Reader,
        started: Instant,
        progress: &'a mut dyn FnMut(&Progress),
        write: F,
    ) -> Result<Self, RunError> {
        let start = |mut out: Opened, encoding: Encoding, columns: &[Field], keep: u64| {
            let file = out.start(keep)?;
            let writer = encoding
                .writer(file, columns, keep > 0)
                .map_err(write_err(&out.name))?;
            Ok::<_, RunError>((out.name.clone(), writer))
        };
        let keep = |f: fn(&ResumePoint) -> u64| resumed.as_ref().map_or(0, f);
        let (results_name, results) = start(
            outputs.results,
            tables.encodings.0,
            tables.columns,
            keep(|p| p.keep_bytes),
        )?;
        let solutions = match (outputs.solutions, tables.encodings.1) {
            (Some(out), Some(encoding)) => {
                let columns: Vec<Field> = (tables.names.is_some().then_some(FILE_COLUMN))
                    .into_iter()
                    .chain(SOLUTION_COLUMNS)
                    .collect();
                let (name, w) = start(out, encoding, &columns, keep(|p| p.solutions_bytes))?;
                Some((name, Arc::new(Emitter::new(w, tables.names.clone()))))
            }
            _ => None,
        };
        Ok(Sink {
            results: ResultsWriter {
                inner: results,
                names: tables.names,
                file: 0,
            },
            results_name,
            solutions,
            seq: 0,
            write,
            summary: Summary::default(),
            progress,
            bytes_read: reader.bytes_read(),
            bytes_total: reader.size(),
            started,
            stopped: false,
        })
    }

    /// Writes the rows of one batch, flushes them and reports the progress.
    pub(super) fn batch(&mut self, rows: &mut [Row]) -> Result<(), RunError> {
        for row in rows {
            self.stopped |= row.outcome.stopped;
            if self.stopped {
                break;
            }
            if let Some((name, emitter)) = &self.solutions {
                emitter.write_row(self.seq, row).map_err(write_err(name))?;
            }
            self.results.file = row.record.file;
            (self.write)(&mut self.results, row).map_err(write_err(&self.results_name))?;
            self.summary.add(row);
            self.seq += 1;
        }
        // Solutions first: a results row on disk then has its solutions there too, unless
        // the results' buffer filled and went out on its own mid-batch (which `--resume`
        // checks for).
        if let Some((name, emitter)) = &self.solutions {
            emitter.end_batch().map_err(write_err(name))?;
        }
        self.results
            .inner
            .end_batch()
            .map_err(write_err(&self.results_name))?;
        (self.progress)(&Progress {
            records: self.summary.records,
            bytes_read: self.bytes_read.load(Ordering::Relaxed),
            bytes_total: self.bytes_total,
            elapsed: self.started.elapsed(),
        });
        Ok(())
    }

    /// Ends the outputs: what they hold goes out, with the trailers of compressed streams
    /// and Parquet files.
    pub(super) fn finish(&mut self) -> Result<(), RunError> {
        if let Some((name, emitter)) = &self.solutions {
            emitter.finish().map_err(write_err(name))?;
        }
        self.results
            .inner
            .finish()
            .map_err(write_err(&self.results_name))
    }
}
