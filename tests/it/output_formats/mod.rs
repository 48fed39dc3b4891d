//! The output formats: JSON lines, Parquet and compressed CSV or JSON lines hold exactly the
//! rows CSV holds, one per input record, with several inputs too; `--emit-solutions` follows
//! the results' format; an interrupted or empty run leaves a readable file; options that do
//! not fit the output exit 2 before any file is created or emptied. Every output is read back
//! by its content (magic bytes, then the first character), not by its name, so that a name
//! that picks the wrong format fails.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::util::{PUZZLE as P, bin, exe, gzip, sample, sample_puzzles, stderr, write};

mod table;
use table::table;

/// The outputs each format is tried with: a name, the options, the format it must hold.
fn formats() -> Vec<(&'static str, &'static [&'static str], &'static str)> {
    let mut formats: Vec<(&str, &[&str], &str)> = vec![
        ("r.jsonl", &[], "jsonl"),
        ("r.ndjson", &[], "jsonl"),
        ("r.out", &["--output-format", "jsonl"], "jsonl"),
        ("r.csv.gz", &[], "csv.gz"),
        ("r.jsonl.gz", &[], "jsonl.gz"),
        ("r.csv.zst", &[], "csv.zst"),
        ("r.txt", &["--output-format", "csv"], "csv"),
    ];
    if cfg!(feature = "parquet") {
        formats.push(("r.parquet", &[], "parquet"));
        formats.push(("r.bin", &["--output-format", "parquet"], "parquet"));
    }
    formats
}

/// `data/sample.txt` (1,003 unique puzzles) with an empty grid (many solutions) and two
/// invalid records added, written to `dir`.
fn sample_input(dir: &Path) -> PathBuf {
    let mut text = std::fs::read_to_string(sample()).unwrap();
    text.push_str(&format!("{}\n12x\n\"quoted\",here\n", ".".repeat(81)));
    write(dir, "in.txt", text)
}

/// Runs `sudoku-batch COMMAND -qq -j 2 -o OUTPUT ARGS INPUTS`, which must exit with `code`.
fn run_into(command: &str, output: &Path, args: &[&str], inputs: &[PathBuf], code: i32) {
    let out = bin()
        .args([command, "-qq", "-j", "2", "-o"])
        .arg(output)
        .args(args)
        .args(inputs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(code), "{}", stderr(&out));
}

#[test]
fn every_format_holds_the_csv_rows() {
    let dir = tempfile::tempdir().unwrap();
    let input = [sample_input(dir.path())];
    let csv_path = dir.path().join("r.csv");
    run_into("solve", &csv_path, &[], &input, 1);
    let csv = table(&csv_path).without("time_ns");
    assert_eq!(csv.rows.len(), 1006, "one row per record");
    for (name, args, format) in formats() {
        let path = dir.path().join(name);
        run_into("solve", &path, args, &input, 1);
        let got = table(&path);
        assert_eq!(got.format, format, "{name}");
        assert_eq!(got.header, table(&csv_path).header, "{name}");
        let got = got.without("time_ns");
        assert_eq!(got.rows, csv.rows, "{name}");
    }
}

#[test]
fn every_record_is_one_row_in_every_format_across_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = sample_puzzles();
    let a = write(dir.path(), "a.txt", format!("# c\n{P}\n\nxyz\n{P} extra\n"));
    let b = write(dir.path(), "b.csv", format!("id;quiz\n1;{P}\n2;bad\n"));
    let c = write(
        dir.path(),
        "c.txt.gz",
        gzip((puzzles[..50].join("\n") + "\n").as_bytes()),
    );
    let inputs = [a.clone(), b.clone(), c.clone()];
    let name = |p: &PathBuf| p.display().to_string();
    let mut want: Vec<(String, String)> = [(&a, 2), (&a, 4), (&a, 5), (&b, 2), (&b, 3)]
        .iter()
        .map(|(p, line)| (name(p), line.to_string()))
        .collect();
    want.extend((1..=50).map(|line| (name(&c), line.to_string())));
    let csv_path = dir.path().join("r.csv");
    run_into("solve", &csv_path, &[], &inputs, 1);
    let csv = table(&csv_path).without("time_ns");
    for (out, args, format) in formats().into_iter().chain([("r.csv", &[][..], "csv")]) {
        let path = dir.path().join(out);
        run_into("solve", &path, args, &inputs, 1);
        let got = table(&path).without("time_ns");
        assert_eq!(got.format, format, "{out}");
        assert_eq!(got.header[..2], ["file", "line"], "{out}");
        let pairs: Vec<(String, String)> = got
            .column("file")
            .into_iter()
            .zip(got.column("line"))
            .map(|(f, l)| (f.to_string(), l.to_string()))
            .collect();
        assert_eq!(pairs, want, "{out}");
        assert_eq!(got.rows, csv.rows, "{out}");
    }
}

