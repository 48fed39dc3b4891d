//! The report's numbers checked against counts made here, independently, on small results
//! files written in every format by the pipeline's own writers.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::input::{Command, InputReport, Limits};
use super::{Report, ReportConfig};
use crate::grid::Grid;
use crate::pipeline::write::{COLUMNS, Encoding, FILE_COLUMN, Field, Value};
use crate::pipeline::{Output, RunError};

/// A row of a made-up `solve` output.
struct SolveRow {
    line: u64,
    puzzle: String,
    status: &'static str,
    guesses: u64,
    time_ns: u64,
    error: &'static str,
}

/// A puzzle with `clues` clues (not a sound one: the report only counts them).
fn puzzle(clues: usize, seed: usize) -> String {
    (0..81)
        .map(|i| {
            if (i * 7 + seed) % 81 < clues {
                char::from(b'1' + ((i + seed) % 9) as u8)
            } else {
                '.'
            }
        })
        .collect()
}

/// A deterministic spread of rows: mostly unique, some of every failing status, guesses from
/// 0 to a few thousand, times from hundreds of nanoseconds to milliseconds.
fn solve_rows(n: u64) -> Vec<SolveRow> {
    let mut state = 7u64;
    (0..n)
        .map(|i| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = state >> 33;
            let (status, error) = match r % 50 {
                0 => ("invalid", "80 cells, expected 81"),
                1 => ("unsolvable", ""),
                2 => ("multiple", ""),
                3 => ("unsolvable", "digit 5 twice in row 3"),
                _ => ("unique", ""),
            };
            let invalid = status == "invalid";
            SolveRow {
                line: 2 * i + 1,
                puzzle: if invalid {
                    format!("bad {i}")
                } else {
                    puzzle(17 + (r % 13) as usize, i as usize)
                },
                status,
                guesses: if invalid || r.is_multiple_of(3) {
                    0
                } else {
                    (r % 97) * (r % 31)
                },
                time_ns: if invalid {
                    0
                } else {
                    300 + (r % 5000) * (r % 700)
                },
                error,
            }
        })
        .collect()
}

/// Writes `rows` of `fields` to `path` in the format its name says.
fn write(path: &Path, fields: &[Field], rows: &[Vec<Value>]) {
    let encoding = Encoding::of(Some(path), None).unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = encoding.writer(Box::new(file), fields, false).unwrap();
    for row in rows {
        writer.write_row(row).unwrap();
    }
    writer.finish().unwrap();
}

fn write_solve(path: &Path, rows: &[SolveRow]) {
    let grids: Vec<Option<Grid>> = rows.iter().map(|r| r.puzzle.parse().ok()).collect();
    let values: Vec<Vec<Value>> = rows
        .iter()
        .zip(&grids)
        .map(|(r, g)| {
            vec![
                Value::Number(r.line),
                g.as_ref().map_or(Value::Text(&r.puzzle), Value::Grid),
                Value::Text(r.status),
                Value::Number(u64::from(r.status == "unique")),
                Value::Empty,
                Value::Number(r.guesses),
                Value::Number(r.time_ns),
                Value::Text(r.error),
            ]
        })
        .collect();
    write(path, &COLUMNS, &values);
}

fn read_one(path: &Path, limits: Limits) -> InputReport {
    let report = Report::read(&[path.to_path_buf()], limits).unwrap();
    report.inputs.into_iter().next().unwrap()
}

