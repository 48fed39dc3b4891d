//! Step-by-step explanation of how one puzzle is solved: the engine of `sudoku-batch explain`.
//!
//! [`explain`] prints the starting grid with each empty cell's candidates, then every step of
//! the search as the chosen strategy makes it, then the solution and the totals. The steps come
//! from the strategy's own search code, run with a recorder in place of the no-op trace the
//! plain solver uses (see `solver::trace`), so the explanation is exactly what the solver does:
//!
//! - **place**: a digit placed without a guess, with its reason: `naked single` (the cell had
//!   one candidate left) or `last alternative` (the last candidate of a branch point, forced
//!   once the others failed). `backtrack` has no forced placements.
//! - **guess**: a digit tried at a branch point, with its depth and the alternatives still to
//!   try there. For `backtrack` every digit placed is a guess, its depth is the position of the
//!   cell among the empty cells, and its alternatives are the digits above it, not yet checked.
//! - **dead end**: the state at some depth has no way forward; the search restores the state
//!   saved at the branch point it backs up to (depth 0: nothing left to try).
//!
//! The explanation stops at the first solution. It then says whether the puzzle has another
//! one, counted with the `bitmask` strategy (fast on any puzzle). Long traces are cut after
//! [`ExplainOptions::max_steps`] steps; the totals still count every step.
//!
//! In [`ExplainFormat::Json`] every line is one JSON object whose `step` field names it:
//! `start`, `place`, `guess`, `dead_end`, `truncated`, `solution`, `no_solution`, `aborted`,
//! `totals`. Rows and columns are numbered 1 to 9. For example:
//!
//! ```text
//! {"step":"start","strategy":"bitmask","puzzle":"..29…","candidates":["347","1367","",…]}
//! {"step":"guess","depth":1,"row":3,"col":1,"digit":3,"alternatives":[4]}
//! {"step":"place","row":2,"col":1,"digit":7,"reason":"naked single"}
//! {"step":"dead_end","depth":2,"back_to":2}
//! {"step":"place","row":1,"col":1,"digit":7,"reason":"last alternative"}
//! {"step":"truncated","max_steps":10000}
//! {"step":"solution","grid":"762985143…","unique":true}
//! {"step":"totals","placements":137,"guesses":13,"dead_ends":13,"truncated":false}
//! ```
//!
//! `candidates` lists the 81 cells row-major, `""` for a given cell; `start` also carries a
//! `conflict` message when two clues conflict, and `no_solution` a `reason` in that case.
//!
//! ```
//! use sudoku_batch::explain::{ExplainOptions, explain};
//!
//! let puzzle =
//!     ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1."
//!         .parse()
//!         .unwrap();
//! let mut out = Vec::new();
//! let totals = explain(&puzzle, &ExplainOptions::default(), &mut out).unwrap();
//! assert_eq!(totals.guesses, 0); // naked singles alone solve this one
//! assert!(String::from_utf8(out).unwrap().contains("762593148"));
//! ```

pub mod logic;

use std::io::{self, Write};

use serde::Serialize;

use crate::grid::{CELLS, Grid, PEERS};
use crate::solver::trace::{Reason, Trace};
use crate::solver::{BacktrackSolver, BitmaskSolver, CandidatesSolver, Limits, Solver, Strategy};
use crate::words::count;

/// How the steps are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ExplainFormat {
    /// Lines for people: candidate grid, numbered steps, solution rows, totals.
    #[default]
    Text,
    /// One JSON object per line.
    #[cfg_attr(feature = "cli", value(alias = "jsonl"))]
    Json,
}

/// What to explain and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExplainOptions {
    /// The strategy whose search is shown: `bitmask`, `backtrack` or `candidates`.
    pub strategy: Strategy,
    /// Text or JSON lines.
    pub format: ExplainFormat,
    /// Print at most this many steps, then one "trace truncated" line; later steps are still
    /// counted in the totals.
    pub max_steps: u64,
    /// Guess budget for the search; `None` for none. Plain backtracking may otherwise run for
    /// hours on a hard puzzle.
    pub max_guesses: Option<u64>,
}

