//! Corpora as they are published, and the formats users load results into: a puzzle column
//! found by its content, a puzzle anywhere in a text line, CSV delimiters, many inputs in one
//! run (resumable across them), and JSON lines, Parquet and compressed outputs that read back
//! to exactly the CSV's rows. Every input is made by the test.

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

/// Runs `solve -qq` on `data/sample.txt` (with a few invalid records added) into `name` in
/// `dir`, with `args`; returns the output's path.
fn sample_into(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let mut text = std::fs::read_to_string(sample()).unwrap();
    text.push_str("12x\n\"quoted\",here\n");
    let input = write(dir, "in.txt", text);
    let output = dir.join(name);
    let out = bin()
        .args(["solve", "-qq", "-j", "2", "-o"])
        .arg(&output)
        .args(args)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    output
}

/// The rows of a CSV output as text fields, `time_ns` (column 6) left out.
fn csv_rows(bytes: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(bytes);
    reader
        .records()
        .map(|r| {
            let mut r: Vec<String> = r.unwrap().iter().map(String::from).collect();
            r.remove(6);
            r
        })
        .collect()
}

/// The rows of a JSON lines output as the CSV's text fields: numbers written out, `null` as
/// an empty field, `time_ns` left out; every object must have the keys of `solve`'s header in
/// order.
fn jsonl_rows(bytes: &[u8]) -> Vec<Vec<String>> {
    let header: Vec<&str> = crate::util::HEADER.split(',').collect();
    std::str::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(|line| {
            let object: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(line).unwrap();
            let mut keys: Vec<&String> = object.keys().collect();
            // serde_json's map sorts its keys: their order is read from the line itself.
            keys.sort_by_key(|k| line.find(&format!("\"{k}\":")));
            assert_eq!(keys, header, "{line}");
            assert!(
                object["line"].is_u64() && object["solutions"].is_u64(),
                "{line}"
            );
            header
                .iter()
                .filter(|&&k| k != "time_ns")
                .map(|&k| match &object[k] {
                    serde_json::Value::Null => String::new(),
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect()
}

#[test]
fn json_lines_and_compressed_outputs_hold_the_csv_rows() {
    let dir = tempfile::tempdir().unwrap();
    let csv = csv_rows(&std::fs::read(sample_into(dir.path(), "r.csv", &[])).unwrap());
    assert_eq!(csv.len(), 1005);
    let jsonl = std::fs::read(sample_into(dir.path(), "r.jsonl", &[])).unwrap();
    assert_eq!(jsonl_rows(&jsonl), csv);
    let ndjson = sample_into(dir.path(), "r.out", &["--output-format", "jsonl"]);
    assert_eq!(jsonl_rows(&std::fs::read(ndjson).unwrap()), csv);
    let gunzip = |path: PathBuf| {
        let mut text = Vec::new();
        let file = std::fs::File::open(path).unwrap();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(file), &mut text).unwrap();
        text
    };
    let gz = gunzip(sample_into(dir.path(), "r.csv.gz", &[]));
    assert_eq!(csv_rows(&gz), csv);
    let gz = gunzip(sample_into(dir.path(), "r.jsonl.gz", &[]));
    assert_eq!(jsonl_rows(&gz), csv);
    let zst = std::fs::read(sample_into(dir.path(), "r.csv.zst", &[])).unwrap();
    assert_eq!(csv_rows(&zstd::decode_all(&zst[..]).unwrap()), csv);
    // The solutions follow the results' format unless their name says another.
    let out = dir.path().join("r.jsonl");
    let input = dir.path().join("in.txt");
    for (solutions, first) in [("s.out", "{\"line\":"), ("s.csv", "line,index,solution\n")] {
        let s = dir.path().join(solutions);
        let run = bin()
            .args(["solve", "-qq", "-o"])
            .arg(&out)
            .arg("--emit-solutions")
            .arg(&s)
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
        let text = std::fs::read_to_string(&s).unwrap();
        assert!(text.starts_with(first), "{solutions}: {text:.100}");
    }
}

#[test]
fn only_a_plain_csv_output_is_resumed() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["r.jsonl", "r.csv.gz", "r.parquet"] {
        let path = write(dir.path(), name, "earlier rows\n");
        let out = bin()
            .args(["solve", "-q", "--resume", "-o"])
            .arg(&path)
            .arg(sample())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(
            stderr(&out).contains("only a plain CSV output can be resumed"),
            "{name}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"earlier rows\n", "{name}");
    }
}

#[cfg(feature = "parquet")]
mod parquet_files {
    use std::sync::Arc;

    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, UInt64Type};
    use arrow_array::{Array, RecordBatch, StringArray, UInt64Array};
    use arrow_schema::DataType;
    use parquet::arrow::ArrowWriter;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    use super::*;

    /// Every row of a Parquet file as text fields (numbers written out, null as an empty
    /// field), the column `skip` left out, after checking the columns' names and types.
    fn parquet_rows(path: &Path, skip: &str) -> Vec<Vec<String>> {
        let file = std::fs::File::open(path).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let schema = reader.schema().clone();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names.join(","), crate::util::HEADER);
        let types: Vec<&DataType> = schema.fields().iter().map(|f| f.data_type()).collect();
        assert_eq!(types[0], &DataType::UInt64);
        assert_eq!(types[1], &DataType::Utf8);
        assert!(
            matches!(types[2], DataType::Dictionary(..)),
            "{:?}",
            types[2]
        );
        let mut rows = Vec::new();
        for batch in reader.build().unwrap() {
            let batch = batch.unwrap();
            for row in 0..batch.num_rows() {
                let fields = (0..batch.num_columns())
                    .filter(|&c| schema.field(c).name() != skip)
                    .map(|c| cell(batch.column(c).as_ref(), row))
                    .collect();
                rows.push(fields);
            }
        }
        rows
    }

    fn cell(array: &dyn Array, row: usize) -> String {
        if array.is_null(row) {
            return String::new();
        }
        match array.data_type() {
            DataType::UInt64 => array.as_primitive::<UInt64Type>().value(row).to_string(),
            DataType::Utf8 => array.as_string::<i32>().value(row).to_string(),
            DataType::Dictionary(..) => {
                let dict = array.as_dictionary::<Int32Type>();
                let key = dict.keys().value(row) as usize;
                dict.values().as_string::<i32>().value(key).to_string()
            }
            other => panic!("unexpected column type {other:?}"),
        }
    }

    #[test]
    fn a_parquet_output_holds_the_csv_rows_in_typed_columns() {
        let dir = tempfile::tempdir().unwrap();
        let csv = csv_rows(&std::fs::read(sample_into(dir.path(), "r.csv", &[])).unwrap());
        let parquet = sample_into(dir.path(), "r.parquet", &[]);
        assert_eq!(parquet_rows(&parquet, "time_ns"), csv);
        let told = sample_into(dir.path(), "r.bin", &["--output-format", "parquet"]);
        assert_eq!(parquet_rows(&told, "time_ns"), csv);
        // Compressing a Parquet file as a whole is refused before anything is written.
        let out = solve(&["-o", "r.parquet.gz"], &sample());
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("Parquet compresses its own pages"));
    }

    #[test]
    fn an_interrupted_or_empty_run_still_leaves_a_readable_parquet_file() {
        let dir = tempfile::tempdir().unwrap();
        let empty = write(dir.path(), "empty.txt", "");
        let out = dir.path().join("e.parquet");
        let run = bin()
            .args(["solve", "-qq", "-o"])
            .arg(&out)
            .arg(&empty)
            .output();
        assert_eq!(run.unwrap().status.code(), Some(0));
        assert!(parquet_rows(&out, "time_ns").is_empty());
    }

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
