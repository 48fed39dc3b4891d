//! The streaming pipeline, read -> solve -> write, wired together.
//!
//! [`run`] opens the input ([`read`]) and the outputs ([`output`], [`resume`]), then has the
//! scheduler (`schedule`) read batches of records on a reader thread, solve them on a rayon
//! pool ([`solve`]) and hand their rows back in input order to the calling thread, which writes
//! them ([`write`](mod@write)), flushes at every batch boundary, reports progress and tallies the
//! [`Summary`]. Memory stays flat however long the input: only a few batches are in flight.

pub mod canon;
pub mod grade;
pub mod output;
pub mod read;
pub mod resume;
pub(crate) mod schedule;
pub(crate) mod solutions;
pub mod solve;
pub mod stopwatch;
pub mod write;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

use crate::solver::Stop;

pub use output::Output;
pub use schedule::{max_threads, thread_pool};

use output::{Opened, Outputs, write_err};
use read::{ReadError, ReadOptions, Reader, Source};
use resume::ResumePoint;
use solutions::Emitter;
use solve::{Row, SolveOptions, SolveWork, Status};
use write::{
    COLUMNS, Encoding, FILE_COLUMN, Field, GradeText, OutputFormat, SOLUTION_COLUMNS, TableWriter,
    Value, grade_values, row_values, write_after,
};

/// Records per batch unless told otherwise: large enough that handing a batch between threads
/// costs little next to solving it, small enough that the first rows come soon.
pub const DEFAULT_BATCH: usize = 1024;

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The inputs, read one after the other ([`read::inputs::expand`] lists a directory's).
    pub inputs: Vec<Source>,
    /// How to read them.
    pub read: ReadOptions,
    /// Where results go.
    pub output: Output,
    /// The format of the results; `None`: told by the output's name (CSV on stdout).
    pub output_format: Option<OutputFormat>,
    /// How to solve.
    pub solve: SolveOptions,
    /// Worker threads for solving; 0 means one per CPU the process may use.
    pub threads: usize,
    /// Records per batch, at most: the first batches are smaller, so that solving starts
    /// before a whole batch is read.
    pub batch_size: usize,
    /// Also write every solution found to this file as `line,index,solution` (`-`: stdout),
    /// in the format its name says, else in the results' format.
    pub emit_solutions: Option<PathBuf>,
    /// Set to stop the run (Ctrl-C): the puzzles being solved stop within milliseconds and
    /// are not written; every row before them is written and flushed, so the output is a
    /// prefix of the full result, and [`Summary::interrupted`] is set.
    pub stop: Option<Stop>,
    /// Resume into an existing output file (which must be [`Output::Path`]): keep its rows,
    /// skip as many input records (checking that each row is its record's), append the rest.
    /// Only for writers that give exactly one row per record (`solve`).
    pub resume: bool,
    /// Other files the run reads before it starts (`validate --against`): like the inputs,
    /// no output may be one of them.
    pub also_read: Vec<Source>,
}

impl Config {
    /// A configuration with the defaults for everything but input and output.
    pub fn new(source: Source, output: Output) -> Config {
        Config {
            inputs: vec![source],
            read: ReadOptions::default(),
            output,
            output_format: None,
            solve: SolveOptions::default(),
            threads: 0,
            batch_size: DEFAULT_BATCH,
            emit_solutions: None,
            stop: None,
            resume: false,
            also_read: Vec::new(),
        }
    }
}

/// How far a run has come, reported after every batch written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Records written so far.
    pub records: u64,
    /// Bytes read from the input so far (compressed bytes for gzip).
    pub bytes_read: u64,
    /// The input's size in bytes, when known.
    pub bytes_total: Option<u64>,
    /// Time since the run started.
    pub elapsed: Duration,
}