#[test]
fn emitted_solutions_follow_the_output_format() {
    let dir = tempfile::tempdir().unwrap();
    let input = [sample_input(dir.path())];
    let results = dir.path().join("r.csv");
    let solutions = dir.path().join("s.csv");
    let emit = |results: &Path, solutions: &Path| {
        let s = solutions.to_str().unwrap();
        run_into(
            "solve",
            results,
            &["--limit", "3", "--emit-solutions", s],
            &input,
            1,
        );
    };
    emit(&results, &solutions);
    let want = table(&solutions);
    assert_eq!(want.header, ["line", "index", "solution"]);
    assert_eq!(
        want.rows.len(),
        1003 + 3,
        "one per unique puzzle, 3 of the empty grid"
    );
    // No name of its own: the results' format (not their compression); else its name's.
    let mut cases = vec![
        ("r.jsonl", "s.out", "jsonl"),
        ("r.csv.gz", "s.out", "csv"),
        ("r.jsonl", "s.csv.zst", "csv.zst"),
        ("r.csv", "s.jsonl.gz", "jsonl.gz"),
    ];
    if cfg!(feature = "parquet") {
        cases.extend([
            ("r.parquet", "s.out", "parquet"),
            ("r.csv", "s.parquet", "parquet"),
            ("r.parquet", "s.jsonl", "jsonl"),
        ]);
    }
    for (results, solutions, format) in cases {
        let s = dir.path().join(solutions);
        emit(&dir.path().join(results), &s);
        let got = table(&s);
        assert_eq!(got.format, format, "{results} {solutions}");
        assert_eq!(
            (&got.header, &got.rows),
            (&want.header, &want.rows),
            "{results} {solutions}"
        );
    }
}

#[test]
fn validate_reports_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let input = [sample_input(dir.path())];
    let csv_path = dir.path().join("r.csv");
    run_into("validate", &csv_path, &["--all"], &input, 1);
    let csv = table(&csv_path).without("time_ns");
    assert_eq!(csv.header.last().map(String::as_str), Some("problem"));
    assert_eq!(csv.rows.len(), 1006);
    for (name, args, format) in formats() {
        let path = dir.path().join(name);
        run_into("validate", &path, &[&["--all"], args].concat(), &input, 1);
        let got = table(&path).without("time_ns");
        assert_eq!(got.format, format, "{name}");
        assert_eq!((&got.header, &got.rows), (&csv.header, &csv.rows), "{name}");
    }
}

#[test]
fn an_empty_run_leaves_a_readable_file_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let empty = [write(dir.path(), "empty.txt", "# nothing\n")];
    for (name, args, format) in formats() {
        let path = dir.path().join(name);
        run_into("solve", &path, args, &empty, 0);
        let got = table(&path);
        assert_eq!(got.format, format, "{name}");
        assert!(got.rows.is_empty(), "{name}");
    }
}

