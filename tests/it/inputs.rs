//! Corpora as they are published: a puzzle column found by its content, a puzzle anywhere in a
//! text line, CSV delimiters, many inputs in one run (resumable across them) and a Parquet data
//! set. Every input is made by the test.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::util::{PUZZLE as P, bin, gzip, rows, sample, sample_puzzles, solve, stderr, write};

/// The solution of [`P`].
const SOLUTION: &str =
    "762985143391724865458361792179436258534278916826519437943852671215647389687193524";

/// Fails unless every row of `out` is `unique`, and returns how many there are.
fn all_unique(out: &Output) -> usize {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    let rows = rows(out);
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(
            (r.status.as_str(), r.error.as_str()),
            ("unique", ""),
            "{r:?}"
        );
        assert_eq!(r.puzzle, P);
    }
    rows.len()
}

#[test]
fn a_csv_puzzle_column_with_another_name_is_found_by_its_content() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["question", "q", "problem", "given", "initial"] {
        let csv = format!("id,{name},answer\n1,{P},{SOLUTION}\n2,{P},{SOLUTION}\n");
        let out = solve(&[], &write(dir.path(), "x.csv", csv));
        assert_eq!(all_unique(&out), 2, "{name}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "puzzles from column 1 (\"{name}\"), found by its content"
            )),
            "{err}"
        );
    }
    // The solution column comes first: the column with blanks is the puzzle.
    let csv = format!("answer,question\n{SOLUTION},{P}\n");
    assert_eq!(all_unique(&solve(&[], &write(dir.path(), "y.csv", csv))), 1);
    // `--column` still decides.
    let csv = format!("id,question\n1,{P}\n");
    let out = solve(&["--column", "0"], &write(dir.path(), "z.csv", csv));
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("puzzles from column 0 (\"id\"), as --column says"),
        "{err}"
    );
}

#[test]
fn validate_finds_the_stated_solution_column_by_its_content() {
    let dir = tempfile::tempdir().unwrap();
    let csv = format!(
        "id,question,answer\n1,{P},{SOLUTION}\n2,{P},{}\n",
        P.replace('.', "1")
    );
    let input = write(dir.path(), "stated.csv", csv);
    let out = bin()
        .args(["validate", "-q"])
        .arg(&input)
        .arg("--expect-column")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(report.lines().count(), 2, "{report}");
    assert!(
        report.contains("stated solution differs at r1c1"),
        "{report}"
    );
}

#[test]
fn a_puzzle_after_other_fields_of_a_text_line_is_found() {
    let dir = tempfile::tempdir().unwrap();
    // Rated banks (`HASH PUZZLE RATING`), `id;puzzle`, tabs and bars.
    let text = format!("# rated bank\n0c5e9f3a21 {P} 2.3\n17;{P}\n17\t{P}\tx\n| {P} |\n");
    let out = solve(&[], &write(dir.path(), "bank.txt", text));
    assert_eq!(all_unique(&out), 4);
    assert_eq!(
        rows(&out).iter().map(|r| r.line).collect::<Vec<_>>(),
        [2, 3, 4, 5]
    );
    // Two fields of 81 cells: which is meant cannot be told, unless --field says.
    let two = write(dir.path(), "two.txt", format!("id {P} {SOLUTION}\n"));
    let out = solve(&[], &two);
    assert_eq!(out.status.code(), Some(1));
    let error = &rows(&out)[0].error;
    assert_eq!(
        error,
        "fields 1 and 2 (numbered from 0) each hold 81 cells; --field N picks one"
    );
    assert_eq!(all_unique(&solve(&["--field", "1"], &two)), 1);
    let out = solve(&["--field", "2"], &two);
    assert_eq!(rows(&out)[0].puzzle, SOLUTION);
}

