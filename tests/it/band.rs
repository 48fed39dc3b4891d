//! `grade --min-er/--max-er` and `validate`'s ER band: ratings stopped as soon as the band is
//! decided, which must decide as the full rating does, and how a stopped rating is written.

use std::path::Path;

use sudoku_batch::Grid;
use sudoku_batch::logic::{Bounded, Budget, Grader};

use crate::util::{bin, data, stderr, write};

/// `(puzzle, ER in tenths)` of the committed sample that serate rated (252 puzzles, ER 1.2 to
/// 9.2).
fn serate_sample() -> Vec<(String, u16)> {
    std::fs::read_to_string(data("logic/serate_sample.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let er: f64 = f[1].parse().unwrap();
            (f[0].to_string(), (er * 10.0).round() as u16)
        })
        .collect()
}

#[test]
fn a_bounded_rating_decides_as_the_full_rating_on_the_serate_sample() {
    let sample = serate_sample();
    assert_eq!(sample.len(), 252);
    let mut grader = Grader::new();
    let budget = Budget::default();
    // Limits at the base rating of a rung (3.2 X-Wing, 6.2 aligned pair, 7.5 Nishio, 8.5
    // dynamic chains, 9.0 dynamic plus), between them, and at ratings the sample holds.
    let limits = [
        13, 20, 26, 32, 40, 45, 55, 62, 66, 70, 75, 80, 85, 88, 90, 91, 92,
    ];
    let mut stopped = 0;
    for (puzzle, er) in &sample {
        let grid: Grid = puzzle.parse().unwrap();
        let full = grader.grade(&grid, &budget).unwrap();
        assert_eq!(full.er, *er, "{puzzle}: the full rating is serate's");
        for limit in limits {
            let bounded = grader.grade_below(&grid, &budget, limit).unwrap();
            if *er < limit {
                assert_eq!(
                    bounded,
                    Bounded::Rated(full.clone()),
                    "{puzzle} below {limit}"
                );
            } else {
                assert_eq!(bounded, Bounded::AtLeast(limit), "{puzzle} at {limit}");
                stopped += 1;
            }
        }
    }
    assert!(stopped > 1000, "{stopped}");
}

const HEADER: &str = "line,puzzle,status,er,ep,ed,hardest,steps,techniques,time_ns,error,band";

/// Every 7th puzzle of the sample (36, ER 1.2 to 9.1), written to `dir`, with an invalid
/// record and a puzzle of several solutions after them.
fn input(dir: &Path) -> (std::path::PathBuf, Vec<(String, u16)>) {
    let sample: Vec<_> = serate_sample().into_iter().step_by(7).collect();
    let mut text: String = sample.iter().map(|(p, _)| format!("{p}\n")).collect();
    text.push_str(&format!("12x\n{}\n", ".".repeat(81)));
    (write(dir, "in.txt", text), sample)
}

/// Runs `grade -qq ARGS -o OUTPUT INPUT` (exit 1: the invalid record).
fn grade(input: &Path, output: &Path, args: &[&str]) {
    let out = bin()
        .args(["grade", "-qq", "-o"])
        .arg(output)
        .args(args)
        .arg(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// `(er, band)` of every row of a CSV `grade` output with a band.
fn csv_er_band(path: &Path) -> Vec<(String, String)> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<&str> = reader.headers().unwrap().iter().collect();
    assert_eq!(header.join(","), HEADER);
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            // A stopped rating has no EP, ED, hardest, steps or techniques either.
            if r[3].is_empty() {
                assert!((4..=8).all(|i| r[i].is_empty()), "{r:?}");
            }
            (r[3].to_string(), r[11].to_string())
        })
        .collect()
}