#[test]
fn an_interrupted_run_leaves_a_readable_prefix_in_every_format() {
    // Slow records (empty grids, 20,000 solutions each) on one worker: the signal comes while
    // rows are still being written, and the rows before it must be whole and in order.
    let dir = tempfile::tempdir().unwrap();
    let records = 2000;
    let input = write(
        dir.path(),
        "empty-grids.txt",
        format!("{}\n", ".".repeat(81)).repeat(records),
    );
    for (name, args, format) in formats() {
        let path = dir.path().join(name);
        let mut child = StdCommand::new(exe())
            .args(["solve", "-q", "-j", "1", "--batch-size", "4"])
            .args(["--limit", "20000", "-o"])
            .arg(&path)
            .args(args)
            .arg(&input)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Parquet holds its rows until a row group fills or the run ends: wait for the file,
        // then long enough for some batches.
        let started = Instant::now();
        while !path.exists() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "{name}: no file"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(300));
        let kill = StdCommand::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(10) {
                child.kill().unwrap();
                panic!("{name}: still running 10 s after SIGINT");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(status.code(), Some(130), "{name}: {err}");
        let got = table(&path);
        assert_eq!(got.format, format, "{name}");
        assert!(
            !got.rows.is_empty() && got.rows.len() < records,
            "{name}: {} rows",
            got.rows.len()
        );
        let lines: Vec<String> = (1..=got.rows.len()).map(|l| l.to_string()).collect();
        assert_eq!(got.column("line"), lines, "{name}: in order");
        assert!(
            got.column("status").iter().all(|&s| s == "multiple"),
            "{name}"
        );
    }
}

#[test]
fn options_that_do_not_fit_the_output_exit_2_before_any_file_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample_input(dir.path());
    let old = write(dir.path(), "old.csv", "precious\n");
    let old_jsonl = write(dir.path(), "old.jsonl", "precious\n");
    let old_gz = write(dir.path(), "old.csv.gz", "precious\n");
    let old_parquet = write(dir.path(), "old.parquet", "precious\n");
    let new = |name: &str| dir.path().join(name).display().to_string();
    let path = |p: &PathBuf| p.display().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["-o".into(), new("r.parquet.gz")],
            "Parquet compresses its own pages",
        ),
        (
            vec![
                "-o".into(),
                new("r.csv.zst"),
                "--output-format".into(),
                "parquet".into(),
            ],
            "Parquet compresses its own pages",
        ),
        (
            vec![
                "-o".into(),
                path(&old),
                "--emit-solutions".into(),
                new("s.parquet.gz"),
            ],
            "Parquet compresses its own pages",
        ),
        (
            vec!["-o".into(), path(&old_jsonl), "--resume".into()],
            "only a plain CSV output can be resumed",
        ),
        (
            vec!["-o".into(), path(&old_gz), "--resume".into()],
            "only a plain CSV output can be resumed",
        ),
        (
            vec!["-o".into(), path(&old_parquet), "--resume".into()],
            "only a plain CSV output can be resumed",
        ),
        (
            vec![
                "-o".into(),
                path(&old),
                "--resume".into(),
                "--emit-solutions".into(),
                new("s.jsonl"),
            ],
            "only a plain CSV output can be resumed",
        ),
        (
            vec![
                "-o".into(),
                path(&old),
                "--output-format".into(),
                "xml".into(),
            ],
            "invalid value 'xml'",
        ),
        (
            vec!["-o".into(), path(&old), "--delimiter".into(), ";;".into()],
            "a delimiter is one character",
        ),
        (
            vec!["-o".into(), path(&old), "--delimiter".into(), ";".into()],
            "--delimiter needs CSV input",
        ),
        (
            vec!["-o".into(), path(&old), "--glob".into(), "*.txt".into()],
            "--glob needs a directory",
        ),
    ];
    let before: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    for (args, what) in cases {
        let out = bin()
            .args(["solve", "-q"])
            .args(&args)
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(what), "{args:?}: {}", stderr(&out));
        let mut after: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                let bytes = std::fs::read(&p).unwrap();
                (p, bytes)
            })
            .collect();
        after.sort();
        let mut want = before.clone();
        want.sort();
        assert_eq!(after, want, "{args:?}: a file was created or changed");
    }
}
