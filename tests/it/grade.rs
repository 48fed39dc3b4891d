//! `grade`, `explain --logic` and the ER bands of `validate` and `generate`: ratings on the
//! Sudoku Explainer scale through the command line.

use std::process::Stdio;
use std::time::Instant;

use crate::util::{bin, data, exits_within_10_s, mixed_records, send, stderr, write};

const GRADE_HEADER: &str = "line,puzzle,status,er,ep,ed,hardest,steps,techniques,time_ns,error";

/// `(puzzle, er, ep, ed)` of the committed sample that serate rated.
fn serate_sample() -> Vec<[String; 4]> {
    std::fs::read_to_string(data("logic/serate_sample.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            [f[0], f[1], f[2], f[3]].map(String::from)
        })
        .collect()
}

/// The rows of a `grade` output (header checked), every field as text.
fn grade_rows(csv_text: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(csv_text);
    let header: Vec<&str> = reader.headers().unwrap().iter().collect();
    assert_eq!(header.join(","), GRADE_HEADER);
    reader
        .records()
        .map(|r| {
            let r = r.expect("valid CSV");
            assert_eq!(r.len(), 11, "{r:?}");
            r.iter().map(String::from).collect()
        })
        .collect()
}

/// Every field but `time_ns`.
fn without_times(rows: &[Vec<String>]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .filter(|(i, _)| *i != 9)
                .map(|(_, f)| f.clone())
                .collect()
        })
        .collect()
}

