//! `solve` on the fixtures: one row per record in every input layout (text, the Kaggle CSV
//! layouts, grid blocks, stdin), each checked against the oracle; `--limit` and
//! `--emit-solutions`; usage errors.

use std::collections::HashSet;

use sudoku_batch::Grid;

use crate::util::{
    Oracle, PUZZLE, assert_same, bin, check_against_oracle, data, exe, rows, solve, strip_times,
};

#[test]
fn mixed_text_file_gives_one_row_per_record_with_reasons() {
    let out = solve(&[], &data("mixed.txt"));
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
        let out = solve(&[], &data(file));
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
    let by_name = solve(&["--column", "PUZZLE"], &data("kaggle_puzzle.csv"));
    let by_index = solve(&["--column", "1"], &data("kaggle_puzzle.csv"));
    assert_eq!(strip_times(&by_name.stdout), strip_times(&by_index.stdout));
    let missing = solve(&["--column", "nope"], &data("kaggle_puzzle.csv"));
    assert_eq!(missing.status.code(), Some(2));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.contains("kaggle_puzzle.csv") && err.contains("\"nope\" not found"),
        "{err}"
    );
}

#[test]
fn grid_blocks_are_read_verbatim() {
    let out = solve(&["--format", "grid"], &data("grid_blocks.txt"));
    assert_eq!(out.status.code(), Some(0));
    let rows = rows(&out);
    let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
    assert_eq!(lines, [2, 13, 24]);
    assert_eq!(check_against_oracle(&rows), 3);
}

#[test]
fn stdin_and_file_give_identical_rows() {
    let file = solve(&[], &data("mixed.txt"));
    let stdin = bin()
        .args(["solve", "-q", "-"])
        .pipe_stdin(data("mixed.txt"))
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(stdin.status.code(), Some(1));
    assert_same(
        &strip_times(&file.stdout),
        &strip_times(&stdin.stdout),
        "file vs stdin",
    );
}

#[test]
fn a_terminal_on_stdin_gets_a_hint_and_a_pipe_does_not() {
    let hint = "reading puzzles from the terminal";
    let piped = bin()
        .args(["solve", "-qq"])
        .write_stdin(format!("{PUZZLE}\n"))
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&piped.stderr).contains(hint));
    // A terminal, where util-linux's `script` can make one: the puzzle, then Ctrl-D. `bench`
    // reads its stdin whole before timing it, so it says so too.
    for (command, result) in [("solve -qq", ",unique,1,"), ("bench --csv", ",fast,1,0,")] {
        let Ok(out) = assert_cmd::Command::new("script")
            .args([
                "-qec",
                &format!("{} {command}", exe().display()),
                "/dev/null",
            ])
            .write_stdin(format!("{PUZZLE}\n\x04"))
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
fn limit_one_reports_solved_and_emit_solutions_lists_them_all() {
    let out = solve(&["--limit", "1"], &data("kaggle_puzzle.csv"));
    assert!(rows(&out).iter().all(|r| r.status == "solved"));

    // Two clues removed from a unique puzzle: a handful of solutions, all listed.
    let sparse = format!("....{}", &PUZZLE[4..]);
    let dir = tempfile::tempdir().unwrap();
    let sols = dir.path().join("sols.csv");
    let out = bin()
        .args(["solve", "-q", "--limit", "100000", "--emit-solutions"])
        .arg(&sols)
        .write_stdin(format!("{sparse}\n"))
        .output()
        .unwrap();
    let rows = rows(&out);
    let want = Oracle::line(&sparse).count(100_000);
    assert!(want > 2, "the test puzzle should have several solutions");
    assert_eq!(rows[0].solutions, want);
    let listed = std::fs::read_to_string(&sols).unwrap();
    let mut lines = listed.lines();
    assert_eq!(lines.next(), Some("line,index,solution"));
    let mut seen = HashSet::new();
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
fn usage_errors_exit_2() {
    let out = bin().args(["solve", "--limit", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "usage errors exit 2");
}
