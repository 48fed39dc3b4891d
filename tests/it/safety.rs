//! Careless use must not lose data: an output that is the input by another route, two outputs
//! that are one file, two runs writing one file, a `--resume` that does not fit, thousands of
//! threads, a FIFO that never opens. Each test names the mistake it guards against.

use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::util::{PUZZLE, bin, exe, exits_within_10_s, gzip, sample, sample_puzzles, send};
use crate::util::{stderr, write};

/// A run refused with exit 2 whose message says `what`, the input left as it was.
fn assert_refused(out: &std::process::Output, what: &str, input: &Path, before: &[u8]) {
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(out);
    assert!(err.contains(what), "expected {what:?}: {err}");
    assert_eq!(
        std::fs::read(input).unwrap(),
        before,
        "the input is untouched"
    );
}

/// `sh -c SCRIPT` with `$BIN` the tool, in `dir`.
fn shell(dir: &Path, script: &str) -> std::process::Output {
    StdCommand::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("BIN", exe())
        .output()
        .unwrap()
}

#[test]
fn an_output_that_is_the_input_by_another_route_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = sample_puzzles()[..50].join("\n") + "\n";
    let input = write(dir.path(), "in.txt", &text);
    let packed = gzip(text.as_bytes());
    let gz = write(dir.path(), "in.txt.gz", &packed);
    std::os::unix::fs::symlink("in.txt", dir.path().join("link.txt")).unwrap();
    // Stdin redirected from the output, for `solve`, `validate` and a gzip input.
    let cases = [
        ("\"$BIN\" solve -o in.txt < in.txt", &input, text.as_bytes()),
        (
            "\"$BIN\" validate -o in.txt < in.txt",
            &input,
            text.as_bytes(),
        ),
        ("\"$BIN\" solve -o in.txt.gz < in.txt.gz", &gz, &packed[..]),
        // Stdout written or appended to the input.
        ("\"$BIN\" solve in.txt >> in.txt", &input, text.as_bytes()),
        (
            "\"$BIN\" solve - < in.txt >> in.txt",
            &input,
            text.as_bytes(),
        ),
        // The input named through a descriptor, the output through a link.
        (
            "\"$BIN\" solve /dev/fd/3 -o in.txt 3< in.txt",
            &input,
            text.as_bytes(),
        ),
        ("\"$BIN\" solve in.txt -o link.txt", &input, text.as_bytes()),
    ];
    for (script, file, before) in cases {
        let out = shell(dir.path(), script);
        assert_refused(&out, "is the input", file, before);
    }
}

#[test]
fn a_solutions_file_that_is_the_results_file_is_refused_before_anything_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{PUZZLE}\n"));
    let before = std::fs::read(&input).unwrap();
    // The same new file, and a dangling link to it.
    std::os::unix::fs::symlink("out.csv", dir.path().join("link.csv")).unwrap();
    for solutions in ["out.csv", "link.csv", "./out.csv"] {
        let out = shell(
            dir.path(),
            &format!("\"$BIN\" solve in.txt -o out.csv --emit-solutions {solutions}"),
        );
        assert_refused(
            &out,
            "the --emit-solutions file is the output",
            &input,
            &before,
        );
        assert!(
            !dir.path().join("out.csv").exists(),
            "{solutions}: nothing made"
        );
    }
    // Both on stdout, by name or by `-`.
    for solutions in ["/dev/stdout", "-"] {
        let out = shell(
            dir.path(),
            &format!("\"$BIN\" solve in.txt --emit-solutions {solutions} | cat"),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("the --emit-solutions file is the output"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "{solutions}: nothing written");
    }
    // `-` with results in a file: the solutions go to stdout.
    let out = shell(
        dir.path(),
        "\"$BIN\" solve in.txt -qq -o out.csv --emit-solutions -",
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("line,index,solution\n1,1,"), "{text}");
    assert!(!dir.path().join("-").exists(), "no file named -");
}

