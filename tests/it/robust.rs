//! Careless and hostile use of inputs, signals and limits: what is skipped is named, a stop
//! is honoured even when the output is stuck, memory-hungry inputs are refused with what they
//! need, and every message is in plain words.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::util::{PUZZLE, bin, exe, exits_within_10_s, sample, send, stderr, strip_times, write};

#[test]
fn a_directory_names_the_entries_it_skips() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    std::fs::create_dir(&d).unwrap();
    write(&d, "a.txt", format!("{PUZZLE}\n"));
    std::os::unix::fs::symlink(d.join("gone.txt"), d.join("b.txt")).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    write(&d, ".hidden", "x\n");
    let out = bin().args(["solve", "-q"]).arg(&d).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let b = d.join("b.txt");
    let sub = d.join("sub");
    for (path, why) in [(&b, "which does not exist"), (&sub, "a directory")] {
        let line = err
            .lines()
            .find(|l| l.contains(&format!("skipped {}", path.display())))
            .unwrap_or_else(|| panic!("{} not named: {err}", path.display()));
        assert!(line.contains("warning") && line.contains(why), "{line}");
    }
    assert!(!err.contains(".hidden"), "{err}");
    // A name the glob excludes is not a surprise: no word about it.
    let out = bin()
        .args(["solve", "-q", "--glob", "a*"])
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

/// Starts `sudoku-batch ARGS` writing to a pipe that is never read, waits until the pipe is
/// full (the run blocked in a write), sends `signal` and returns the exit code and how long
/// after the signal the process ended.
fn stop_while_the_pipe_is_full(args: &[&str], signal: &str) -> (Option<i32>, Duration) {
    let mut child = StdCommand::new(exe())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The pipe holds 64 KiB; the run makes far more than that within this time, so its
    // writer is blocked when the signal comes.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?}: the run ended: the pipe never filled"
    );
    send(signal, &child);
    let sent = Instant::now();
    let status = exits_within_10_s(&mut child, "a stop signal while the output pipe is full");
    let took = sent.elapsed();
    drop(child.stdout.take());
    (status.code(), took)
}

#[test]
fn one_stop_signal_ends_a_run_whose_output_pipe_is_full() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{PUZZLE}\n").repeat(20_000));
    let input = input.to_str().unwrap();
    for (args, signal) in [
        (vec!["solve", "-q", input], "TERM"),
        (vec!["validate", "-q", "--all", input], "INT"),
        (vec!["generate", "--count", "1000000", "-q"], "TERM"),
    ] {
        let (code, took) = stop_while_the_pipe_is_full(&args, signal);
        assert_eq!(code, Some(130), "{args:?}");
        // The watch waits 50 ms; the rest is a loaded machine's scheduling.
        assert!(took < Duration::from_secs(2), "{args:?}: {took:?}");
    }
}

/// Runs `sudoku-batch ARGS`, waits until `output` holds at least 2,000 bytes, sends SIGINT
/// and returns the exit code and stderr.
fn interrupted(args: &[&OsStr], output: &Path) -> (Option<i32>, String) {
    let child = StdCommand::new(exe())
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::metadata(output).map_or(0, |m| m.len()) < 2000 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no output after 60 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    send("INT", &child);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `copies` copies of the sample: long enough that a debug build is still running when the
/// signal comes.
fn big_input(dir: &Path, copies: usize) -> PathBuf {
    let text = std::fs::read_to_string(sample()).unwrap();
    write(dir, "big input.txt", text.repeat(copies))
}

#[test]
fn an_interrupted_run_says_the_command_that_finishes_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input(dir.path(), 40);
    let output = dir.path().join("out.csv");
    let args: Vec<&OsStr> = vec![
        "solve".as_ref(),
        "-q".as_ref(),
        "-o".as_ref(),
        output.as_os_str(),
        input.as_os_str(),
    ];
    let (code, err) = interrupted(&args, &output);
    assert_eq!(code, Some(130), "{err}");
    let sidecar = format!("{}.resume.json", output.display());
    assert!(err.contains(&sidecar), "the sidecar is named: {err}");
    let sidecar_text = std::fs::read_to_string(&sidecar).unwrap();
    for debug in ["Auto", "None", "Some("] {
        assert!(!sidecar_text.contains(debug), "{sidecar_text}");
    }
    // The command, as printed, finishes the output.
    let command = err
        .lines()
        .skip_while(|l| !l.contains("To finish it, run:"))
        .nth(1)
        .unwrap_or_else(|| panic!("no command: {err}"))
        .trim();
    assert!(
        command.ends_with("--resume") && command.contains("'"),
        "{command}"
    );
    let out = StdCommand::new("sh")
        .args(["-c", command])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let full = bin().args(["solve", "-q"]).arg(&input).output().unwrap();
    assert_eq!(
        strip_times(&std::fs::read(&output).unwrap()),
        strip_times(&full.stdout)
    );
    assert!(!Path::new(&sidecar).exists());
    // No hint where there is nothing to resume: stdout.
    let child = StdCommand::new(exe())
        .args(["solve", "-q"])
        .arg(&input)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    send("INT", &child);
    let out = child.wait_with_output().unwrap();
    assert!(!stderr(&out).contains("--resume"), "{}", stderr(&out));
}