/// The exact nearest-rank percentile of `values`.
fn exact(values: &[u64], q: f64) -> u64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted[((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1]
}

#[test]
fn solve_numbers_match_counts_made_independently() {
    let dir = tempfile::tempdir().unwrap();
    let rows = solve_rows(3000);
    let path = dir.path().join("results.csv");
    write_solve(&path, &rows);
    let limits = Limits {
        top: 5,
        failures: 7,
    };
    let report = read_one(&path, limits);
    assert_eq!(report.command, Command::Solve);
    assert_eq!(report.records, 3000);

    let mut statuses: HashMap<&str, u64> = HashMap::new();
    rows.iter()
        .for_each(|r| *statuses.entry(r.status).or_default() += 1);
    assert_eq!(report.statuses.len(), statuses.len());
    for (status, count) in &report.statuses {
        assert_eq!(statuses[status.as_str()], *count, "{status}");
    }
    let failing: Vec<&SolveRow> = rows.iter().filter(|r| r.status != "unique").collect();
    assert_eq!(report.failures, failing.len() as u64);
    assert_eq!(report.failed.len(), 7);
    for (listed, row) in report.failed.iter().zip(&failing) {
        assert_eq!(listed.line, row.line);
        assert_eq!(listed.status, row.status);
        let want = match (row.error, row.status) {
            ("", "multiple") => "more than one solution",
            ("", "unsolvable") => "no solution",
            (error, _) => error,
        };
        assert_eq!(listed.reason, want);
    }

    let puzzles: Vec<&SolveRow> = rows.iter().filter(|r| r.status != "invalid").collect();
    let mut clues: HashMap<usize, u64> = HashMap::new();
    for r in &puzzles {
        *clues
            .entry(r.puzzle.chars().filter(|c| *c != '.').count())
            .or_default() += 1;
    }
    for &(c, n) in &report.clues {
        assert_eq!(clues.get(&c).copied().unwrap_or(0), n, "{c} clues");
    }
    assert_eq!(
        report.clues.iter().map(|c| c.1).sum::<u64>(),
        puzzles.len() as u64
    );

    let solving = report.solving.as_ref().unwrap();
    let guesses: Vec<u64> = puzzles.iter().map(|r| r.guesses).collect();
    let times: Vec<u64> = puzzles.iter().map(|r| r.time_ns).collect();
    assert_eq!(
        solving.guesses.zeros,
        guesses.iter().filter(|&&g| g == 0).count() as u64
    );
    assert_eq!(solving.guesses.percentiles.count, puzzles.len() as u64);
    for (values, d) in [(&guesses, &solving.guesses), (&times, &solving.time_ns)] {
        let p = &d.percentiles;
        assert_eq!(p.max, values.iter().copied().max());
        for (got, q) in [(p.p50, 0.5), (p.p90, 0.9), (p.p99, 0.99)] {
            let (got, want) = (got.unwrap() as f64, exact(values, q) as f64);
            assert!((got - want).abs() <= want / 32.0, "q {q}: {got} vs {want}");
        }
        assert_eq!(
            d.bins.iter().map(|b| b.2).sum::<u64>() + d.zeros,
            values.len() as u64
        );
    }

    let mut slowest: Vec<&&SolveRow> = puzzles.iter().collect();
    slowest.sort_by_key(|r| (std::cmp::Reverse(r.time_ns), r.line));
    let want: Vec<(u64, u64)> = slowest
        .iter()
        .take(5)
        .map(|r| (r.line, r.time_ns))
        .collect();
    let got: Vec<(u64, u64)> = solving
        .slowest
        .iter()
        .map(|s| (s.line, s.time_ns))
        .collect();
    assert_eq!(got, want);
    assert_eq!(solving.slowest[0].puzzle, slowest[0].puzzle);
}

#[test]
fn every_output_format_gives_the_same_report() {
    let dir = tempfile::tempdir().unwrap();
    let rows = solve_rows(500);
    let mut names = vec!["r.csv", "r.jsonl", "r.csv.gz", "r.jsonl.zst"];
    if cfg!(feature = "parquet") {
        names.push("r.parquet");
    }
    let reports: Vec<InputReport> = names
        .iter()
        .map(|name| {
            let path = dir.path().join(name);
            write_solve(&path, &rows);
            let mut report = read_one(&path, Limits::default());
            report.path.clear();
            for f in &mut report.failed {
                // The line of the results file: the CSV has a header, JSON lines none.
                f.row = 0;
            }
            report
        })
        .collect();
    for (name, report) in names.iter().zip(&reports).skip(1) {
        assert_eq!(*report, reports[0], "{name}");
    }
}

#[test]
fn several_inputs_are_compared_with_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    let rows = solve_rows(200);
    write_solve(&a, &rows);
    write_solve(&b, &rows[..100]);
    let report = Report::read(&[a, b], Limits::default()).unwrap();
    let records = report
        .differences
        .iter()
        .find(|d| d.measure == "records")
        .unwrap();
    assert_eq!(records.values, vec![Some(200.0), Some(100.0)]);
    assert!(report.differences.iter().any(|d| d.measure == "time, p90"));
    assert!(
        !report
            .differences
            .iter()
            .any(|d| d.measure.starts_with("ER")),
        "no grade input"
    );
}

#[test]
fn a_file_with_several_inputs_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.csv");
    let mut fields = vec![FILE_COLUMN];
    fields.extend(COLUMNS);
    let rows = vec![vec![
        Value::Text("in.txt"),
        Value::Number(4),
        Value::Text("xyz"),
        Value::Text("invalid"),
        Value::Number(0),
        Value::Empty,
        Value::Number(0),
        Value::Number(0),
        Value::Text("3 cells, expected 81"),
    ]];
    write(&path, &fields, &rows);
    let report = read_one(&path, Limits::default());
    assert_eq!(report.failed[0].file, "in.txt");
    assert_eq!(report.failed[0].reason, "3 cells, expected 81");
    assert!(report.clues.is_empty());
}

fn usage_message(result: Result<Report, RunError>) -> String {
    match result {
        Err(RunError::Usage { message, .. }) => message,
        other => panic!("expected a usage error, got {other:?}"),
    }
}

