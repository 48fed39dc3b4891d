//! Interruption: Ctrl-C / SIGTERM leave a valid CSV whose rows are a prefix of the full result
//! and exit 130 (`generate`: whole lines, a prefix of its full output), also when the run is
//! blocked on a full pipe, an endless search or an idle stdin. Resuming such a file: `resume`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::util::{HEADER, assert_same, bin, exe, exits_within_10_s, sample};
use crate::util::{send, solve, strip_times, write};

/// The uninterrupted result of `input`, time column blanked.
pub(crate) fn full_run(input: &Path) -> String {
    let out = solve(&[], input);
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    strip_times(&out.stdout)
}

/// Starts a solve of `input` into `output`, waits for some rows to appear, sends `signal` and
/// returns the exit code and stderr.
pub(crate) fn interrupt(input: &Path, output: &Path, signal: &str) -> (Option<i32>, String) {
    let args = ["solve", "-q", "--batch-size", "64", "-j", "2"];
    interrupt_run(&args, input, output, signal)
}

/// Runs `sudoku-batch ARGS -o OUTPUT INPUT`, waits until `output` holds 2,000 bytes (some
/// rows), sends `signal` and returns the exit code and stderr.
fn interrupt_run(
    args: &[&str],
    input: &Path,
    output: &Path,
    signal: &str,
) -> (Option<i32>, String) {
    let mut args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    args.extend([OsStr::new("-o"), output.as_os_str(), input.as_os_str()]);
    signal_when_written(&args, output, 2000, signal)
}

/// Runs `sudoku-batch ARGS`, waits until `output` holds at least `min_bytes`, sends it
/// `signal` (`INT`, `TERM`), and returns the exit code and stderr.
fn signal_when_written(
    args: &[&OsStr],
    output: &Path,
    min_bytes: u64,
    signal: &str,
) -> (Option<i32>, String) {
    let child = StdCommand::new(exe())
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::metadata(output).map_or(0, |m| m.len()) < min_bytes {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no output after 60 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    send(signal, &child);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `copies` copies of the sample corpus: long enough that a debug build is still running when
/// the signal comes.
pub(crate) fn big_input(dir: &Path, copies: usize) -> PathBuf {
    let text = std::fs::read_to_string(sample()).unwrap();
    write(dir, "big.txt", text.repeat(copies))
}

#[test]
fn sigint_and_sigterm_leave_a_prefix_of_the_full_result_and_exit_130() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input(dir.path(), 40);
    for signal in ["INT", "TERM"] {
        let output = dir.path().join(format!("out-{signal}.csv"));
        let (code, stderr) = interrupt(&input, &output, signal);
        assert_eq!(code, Some(130), "SIG{signal}: {stderr}");
        assert!(
            stderr.contains("interrupted"),
            "the summary so far: {stderr}"
        );
        let bytes = std::fs::read(&output).unwrap();
        assert!(bytes.ends_with(b"\n"), "no partial last row");
        let got = strip_times(&bytes);
        let rows = got.lines().count() - 1;
        assert!(rows > 0 && rows < 40 * 1003, "{rows} rows");
        // The expected prefix: an uninterrupted run over the input up to the line of the last
        // row (records are single lines here, so line numbers agree).
        let last_line: usize = got
            .lines()
            .last()
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let text = std::fs::read_to_string(&input).unwrap();
        let first: Vec<&str> = text.lines().take(last_line).collect();
        let head = write(dir.path(), "head.txt", first.join("\n") + "\n");
        assert_same(&got, &full_run(&head), &format!("SIG{signal} prefix"));
    }
}

#[test]
fn sigint_with_one_thread_leaves_whole_rows_in_order() {
    // One worker, small batches, slow puzzles: the stop comes in the middle of a batch, and
    // every row written before it is whole and in order.
    let dir = tempfile::tempdir().unwrap();
    let records = 2000;
    let empty_grid = format!("{}\n", ".".repeat(81));
    let input = write(dir.path(), "empty-grids.txt", empty_grid.repeat(records));
    let output = dir.path().join("out.csv");
    let args = [
        "solve",
        "-q",
        "-j",
        "1",
        "--batch-size",
        "4",
        "--limit",
        "20000",
    ];
    let (code, stderr) = interrupt_run(&args, &input, &output, "INT");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    let text = strip_times(&std::fs::read(&output).unwrap());
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert!(rows.len() < records, "stopped early: {} rows", rows.len());
    assert!(!rows.is_empty(), "some rows were written");
    for (i, row) in rows.iter().enumerate() {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[0], (i + 1).to_string(), "in order");
        assert_eq!((fields[2], fields[3]), ("multiple", "20000"), "{row}");
    }
}

