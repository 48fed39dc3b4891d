//! Integration tests: run the `sudoku-batch` binary on the fixtures in `tests/data/` and on
//! generated corpora, and check its rows against an independent solver (the `sudoku` crate).

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use sudoku_batch::generate::{Kind, Rng, mixed_puzzle};
use sudoku_batch::{Grid, Strategy};

fn bin() -> Command {
    Command::cargo_bin("sudoku-batch").unwrap()
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// One parsed output row.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    line: u64,
    puzzle: String,
    status: String,
    solutions: u64,
    solution: String,
    guesses: u64,
    error: String,
}

fn rows(out: &Output) -> Vec<Row> {
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "line",
            "puzzle",
            "status",
            "solutions",
            "solution",
            "guesses",
            "time_ns",
            "error"
        ]
    );
    reader
        .byte_records()
        .map(|r| {
            let r = r.unwrap();
            let f = |i| String::from_utf8_lossy(&r[i]).into_owned();
            Row {
                line: f(0).parse().unwrap(),
                puzzle: f(1),
                status: f(2),
                solutions: f(3).parse().unwrap(),
                solution: f(4),
                guesses: f(5).parse().unwrap(),
                error: f(7),
            }
        })
        .collect()
}

/// The `sudoku` crate's count (to 2) and solution when unique, for an 81-character puzzle.
fn oracle(puzzle: &str) -> (u64, String) {
    let s = sudoku::Sudoku::from_str_line(puzzle).unwrap();
    let n = s.solutions_count_up_to(2) as u64;
    let sol = if n == 1 {
        s.solution().unwrap().to_str_line().to_string()
    } else {
        String::new()
    };
    (n, sol)
}

/// Checks every valid row against the oracle; returns how many were checked.
fn check_against_oracle(rows: &[Row]) -> usize {
    let mut checked = 0;
    for r in rows.iter().filter(|r| r.status != "invalid") {
        let (n, sol) = oracle(&r.puzzle);
        assert_eq!(
            r.solutions, n,
            "solutions of {} (line {})",
            r.puzzle, r.line
        );
        let expect = match n {
            0 => "unsolvable",
            1 => "unique",
            _ => "multiple",
        };
        assert_eq!(r.status, expect, "line {}", r.line);
        if n == 1 {
            assert_eq!(r.solution, sol, "line {}", r.line);
        }
        if n > 0 {
            let g: Grid = r.solution.parse().unwrap();
            assert!(g.solves(&r.puzzle.parse().unwrap()), "line {}", r.line);
        }
        checked += 1;
    }
    checked
}