/// Counts at the end of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Records written.
    pub records: u64,
    /// Rows per status, indexed as [`Status::ALL`].
    pub by_status: [u64; 6],
    /// Guesses over all puzzles.
    pub guesses: u64,
    /// Puzzles whose search ended (not aborted) without a guess.
    pub no_guess: u64,
    /// Wall time of the whole run.
    pub wall: Duration,
    /// True when the run was stopped before the end of the input.
    pub interrupted: bool,
    /// Records skipped because the output already held their rows (`--resume`).
    pub resumed: u64,
    /// Of those, rows whose status is `invalid`.
    pub resumed_invalid: u64,
    /// The inputs read (or to be read).
    pub inputs: usize,
    /// Which column held the puzzles in the inputs with columns (CSV, Parquet), and how it
    /// was chosen, in words (and the stated solutions' column, for `validate
    /// --expect-column`): each distinct one once, after the inputs it is for when there are
    /// several.
    pub columns: Vec<String>,
    /// Puzzles rated, per band of ER, when rating ([`SolveOptions::grade`]).
    pub ratings: grade::Ratings,
    /// The distinct canonical forms among the rows written (not those kept by `--resume`),
    /// when the run finds them ([`SolveOptions::canon`]): the essentially different puzzles.
    pub classes: Option<u64>,
}

impl Summary {
    /// Rows with `status`.
    pub fn count(&self, status: Status) -> u64 {
        self.by_status[status as usize]
    }

    /// Records that are puzzles (not invalid).
    pub fn puzzles(&self) -> u64 {
        self.records - self.count(Status::Invalid)
    }

    /// Adds one row to the tally.
    pub fn add(&mut self, row: &Row) {
        self.records += 1;
        self.by_status[row.status as usize] += 1;
        if row.status != Status::Invalid {
            self.guesses += row.outcome.guesses;
            self.no_guess += u64::from(row.outcome.guesses == 0 && row.status != Status::Aborted);
        }
        self.ratings.add(row.rating.as_ref());
    }
}