impl ExplainOptions {
    /// Steps printed by default before the trace is cut.
    pub const DEFAULT_MAX_STEPS: u64 = 10_000;
}

impl Default for ExplainOptions {
    /// `bitmask`, text, 10,000 steps, no guess budget.
    fn default() -> Self {
        ExplainOptions {
            strategy: Strategy::Bitmask,
            format: ExplainFormat::Text,
            max_steps: Self::DEFAULT_MAX_STEPS,
            max_guesses: None,
        }
    }
}

/// What an explanation counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExplainTotals {
    /// Digits placed without a guess (naked singles and last alternatives).
    pub placements: u64,
    /// Digits guessed; equal to [`Outcome::guesses`](crate::Outcome::guesses) of the strategy.
    pub guesses: u64,
    /// Dead ends met.
    pub dead_ends: u64,
    /// Steps printed (at most [`ExplainOptions::max_steps`]).
    pub steps_printed: u64,
    /// True when some steps were not printed.
    pub truncated: bool,
    /// True when the guess budget ran out before a solution was found.
    pub aborted: bool,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Solutions of the puzzle counted up to 2: `0`, `1`, or `2` for two or more.
    pub solution_count: u64,
}

/// Why a puzzle cannot be explained.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// The strategy has no step trace.
    #[error(
        "the {0} strategy cannot be explained; use bitmask (the default), backtrack or candidates"
    )]
    Unsupported(Strategy),
    /// Writing the explanation failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// True for the strategies [`explain`] can trace.
pub fn can_explain(strategy: Strategy) -> bool {
    matches!(
        strategy,
        Strategy::Bitmask | Strategy::Backtrack | Strategy::Candidates
    )
}

/// Writes to `out` how `options.strategy` solves `puzzle`, step by step, stopping at the first
/// solution, and returns the totals. See the module documentation for the steps and formats.
///
/// # Errors
/// [`ExplainError::Unsupported`] for a strategy without a trace (before anything is written),
/// [`ExplainError::Io`] when writing fails.
pub fn explain(
    puzzle: &Grid,
    options: &ExplainOptions,
    out: &mut dyn Write,
) -> Result<ExplainTotals, ExplainError> {
    if !can_explain(options.strategy) {
        return Err(ExplainError::Unsupported(options.strategy));
    }
    let mut rec = Recorder {
        out,
        format: options.format,
        max_steps: options.max_steps,
        totals: ExplainTotals::default(),
        error: None,
    };
    rec.start(puzzle, options.strategy)?;
    let limits = Limits {
        guesses: options.max_guesses,
        ..Limits::count_to(1)
    };
    let none = &mut |_: &Grid| {};
    let outcome = match options.strategy {
        Strategy::Backtrack => BacktrackSolver::new().run(puzzle, limits, none, &mut rec),
        Strategy::Candidates => CandidatesSolver::new().run(puzzle, limits, none, &mut rec),
        _ => BitmaskSolver::new().run(puzzle, limits, none, &mut rec),
    };
    if let Some(e) = rec.error.take() {
        return Err(e.into());
    }
    rec.totals.aborted = outcome.aborted;
    rec.totals.solution = outcome.solution;
    rec.totals.solution_count = if outcome.aborted {
        BitmaskSolver::new()
            .solve(puzzle, Limits::count_to(2))
            .solutions
    } else if outcome.solution.is_some() {
        // The first solution is known; look for a second one.
        BitmaskSolver::new()
            .solve(puzzle, Limits::count_to(2))
            .solutions
            .max(1)
    } else {
        0
    };
    rec.finish(puzzle, options.strategy)?;
    Ok(rec.totals)
}

/// The digits of a candidate mask, e.g. `"247"`.
fn digits(mask: u16) -> String {
    (1..=9u8)
        .filter(|d| mask & (1 << (d - 1)) != 0)
        .map(|d| (b'0' + d) as char)
        .collect()
}

