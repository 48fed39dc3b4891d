//! The scheduler: a reader thread -> batches on a rayon pool -> the calling thread, in order.
//!
//! ```text
//!   reader thread          worker threads (rayon)            calling thread
//!   reads a batch   --->   one task per batch, one     --->  puts the batches back in input
//!   (when a token          state (solver) per thread         order, hands each to `write`,
//!    is free)                                                 then frees its token
//! ```
//!
//! The same path serves every thread count. A batch is one task, so a slow puzzle holds up
//! only its own batch: the other workers go on with the next ones. Tokens bound the batches
//! between reading and writing, so memory stays flat however long the input. The first batches
//! are small and each doubles the last, up to the batch size, so that a short input is still
//! spread over the threads.
//!
//! Stopping (the `stop` flag, set on Ctrl-C): no batch is read once the flag is seen, and the
//! batches already started end within milliseconds (the work sees the flag too); the calling
//! thread writes what they give back, then returns without waiting for a reader blocked on its
//! input.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use super::RunError;
use super::read::{ReadError, Reader, Record};
use crate::solver::Stop;

/// The work done on each record, on the worker threads.
pub(crate) trait Work: Send + Sync + 'static {
    /// What each worker thread keeps from one record to the next (a solver).
    type State: Send + 'static;
    /// The result for one record.
    type Out: Send + 'static;
    /// A new state, made once per worker thread.
    fn state(&self) -> Self::State;
    /// The result for `record`, the `seq`-th of the input (from 0).
    fn run(&self, state: &mut Self::State, seq: u64, record: Record) -> Self::Out;
}

/// The size of the first batch: each later one doubles, up to the batch size.
const FIRST_BATCH: usize = 32;

/// How often a waiting thread looks at the stop flag.
pub(crate) const POLL: Duration = Duration::from_millis(20);

/// The size of the batch after one of `size` records, when batches hold at most `max`.
fn next_batch_size(size: usize, max: usize) -> usize {
    size.saturating_mul(2).min(max)
}

/// What the reader thread and the tasks tell the calling thread.
enum Done<T> {
    /// The results of batch `index`.
    Batch(u64, Vec<T>),
    /// The input ended after `index` batches, with the read error that ended it, if any.
    End(u64, Option<ReadError>),
}

/// The most worker threads a run starts: four per CPU the process may use. More cannot run at
/// once; they only cost memory and start-up, and thousands of them would hold as many batches.
pub fn max_threads() -> usize {
    4 * thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Builds the rayon pool for `threads` workers, at most [`max_threads`] (0: as many as
/// `RAYON_NUM_THREADS` says, or one per CPU the process may use).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, RunError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.min(max_threads()))
        .thread_name(|i| format!("worker-{i}"))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))
}

/// Runs `work` on every record of `reader` on `threads` workers, in batches of up to
/// `batch_size` records, and hands the results of each batch to `write` in input order.
/// Returns whether a stop interrupted the input. A read error is returned once the results of
/// every record before it are written.
pub(crate) fn run<W: Work>(
    reader: Reader,
    work: W,
    threads: usize,
    batch_size: usize,
    stop: Option<Stop>,
    mut write: impl FnMut(Vec<W::Out>) -> Result<(), RunError>,
) -> Result<bool, RunError> {
    let pool = thread_pool(threads)?;
    // Two batches per worker, and one being read: every worker has the next batch at hand.
    let tokens = 2 * pool.current_num_threads() + 1;
    let (token_tx, token_rx) = sync_channel::<()>(tokens);
    for _ in 0..tokens {
        let _ = token_tx.send(());
    }
    let (done_tx, done_rx) = channel();
    let started = Arc::new(AtomicU64::new(0));
    let reading = Reading {
        reader,
        work: Arc::new(work),
        pool,
        batch_size: batch_size.max(1),
        stop,
        started: started.clone(),
        tokens: token_rx,
        done: done_tx,
    };
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || reading.run())
        .map_err(|e| RunError::Threads(e.to_string()))?;
    let stopped = || stop.is_some_and(Stop::is_set);
    write_in_order(&done_rx, &token_tx, &started, &stopped, &mut write)
}