/// The `(er, band)` the sample's rows must have against the band `min..=max` (tenths), and
/// those of the two records after it (not rated: no band).
fn expected(sample: &[(String, u16)], min: Option<u16>, max: Option<u16>) -> Vec<(String, String)> {
    let t = |v: u16| format!("{}.{}", v / 10, v % 10);
    let mut rows: Vec<(String, String)> = sample
        .iter()
        .map(|&(_, er)| {
            let above = max.is_some_and(|m| er > m);
            let band = match (min, max) {
                _ if above => format!("> {}", t(max.unwrap())),
                (Some(m), _) if er < m => format!("< {}", t(m)),
                (Some(m), Some(x)) => format!("{}-{}", t(m), t(x)),
                (Some(m), None) => format!(">= {}", t(m)),
                (None, Some(x)) => format!("<= {}", t(x)),
                (None, None) => unreachable!(),
            };
            // Rated in full below the limit, stopped (no ER) at it.
            let limit = max.map_or_else(|| min.unwrap(), |m| m + 1);
            let er = if er < limit { t(er) } else { String::new() };
            (er, band)
        })
        .collect();
    rows.extend([
        (String::new(), String::new()),
        (String::new(), String::new()),
    ]);
    rows
}

#[test]
fn grade_writes_a_band_and_no_rating_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let (input, sample) = input(dir.path());
    let cases: [(&[&str], Option<u16>, Option<u16>); 3] = [
        (&["--min-er", "9"], Some(90), None),
        (&["--max-er", "4.5"], None, Some(45)),
        (&["--min-er", "3.0", "--max-er", "7.5"], Some(30), Some(75)),
    ];
    for (args, min, max) in cases {
        let path = dir.path().join("out.csv");
        grade(&input, &path, args);
        assert_eq!(csv_er_band(&path), expected(&sample, min, max), "{args:?}");
        std::fs::remove_file(&path).unwrap();
    }
    // Without a band: the columns of old, every puzzle rated.
    let path = dir.path().join("plain.csv");
    grade(&input, &path, &[]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("line,puzzle,status,er,ep,ed,hardest,steps,techniques,time_ns,error\n")
    );
}

#[test]
fn grade_band_summary_counts_both_sides() {
    let dir = tempfile::tempdir().unwrap();
    let (input, sample) = input(dir.path());
    let out = bin()
        .args(["grade", "-q", "--min-er", "9.0", "-o"])
        .arg(dir.path().join("out.csv"))
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let hard = sample.iter().filter(|(_, er)| *er >= 90).count();
    assert!(hard > 0);
    let text = stderr(&out);
    let line = format!(
        "--min-er 9.0: < 9.0 {}, >= 9.0 {hard}\n",
        sample.len() - hard
    );
    assert!(text.contains(&line), "{text}");
    assert!(
        text.contains(&format!("{hard} puzzles stopped as soon as known >= 9.0")),
        "{text}"
    );
}

#[test]
fn grade_band_in_jsonl_is_a_string_beside_a_null_er() {
    let dir = tempfile::tempdir().unwrap();
    let (input, sample) = input(dir.path());
    let path = dir.path().join("out.jsonl");
    grade(&input, &path, &["--min-er", "8.5"]);
    let rows: Vec<(String, String)> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let er = match &v["er"] {
                serde_json::Value::Null => String::new(),
                serde_json::Value::Number(n) => format!("{:.1}", n.as_f64().unwrap()),
                other => panic!("er {other:?} in {line}"),
            };
            let band = match &v["band"] {
                serde_json::Value::Null => String::new(),
                serde_json::Value::String(s) => s.clone(),
                other => panic!("band {other:?} in {line}"),
            };
            (er, band)
        })
        .collect();
    assert_eq!(rows, expected(&sample, Some(85), None));
}

#[cfg(feature = "parquet")]
#[test]
fn grade_band_in_parquet_is_a_category_beside_a_null_er() {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, Int32Type};
    use arrow_schema::DataType;

    let dir = tempfile::tempdir().unwrap();
    let (input, sample) = input(dir.path());
    let path = dir.path().join("out.parquet");
    grade(&input, &path, &["--min-er", "3.0", "--max-er", "7.5"]);
    let (names, batches) = crate::util::parquet_batches(&path);
    assert_eq!(names.join(","), HEADER);
    let mut rows = Vec::new();
    for batch in batches {
        let er = batch.column(3);
        let band = batch.column(11);
        assert_eq!(er.data_type(), &DataType::Float64);
        assert_eq!(
            band.data_type(),
            &DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
        );
        let band = band.as_dictionary::<Int32Type>();
        for row in 0..batch.num_rows() {
            let er = if er.is_null(row) {
                String::new()
            } else {
                format!("{:.1}", er.as_primitive::<Float64Type>().value(row))
            };
            let band = if band.is_null(row) {
                String::new()
            } else {
                let key = band.keys().value(row) as usize;
                band.values().as_string::<i32>().value(key).to_string()
            };
            rows.push((er, band));
        }
    }
    assert_eq!(rows, expected(&sample, Some(30), Some(75)));
}

