//! Messages in plain words: options that make no shard say why, a column that is not there
//! is refused up front, the summary says which column of which input was read, and no message
//! holds Rust's debug text (`Some(..)`, `None`, `Auto`, type names).

use std::path::Path;

use crate::util::{PUZZLE, bin, stderr, strip_times, write};

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