/// The calling thread's part: takes the finished batches, puts them in order and writes them.
/// Returns whether a stop came before the end of the input.
fn write_in_order<T>(
    done: &Receiver<Done<T>>,
    tokens: &SyncSender<()>,
    started: &AtomicU64,
    stopped: &dyn Fn() -> bool,
    write: &mut impl FnMut(Vec<T>) -> Result<(), RunError>,
) -> Result<bool, RunError> {
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    let mut end = None;
    loop {
        // Every sender is gone without an end: the reader thread returned on a stop that came
        // after this thread last looked (every batch it started has come, and is written
        // below), or it or a worker panicked.
        let gone = match done.recv_timeout(POLL) {
            Ok(Done::Batch(i, rows)) => {
                pending.insert(i, rows);
                false
            }
            Ok(Done::End(i, error)) => {
                end = Some((i, error));
                false
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => true,
        };
        while let Some(rows) = pending.remove(&next) {
            write(rows)?;
            next += 1;
            let _ = tokens.send(());
        }
        match &mut end {
            Some((last, error)) if *last == next => {
                return error.take().map_or(Ok(false), |e| Err(e.into()));
            }
            // The input ended: the batches in flight are still written, stop or not.
            Some(_) => {}
            // Stopped, and every batch started is written: the rest is not read.
            None if stopped() && next == started.load(Ordering::SeqCst) => return Ok(true),
            None => {}
        }
        if gone {
            return Err(RunError::Threads("the reader thread stopped".into()));
        }
    }
}

/// The reader thread: reads batches while tokens are free and hands each to the pool.
struct Reading<W: Work> {
    reader: Reader,
    work: Arc<W>,
    pool: rayon::ThreadPool,
    batch_size: usize,
    stop: Option<Stop>,
    /// Batches handed to the pool so far.
    started: Arc<AtomicU64>,
    tokens: Receiver<()>,
    done: Sender<Done<W::Out>>,
}

impl<W: Work> Reading<W> {
    fn run(mut self) {
        // One state per worker thread, each only ever locked by its own thread.
        let states: Arc<Vec<Mutex<Option<W::State>>>> = Arc::new(
            (0..self.pool.current_num_threads())
                .map(|_| Mutex::new(None))
                .collect(),
        );
        let mut size = FIRST_BATCH.min(self.batch_size);
        let mut index = 0;
        let mut seq = 0;
        loop {
            if self.stop.is_some_and(Stop::is_set) {
                return;
            }
            // No token: the calling thread has stopped, on a stop or an error.
            if self.tokens.recv().is_err() {
                return;
            }
            let mut batch = Vec::with_capacity(size);
            let read = self.reader.read_batch(&mut batch, size);
            if !batch.is_empty() {
                self.started.store(index + 1, Ordering::SeqCst);
                let len = batch.len() as u64;
                self.spawn(index, seq, batch, &states);
                index += 1;
                seq += len;
            }
            match read {
                Ok(true) => size = next_batch_size(size, self.batch_size),
                Ok(false) => {
                    let _ = self.done.send(Done::End(index, None));
                    return;
                }
                Err(e) => {
                    let _ = self.done.send(Done::End(index, Some(e)));
                    return;
                }
            }
        }
    }

    /// Has batch `index`, whose first record is the `seq`-th, worked on by the pool.
    fn spawn(
        &self,
        index: u64,
        seq: u64,
        batch: Vec<Record>,
        states: &Arc<Vec<Mutex<Option<W::State>>>>,
    ) {
        let (work, states, done) = (self.work.clone(), states.clone(), self.done.clone());
        self.pool.spawn(move || {
            let thread = rayon::current_thread_index().unwrap_or(0);
            let mut state = states[thread]
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let state = state.get_or_insert_with(|| work.state());
            let rows = (seq..)
                .zip(batch)
                .map(|(seq, r)| work.run(state, seq, r))
                .collect();
            // The calling thread may have returned (an error, a stop): nothing to do then.
            let _ = done.send(Done::Batch(index, rows));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::sync::mpsc::{channel, sync_channel};

    #[test]
    fn a_stop_that_comes_after_the_last_batch_is_written_ends_the_run_cleanly() {
        // The reader handed out one batch, then saw the stop and returned without an end:
        // every sender is gone. The stop came just after the writer last looked.
        let (done_tx, done_rx) = channel();
        let (token_tx, _token_rx) = sync_channel(4);
        let started = AtomicU64::new(1);
        done_tx.send(Done::Batch(0, vec![1, 2, 3])).unwrap();
        drop(done_tx);
        let looks = Cell::new(0);
        let stopped = || {
            looks.set(looks.get() + 1);
            looks.get() > 1
        };
        let mut written = Vec::new();
        let mut write = |rows: Vec<i32>| {
            written.extend(rows);
            Ok(())
        };
        let got = write_in_order(&done_rx, &token_tx, &started, &stopped, &mut write);
        assert!(matches!(got, Ok(true)), "{got:?}");
        assert_eq!(written, [1, 2, 3]);
        // Without a stop, senders gone without an end are a failure.
        let (done_tx, done_rx) = channel::<Done<i32>>();
        drop(done_tx);
        let got = write_in_order(&done_rx, &token_tx, &started, &|| false, &mut |_| Ok(()));
        assert!(matches!(got, Err(RunError::Threads(_))), "{got:?}");
    }

    #[test]
    fn batches_start_small_and_double_up_to_the_batch_size() {
        let sizes = |max: usize, n: usize| -> Vec<usize> {
            std::iter::successors(Some(FIRST_BATCH.min(max)), |&s| {
                Some(next_batch_size(s, max))
            })
            .take(n)
            .collect()
        };
        assert_eq!(sizes(1024, 7), [32, 64, 128, 256, 512, 1024, 1024]);
        assert_eq!(sizes(100, 4), [32, 64, 100, 100]);
        // A batch size below the first batch's is used from the start.
        assert_eq!(sizes(7, 3), [7, 7, 7]);
        assert_eq!(sizes(1, 2), [1, 1]);
        assert_eq!(next_batch_size(usize::MAX / 2 + 1, usize::MAX), usize::MAX);
    }
}