#[test]
fn bad_results_files_are_refused_with_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| -> PathBuf {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let read = |path: PathBuf| Report::read(&[path], Limits::default());
    let wrong = file("wrong.csv", "puzzle,answer\n1.3,123\n");
    let message = usage_message(read(wrong));
    assert!(
        message.contains("no output of solve, validate or grade"),
        "{message}"
    );
    assert!(message.contains("solutions, guesses, time_ns"), "{message}");
    let header = "line,puzzle,status,solutions,solution,guesses,time_ns,error\n";
    let short = file(
        "short.csv",
        &format!("{header}1,{},unique,1,,0,5,\n2,x,invalid\n", ".".repeat(81)),
    );
    assert!(usage_message(read(short)).starts_with("line 3: 3 fields, but the header has 8"));
    let not_a_number = file(
        "nan.csv",
        &format!("{header}1,{},unique,1,,many,5,\n", ".".repeat(81)),
    );
    assert_eq!(
        usage_message(read(not_a_number)),
        "line 2: `guesses` is `many`, not a whole number"
    );
    let half_grade = file("g.csv", "line,puzzle,status,er\n");
    assert!(usage_message(read(half_grade)).contains("no column ep, ed, hardest"));
    assert!(usage_message(read(file("empty.csv", ""))).contains("is empty"));
    let jsonl = file("bad.jsonl", "{\"line\":1}\nnot json\n");
    assert!(usage_message(read(jsonl)).contains("no column"));
}

#[test]
fn the_outputs_may_not_be_the_inputs_and_nothing_is_written_when_an_input_is_bad() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.csv");
    write_solve(&results, &solve_rows(20));
    let before = std::fs::read(&results).unwrap();
    let config = |output: &Path, json: Option<PathBuf>, inputs: Vec<PathBuf>| ReportConfig {
        inputs,
        output: Output::Path(output.to_path_buf()),
        json,
        limits: Limits::default(),
    };
    let err = super::run(&config(&results, None, vec![results.clone()])).unwrap_err();
    assert!(
        matches!(&err, RunError::SameFile { what, .. } if what == "the output is one of the RESULTS"),
        "{err}"
    );
    let page = dir.path().join("page.html");
    let err = super::run(&config(&page, Some(results.clone()), vec![results.clone()])).unwrap_err();
    assert!(
        err.to_string()
            .contains("the --json file is one of the RESULTS"),
        "{err}"
    );
    let err = super::run(&config(&page, Some(page.clone()), vec![results.clone()])).unwrap_err();
    assert!(
        err.to_string()
            .contains("the --json file is the page's file"),
        "{err}"
    );
    assert_eq!(std::fs::read(&results).unwrap(), before);
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "a,b\n").unwrap();
    std::fs::write(&page, "kept").unwrap();
    let err = super::run(&config(&page, None, vec![results.clone(), bad])).unwrap_err();
    assert!(matches!(err, RunError::Usage { .. }), "{err}");
    assert_eq!(
        std::fs::read_to_string(&page).unwrap(),
        "kept",
        "an old page stays as it was"
    );
    let json = dir.path().join("numbers.json");
    super::run(&config(&page, Some(json.clone()), vec![results.clone()])).unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<svg"));
    let numbers: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(numbers["inputs"][0]["records"], 20);
}

mod band;
mod grade;

#[test]
fn isomorphs_not_searched_count_as_records_but_not_in_solving() {
    // `validate --duplicates --isomorphs --all`: three searched puzzles, two later isomorphs
    // with their class's status and no guesses or time.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("validate.csv");
    let p = puzzle(25, 1);
    let grid: Grid = p.parse().unwrap();
    let row = |line: u64, guesses: Value<'static>, time: Value<'static>, problem| {
        vec![
            Value::Number(line),
            Value::Grid(&grid),
            Value::Text("unique"),
            Value::Number(1),
            Value::Empty,
            guesses,
            time,
            Value::Text(""),
            Value::Text(problem),
        ]
    };
    let rows = vec![
        row(1, Value::Number(3), Value::Number(500), ""),
        row(2, Value::Number(0), Value::Number(700), ""),
        row(3, Value::Empty, Value::Empty, "isomorph of line 1"),
        row(4, Value::Number(9), Value::Number(900), ""),
        row(5, Value::Empty, Value::Empty, "isomorph of line 2"),
    ];
    write(&path, &crate::validate::COLUMNS, &rows);
    let report = read_one(
        &path,
        Limits {
            top: 5,
            failures: 5,
        },
    );
    assert_eq!(report.command, Command::Validate);
    assert_eq!(report.records, 5);
    let solving = report.solving.as_ref().unwrap();
    assert_eq!(solving.guesses.percentiles.count, 3);
    assert_eq!(solving.guesses.zeros, 1);
    assert_eq!(solving.time_ns.percentiles.max, Some(900));
}
