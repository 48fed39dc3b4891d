//! Resume: `solve --resume` finishes an output that an interruption (or a crash) cut short so
//! that it matches an uninterrupted run (apart from `time_ns`), from any cut, and refuses an
//! output that does not fit.

use std::path::Path;
use std::process::Output;

use crate::interrupt::{big_input, full_run, interrupt};
use crate::util::{assert_same, bin, mixed_records, sample, sample_puzzles, strip_times, write};

/// What a run of `solve -o OUTPUT` (with `--limit limit`, and `--emit-solutions` when asked)
/// keeps beside OUTPUT until it finishes, the options that shape its rows, written as such a
/// run writes it: a finished output cut short then stands for one that a crash left.
fn record_options(output: &Path, limit: u64, emit_solutions: bool) {
    use sudoku_batch::pipeline::read::Source;
    use sudoku_batch::pipeline::resume::RunOptions;
    use sudoku_batch::pipeline::{Config, Output};
    let mut config = Config::new(Source::Stdin, Output::Path(output.to_path_buf()));
    config.solve.limits.solutions = limit;
    config.emit_solutions = emit_solutions.then(|| output.with_extension("solutions"));
    RunOptions::of(&config).record(output).unwrap();
}

/// Runs `solve -q -o OUTPUT INPUT`, with `--resume` when asked.
fn solve_into(output: &Path, input: &Path, resume: bool) -> Output {
    let mut cmd = bin();
    cmd.args(["solve", "-q", "-o"]).arg(output).arg(input);
    if resume {
        cmd.arg("--resume");
    }
    cmd.output().unwrap()
}

#[test]
fn resume_after_sigint_matches_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_input(dir.path(), 4);
    let output = dir.path().join("out.csv");
    let (code, _) = interrupt(&input, &output, "INT");
    let full = full_run(&input);
    if code == Some(0) {
        return; // the run finished before the signal: nothing to resume
    }
    assert_eq!(code, Some(130));
    let out = solve_into(&output, &input, true);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("resumed: "), "{err}");
    assert_same(
        &strip_times(&std::fs::read(&output).unwrap()),
        &full,
        "resumed",
    );
}

/// Cutting a finished output anywhere (mid-row included) and resuming gives the same file.
#[test]
fn resume_from_any_cut_redoes_the_damaged_row() {
    let dir = tempfile::tempdir().unwrap();
    // Mixed records, invalid ones included, so rows with quotes and errors are cut too.
    let mut text = mixed_records();
    text.extend(std::fs::read(sample()).unwrap().iter().take(20_000));
    let input = write(dir.path(), "in.txt", &text);
    let reference = dir.path().join("ref.csv");
    let out = solve_into(&reference, &input, false);
    assert_eq!(out.status.code(), Some(1), "mixed.txt has invalid records");
    let full = std::fs::read(&reference).unwrap();
    let want = strip_times(&full);
    let output = dir.path().join("out.csv");
    for cut in [
        0,
        10,
        62,
        63,
        200,
        1000,
        full.len() / 2,
        full.len() - 1,
        full.len(),
    ] {
        std::fs::write(&output, &full[..cut]).unwrap();
        record_options(&output, 2, false);
        let out = solve_into(&output, &input, true);
        // Exit 1 however much was resumed: the file as a whole holds invalid rows.
        assert_eq!(out.status.code(), Some(1), "cut {cut}: {out:?}");
        assert_same(
            &strip_times(&std::fs::read(&output).unwrap()),
            &want,
            &format!("cut at byte {cut}"),
        );
    }
}

#[test]
fn resume_refuses_an_output_that_does_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.csv");
    let run = |input: &Path| solve_into(&output, input, true);
    // Another header: not a results file.
    std::fs::write(&output, "a,b,c\n1,2,3\n").unwrap();
    let out = run(&sample());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("out.csv: cannot resume") && err.contains("header"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "a,b,c\n1,2,3\n",
        "a refused output is left alone"
    );

    // The output of another input: the line of its last row does not match.
    let sample_text = std::fs::read_to_string(sample()).unwrap();
    let other = write(dir.path(), "other.txt", format!("\n\n{sample_text}"));
    let out = solve_into(&output, &other, false);
    assert_eq!(out.status.code(), Some(0));
    let before = std::fs::read(&output).unwrap();
    let cut = before.len() / 2;
    std::fs::write(&output, &before[..cut]).unwrap();
    let out = run(&sample());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("OUTPUT does not match INPUT"), "{err}");

    // More rows than the input has records: the first record of the output's input, on its
    // line, and nothing after it.
    let first = sample_text
        .lines()
        .position(|l| !l.starts_with('#'))
        .unwrap();
    let head: Vec<&str> = sample_text.lines().take(first + 1).collect();
    let short = write(dir.path(), "short.txt", format!("\n\n{}", head.join("\n")));
    let out = run(&short);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("has only 1 record\n"), "{err}");

    // --resume needs -o.
    let out = bin()
        .args(["solve", "--resume"])
        .arg(sample())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin()
        .args(["solve", "--resume", "-o", "-"])
        .arg(sample())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs an output file"));
}

