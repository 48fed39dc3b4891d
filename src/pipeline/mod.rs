//! The streaming pipeline, read -> solve -> write, wired together.
//!
//! Three stages overlap: a reader thread parses records into batches and hands them over a
//! bounded channel; the calling thread has the batches solved on a rayon pool, two at a time so
//! that no worker waits for the last puzzles of a batch, and passes their rows on in input
//! order (with one thread, it solves each batch itself); a writer thread writes the rows,
//! flushes at every batch boundary, updates the progress bar and tallies the [`Summary`].
//! Bounded channels keep at most a few batches in memory, so memory does not grow with the
//! corpus. The first batches are small and each doubles the last, up to the batch size, so that
//! solving starts before a whole batch is read; from a regular file the first two batches are
//! read before the reader thread starts (and an input that fits in them needs no reader
//! thread). A small regular file is read, solved and written batch after batch on the calling
//! thread alone, which on a short run costs less than starting threads and handing batches
//! between them (`INLINE_BYTES`). With several solver threads only a smaller one starts so
//! (`POOLED_INLINE_BYTES`), and its rest goes on to the threads if its first records show
//! that it would take long (`HandOver`).
//!
//! Stopping ([`Config::stop`], set on Ctrl-C): no new batch is started once the flag is seen;
//! the batches already started are finished, and their rows written and flushed, so the output
//! is a prefix of the full result, and the run returns without waiting for a reader blocked on
//! its input.
//! Resuming ([`Config::resume`]): see [`resume`].

pub mod read;
pub mod resume;
pub mod solve;
pub mod write;

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{
    Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError, channel, sync_channel,
};
use std::thread;
use std::time::{Duration, Instant};

use crate::grid::CELLS;
use crate::progress::Progress;
use read::{ReadError, ReadOptions, Reader, Record, Source};
use solve::{Row, SolveOptions, Status, solve_batch, solve_batch_here};
use write::{COLUMNS, RowWriter, SOLUTION_COLUMNS};

/// Records per batch unless told otherwise. Smaller batches start the solvers sooner and keep
/// the stages busier: on 17-clue puzzles 1,024 ran about 5% faster than 4,096 at one and at two
/// threads, while its hand-overs still cost little next to a millisecond of solving.
pub const DEFAULT_BATCH: usize = 1024;

/// The size of the first batch: each later one doubles, up to the batch size. The solvers wait
/// for the first batch: a whole one of 1,024 records reached them 0.35-0.47 ms after the
/// reader thread started (2-3% of a run over the 1,465 puzzles of top1465), while 32 records
/// are read in under 0.1 ms.
const FIRST_BATCH: usize = 32;

/// The size of the batch after one of `size` records, when batches hold at most `max`: the
/// first batches are small, so that solving starts soon, and they grow to `max`.
fn next_batch_size(size: usize, max: usize) -> usize {
    size.saturating_mul(2).min(max)
}

/// Where results go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Standard output.
    Stdout,
    /// A file, created or truncated.
    Path(PathBuf),
}

impl Output {
    /// `-` or nothing is stdout, anything else a path.
    pub fn from_arg(arg: Option<&std::path::Path>) -> Output {
        match arg {
            None => Output::Stdout,
            Some(p) if p.as_os_str() == "-" => Output::Stdout,
            Some(p) => Output::Path(p.to_path_buf()),
        }
    }

    /// The name shown in messages.
    pub fn display_name(&self) -> String {
        match self {
            Output::Stdout => "<stdout>".to_string(),
            Output::Path(p) => p.display().to_string(),
        }
    }

    /// Opens the output for writing, buffered. A file is created if need be, and emptied just
    /// before the first bytes go out rather than when opened: emptying a file the kernel is
    /// still writing back waits for that write, and the pipeline's writer thread, which writes
    /// first, does that wait while the first batch is being solved.
    pub fn open(&self) -> Result<Box<dyn Write + Send>, RunError> {
        Ok(Box::new(BufWriter::with_capacity(
            WRITE_BUFFER,
            self.open_unbuffered()?,
        )))
    }

    /// [`Output::open`] without the buffer, for a [`RowWriter`], which gathers whole records
    /// itself: a buffer behind it would copy every byte once more.
    pub fn open_unbuffered(&self) -> Result<Box<dyn Write + Send>, RunError> {
        Ok(match self {
            Output::Stdout => Box::new(io::stdout()),
            Output::Path(p) => {
                let file = OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .open(p)
                    .map_err(write_err(&self.display_name()))?;
                // Only a regular file with contents needs emptying (or can be emptied): not
                // a new file, `/dev/stdout`, a pipe or a terminal.
                let old = match file.metadata() {
                    Ok(m) if m.is_file() && m.len() > 0 => OldContents::All,
                    _ => OldContents::None,
                };
                Box::new(EmptiedOnWrite { file, old })
            }
        })
    }
}

/// The buffer of [`Output::open`]: lines go to the kernel in writes of this size.
const WRITE_BUFFER: usize = 256 * 1024;

/// An output file that is emptied on its first write or flush (or when dropped), not when it
/// is opened.
///
/// Emptying a file whose previous contents the kernel is still writing to disk waits for that
/// write: on ext4, which flushes a file emptied and rewritten when it is closed, rerunning a
/// command into the same output waited about 2.5 ms when opening it, before any puzzle was
/// read. The pipeline's writer thread flushes first thing, so the wait now overlaps the
/// solving; the file is still opened (and created) up front, so a path that cannot be written
/// fails before any work is done.
///
/// The file is cut to its first byte rather than to nothing, and the first write replaces that
/// byte. ext4 takes a file cut to nothing and written again for one being replaced (its
/// `auto_da_alloc`) and starts writing it to disk when it is closed. Rewriting an 18 KB file
/// in a loop, that close took about 45 us and made the next cut wait for the disk, 160-195 us;
/// cut to one byte, the cut took 20 us and the close 2 us.
/// Until the first write the file holds that one byte of the old contents: too little for a
/// row, and `--resume` takes a file that holds the start of a header for one to start afresh
/// (and refuses any other).
struct EmptiedOnWrite {
    file: File,
    old: OldContents,
}

