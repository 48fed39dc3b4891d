//! Every command that writes a file opens it the one guarded way: no output may be a file the
//! command reads (an input, a part of `merge`, an `--input` file, by any name or hard link),
//! another run writing it stops this one, every input is opened before an output is touched,
//! the record of a run's options beside its output replaces nothing but such a record, and an
//! output's name says what it holds. Each test names the mistake it guards against.

use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Output, Stdio};
use std::time::Duration;

use crate::util::{PUZZLE, bin, exe, sample_puzzles, stderr, write};

/// A run refused with exit 2 whose message says `what`, the file at `kept` left holding
/// `before`.
fn refused(out: &Output, what: &str, kept: &Path, before: &[u8]) {
    assert_eq!(out.status.code(), Some(2), "{what}: {}", stderr(out));
    let err = stderr(out);
    assert!(err.contains(what), "expected {what:?}: {err}");
    assert_eq!(
        std::fs::read(kept).unwrap(),
        before,
        "{} is untouched",
        kept.display()
    );
}

/// `n` puzzles of the sample, one a line, written to `name` in `dir`.
fn puzzles(dir: &Path, name: &str, n: usize) -> PathBuf {
    write(dir, name, sample_puzzles()[..n].join("\n") + "\n")
}

/// Runs the tool with `args` in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    bin().current_dir(dir).args(args).output().unwrap()
}

/// The two parts of `solve -q ARGS INPUT` (`--shard 0/2` and `1/2`) in `dir`, named
/// `PREFIX-0.csv` and `PREFIX-1.csv`.
fn parts(dir: &Path, prefix: &str, args: &[&str], input: &str) -> [PathBuf; 2] {
    [0, 1].map(|k| {
        let name = format!("{prefix}-{k}.csv");
        let shard = format!("{k}/2");
        let mut all = vec!["solve", "-q", "--shard", &shard, "-o", &name];
        all.extend_from_slice(args);
        all.push(input);
        let out = run_in(dir, &all);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        dir.join(name)
    })
}

#[test]
fn merge_refuses_an_output_that_is_its_input_by_name_or_hard_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let csv = format!("puzzle\n{}\n", sample_puzzles()[..20].join("\n"));
    let input = write(d, "in.csv", &csv);
    parts(d, "p", &[], "in.csv");
    std::fs::hard_link(&input, d.join("hard.csv")).unwrap();
    for out in ["in.csv", "hard.csv"] {
        let got = run_in(
            d,
            &["merge", out, "p-0.csv", "p-1.csv", "--input", "in.csv"],
        );
        refused(&got, "is an --input file", &input, csv.as_bytes());
    }
}

#[test]
fn merge_refuses_an_output_that_is_a_hard_link_to_a_part() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    puzzles(d, "in.txt", 20);
    let [first, _] = parts(d, "p", &[], "in.txt");
    let before = std::fs::read(&first).unwrap();
    std::fs::hard_link(&first, d.join("out.csv")).unwrap();
    let got = run_in(d, &["merge", "out.csv", "p-0.csv", "p-1.csv"]);
    refused(&got, "is one of the parts", &first, &before);
}

#[test]
fn the_record_of_options_replaces_or_removes_no_file_the_run_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = sample_puzzles()[..5].join("\n") + "\n";
    let precious = b"precious notes\n";
    // An input of that name.
    let input = write(d, "out.csv.resume.json", &text);
    let got = run_in(d, &["solve", "-q", "out.csv.resume.json", "-o", "out.csv"]);
    refused(&got, "out.csv.resume.json", &input, text.as_bytes());
    assert!(!d.join("out.csv").exists(), "no output made");
    // An --emit-solutions file of that name, and an unrelated file of that name.
    puzzles(d, "in.txt", 5);
    for args in [&["--emit-solutions", "out.csv.resume.json"][..], &[][..]] {
        let record = write(d, "out.csv.resume.json", precious);
        let mut all = vec!["solve", "-q", "-o", "out.csv"];
        all.extend_from_slice(args);
        all.push("in.txt");
        let got = run_in(d, &all);
        refused(&got, "out.csv.resume.json", &record, precious);
        assert!(!d.join("out.csv").exists(), "{args:?}: no output made");
    }
    // A record the tool wrote is replaced, and kept once the output is complete.
    std::fs::remove_file(d.join("out.csv.resume.json")).unwrap();
    for _ in 0..2 {
        let got = run_in(d, &["solve", "-q", "-o", "out.csv", "in.txt"]);
        assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
        let record = std::fs::read_to_string(d.join("out.csv.resume.json")).unwrap();
        assert!(record.contains("\"solver\""), "{record}");
    }
}