#[test]
fn resume_with_emit_solutions_from_any_pair_of_cuts() {
    let dir = tempfile::tempdir().unwrap();
    // Invalid records (no solutions), unique puzzles (one) and the empty grid (three at
    // --limit 3), so that rows own zero, one or several solution rows.
    let mut text = mixed_records();
    for (i, line) in sample_puzzles().iter().take(60).enumerate() {
        text.extend_from_slice(line.as_bytes());
        text.push(b'\n');
        if i % 20 == 0 {
            text.extend_from_slice(&[b'.'; 81]);
            text.push(b'\n');
        }
    }
    let input = write(dir.path(), "in.txt", &text);
    let run = |output: &Path, solutions: &Path, resume: bool| {
        let mut cmd = bin();
        cmd.args(["solve", "-q", "--limit", "3", "--emit-solutions"])
            .arg(solutions)
            .arg("-o")
            .arg(output)
            .arg(&input);
        if resume {
            cmd.arg("--resume");
        }
        cmd.output().unwrap()
    };
    let (reference, reference_solutions) =
        (dir.path().join("ref.csv"), dir.path().join("ref-s.csv"));
    let out = run(&reference, &reference_solutions, false);
    assert_eq!(out.status.code(), Some(1), "mixed.txt has invalid records");
    let full = std::fs::read(&reference).unwrap();
    let want = strip_times(&full);
    let full_solutions = std::fs::read(&reference_solutions).unwrap();
    assert!(
        String::from_utf8_lossy(&full_solutions).contains(",3,"),
        "some rows have three solutions"
    );

    // A crash can leave either file ahead of the other, each possibly cut inside a row.
    let (output, solutions) = (dir.path().join("out.csv"), dir.path().join("out-s.csv"));
    let (n, m) = (full.len(), full_solutions.len());
    for cut in [0, 63, 700, n / 3, n / 2, n - 1, n] {
        for solutions_cut in [0, 10, 20, 300, m / 4, m / 2, m - 1, m] {
            std::fs::write(&output, &full[..cut]).unwrap();
            std::fs::write(&solutions, &full_solutions[..solutions_cut]).unwrap();
            record_options(&output, 3, true);
            let out = run(&output, &solutions, true);
            let what = format!("results cut at {cut}, solutions at {solutions_cut}");
            assert_eq!(out.status.code(), Some(1), "{what}: {out:?}");
            assert_same(&strip_times(&std::fs::read(&output).unwrap()), &want, &what);
            assert!(
                std::fs::read(&solutions).unwrap() == full_solutions,
                "{what}: the solutions differ from an uninterrupted run's"
            );
        }
    }

    // Solutions of other lines: refused, and neither file is touched.
    std::fs::write(&output, &full[..n / 2]).unwrap();
    let header_end = full_solutions.iter().position(|&b| b == b'\n').unwrap() + 1;
    let second_row = header_end
        + full_solutions[header_end..]
            .iter()
            .position(|&b| b == b'\n')
            .unwrap()
        + 1;
    let mut shifted = full_solutions[..header_end].to_vec();
    shifted.extend_from_slice(&full_solutions[second_row..]);
    std::fs::write(&solutions, &shifted).unwrap();
    let out = run(&output, &solutions, true);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the solutions do not match the results"),
        "{err}"
    );
    assert_eq!(std::fs::read(&output).unwrap(), &full[..n / 2]);
    assert_eq!(std::fs::read(&solutions).unwrap(), shifted);
}

#[test]
fn resume_into_a_missing_or_complete_output() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("new.csv");
    let run = || solve_into(&output, &sample(), true);
    assert_eq!(run().status.code(), Some(0));
    let first = std::fs::read(&output).unwrap();
    assert_same(&strip_times(&first), &full_run(&sample()), "fresh start");
    assert_eq!(run().status.code(), Some(0));
    assert_eq!(
        std::fs::read(&output).unwrap(),
        first,
        "nothing left to do: unchanged"
    );
}