/// A run whose writes to a full pipe block cannot end as usual at the first signal: it exits
/// with 130 all the same, soon after (SIGHUP here, which counts as well).
#[test]
fn the_first_signal_ends_a_run_blocked_on_a_full_pipe() {
    // The rows of the sample are more than a pipe holds, and nobody reads the pipe.
    let mut child = StdCommand::new(exe())
        .args(["solve", "-q"])
        .arg(sample())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    send("HUP", &child);
    let status = exits_within_10_s(&mut child, "the first signal");
    assert_eq!(status.code(), Some(130));
}

/// The first signal stops a search that would run for days, with every strategy: the row of
/// the puzzle in hand is not written, and the options stay beside the unfinished output for
/// `--resume`.
#[test]
fn the_first_signal_stops_an_endless_search() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "empty-grid.txt",
        format!("{}\n", ".".repeat(81)),
    );
    let output = dir.path().join("out.csv");
    for solver in ["fast", "backtrack", "candidates", "bitmask", "singles"] {
        // Counting the empty grid's solutions to a trillion takes far longer than this test.
        let mut child = StdCommand::new(exe())
            .args([
                "solve",
                "-q",
                "--limit",
                "1000000000000",
                "--solver",
                solver,
                "-o",
            ])
            .arg(&output)
            .arg(&input)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        send("INT", &child);
        let status = exits_within_10_s(&mut child, "Ctrl-C");
        assert_eq!(status.code(), Some(130), "{solver}");
        let text = std::fs::read_to_string(&output).unwrap();
        assert_eq!(text.lines().count(), 1, "{solver}: only the header: {text}");
        assert!(
            dir.path().join("out.csv.resume.json").exists(),
            "{solver}: the options stay beside the unfinished output"
        );
    }
}

/// A reader blocked on an idle stdin does not keep the process alive after Ctrl-C.
#[test]
fn sigint_while_stdin_is_idle_exits_promptly() {
    let mut child = StdCommand::new(exe())
        .args(["solve", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _stdin = child.stdin.take(); // kept open and silent
    std::thread::sleep(Duration::from_millis(500));
    send("INT", &child);
    let status = exits_within_10_s(&mut child, "SIGINT");
    assert_eq!(status.code(), Some(130));
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{HEADER}\n"));
}

#[test]
fn sigint_stops_validate_cleanly_too() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input(dir.path(), 40);
    let output = dir.path().join("report.csv");
    let args = ["validate", "--all", "-q", "--batch-size", "64", "-j", "2"];
    let (code, stderr) = interrupt_run(&args, &input, &output, "INT");
    assert_eq!(code, Some(130), "{stderr}");
    let bytes = std::fs::read(&output).unwrap();
    assert!(bytes.ends_with(b"\n"), "no partial last row");
    let rows = bytes.iter().filter(|&&b| b == b'\n').count() - 1;
    assert!(rows > 0 && rows < 40 * 1003, "{rows} rows");
}

/// `generate` stops between puzzles on SIGINT or SIGTERM: every line written is a whole
/// puzzle, together they are a prefix of the uninterrupted output for the same seed, the
/// summary so far is printed and the exit code is 130.
#[test]
fn sigint_and_sigterm_stop_generate_after_a_whole_line() {
    let dir = tempfile::tempdir().unwrap();
    let count: usize = 10_000_000; // far more than can be made before the signal
    for signal in ["INT", "TERM"] {
        let output = dir.path().join(format!("puzzles-{signal}.txt"));
        let n = count.to_string();
        let args = ["generate", "-q", "--seed", "11", "-j", "2", "-n", &n, "-o"];
        let mut args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        args.push(output.as_os_str());
        // Output is flushed chunk by chunk: wait for the first one.
        let (code, stderr) = signal_when_written(&args, &output, 1, signal);
        assert_eq!(code, Some(130), "SIG{signal}: {stderr}");
        assert!(
            stderr.contains("puzzles in") && stderr.contains(", interrupted"),
            "SIG{signal}: the summary so far: {stderr}"
        );
        let text = std::fs::read_to_string(&output).unwrap();
        assert!(text.ends_with('\n'), "SIG{signal}: no partial last line");
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            !lines.is_empty() && lines.len() < count,
            "SIG{signal}: {} lines",
            lines.len()
        );
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(line.len(), 81, "SIG{signal}: line {}: {line:?}", i + 1);
        }
        let full = bin()
            .args(["generate", "-q", "--seed", "11", "-n"])
            .arg(lines.len().to_string())
            .output()
            .unwrap();
        assert_eq!(full.status.code(), Some(0));
        assert_same(
            &text,
            &String::from_utf8(full.stdout).unwrap(),
            &format!("SIG{signal}: generate prefix"),
        );
    }
}