/// What is left of an [`EmptiedOnWrite`]'s earlier contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OldContents {
    /// All of them: nothing has been cut yet.
    All,
    /// Their first byte, which the first write replaces.
    FirstByte,
    /// None (or the output is not a regular file, which cannot be cut).
    None,
}

impl EmptiedOnWrite {
    /// Cuts the file to its first byte, once.
    fn cut(&mut self) -> io::Result<()> {
        if self.old == OldContents::All {
            self.file.set_len(1)?;
            self.old = OldContents::FirstByte;
        }
        Ok(())
    }
}

impl Write for EmptiedOnWrite {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        self.cut()?;
        // The file is written from its start, so a write of one byte or more covers the
        // byte left of the old contents.
        let written = self.file.write(buf)?;
        if written > 0 {
            self.old = OldContents::None;
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.cut()?;
        self.file.flush()
    }
}

impl Drop for EmptiedOnWrite {
    fn drop(&mut self) {
        // Nothing written: the output must still be empty, not hold an earlier run's rows.
        if self.old != OldContents::None {
            let _ = self.file.set_len(0);
        }
    }
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The input.
    pub source: Source,
    /// How to read it.
    pub read: ReadOptions,
    /// Where results go.
    pub output: Output,
    /// How to solve.
    pub solve: SolveOptions,
    /// Worker threads for solving; 0 means one per CPU the process may use.
    pub threads: usize,
    /// Records per batch, at most: the first batches are smaller, so that solving starts
    /// before a whole batch is read.
    pub batch_size: usize,
    /// Show a progress bar on stderr (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Also write every solution found to this file as `line,index,solution`.
    pub emit_solutions: Option<PathBuf>,
    /// Set to stop at the next batch boundary (Ctrl-C): rows already solved are written and
    /// flushed, the batch being read is dropped, and [`Summary::interrupted`] is set.
    pub stop: Option<Arc<AtomicBool>>,
    /// Resume into an existing output file (which must be [`Output::Path`]): keep its complete
    /// rows, skip as many input records, append the rest. Only for writers that give exactly
    /// one row per record (`solve`).
    pub resume: bool,
}

impl Config {
    /// A configuration with the defaults for everything but input and output.
    pub fn new(source: Source, output: Output) -> Config {
        Config {
            source,
            read: ReadOptions::default(),
            output,
            solve: SolveOptions::default(),
            threads: 0,
            batch_size: DEFAULT_BATCH,
            progress: false,
            emit_solutions: None,
            stop: None,
            resume: false,
        }
    }
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
    /// Puzzles (valid records) solved or settled without a guess.
    pub no_guess: u64,
    /// Wall time of the whole run.
    pub wall: Duration,
    /// True when the run was stopped before the end of the input.
    pub interrupted: bool,
    /// Records skipped because the output already held their rows (`--resume`).
    pub resumed: u64,
    /// Of those, rows whose status is `invalid`.
    pub resumed_invalid: u64,
}

impl Summary {
    /// Rows with `status`.
    pub fn count(&self, status: Status) -> u64 {
        let i = Status::ALL.iter().position(|&s| s == status).unwrap_or(0);
        self.by_status[i]
    }

    /// Records that are puzzles (not invalid).
    pub fn puzzles(&self) -> u64 {
        self.records - self.count(Status::Invalid)
    }

