//! The solve stage: one record in, one [`Row`] out.
//!
//! A puzzle found to have no solution is checked for directly conflicting clues, so that its
//! row can say which unit is at fault. The scheduler runs this on the worker threads, with one
//! solver per thread.

use std::sync::Arc;

use super::canon::Canon;
use super::grade::{GradeOptions, Rated};
use super::known::{self, KnownClasses};
use super::read::{Record, RecordInput};
use super::solutions::{Emitter, RecordSolutions};
use super::stopwatch::Stopwatch;
use crate::grid::{CELLS, Conflict, Grid};
use crate::isomorph::canon::{Canonical, Canonicaliser, key};
use crate::isomorph::key_table::Found;
use crate::logic::Grader;
use crate::solver::{Limits, Outcome, Solver, Stop, Strategy};

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
    /// Also rate every puzzle with exactly one solution on the Sudoku Explainer scale, into
    /// [`Row::rating`] (`grade`, `validate --min-er/--max-er`). Runs on the solver threads.
    pub grade: Option<GradeOptions>,
    /// Also, or instead of solving, find every puzzle's canonical form, into
    /// [`Row::canonical`] (`canon`, `validate --duplicates isomorph`). Runs on the solver
    /// threads.
    pub canon: Canon,
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
    /// Every solution found, when [`SolveOptions::keep_solutions`] is set, but for the first
    /// [`Row::emitted`] ones, which the search already wrote to the solutions file.
    pub all_solutions: Vec<Grid>,
    /// Solutions of this record written to the solutions file while it was being solved.
    pub emitted: u64,
    /// Bytes of the solutions file's memory budget that `all_solutions` holds.
    pub(crate) reserved: usize,
    /// The 0-based cells of clues that [`redundant_clues`] found, when
    /// [`SolveOptions::find_redundant`] is set and the puzzle has exactly one solution.
    pub redundant_clues: Vec<u8>,
    /// The rating, when [`SolveOptions::grade`] is set and the puzzle has exactly one
    /// solution.
    pub rating: Option<Rated>,
    /// The canonical form, when [`SolveOptions::canon`] asks for it and the record is a
    /// puzzle. A record only canonicalised ([`Canon::Only`]) is not searched: its status is
    /// `solved` (or `invalid`), with no solution.
    pub canonical: Option<Canonical>,
    /// The [`key`] of [`Row::canonical`]'s form, found with it.
    pub form_key: Option<u128>,
    /// True when the row is a later member's of a class of isomorphs whose status was known
    /// ([`known`]): the class's status, with no solution, guesses or time.
    pub copied: bool,
    /// The entry of the record's class in the table of classes seen, when the worker found
    /// one there ([`known`]): the checker then need not look the class up again.
    pub class: Option<Found>,
}

impl Row {
    /// The row of a record that was not searched: `status` with `outcome`, nothing else.
    fn unsearched(record: Record, status: Status, outcome: Outcome) -> Row {
        Row {
            record,
            status,
            outcome,
            time_ns: 0,
            conflict: None,
            all_solutions: Vec::new(),
            emitted: 0,
            reserved: 0,
            redundant_clues: Vec::new(),
            rating: None,
            canonical: None,
            form_key: None,
            class: None,
            copied: false,
        }
    }

    /// The row of a record whose search was stopped before it ended: it is not written.
    pub fn stopped(record: Record) -> Row {
        let outcome = Outcome {
            aborted: true,
            stopped: true,
            ..Outcome::default()
        };
        Row::unsearched(record, Status::Aborted, outcome)
    }

    /// The text for `grade`'s `error` column: [`Row::record_error`], or for a puzzle that
    /// could not be rated, `not rated: WHY`.
    pub fn error(&self) -> Option<String> {
        match (&self.record.input, &self.rating) {
            (RecordInput::Puzzle(_), Some(Err(e))) => Some(format!("not rated: {e}")),
            _ => self.record_error(),
        }
    }

    /// The text for `solve`'s (and `validate`'s) `error` column: the parse error, the
    /// conflicting unit, or nothing. `validate` says that a puzzle was not rated in its
    /// `problem` column alone.
    pub fn record_error(&self) -> Option<String> {
        match &self.record.input {
            RecordInput::Invalid { reason, .. } => Some(reason.clone()),
            RecordInput::Puzzle(_) => self.conflict.map(|c| c.to_string()),
        }
    }
}

