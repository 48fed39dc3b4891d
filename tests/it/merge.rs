//! `merge`: parts that do not fit (out of order, overlapping, missing, another command's, from
//! inputs not named or named in another order) are refused before the output is made; the
//! parts of a run of several inputs, or of a directory's files picked by `--glob`, merge.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::shards::{corpus, shard_files};
use crate::util::{bin, data};

/// `merge OUT PARTS...`, with `--input` for each of `inputs`.
fn merge(out: &Path, inputs: &[&PathBuf], parts: &[&PathBuf]) -> Output {
    let mut cmd = bin();
    cmd.arg("merge");
    for input in inputs {
        cmd.arg("--input").arg(input);
    }
    cmd.arg(out).args(parts).output().unwrap()
}

/// Asserts that [`merge`] refuses: exit 2, a message that holds `why`, and no `out` made.
fn merge_refused(out: &Path, inputs: &[&PathBuf], parts: &[&PathBuf], why: &str) {
    let got = merge(out, inputs, parts);
    assert_eq!(got.status.code(), Some(2), "{inputs:?} {parts:?}");
    let stderr = String::from_utf8_lossy(&got.stderr);
    assert!(stderr.contains(why), "{stderr}");
    assert!(!out.exists(), "{parts:?}: wrote the output");
}

#[test]
fn merge_refuses_parts_that_do_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    let input = data("kaggle_quizzes.csv");
    let files = shard_files(dir.path(), &["solve"], std::slice::from_ref(&input), 3, 0);
    let out = dir.path().join("whole.csv");
    let refused = |parts: &[&PathBuf], with_input: bool, why: &str| {
        let inputs = if with_input { vec![&input] } else { vec![] };
        merge_refused(&out, &inputs, parts, why);
    };
    let [a, b, c] = [&files[0], &files[1], &files[2]];
    refused(&[a, c, b], false, "out of order");
    refused(&[a, b, b, c], false, "overlap");
    // A gap shows only against the input.
    refused(&[a, c], true, "a part is missing");
    refused(&[a, b], true, "a part is missing");
    let grade = dir.path().join("grade.csv");
    let graded = bin()
        .args(["grade", "-q", "-o"])
        .arg(&grade)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(graded.status.code(), Some(0));
    refused(&[a, &grade], false, "header");
    assert_eq!(merge(&out, &[], &[a, c]).status.code(), Some(0));
}

#[test]
fn merge_checks_every_input_of_a_run_of_several() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = corpus(dir.path());
    let files = shard_files(dir.path(), &["solve"], &inputs, 3, 0);
    let out = dir.path().join("whole.csv");
    let refused = |inputs: &[&PathBuf], parts: &[&PathBuf], why: &str| {
        merge_refused(&out, inputs, parts, why);
    };
    let [a, b, c] = [&inputs[0], &inputs[1], &inputs[2]];
    let parts: Vec<&PathBuf> = files.iter().collect();
    // A gap in any input shows: the middle part holds the end of one and the start of another.
    refused(&[a, b, c], &[parts[0], parts[2]], "a part is missing");
    refused(&[a, b], &parts, "which --input does not name");
    refused(&[b, a, c], &parts, "out of order");
    refused(&[a], &parts, "give each with --input");
    assert_eq!(merge(&out, &[a, b, c], &parts).status.code(), Some(0));
    std::fs::remove_file(&out).unwrap();
    // A directory's files, picked by --glob as in the run.
    let texts = dir.path().join("texts");
    std::fs::create_dir(&texts).unwrap();
    for name in ["a.txt", "b.txt"] {
        std::fs::copy(a, texts.join(name)).unwrap();
    }
    std::fs::copy(b, texts.join("c.csv")).unwrap();
    let parts = (0..2)
        .map(|k| {
            let part = dir.path().join(format!("glob-{k}.csv"));
            let shard = format!("{k}/2");
            let run = bin()
                .args(["solve", "-q", "--glob", "*.txt", "--shard", &shard, "-o"])
                .arg(&part)
                .arg(&texts)
                .output()
                .unwrap();
            assert_eq!(run.status.code(), Some(1), "{}", crate::util::stderr(&run));
            part
        })
        .collect::<Vec<_>>();
    let merged = bin()
        .args(["merge", "--glob", "*.txt", "--input"])
        .arg(&texts)
        .arg(&out)
        .args(&parts)
        .output()
        .unwrap();
    assert_eq!(
        merged.status.code(),
        Some(0),
        "{}",
        crate::util::stderr(&merged)
    );
    let unpicked = bin()
        .args(["merge", "--input"])
        .arg(&texts)
        .arg(dir.path().join("other.csv"))
        .args(&parts)
        .output()
        .unwrap();
    assert_eq!(unpicked.status.code(), Some(2));
}