/// An error that stops a run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The input could not be read or does not fit the options.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// An output could not be written.
    #[error("{path}: {source}")]
    Write {
        /// The output's name.
        path: String,
        /// The OS error.
        source: io::Error,
    },
    /// The threads could not be started, or one of them failed.
    #[error("cannot run the worker threads: {0}")]
    Threads(String),
    /// The output to resume does not fit the input or the command.
    #[error("{path}: cannot resume: {message}")]
    Resume {
        /// The output's name.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// An option does not fit the output (a format it cannot be written in).
    #[error("{path}: {message}")]
    Usage {
        /// The output's name.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Another process holds the lock on an output: another run is writing it.
    #[error("{path}: another run is writing this file{}; wait for it to end or choose another file", .holder.map(|p| format!(" (process {p})")).unwrap_or_default())]
    Locked {
        /// The output's name.
        path: String,
        /// The process that holds the lock, when known.
        holder: Option<u32>,
    },
    /// Two of the run's files are one: writing would destroy what is read, or two outputs
    /// would overwrite each other.
    #[error("{path}: {what}; choose another file")]
    SameFile {
        /// The file's name.
        path: String,
        /// Which two roles it plays.
        what: String,
    },
}

impl RunError {
    /// True when the output is a pipe whose reader has gone (`| head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// A results writer, as [`run_with`]'s `write` gets it: rows of values in the run's output
/// format, each after the `file` column when the run has several inputs.
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

/// Runs the whole pipeline: reads every record, solves it, writes its row. `progress` is
/// called after every batch written. The options that shape the rows of a plain CSV output
/// file are kept beside it, for `--resume` and `merge` ([`resume::RunOptions`]).
/// With [`SolveOptions::grade`] set the rows are `grade`'s ([`write::grade_columns`]); with
/// [`SolveOptions::canon`] [`Canon::Only`](canon::Canon::Only), `canon`'s
/// ([`canon::CANON_COLUMNS`]).
pub fn run(config: &Config, progress: &mut dyn FnMut(&Progress)) -> Result<Summary, RunError> {
    let options = resume::RunOptions::of(config);
    if config.solve.canon == canon::Canon::Only {
        let mut classes = canon::Classes::default();
        let mut summary = run_rows(
            config,
            &canon::CANON_COLUMNS,
            Some(options),
            progress,
            |w, row| {
                classes.add(row);
                w.write_row(&canon::canon_values(row))
            },
        )?;
        summary.classes = Some(classes.count());
        return Ok(summary);
    }
    if let Some(grade) = config.solve.grade {
        let mut text = GradeText::default();
        let columns = write::grade_columns(&grade.band);
        let n = columns.len();
        return run_rows(config, &columns, Some(options), progress, |w, row| {
            w.write_row(&grade_values(row, &mut text, &grade.band)[..n])
        });
    }
    let mut error = String::new();
    run_rows(config, &COLUMNS, Some(options), progress, |w, row| {
        w.write_row(&row_values(row, &mut error))
    })
}

/// Runs the pipeline with a custom row writer (used by `validate`, which filters rows and adds
/// a column). `columns` are the columns of the rows `write` writes (a `file` column goes before
/// them when the run has several inputs). `write` is called once per row, in input order, and
/// may write nothing. Such a run cannot be resumed.
pub fn run_with<F>(
    config: &Config,
    columns: &[Field],
    progress: &mut dyn FnMut(&Progress),
    write: F,
) -> Result<Summary, RunError>
where
    F: FnMut(&mut ResultsWriter, &Row) -> io::Result<()>,
{
    if config.resume {
        return Err(RunError::Resume {
            path: config.output.display_name(),
            message: "this command cannot resume".into(),
        });
    }
    run_rows(config, columns, None, progress, write)
}

/// The encodings of a run's results and `--emit-solutions` file; refused when resuming one
/// that cannot be appended to.
fn encodings(config: &Config) -> Result<(Encoding, Option<Encoding>), RunError> {
    let usage = |output: &Output| {
        let path = output.display_name();
        move |message: String| RunError::Usage { path, message }
    };
    let path = |output: &Output| match output {
        Output::Path(p) => Some(p.clone()),
        Output::Stdout => None,
    };
    let results = Encoding::of(path(&config.output).as_deref(), config.output_format)
        .map_err(usage(&config.output))?;
    let solutions_output = config
        .emit_solutions
        .as_deref()
        .map(output::solutions_output);
    let solutions = match &solutions_output {
        Some(out) => {
            Some(Encoding::for_solutions(path(out).as_deref(), results).map_err(usage(out))?)
        }
        None => None,
    };
    if config.resume {
        let outputs = [
            (Some(results), &config.output),
            (solutions, &Output::Stdout),
        ];
        for (encoding, output) in outputs {
            if let Some(encoding) = encoding
                && !encoding.appendable()
            {
                let output = match output {
                    Output::Stdout => solutions_output.clone().unwrap_or(Output::Stdout),
                    o => o.clone(),
                };
                return Err(RunError::Resume {
                    path: output.display_name(),
                    message: format!(
                        "only a plain CSV output can be resumed, and this one is {}; run \
                         again without --resume",
                        encoding.describe()
                    ),
                });
            }
        }
    }
    Ok((results, solutions))
}

/// [`run`] and [`run_with`]: `options`, when given, are recorded beside an output file.
fn run_rows<F>(
    config: &Config,
    columns: &[Field],
    options: Option<resume::RunOptions>,
    progress: &mut dyn FnMut(&Progress),
    write: F,
) -> Result<Summary, RunError>
where
    F: FnMut(&mut ResultsWriter, &Row) -> io::Result<()>,
{
    let started = Instant::now();
    let resume_path = match (&config.output, config.resume) {
        (Output::Path(path), true) => Some(path.clone()),
        (Output::Stdout, true) => {
            return Err(RunError::Resume {
                path: "<stdout>".into(),
                message: "--resume needs an output file (-o FILE)".into(),
            });
        }
        _ => None,
    };
    // With several inputs, every output says which input each row comes from.
    let many = config.inputs.len() > 1;
    let columns: Vec<Field> = many
        .then_some(FILE_COLUMN)
        .into_iter()
        .chain(columns.iter().copied())
        .collect();
    // Opening a FIFO waits for its other end; reading the start of the input (its first
    // bytes, a CSV header) and resuming (as many records as the output holds) wait on an idle
    // stdin or FIFO. Each may wait forever, so they run on their own thread while a stop is
    // watched for.
    let opening_outputs = {
        let config = config.clone();
        move || Outputs::open(&output::Plan::of_run(&config))
    };
    let Some(outputs) = until_stopped(config.stop, opening_outputs)? else {
        return Ok(Summary {
            interrupted: true,
            wall: started.elapsed(),
            ..Summary::default()
        });
    };
    let mut outputs = outputs?;
    // After the checks of the outputs' identity, which say more about a mistaken name.
    let encodings = encodings(config)?;
    let opening = {
        let (inputs, read) = (config.inputs.clone(), config.read.clone());
        let solutions = config.emit_solutions.clone();
        let header: Vec<&'static str> = write::names(&columns);
        let options = options.clone();
        move || -> Result<(Reader, Option<ResumePoint>), RunError> {
            let mut reader = Reader::open_all(&inputs, &read)?;
            let resumed = match &resume_path {
                Some(path) => {
                    let files = resume::Files {
                        results: path,
                        header: &header,
                        solutions: solutions.as_deref(),
                    };
                    Some(resume::resume(&mut reader, &files, options.as_ref())?)
                }
                None => None,
            };
            Ok((reader, resumed))
        }
    };
    let Some(opened) = until_stopped(config.stop, opening)? else {
        if !config.resume {
            // Still leave a valid (empty) table behind.
            let results = &mut outputs.results;
            let name = results.name.clone();
            let out = results.start(0)?;
            encodings
                .0
                .writer(out, &columns, false)
                .and_then(|mut w| w.finish())
                .map_err(write_err(&name))?;
        }
        return Ok(Summary {
            interrupted: true,
            wall: started.elapsed(),
            ..Summary::default()
        });
    };
    let (reader, resumed) = opened?;
    // The options go beside the output before it is emptied, so that an output with rows
    // always has them; a record left by an earlier run that wrote other rows there goes.
    if let Some(path) = &outputs.record {
        match &options {
            Some(options) if encodings.0.appendable() => {
                record_options(options, path, config.resume)?;
            }
            _ => remove_record(path)?,
        }
    }
    let names = many.then(|| reader.names());
    let columns_used = reader.columns();
    let tables = Tables {
        columns: &columns,
        encodings,
        names,
    };
    let mut sink = Sink::open(outputs, tables, resumed, &reader, started, progress, write)?;
    let mut options = config.solve;
    options.limits.stop = config.stop;
    let work = SolveWork {
        options,
        emitter: sink.solutions.as_ref().map(|(_, e)| e.clone()),
    };
    let scheduled = schedule::run(
        reader,
        work,
        config.threads,
        config.batch_size,
        config.stop,
        |rows| sink.batch(&rows),
    );
    // The rows written are ended as a whole (a compressed stream's or Parquet's trailer)
    // unless writing failed: after a read error too, which comes after every row before it.
    let interrupted = match scheduled {
        Err(e @ RunError::Write { .. }) => return Err(e),
        Err(e) => {
            sink.finish()?;
            return Err(e);
        }
        Ok(interrupted) => interrupted,
    };
    sink.finish()?;
    // A puzzle stopped mid-search after the whole input was read.
    let interrupted = interrupted || sink.stopped;
    let mut summary = sink.summary;
    summary.interrupted = interrupted;
    summary.inputs = config.inputs.len();
    summary.columns = columns_used.lines(config.inputs.len() > 1);
    if let Some(point) = resumed {
        (summary.resumed, summary.resumed_invalid) = (point.rows, point.invalid);
    }
    summary.wall = started.elapsed();
    Ok(summary)
}

/// Writes `options` at `path`, beside the results file. A record that cannot be written is
/// no error, unless the run is resumed: the output then simply cannot be resumed later.
fn record_options(options: &resume::RunOptions, path: &Path, resume: bool) -> Result<(), RunError> {
    // A resumed run has the options recorded (it was refused otherwise): nothing to write.
    let recorded = std::fs::read(path).ok();
    let recorded = recorded.and_then(|text| serde_json::from_slice(&text).ok());
    if resume && recorded.as_ref() == Some(options) {
        return Ok(());
    }
    let Err(e) = options.write_to(path) else {
        return Ok(());
    };
    // Half a record is no record: it would keep later runs from replacing it. An earlier
    // run's record that can be neither replaced nor removed would tell of other rows.
    if let Err(gone) = std::fs::remove_file(path)
        && gone.kind() != io::ErrorKind::NotFound
        && std::fs::symlink_metadata(path).is_ok()
    {
        return Err(write_err(&path.display().to_string())(e));
    }
    if resume {
        return Err(RunError::Resume {
            path: path.display().to_string(),
            message: format!(
                "the record of the run's options cannot be written ({e}), so the output could \
                 not be resumed again; run without --resume, or write the output where its \
                 directory is writable"
            ),
        });
    }
    Ok(())
}

/// Removes the record of the options of an earlier run that wrote the results file, which
/// this run replaces with rows of other options (or of another command).
fn remove_record(path: &Path) -> Result<(), RunError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            Err(write_err(&path.display().to_string())(e))
        }
        _ => Ok(()),
    }
}

