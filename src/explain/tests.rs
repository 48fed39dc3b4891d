//! Tests of the step-by-step explanation: text and JSON lines against the totals, long traces cut
//! but counted, the guess budget, conflicting clues and the strategies refused.

use super::recorder::{candidate_grid, starting_candidates};
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