#[test]
fn a_band_that_holds_no_rating_or_a_bad_rating_stops_with_exit_2() {
    for verb in ["grade", "validate"] {
        for (args, message) in [
            (
                &["--min-er", "9.5", "--max-er", "7"][..],
                "--min-er 9.5 is more than --max-er 7.0",
            ),
            (
                &["--min-er", "nine"][..],
                "`nine` is not a rating such as 2.5",
            ),
            (
                &["--max-er", "9.05"][..],
                "ratings go from 1.0 to about 12.0, in tenths",
            ),
            (
                &["--min-er=-1"][..],
                "ratings go from 1.0 to about 12.0, in tenths",
            ),
            (
                &["--max-er", "30"][..],
                "ratings go from 1.0 to about 12.0, in tenths",
            ),
        ] {
            let out = bin()
                .arg(verb)
                .args(args)
                .arg("-")
                .write_stdin("")
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(2),
                "{verb} {args:?}: {}",
                stderr(&out)
            );
            let text = stderr(&out);
            assert!(text.contains(message), "{verb} {args:?}: {text}");
            assert!(
                !text.contains("Some(") && !text.contains("panick"),
                "{text}"
            );
        }
    }
}

#[test]
fn validate_decides_its_band_as_the_full_rating_does() {
    let sample: Vec<_> = serate_sample().into_iter().step_by(5).collect();
    let text: String = sample.iter().map(|(p, _)| format!("{p}\n")).collect();
    let out = bin()
        .args([
            "validate", "-q", "--all", "--min-er", "3.0", "--max-er", "8.0", "-",
        ])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let problems: Vec<String> = reader
        .records()
        .map(|r| r.unwrap()[8].to_string())
        .collect();
    assert_eq!(problems.len(), sample.len());
    for (problem, (puzzle, er)) in problems.iter().zip(&sample) {
        let want = if *er < 30 {
            format!("ER {}.{}, below 3.0", er / 10, er % 10)
        } else if *er > 80 {
            // Stopped at 8.1: the bound, not the rating.
            "ER above 8.0".to_string()
        } else {
            String::new()
        };
        assert_eq!(problem, &want, "{puzzle}");
    }
}

#[test]
fn resuming_a_graded_file_needs_the_same_band() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = input(dir.path());
    let path = dir.path().join("out.csv");
    grade(&input, &path, &["--min-er", "9"]);
    let out = bin()
        .args(["grade", "-qq", "--resume", "--min-er", "8", "-o"])
        .arg(&path)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--min-er 9.0"), "{}", stderr(&out));
    let out = bin()
        .args(["grade", "-qq", "--resume", "--min-er", "9.0", "-o"])
        .arg(&path)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn report_counts_ratings_stopped_at_the_band_in_their_band() {
    let dir = tempfile::tempdir().unwrap();
    let (input, sample) = input(dir.path());
    let path = dir.path().join("out.jsonl");
    grade(&input, &path, &["--min-er", "9"]);
    let hard = sample.iter().filter(|(_, er)| *er >= 90).count() as u64;
    assert!(hard > 0);
    let (page, json) = (dir.path().join("page.html"), dir.path().join("n.json"));
    let out = bin()
        .arg("report")
        .arg(&path)
        .arg("-o")
        .arg(&page)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let numbers: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let g = &numbers["inputs"][0]["grading"];
    let easy = sample.len() as u64 - hard;
    assert_eq!(g["rated"], easy, "{g}");
    assert_eq!(g["stopped"], hard, "{g}");
    assert_eq!(g["unrated"], 0, "{g}");
    assert_eq!(
        g["by_band"],
        serde_json::json!([
            {"band": "< 9.0", "rated": easy, "stopped": 0},
            {"band": ">= 9.0", "rated": 0, "stopped": hard},
        ])
    );
    let max = sample
        .iter()
        .map(|s| s.1)
        .filter(|&er| er < 90)
        .max()
        .unwrap();
    assert_eq!(g["er"]["max"], format!("{}.{}", max / 10, max % 10));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("stopped being rated as soon as their band was known"));
}