#[test]
fn an_unwritable_solutions_file_leaves_the_results_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{PUZZLE}\n"));
    let results = write(dir.path(), "results.csv", "precious\n");
    let out = bin()
        .args(["solve", "-o"])
        .arg(&results)
        .arg("--emit-solutions")
        .arg(dir.path().join("no/such/dir/s.csv"))
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("s.csv"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&results).unwrap(), b"precious\n");
}

#[test]
fn a_second_run_writing_the_same_output_stops_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let output = write(dir.path(), "out.csv", "old rows\n");
    // The first run holds the output and waits for its stdin, which the test keeps silent.
    let mut first = StdCommand::new(exe())
        .args(["solve", "-qq", "-o"])
        .arg(&output)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = first.stdin.take();
    std::thread::sleep(Duration::from_millis(500));
    let second = bin()
        .args(["solve", "-o"])
        .arg(&output)
        .arg(sample())
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2), "{second:?}");
    let err = stderr(&second);
    assert!(err.contains("another run is writing this file"), "{err}");
    assert!(err.contains(&format!("process {}", first.id())), "{err}");
    assert_eq!(
        std::fs::read(&output).unwrap(),
        b"old rows\n",
        "left as it was"
    );
    drop(stdin);
    let status = first.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&output).unwrap().lines().count(),
        1,
        "the first run's output: a header"
    );
}