    /// Adds one row to the tally.
    pub fn add(&mut self, row: &Row) {
        self.records += 1;
        let i = Status::ALL
            .iter()
            .position(|&s| s == row.status)
            .unwrap_or(0);
        self.by_status[i] += 1;
        if row.status != Status::Invalid {
            self.guesses += row.outcome.guesses;
            self.no_guess += u64::from(row.outcome.guesses == 0);
        }
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
    /// The thread pool could not be built.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// The output to resume does not fit the input or the command.
    #[error("{path}: cannot resume: {message}")]
    Resume {
        /// The output's name.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Two of the run's files are one: writing would destroy what is read, or two outputs
    /// would overwrite each other.
    #[error("{path}: {what}; choose another file")]
    SameFile {
        /// The file's name.
        path: String,
        /// Which two roles it plays.
        what: &'static str,
    },
}

impl RunError {
    /// True when the output is a pipe whose reader has gone (`| head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Turns an error writing `path` into a [`RunError`] ([`RunError::is_broken_pipe`] later tells a
/// closed pipe, a quiet exit, from a real error). The name is copied only when there is an
/// error: the writer maps the result of every row with this.
pub(crate) fn write_err(path: &str) -> impl FnOnce(io::Error) -> RunError + '_ {
    move |e| RunError::Write {
        path: path.to_string(),
        source: e,
    }
}

/// Builds the rayon pool for `threads` workers (0: as many as `RAYON_NUM_THREADS` says, or
/// one per CPU the process may use).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, RunError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("solver-{i}"))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))
}

/// Whether a run with `threads` solver threads (0: one per CPU) has a single one: asked for,
/// or the default where the process may use one CPU only (`taskset`, a container's CPU quota),
/// unless `RAYON_NUM_THREADS` says otherwise. Such a run solves on the calling thread: a pool
/// of one worker, beside the reader and writer threads on that one CPU, made a run over top1465
/// about 7% slower, and one over its first 100 puzzles about 15%.
fn one_solver_thread(threads: usize) -> bool {
    match threads {
        1 => true,
        0 => {
            std::env::var_os("RAYON_NUM_THREADS").is_none()
                && thread::available_parallelism().is_ok_and(|n| n.get() == 1)
        }
        _ => false,
    }
}

/// Runs the whole pipeline: reads every record, solves it, writes its row.
pub fn run(config: &Config) -> Result<Summary, RunError> {
    run_with(config, &COLUMNS, |w, row| w.write_row(row))
}

/// Runs the pipeline with a custom row writer (used by `validate`, which filters rows and adds
/// a column). `write` is called once per row, in input order, and may write nothing.
pub fn run_with<F>(config: &Config, header: &[&str], write: F) -> Result<Summary, RunError>
where
    F: FnMut(&mut RowWriter<Box<dyn Write + Send>>, &Row) -> io::Result<()> + Send,
{
    let started = Instant::now();
    distinct_files(config)?;
    // One solver thread needs no pool: the batches are solved on this thread, which saves
    // starting a worker and handing each batch over to it. Several get theirs only when the
    // run needs them (`POOLED_INLINE_BYTES`).
    let pooled = !one_solver_thread(config.threads);
    let out_name = config.output.display_name();
    // Opening reads the start of the input (gzip magic, CSV header) and resuming skips
    // records: either may wait forever on an idle stdin, so they run on their own thread and a
    // stop is honoured meanwhile.
    let opening = {
        let config = config.clone();
        let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
        move || -> Result<_, RunError> {
            let mut reader = Reader::open(&config.source, &config.read)?;
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            let resumed = if config.resume {
                Some(skip_done_records(&config, &header, &mut reader)?)
            } else {
                None
            };
            Ok((reader, resumed))
        }
    };
    // A regular file opens at once: no thread needed to keep a stop responsive.
    let regular =
        matches!(&config.source, Source::Path(p) if p.metadata().is_ok_and(|m| m.is_file()));
    let opened = if regular && !config.resume {
        Some(opening())
    } else {
        until_stopped(config.stop.as_deref(), opening)?
    };
    let Some(opened) = opened else {
        if !config.resume {
            // Still leave a valid (empty) CSV behind.
            let mut writer = RowWriter::new(config.output.open_unbuffered()?, header)
                .map_err(write_err(&out_name))?;
            writer.flush().map_err(write_err(&out_name))?;
        }
        return Ok(Summary {
            interrupted: true,
            wall: started.elapsed(),
            ..Summary::default()
        });
    };
    let (mut reader, resumed) = opened?;
    let resumed_rows = resumed
        .as_ref()
        .map_or((0, 0), |r| (r.point.rows, r.point.invalid));
    let (resumed_output, resumed_solutions) =
        resumed.map_or((None, None), |r| (r.output, r.solutions));
    let writer = match resumed_output {
        Some(file) => appending(file),
        None => RowWriter::new(config.output.open_unbuffered()?, header)
            .map_err(write_err(&out_name))?,
    };
    let solutions = match &config.emit_solutions {
        Some(p) => {
            let name = p.display().to_string();
            let w = match resumed_solutions {
                Some(file) => appending(file),
                // Emptied on the first write, as the results are (see `Output::open`).
                None => RowWriter::new(
                    Output::Path(p.clone()).open_unbuffered()?,
                    &SOLUTION_COLUMNS,
                )
                .map_err(write_err(&name))?,
            };
            Some((name, w))
        }
        None => None,
    };
    let progress = Progress::new(
        config.progress,
        reader.size(),
        reader.progress_counter(),
        started,
    );
    let mut sink = Sink {
        writer,
        out_name,
        solutions,
        progress,
        write,
        summary: Summary::default(),
    };
    let finish = |mut summary: Summary, interrupted: bool| {
        summary.interrupted = interrupted;
        (summary.resumed, summary.resumed_invalid) = resumed_rows;
        summary.wall = started.elapsed();
        summary
    };

    let batch_size = config.batch_size.max(1);
    let stopped = || {
        config
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    };
    // A small file is read, solved and written right here, batch after batch, and no thread
    // is started; with several solver threads, the rest of one that would take too long goes
    // on to them (`HandOver`). A regular file of no size is empty, or one of the small files
    // of /proc that report none.
    let inline_bytes = if pooled {
        POOLED_INLINE_BYTES
    } else {
        INLINE_BYTES
    };
    let mut next_batch = FIRST_BATCH.min(batch_size);
    if regular && reader.size().is_none_or(|n| n <= inline_bytes) {
        let hand_over = pooled.then(|| HandOver::for_size(reader.size()));
        match solve_inline(
            &mut reader,
            &mut sink,
            batch_size,
            config,
            &stopped,
            hand_over,
        )? {
            Inline::Ended { interrupted } => return Ok(finish(sink.finish(), interrupted)),
            Inline::HandOver { next } => next_batch = next,
        }
    }
    let pool = if pooled {
        Some(thread_pool(config.threads)?)
    } else {
        None
    };
    let (batch_tx, batch_rx) = sync_channel::<Vec<Record>>(2);
    let (row_tx, row_rx) = sync_channel::<Vec<Row>>(2);

    // Emptied batch vectors go back to the stage that fills them, so that a run allocates a
    // few and reuses them rather than allocating (and page-faulting in) two per batch.
    let (spare_batch_tx, spare_batch_rx) = channel::<Vec<Record>>();
    let (spare_rows_tx, spare_rows_rx) = channel::<Vec<Row>>();

    let mut batches = Batches {
        size: next_batch,
        max: batch_size,
        tx: batch_tx,
        spare: spare_batch_rx,
    };
    // A regular file never keeps a read waiting, so its first two (small) batches are read
    // here: the solvers then start at once instead of waiting for the reader thread to start
    // and hand them over, and have the second while it starts (with the first alone, the
    // 1,465 puzzles of top1465 took 1.03x the time at `-j 2`). The reader thread goes on from
    // the third.
    let first = if regular && !stopped() {
        let sent = batches.send_next(&mut reader);
        Some(match sent {
            Ok(true) => batches.send_next(&mut reader),
            other => other,
        })
    } else {
        None
    };
    // An input that fit in those batches (or failed) needs no reader thread at all; dropping
    // `batches` tells the solving side that the input has ended.
    let (reader_thread, first_error) = match first {
        Some(Ok(false)) => {
            drop(batches);
            (None, None)
        }
        Some(Err(e)) => {
            drop(batches);
            (None, Some(e))
        }
        _ => (
            Some(spawn_reader(reader, batches, config.stop.clone())?),
            None,
        ),
    };

    let mut interrupted = false;
    let written = thread::scope(|scope| {
        let writer_thread = scope.spawn(move || -> Result<Summary, RunError> {
            // The header goes out at once, so the output is a valid CSV from the start, and an
            // output file is emptied here while the first batch is being solved.
            sink.start()?;
            for mut rows in row_rx {
                sink.batch(&rows)?;
                rows.clear();
                let _ = spare_rows_tx.send(rows); // unless the solving is over
            }
            Ok(sink.finish())
        });
        match &pool {
            Some(pool) => {
                let spares = Spares {
                    batches: &spare_batch_tx,
                    rows: &spare_rows_rx,
                };
                interrupted = solve_overlapped(pool, &batch_rx, &row_tx, spares, config, &stopped);
            }
            None => loop {
                // Poll, rather than block on the reader, so that a stop is seen even while the
                // reader waits on an input that gives nothing (a terminal, an idle pipe).
                if stopped() {
                    interrupted = !input_ended(&batch_rx);
                    break;
                }
                let mut batch = match batch_rx.recv_timeout(Duration::from_millis(50)) {
                    Ok(batch) => batch,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => break,
                };
                let mut rows = spare_rows_rx.try_recv().unwrap_or_default();
                solve_batch_here(&mut batch, &config.solve, &mut rows);
                let _ = spare_batch_tx.send(batch); // unless the reader is done
                if row_tx.send(rows).is_err() {
                    break; // the writer failed; its error is reported below
                }
            },
        }
        drop(batch_rx);
        drop(row_tx);
        writer_thread
            .join()
            .unwrap_or_else(|_| Err(RunError::Threads("the writer thread panicked".into())))
    });
    // On a write error or a stop, return at once: the reader may be blocked on an input that
    // never ends (a terminal), so it is not waited for.
    let summary = written?;
    if !interrupted {
        interrupted = match reader_thread {
            Some(thread) => thread.join().unwrap_or_else(|_| {
                Err(ReadError::Io {
                    path: config.source.display_name(),
                    source: io::Error::other("the reader thread panicked"),
                })
            })?,
            None => first_error.map_or(Ok(false), Err)?,
        };
    }
    Ok(finish(summary, interrupted))
}

/// The largest file a run with one solver thread reads, solves and writes all on the calling
/// thread, without a reader and a writer thread (512 KiB, about 6,000 lines of 81 cells). Those
/// threads pay on a long run, where reading and writing on the other core keep the solver from
/// doing it, but on a short run they cost more than they save: starting them and handing
/// batches over and back took about 0.4-0.5 ms of a run over 100 puzzles. All on one thread,
/// the 1,465 puzzles of top1465 ran 3-8% faster and its first 100 about 10%. Since the calling
/// thread works in chunks ([`INLINE_CHUNK`]), 17-clue samples ran 4% faster on it at 5,000
/// puzzles (410 KB), alike at 10,000 and 2-3% slower at 12,000 and beyond (paired runs).
const INLINE_BYTES: u64 = 512 * 1024;

/// The largest file a run with several solver threads starts on the calling thread alone, as
/// a run with one does ([`INLINE_BYTES`]): 64 KiB, about 800 lines of 81 cells. Starting the
/// threads costs about 0.7 ms (a file of one puzzle took 1.73 ms at `-j 2` against 1.04 ms at
/// `-j 1`), which a short run never earns back: 700 17-clue puzzles took 0.84x the time at
/// `-j 1`. Only a small file that would take long on one thread goes on to the others
/// ([`HandOver`]); from about 1,000 17-clue puzzles (82 KB) on, two threads from the start
/// were as fast as one or faster.
const POOLED_INLINE_BYTES: u64 = 64 * 1024;

/// When a run with several solver threads that began on the calling thread alone
/// ([`POOLED_INLINE_BYTES`]) hands the rest of its input to the threads: once the records so
/// far say that the rest would take more than [`HandOver::STAY`] there. A small file of hard
/// puzzles can take longer than starting the threads costs many times over: 100 of 11+ take
/// about 6 ms on one thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct HandOver {
    /// About how many records the input holds.
    records: u64,
}

