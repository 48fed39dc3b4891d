//! `--shard K/N`: the parts of a run, concatenated or merged, are the run on one
//! machine (but for `time_ns`), for text, CSV, TSV, gzip, grid and stdin inputs, one or
//! several at a time, cut by bytes or by record index.

use std::path::{Path, PathBuf};

use crate::util::{HEADER, PUZZLE, bin, data, gzip, mixed_records, sample_puzzles, write};

/// The part counts tried.
pub(crate) const PARTS: [u64; 4] = [1, 2, 3, 7];

/// A mixed corpus in `dir`: a text file (valid and invalid records, comments, a BOM), a CSV
/// file and a gzip text file.
pub(crate) fn corpus(dir: &Path) -> Vec<PathBuf> {
    let mut text = mixed_records();
    for p in sample_puzzles().iter().take(150) {
        text.extend_from_slice(p.as_bytes());
        text.push(b'\n');
    }
    let zipped: String = sample_puzzles()[500..540]
        .iter()
        .map(|p| format!("{p}\n# between\n"))
        .collect();
    vec![
        write(dir, "mixed.txt", text),
        data("kaggle_quizzes.csv"),
        write(dir, "more.txt.gz", gzip(zipped.as_bytes())),
    ]
}

/// The CSV `text` with the `time_ns` column, if any, blanked.
pub(crate) fn without_times(text: &str) -> String {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut rows = reader.records().map(|r| r.expect("valid CSV"));
    let Some(header) = rows.next() else {
        return String::new();
    };
    let time = header.iter().position(|f| f == "time_ns");
    let mut out = header.iter().collect::<Vec<_>>().join(",") + "\n";
    for row in rows {
        let fields: Vec<&str> = row
            .iter()
            .enumerate()
            .map(|(i, f)| if Some(i) == time { "" } else { f })
            .collect();
        out += &fields.join(",");
        out.push('\n');
    }
    out
}

/// Runs `sudoku-batch ARGS` and returns its stdout, after checking its exit code is `code`.
pub(crate) fn run(args: &[&str], code: i32) -> String {
    let out = bin().args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The outputs of `command ARGS --shard K/N INPUTS` for K in 0..N, each written to a file in
/// `dir`.
pub(crate) fn shard_files(
    dir: &Path,
    args: &[&str],
    inputs: &[PathBuf],
    n: u64,
    code: i32,
) -> Vec<PathBuf> {
    (0..n)
        .map(|k| {
            let path = dir.join(format!("{}-{k}-of-{n}.csv", args[0]));
            let shard = format!("{k}/{n}");
            let mut all: Vec<&str> = args.to_vec();
            all.extend(["-q", "--shard", &shard, "-o", path.to_str().unwrap()]);
            all.extend(inputs.iter().map(|p| p.to_str().unwrap()));
            let out = bin().args(&all).output().unwrap();
            // A part's exit code is its own records'; only 2 (an error) is wrong.
            assert!(
                matches!(out.status.code(), Some(0 | 1)) || code == 2,
                "{all:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            path
        })
        .collect()
}

/// The files concatenated, the header kept from the first only.
pub(crate) fn concatenate(files: &[PathBuf]) -> String {
    let mut out = String::new();
    for (i, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).unwrap();
        let body = if i == 0 {
            &text[..]
        } else {
            text.split_once('\n').map_or("", |(_, rest)| rest)
        };
        out += body;
    }
    out
}

/// Checks that the parts of `command ARGS INPUTS` concatenated, and merged, are the whole.
fn parts_make_the_whole(args: &[&str], inputs: &[PathBuf], merge_input: bool) {
    let dir = tempfile::tempdir().unwrap();
    let mut whole_args: Vec<&str> = args.to_vec();
    whole_args.push("-q");
    whole_args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    let whole = bin().args(&whole_args).output().unwrap();
    let code = whole.status.code().unwrap();
    let whole = without_times(&String::from_utf8(whole.stdout).unwrap());
    assert!(whole.lines().count() > 1, "{args:?}: no rows");
    for n in PARTS {
        let files = shard_files(dir.path(), args, inputs, n, code);
        crate::util::assert_same(
            &without_times(&concatenate(&files)),
            &whole,
            &format!("{args:?} in {n} parts, concatenated"),
        );
        let merged = dir.path().join(format!("merged-{n}.csv"));
        let mut merge: Vec<&str> = vec!["merge"];
        if merge_input {
            // The inputs are read again, as the run read them.
            if let Some(at) = args.iter().position(|&a| a == "--format") {
                merge.extend(&args[at..at + 2]);
            }
            for input in inputs {
                merge.extend(["--input", input.to_str().unwrap()]);
            }
        }
        merge.push(merged.to_str().unwrap());
        merge.extend(files.iter().map(|p| p.to_str().unwrap()));
        run(&merge, 0);
        crate::util::assert_same(
            &without_times(&std::fs::read_to_string(&merged).unwrap()),
            &whole,
            &format!("{args:?} in {n} parts, merged"),
        );
    }
}

#[test]
fn solve_parts_of_several_inputs_make_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    parts_make_the_whole(&["solve"], &corpus(dir.path()), true);
}