#[test]
fn grade_rates_as_serate_does_on_a_spread_of_the_sample() {
    let dir = tempfile::tempdir().unwrap();
    // Every fourth puzzle of the sample: ER from 1.2 to 9.x; the hardest ones take the longest.
    let sample: Vec<_> = serate_sample().into_iter().step_by(4).collect();
    let text: String = sample.iter().map(|s| format!("{}\n", s[0])).collect();
    let input = write(dir.path(), "sample.txt", text);
    let out = bin().args(["grade", "-q"]).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = grade_rows(&out.stdout);
    assert_eq!(rows.len(), sample.len());
    for (row, [puzzle, er, ep, ed]) in rows.iter().zip(&sample) {
        assert_eq!(&row[1], puzzle);
        assert_eq!(row[2], "unique");
        assert_eq!([&row[3], &row[4], &row[5]], [er, ep, ed], "{puzzle}");
        // The techniques column sums to the steps, and names the hardest technique.
        let counted: u64 = row[8]
            .split(';')
            .map(|t| t.rsplit_once(':').unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(counted.to_string(), row[7]);
        assert!(row[8].contains(&format!("{}:", row[6])), "{row:?}");
        assert!(row[9].parse::<u64>().unwrap() > 0);
    }
}

#[test]
fn only_puzzles_with_one_solution_are_rated_and_every_record_has_a_row() {
    let out = bin()
        .args(["grade", "-q", "--no-summary", "-"])
        .write_stdin(mixed_records())
        .output()
        .unwrap();
    // The mixed records hold invalid lines.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rows = grade_rows(&out.stdout);
    let solved = bin()
        .args(["solve", "-q", "-"])
        .write_stdin(mixed_records())
        .output()
        .unwrap();
    let solved = crate::util::rows(&solved);
    assert_eq!(rows.len(), solved.len());
    for (g, s) in rows.iter().zip(&solved) {
        assert_eq!(
            (&g[0], &g[1], &g[2]),
            (&s.line.to_string(), &s.puzzle, &s.status)
        );
        let rated = !g[3].is_empty();
        assert_eq!(rated, s.status == "unique", "{g:?}");
        assert_eq!(g[6].is_empty(), !rated);
        if s.status != "unique" {
            assert_eq!(g[10], s.error, "{g:?}");
        }
    }
}

#[test]
fn rows_are_the_same_on_one_thread_and_two() {
    let sample: Vec<_> = serate_sample().into_iter().step_by(3).take(60).collect();
    let text: String = sample.iter().map(|s| format!("{}\n", s[0])).collect();
    let run = |j: &str| {
        let out = bin()
            .args(["grade", "-q", "-j", j, "--batch-size", "4", "-"])
            .write_stdin(text.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        without_times(&grade_rows(&out.stdout))
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn a_puzzle_over_the_time_limit_keeps_its_row_and_says_why() {
    // ER 9.0 puzzles take far more than a millisecond.
    let hard: Vec<_> = serate_sample()
        .into_iter()
        .filter(|s| s[1] == "9.0")
        .take(3)
        .collect();
    let text: String = hard.iter().map(|s| format!("{}\n", s[0])).collect();
    let out = bin()
        .args(["grade", "-q", "--max-time-ms", "1", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rows = grade_rows(&out.stdout);
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert_eq!(row[2], "unique");
        assert!(row[3].is_empty());
        assert!(row[10].starts_with("not rated: "), "{row:?}");
    }
}

#[test]
fn an_interrupted_grade_resumes_to_the_whole_output() {
    let dir = tempfile::tempdir().unwrap();
    let sample: Vec<_> = serate_sample().into_iter().step_by(5).collect();
    let text: String = sample.iter().map(|s| format!("{}\n", s[0])).collect();
    let input = write(dir.path(), "in.txt", &text);
    let whole = dir.path().join("whole.csv");
    let status = bin()
        .args(["grade", "-q", "-o"])
        .arg(&whole)
        .arg(&input)
        .output()
        .unwrap()
        .status;
    assert!(status.success());
    // A run stopped part way: the output ends after whole rows.
    let part = dir.path().join("part.csv");
    let mut child = std::process::Command::new(crate::util::exe())
        .args(["grade", "-q", "-j", "1", "--batch-size", "1", "-o"])
        .arg(&part)
        .arg(&input)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read(&part).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count()) < 5 {
        assert!(started.elapsed().as_secs() < 60, "no rows written");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    send("INT", &child);
    let status = exits_within_10_s(&mut child, "SIGINT");
    let written = std::fs::read(&part).unwrap();
    if status.code() == Some(130) {
        assert!(grade_rows(&written).len() < sample.len());
    }
    let out = bin()
        .args(["grade", "-q", "--resume", "-o"])
        .arg(&part)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let a = without_times(&grade_rows(&std::fs::read(&whole).unwrap()));
    let b = without_times(&grade_rows(&std::fs::read(&part).unwrap()));
    assert_eq!(a, b);
    // Rows of another rating cannot be mixed in.
    let out = bin()
        .args(["grade", "-q", "--resume", "--ruleset", "classic", "-o"])
        .arg(&part)
        .arg(&input)
        .output()
        .unwrap();
    if std::fs::metadata(format!("{}.resume.json", part.display())).is_ok() {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    }
}

#[test]
fn a_stop_ends_a_long_rating_at_once() {
    // Many hard puzzles on one thread: far more than the time allowed for the exit.
    let hard: String = serate_sample()
        .into_iter()
        .filter(|s| s[1].starts_with('9'))
        .map(|s| format!("{}\n", s[0]))
        .collect::<String>()
        .repeat(20);
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "hard.txt", hard);
    let mut child = std::process::Command::new(crate::util::exe())
        .args(["grade", "-q", "-j", "1", "-o"])
        .arg(dir.path().join("out.csv"))
        .arg(&input)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let sent = Instant::now();
    send("TERM", &child);
    let status = exits_within_10_s(&mut child, "SIGTERM");
    assert_eq!(status.code(), Some(130));
    assert!(sent.elapsed().as_millis() < 2_000, "{:?}", sent.elapsed());
}

#[test]
fn explain_logic_walks_through_a_puzzle_in_text_and_json() {
    let [puzzle, er, ep, ed] = serate_sample().into_iter().find(|s| s[1] == "3.2").unwrap();
    let out = bin()
        .args(["explain", "--logic", &puzzle])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("ER {er}  EP {ep}  ED {ed}")),
        "{text}"
    );
    assert!(text.contains("=") && text.contains("<>"), "{text}");
    let out = bin()
        .args(["explain", "--logic", "--output-format", "json", &puzzle])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let last = lines.last().unwrap();
    assert_eq!(
        last["er"].as_f64().unwrap().to_string(),
        er.trim_end_matches(".0")
    );
    assert_eq!(last["steps"].as_u64().unwrap() as usize, lines.len() - 1);
    // Every empty cell is placed once.
    let placed: usize = lines
        .iter()
        .map(|l| l["place"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(placed, puzzle.bytes().filter(|&b| b == b'.').count());
    // A puzzle with many solutions has no logical solution.
    let out = bin()
        .args(["explain", "--logic", &".".repeat(81)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("exactly one solution"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn validate_fails_the_puzzles_outside_an_er_band() {
    let sample: Vec<_> = serate_sample().into_iter().step_by(6).collect();
    let text: String = sample.iter().map(|s| format!("{}\n", s[0])).collect();
    let out = bin()
        .args([
            "validate", "-q", "--all", "--min-er", "2.0", "--max-er", "4.5", "-",
        ])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), sample.len());
    for (r, s) in records.iter().zip(&sample) {
        let er: f64 = s[1].parse().unwrap();
        let problem = &r[8];
        if er < 2.0 {
            assert_eq!(problem, format!("ER {}, below 2.0", s[1]));
        } else if er > 4.5 {
            // The rating stops as soon as it is known to be above the band.
            assert_eq!(problem, "ER above 4.5");
        } else {
            assert_eq!(problem, "");
        }
    }
}

#[test]
fn validate_says_not_rated_in_problem_only() {
    // ER 9.0 puzzles take far more than a millisecond to rate: `error` stays `solve`'s (empty
    // for a puzzle), `problem` says why the band could not be checked. The band reaches above
    // them, so that their whole rating is needed (a bound alone would stop at the first step
    // rated 2.0).
    let hard: Vec<_> = serate_sample()
        .into_iter()
        .filter(|s| s[1] == "9.0")
        .take(2)
        .collect();
    let text: String = hard.iter().map(|s| format!("{}\n", s[0])).collect();
    let out = bin()
        .args([
            "validate",
            "-q",
            "--min-er",
            "2.0",
            "--max-er",
            "9.5",
            "--max-time-ms",
            "1",
            "-",
        ])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!((&r[2], &r[7]), ("unique", ""), "{r:?}");
        assert!(r[8].starts_with("not rated: "), "{r:?}");
    }
}

#[test]
fn generate_makes_puzzles_in_an_er_band_the_same_on_any_thread_count() {
    let make = |j: &str| {
        let out = bin()
            .args([
                "generate", "-q", "-n", "6", "--seed", "7", "--min-er", "3.0", "--max-er", "6.0",
            ])
            .args(["-j", j])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        out.stdout
    };
    let puzzles = make("1");
    assert_eq!(puzzles, make("2"));
    let out = bin()
        .args(["grade", "-q", "-"])
        .write_stdin(puzzles)
        .output()
        .unwrap();
    let rows = grade_rows(&out.stdout);
    assert_eq!(rows.len(), 6);
    for row in rows {
        let er: f64 = row[3].parse().unwrap();
        assert!((3.0..=6.0).contains(&er), "{row:?}");
    }
    // A band no draw can meet ends with exit 2 and says what to change.
    let out = bin()
        .args([
            "generate",
            "-q",
            "-n",
            "1",
            "--seed",
            "1",
            "--min-er",
            "11.9",
            "--attempts",
            "3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--min-er/--max-er"),
        "{}",
        stderr(&out)
    );
}
