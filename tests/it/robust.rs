//! Careless and hostile use of inputs, signals and limits: what a directory holds that is not
//! read is named, a stop is honoured even when the output is stuck and says how to finish the
//! run, an interrupted check claims nothing of what it did not check, and memory-hungry
//! compressed inputs are refused with what they need.

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
    // The record of options stays beside the finished output, for a later --resume or merge.
    assert!(Path::new(&sidecar).exists());
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