#[test]
fn csv_delimited_by_semicolons_tabs_bars_or_spaces() {
    let dir = tempfile::tempdir().unwrap();
    for (name, delimiter, args) in [
        ("semi.csv", ";", &[][..]),
        ("tab.tsv", "\t", &[]),
        ("tab.csv", "\t", &[]),
        ("bar.csv", "|", &[]),
        ("space.csv", " ", &[]),
        ("told.csv", ";", &["--delimiter", ";"]),
        (
            "told-tab.txt",
            "\t",
            &["--delimiter", "tab", "--format", "csv"],
        ),
    ] {
        let csv = format!("id{delimiter}puzzle{delimiter}rating\n1{delimiter}{P}{delimiter}3.4\n");
        let csv = csv + &format!("2{delimiter}\"{P}\"{delimiter}1\n");
        let out = solve(args, &write(dir.path(), name, csv));
        assert_eq!(all_unique(&out), 2, "{name}");
    }
    // A delimiter on text input is refused, as --column is.
    let out = solve(&["--delimiter", ";"], &sample());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--delimiter needs CSV input"),
        "{}",
        stderr(&out)
    );
}

/// `n` small inputs of `per` puzzles each in `dir`, named in order, and their lines.
fn small_files(dir: &Path, n: usize, per: usize) -> Vec<PathBuf> {
    let puzzles = sample_puzzles();
    (0..n)
        .map(|i| {
            let text: String = (0..per)
                .map(|j| format!("{}\n", puzzles[(i * per + j) % puzzles.len()]))
                .collect();
            write(dir, &format!("part-{i:04}.txt"), text)
        })
        .collect()
}

#[test]
fn many_inputs_in_one_run_with_a_file_column() {
    let dir = tempfile::tempdir().unwrap();
    let parts = dir.path().join("parts");
    std::fs::create_dir(&parts).unwrap();
    let files = small_files(&parts, 30, 7);
    write(&parts, "notes.md", "not puzzles\n");
    let a = write(dir.path(), "a.txt", format!("{P}\n"));
    let b = write(
        dir.path(),
        "b.csv.gz",
        gzip(format!("id,quiz\n9,{P}\n").as_bytes()),
    );
    let out = bin()
        .args(["solve", "-q"])
        .arg(&a)
        .arg(&b)
        .arg(&parts)
        .args(["--glob", "part-*.txt", "-"])
        .write_stdin(format!("{P}\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header[..3], ["file", "line", "puzzle"]);
    let got: Vec<(String, u64)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].to_string(), r[1].parse().unwrap())
        })
        .collect();
    let mut want = vec![(a.display().to_string(), 1), (b.display().to_string(), 2)];
    for f in &files {
        want.extend((1..=7).map(|line| (f.display().to_string(), line)));
    }
    want.push(("<stdin>".to_string(), 1));
    assert_eq!(got, want);
    // The solutions file says the input too.
    let sols = dir.path().join("s.csv");
    let out = bin()
        .args(["solve", "-qq", "-o", "/dev/null", "--emit-solutions"])
        .arg(&sols)
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&sols).unwrap();
    assert_eq!(
        text,
        format!(
            "file,line,index,solution\n{},1,1,{SOLUTION}\n{},2,1,{SOLUTION}\n",
            a.display(),
            b.display()
        )
    );
}

#[test]
fn many_inputs_are_checked_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.txt", format!("{P}\n"));
    let c = write(dir.path(), "c.csv", format!("puzzle\n{P}\n"));
    let out_file = write(dir.path(), "out.csv", "precious\n");
    let column: &[&str] = &["--column", "puzzle"];
    for (options, args, what) in [
        (
            &[][..],
            vec![a.clone(), dir.path().join("missing.txt")],
            "missing.txt: No such file",
        ),
        (
            &[],
            vec![a.clone(), out_file.clone()],
            "the output is the input",
        ),
        (
            column,
            vec![c.clone(), a.clone()],
            "a.txt: --column needs CSV input",
        ),
        (
            &[],
            vec![PathBuf::from("-"), PathBuf::from("-")],
            "stdin (-) is named more than once",
        ),
    ] {
        let out = bin()
            .args(["solve", "-q"])
            .args(options)
            .arg("-o")
            .arg(&out_file)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(what), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read(&out_file).unwrap(), b"precious\n", "{args:?}");
    }
}