/// The candidates of every cell of `puzzle`: the digits no peer holds; 0 for a given cell.
fn starting_candidates(puzzle: &Grid) -> [u16; CELLS] {
    std::array::from_fn(|cell| {
        if puzzle.get(cell) != 0 {
            return 0;
        }
        PEERS[cell]
            .iter()
            .fold(0x1FF, |m, &p| match puzzle.get(p as usize) {
                0 => m,
                d => m & !(1 << (d - 1)),
            })
    })
}

/// The 9x9 display of candidate sets: given cells show their digit, empty cells their
/// candidates (`-` for none), in columns as wide as the widest set.
fn candidate_grid(puzzle: &Grid, cand: &[u16; CELLS]) -> String {
    let texts: Vec<String> = (0..CELLS)
        .map(|i| match (puzzle.get(i), cand[i]) {
            (0, 0) => "-".to_string(),
            (0, m) => digits(m),
            (d, _) => d.to_string(),
        })
        .collect();
    let width = texts.iter().map(String::len).max().unwrap_or(1);
    let rule = vec!["-".repeat(3 * (width + 1) + 1); 3].join("+");
    let mut s = String::new();
    for r in 0..9 {
        if r == 3 || r == 6 {
            s.push_str(rule.trim_end());
            s.push('\n');
        }
        let mut line = String::new();
        for c in 0..9 {
            if c == 3 || c == 6 {
                line.push_str(" |");
            }
            line.push_str(&format!(" {:<width$}", texts[r * 9 + c]));
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// One line of the JSON format.
#[derive(Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
enum Step<'a> {
    Start {
        strategy: &'a str,
        puzzle: String,
        /// Candidates of each cell, row-major; "" for a given cell.
        candidates: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        conflict: Option<String>,
    },
    Place {
        row: usize,
        col: usize,
        digit: u8,
        reason: &'a str,
    },
    Guess {
        depth: usize,
        row: usize,
        col: usize,
        digit: u8,
        alternatives: Vec<u8>,
    },
    DeadEnd {
        depth: usize,
        back_to: usize,
    },
    Truncated {
        max_steps: u64,
    },
    Solution {
        grid: String,
        unique: bool,
    },
    NoSolution {
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    Aborted {
        guesses: u64,
    },
    Totals {
        placements: u64,
        guesses: u64,
        dead_ends: u64,
        truncated: bool,
    },
}

/// The [`Trace`] that writes each step and counts it.
struct Recorder<'w> {
    out: &'w mut dyn Write,
    format: ExplainFormat,
    max_steps: u64,
    totals: ExplainTotals,
    /// The first write error; the search cannot be interrupted, so later steps are dropped.
    error: Option<io::Error>,
}

impl Recorder<'_> {
    fn json(&mut self, step: &Step<'_>) -> io::Result<()> {
        serde_json::to_writer(&mut *self.out, step)?;
        self.out.write_all(b"\n")
    }

    fn start(&mut self, puzzle: &Grid, strategy: Strategy) -> io::Result<()> {
        let cand = starting_candidates(puzzle);
        let conflict = puzzle.conflict().map(|c| c.to_string());
        match self.format {
            ExplainFormat::Json => self.json(&Step::Start {
                strategy: strategy.name(),
                puzzle: puzzle.to_string(),
                candidates: cand.iter().map(|&m| digits(m)).collect(),
                conflict,
            }),
            ExplainFormat::Text => {
                writeln!(self.out, "Puzzle:   {puzzle}")?;
                writeln!(self.out, "Strategy: {strategy}")?;
                writeln!(self.out)?;
                write!(self.out, "{}", puzzle.to_block_string())?;
                writeln!(self.out)?;
                writeln!(self.out, "Candidates:")?;
                write!(self.out, "{}", candidate_grid(puzzle, &cand))?;
                if let Some(c) = conflict {
                    writeln!(self.out, "The clues conflict: {c}.")?;
                }
                writeln!(self.out)?;
                writeln!(self.out, "Steps:")
            }
        }
    }

    /// Counts one step and writes it unless the trace is already cut.
    fn step(&mut self, step: Step<'_>) {
        if self.error.is_some() {
            return;
        }
        if self.totals.steps_printed >= self.max_steps {
            if !self.totals.truncated {
                self.totals.truncated = true;
                let r = match self.format {
                    ExplainFormat::Json => self.json(&Step::Truncated {
                        max_steps: self.max_steps,
                    }),
                    ExplainFormat::Text => writeln!(
                        self.out,
                        "... trace truncated after {} steps (totals still count every step)",
                        self.max_steps
                    ),
                };
                self.error = r.err();
            }
            return;
        }
        self.totals.steps_printed += 1;
        let n = self.totals.steps_printed;
        let r = match self.format {
            ExplainFormat::Json => self.json(&step),
            ExplainFormat::Text => match step {
                Step::Place {
                    row,
                    col,
                    digit,
                    reason,
                } => writeln!(
                    self.out,
                    "{n:>6}  place  r{row}c{col} = {digit}  ({reason})"
                ),
                Step::Guess {
                    depth,
                    row,
                    col,
                    digit,
                    alternatives,
                } => {
                    let left = if alternatives.is_empty() {
                        "none".to_string()
                    } else {
                        alternatives
                            .iter()
                            .map(u8::to_string)
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    writeln!(
                        self.out,
                        "{n:>6}  guess  r{row}c{col} = {digit}  (depth {depth}, alternatives left: {left})"
                    )
                }
                Step::DeadEnd { depth, back_to } => {
                    if back_to == 0 {
                        writeln!(
                            self.out,
                            "{n:>6}  dead end at depth {depth}: no alternative left"
                        )
                    } else {
                        writeln!(
                            self.out,
                            "{n:>6}  dead end at depth {depth}: back to the branch point at depth {back_to}, state restored"
                        )
                    }
                }
                _ => Ok(()),
            },
        };
        self.error = r.err();
    }

    fn finish(&mut self, puzzle: &Grid, strategy: Strategy) -> io::Result<()> {
        let t = self.totals;
        let totals = Step::Totals {
            placements: t.placements,
            guesses: t.guesses,
            dead_ends: t.dead_ends,
            truncated: t.truncated,
        };
        let no_solution_reason = puzzle
            .conflict()
            .map(|c| format!("the clues conflict: {c}"));
        match self.format {
            ExplainFormat::Json => {
                if t.aborted {
                    self.json(&Step::Aborted { guesses: t.guesses })?;
                }
                match t.solution {
                    Some(g) => self.json(&Step::Solution {
                        grid: g.to_string(),
                        unique: t.solution_count == 1,
                    })?,
                    None if !t.aborted => self.json(&Step::NoSolution {
                        reason: no_solution_reason,
                    })?,
                    None => {}
                }
                self.json(&totals)
            }
            ExplainFormat::Text => {
                writeln!(self.out)?;
                if t.aborted {
                    writeln!(
                        self.out,
                        "Search aborted: the budget of {} ran out.",
                        count(t.guesses, "guess", "guesses")
                    )?;
                }
                match t.solution {
                    Some(g) => {
                        writeln!(self.out, "Solution:")?;
                        for row in g.cells().chunks(9) {
                            let line: String = row.iter().map(|&d| (b'0' + d) as char).collect();
                            writeln!(self.out, "{line}")?;
                        }
                        if t.solution_count == 1 {
                            writeln!(self.out, "The solution is unique.")?;
                        } else {
                            writeln!(self.out, "The puzzle has another solution.")?;
                        }
                    }
                    None if !t.aborted => match no_solution_reason {
                        Some(r) => writeln!(self.out, "No solution: {r}.")?,
                        None => writeln!(self.out, "No solution.")?,
                    },
                    None => {}
                }
                if t.aborted && t.solution_count > 0 {
                    // Say what the search could not find out by itself.
                    writeln!(
                        self.out,
                        "(the {} strategy did not finish; the puzzle has {} solution{})",
                        strategy,
                        if t.solution_count == 1 {
                            "exactly one"
                        } else {
                            "more than one"
                        },
                        if t.solution_count == 1 { "" } else { "s" }
                    )?;
                }
                writeln!(
                    self.out,
                    "Totals: {}, {}, {}{}",
                    count(t.placements, "placement", "placements"),
                    count(t.guesses, "guess", "guesses"),
                    count(t.dead_ends, "dead end", "dead ends"),
                    if t.truncated {
                        format!(" ({} steps printed)", t.steps_printed)
                    } else {
                        String::new()
                    }
                )
            }
        }
    }
}

impl Trace for Recorder<'_> {
    fn place(&mut self, cell: usize, digit: u8, reason: Reason) {
        self.totals.placements += 1;
        self.step(Step::Place {
            row: cell / 9 + 1,
            col: cell % 9 + 1,
            digit,
            reason: reason.as_str(),
        });
    }

    fn guess(&mut self, depth: usize, cell: usize, digit: u8, left: u16) {
        self.totals.guesses += 1;
        self.step(Step::Guess {
            depth,
            row: cell / 9 + 1,
            col: cell % 9 + 1,
            digit,
            alternatives: (1..=9u8).filter(|d| left & (1 << (d - 1)) != 0).collect(),
        });
    }

    fn dead_end(&mut self, depth: usize, back_to: usize) {
        self.totals.dead_ends += 1;
        self.step(Step::DeadEnd { depth, back_to });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1.";
    const SOLUTION: &str =
        "762593148941278536835461792198627354476359281253814679387146925514932867629785413";
    const TRACED: [Strategy; 3] = [Strategy::Bitmask, Strategy::Backtrack, Strategy::Candidates];

    fn run(puzzle: &str, options: ExplainOptions) -> (String, ExplainTotals) {
        let mut out = Vec::new();
        let totals = explain(&puzzle.parse().unwrap(), &options, &mut out).unwrap();
        (String::from_utf8(out).unwrap(), totals)
    }

    fn options(strategy: Strategy, format: ExplainFormat) -> ExplainOptions {
        ExplainOptions {
            strategy,
            format,
            ..ExplainOptions::default()
        }
    }

    #[test]
    fn shows_the_published_solution_as_nine_rows() {
        let rows: Vec<&str> = (0..9).map(|r| &SOLUTION[r * 9..r * 9 + 9]).collect();
        let block = format!("Solution:\n{}\n", rows.join("\n"));
        for s in TRACED {
            let (text, totals) = run(PUZZLE, options(s, ExplainFormat::Text));
            assert!(text.contains(&block), "{s}:\n{text}");
            assert!(text.contains("The solution is unique."), "{s}");
            assert_eq!(totals.solution.unwrap().to_string(), SOLUTION);
            assert_eq!(totals.solution_count, 1);
        }
    }

    /// Every JSON line parses, and the place, guess and dead-end lines match the totals and
    /// the guesses of the plain solver.
    #[test]
    fn json_lines_match_the_totals() {
        let hard = crate::solver::tests::SOURCE_PUZZLES[0];
        for puzzle in [PUZZLE, hard] {
            for s in TRACED {
                let (text, totals) = run(puzzle, options(s, ExplainFormat::Json));
                let mut counts = [0u64; 3];
                let mut last = String::new();
                for line in text.lines() {
                    let v: serde_json::Value = serde_json::from_str(line).unwrap();
                    match v["step"].as_str().unwrap() {
                        "place" => counts[0] += 1,
                        "guess" => counts[1] += 1,
                        "dead_end" => counts[2] += 1,
                        "solution" => assert_eq!(v["grid"].as_str().unwrap().len(), 81),
                        other => last = other.to_string(),
                    }
                }
                assert_eq!(last, "totals", "{s}");
                assert!(!totals.truncated);
                assert_eq!(
                    counts,
                    [totals.placements, totals.guesses, totals.dead_ends]
                );
                let plain = s
                    .solver()
                    .solve(&puzzle.parse().unwrap(), Limits::count_to(1));
                assert_eq!(totals.guesses, plain.guesses, "{s}: traced = plain search");
                assert_eq!(totals.solution, plain.solution, "{s}");
            }
        }
    }

    #[test]
    fn a_long_trace_is_cut_but_counted() {
        let hard = crate::solver::tests::SOURCE_PUZZLES[0];
        let mut o = options(Strategy::Backtrack, ExplainFormat::Text);
        o.max_steps = 50;
        let (text, totals) = run(hard, o);
        assert!(totals.truncated);
        assert_eq!(totals.steps_printed, 50);
        assert!(totals.guesses + totals.dead_ends > 50);
        assert!(text.contains("... trace truncated after 50 steps"));
        assert!(text.contains("Solution:"));
    }

    #[test]
    fn guess_budget_stops_the_trace() {
        let hard = crate::solver::tests::SOURCE_PUZZLES[0];
        let mut o = options(Strategy::Backtrack, ExplainFormat::Json);
        o.max_guesses = Some(10);
        let (text, totals) = run(hard, o);
        assert!(totals.aborted);
        assert_eq!(totals.guesses, 10);
        assert_eq!(totals.solution_count, 1);
        assert!(text.contains(r#""step":"aborted""#));
    }

    #[test]
    fn totals_agree_in_number() {
        let hard = crate::solver::tests::SOURCE_PUZZLES[0];
        let mut o = options(Strategy::Backtrack, ExplainFormat::Text);
        o.max_guesses = Some(1);
        let (text, totals) = run(hard, o);
        assert_eq!(totals.guesses, 1);
        assert!(text.contains("the budget of 1 guess ran out"), "{text}");
        let line = text.lines().find(|l| l.starts_with("Totals: ")).unwrap();
        assert!(line.contains(", 1 guess, "), "{line}");
        let (text, totals) = run(hard, options(Strategy::Bitmask, ExplainFormat::Text));
        assert!(totals.guesses > 1 && totals.dead_ends > 1);
        let line = text.lines().find(|l| l.starts_with("Totals: ")).unwrap();
        assert!(
            line.contains(" guesses, ") && line.ends_with(" dead ends"),
            "{line}"
        );
    }

    #[test]
    fn conflicting_clues_have_no_solution_and_no_steps() {
        let mut p: Grid = PUZZLE.parse().unwrap();
        p.set(0, 6); // 6 twice in row 1
        for s in TRACED {
            let mut out = Vec::new();
            let o = options(s, ExplainFormat::Text);
            let totals = explain(&p, &o, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert_eq!(totals.solution, None);
            assert_eq!(totals.steps_printed, 0, "{s}");
            assert!(text.contains("No solution: the clues conflict: digit 6 twice in row 1."));
        }
    }

    #[test]
    fn other_strategies_are_refused() {
        let mut out = Vec::new();
        let o = options(Strategy::Singles, ExplainFormat::Text);
        let e = explain(&Grid::EMPTY, &o, &mut out).unwrap_err();
        assert!(
            e.to_string()
                .contains("singles strategy cannot be explained")
        );
        assert!(out.is_empty());
    }

    #[test]
    fn candidate_grid_shows_givens_and_candidate_sets() {
        let g: Grid = PUZZLE.parse().unwrap();
        let text = candidate_grid(&g, &starting_candidates(&g));
        let first = text.lines().next().unwrap();
        // r1c1 may hold 7 or 8; r1c2 is the given 6.
        assert!(first.starts_with(" 78    6     27    | 5 "), "{first}");
        assert_eq!(text.lines().count(), 11);
    }
}