/// What a worker thread keeps from one record to the next: a solver, when rating a grader,
/// the canonicaliser's buffers, and the classes of isomorphs known not to need a search.
pub struct Worker {
    solver: Box<dyn Solver>,
    grader: Option<Grader>,
    canonicaliser: Canonicaliser,
    known: Option<KnownClasses>,
}

impl Worker {
    /// The solver and grader `options` ask for.
    pub fn new(options: &SolveOptions) -> Worker {
        Worker {
            solver: options.strategy.solver(),
            grader: options.grade.map(|g| Grader::with_ruleset(g.ruleset)),
            canonicaliser: Canonicaliser::new(),
            known: None,
        }
    }

    /// The same worker, not searching a puzzle whose class `known` knows (when finding
    /// canonical forms, [`Canon::Also`]): its row is [`copy`](super::known::copy)'s.
    pub fn with_known(self, known: Option<KnownClasses>) -> Worker {
        Worker { known, ..self }
    }

    /// The row of one record: solved and, when `options` ask for it, rated. A row whose
    /// search or rating the stop flag cut short is [`Row::stopped`].
    pub fn row(&mut self, record: Record, options: &SolveOptions) -> Row {
        self.row_emitting(record, options, None)
    }

    fn row_emitting(
        &mut self,
        record: Record,
        options: &SolveOptions,
        emitter: Option<(&Emitter, u64)>,
    ) -> Row {
        if options.canon == Canon::Only {
            return self.canonical_row(record);
        }
        let form = match (&record.input, options.canon) {
            (RecordInput::Puzzle(puzzle), Canon::Also) => Some(self.form(puzzle)),
            _ => None,
        };
        let class = match (&self.known, form) {
            (Some(known), Some((_, form_key))) => known.class(form_key, record.file, record.line),
            _ => known::Class::default(),
        };
        if let Some(status) = class.status {
            let mut row = Row::unsearched(record, status, Outcome::default());
            known::copy(&mut row, status, options.limits.solutions);
            (row.canonical, row.form_key) = (form.map(|f| f.0), form.map(|f| f.1));
            row.class = class.found;
            return row;
        }
        let mut row = solve_emitting(&mut *self.solver, record, options, emitter);
        (row.canonical, row.form_key) = (form.map(|f| f.0), form.map(|f| f.1));
        row.class = class.found;
        if let (Some(known), Some((_, form_key)), None) = (&mut self.known, form, class.found) {
            known.searched(form_key, &row, options.limits.guesses.is_some());
        }
        if let (Some(grader), Some(grade), Status::Unique) =
            (&mut self.grader, options.grade, row.status)
            && let RecordInput::Puzzle(puzzle) = &row.record.input
        {
            let watch = Stopwatch::start();
            let rated = grade.rate(grader, puzzle, options.limits.stop);
            row.time_ns += watch.elapsed_ns();
            if rated.is_err() && options.limits.stop.is_some_and(Stop::is_set) {
                return Row::stopped(row.record);
            }
            row.rating = Some(rated);
        }
        row
    }

    /// The row of a record only canonicalised: its form, in the time it took (its key
    /// found after).
    fn canonical_row(&mut self, record: Record) -> Row {
        let RecordInput::Puzzle(puzzle) = &record.input else {
            return Row::unsearched(record, Status::Invalid, Outcome::default());
        };
        let watch = Stopwatch::start();
        let form = self.canonicaliser.canonical(puzzle);
        let time_ns = watch.elapsed_ns();
        let mut row = Row::unsearched(record, Status::Solved, Outcome::default());
        row.time_ns = time_ns;
        row.form_key = Some(key(&form.grid));
        row.canonical = Some(form);
        row
    }

    /// The canonical form of `puzzle` and its [`key`], found here on the worker thread so
    /// that the writer, which counts and compares the classes, need not.
    fn form(&mut self, puzzle: &Grid) -> (Canonical, u128) {
        let form = self.canonicaliser.canonical(puzzle);
        let form_key = key(&form.grid);
        (form, form_key)
    }
}

