//! The human walkthrough of one puzzle: the engine of `sudoku-batch explain --logic`.
//!
//! [`walkthrough`] prints the steps the [`logic`](crate::logic) grader takes, one per line:
//! the technique with Sudoku Explainer's name and rating, the digits it places (`r1c3=4`) or
//! the candidates it removes (`r2c5<>7`), and in brackets the cells of its pattern (the lines
//! under the title, [`LEGEND`], say so); then the ratings. Rows and columns are numbered 1 to
//! 9. In [`ExplainFormat::Json`] every line is one JSON object:
//!
//! ```text
//! {"step":1,"technique":"Hidden Single","rating":1.2,"cells":["r1c3"],"place":[{"row":1,"col":3,"digit":4}],"remove":[]}
//! {"step":12,"technique":"X-Wing","rating":3.2,"cells":["r2c1","r2c5","r8c1","r8c5"],"place":[],"remove":[{"row":4,"col":5,"digit":7}]}
//! {"er":3.2,"ep":1.2,"ed":1.2,"hardest":"X-Wing","steps":52}
//! ```
//!
//! ```
//! use sudoku_batch::explain::ExplainFormat;
//! use sudoku_batch::explain::logic::walkthrough;
//! use sudoku_batch::logic::Budget;
//!
//! let puzzle =
//!     ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1."
//!         .parse()
//!         .unwrap();
//! let mut out = Vec::new();
//! let rating = walkthrough(&puzzle, ExplainFormat::Text, &Budget::default(), &mut out).unwrap();
//! assert_eq!(rating.er, 12); // hidden singles in boxes all the way: ER 1.2
//! assert!(String::from_utf8(out).unwrap().contains("Hidden Single (1.2)"));
//! ```

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

use super::ExplainFormat;
use crate::grid::Grid;
use crate::logic::{Budget, GradeError, Grader, Rating, Step, Technique};
use crate::pipeline::grade::tenths;