impl HandOver {
    /// The most time the rest of the input may be expected to take on the calling thread: 2.5
    /// ms, where two threads from the start and one thread alone took about as long (1,000
    /// 17-clue puzzles, or 300 of top1465).
    const STAY: Duration = Duration::from_micros(2500);

    /// Records solved, one at a time, before the first estimate. Their times are those of a
    /// cold start (three times an easy puzzle's usual), so that estimate is trusted only to
    /// find inputs twice as long as [`HandOver::STAY`]. Meanwhile only a run already that long
    /// goes on to the threads (records of seconds each, say, with `--solver backtrack`).
    const FIRST_LOOK: u64 = 8;

    /// The bytes of a line of 81 cells and its line end: what a record is taken to be, to
    /// tell from the file's size how many there are.
    const LINE_BYTES: u64 = CELLS as u64 + 1;

    /// For an input of `size` bytes, if known.
    fn for_size(size: Option<u64>) -> HandOver {
        HandOver {
            records: size.map_or(0, |n| n / Self::LINE_BYTES),
        }
    }

    /// Whether to hand over once `done` records have taken `elapsed`, with more to come.
    fn due(&self, done: u64, elapsed: Duration) -> bool {
        if elapsed > 2 * Self::STAY {
            return true;
        }
        if done < Self::FIRST_LOOK {
            return false;
        }
        let rest = if done < self.records {
            // elapsed / done * left, in nanoseconds (done is at least FIRST_LOOK here).
            elapsed.as_nanos() / u128::from(done) * u128::from(self.records - done)
        } else {
            // More records than the size allows for (a gzip file, or a size unknown): as
            // long again as so far is the best guess.
            elapsed.as_nanos()
        };
        let bar = if done == Self::FIRST_LOOK { 2 } else { 1 };
        rest > bar * Self::STAY.as_nanos()
    }
}

