//! The `--emit-solutions` file: every solution found, in input order, in bounded memory.
//!
//! Solutions are found on the worker threads but must go out in input order. The record whose
//! turn it is (every row before it written) writes its solutions straight to the file as its
//! search finds them, so a search with billions of solutions streams them and memory stays
//! flat. Other records keep theirs in memory against a shared budget; a record that would go
//! over it waits for its turn (or a stop), and the writer writes what each record kept when
//! its row comes, then passes the turn on.

use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::schedule::POLL;
use super::solve::Row;
use super::write::{TableWriter, Value, write_after};
use crate::grid::{CELLS, Grid};
use crate::solver::Stop;

/// Bytes of solutions that records waiting for their turn may keep in memory, together.
const BUDGET: usize = 4 << 20;

/// Solutions a record waiting for its turn takes budget for at a time.
const CHUNK: usize = 8;

/// Solutions the record whose turn it is gathers before it writes them.
const STREAM_CHUNK: usize = 1024;

/// The memory one solution takes while kept.
const SOLUTION_BYTES: usize = CELLS;

/// The solutions file, shared by the worker threads and the writer.
pub(crate) struct Emitter {
    shared: Mutex<Shared>,
    turn_changed: Condvar,
}

struct Shared {
    writer: Box<dyn TableWriter>,
    /// With several inputs, their names: each row starts with its record's.
    names: Option<Arc<[String]>>,
    /// The sequence number (from 0, in input order) of the record whose solutions may go out
    /// now.
    turn: u64,
    /// Bytes of solutions kept in memory by records waiting for their turn.
    kept: usize,
    /// The first error writing the file from a worker, for the writer to report.
    error: Option<io::Error>,
}

impl Emitter {
    /// Solutions written by `writer`; with `names` (several inputs), each row starts with the
    /// name of its record's input.
    pub(crate) fn new(writer: Box<dyn TableWriter>, names: Option<Arc<[String]>>) -> Emitter {
        Emitter {
            shared: Mutex::new(Shared {
                writer,
                names,
                turn: 0,
                kept: 0,
                error: None,
            }),
            turn_changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes what the row of record `seq` kept, releases its budget and passes the turn to
    /// the next record. Called by the writer for every row, in input order.
    pub(crate) fn write_row(&self, seq: u64, row: &Row) -> io::Result<()> {
        let mut shared = self.lock();
        if let Some(e) = shared.error.take() {
            return Err(e);
        }
        let from = row.emitted + 1;
        let at = (row.record.file, row.record.line);
        shared.write(at, from, &row.all_solutions)?;
        shared.kept -= row.reserved;
        shared.turn = seq + 1;
        drop(shared);
        self.turn_changed.notify_all();
        Ok(())
    }

    /// Ends a batch: flushes the file (a line format).
    pub(crate) fn end_batch(&self) -> io::Result<()> {
        self.lock().writer.end_batch()
    }

    /// Ends the file.
    pub(crate) fn finish(&self) -> io::Result<()> {
        self.lock().writer.finish()
    }
}

impl Shared {
    /// Writes `solutions` of the record at `(file, line)` as `line,index,solution` rows
    /// (after the file's name with several inputs), numbered from `from`.
    fn write(&mut self, (file, line): (u32, u64), from: u64, solutions: &[Grid]) -> io::Result<()> {
        let name = self
            .names
            .as_ref()
            .and_then(|n| n.get(file as usize))
            .map(|n| Value::Text(n));
        for (index, s) in (from..).zip(solutions) {
            let values = [Value::Number(line), Value::Number(index), Value::Grid(s)];
            write_after(&mut *self.writer, name, &values)?;
        }
        Ok(())
    }
}

/// One record's solutions on their way out, as its search finds them.
pub(crate) struct RecordSolutions<'a> {
    emitter: &'a Emitter,
    seq: u64,
    /// The record's input and line.
    at: (u32, u64),
    stop: Option<Stop>,
    /// Solutions not yet written.
    held: Vec<Grid>,
    /// Solutions already written to the file.
    emitted: u64,
    /// Budget taken for `held`.
    reserved: usize,
    /// It is this record's turn: its solutions go straight out.
    streaming: bool,
}

impl<'a> RecordSolutions<'a> {
    pub(crate) fn new(emitter: &'a Emitter, seq: u64, at: (u32, u64), stop: Option<Stop>) -> Self {
        RecordSolutions {
            emitter,
            seq,
            at,
            stop,
            held: Vec::new(),
            emitted: 0,
            reserved: 0,
            streaming: false,
        }
    }

    /// Takes one solution the search found.
    pub(crate) fn push(&mut self, solution: &Grid) {
        self.held.push(*solution);
        let due = if self.streaming {
            self.held.len() >= STREAM_CHUNK
        } else {
            self.held.len() * SOLUTION_BYTES > self.reserved
        };
        if due {
            self.hand_on();
        }
    }

    /// Writes the solutions held when it is this record's turn; otherwise takes budget to keep
    /// the next chunk in memory, or, when there is none left, waits for the turn.
    fn hand_on(&mut self) {
        let mut shared = self.emitter.lock();
        loop {
            if shared.turn == self.seq {
                let from = self.emitted + 1;
                let written = shared.write(self.at, from, &self.held);
                if let Err(e) = written {
                    shared.error.get_or_insert(e);
                }
                self.emitted += self.held.len() as u64;
                self.held.clear();
                shared.kept -= self.reserved;
                self.reserved = 0;
                self.streaming = true;
                return;
            }
            let more = CHUNK * SOLUTION_BYTES;
            if shared.kept + more <= BUDGET {
                shared.kept += more;
                self.reserved += more;
                return;
            }
            if self.stop.is_some_and(Stop::is_set) {
                // The search stops at its next look at the flag; this row is not written.
                return;
            }
            shared = self
                .emitter
                .turn_changed
                .wait_timeout(shared, POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// What is left for the writer: the solutions held, how many went out already, and the
    /// budget they hold.
    pub(crate) fn finish(self) -> (Vec<Grid>, u64, usize) {
        (self.held, self.emitted, self.reserved)
    }
}