/// A `solve` writing `output` that waits on its silent stdin, holding the lock: killed when
/// dropped.
struct Holder(std::process::Child);

impl Holder {
    fn new(output: &Path) -> Holder {
        let child = StdCommand::new(exe())
            .args(["solve", "-qq", "-o"])
            .arg(output)
            .stdin(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The lock is taken before anything is read.
        std::thread::sleep(Duration::from_millis(500));
        Holder(child)
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn generate_and_merge_stop_while_another_run_writes_their_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    puzzles(d, "in.txt", 10);
    parts(d, "p", &[], "in.txt");
    let output = write(d, "out.csv", "old rows\n");
    let _holder = Holder::new(&output);
    let before = std::fs::read(&output).unwrap();
    for args in [
        &["generate", "-q", "-n", "3", "--seed", "1", "-o", "out.csv"][..],
        &["merge", "out.csv", "p-0.csv", "p-1.csv"],
    ] {
        let got = run_in(d, args);
        refused(&got, "another run is writing this file", &output, &before);
    }
}

#[test]
fn an_input_that_cannot_be_opened_stops_the_run_before_the_output_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    puzzles(d, "a.txt", 5);
    // A socket cannot be opened as a file, not even by root (for whom no mode bits stop a
    // read), and `stat` does not tell it from a readable file.
    let _socket = std::os::unix::net::UnixListener::bind(d.join("b.txt")).unwrap();
    let output = write(d, "out.csv", "old rows\n");
    let got = run_in(d, &["solve", "-q", "a.txt", "b.txt", "-o", "out.csv"]);
    refused(&got, "b.txt", &output, b"old rows\n");
}

#[test]
fn generate_that_finds_no_fitting_draw_leaves_the_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let output = write(dir.path(), "puzzles.txt", "old puzzles\n");
    let args = ["generate", "-q", "-n", "2", "--seed", "3", "--min-er", "12"];
    let got = bin()
        .args(args)
        .args(["--attempts", "5", "-o"])
        .arg(&output)
        .output()
        .unwrap();
    refused(&got, "no draw in 5 attempts", &output, b"old puzzles\n");
}

#[test]
fn resuming_a_complete_output_with_other_options_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    puzzles(d, "in.txt", 30);
    for (command, other) in [
        ("solve", &["--limit", "1"][..]),
        ("solve", &["--solver", "backtrack"]),
        ("solve", &["--max-guesses", "5"]),
        ("grade", &["--ruleset", "classic"]),
    ] {
        let done = run_in(d, &[command, "-q", "-o", "out.csv", "in.txt"]);
        assert_eq!(done.status.code(), Some(0), "{}", stderr(&done));
        let before = std::fs::read(d.join("out.csv")).unwrap();
        let mut args = vec![command, "-q", "--resume", "-o", "out.csv"];
        args.extend_from_slice(other);
        args.push("in.txt");
        let got = run_in(d, &args);
        refused(&got, "cannot resume", &d.join("out.csv"), &before);
        // With the same options there is nothing left to do.
        let same = run_in(d, &[command, "--resume", "-o", "out.csv", "in.txt"]);
        assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
        assert!(
            stderr(&same).contains("already in the output"),
            "{}",
            stderr(&same)
        );
        // Without the record the options are unknown: never reported done.
        std::fs::remove_file(d.join("out.csv.resume.json")).unwrap();
        let got = run_in(d, &[command, "-q", "--resume", "-o", "out.csv", "in.txt"]);
        refused(&got, "are unknown", &d.join("out.csv"), &before);
    }
}