/// How [`solve_inline`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inline {
    /// At the end of the input, or at a stop (`interrupted`).
    Ended { interrupted: bool },
    /// With input left that [`HandOver`] found too long for the calling thread, after writing
    /// and flushing the rows so far: the rest is for the solver threads, in batches of `next`
    /// records and more.
    HandOver { next: usize },
}

/// Reads, solves and writes the input on the calling thread, in batches growing to `max`
/// records as the reader thread's do, each flushed when it ends: all of it, or, given a
/// `hand_over`, what comes before it finds the rest too long (the batch at hand then ends
/// early). A read error is returned after the rows of the records before it are written.
///
/// Within a batch, records go from reading to writing [`INLINE_CHUNK`] at a time, so that their
/// records and rows stay in the same few kilobytes of memory; a hand-over is considered after
/// each chunk.
fn solve_inline<W: WriteRow>(
    reader: &mut Reader,
    sink: &mut Sink<W>,
    max: usize,
    config: &Config,
    stopped: &dyn Fn() -> bool,
    hand_over: Option<HandOver>,
) -> Result<Inline, RunError> {
    let mut size = FIRST_BATCH.min(max);
    let mut records = Vec::with_capacity(INLINE_CHUNK);
    let mut rows = Vec::with_capacity(INLINE_CHUNK);
    let mut done = 0u64;
    sink.start()?;
    // The hand-over's clock starts once the output is ready.
    let started = Instant::now();
    loop {
        if stopped() {
            return Ok(Inline::Ended { interrupted: true });
        }
        let mut left = size;
        // Whether the input ended in this batch, the read error that ended it, if any, and
        // whether the hand-over time came.
        let (ended, error, handing_over) = loop {
            // With a hand-over to consider, the first records go one at a time.
            let chunk = match hand_over {
                Some(_) if done < HandOver::FIRST_LOOK => 1,
                _ => INLINE_CHUNK,
            };
            let want = left.min(chunk);
            let read = reader.read_batch(&mut records, want);
            // A chunk that came back short ends the input (or met an error).
            let short = records.len() < want;
            left -= records.len();
            done += records.len() as u64;
            solve_batch_here(&mut records, &config.solve, &mut rows);
            sink.rows(&rows)?;
            match read {
                Ok(true) if !short => {}
                Ok(_) => break (true, None, false),
                Err(e) => break (true, Some(e), false),
            }
            if hand_over.is_some_and(|h| h.due(done, started.elapsed())) {
                break (false, None, true);
            }
            if left == 0 {
                break (false, None, false);
            }
        };
        sink.end_batch()?;
        if let Some(e) = error {
            return Err(e.into());
        }
        if ended {
            return Ok(Inline::Ended { interrupted: false });
        }
        size = next_batch_size(size, max);
        if handing_over {
            return Ok(Inline::HandOver { next: size });
        }
    }
}

/// How many records [`solve_inline`] reads, solves and writes at a time. Whole batches, of up to
/// 1,024 records (about 110 bytes each) and their rows (about 300 bytes), took memory the
/// process had never touched: a run over 1,000 17-clue puzzles had 88 more page faults than one
/// over an empty file. In chunks of 16 it has 24 more, and the whole run took about 4% less time.
const INLINE_CHUNK: usize = 16;

/// How a run writes one row of results (`solve`'s row, or `validate`'s).
trait WriteRow: FnMut(&mut RowWriter<Box<dyn Write + Send>>, &Row) -> io::Result<()> {}

impl<F: FnMut(&mut RowWriter<Box<dyn Write + Send>>, &Row) -> io::Result<()>> WriteRow for F {}

/// Where a run's rows go, in input order: the results, the `--emit-solutions` file, the
/// progress bar and the tally. The writer thread owns it, or the calling thread when it solves
/// a small input itself ([`INLINE_BYTES`]).
struct Sink<W> {
    writer: RowWriter<Box<dyn Write + Send>>,
    out_name: String,
    solutions: Option<(String, RowWriter<Box<dyn Write + Send>>)>,
    progress: Progress,
    write: W,
    summary: Summary,
}

