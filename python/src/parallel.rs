//! Work on an in-memory sequence, on the library's thread pool, without the GIL.
//!
//! ```text
//!   pool's threads (a job broadcast to each)        calling thread (GIL released)
//!   one state (solver) each; take the next    --->  puts the chunks back in input order and
//!   chunk of indices, work on it, send it           hands each to `consume`; every POLL takes
//!                                                   the GIL for a moment to see Ctrl-C
//! ```
//!
//! Chunks are taken in order from a shared counter, so results arrive nearly in order and few
//! wait to be consumed. Each chunk is a share of what is left: large while much is left, small
//! at the end, so that the workers finish together rather than one waiting for another's last
//! large chunk. On Ctrl-C (a `KeyboardInterrupt` pending in Python) the workers are
//! stopped through the library's [`Stop`] flag, within milliseconds even in a long search, and
//! the interrupt is raised: no partial result is returned.
//!
//! Pools are kept between calls, one per thread count: building one starts its threads, which
//! would cost more than solving a few puzzles. For the same reason the calling thread does its
//! part itself rather than on a thread of its own.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::ThreadPool;
use sudoku_batch::Stop;
use sudoku_batch::pipeline::thread_pool;

/// Records per chunk, at most. Each chunk becomes a record batch of the table, which costs
/// something whatever its size (its columns made, then taken in by pyarrow): chunks are as
/// large as the workers' balance allows.
pub const CHUNK: usize = 4096;

/// Records per chunk, at least (but for the last).
const MIN_CHUNK: usize = 64;

/// How often the calling thread looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on chunks of the indices `0..len` on `threads` workers (0: the library's
/// default), each worker with its own `state`, and hands the results to `consume` in order.
pub fn run<S, T>(
    py: Python<'_>,
    threads: usize,
    len: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, Range<usize>, Stop) -> T + Sync,
    consume: impl FnMut(T) -> PyResult<()> + Send,
) -> PyResult<()>
where
    T: Send,
{
    run_chunked(py, threads, len, MIN_CHUNK, state, work, consume)
}

/// [`run`] with chunks of at least `min_chunk` indices (but for the last): 1 for work whose
/// every index takes long.
pub fn run_chunked<S, T>(
    py: Python<'_>,
    threads: usize,
    len: usize,
    min_chunk: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, Range<usize>, Stop) -> T + Sync,
    mut consume: impl FnMut(T) -> PyResult<()> + Send,
) -> PyResult<()>
where
    T: Send,
{
    let pool = pool(threads)?;
    let workers = pool.current_num_threads();
    let next = AtomicUsize::new(0);
    let flag = Flag::take();
    let stop = flag.0;
    py.detach(|| {
        let (tx, rx) = channel();
        // The workers' jobs run in the pool; the calling thread waits for them, here, when the
        // scope ends, whatever way its loop ends.
        pool.in_place_scope(|scope| {
            scope.spawn_broadcast(|_, _| {
                // Said when the worker is done, even by a worker that panics, so that the loop
                // below never waits for a chunk that no worker will send.
                let _done = Done(&tx);
                let mut state = state();
                while let Some(range) = take(&next, len, workers, min_chunk) {
                    if stop.is_set() {
                        break;
                    }
                    let (start, end) = (range.start, range.end);
                    let out = work(&mut state, range, stop);
                    if tx.send(Message::Chunk(start, end, out)).is_err() {
                        break;
                    }
                }
            });
            // Chunks that came early, by where they start; `done`: the records consumed.
            let mut waiting = BTreeMap::new();
            let (mut done, mut finished) = (0, 0);
            while done < len {
                match rx.recv_timeout(POLL) {
                    Ok(Message::Chunk(start, end, out)) => {
                        waiting.insert(start, (end, out));
                        while let Some((end, out)) = waiting.remove(&done) {
                            if let Err(e) = consume(out) {
                                stop.set();
                                return Err(e);
                            }
                            done = end;
                        }
                    }
                    Ok(Message::Done) => {
                        // Each worker's chunks come before its `Done`: when every worker is done
                        // and a chunk is missing, a worker panicked, and the scope raises its
                        // panic when it ends.
                        finished += 1;
                        if finished == workers {
                            return Err(PyRuntimeError::new_err("a worker thread failed"));
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            stop.set();
                            return Err(e);
                        }
                    }
                    // Not while `tx` lives, which it does until the scope has ended.
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(PyRuntimeError::new_err("a worker thread failed"));
                    }
                }
            }
            Ok(())
        })
    })
}

/// What a worker sends the calling thread.
enum Message<T> {
    /// The results of the records `start..end`.
    Chunk(usize, usize, T),
    /// The worker has no more chunks to send.
    Done,
}

/// Sends [`Message::Done`] when dropped.
struct Done<'a, T>(&'a Sender<Message<T>>);

impl<T> Drop for Done<'_, T> {
    fn drop(&mut self) {
        // The calling thread may have stopped listening: nothing to tell it then.
        let _ = self.0.send(Message::Done);
    }
}

/// The next chunk of `0..len`, from `next` on: half of each worker's share of what is left,
/// between `min_chunk` and [`CHUNK`] records; `None` when nothing is left.
fn take(next: &AtomicUsize, len: usize, workers: usize, min_chunk: usize) -> Option<Range<usize>> {
    let mut start = next.load(Ordering::Relaxed);
    loop {
        let left = len.checked_sub(start).filter(|&n| n > 0)?;
        let size = (left / (workers * 2))
            .clamp(min_chunk.max(1), CHUNK)
            .min(left);
        match next.compare_exchange_weak(start, start + size, Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => return Some(start..start + size),
            Err(now) => start = now,
        }
    }
}

/// A stop flag for one call, taken from those that earlier calls gave back: the library's
/// flags live as long as the process, so they are reused rather than made per call.
struct Flag(Stop);

static FLAGS: Mutex<Vec<Stop>> = Mutex::new(Vec::new());

impl Flag {
    fn take() -> Flag {
        let stop = FLAGS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        stop.clear();
        Flag(stop)
    }
}

impl Drop for Flag {
    fn drop(&mut self) {
        FLAGS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(self.0);
    }
}

/// The pools built so far in this process, by thread count.
struct Pools {
    pid: u32,
    pools: Vec<(usize, Arc<ThreadPool>)>,
}

static POOLS: Mutex<Option<Pools>> = Mutex::new(None);

/// The library's pool of `threads` workers (0: its default), built once per process.
pub fn pool(threads: usize) -> PyResult<Arc<ThreadPool>> {
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    let pid = std::process::id();
    if pools.as_ref().is_some_and(|p| p.pid != pid) {
        // A forked child has none of its parent's threads: dropping those pools would signal
        // threads that do not exist, so they are forgotten instead.
        std::mem::forget(pools.take());
    }
    let pools = pools.get_or_insert_with(|| Pools {
        pid,
        pools: Vec::new(),
    });
    if let Some((_, pool)) = pools.pools.iter().find(|(n, _)| *n == threads) {
        return Ok(pool.clone());
    }
    let pool = Arc::new(thread_pool(threads).map_err(|e| PyRuntimeError::new_err(e.to_string()))?);
    pools.pools.push((threads, pool.clone()));
    Ok(pool)
}