#[test]
fn merge_refuses_parts_of_another_input_or_of_other_options() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut records = sample_puzzles()[..20].to_vec();
    write(d, "in.txt", records.join("\n") + "\n");
    records[13] = PUZZLE.to_string();
    write(d, "edited.txt", records.join("\n") + "\n");
    parts(d, "edited", &[], "edited.txt");
    let got = run_in(
        d,
        &[
            "merge",
            "out.csv",
            "edited-0.csv",
            "edited-1.csv",
            "--input",
            "in.txt",
        ],
    );
    assert_eq!(got.status.code(), Some(2), "{}", stderr(&got));
    assert!(stderr(&got).contains("another input"), "{}", stderr(&got));
    assert!(!d.join("out.csv").exists());
    // Parts of --limit 1 beside parts of --limit 2.
    let [one, _] = parts(d, "one", &["--limit", "1"], "in.txt");
    let [_, two] = parts(d, "two", &["--limit", "2"], "in.txt");
    let got = bin()
        .current_dir(d)
        .args(["merge", "out.csv"])
        .args([&one, &two])
        .args(["--input", "in.txt"])
        .output()
        .unwrap();
    assert_eq!(got.status.code(), Some(2), "{}", stderr(&got));
    assert!(stderr(&got).contains("--limit 1"), "{}", stderr(&got));
    assert!(!d.join("out.csv").exists());
    // Parts that fit merge, and the whole has the record of their options.
    let got = run_in(
        d,
        &[
            "merge",
            "out.csv",
            "two-0.csv",
            "two-1.csv",
            "--input",
            "in.txt",
        ],
    );
    assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
    let record = std::fs::read_to_string(d.join("out.csv.resume.json")).unwrap();
    assert!(record.contains("\"limit\": 2"), "{record}");
}

#[test]
fn output_names_say_what_the_file_holds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    puzzles(d, "in.txt", 10);
    let csv = |out: &Output| {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    };
    csv(&run_in(d, &["solve", "-q", "-o", "plain.csv", "in.txt"]));
    let plain = crate::util::strip_times(&std::fs::read(d.join("plain.csv")).unwrap());
    // xz, as the name says.
    csv(&run_in(d, &["solve", "-q", "-o", "x.csv.xz", "in.txt"]));
    let xz = std::fs::read(d.join("x.csv.xz")).unwrap();
    let unpacked = liblzma::decode_all(&xz[..]).expect("an xz stream");
    assert_eq!(crate::util::strip_times(&unpacked), plain);
    csv(&run_in(d, &["solve", "-q", "-o", "x.jsonl.xz", "in.txt"]));
    let xz = std::fs::read(d.join("x.jsonl.xz")).unwrap();
    let lines = String::from_utf8(liblzma::decode_all(&xz[..]).unwrap()).unwrap();
    assert!(lines.starts_with("{\"line\":"), "{lines}");
    // Tab-separated.
    csv(&run_in(d, &["solve", "-q", "-o", "out.tsv", "in.txt"]));
    let tsv = std::fs::read_to_string(d.join("out.tsv")).unwrap();
    assert!(tsv.starts_with("line\tpuzzle\tstatus\t"), "{tsv}");
    // Refused: bzip2, JSON, an unknown extension; nothing made.
    for (name, what) in [
        ("x.csv.bz2", "bzip2"),
        ("x.json", ".jsonl"),
        ("x.json", "--output-format"),
        ("x.txt", "--output-format"),
    ] {
        let got = run_in(d, &["solve", "-q", "-o", name, "in.txt"]);
        assert_eq!(got.status.code(), Some(2), "{name}: {}", stderr(&got));
        assert!(stderr(&got).contains(what), "{name}: {}", stderr(&got));
        assert!(!d.join(name).exists(), "{name} made");
    }
    // Forced, the format is written whatever the name.
    csv(&run_in(
        d,
        &[
            "solve",
            "-q",
            "--output-format",
            "csv",
            "-o",
            "x.json",
            "in.txt",
        ],
    ));
    let forced = std::fs::read(d.join("x.json")).unwrap();
    assert_eq!(crate::util::strip_times(&forced), plain);
    // merge writes CSV only: another name is refused.
    parts(d, "p", &[], "in.txt");
    for name in ["out.parquet", "out.jsonl", "out.csv.gz"] {
        let got = run_in(d, &["merge", name, "p-0.csv", "p-1.csv"]);
        assert_eq!(got.status.code(), Some(2), "{name}: {}", stderr(&got));
        assert!(
            stderr(&got).contains("merge writes plain CSV"),
            "{}",
            stderr(&got)
        );
        assert!(!d.join(name).exists(), "{name} made");
    }
    // Stdout by every name.
    for name in ["-", "/dev/stdout"] {
        let got = run_in(d, &["solve", "-q", "-o", name, "in.txt"]);
        csv(&got);
        assert_eq!(crate::util::strip_times(&got.stdout), plain, "{name}");
    }
}

