//! Where `solve` and `validate` write: `-o` and the summary, replacing an existing file, refusing
//! to write over the input, and a closed stdout.

use std::ffi::{OsStr, OsString};

use crate::util::{bin, data, exe, write};

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
    let empty = write(dir.path(), "empty.txt", "");
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
    let text = std::fs::read(data("sound.txt")).unwrap();
    let input = write(dir.path(), "puzzles.txt", &text);
    let other = dir.path().join("sub/../puzzles.txt"); // the same file, spelt otherwise
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let results = dir.path().join("results.csv");
    let refused = |args: &[&OsStr], what: &str| {
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
    let os = |s: &str| OsString::from(s);
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
    let dir = tempfile::tempdir().unwrap();
    let line = format!("{}\n", crate::util::PUZZLE);
    let file = write(dir.path(), "big.txt", line.repeat(40_000));
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "'{}' solve -q '{}' | head -n 2 >/dev/null; echo \"${{PIPESTATUS[0]}}\"",
            exe().display(),
            file.display()
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0", "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}