/// What a run's outputs hold: their columns, encodings, and the inputs' names when each row
/// starts with one.
struct Tables<'c> {
    columns: &'c [Field],
    /// The results' and the solutions file's.
    encodings: (Encoding, Option<Encoding>),
    names: Option<Arc<[String]>>,
}

/// Where a run's rows go, in input order: the results, the `--emit-solutions` file, the
/// progress report and the tally.
struct Sink<'a, F> {
    results: ResultsWriter,
    results_name: String,
    solutions: Option<(String, Arc<Emitter>)>,
    /// The sequence number of the next row, from 0.
    seq: u64,
    write: F,
    summary: Summary,
    progress: &'a mut dyn FnMut(&Progress),
    bytes_read: Arc<AtomicU64>,
    bytes_total: Option<u64>,
    started: Instant,
    /// A row of a puzzle stopped mid-search came: it and every row after it are not written.
    stopped: bool,
}

impl<'a, F: FnMut(&mut ResultsWriter, &Row) -> io::Result<()>> Sink<'a, F> {
    /// Starts the outputs: emptied, or, when resuming, cut after the rows kept and appended
    /// to. A CSV header goes out at once, so that the output is a valid CSV from the start.
    fn open(
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
    fn batch(&mut self, rows: &[Row]) -> Result<(), RunError> {
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
    fn finish(&mut self) -> Result<(), RunError> {
        if let Some((name, emitter)) = &self.solutions {
            emitter.finish().map_err(write_err(name))?;
        }
        self.results
            .inner
            .finish()
            .map_err(write_err(&self.results_name))
    }
}

/// Runs `f` on its own thread and waits for it, unless `stop` is set first: then returns `None`
/// at once and leaves the thread to finish (or block) on its own.
fn until_stopped<T: Send + 'static>(
    stop: Option<Stop>,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<Option<T>, RunError> {
    let (tx, rx) = sync_channel(1);
    thread::Builder::new()
        .name("opener".into())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .map_err(|e| RunError::Threads(e.to_string()))?;
    loop {
        if stop.is_some_and(Stop::is_set) {
            return Ok(None);
        }
        match rx.recv_timeout(schedule::POLL) {
            Ok(value) => return Ok(Some(value)),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(RunError::Threads("the input thread panicked".into()));
            }
        }
    }
}

/// Inputs for the stages' tests.
#[cfg(test)]
pub(crate) mod test_input {
    use std::io::{self, Read};

    /// Bytes read through `read` calls every other one of which fails with `Interrupted`, as a
    /// signal arriving during `read` makes it; the failing one comes first.
    pub struct Interrupting {
        inner: io::Cursor<Vec<u8>>,
        fail: bool,
    }

    impl Interrupting {
        pub fn new(bytes: Vec<u8>) -> Self {
            Interrupting {
                inner: io::Cursor::new(bytes),
                fail: false,
            }
        }
    }

    impl Read for Interrupting {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.fail = !self.fail;
            if self.fail {
                return Err(io::ErrorKind::Interrupted.into());
            }
            self.inner.read(buf)
        }
    }
}