#[test]
fn outputs_that_are_no_regular_file_get_no_record_and_a_record_that_cannot_be_made_is_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    puzzles(d, "in.txt", 10);
    // A named pipe stands for /dev/null, /dev/stdout and the like (which other runs on this
    // machine share): no regular file, so nothing to resume and no record beside it.
    let fifo = d.join("out.fifo");
    let made = StdCommand::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    // The reader goes after a few rows, as `| head` does: the run ends on the closed pipe.
    let reader = StdCommand::new("head")
        .args(["-c", "100"])
        .arg(&fifo)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let sample = crate::util::sample();
    let sample = sample.to_str().unwrap();
    let got = run_in(d, &["solve", "-q", "-o", "out.fifo", sample]);
    assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
    let rows = reader.wait_with_output().unwrap().stdout;
    assert_eq!(rows.len(), 100);
    assert!(
        !d.join("out.fifo.resume.json").exists(),
        "a record beside a pipe"
    );
    // /dev/stdout redirected to a file: no record in /dev.
    let script = "\"$BIN\" solve -q -o /dev/stdout in.txt > out.csv; echo $?";
    let got = StdCommand::new("sh")
        .args(["-c", script])
        .current_dir(d)
        .env("BIN", exe())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&got.stdout).trim(),
        "0",
        "{}",
        stderr(&got)
    );
    assert_eq!(
        std::fs::read_to_string(d.join("out.csv"))
            .unwrap()
            .lines()
            .count(),
        11
    );
    // (Other runs on this machine may write /dev/stdout.resume.json: the new one is checked.)
    let record = Path::new("/dev/stdout.resume.json");
    let fresh = std::fs::metadata(record)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t.elapsed().is_ok_and(|e| e < Duration::from_secs(2)));
    assert!(!fresh, "a record beside /dev/stdout");
    // A name so long that the record's name is too long for the file system.
    let long = format!("{}.csv", "o".repeat(246));
    let got = run_in(d, &["solve", "-q", "-o", &long, "in.txt"]);
    assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
    let rows = std::fs::read_to_string(d.join(&long)).unwrap();
    assert_eq!(rows.lines().count(), 11);
    // Only --resume needs the record, and says that it cannot be had.
    std::fs::remove_file(d.join(&long)).unwrap();
    let got = run_in(d, &["solve", "-q", "--resume", "-o", &long, "in.txt"]);
    assert_eq!(got.status.code(), Some(2), "{}", stderr(&got));
    assert!(
        stderr(&got).contains("cannot be written"),
        "{}",
        stderr(&got)
    );
}

#[test]
fn an_earlier_output_in_the_input_directory_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("d1")).unwrap();
    puzzles(&d.join("d1"), "a.txt", 5);
    let first = run_in(d, &["solve", "-q", "d1", "-o", "d1/out.csv"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let before = std::fs::read(d.join("d1/out.csv")).unwrap();
    let again = run_in(d, &["solve", "-q", "d1", "-o", "d1/out.csv"]);
    refused(
        &again,
        "lies in the input directory d1",
        &d.join("d1/out.csv"),
        &before,
    );
}
