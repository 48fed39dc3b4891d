//! `solve`'s rows, exit code and summary do not depend on how the work is shared out: thread
//! count, batch size, file or stdin, small or large input, and which batch finishes first.

use std::path::Path;

use assert_cmd::Command;

use crate::util::{assert_same, bin, exe, mixed_records, rows, sample, sample_puzzles, solve};
use crate::util::{strip_times, write};

/// Runs `cmd` on `input`, or on `stdin` when given, and returns its exit code, its rows
/// without times and its summary without the first line (which holds the times).
fn run_on(
    mut cmd: Command,
    input: &Path,
    stdin: Option<&[u8]>,
) -> (Option<i32>, String, Vec<String>) {
    match stdin {
        Some(bytes) => cmd.arg("-").write_stdin(bytes.to_vec()),
        None => cmd.arg(input),
    };
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary = stderr.lines().skip(1).map(String::from).collect();
    (out.status.code(), strip_times(&out.stdout), summary)
}

#[test]
fn rows_do_not_depend_on_threads_or_batch_size() {
    let run = |args: &[&str]| {
        let out = solve(args, &sample());
        assert_eq!(out.status.code(), Some(0));
        strip_times(&out.stdout)
    };
    let one = run(&["--threads", "1"]);
    assert_eq!(one.lines().count(), 1004);
    assert_same(&one, &run(&["--threads", "4"]), "1 vs 4 threads");
    assert_same(
        &one,
        &run(&["--threads", "2", "--batch-size", "7"]),
        "batch size 7",
    );
}

#[test]
fn rows_do_not_depend_on_the_threads_the_size_or_stdin() {
    // Rows, solutions and summary must not depend on the thread count (one, two, or the
    // default on one CPU, pinned with `taskset` where it exists), on the input's size, or on
    // reading a file or stdin.
    let dir = tempfile::tempdir().unwrap();
    let small = mixed_records();
    let large = [&small[..], &std::fs::read(sample()).unwrap().repeat(6)].concat();
    assert!(small.len() <= 512 * 1024 && large.len() > 512 * 1024);
    for (name, bytes) in [("small.txt", small), ("large.txt", large)] {
        let input = write(dir.path(), name, &bytes);
        let run = |threads: &str, stdin: bool, pinned: bool| {
            let solutions = dir
                .path()
                .join(format!("{name}-{threads}-{stdin}-{pinned}.csv"));
            let mut cmd = if pinned {
                let mut cmd = Command::new("taskset");
                cmd.args(["-c", "0"]).arg(exe());
                cmd
            } else {
                bin()
            };
            cmd.args(["solve", "-j", threads, "--emit-solutions"])
                .arg(&solutions);
            let (code, rows, summary) = run_on(cmd, &input, stdin.then_some(&bytes[..]));
            let solutions = std::fs::read_to_string(solutions).unwrap();
            (code, rows, summary, solutions)
        };
        let file = run("1", false, false);
        assert_eq!(file.0, Some(1), "{name}: invalid records among the rows");
        assert!(file.1.lines().count() > 10, "{name}");
        assert!(file.3.lines().count() > 1, "{name}");
        let taskset = std::process::Command::new("taskset")
            .args(["-c", "0", "true"])
            .output()
            .is_ok_and(|out| out.status.success());
        let mut ways = vec![("1", true, false), ("2", false, false)];
        if taskset {
            ways.push(("0", false, true));
        }
        for (threads, stdin, pinned) in ways {
            let other = run(threads, stdin, pinned);
            let what = format!("{name}, -j {threads}, stdin {stdin}, pinned {pinned}");
            assert_same(&file.1, &other.1, &what);
            assert_eq!(file.0, other.0, "{what}");
            assert_eq!(file.2, other.2, "{what}");
            assert_eq!(file.3, other.3, "{what}");
        }
    }
}

#[test]
fn slow_records_first_give_the_rows_of_one_thread() {
    // Eight slow records first (5,000 solutions of the empty grid each), in the first batch,
    // then easy ones: rows, exit code and summary must be those of one thread, whatever the
    // threads and from a file or stdin.
    let dir = tempfile::tempdir().unwrap();
    let empty = format!("{}\n", ".".repeat(81));
    let mut text = empty.repeat(8);
    text.push_str("not a puzzle\n");
    for line in sample_puzzles().iter().take(300) {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&empty.repeat(2));
    let input = write(dir.path(), "in.txt", &text);
    let run = |threads: &str, stdin: bool| {
        let mut cmd = bin();
        cmd.args(["solve", "-j", threads, "--limit", "5000"]);
        run_on(cmd, &input, stdin.then_some(text.as_bytes()))
    };
    let one = run("1", false);
    assert_eq!(one.0, Some(1), "the invalid record");
    assert_eq!(one.1.lines().count(), 1 + 8 + 1 + 300 + 2);
    assert!(one.1.lines().nth(1).unwrap().contains(",multiple,5000,"));
    for (threads, stdin) in [("2", false), ("3", false), ("2", true)] {
        let other = run(threads, stdin);
        let what = format!("-j {threads}, stdin {stdin}");
        assert_same(&one.1, &other.1, &what);
        assert_eq!(one.0, other.0, "{what}");
        assert_eq!(one.2, other.2, "{what}");
    }
}

#[test]
fn rows_keep_input_order_when_a_later_batch_finishes_first() {
    // One record per batch and two batches solved at once: the slow first record (counting
    // 20,000 solutions of the empty grid) finishes after the easy ones behind it, whose rows
    // must wait for it.
    let mut input = format!("{}\n", ".".repeat(81));
    for line in sample_puzzles().iter().take(40) {
        input.push_str(line);
        input.push('\n');
    }
    let out = bin()
        .args([
            "solve",
            "-q",
            "-j",
            "2",
            "--batch-size",
            "1",
            "--limit",
            "20000",
        ])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rows = rows(&out);
    assert_eq!(rows.len(), 41);
    assert_eq!(
        (rows[0].status.as_str(), rows[0].solutions),
        ("multiple", 20_000)
    );
    let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
}