#[test]
fn resume_refuses_other_options_an_edited_input_or_unknown_options() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = sample_puzzles();
    let text = puzzles[..200].join("\n") + "\n";
    let input = write(dir.path(), "in.txt", &text);
    let output = dir.path().join("out.csv");
    // An unfinished output, as a crash leaves it: half the rows, the options beside it.
    let full = bin()
        .args(["solve", "-o"])
        .arg(&output)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(0));
    let rows = std::fs::read(&output).unwrap();
    let half = &rows[..rows.len() / 2];
    let unfinished = || {
        std::fs::write(&output, half).unwrap();
        let mut config = sudoku_batch::pipeline::Config::new(
            sudoku_batch::pipeline::read::Source::Stdin,
            sudoku_batch::pipeline::Output::Path(output.clone()),
        );
        config.solve.limits.solutions = 2;
        sudoku_batch::pipeline::resume::RunOptions::of(&config)
            .record(&output)
            .unwrap();
    };
    let resume = |input: &Path, args: &[&str]| {
        bin()
            .args(["solve", "--resume", "-o"])
            .arg(&output)
            .args(args)
            .arg(input)
            .output()
            .unwrap()
    };
    let sidecar = dir.path().join("out.csv.resume.json");
    for (args, what) in [
        (
            &["--limit", "3"][..],
            "written with --limit 2, this run has --limit 3",
        ),
        (&["--solver", "backtrack"], "written with --solver fast"),
        (
            &["--max-guesses", "5"],
            "--max-guesses none, this run has --max-guesses 5",
        ),
        (&["--emit-solutions", "s.csv"], "--emit-solutions"),
    ] {
        unfinished();
        let out = resume(&input, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(stderr(&out).contains(what), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read(&output).unwrap(), half, "{args:?}: untouched");
    }
    // A changed puzzle among the rows kept, or a record inserted before them.
    let mut changed: Vec<String> = puzzles[..200].to_vec();
    changed[10] = changed[11].clone();
    let mut inserted: Vec<String> = puzzles[..200].to_vec();
    inserted.insert(3, PUZZLE.to_string());
    for (name, records) in [("changed.txt", changed), ("inserted.txt", inserted)] {
        unfinished();
        let edited = write(dir.path(), name, records.join("\n") + "\n");
        let out = resume(&edited, &[]);
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
        assert!(
            stderr(&out).contains("OUTPUT does not match INPUT"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read(&output).unwrap(), half, "{name}: untouched");
    }
    // The options file gone: the rows cannot be continued safely.
    unfinished();
    std::fs::remove_file(&sidecar).unwrap();
    let out = resume(&input, &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("are unknown"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&output).unwrap(), half);
    // With the options, the resumed file is the full one, and the options file stays beside
    // it, for a later --resume or merge to check.
    unfinished();
    let out = resume(&input, &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(sidecar.exists());
    let strip = crate::util::strip_times;
    assert_eq!(strip(&std::fs::read(&output).unwrap()), strip(&rows));
}

#[test]
fn thousands_of_threads_are_capped_with_a_warning() {
    let started = Instant::now();
    let out = bin()
        .args(["generate", "--count", "5", "--seed", "1", "-j", "3000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 5);
    assert!(
        stderr(&out).contains("-j 3000 is more than 4 threads per CPU"),
        "{}",
        stderr(&out)
    );
    let out = bin()
        .args(["solve", "-qq", "-j", "3000"])
        .arg(sample())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1004);
    assert!(started.elapsed() < Duration::from_secs(120), "no hang");
}

/// `mkfifo PATH`; false where there is no such command.
fn mkfifo(path: &Path) -> bool {
    StdCommand::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn ctrl_c_while_a_fifo_waits_for_its_writer_exits_promptly() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.fifo");
    if !mkfifo(&fifo) {
        return;
    }
    let mut child = StdCommand::new(exe())
        .args(["solve", "-q"])
        .arg(&fifo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    send("INT", &child);
    let status = exits_within_10_s(&mut child, "Ctrl-C");
    assert_eq!(status.code(), Some(130));
}

#[test]
fn a_fifo_output_whose_reader_quits_ends_the_run_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.fifo");
    if !mkfifo(&fifo) {
        return;
    }
    // A reader that takes the first few bytes and goes.
    let reader = StdCommand::new("head")
        .args(["-c", "100"])
        .arg(&fifo)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let out = bin()
        .args(["solve", "-q", "-o"])
        .arg(&fifo)
        .arg(sample())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(stderr(&out), "", "quiet, as a closed stdout is");
    let _ = reader.wait_with_output();
}

#[test]
fn solutions_stream_to_their_file_in_order_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    // Puzzles with one solution, the empty grid (many), and an invalid record between them.
    let mut text = String::new();
    for (i, p) in sample_puzzles().iter().take(300).enumerate() {
        text.push_str(p);
        text.push('\n');
        if i % 50 == 7 {
            text.push_str(&".".repeat(81));
            text.push_str("\nnot a puzzle\n");
        }
    }
    let input = write(dir.path(), "in.txt", &text);
    let run = |threads: &str| {
        let (r, s) = (
            dir.path().join(format!("r{threads}.csv")),
            dir.path().join(format!("s{threads}.csv")),
        );
        let out = bin()
            .args([
                "solve",
                "-qq",
                "--limit",
                "3000",
                "-j",
                threads,
                "--batch-size",
                "16",
                "-o",
            ])
            .arg(&r)
            .arg("--emit-solutions")
            .arg(&s)
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        std::fs::read_to_string(s).unwrap()
    };
    let one = run("1");
    assert_eq!(
        one.lines().count(),
        1 + 300 + 6 * 3000,
        "every solution, once"
    );
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
    let mut last = (0u64, 0u64);
    for row in one.lines().skip(1) {
        let mut fields = row.split(',');
        let line: u64 = fields.next().unwrap().parse().unwrap();
        let index: u64 = fields.next().unwrap().parse().unwrap();
        assert!(
            (line, index) == (last.0, last.1 + 1) || (line > last.0 && index == 1),
            "in order: {row} after {last:?}"
        );
        last = (line, index);
    }
}

#[test]
fn the_summary_does_not_count_aborted_searches_as_settled() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "empty.txt",
        format!("{}\n", ".".repeat(81)).repeat(5),
    );
    let out = bin()
        .args(["solve", "-q", "--max-guesses", "0"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert!(err.contains("aborted 5"), "{err}");
    assert!(err.contains(", 0.0% settled without guessing"), "{err}");
}
