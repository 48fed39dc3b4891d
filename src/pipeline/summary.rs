//! What a run reports: its [`Progress`] after every batch written, and its [`Summary`] at the
//! end, the rows tallied as they are written.

use std::time::Duration;

use super::grade;
use super::solve::{Row, Status};

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
    /// Guesses over all puzzles searched.
    pub guesses: u64,
    /// Puzzles whose search ended (not aborted) without a guess.
    pub no_guess: u64,
    /// Puzzles not searched, their status copied from an isomorph's ([`Row::copied`]).
    pub copied: u64,
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
    /// Puzzles rated, per band of ER, when rating
    /// ([`SolveOptions::grade`](super::solve::SolveOptions::grade)).
    pub ratings: grade::Ratings,
    /// The distinct canonical forms among the rows written (not those kept by `--resume`),
    /// when the run finds them ([`SolveOptions::canon`](super::solve::SolveOptions::canon)):
    /// the essentially different puzzles.
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

    /// Puzzles searched: not invalid, not [`copied`](Summary::copied).
    pub fn searched(&self) -> u64 {
        self.puzzles() - self.copied
    }

    /// Adds one row to the tally.
    pub fn add(&mut self, row: &Row) {
        self.records += 1;
        self.by_status[row.status as usize] += 1;
        if row.copied {
            self.copied += 1;
        } else if row.status != Status::Invalid {
            self.guesses += row.outcome.guesses;
            self.no_guess += u64::from(row.outcome.guesses == 0 && row.status != Status::Aborted);
        }
        self.ratings.add(row.rating.as_ref());
    }
}