/// Solves one record with `solver`.
pub fn solve_record(solver: &mut dyn Solver, record: Record, options: &SolveOptions) -> Row {
    solve_emitting(solver, record, options, None)
}

/// [`solve_record`], handing the solutions found to `emitter` as the search finds them (the
/// record being the `seq`-th of the input).
fn solve_emitting(
    solver: &mut dyn Solver,
    record: Record,
    options: &SolveOptions,
    emitter: Option<(&Emitter, u64)>,
) -> Row {
    let puzzle = match &record.input {
        RecordInput::Puzzle(g) => g,
        RecordInput::Invalid { .. } => {
            return Row::unsearched(record, Status::Invalid, Outcome::default());
        }
    };
    let watch = Stopwatch::start();
    let (mut all_solutions, mut emitted, mut reserved) = (Vec::new(), 0, 0);
    let outcome = match (options.keep_solutions, emitter) {
        (false, _) => solver.solve(puzzle, options.limits),
        (true, None) => solver.solve_with(puzzle, options.limits, &mut |g| all_solutions.push(*g)),
        (true, Some((emitter, seq))) => {
            let stop = options.limits.stop;
            let at = (record.file, record.line);
            let mut out = RecordSolutions::new(emitter, seq, at, stop);
            let outcome = solver.solve_with(puzzle, options.limits, &mut |g| out.push(g));
            (all_solutions, emitted, reserved) = out.finish();
            outcome
        }
    };
    let time_ns = watch.elapsed_ns();
    // Every strategy finds no solution for conflicting clues; only then is it worth looking for
    // the unit to name, which keeps the check off the path of the puzzles that solve.
    let conflict = if outcome.solutions == 0 && !outcome.aborted {
        puzzle.conflict()
    } else {
        None
    };
    let status = Status::of(&outcome, options.limits);
    // Searches of their own, not counted in the puzzle's time.
    let redundant_clues = if options.find_redundant && status == Status::Unique {
        redundant_clues(solver, puzzle, options.limits)
    } else {
        Vec::new()
    };
    Row {
        record,
        status,
        outcome,
        time_ns,
        conflict,
        all_solutions,
        emitted,
        reserved,
        redundant_clues,
        rating: None,
        canonical: None,
        form_key: None,
        class: None,
        copied: false,
    }
}

/// The clues of `puzzle` (which has exactly one solution) that are not needed: removing any one
/// of them alone from the full puzzle leaves exactly one solution. Each test is a search counting
/// to 2 within the guess budget and stop flag of `limits`; a search that ends early proves
/// nothing, so its clue is not listed. Cells are 0-based, in increasing order.
pub fn redundant_clues(solver: &mut dyn Solver, puzzle: &Grid, limits: Limits) -> Vec<u8> {
    let limits = Limits {
        solutions: 2,
        ..limits
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

/// `solve`'s work on each record, for the scheduler: one solver per worker thread, and the
/// solutions file when `--emit-solutions` asks for one.
pub(crate) struct SolveWork {
    pub(crate) options: SolveOptions,
    pub(crate) emitter: Option<Arc<Emitter>>,
    pub(crate) known: Option<KnownClasses>,
}

impl super::schedule::Work for SolveWork {
    type State = Worker;
    type Out = Row;

    fn state(&self) -> Worker {
        Worker::new(&self.options).with_known(self.known.clone())
    }

    fn run(&self, worker: &mut Worker, seq: u64, record: Record) -> Row {
        if self.options.limits.stop.is_some_and(Stop::is_set) {
            // Stopped: the rest of the batch is not solved, nor written.
            return Row::stopped(record);
        }
        let emitter = self.emitter.as_deref().map(|e| (e, seq));
        worker.row_emitting(record, &self.options, emitter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> Record {
        Record {
            file: 0,
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
    fn statuses() {
        let opts = SolveOptions::default();
        let mut s = opts.strategy.solver();
        let p = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";
        let row = solve_record(&mut *s, record(p), &opts);
        assert_eq!((row.status, row.error()), (Status::Unique, None));
        assert!(row.time_ns > 0);
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