#[test]
fn an_interrupted_validate_does_not_say_every_record_passes() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input(dir.path(), 40);
    let output = dir.path().join("report.csv");
    let args: Vec<&OsStr> = vec![
        "validate".as_ref(),
        "-q".as_ref(),
        "--all".as_ref(),
        "-o".as_ref(),
        output.as_os_str(),
        input.as_os_str(),
    ];
    let (code, err) = interrupted(&args, &output);
    assert_eq!(code, Some(130), "{err}");
    assert!(!err.contains("every record passes"), "{err}");
    assert!(err.contains("the rest were not checked"), "{err}");
}

/// A valid xz file of `text` whose block header states an LZMA2 dictionary of `bits` (the
/// header's own encoding: 37 is 1.5 GiB), its checksum made again.
fn xz_with_dictionary(text: &[u8], bits: u8) -> Vec<u8> {
    let mut xz = liblzma::encode_all(text, 1).unwrap();
    let size = (usize::from(xz[12]) + 1) * 4;
    let header = 12..12 + size - 4;
    let at = xz[header.clone()]
        .windows(2)
        .position(|w| w == [0x21, 0x01])
        .expect("an LZMA2 filter")
        + 12
        + 2;
    xz[at] = bits;
    let mut crc = flate2::Crc::new();
    crc.update(&xz[header.clone()]);
    xz[header.end..header.end + 4].copy_from_slice(&crc.sum().to_le_bytes());
    xz
}

/// A valid zstd frame of `text` whose header states a window of 2^`log` bytes, as `zstd
/// --long=LOG` makes.
fn zstd_with_window(text: &[u8], log: u8) -> Vec<u8> {
    let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    encoder.include_contentsize(false).unwrap();
    std::io::Write::write_all(&mut encoder, text).unwrap();
    let mut zst = encoder.finish().unwrap();
    assert_eq!(zst[4] & 0x20, 0, "a window descriptor follows");
    zst[5] = (log - 10) << 3;
    zst
}

#[test]
fn compressed_inputs_that_need_a_huge_window_are_refused_with_what_they_need() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{PUZZLE}\n").repeat(50);
    // The crafted headers, with a small window, are read as they are.
    for (name, bytes) in [
        ("small.txt.xz", xz_with_dictionary(text.as_bytes(), 20)),
        ("small.txt.zst", zstd_with_window(text.as_bytes(), 20)),
    ] {
        let out = bin()
            .args(["solve", "-q"])
            .arg(write(dir.path(), name, bytes))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
    }
    for (name, bytes, needs) in [
        (
            "huge.txt.xz",
            xz_with_dictionary(text.as_bytes(), 37),
            "a 1.5 GiB dictionary",
        ),
        (
            "long.txt.zst",
            zstd_with_window(text.as_bytes(), 28),
            "a 256 MiB window",
        ),
    ] {
        let path = write(dir.path(), name, bytes);
        let output = dir.path().join("out.csv");
        let out = bin()
            .args(["solve", "-q", "-o"])
            .arg(&output)
            .arg(&path)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(needs) && err.contains("128 MiB"),
            "{name}: {err}"
        );
        assert!(!err.contains("corrupt"), "{name}: {err}");
        assert!(!output.exists(), "{name}: nothing made");
    }
}

