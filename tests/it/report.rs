//! `report`: the page and the JSON made from the outputs of `solve` and `grade` of small
//! corpora, its refusals (exit 2, nothing written), and the page as Debian's headless
//! Chromium renders it (skipped, with the reason printed, when no Chromium is installed,
//! except in CI).

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use crate::util::{bin, data, sample, sample_puzzles, stderr, write};

/// Runs `args` and checks that it succeeds quietly.
fn run_ok(args: &[&str]) {
    let out = bin().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
}

/// The counts of each value of column `name` in the CSV file at `path`, counted with the csv
/// crate.
fn column_counts(path: &Path, name: &str) -> Vec<(String, u64)> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let at = reader
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == name)
        .unwrap();
    let mut counts: Vec<(String, u64)> = Vec::new();
    for row in reader.records() {
        let value = row.unwrap()[at].to_string();
        match counts.iter_mut().find(|(v, _)| *v == value) {
            Some((_, n)) => *n += 1,
            None => counts.push((value, 1)),
        }
    }
    counts.sort();
    counts
}

/// Solve and grade outputs of the sample corpus (the first `graded` puzzles graded, to keep
/// the test quick), with the records of `mixed.txt` for failures.
fn outputs(dir: &Path, graded: usize) -> (PathBuf, PathBuf) {
    let solved = dir.join("solved.csv");
    let input = write(
        dir,
        "corpus.txt",
        [
            std::fs::read(sample()).unwrap(),
            std::fs::read(data("mixed.txt")).unwrap(),
        ]
        .concat(),
    );
    let mut graded_text = sample_puzzles()[..graded].join("\n");
    graded_text.push('\n');
    let to_grade = write(dir, "to_grade.txt", graded_text);
    let graded = dir.join("graded.jsonl.gz");
    let (i, s, g) = (
        input.to_str().unwrap(),
        solved.to_str().unwrap(),
        graded.to_str().unwrap(),
    );
    // Exit 1: the corpus holds invalid records.
    let out = bin().args(["solve", "-qq", i, "-o", s]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    run_ok(&["grade", "-qq", to_grade.to_str().unwrap(), "-o", g]);
    (solved, graded)
}

#[test]
fn report_of_solve_and_grade_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let (solved, graded) = outputs(dir.path(), 150);
    let page = dir.path().join("page.html");
    let json = dir.path().join("numbers.json");
    let p = |p: &Path| p.to_str().unwrap().to_string();
    run_ok(&[
        "report",
        &p(&solved),
        &p(&graded),
        "-o",
        &p(&page),
        "--json",
        &p(&json),
    ]);
    let numbers: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let solve = &numbers["inputs"][0];
    assert_eq!(solve["command"], "solve");
    let statuses = column_counts(&solved, "status");
    let records: u64 = statuses.iter().map(|s| s.1).sum();
    assert_eq!(solve["records"], records);
    let mut reported: Vec<(String, u64)> = solve["statuses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s[0].as_str().unwrap().to_string(), s[1].as_u64().unwrap()))
        .collect();
    reported.sort();
    assert_eq!(reported, statuses);
    let grade = &numbers["inputs"][1];
    assert_eq!(grade["command"], "grade");
    assert_eq!(grade["records"], 150);
    assert_eq!(grade["grading"]["rated"], 150);
    assert_eq!(grade["grading"]["hardest"].as_array().unwrap().len(), 10);

    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Self-contained: nothing fetched, no script.
    for outside in ["<script", "<link", "src=", "url(", "href=\"http"] {
        assert!(!html.contains(outside), "the page holds {outside}");
    }
    let charts = html.matches("<svg").count();
    // Clues; guesses and time (histogram and cumulative each); ER stacked and ER/EP/ED.
    assert_eq!(charts, 7, "charts in the page");
    assert_eq!(html.matches("role=\"img\"").count(), charts);
    assert_eq!(
        html.matches("<summary>The numbers</summary>").count(),
        charts
    );
    assert!(html.contains("sudoku-batch explain --logic "));
    assert!(
        html.contains("digit 5 twice in row 1"),
        "a failed record's reason"
    );
    assert!(html.contains("prefers-color-scheme: dark"));
}

#[test]
fn two_corpora_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = sample_puzzles();
    let (easy, hard) = puzzles.split_at(500);
    let a = write(dir.path(), "a.txt", easy.join("\n"));
    let b = write(dir.path(), "b.txt", hard.join("\n"));
    let (ra, rb) = (dir.path().join("a.parquet"), dir.path().join("b.csv.zst"));
    let p = |p: &Path| p.to_str().unwrap().to_string();
    run_ok(&["solve", "-qq", &p(&a), "-o", &p(&ra)]);
    run_ok(&["solve", "-qq", &p(&b), "-o", &p(&rb)]);
    let page = dir.path().join("page.html");
    let json = dir.path().join("n.json");
    run_ok(&[
        "report",
        &p(&ra),
        &p(&rb),
        "-o",
        &p(&page),
        "--json",
        &p(&json),
    ]);
    let numbers: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let records = numbers["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["measure"] == "records")
        .unwrap();
    assert_eq!(records["values"], serde_json::json!([500.0, 503.0]));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<section id=\"differences\">"));
    // Both on the same axes: one legend entry per input in the guesses histogram.
    assert_eq!(html.matches("<svg").count(), 5);
}