/// Uncompressed files of one record a line, which parts cut by bytes: text with empty and `#`
/// lines, CRLF and a last line with no line break; CSV with a header and the puzzle in its
/// third column; TSV with no header; CSV with quoted fields, some holding line breaks.
pub(crate) fn plain_corpus(dir: &Path) -> Vec<PathBuf> {
    let puzzles = sample_puzzles();
    let mut text = mixed_records();
    for (i, p) in puzzles[..120].iter().enumerate() {
        text.extend_from_slice(
            match i % 7 {
                0 => format!("{p}\r\n"),
                1 => format!("\n# note\n{p}\n"),
                2 => format!("\r\n{p} rated {i}\n\n"),
                3 => format!("{p}\r"),
                _ => format!("{p}\n"),
            }
            .as_bytes(),
        );
    }
    text.extend_from_slice(puzzles[120].as_bytes());
    let mut csv = String::from("id,rating,puzzle,note\r\n");
    let mut tsv = String::new();
    let mut quoted = String::from("id,note,puzzle\n");
    for (i, p) in puzzles[200..320].iter().enumerate() {
        csv += &format!("{i},{},{p},ok\r\n", i % 5);
        tsv += &format!("{i}\t{p}\n");
        let note = match i % 4 {
            0 => "\"two\nlines\"".to_string(),
            1 => format!("\"a puzzle inside\n{p}\n\""),
            2 => "\"say \"\"hi\"\"\"".to_string(),
            _ => "plain".to_string(),
        };
        quoted += &format!("{i},{note},{p}\n");
    }
    vec![
        write(dir, "plain.txt", text),
        write(dir, "third.csv", csv),
        write(dir, "no-header.tsv", tsv),
        write(dir, "quoted.csv", quoted),
    ]
}

#[test]
fn parts_of_plain_files_cut_by_bytes_make_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = plain_corpus(dir.path());
    for input in &inputs {
        parts_make_the_whole(&["solve"], std::slice::from_ref(input), true);
    }
    parts_make_the_whole(&["solve"], &inputs, true);
    parts_make_the_whole(&["validate", "--all"], &inputs[1..3], true);
}

#[test]
fn parts_of_an_input_smaller_than_their_count_may_be_empty() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "two.txt", format!("{PUZZLE}\n\n{PUZZLE}"));
    let files = shard_files(dir.path(), &["solve"], std::slice::from_ref(&input), 7, 0);
    let empty = files
        .iter()
        .filter(|f| std::fs::read_to_string(f).unwrap() == format!("{HEADER}\n"))
        .count();
    assert_eq!(empty, 5, "two records in seven parts");
    // Merged with the input, the empty parts included.
    parts_make_the_whole(&["solve"], &[input], true);
}

#[test]
fn parts_of_inputs_that_are_counted_make_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    // Plain text beside gzip: every part counts the records.
    let inputs = corpus(dir.path());
    parts_make_the_whole(&["solve"], &[inputs[0].clone(), inputs[2].clone()], true);
    // Grid blocks, plain and compressed.
    let blocks = std::fs::read(data("grid_blocks.txt")).unwrap();
    let grids = [
        write(dir.path(), "blocks.txt", &blocks),
        write(dir.path(), "blocks.txt.gz", gzip(&blocks)),
    ];
    parts_make_the_whole(&["solve", "--format", "grid"], &grids, true);
}

#[test]
fn parts_of_stdin_make_the_whole_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = plain_corpus(dir.path()).remove(0);
    let zipped = write(
        dir.path(),
        "plain.txt.gz",
        gzip(&std::fs::read(&text).unwrap()),
    );
    for input in [&text, &zipped] {
        let whole = without_times(&run(&["solve", "-q", input.to_str().unwrap()], 1));
        let mut parts = Vec::new();
        for k in 0..3 {
            let path = dir.path().join(format!("stdin-{k}.csv"));
            let shard = format!("{k}/3");
            let out = bin()
                .args(["solve", "-q", "--shard", &shard, "-o"])
                .arg(&path)
                .args((k == 1).then_some("-"))
                .pipe_stdin(input)
                .unwrap()
                .output()
                .unwrap();
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{shard}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            parts.push(path);
        }
        crate::util::assert_same(
            &without_times(&concatenate(&parts)),
            &whole,
            &format!("{} on stdin in 3 parts", input.display()),
        );
    }
}

#[test]
fn solve_parts_of_each_kind_of_input_make_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    for input in corpus(dir.path()) {
        parts_make_the_whole(&["solve"], &[input], true);
    }
}

#[test]
fn validate_and_grade_parts_make_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = corpus(dir.path());
    parts_make_the_whole(&["validate", "--all"], &inputs, false);
    // Only the failing rows: the lines have gaps, which merge without --input accepts.
    parts_make_the_whole(&["validate"], &inputs[..1], false);
    parts_make_the_whole(&["grade", "--max-time-ms", "2000"], &inputs[1..], false);
}