#[test]
fn shard_options_that_make_no_shard_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{PUZZLE}\n").repeat(8));
    let out = bin()
        .args(["solve", "-q", "--shard", "0/0"])
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("at least 1") && !err.contains("0/0 to"),
        "{err}"
    );
    let slurm = |env: &[(&str, &str)], extra: &[&str]| {
        bin()
            .args(["solve", "-q", "--shard", "auto"])
            .args(extra)
            .arg(&input)
            .env_remove("JOB_COMPLETION_INDEX")
            .envs(env.iter().copied())
            .output()
            .unwrap()
    };
    // --array=0-12:4 makes tasks 0, 4, 8, 12, of which 12 is the last of four parts.
    let stepped = [
        ("SLURM_ARRAY_TASK_ID", "12"),
        ("SLURM_ARRAY_TASK_MIN", "0"),
        ("SLURM_ARRAY_TASK_STEP", "4"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    let out = slurm(&stepped, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let last = bin()
        .args(["solve", "-q", "--shard", "3/4"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(strip_times(&out.stdout), strip_times(&last.stdout));
    // Tasks not evenly spaced: the step is named as the cause.
    let mut uneven = stepped;
    uneven[0].1 = "6";
    let out = slurm(&uneven, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("SLURM_ARRAY_TASK_STEP 4"),
        "{}",
        stderr(&out)
    );
    // --shards that disagrees with the array is not ignored.
    let four = [
        ("SLURM_ARRAY_TASK_ID", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    let out = slurm(&four, &["--shards", "3"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--shards 3") && err.contains("SLURM_ARRAY_TASK_COUNT 4"),
        "{err}"
    );
}

#[test]
fn a_column_index_past_the_header_is_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write(
        dir.path(),
        "two.csv",
        format!("id,grid\n1,{PUZZLE}\n2,{PUZZLE}\n"),
    );
    let bare = write(dir.path(), "bare.csv", format!("1,{PUZZLE}\n"));
    let output = dir.path().join("out.csv");
    for (input, args, says) in [
        (
            &csv,
            vec!["--column", "5"],
            "the header has 2 columns: id, grid",
        ),
        (&bare, vec!["--column", "2"], "the first row has 2 fields"),
    ] {
        let out = bin()
            .args(["solve", "-q", "-o"])
            .arg(&output)
            .args(&args)
            .arg(input)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("no such column") && err.contains(says),
            "{err}"
        );
        assert!(!output.exists());
    }
    let out = bin()
        .args(["validate", "-q", "--expect-column", "2"])
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--expect-column 2: no such column"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_summary_says_which_column_of_which_input_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.csv", format!("puzzle,solution\n{PUZZLE},\n"));
    let b = write(dir.path(), "b.csv", format!("id;quiz\n7;{PUZZLE}\n"));
    let c = write(dir.path(), "c.csv", format!("puzzle,note\n{PUZZLE},x\n"));
    let out = bin()
        .args(["solve", "-q"])
        .args([&a, &b, &c])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let (a, b, c) = (a.display(), b.display(), c.display());
    assert!(
        err.contains(&format!(
            "{a}, {c}: puzzles from column 0 (\"puzzle\"), found by its name"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{b}: puzzles from column 1 (\"quiz\"), found by its name"
        )),
        "{err}"
    );
    // validate names the column of stated solutions it found.
    let solved = write(
        dir.path(),
        "solved.csv",
        format!("quizzes,answer\n{PUZZLE},{}\n", solution_of(PUZZLE)),
    );
    let out = bin()
        .args(["validate", "-q", "--expect-column", ""])
        .arg(&solved)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("solutions from column 1 (\"answer\"), found by its content"),
        "{err}"
    );
}

/// The solution of `puzzle`, by the command line.
fn solution_of(puzzle: &str) -> String {
    let out = bin()
        .args(["solve", "-q"])
        .write_stdin(format!("{puzzle}\n"))
        .output()
        .unwrap();
    crate::util::rows(&out)[0].solution.clone()
}

#[test]
fn messages_hold_no_debug_text() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{PUZZLE}\n").repeat(3));
    let output = dir.path().join("graded.csv");
    // A graded output cut short, resumed with another time limit.
    let graded = bin()
        .args(["grade", "-q", "-o"])
        .arg(&output)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(graded.status.code(), Some(0), "{}", stderr(&graded));
    let rows = std::fs::read_to_string(&output).unwrap();
    let cut: Vec<&str> = rows.lines().take(2).collect();
    std::fs::write(&output, cut.join("\n") + "\n").unwrap();
    record_grade_options(&output);
    let out = bin()
        .args(["grade", "-q", "--resume", "--max-time-ms", "500", "-o"])
        .arg(&output)
        .arg(&input)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--max-time-ms 500"), "{err}");
    for debug in ["Some(", "None", "Auto", "Sukaku", "ms)"] {
        assert!(!err.contains(debug), "{debug}: {err}");
    }
}

/// Writes beside `output` the options a `grade -o OUTPUT` run keeps while it writes.
fn record_grade_options(output: &Path) {
    use sudoku_batch::pipeline::read::Source;
    use sudoku_batch::pipeline::resume::RunOptions;
    use sudoku_batch::pipeline::{Config, Output};
    let mut config = Config::new(Source::Stdin, Output::Path(output.to_path_buf()));
    config.solve.limits.solutions = 2;
    config.solve.grade = Some(Default::default());
    RunOptions::of(&config).record(output).unwrap();
}

#[cfg(feature = "parquet")]
#[test]
fn a_parquet_column_of_lists_is_named_in_words() {
    use std::sync::Arc;

    use arrow_array::builder::{Int8Builder, ListBuilder};
    use arrow_array::{ArrayRef, RecordBatch};

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cells.parquet");
    let mut grids = ListBuilder::new(Int8Builder::new());
    grids.values().append_slice(&[0; 81]);
    grids.append(true);
    let grids: ArrayRef = Arc::new(grids.finish());
    let batch = RecordBatch::try_from_iter([("grid", grids)]).unwrap();
    let file = std::fs::File::create(&path).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(file, batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let out = bin()
        .args(["solve", "-q", "--column", "grid"])
        .arg(&path)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("column 0 (\"grid\") holds lists of whole numbers"),
        "{err}"
    );
    assert!(!err.contains("List(") && !err.contains("Int8"), "{err}");
}
