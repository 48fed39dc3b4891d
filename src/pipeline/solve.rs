//! The solve stage: one record in, one [`Row`] out.
//!
//! A batch of records is fanned out over a rayon pool with one solver per worker job; results
//! come back in input order. A puzzle found to have no solution is checked for directly
//! conflicting clues, so that its row can say which unit is at fault.

use std::time::Instant;

use rayon::prelude::*;

use super::read::{Record, RecordInput};
use crate::grid::{CELLS, Conflict, Grid};
use crate::solver::{Limits, Outcome, Solver, Strategy};

/// What became of one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Exactly one solution (the limit was at least 2).
    Unique,
    /// Two or more solutions.
    Multiple,
    /// A solution was found with limit 1; uniqueness was not checked.
    Solved,
    /// No solution.
    Unsolvable,
    /// The guess budget ran out before the search finished.
    Aborted,
    /// The record is not a puzzle.
    Invalid,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 6] = [
        Status::Unique,
        Status::Multiple,
        Status::Solved,
        Status::Unsolvable,
        Status::Aborted,
        Status::Invalid,
    ];

    /// The word written in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Aborted => "aborted",
            Status::Invalid => "invalid",
        }
    }

    /// The status of a search outcome under `limits`.
    pub fn of(outcome: &Outcome, limits: Limits) -> Status {
        match outcome.solutions {
            _ if outcome.aborted => Status::Aborted,
            0 => Status::Unsolvable,
            1 if limits.solutions == 1 => Status::Solved,
            1 => Status::Unique,
            _ => Status::Multiple,
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How to solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SolveOptions {
    /// The strategy.
    pub strategy: Strategy,
    /// Solution limit and guess budget.
    pub limits: Limits,
    /// Keep every solution found in [`Row::all_solutions`] (for `--emit-solutions`).
    pub keep_solutions: bool,
    /// For a puzzle with exactly one solution, also test every clue for redundancy and list the
    /// redundant ones in [`Row::redundant_clues`] (`validate --minimal`). This runs here, on the
    /// solver threads, because it costs one more search per clue.
    pub find_redundant: bool,
}

/// The result for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The record.
    pub record: Record,
    /// What became of it.
    pub status: Status,
    /// What the search found (default for invalid and conflicting records).
    pub outcome: Outcome,
    /// Time spent on this puzzle, in nanoseconds.
    pub time_ns: u64,
    /// The unit whose clues conflict, if any.
    pub conflict: Option<Conflict>,
    /// Every solution found, when [`SolveOptions::keep_solutions`] is set.
    pub all_solutions: Vec<Grid>,
    /// The 0-based cells of clues that [`redundant_clues`] found, when
    /// [`SolveOptions::find_redundant`] is set and the puzzle has exactly one solution.
    pub redundant_clues: Vec<u8>,
}

impl Row {
    /// The text for the `error` column: the parse error, the conflicting unit, or nothing.
    pub fn error(&self) -> Option<String> {
        match &self.record.input {
            RecordInput::Invalid { reason, .. } => Some(reason.clone()),
            RecordInput::Puzzle(_) => self.conflict.map(|c| c.to_string()),
        }
    }
}

/// Solves one record with `solver`.
pub fn solve_record(solver: &mut dyn Solver, record: Record, options: &SolveOptions) -> Row {
    solve_record_from(solver, record, options, Instant::now()).0
}

/// [`solve_record`] timed from `start`; also returns when it ended, so that a run of records
/// on one thread reads the clock once per record, the end of one being the start of the next.
fn solve_record_from(
    solver: &mut dyn Solver,
    record: Record,
    options: &SolveOptions,
    start: Instant,
) -> (Row, Instant) {
    let puzzle = match &record.input {
        RecordInput::Puzzle(g) => *g,
        RecordInput::Invalid { .. } => {
            let row = Row {
                record,
                status: Status::Invalid,
                outcome: Outcome::default(),
                time_ns: 0,
                conflict: None,
                all_solutions: Vec::new(),
                redundant_clues: Vec::new(),
            };
            return (row, start);
        }
    };
    let mut all_solutions = Vec::new();
    let outcome = if options.keep_solutions {
        solver.solve_with(&puzzle, options.limits, &mut |g| all_solutions.push(*g))
    } else {
        solver.solve(&puzzle, options.limits)
    };
    let end = Instant::now();
    let time_ns = end.duration_since(start).as_nanos() as u64;
    // Every strategy finds no solution for conflicting clues; only then is it worth looking for
    // the unit to name, which keeps the check off the path of the puzzles that solve.
    let conflict = if outcome.solutions == 0 && !outcome.aborted {
        puzzle.conflict()
    } else {
        None
    };
    let status = Status::of(&outcome, options.limits);
    let (redundant_clues, end) = if options.find_redundant && status == Status::Unique {
        // Searches of their own: the next record's time must not include them.
        let clues = redundant_clues(solver, &puzzle, options.limits.guesses);
        (clues, Instant::now())
    } else {
        (Vec::new(), end)
    };
    let row = Row {
        record,
        status,
        outcome,
        time_ns,
        conflict,
        all_solutions,
        redundant_clues,
    };
    (row, end)
}

/// The clues of `puzzle` (which has exactly one solution) that are not needed: removing any one
/// of them alone from the full puzzle leaves exactly one solution. Each test is a search counting
/// to 2 within the guess budget `guesses`; a search that runs out of budget proves nothing, so
/// its clue is not listed. Cells are 0-based, in increasing order.
pub fn redundant_clues(solver: &mut dyn Solver, puzzle: &Grid, guesses: Option<u64>) -> Vec<u8> {
    let limits = Limits {
        solutions: 2,
        guesses,
    };
    let mut out = Vec::new();
    let mut probe = *puzzle;
    for cell in 0..CELLS {
        let digit = puzzle.get(cell);
        if digit == 0 {
            continue;
        }
        probe.set(cell, 0);
        let outcome = solver.solve(&probe, limits);
        if !outcome.aborted && outcome.solutions == 1 {
            out.push(cell as u8);
        }
        probe.set(cell, digit);
    }
    out
}

/// A solver that times a run of records with one clock reading each: a record's time starts
/// where the previous one's ended (which adds only the previous row's hand-over, a few
/// nanoseconds).
struct TimedSolver {
    solver: Box<dyn Solver>,
    clock: Instant,
}

impl TimedSolver {
    fn new(options: &SolveOptions) -> Self {
        TimedSolver {
            solver: options.strategy.solver(),
            clock: Instant::now(),
        }
    }

    fn solve(&mut self, record: Record, options: &SolveOptions) -> Row {
        let (row, end) = solve_record_from(&mut *self.solver, record, options, self.clock);
        self.clock = end;
        row
    }
}

/// [`solve_batch`] on the calling thread, with one solver: for a run with one thread.
pub fn solve_batch_here(records: &mut Vec<Record>, options: &SolveOptions, out: &mut Vec<Row>) {
    let mut solver = TimedSolver::new(options);
    out.clear();
    out.extend(
        records
            .drain(..)
            .map(|record| solver.solve(record, options)),
    );
}

/// Solves a batch in parallel on the current rayon pool, writing rows in input order to `out`
/// (emptied first). Leaves `records` empty, its memory kept for the next batch.
pub fn solve_batch(records: &mut Vec<Record>, options: &SolveOptions, out: &mut Vec<Row>) {
    records
        .par_drain(..)
        .with_min_len(16)
        // One timed solver per run of records a worker takes: the records of a run are solved
        // one after another.
        .map_init(
            || TimedSolver::new(options),
            |solver, record| solver.solve(record, options),
        )
        .collect_into_vec(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> Record {
        Record {
            line: 1,
            input: match text.parse() {
                Ok(g) => RecordInput::Puzzle(g),
                Err(e) => RecordInput::Invalid {
                    text: text.into(),
                    reason: format!("{e}"),
                },
            },
            expected: None,
        }
    }

    #[test]
    fn one_thread_rows_match_the_pool_and_are_timed() {
        let p = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";
        let texts = [p, "12x", &".".repeat(81), p];
        let records = || texts.iter().map(|t| record(t)).collect::<Vec<_>>();
        let opts = SolveOptions::default();
        let (mut here, mut pooled) = (Vec::new(), Vec::new());
        solve_batch_here(&mut records(), &opts, &mut here);
        solve_batch(&mut records(), &opts, &mut pooled);
        assert_eq!(here.len(), texts.len());
        for (a, b) in here.iter().zip(&pooled) {
            assert_eq!(
                (&a.record, a.status, &a.outcome),
                (&b.record, b.status, &b.outcome)
            );
            // Each puzzle's time is its own: positive, and zero for the invalid record.
            assert_eq!(a.time_ns > 0, a.status != Status::Invalid, "{:?}", a.status);
        }
    }

    #[test]
    fn statuses() {
        let opts = SolveOptions::default();
        let mut s = opts.strategy.solver();
        let p = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";
        let row = solve_record(&mut *s, record(p), &opts);
        assert_eq!((row.status, row.error()), (Status::Unique, None));
        let row = solve_record(&mut *s, record(&".".repeat(81)), &opts);
        assert_eq!(row.status, Status::Multiple);
        let row = solve_record(&mut *s, record(&format!("55{}", &p[2..])), &opts);
        assert_eq!(row.status, Status::Unsolvable);
        assert_eq!(row.error().as_deref(), Some("digit 5 twice in row 1"));
        let row = solve_record(&mut *s, record("12x"), &opts);
        assert_eq!(row.status, Status::Invalid);
        assert_eq!(
            row.error().as_deref(),
            Some("cell 3: unexpected character 'x'")
        );
        let one = SolveOptions {
            limits: Limits::count_to(1),
            ..opts
        };
        assert_eq!(
            solve_record(&mut *s, record(p), &one).status,
            Status::Solved
        );
    }

    #[test]
    fn redundant_clues_are_found_only_when_asked() {
        let opts = SolveOptions {
            find_redundant: true,
            ..SolveOptions::default()
        };
        let mut s = opts.strategy.solver();
        // A minimal puzzle (made by `generate`), then the same with r1c1 of its solution added.
        let p = "..1.8.....3.519........6.4....9.48...83...........261........647...2....9.8.....5";
        let row = solve_record(&mut *s, record(p), &opts);
        assert_eq!((row.status, row.redundant_clues.len()), (Status::Unique, 0));
        let sol = row.outcome.solution.unwrap().to_string();
        let more = format!("{}{}", &sol[..1], &p[1..]);
        let row = solve_record(&mut *s, record(&more), &opts);
        assert_eq!(row.redundant_clues, vec![0]);
        let row = solve_record(&mut *s, record(&more), &SolveOptions::default());
        assert!(row.redundant_clues.is_empty());
    }
}
