//! The checks of `validate` on single rows: the columns, and problems joined and counted.

use super::*;
use crate::pipeline::read::Record;
use crate::pipeline::solve::{SolveOptions, solve_record};

fn row(line: u64, text: &str, expected: Option<Expected>) -> Row {
    let opts = SolveOptions {
        find_redundant: true,
        ..SolveOptions::default()
    };
    let record = Record {
        file: 0,
        line,
        input: match text.parse() {
            Ok(g) => RecordInput::Puzzle(g),
            Err(e) => RecordInput::Invalid {
                text: text.into(),
                reason: format!("{e}"),
            },
        },
        expected: expected.map(Box::new),
    };
    solve_record(&mut *opts.strategy.solver(), record, &opts)
}

/// A minimal puzzle (made by `generate`) with 23 clues.
const P: &str = "..1.8.....3.519........6.4....9.48...83...........261........647...2....9.8.....5";

#[test]
fn columns_are_those_of_solve_then_problem() {
    assert_eq!(COLUMNS[..8], crate::pipeline::write::COLUMNS);
    assert_eq!(COLUMNS[8].name, "problem");
}

#[test]
fn problems_are_joined_and_counted() {
    let mut c = Checker::new(true, Some(30));
    let mut sound = row(3, P, None);
    let solution = sound.outcome.solution.unwrap();
    assert_eq!(c.check(&mut sound), "23 clues, fewer than 30");
    let mut wrong = solution;
    wrong.set(3, if solution.get(3) == 1 { 2 } else { 1 });
    assert_eq!(
        c.check(&mut row(9, P, Some(Expected::Grid(wrong)))),
        format!(
            "stated solution differs at r1c4 (stated {}, solution {}); duplicate of line 3; \
             23 clues, fewer than 30",
            wrong.get(3),
            solution.get(3)
        )
    );
    assert_eq!(
        c.check(&mut row(10, "12x", Some(Expected::Missing))),
        "invalid; stated solution missing"
    );
    assert_eq!(c.failed(), 3);
    assert_eq!(c.count(Problem::FewClues), 2);
    assert_eq!(c.count(Problem::Duplicate), 1);
    assert_eq!(c.count(Problem::StatedMissing), 1);
    assert_eq!(c.count(Problem::Redundant), 0);
}
