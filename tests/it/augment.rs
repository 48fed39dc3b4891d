//! `augment`: every copy is an isomorph of its puzzle with the solution carried alike, the
//! `transform` column says which, a seed gives the same rows whatever the thread count or the
//! shard, records that cannot be augmented get one row with the reason, every output format
//! holds the same rows, and the output is guarded like every other command's.

use std::path::{Path, PathBuf};
use std::process::Output;

use sudoku_batch::Grid;
use sudoku_batch::isomorph::Transform;

use crate::util::{assert_same, bin, mixed_records, sample_puzzles, stderr, write};

const HEADER: &str = "line,copy,puzzle,solution,status,error";
const HEADER_WITH_TRANSFORM: &str = "line,copy,puzzle,solution,transform,status,error";

/// Runs `augment -qq ARGS INPUTS`.
fn augment(args: &[&str], inputs: &[&Path]) -> Output {
    bin()
        .args(["augment", "-qq"])
        .args(args)
        .args(inputs)
        .output()
        .unwrap()
}

/// The CSV rows of an output (header checked), every field as text.
fn rows(bytes: &[u8], header: &str) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(bytes);
    let got: Vec<&str> = reader.headers().unwrap().iter().collect();
    assert_eq!(got.join(","), header);
    reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

/// The first `n` puzzles of the sample, one a line, in `dir`.
fn sample_file(dir: &Path, n: usize) -> PathBuf {
    let text: String = sample_puzzles()
        .iter()
        .take(n)
        .map(|p| format!("{p}\n"))
        .collect();
    write(dir, "in.txt", text)
}

#[test]
fn every_copy_is_an_isomorph_carrying_the_solution() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = sample_puzzles();
    let input = sample_file(dir.path(), 60);
    let out = augment(
        &["--copies", "4", "--seed", "11", "--with-transform"],
        &[&input],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = rows(&out.stdout, HEADER_WITH_TRANSFORM);
    assert_eq!(rows.len(), 60 * 4);
    let mut solver = sudoku_batch::Strategy::default().solver();
    for (i, copies) in rows.chunks(4).enumerate() {
        let original: Grid = puzzles[i].parse().unwrap();
        let solution = solver
            .solve(&original, sudoku_batch::Limits::count_to(2))
            .solution
            .unwrap();
        let mut seen = Vec::new();
        for (k, row) in copies.iter().enumerate() {
            assert_eq!(row[0], (i + 1).to_string());
            assert_eq!(row[1], k.to_string());
            let (p, s): (Grid, Grid) = (row[2].parse().unwrap(), row[3].parse().unwrap());
            assert_eq!((row[5].as_str(), row[6].as_str()), ("unique", ""));
            assert!(s.solves(&p), "line {}: {s} does not solve {p}", i + 1);
            assert_eq!(p.clue_count(), original.clue_count());
            // The transformation named is the one applied, to the puzzle and the solution.
            let t: Transform = row[4].parse().unwrap();
            assert_eq!(t.apply(&original), p, "{}", row[4]);
            assert_eq!(t.apply(&solution), s, "{}", row[4]);
            assert_eq!(t.inverse().apply(&p), original);
            seen.push(p);
        }
        seen.dedup();
        assert_eq!(
            seen.len(),
            4,
            "the 4 copies of line {} are not all new",
            i + 1
        );
    }
    // Without --with-transform, the same rows but that column.
    let plain = augment(&["--copies", "4", "--seed", "11"], &[&input]);
    let plain = self::rows(&plain.stdout, HEADER);
    let dropped: Vec<Vec<String>> = rows
        .into_iter()
        .map(|mut r| {
            r.remove(4);
            r
        })
        .collect();
    assert_eq!(plain, dropped);
}

#[test]
fn a_seed_gives_the_same_rows_whatever_the_threads_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample_file(dir.path(), 300);
    let run = |args: &[&str]| {
        let out = augment(args, &[&input]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let one = run(&["--copies", "3", "--seed", "5", "-j", "1"]);
    let many = run(&[
        "--copies",
        "3",
        "--seed",
        "5",
        "-j",
        "3",
        "--batch-size",
        "7",
    ]);
    assert_same(&one, &many, "-j 1 and -j 3");
    assert_ne!(one, run(&["--copies", "3", "--seed", "6"]));
    // The parts of a run concatenated (headers but the first dropped) are the whole run.
    let mut parts = String::new();
    for k in 0..3 {
        let part = run(&["--copies", "3", "--seed", "5", "--shard", &format!("{k}/3")]);
        let body = part.split_once('\n').unwrap().1;
        parts.push_str(if k == 0 { &part } else { body });
    }
    assert_same(&one, &parts, "the whole and its 3 shards");
    // Fewer copies are the first ones of more.
    let two = rows(run(&["--copies", "2", "--seed", "5"]).as_bytes(), HEADER);
    let three = rows(one.as_bytes(), HEADER);
    let firsts: Vec<_> = three.into_iter().filter(|r| r[1] != "2").collect();
    assert_eq!(two, firsts);
}

#[test]
fn records_not_augmented_get_one_row_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "mixed.txt", mixed_records());
    let out = augment(&["--copies", "2", "--seed", "1"], &[&input]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rows = rows(&out.stdout, HEADER);
    let by_line =
        |line: &str| -> Vec<&Vec<String>> { rows.iter().filter(|r| r[0] == line).collect() };
    // Line 2: a puzzle with one solution, two copies.
    assert_eq!(by_line("2").len(), 2);
    // Line 6: the empty grid, many solutions.
    let multiple = by_line("6");
    assert_eq!(multiple.len(), 1);
    assert_eq!(multiple[0][1..4], ["", &".".repeat(81), ""]);
    assert_eq!(
        multiple[0][4..],
        [
            "multiple",
            "more than one solution: only a puzzle with exactly one solution is augmented"
        ]
    );
    // Line 9: two 5s in row 1.
    assert_eq!(
        by_line("9")[0][4..],
        [
            "unsolvable",
            "digit 5 twice in row 1: only a puzzle with exactly one solution is augmented"
        ]
    );
    // Line 10: 80 cells; line 11: a bad character.
    assert_eq!(by_line("10")[0][4..], ["invalid", "80 cells, expected 81"]);
    assert_eq!(
        by_line("11")[0][4..],
        ["invalid", "cell 12: unexpected character 'x'"]
    );
    // Every record has its rows: as many lines as `solve` gives rows.
    let solved = bin().args(["solve", "-qq"]).arg(&input).output().unwrap();
    let solved = crate::util::rows(&solved);
    let lines = |rows: &[Vec<String>]| {
        let mut lines: Vec<u64> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
        lines.dedup();
        lines
    };
    assert_eq!(
        lines(&rows),
        solved.iter().map(|r| r.line).collect::<Vec<_>>()
    );
    let summary = bin()
        .args(["augment", "--copies", "2", "--seed", "1", "-q"])
        .arg(&input)
        .output()
        .unwrap();
    let text = stderr(&summary);
    assert!(text.contains("augmented into"), "{text}");
    assert!(text.contains("(seed 1)"), "{text}");
}