/// Why a puzzle has no walkthrough.
#[derive(Debug, thiserror::Error)]
pub enum WalkthroughError {
    /// The grader gave up or cannot solve the puzzle.
    #[error(transparent)]
    Grade(#[from] GradeError),
    /// Writing the walkthrough failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// The lines under the title of the text walkthrough: how to read a step.
pub const LEGEND: &str = "  Each step: the technique (its rating): r1c3=4 places 4 in row 1, \
     column 3; r2c5<>7\n  removes the candidate 7 from row 2, column 5; [r2c1 r8c5 ...] are the \
     cells of the technique's\n  pattern, those it reasons from.";

/// Prints the logical solution of `puzzle` to `out` and returns its rating.
pub fn walkthrough(
    puzzle: &Grid,
    format: ExplainFormat,
    budget: &Budget,
    out: &mut dyn Write,
) -> Result<Rating, WalkthroughError> {
    let steps = Grader::new().steps(puzzle, budget)?;
    let rating = rating_of(&steps);
    match format {
        ExplainFormat::Text => {
            writeln!(
                out,
                "Logical solution on the Sudoku Explainer scale, {} steps:\n{LEGEND}",
                steps.len()
            )?;
            for (i, step) in steps.iter().enumerate() {
                writeln!(out, "{:>4}. {}", i + 1, text_line(step))?;
            }
            writeln!(
                out,
                "ER {}  EP {}  ED {}  hardest: {}",
                tenths(rating.er),
                tenths(rating.ep),
                tenths(rating.ed),
                rating.hardest
            )?;
        }
        ExplainFormat::Json => {
            for (i, step) in steps.iter().enumerate() {
                serde_json::to_writer(&mut *out, &JsonStep::of(i + 1, step))
                    .map_err(io::Error::from)?;
                out.write_all(b"\n")?;
            }
            let totals = JsonTotals {
                er: f64::from(rating.er) / 10.0,
                ep: f64::from(rating.ep) / 10.0,
                ed: f64::from(rating.ed) / 10.0,
                hardest: rating.hardest.name(),
                steps: rating.steps,
            };
            serde_json::to_writer(&mut *out, &totals).map_err(io::Error::from)?;
            out.write_all(b"\n")?;
        }
    }
    Ok(rating)
}

/// The ratings of a logical solution given as its steps: ER the hardest step, EP the
/// hardest up to the first placement, ED the first.
pub fn rating_of(steps: &[Step]) -> Rating {
    let mut rating = Rating {
        er: 0,
        ep: 0,
        ed: steps.first().map_or(0, |s| s.rating),
        hardest: Technique::FullHouse,
        steps: steps.len() as u32,
        techniques: Vec::new(),
    };
    let mut placed = false;
    // (technique, times used, lowest rating), ordered as the grader orders them: by the
    // lowest rating each was used at.
    let mut used: Vec<(Technique, u32, u16)> = Vec::new();
    for step in steps {
        if step.rating > rating.er {
            rating.er = step.rating;
            rating.hardest = step.technique;
        }
        if !placed {
            rating.ep = rating.ep.max(step.rating);
            placed = !step.placements.is_empty();
        }
        match used.iter_mut().find(|(t, ..)| *t == step.technique) {
            Some((_, n, low)) => (*n, *low) = (*n + 1, (*low).min(step.rating)),
            None => used.push((step.technique, 1, step.rating)),
        }
    }
    used.sort_by_key(|&(t, _, low)| (low, t));
    rating.techniques = used.into_iter().map(|(t, n, _)| (t, n)).collect();
    rating
}

/// `r1c3`.
fn cell_name(cell: u8) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// One step as a line of text: `Technique (rating): what it does  [cells]`.
fn text_line(step: &Step) -> String {
    let mut line = format!("{} ({}):", step.technique, tenths(step.rating));
    for &(cell, digit) in &step.placements {
        let _ = write!(line, " {}={digit}", cell_name(cell));
    }
    for (i, &(cell, digit)) in step.eliminations.iter().enumerate() {
        let sep = if i == 0 { " " } else { ", " };
        let _ = write!(line, "{sep}{}<>{digit}", cell_name(cell));
    }
    if !step.cells.is_empty() {
        let cells: Vec<String> = step.cells.iter().map(|&c| cell_name(c)).collect();
        let _ = write!(line, "  [{}]", cells.join(" "));
    }
    line
}

#[derive(Serialize)]
struct JsonCandidate {
    row: u8,
    col: u8,
    digit: u8,
}

impl JsonCandidate {
    fn of(&(cell, digit): &(u8, u8)) -> JsonCandidate {
        JsonCandidate {
            row: cell / 9 + 1,
            col: cell % 9 + 1,
            digit,
        }
    }
}

#[derive(Serialize)]
struct JsonStep {
    step: usize,
    technique: &'static str,
    rating: f64,
    cells: Vec<String>,
    place: Vec<JsonCandidate>,
    remove: Vec<JsonCandidate>,
}

impl JsonStep {
    fn of(number: usize, step: &Step) -> JsonStep {
        JsonStep {
            step: number,
            technique: step.technique.name(),
            rating: f64::from(step.rating) / 10.0,
            cells: step.cells.iter().map(|&c| cell_name(c)).collect(),
            place: step.placements.iter().map(JsonCandidate::of).collect(),
            remove: step.eliminations.iter().map(JsonCandidate::of).collect(),
        }
    }
}

#[derive(Serialize)]
struct JsonTotals {
    er: f64,
    ep: f64,
    ed: f64,
    hardest: &'static str,
    steps: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Puzzles across the scale (from the committed serate sample).
    fn sample() -> Vec<Grid> {
        include_str!("../../tests/data/logic/serate_sample.csv")
            .lines()
            .skip(1)
            .step_by(10)
            .filter_map(|l| l.split(',').find_map(|f| f.parse().ok()))
            .collect()
    }

    #[test]
    fn the_walkthrough_rates_as_the_grader_does() {
        let puzzles = sample();
        assert!(puzzles.len() >= 20, "{} puzzles", puzzles.len());
        let mut grader = Grader::new();
        for puzzle in &puzzles {
            let budget = Budget::default();
            let Ok(graded) = grader.grade(puzzle, &budget) else {
                continue;
            };
            let mut out = Vec::new();
            let walked = walkthrough(puzzle, ExplainFormat::Json, &budget, &mut out).unwrap();
            assert_eq!(walked, graded, "{puzzle}");
            let text = String::from_utf8(out).unwrap();
            assert_eq!(text.lines().count(), graded.steps as usize + 1);
            for line in text.lines() {
                serde_json::from_str::<serde_json::Value>(line).unwrap();
            }
        }
    }

    #[test]
    fn steps_name_their_cells_and_candidates() {
        let step = Step {
            technique: Technique::XWing,
            rating: 32,
            placements: vec![],
            eliminations: vec![(31, 7), (40, 7)],
            cells: vec![9, 13, 63, 67],
        };
        assert_eq!(
            text_line(&step),
            "X-Wing (3.2): r4c5<>7, r5c5<>7  [r2c1 r2c5 r8c1 r8c5]"
        );
        let step = Step {
            technique: Technique::NakedSingle,
            rating: 23,
            placements: vec![(80, 9)],
            eliminations: vec![],
            cells: vec![],
        };
        assert_eq!(text_line(&step), "Naked Single (2.3): r9c9=9");
    }

    #[test]
    fn a_puzzle_with_two_solutions_has_no_walkthrough() {
        let mut out = Vec::new();
        let empty: Grid = ".".repeat(81).parse().unwrap();
        let err = walkthrough(&empty, ExplainFormat::Text, &Budget::default(), &mut out);
        assert!(matches!(
            err,
            Err(WalkthroughError::Grade(GradeError::NotUnique))
        ));
        assert!(out.is_empty());
    }
}
