//! The recorder behind [`super::explain`]: the [`Trace`] that turns each step of a strategy's
//! search into a line of text or JSON and counts it, and the starting grid of candidates.

use std::io::{self, Write};

use serde::Serialize;

use super::{ExplainFormat, ExplainTotals};
use crate::grid::{CELLS, Grid, PEERS};
use crate::solver::Strategy;
use crate::solver::trace::{Reason, Trace};
use crate::words::count;

/// The digits of a candidate mask, e.g. `"247"`.
fn digits(mask: u16) -> String {
    (1..=9u8)
        .filter(|d| mask & (1 << (d - 1)) != 0)
        .map(|d| (b'0' + d) as char)
        .collect()
}

/// The candidates of every cell of `puzzle`: the digits no peer holds; 0 for a given cell.
pub(super) fn starting_candidates(puzzle: &Grid) -> [u16; CELLS] {
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
pub(super) fn candidate_grid(puzzle: &Grid, cand: &[u16; CELLS]) -> String {
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
pub(super) struct Recorder<'w> {
    pub(super) out: &'w mut dyn Write,
    pub(super) format: ExplainFormat,
    pub(super) max_steps: u64,
    pub(super) totals: ExplainTotals,
    /// The first write error; the search cannot be interrupted, so later steps are dropped.
    pub(super) error: Option<io::Error>,
}

impl Recorder<'_> {
    fn json(&mut self, step: &Step<'_>) -> io::Result<()> {
        serde_json::to_writer(&mut *self.out, step)?;
        self.out.write_all(b"\n")
    }

    pub(super) fn start(&mut self, puzzle: &Grid, strategy: Strategy) -> io::Result<()> {
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

    pub(super) fn finish(&mut self, puzzle: &Grid, strategy: Strategy) -> io::Result<()> {
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