#[test]
fn resume_goes_on_across_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let files = small_files(dir.path(), 4, 50);
    let output = dir.path().join("out.csv");
    let run = |resume: bool| {
        let mut cmd = bin();
        cmd.args(["solve", "-q", "-o"]).arg(&output).args(&files);
        if resume {
            cmd.arg("--resume");
        }
        cmd.output().unwrap()
    };
    assert_eq!(run(false).status.code(), Some(0));
    let full = std::fs::read(&output).unwrap();
    // Cut in the middle of the second input's rows, the options file left as a crash leaves it.
    let cut = full.len() * 3 / 8;
    let options = {
        use sudoku_batch::pipeline::read::Source;
        use sudoku_batch::pipeline::{Config, Output};
        let config = Config::new(Source::Stdin, Output::Path(output.clone()));
        sudoku_batch::pipeline::resume::RunOptions::of(&config)
    };
    std::fs::write(&output, &full[..cut]).unwrap();
    options.record(&output).unwrap();
    let out = run(true);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let strip = |bytes: &[u8]| {
        // The time column is the 8th of 9 here (after `file`).
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(bytes);
        reader
            .records()
            .map(|r| {
                let mut r: Vec<String> = r.unwrap().iter().map(String::from).collect();
                r.remove(7);
                r
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&std::fs::read(&output).unwrap()), strip(&full));
    // The inputs in another order do not fit the rows kept.
    std::fs::write(&output, &full[..cut]).unwrap();
    options.record(&output).unwrap();
    let out = bin()
        .args(["solve", "-q", "--resume", "-o"])
        .arg(&output)
        .args(files.iter().rev())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("OUTPUT does not match INPUT"),
        "{}",
        stderr(&out)
    );
}

#[cfg(feature = "parquet")]
mod parquet_files {
    use std::sync::Arc;

    use arrow_array::{RecordBatch, StringArray, UInt64Array};
    use arrow_schema::DataType;
    use parquet::arrow::ArrowWriter;

    use super::*;

    /// A Parquet file as a data set would be published: an id, the puzzle under a name we
    /// do not list, its solution.
    fn dataset(path: &Path, puzzles: &[String]) {
        let schema = Arc::new(arrow_schema::Schema::new(vec![
            arrow_schema::Field::new("id", DataType::UInt64, false),
            arrow_schema::Field::new("question", DataType::Utf8, true),
            arrow_schema::Field::new("answer", DataType::Utf8, true),
        ]));
        let ids = UInt64Array::from_iter_values(0..puzzles.len() as u64);
        let questions = StringArray::from_iter_values(puzzles.iter());
        let answers = StringArray::from_iter_values(puzzles.iter().map(|_| SOLUTION));
        let batch = RecordBatch::try_new(
            schema.clone(),
            vec![Arc::new(ids), Arc::new(questions), Arc::new(answers)],
        )
        .unwrap();
        let file = std::fs::File::create(path).unwrap();
        let mut writer = ArrowWriter::try_new(file, schema, None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
    }

    #[test]
    fn a_parquet_data_set_is_solved_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let puzzles = sample_puzzles();
        let path = dir.path().join("train.parquet");
        dataset(&path, &puzzles[..300]);
        let out = solve(&[], &path);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("column 1 (\"question\"), found by its content"),
            "{err}"
        );
        let text = write(dir.path(), "same.txt", puzzles[..300].join("\n") + "\n");
        let want = crate::util::strip_times(&solve(&[], &text).stdout);
        assert_eq!(crate::util::strip_times(&out.stdout), want);
        // By name, and the stated solutions checked by `validate`.
        let out = solve(&["--column", "question"], &path);
        assert_eq!(crate::util::strip_times(&out.stdout), want);
        let out = bin()
            .args(["validate", "-q", "--expect-column", "answer"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        // A Parquet file not named so is told apart, not read as text.
        let hidden = dir.path().join("train.bin");
        std::fs::copy(&path, &hidden).unwrap();
        let out = solve(&[], &hidden);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("this is a Parquet file"),
            "{}",
            stderr(&out)
        );
    }
}