impl<W: WriteRow> Sink<W> {
    /// Sends the header out (and empties an output file), so that the output is a valid CSV
    /// from the start.
    fn start(&mut self) -> Result<(), RunError> {
        self.writer.flush().map_err(write_err(&self.out_name))
    }

    /// Writes the rows of one batch, flushes them and shows the progress.
    fn batch(&mut self, rows: &[Row]) -> Result<(), RunError> {
        self.rows(rows)?;
        self.end_batch()
    }

    /// Writes rows and counts them, without flushing: part of a batch.
    fn rows(&mut self, rows: &[Row]) -> Result<(), RunError> {
        for row in rows {
            (self.write)(&mut self.writer, row).map_err(write_err(&self.out_name))?;
            if let Some((name, w)) = &mut self.solutions {
                w.write_solutions(row).map_err(write_err(name))?;
            }
            self.summary.add(row);
        }
        Ok(())
    }

    /// Ends a batch: flushes its rows and shows the progress.
    fn end_batch(&mut self) -> Result<(), RunError> {
        // Solutions first: a results row on disk then has its solutions there too, unless the
        // results' buffer filled and went out on its own mid-batch (which `--resume` checks
        // for).
        if let Some((name, w)) = &mut self.solutions {
            w.flush().map_err(write_err(name))?;
        }
        self.writer.flush().map_err(write_err(&self.out_name))?;
        self.progress.update(self.summary.records);
        Ok(())
    }

    /// Removes the progress bar; returns the tally.
    fn finish(self) -> Summary {
        self.progress.finish();
        self.summary
    }
}

/// Where the reader thread sends its batches, and how large they are.
struct Batches {
    /// The size of the next batch.
    size: usize,
    /// The size batches grow to.
    max: usize,
    /// The solving side.
    tx: SyncSender<Vec<Record>>,
    /// Emptied batch vectors coming back, to be filled again.
    spare: Receiver<Vec<Record>>,
}

impl Batches {
    /// Reads the next batch and sends it on: true while more may follow, false at the end of
    /// the input or once the solving side has gone (the writer failed, or a stop). A read error
    /// is returned after the records before it are sent, so that the rows before a truncated
    /// gzip stream are all written.
    fn send_next(&mut self, reader: &mut Reader) -> Result<bool, ReadError> {
        let mut batch = self
            .spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(self.max));
        let (more, error) = match reader.read_batch(&mut batch, self.size) {
            Ok(more) => (more, None),
            Err(e) => (!batch.is_empty(), Some(e)),
        };
        self.size = next_batch_size(self.size, self.max);
        if more && self.tx.send(batch).is_err() {
            return Ok(false);
        }
        error.map_or(Ok(more), Err)
    }
}

/// Starts the reader thread: it reads batches until the input ends, an error, a stop (then it
/// returns true) or the solving side going away. Returns whether it stopped.
fn spawn_reader(
    mut reader: Reader,
    mut batches: Batches,
    stop: Option<Arc<AtomicBool>>,
) -> Result<thread::JoinHandle<Result<bool, ReadError>>, RunError> {
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || -> Result<bool, ReadError> {
            loop {
                if stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                    return Ok(true);
                }
                if !batches.send_next(&mut reader)? {
                    return Ok(false);
                }
            }
        })
        .map_err(|e| RunError::Threads(e.to_string()))
}

/// Whether the reader has sent its last batch and ended (checked when a stop arrives: a stop
/// after the whole input was read interrupts nothing).
fn input_ended(batch_rx: &Receiver<Vec<Record>>) -> bool {
    matches!(batch_rx.try_recv(), Err(TryRecvError::Disconnected))
}

/// Batches solved at once on the pool. Two keep both workers busy across the end of a batch:
/// while the last puzzles of one are finished, the other worker starts on the next, instead of
/// waiting for the whole batch as a fork-join per batch would.
const IN_FLIGHT: usize = 2;

/// Where emptied batch vectors go back to (records, to the reader) and come from (rows, from
/// the writer).
struct Spares<'a> {
    batches: &'a Sender<Vec<Record>>,
    rows: &'a Receiver<Vec<Row>>,
}

