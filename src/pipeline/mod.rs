//! The streaming pipeline, read -> solve -> write, wired together.
//!
//! [`run`] opens the input ([`read`]) and the outputs ([`output`], [`resume`]), then has the
//! scheduler (`schedule`) read batches of records on a reader thread, solve them on a rayon
//! pool ([`solve`]) and hand their rows back in input order to the calling thread, which writes
//! them ([`write`](mod@write)), flushes at every batch boundary, reports progress and tallies the
//! [`Summary`]. Memory stays flat however long the input: only a few batches are in flight.
//!
//! This module holds the wiring ([`run`], [`run_with`]); the rows' way out, in input order, is
//! the `sink` module's, the counts a run reports the `summary` module's ([`Progress`],
//! [`Summary`]), and what stops a run the `error` module's ([`RunError`]).

pub mod canon;
mod error;
pub mod grade;
pub mod known;
pub mod output;
pub mod read;
pub mod resume;
pub(crate) mod schedule;
mod sink;
pub(crate) mod solutions;
pub mod solve;
pub mod stopwatch;
mod summary;
#[cfg(test)]
pub(crate) mod test_input;
pub mod write;

use std::io;
use std::path::PathBuf;
use std::sync::mpsc::{RecvTimeoutError, sync_channel};
use std::thread;
use std::time::Instant;

use crate::solver::Stop;

pub use error::RunError;
pub use output::Output;
pub use schedule::{max_threads, thread_pool};
pub use sink::ResultsWriter;
pub use summary::{Progress, Summary};

use output::{Outputs, write_err};
use read::{ReadOptions, Reader, Source};
use resume::{ResumePoint, record_options, remove_record};
use sink::{Sink, Tables};
use solve::{Row, SolveOptions, SolveWork};
use write::{
    COLUMNS, Encoding, FILE_COLUMN, Field, GradeText, OutputFormat, grade_values, row_values,
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
    /// Classes of isomorphs whose status is known, whose later members the workers do not
    /// search (`validate --duplicates --isomorphs`, with [`solve::SolveOptions::canon`]
    /// finding the forms; the writer must [`copy`](known::copy) those members' rows alike).
    pub known: Option<known::KnownClasses>,
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
            known: None,
        }
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
/// may write nothing; it may change the row before the summary counts it (`validate` makes
/// the rows of later isomorphs alike, [`known::copy`]). Such a run cannot be resumed.
pub fn run_with<F>(
    config: &Config,
    columns: &[Field],
    progress: &mut dyn FnMut(&Progress),
    write: F,
) -> Result<Summary, RunError>
where
    F: FnMut(&mut ResultsWriter, &mut Row) -> io::Result<()>,
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
    F: FnMut(&mut ResultsWriter, &mut Row) -> io::Result<()>,
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
        known: config.known.clone(),
    };
    let scheduled = schedule::run(
        reader,
        work,
        config.threads,
        config.batch_size,
        config.stop,
        |mut rows| sink.batch(&mut rows),
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
