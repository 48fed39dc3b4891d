//! `validate`: run the binary on the fixtures in `tests/data/` and check the report's rows
//! (line and problem), the summary and the exit code.

use std::process::Output;

use crate::util::{bin, data, stderr};

/// The header of `validate`'s report: `solve`'s columns and `problem`.
const HEADER: &str = "line,puzzle,status,solutions,solution,guesses,time_ns,error,problem";

/// Runs `validate` on the fixture `name` with `args`.
fn validate(name: &str, args: &[&str]) -> Output {
    bin()
        .args(["validate", "-q"])
        .arg(data(name))
        .args(args)
        .output()
        .unwrap()
}

/// The report's `(line, problem)` pairs, after checking its header.
fn problems(out: &Output) -> Vec<(u64, String)> {
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header.join(","), HEADER);
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].parse().unwrap(), r[8].to_string())
        })
        .collect()
}

fn owned(expected: &[(u64, &str)]) -> Vec<(u64, String)> {
    expected.iter().map(|&(l, p)| (l, p.to_string())).collect()
}

#[test]
fn sound_corpus_exits_0_with_a_header_only_report() {
    let out = validate(
        "sound.txt",
        &["--minimal", "--duplicates", "--min-clues", "17"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{HEADER}\n"));
    assert!(
        stderr(&out).contains("every record passes"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn each_failing_kind_is_listed_with_its_line() {
    let out = validate("unsound.txt", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        problems(&out),
        owned(&[
            (4, "invalid"),
            (5, "unsolvable"),
            (6, "multiple"),
            (8, "unsolvable"),
        ])
    );
    assert!(
        stderr(&out).contains("4 records fail: invalid 1, unsolvable 2, multiple 1"),
        "{}",
        stderr(&out)
    );
}

/// Guards the summary's grammar: one failing record is "1 record fails", not "1 records fail".
#[test]
fn r_one_failing_record_is_singular_in_the_summary() {
    let out = bin()
        .args(["validate", "-q", "-"])
        .write_stdin("12x\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("1 record in "), "{err}");
    assert!(err.contains("  1 record fails: invalid 1\n"), "{err}");
    assert!(!err.contains("records"), "{err}");
}

#[test]
fn all_writes_passing_records_with_an_empty_problem() {
    let out = validate("unsound.txt", &["--all"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        problems(&out),
        owned(&[
            (2, ""),
            (3, ""),
            (4, "invalid"),
            (5, "unsolvable"),
            (6, "multiple"),
            (7, ""),
            (8, "unsolvable"),
            (9, ""),
        ])
    );
    let out = validate("sound.txt", &["--all"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(problems(&out).len(), 6);
}

#[test]
fn minimal_lists_redundant_clues_and_passes_minimal_puzzles() {
    // Line 2 is minimal; line 3 is the same puzzle with r1c4 of its solution added; line 7 is
    // line 2 again (written with `0` blanks).
    let out = validate("unsound.txt", &["--minimal"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        problems(&out),
        owned(&[
            (3, "redundant clues: r1c4"),
            (4, "invalid"),
            (5, "unsolvable"),
            (6, "multiple"),
            (8, "unsolvable"),
        ])
    );
}

#[test]
fn duplicates_name_the_earlier_line() {
    let out = validate("unsound.txt", &["--duplicates"]);
    assert_eq!(
        problems(&out),
        owned(&[
            (4, "invalid"),
            (5, "unsolvable"),
            (6, "multiple"),
            (7, "duplicate of line 2"),
            (8, "unsolvable"),
        ])
    );
}

#[test]
fn min_clues_and_several_problems_joined() {
    // Lines 2 and 7 hold 25 clues, line 9 and line 3 hold 26.
    let out = validate("unsound.txt", &["--min-clues", "26", "--duplicates"]);
    assert_eq!(out.status.code(), Some(1));
    let got = problems(&out);
    assert!(
        got.contains(&(2, "25 clues, fewer than 26".to_string())),
        "{got:?}"
    );
    assert!(
        got.contains(&(
            7,
            "duplicate of line 2; 25 clues, fewer than 26".to_string()
        )),
        "{got:?}"
    );
    assert!(!got.iter().any(|(l, _)| *l == 9), "{got:?}");
}

#[test]
fn expect_column_catches_wrong_malformed_and_missing_solutions() {
    let out = validate("kaggle_stated.csv", &["--expect-column", "solution"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        problems(&out),
        owned(&[
            (3, "stated solution differs at r5c5 (stated 1, solution 5)"),
            (4, "stated solution malformed: 80 cells, expected 81"),
            (5, "stated solution missing"),
            (6, "stated solution missing"),
        ])
    );
    // The published Kaggle solutions are right; the column may be given by index.
    let out = validate("kaggle_quizzes.csv", &["--expect-column", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(problems(&out), vec![]);
}

#[test]
fn expect_column_needs_csv_and_an_existing_column() {
    let out = validate("sound.txt", &["--expect-column", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--expect-column needs CSV input"));
    let out = validate("kaggle_stated.csv", &["--expect-column", "answer"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("column \"answer\" not found"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_spent_guess_budget_is_a_failure() {
    let out = validate("sound.txt", &["--max-guesses", "2"]);
    assert_eq!(out.status.code(), Some(1));
    let got = problems(&out);
    assert!(!got.is_empty());
    for (line, problem) in got {
        assert_eq!(problem, "aborted after 2 guesses", "line {line}");
    }
}

#[test]
fn report_goes_to_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.csv");
    let out = validate("unsound.txt", &["-o", report.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.starts_with(HEADER), "{text}");
    assert_eq!(text.lines().count(), 5);
}