/// The solving loop for a pool: takes batches from the reader, solves up to [`IN_FLIGHT`] of
/// them at once on the pool, and hands their rows to the writer in input order. Returns whether
/// a stop interrupted the input. On a stop (or a writer error) no new batch is started; the
/// batches already started are finished and their rows handed on, so the output stays a prefix
/// of the input.
fn solve_overlapped(
    pool: &rayon::ThreadPool,
    batch_rx: &Receiver<Vec<Record>>,
    row_tx: &SyncSender<Vec<Row>>,
    spares: Spares,
    config: &Config,
    stopped: &(dyn Fn() -> bool + Sync),
) -> bool {
    let (done_tx, done_rx) = channel::<(u64, Vec<Row>)>();
    // Rows that came back before those of an earlier batch, by batch number.
    let mut pending = BTreeMap::new();
    let (mut started, mut handed_on) = (0u64, 0u64);
    let mut writer_failed = false;
    // Hands on every finished batch whose turn it is.
    let mut hand_on = |pending: &mut BTreeMap<u64, Vec<Row>>, handed_on: &mut u64| {
        while let Some(rows) = pending.remove(handed_on) {
            *handed_on += 1;
            if !writer_failed && row_tx.send(rows).is_err() {
                writer_failed = true; // its error is reported by the caller
            }
        }
        writer_failed
    };
    let mut interrupted = false;
    pool.in_place_scope(|scope| {
        let mut input_done = false;
        loop {
            while let Ok((i, rows)) = done_rx.try_recv() {
                pending.insert(i, rows);
            }
            if hand_on(&mut pending, &mut handed_on) {
                break;
            }
            if stopped() {
                interrupted = !input_done && !input_ended(batch_rx);
                break;
            }
            let in_flight = (started - handed_on) as usize - pending.len();
            if input_done || in_flight >= IN_FLIGHT {
                if in_flight == 0 {
                    break; // input_done: everything is handed on
                }
                // Wait for a batch to finish; time out now and then to see a stop.
                if let Ok((i, rows)) = done_rx.recv_timeout(Duration::from_millis(50)) {
                    pending.insert(i, rows);
                }
                continue;
            }
            // Room for another batch. While one is being solved, wait on the reader only
            // briefly, so that a finished batch is handed on without delay.
            let wait = Duration::from_millis(if in_flight > 0 { 1 } else { 50 });
            let mut batch = match batch_rx.recv_timeout(wait) {
                Ok(batch) => batch,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    input_done = true;
                    continue;
                }
            };
            let (done_tx, index) = (done_tx.clone(), started);
            started += 1;
            let mut rows = spares.rows.try_recv().unwrap_or_default();
            let spare_batches = spares.batches.clone();
            scope.spawn(move |_| {
                solve_batch(&mut batch, &config.solve, &mut rows);
                let _ = spare_batches.send(batch); // unless the reader is done
                // The receiver outlives the scope, so this cannot fail.
                let _ = done_tx.send((index, rows));
            });
        }
    });
    // The scope has waited for every batch started: hand on their rows too.
    drop(done_tx);
    for (i, rows) in done_rx {
        pending.insert(i, rows);
    }
    hand_on(&mut pending, &mut handed_on);
    interrupted
}

/// Runs `f` on its own thread and waits for it, unless `stop` is set first: then returns `None`
/// at once and leaves the thread to finish (or block) on its own.
fn until_stopped<T: Send + 'static>(
    stop: Option<&AtomicBool>,
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
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Ok(None);
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(value) => return Ok(Some(value)),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(RunError::Threads("the input thread panicked".into()));
            }
        }
    }
}

/// Refuses a run whose output or `--emit-solutions` file is its input, or whose two outputs are
/// one file. Emptying the output would destroy the puzzles before they are all read (a small
/// input read whole before the first write would hide it), and two writers would interleave.
fn distinct_files(config: &Config) -> Result<(), RunError> {
    let input = match &config.source {
        Source::Path(p) => Some(p.as_path()),
        Source::Stdin => None,
    };
    let output = match &config.output {
        Output::Path(p) => Some(p.as_path()),
        Output::Stdout => None,
    };
    let solutions = config.emit_solutions.as_deref();
    let pairs = [
        (input, output, "the output is the input"),
        (input, solutions, "the --emit-solutions file is the input"),
        (output, solutions, "the --emit-solutions file is the output"),
    ];
    for (a, b, what) in pairs {
        if let (Some(a), Some(b)) = (a, b) {
            if same_file(a, b) {
                return Err(RunError::SameFile {
                    path: b.display().to_string(),
                    what,
                });
            }
        }
    }
    Ok(())
}

/// Whether `a` and `b` name one regular file: the same device and inode on Unix (whatever the
/// spelling of the paths), the same canonical path elsewhere; or, for a file that does not
/// exist yet, the same path. Devices such as `/dev/null` may serve twice.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => {
            if !(x.is_file() && y.is_file()) {
                return false;
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                x.dev() == y.dev() && x.ino() == y.ino()
            }
            #[cfg(not(unix))]
            {
                matches!((a.canonicalize(), b.canonicalize()), (Ok(p), Ok(q)) if p == q)
            }
        }
        (Err(_), Err(_)) => a == b,
        _ => false,
    }
}

/// For `--resume`: reads what the output already holds, skips as many input records and checks
/// that the last one skipped is the record of the output's last row. Returns the resume point
/// and, when rows are kept, the output file cut after its last complete row and positioned at
/// its end. Nothing is changed on disk unless every check passes.
fn skip_done_records(
    config: &Config,
    header: &[&str],
    reader: &mut Reader,
) -> Result<Resumed, RunError> {
    let name = config.output.display_name();
    let fail = |message: String| RunError::Resume {
        path: name.clone(),
        message,
    };
    let Output::Path(path) = &config.output else {
        return Err(fail("--resume needs an output file (-o FILE)".into()));
    };
    let point = match &config.emit_solutions {
        Some(solutions) => resume::scan_with_solutions(path, header, solutions),
        None => resume::scan(path, header),
    }
    .map_err(|e| fail(e.to_string()))?;
    let mut last_line = 0;
    for done in 0..point.rows {
        match reader.next_record()? {
            Some(record) => last_line = record.line,
            None => {
                return Err(fail(format!(
                    "OUTPUT does not match INPUT: it has {} but {} has only {}",
                    crate::progress::count(point.rows, "row", "rows"),
                    reader.name(),
                    crate::progress::count(done, "record", "records")
                )));
            }
        }
    }
    if last_line != point.last_line {
        return Err(fail(format!(
            "OUTPUT does not match INPUT: its last row is for line {}, but record {} of {} \
             is on line {last_line}",
            point.last_line,
            point.rows,
            reader.name()
        )));
    }
    if !point.has_header {
        return Ok(Resumed {
            point,
            output: None,
            solutions: None,
        });
    }
    let output = cut_for_append(path, point.keep_bytes).map_err(write_err(&name))?;
    let solutions = match &config.emit_solutions {
        Some(p) if point.solutions_bytes > 0 => Some(
            cut_for_append(p, point.solutions_bytes)
                .map_err(write_err(&p.display().to_string()))?,
        ),
        _ => None,
    };
    Ok(Resumed {
        point,
        output: Some(output),
        solutions,
    })
}