#[test]
fn every_output_format_holds_the_csv_rows() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample_file(dir.path(), 40);
    let args = ["--copies", "2", "--seed", "3", "--with-transform", "-o"];
    let csv_path = dir.path().join("a.csv");
    let out = bin()
        .args(["augment", "-qq"])
        .args(args)
        .arg(&csv_path)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let csv_rows = rows(&std::fs::read(&csv_path).unwrap(), HEADER_WITH_TRANSFORM);
    assert_eq!(csv_rows.len(), 80);

    let jsonl_path = dir.path().join("a.jsonl.gz");
    let out = bin()
        .args(["augment", "-qq"])
        .args(args)
        .arg(&jsonl_path)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&jsonl_path).unwrap()),
        &mut text,
    )
    .unwrap();
    let jsonl_rows: Vec<Vec<String>> = text
        .lines()
        .map(|line| {
            let object: serde_json::Value = serde_json::from_str(line).unwrap();
            let field = |name: &str| match &object[name] {
                serde_json::Value::Null => String::new(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::String(s) => s.clone(),
                other => panic!("{name}: {other}"),
            };
            assert!(object["copy"].is_u64(), "{line}");
            HEADER_WITH_TRANSFORM.split(',').map(field).collect()
        })
        .collect();
    assert_eq!(jsonl_rows, csv_rows);
    #[cfg(feature = "parquet")]
    {
        let path = dir.path().join("a.parquet");
        let out = bin()
            .args(["augment", "-qq"])
            .args(args)
            .arg(&path)
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(parquet_rows(&path), csv_rows);
    }
}

/// The rows of a Parquet output as text, checking that `line` and `copy` are numbers.
#[cfg(feature = "parquet")]
fn parquet_rows(path: &Path) -> Vec<Vec<String>> {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, UInt64Type};
    use arrow_schema::DataType;

    let (names, batches) = crate::util::parquet_batches(path);
    assert_eq!(names.join(","), HEADER_WITH_TRANSFORM);
    let mut rows = Vec::new();
    for batch in batches {
        assert_eq!(batch.column(0).data_type(), &DataType::UInt64);
        assert_eq!(batch.column(1).data_type(), &DataType::UInt64);
        for row in 0..batch.num_rows() {
            let fields = batch.columns().iter().map(|array| {
                if array.is_null(row) {
                    return String::new();
                }
                match array.data_type() {
                    DataType::UInt64 => array.as_primitive::<UInt64Type>().value(row).to_string(),
                    DataType::Utf8 => array.as_string::<i32>().value(row).to_string(),
                    _ => {
                        let dict = array.as_dictionary::<Int32Type>();
                        let key = dict.keys().value(row) as usize;
                        dict.values().as_string::<i32>().value(key).to_string()
                    }
                }
            });
            rows.push(fields.collect());
        }
    }
    rows
}

#[test]
fn careless_use_stops_before_anything_is_destroyed() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample_file(dir.path(), 5);
    let before = std::fs::read(&input).unwrap();
    // The output is the input.
    let out = bin()
        .args(["augment", "-qq", "--seed", "1", "-o"])
        .arg(&input)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the output is the input"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // No copies at all, and a compressed Parquet file, are refused before a file is made.
    let target = dir.path().join("out.csv");
    for bad in [
        &["--copies", "0"][..],
        &["--copies", "-1"],
        &["--seed", "x"],
    ] {
        let out = bin()
            .args(["augment", "-qq", "-o"])
            .arg(&target)
            .args(bad)
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(!target.exists(), "{bad:?} made the output");
    }
    let parquet_gz = dir.path().join("out.parquet.gz");
    let out = augment(&["-o", parquet_gz.to_str().unwrap()], &[&input]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!parquet_gz.exists());
}

#[test]
fn without_a_seed_one_is_drawn_and_printed() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample_file(dir.path(), 3);
    let out = augment(&["--copies", "2"], &[&input]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stderr(&out);
    let seed = text
        .lines()
        .find_map(|l| l.strip_prefix("sudoku-batch: seed "))
        .unwrap_or_else(|| panic!("no seed in {text}"));
    let again = augment(&["--copies", "2", "--seed", seed], &[&input]);
    assert_eq!(again.stdout, out.stdout);
}
