//! `bench`: one row per file and solver, from the same inputs `solve` reads.

use std::path::Path;

use crate::util::{bin, data, gzip, sample, write};

#[test]
fn bench_reports_one_row_per_file_and_solver() {
    let out = bin()
        .args([
            "bench",
            "--runs",
            "2",
            "--csv",
            "--solver",
            "fast,singles,fast",
        ])
        .arg(sample())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(
        rows.len(),
        2,
        "repeated solver names are measured once:\n{text}"
    );
    assert_eq!((&rows[0][1], &rows[1][1]), ("fast", "singles"));
    for r in &rows {
        assert_eq!((&r[0], &r[2]), ("sample.txt", "1003"));
        let rate: f64 = r[4].parse().unwrap();
        assert!(rate > 0.0);
    }
    let out = bin().args(["bench", "no/such/file"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `bench` reads what `solve` reads: CSV with its puzzle column found by name or given with
/// --column, gzip (detected by content), and counts records that are not puzzles.
#[test]
fn bench_reads_csv_and_gzip_like_solve() {
    let bench = |args: &[&str], file: &Path| {
        let out = bin()
            .args(["bench", "--runs", "1", "--csv"])
            .args(args)
            .arg(file)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code(), text, out.stderr)
    };
    // file, puzzles, invalid (columns 0, 2 and 3 of the CSV)
    let fields = |text: &str| {
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let r = reader.records().next().expect("one row").unwrap();
        (r[0].to_string(), r[2].to_string(), r[3].to_string())
    };
    let (code, text, _) = bench(&[], &data("kaggle_puzzle.csv"));
    assert_eq!(code, Some(0));
    assert_eq!(
        fields(&text),
        ("kaggle_puzzle.csv".into(), "20".into(), "0".into())
    );
    let (code, text, _) = bench(&["--column", "1"], &data("kaggle_puzzle.csv"));
    assert_eq!(code, Some(0));
    assert_eq!(fields(&text).1, "20");
    // --column is honoured: the `id` column holds no puzzle, so every record is invalid.
    let (code, text, _) = bench(&["--column", "id"], &data("kaggle_puzzle.csv"));
    assert_eq!(code, Some(0), "invalid records are counted, not fatal");
    assert_eq!(
        (fields(&text).1, fields(&text).2),
        ("0".into(), "20".into())
    );
    let (code, _, stderr) = bench(&["--column", "nope"], &data("kaggle_puzzle.csv"));
    assert_eq!(code, Some(2), "a column not in the header is a usage error");
    assert!(String::from_utf8_lossy(&stderr).contains("\"nope\" not found"));

    let dir = tempfile::tempdir().unwrap();
    let kaggle = std::fs::read(data("kaggle_quizzes.csv")).unwrap();
    let csv_gz = write(dir.path(), "kaggle.csv.gz", gzip(&kaggle));
    let (code, text, _) = bench(&[], &csv_gz);
    assert_eq!(code, Some(0));
    assert_eq!(
        fields(&text),
        ("kaggle.csv.gz".into(), "20".into(), "0".into())
    );
    let mixed = std::fs::read(data("mixed.txt")).unwrap();
    let plain = bench(&[], &data("mixed.txt"));
    let packed = bench(&[], &write(dir.path(), "mixed.txt.gz", gzip(&mixed)));
    assert_eq!((plain.0, packed.0), (Some(0), Some(0)));
    let (plain, packed) = (fields(&plain.1), fields(&packed.1));
    assert_ne!(plain.2, "0", "mixed.txt has invalid records");
    assert_eq!((&plain.1, &plain.2), (&packed.1, &packed.2));
}