/// What [`skip_done_records`] leaves for the writer.
struct Resumed {
    point: resume::ResumePoint,
    /// The output cut after its last complete row and positioned at its end; `None` when it
    /// starts afresh.
    output: Option<File>,
    /// The same for the `--emit-solutions` file: cut after the solutions of the kept rows.
    solutions: Option<File>,
}

/// A row writer appending to `file`, an output that [`skip_done_records`] cut and positioned.
fn appending(file: File) -> RowWriter<Box<dyn Write + Send>> {
    RowWriter::appending(Box::new(file))
}

/// Opens the file at `path` for writing, cuts it to `len` bytes and moves to its end.
fn cut_for_append(path: &Path, len: u64) -> io::Result<File> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.set_len(len)?;
    file.seek(io::SeekFrom::End(0))?;
    Ok(file)
}

/// Inputs for the stages' tests.
#[cfg(test)]
mod test_input {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The batch sizes the reader uses when batches hold at most `max` records.
    fn sizes(max: usize, n: usize) -> Vec<usize> {
        std::iter::successors(Some(FIRST_BATCH.min(max)), |&s| {
            Some(next_batch_size(s, max))
        })
        .take(n)
        .collect()
    }

    #[test]
    fn batches_start_small_and_double_up_to_the_batch_size() {
        assert_eq!(sizes(1024, 7), [32, 64, 128, 256, 512, 1024, 1024]);
        assert_eq!(sizes(100, 4), [32, 64, 100, 100]);
        // A batch size below the first batch's is used from the start.
        assert_eq!(sizes(7, 3), [7, 7, 7]);
        assert_eq!(sizes(1, 2), [1, 1]);
        assert_eq!(sizes(usize::MAX, 2), [32, 64]);
        assert_eq!(next_batch_size(usize::MAX / 2 + 1, usize::MAX), usize::MAX);
    }

    #[test]
    fn a_small_input_goes_on_to_the_threads_only_when_it_would_take_long() {
        let us = Duration::from_micros;
        // 800 lines of 81 cells: 2.3 us a record (easy puzzles) leaves it on one thread.
        let file = HandOver::for_size(Some(800 * 82));
        assert_eq!(file.records, 800);
        assert!(!file.due(24, us(24 * 23 / 10)));
        assert!(!file.due(700, us(700 * 23 / 10)));
        // 5 us a record is 3.9 ms for the rest: too long.
        assert!(file.due(24, us(24 * 5)));
        // The first look needs twice the bar: 6 us a record after 8 is 4.75 ms, not enough
        // yet; after 24 it is.
        assert!(!file.due(8, us(8 * 6)));
        assert!(file.due(24, us(24 * 6)));
        // 60 us a record (puzzles of 11+) hands over at the first look, and not before.
        assert!(file.due(8, us(8 * 60)));
        assert!(!file.due(7, us(7 * 60)));
        // Before it, a run that has taken 5 ms already goes on: one slow record is enough.
        assert!(!file.due(1, us(4900)));
        assert!(file.due(1, us(5100)));
        // More records than the size allows for (gzip): as long again as so far, so after
        // 2.5 ms (5 ms at the first look), as with a size unknown.
        assert!(!file.due(900, us(2400)));
        assert!(file.due(900, us(2600)));
        let unknown = HandOver::for_size(None);
        assert!(!unknown.due(8, us(4900)));
        assert!(unknown.due(8, us(5100)));
        assert!(unknown.due(24, us(2600)));
        // The largest size: the estimate, of at most 5 ms a record, cannot overflow.
        let huge = HandOver::for_size(Some(u64::MAX));
        assert!(huge.due(8, Duration::from_millis(5)));
        assert!(huge.due(8, us(1)));
    }

    /// Runs `steps` on `path` opened as an output, then drops it, and returns what it holds.
    fn output_after(path: &Path, steps: &[&[u8]]) -> Vec<u8> {
        let mut out = Output::Path(path.to_path_buf()).open_unbuffered().unwrap();
        for step in steps {
            if step.is_empty() {
                out.flush().unwrap();
            } else {
                out.write_all(step).unwrap();
            }
        }
        drop(out);
        std::fs::read(path).unwrap()
    }

    #[test]
    fn an_output_file_keeps_nothing_of_its_old_contents() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        // Each case: the steps (an empty one is a flush) and what the file holds after them.
        let cases: [(&[&[u8]], &[u8]); 6] = [
            (&[], b""),
            (&[b""], b""),
            (&[b"", b""], b""),
            (&[b"x"], b"x"),
            (&[b"", b"new", b"", b" rows\n"], b"new rows\n"),
            (&[b"a", b"b"], b"ab"),
        ];
        for old in [&b""[..], b"o", b"old rows\n".repeat(10_000).as_slice()] {
            for (steps, want) in cases {
                std::fs::write(&path, old).unwrap();
                assert_eq!(
                    output_after(&path, steps),
                    want,
                    "{steps:?}, {} old",
                    old.len()
                );
            }
        }
        // A file the output creates.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(output_after(&path, &[b""]), b"");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(output_after(&path, &[b"", b"x"]), b"x");
    }

    #[test]
    fn an_output_file_is_cut_to_its_first_byte_until_written() {
        // What a run killed before its first write leaves: one byte of the old contents, which
        // `--resume` takes for the start of a header when it was one.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        std::fs::write(&path, "line,puzzle\n1,x\n").unwrap();
        let mut out = Output::Path(path.clone()).open_unbuffered().unwrap();
        out.flush().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"l");
        out.write_all(b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }
}