#[test]
fn bad_results_and_outputs_that_are_inputs_stop_with_exit_2_before_any_file_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = write(dir.path(), "puzzles.csv", "puzzle,solution\n1.2,123\n");
    let page = dir.path().join("page.html");
    let out = bin()
        .args([
            "report",
            wrong.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(
        message.contains("puzzles.csv: is no output of solve, validate or grade"),
        "{message}"
    );
    assert!(!page.exists(), "no page is made");

    let results = dir.path().join("results.csv");
    run_ok(&[
        "solve",
        "-qq",
        data("sound.txt").to_str().unwrap(),
        "-o",
        results.to_str().unwrap(),
    ]);
    let before = std::fs::read(&results).unwrap();
    let r = results.to_str().unwrap();
    for args in [
        vec!["report", r, "-o", r],
        vec!["report", r, "-o", page.to_str().unwrap(), "--json", r],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("one of the RESULTS"),
            "{}",
            stderr(&out)
        );
        assert_eq!(
            std::fs::read(&results).unwrap(),
            before,
            "the results are untouched"
        );
    }
    assert!(!page.exists());
}

/// Debian's Chromium, when installed.
fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            })
        })
}

/// Runs headless Chromium on `url` with `args`, within a minute; its stdout and stderr.
fn headless(chromium: &Path, profile: &Path, args: &[String]) -> (String, String) {
    let out = StdCommand::new("timeout")
        .arg("60")
        .arg(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--enable-logging=stderr",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "chromium: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_page_renders_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI must have Chromium (.ci/run installs it)"
        );
        eprintln!("skipped: no chromium on PATH (apt-get install chromium)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (solved, graded) = outputs(dir.path(), 100);
    let page = dir.path().join("page.html");
    let p = |p: &Path| p.to_str().unwrap().to_string();
    run_ok(&["report", &p(&solved), &p(&graded), "-o", &p(&page)]);
    let url = format!("file://{}", page.display());
    let profile = tempfile::tempdir().unwrap();
    let (dom, log) = headless(
        &chromium,
        profile.path(),
        &["--dump-dom".into(), url.clone()],
    );
    // Loaded whole, with every chart in the document and drawn.
    assert!(
        dom.contains("<h1>Report: 2 results files</h1>"),
        "{}",
        &dom[..dom.len().min(500)]
    );
    assert!(dom.trim_end().ends_with("</html>"));
    let svgs = dom.matches("<svg").count();
    assert_eq!(svgs, 7, "charts in the DOM");
    assert!(dom.matches("<rect").count() > 50, "bars in the charts");
    assert!(
        dom.matches("<polyline").count() >= 2,
        "lines of the cumulative charts"
    );
    for error in [
        "Uncaught",
        "Failed to load resource",
        "net::ERR_",
        "CONSOLE",
    ] {
        assert!(!log.contains(error), "chromium logged {error}: {log}");
    }
    // A screenshot, kept as an artifact of the build.
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report");
    std::fs::create_dir_all(&shots).unwrap();
    let png = shots.join("report.png");
    let _ = std::fs::remove_file(&png);
    headless(
        &chromium,
        profile.path(),
        &[
            "--window-size=1280,2400".into(),
            format!("--screenshot={}", png.display()),
            url,
        ],
    );
    let bytes = std::fs::read(&png).unwrap();
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 20_000,
        "{}",
        bytes.len()
    );
    eprintln!("screenshot: {}", png.display());
}