#[test]
fn mixed_text_file_gives_one_row_per_record_with_reasons() {
    let out = bin()
        .args(["solve", "-q"])
        .arg(data("mixed.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "some records are invalid");
    let rows = rows(&out);
    let got: Vec<(u64, &str, &str)> = rows
        .iter()
        .map(|r| (r.line, r.status.as_str(), r.error.as_str()))
        .collect();
    let too_long = "record of 200000 bytes is longer than the limit of 65536 bytes";
    assert_eq!(
        got,
        vec![
            (2, "unique", ""),
            (4, "unique", ""),
            (5, "unique", ""),
            (6, "multiple", ""),
            (7, "unique", ""),
            (8, "unsolvable", ""),
            (9, "unsolvable", "digit 5 twice in row 1"),
            (10, "invalid", "80 cells, expected 81"),
            (11, "invalid", "cell 12: unexpected character 'x'"),
            (12, "invalid", "cell 3: unexpected character '\\0'"),
            (13, "invalid", "cell 4: invalid UTF-8 byte 0xff"),
            (14, "unique", ""),
            (15, "invalid", too_long),
            (16, "invalid", "40 cells, expected 81"),
            (17, "invalid", "83 cells, expected 81"),
            (19, "unique", ""),
        ]
    );
    assert_eq!(check_against_oracle(&rows), 9);
    // The published solution of the third source puzzle.
    assert_eq!(
        rows[2].solution,
        "762593148941278536835461792198627354476359281253814679387146925514932867629785413"
    );
    // An invalid record keeps its text (cut short when huge).
    assert!(rows[7].puzzle.starts_with("..29"));
    assert!(rows[12].puzzle.len() < 400);
}

#[test]
fn kaggle_csv_layouts_are_read_as_published() {
    for (file, solution_col) in [("kaggle_quizzes.csv", 1), ("kaggle_puzzle.csv", 2)] {
        let out = bin()
            .args(["solve", "-q"])
            .arg(data(file))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{file}");
        let rows = rows(&out);
        assert_eq!(rows.len(), 20, "{file}");
        let text = std::fs::read_to_string(data(file)).unwrap();
        for (row, line) in rows.iter().zip(text.lines().skip(1)) {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(row.status, "unique", "{file}: {line}");
            assert_eq!(row.solution, fields[solution_col], "{file}: {line}");
        }
        assert_eq!(rows[0].line, 2, "the header is line 1");
        assert_eq!(check_against_oracle(&rows), 20);
    }
}

#[test]
fn csv_column_by_name_and_index() {
    let by_name = bin()
        .args(["solve", "-q", "--column", "PUZZLE"])
        .arg(data("kaggle_puzzle.csv"))
        .output()
        .unwrap();
    let by_index = bin()
        .args(["solve", "-q", "--column", "1"])
        .arg(data("kaggle_puzzle.csv"))
        .output()
        .unwrap();
    assert_eq!(strip_times(&by_name), strip_times(&by_index));
    let missing = bin()
        .args(["solve", "-q", "--column", "nope"])
        .arg(data("kaggle_puzzle.csv"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.contains("kaggle_puzzle.csv") && err.contains("\"nope\" not found"),
        "{err}"
    );
}

#[test]
fn grid_blocks_are_read_verbatim() {
    let out = bin()
        .args(["solve", "-q", "--format", "grid"])
        .arg(data("grid_blocks.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let rows = rows(&out);
    let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
    assert_eq!(lines, [2, 13, 24]);
    assert_eq!(check_against_oracle(&rows), 3);
}

/// The output with the `time_ns` column blanked, for comparing runs.
fn strip_times(out: &Output) -> String {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&out.stdout[..]);
    let mut text = String::new();
    for r in reader.byte_records() {
        let r = r.unwrap();
        for (i, f) in r.iter().enumerate() {
            if i != 6 {
                text.push_str(&String::from_utf8_lossy(f));
            }
            text.push(',');
        }
        text.push('\n');
    }
    text
}

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
    (out.status.code(), strip_times(&out), summary)
}

fn assert_same(a: &str, b: &str, what: &str) {
    if a != b {
        let first = a.lines().zip(b.lines()).position(|(x, y)| x != y);
        panic!("{what}: outputs differ, first at row {first:?}\n--- a\n{a}\n--- b\n{b}");
    }
}

#[test]
fn stdin_and_file_give_identical_rows() {
    let file = bin()
        .args(["solve", "-q"])
        .arg(data("mixed.txt"))
        .output()
        .unwrap();
    let stdin = bin()
        .args(["solve", "-q", "-"])
        .pipe_stdin(data("mixed.txt"))
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(stdin.status.code(), Some(1));
    assert_same(&strip_times(&file), &strip_times(&stdin), "file vs stdin");
}

#[test]
fn rows_do_not_depend_on_threads_or_batch_size() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample.txt");
    let run = |args: &[&str]| {
        let out = bin()
            .args(["solve", "-q"])
            .args(args)
            .arg(&sample)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        strip_times(&out)
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
fn one_thread_gives_the_same_results_from_small_and_large_files_and_stdin() {
    // With one solver thread, a file of up to 512 KiB is read, solved and written all on the
    // calling thread; a larger file, and stdin, go through reader and writer threads; more
    // threads use the pool (a file of up to 64 KiB, such as the small one here, only once
    // the calling thread finds it long). The default on one CPU (pinned with `taskset`, where
    // it exists) is one solver thread. Rows, solutions and summary must not depend on the way.
    let dir = tempfile::tempdir().unwrap();
    let mut small = std::fs::read(data("mixed.txt")).unwrap();
    if !small.ends_with(b"\n") {
        small.push(b'\n');
    }
    let sample = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample.txt"));
    let large = [&small[..], &sample.unwrap().repeat(6)].concat();
    assert!(small.len() <= 512 * 1024 && large.len() > 512 * 1024);
    for (name, bytes) in [("small.txt", small), ("large.txt", large)] {
        let input = dir.path().join(name);
        std::fs::write(&input, &bytes).unwrap();
        let run = |threads: &str, stdin: bool, pinned: bool| {
            let solutions = dir
                .path()
                .join(format!("{name}-{threads}-{stdin}-{pinned}.csv"));
            let mut cmd = if pinned {
                let mut cmd = Command::new("taskset");
                cmd.args(["-c", "0"])
                    .arg(assert_cmd::cargo::cargo_bin("sudoku-batch"));
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
fn a_small_file_handed_to_the_threads_midway_gives_the_rows_of_one_thread() {
    // With several solver threads, a file of up to 64 KiB starts on the calling thread, which
    // hands the rest to the threads once its first records show that the whole would take
    // long. Eight slow records first (5,000 solutions of the empty grid each, a millisecond or
    // more even optimized: 5 ms pass within them, and the estimate for the 300 behind them is
    // far past the bar) make the hand-over certain, within the first batch. Rows, exit code
    // and summary must be those of one thread, and of two threads from the start (stdin).
    let dir = tempfile::tempdir().unwrap();
    let sample =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample.txt"))
            .unwrap();
    let empty = format!("{}\n", ".".repeat(81));
    let mut text = empty.repeat(8);
    text.push_str("not a puzzle\n");
    for line in sample.lines().filter(|l| !l.starts_with('#')).take(300) {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&empty.repeat(2));
    assert!(text.len() < 64 * 1024);
    let input = dir.path().join("in.txt");
    std::fs::write(&input, &text).unwrap();
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
fn a_terminal_on_stdin_gets_a_hint_and_a_pipe_does_not() {
    let hint = "reading puzzles from the terminal";
    let puzzle =
        "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";
    let piped = bin()
        .args(["solve", "-qq"])
        .write_stdin(format!("{puzzle}\n"))
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&piped.stderr).contains(hint));
    // A terminal, where util-linux's `script` can make one: the puzzle, then Ctrl-D. `bench`
    // reads its stdin whole before timing it, so it says so too.
    let exe = assert_cmd::cargo::cargo_bin("sudoku-batch");
    for (command, result) in [("solve -qq", ",unique,1,"), ("bench --csv", ",fast,1,0,")] {
        let Ok(out) = Command::new("script")
            .args(["-qec", &format!("{} {command}", exe.display()), "/dev/null"])
            .write_stdin(format!("{puzzle}\n\x04"))
            .timeout(std::time::Duration::from_secs(30))
            .output()
        else {
            return;
        };
        if out.status.code() == Some(0) {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains(hint), "{command}: {text}");
            assert!(text.contains(result), "{command}: {text}");
        }
    }
}

#[test]
fn rows_keep_input_order_when_a_later_batch_finishes_first() {
    // One record per batch and two batches solved at once: the slow first record (counting
    // 20,000 solutions of the empty grid) finishes after the easy ones behind it, whose rows
    // must wait for it.
    let sample =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample.txt"))
            .unwrap();
    let mut input = format!("{}\n", ".".repeat(81));
    for line in sample.lines().filter(|l| !l.starts_with('#')).take(40) {
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

#[test]
fn generated_corpus_of_every_kind_agrees_with_the_oracle() {
    let mut solver = Strategy::Singles.solver();
    let mut rng = Rng::new(2);
    let kinds = [
        Kind::Minimal,
        Kind::Easy,
        Kind::Multiple,
        Kind::Unsolvable,
        Kind::Conflicting,
    ];
    let mut text = String::new();
    let mut csv = String::from("id,puzzle\n");
    for i in 0..400 {
        let p = mixed_puzzle(&mut rng, kinds[i % kinds.len()], &mut *solver);
        text.push_str(&format!("{p}\n"));
        csv.push_str(&format!("{i},{}\n", p.to_string().replace('.', "0")));
    }
    let dir = tempfile::tempdir().unwrap();
    let (t, c) = (dir.path().join("g.txt"), dir.path().join("g.csv"));
    std::fs::write(&t, &text).unwrap();
    std::fs::write(&c, &csv).unwrap();
    let mut statuses = std::collections::BTreeMap::new();
    for path in [&t, &c] {
        let out = bin().args(["solve", "-q"]).arg(path).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let rows = rows(&out);
        assert_eq!(rows.len(), 400);
        assert_eq!(check_against_oracle(&rows), 400);
        for r in &rows {
            *statuses.entry(r.status.clone()).or_insert(0) += 1;
        }
    }
    assert_eq!(statuses["unique"], 2 * 160);
    assert_eq!(statuses["multiple"], 2 * 80);
    assert_eq!(statuses["unsolvable"], 2 * 160);
}

#[test]
fn limit_one_reports_solved_and_emit_solutions_lists_them_all() {
    let out = bin()
        .args(["solve", "-q", "--limit", "1"])
        .arg(data("kaggle_puzzle.csv"))
        .output()
        .unwrap();
    assert!(rows(&out).iter().all(|r| r.status == "solved"));

    // Two clues removed from a unique puzzle: a handful of solutions, all listed.
    let p = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..";
    let sparse = format!("....{}", &p[4..]);
    let dir = tempfile::tempdir().unwrap();
    let sols = dir.path().join("sols.csv");
    let out = bin()
        .args(["solve", "-q", "--limit", "100000", "--emit-solutions"])
        .arg(&sols)
        .write_stdin(format!("{sparse}\n"))
        .output()
        .unwrap();
    let rows = rows(&out);
    let want = sudoku::Sudoku::from_str_line(&sparse)
        .unwrap()
        .solutions_count_up_to(100_000) as u64;
    assert!(want > 2, "the test puzzle should have several solutions");
    assert_eq!(rows[0].solutions, want);
    let listed = std::fs::read_to_string(&sols).unwrap();
    let mut lines = listed.lines();
    assert_eq!(lines.next(), Some("line,index,solution"));
    let mut seen = std::collections::HashSet::new();
    for (i, l) in lines.enumerate() {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!((f[0], f[1]), ("1", &*(i + 1).to_string()));
        assert!(
            f[2].parse::<Grid>()
                .unwrap()
                .solves(&sparse.parse().unwrap())
        );
        seen.insert(f[2].to_string());
    }
    assert_eq!(seen.len() as u64, want, "every solution listed once");
}

#[test]
fn io_errors_exit_2_naming_the_path() {
    let out = bin().args(["solve", "no/such/file.txt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: no/such/file.txt: No such file"),
        "{err}"
    );

    let out = bin()
        .args(["solve", "-o", "no/such/dir/out.csv"])
        .arg(data("mixed.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/dir/out.csv"));

    let out = bin().args(["solve", "tests"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tests: is a directory"));

    let out = bin().args(["solve", "--limit", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "usage errors exit 2");
}

#[test]
fn output_file_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("out.csv");
    let out = bin()
        .args(["solve", "-o"])
        .arg(&o)
        .arg(data("kaggle_puzzle.csv"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&o).unwrap().lines().count(), 21);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("20 records in"), "{err}");
    assert!(err.contains("unique 20, multiple 0"), "{err}");
    assert!(err.contains("guesses per puzzle"), "{err}");

    let out = bin()
        .args(["solve", "-qq"])
        .arg(data("kaggle_puzzle.csv"))
        .output()
        .unwrap();
    assert!(out.stderr.is_empty(), "-qq hides the summary");
}

#[test]
fn an_existing_output_file_is_replaced_whole() {
    // The files are emptied on the first write rather than when opened: nothing of the earlier
    // contents may survive, whether the new output is longer, shorter or only a header. The
    // same holds for the --emit-solutions file.
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("out.csv");
    let s = dir.path().join("solutions.csv");
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    for input in [data("kaggle_puzzle.csv"), empty] {
        std::fs::write(&o, "old row\n".repeat(50_000)).unwrap();
        std::fs::write(&s, "old row\n".repeat(50_000)).unwrap();
        let out = bin()
            .args(["solve", "-qq", "--emit-solutions"])
            .arg(&s)
            .arg("-o")
            .arg(&o)
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        for (file, header) in [(&o, "line,puzzle,status,"), (&s, "line,index,solution\n")] {
            let text = std::fs::read_to_string(file).unwrap();
            assert!(!text.contains("old row"), "{}", input.display());
            assert!(text.starts_with(header), "{}", input.display());
        }
    }
    assert_eq!(std::fs::read_to_string(&o).unwrap().lines().count(), 1);
    assert_eq!(std::fs::read_to_string(&s).unwrap().lines().count(), 1);
}

#[test]
fn an_output_that_is_the_input_is_refused_and_nothing_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("puzzles.txt");
    let text = std::fs::read(data("sound.txt")).unwrap();
    std::fs::write(&input, &text).unwrap();
    let other = dir.path().join("sub/../puzzles.txt"); // the same file, spelt otherwise
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let results = dir.path().join("results.csv");
    let refused = |args: &[&std::ffi::OsStr], what: &str| {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(what), "{args:?}: {err}");
        assert_eq!(
            std::fs::read(&input).unwrap(),
            text,
            "the input is untouched"
        );
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    let (i, o, r) = (input.as_os_str(), other.as_os_str(), results.as_os_str());
    refused(&[&os("solve"), i, &os("-o"), o], "the output is the input");
    refused(
        &[&os("validate"), i, &os("-o"), i],
        "the output is the input",
    );
    refused(
        &[&os("solve"), i, &os("-o"), r, &os("--emit-solutions"), o],
        "the --emit-solutions file is the input",
    );
    refused(
        &[&os("solve"), i, &os("-o"), r, &os("--emit-solutions"), r],
        "the --emit-solutions file is the output",
    );
    assert!(!results.exists(), "refused before anything is written");
    // Devices may serve as both outputs.
    let out = bin()
        .args([
            "solve",
            "-qq",
            "-o",
            "/dev/null",
            "--emit-solutions",
            "/dev/null",
        ])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// A closed stdout (`| head`) is a write error the command handles (exit 0, nothing on
/// stderr), not a SIGPIPE that kills the process.
#[cfg(unix)]
#[test]
fn r_closed_stdout_exits_0_and_is_not_killed_by_sigpipe() {
    let p = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..\n";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.txt");
    std::fs::write(&file, p.repeat(40_000)).unwrap();
    let exe = assert_cmd::cargo::cargo_bin("sudoku-batch");
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "'{}' solve -q '{}' | head -n 2 >/dev/null; echo \"${{PIPESTATUS[0]}}\"",
            exe.display(),
            file.display()
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0", "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn explain_shows_the_published_solution_for_every_traced_strategy() {
    let p = ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1.";
    let rows = [
        "762593148",
        "941278536",
        "835461792",
        "198627354",
        "476359281",
        "253814679",
        "387146925",
        "514932867",
        "629785413",
    ];
    for solver in ["bitmask", "candidates", "backtrack"] {
        let out = bin()
            .args(["explain", "--solver", solver, p])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{solver}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&rows.join("\n")), "{solver}:\n{text}");
        assert!(text.contains("Totals:"), "{solver}");
    }
}

#[test]
fn explain_reads_a_line_of_a_file_and_prints_json_lines() {
    // Line 8 of the sample is the first generated puzzle; it needs guesses.
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample.txt");
    let out = bin()
        .args(["explain", "--format", "json", "--line", "8", "--input"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let mut steps = std::collections::HashMap::<String, u64>::new();
    let mut totals = None;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let step = v["step"].as_str().unwrap().to_string();
        if step == "totals" {
            totals = Some(v.clone());
        }
        *steps.entry(step).or_default() += 1;
    }
    let totals = totals.expect("a totals line");
    assert_eq!(
        totals["guesses"].as_u64(),
        steps.get("guess").copied().or(Some(0))
    );
    assert_eq!(totals["placements"].as_u64(), steps.get("place").copied());
    assert_eq!(steps["solution"], 1);

    let out = bin()
        .args(["explain", "--line", "3", "--input"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "line 3 is a comment, not a record"
    );
    for solver in ["singles", "fast"] {
        let out = bin()
            .args(["explain", "--solver", solver, "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("[possible values: bitmask, candidates, backtrack]"),
            "{err}"
        );
    }
    let out = bin().args(["explain", "12x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "not a puzzle");
}

#[test]
fn bench_reports_one_row_per_file_and_solver() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sample.txt");
    let out = bin()
        .args([
            "bench",
            "--runs",
            "2",
            "--csv",
            "--solver",
            "fast,singles,fast",
        ])
        .arg(&sample)
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
    use std::io::Write as _;
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
    let gzip = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(bytes).unwrap();
        std::fs::write(&path, gz.finish().unwrap()).unwrap();
        path
    };
    let csv_gz = gzip(
        "kaggle.csv.gz",
        &std::fs::read(data("kaggle_quizzes.csv")).unwrap(),
    );
    let (code, text, _) = bench(&[], &csv_gz);
    assert_eq!(code, Some(0));
    assert_eq!(
        fields(&text),
        ("kaggle.csv.gz".into(), "20".into(), "0".into())
    );
    let mixed = std::fs::read(data("mixed.txt")).unwrap();
    let plain = bench(&[], &data("mixed.txt"));
    let packed = bench(&[], &gzip("mixed.txt.gz", &mixed));
    assert_eq!((plain.0, packed.0), (Some(0), Some(0)));
    let (plain, packed) = (fields(&plain.1), fields(&packed.1));
    assert_ne!(plain.2, "0", "mixed.txt has invalid records");
    assert_eq!((&plain.1, &plain.2), (&packed.1, &packed.2));
}
