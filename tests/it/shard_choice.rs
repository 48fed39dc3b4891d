//! `--shard K/N` beyond the split itself: bad parts refused before any file is made, `auto`
//! from Slurm's and Kubernetes' variables, `--resume` keeping the part, `generate`'s parts,
//! and a named pipe read from a copy.

use crate::shards::{PARTS, concatenate, plain_corpus, run, without_times};
use crate::util::{PUZZLE, bin, data, gzip, sample_puzzles, write};

#[test]
fn bad_shards_are_refused_before_any_file_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let input = data("kaggle_quizzes.csv");
    for bad in ["3/3", "1/0", "-1/2", "1", "x/2", "auto"] {
        let got = bin()
            .args(["solve", "--shard", bad, "-o"])
            .arg(&out)
            .arg(&input)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .output()
            .unwrap();
        assert_eq!(got.status.code(), Some(2), "--shard {bad}");
        assert!(!out.exists(), "--shard {bad} made the output");
    }
    // A part of stdin copies it to a temporary file first: none can be made here.
    let got = bin()
        .args(["solve", "--shard", "0/2", "-o"])
        .arg(&out)
        .env("TMPDIR", dir.path().join("no such directory"))
        .write_stdin(format!("{PUZZLE}\n"))
        .output()
        .unwrap();
    assert_eq!(got.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&got.stderr).contains("TMPDIR"));
    assert!(!out.exists());
}

#[test]
fn auto_takes_the_part_from_slurm_and_kubernetes() {
    let input = data("kaggle_quizzes.csv");
    let given = run(
        &["solve", "-q", "--shard", "2/3", input.to_str().unwrap()],
        0,
    );
    let slurm = bin()
        .args(["solve", "-q", "--shard", "auto"])
        .arg(&input)
        .env("SLURM_ARRAY_TASK_ID", "3")
        .env("SLURM_ARRAY_TASK_MIN", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .output()
        .unwrap();
    assert_eq!(
        without_times(&String::from_utf8(slurm.stdout).unwrap()),
        without_times(&given)
    );
    // A resubmitted task of an array (`sbatch --array=5`) is an array of one: the whole input,
    // with a warning that says how to redo one part.
    let lone = bin()
        .args(["solve", "-q", "--shard", "auto"])
        .arg(&input)
        .env("SLURM_ARRAY_TASK_ID", "5")
        .env("SLURM_ARRAY_TASK_MIN", "5")
        .env("SLURM_ARRAY_TASK_COUNT", "1")
        .output()
        .unwrap();
    assert_eq!(lone.status.code(), Some(0));
    let stderr = String::from_utf8(lone.stderr).unwrap();
    assert!(stderr.contains("give --shard K/N"), "{stderr}");
    let whole = run(&["solve", "-q", input.to_str().unwrap()], 0);
    assert_eq!(
        without_times(&String::from_utf8(lone.stdout).unwrap()),
        without_times(&whole)
    );
    let k8s = bin()
        .args(["solve", "-q", "--shard", "auto", "--shards", "3"])
        .arg(&input)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env("JOB_COMPLETION_INDEX", "2")
        .output()
        .unwrap();
    assert_eq!(
        without_times(&String::from_utf8(k8s.stdout).unwrap()),
        without_times(&given)
    );
}

#[test]
fn resume_keeps_the_part() {
    let dir = tempfile::tempdir().unwrap();
    let input = data("kaggle_quizzes.csv");
    let out = dir.path().join("part.csv");
    let part = |shard: &str| {
        bin()
            .args(["solve", "-q", "--resume", "--shard", shard, "-o"])
            .arg(&out)
            .arg(&input)
            .output()
            .unwrap()
    };
    assert_eq!(part("1/2").status.code(), Some(0));
    let done = std::fs::read_to_string(&out).unwrap();
    // Resuming the finished part checks each row against the part's records and adds none.
    assert_eq!(part("1/2").status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), done);
    // Another part's records are not those rows.
    let other = part("0/2");
    assert_eq!(other.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), done);
}

/// A resumed part of a text input, read line by line in place, stops at the part's end:
/// it once ran on to the end of the input whenever its read-ahead was quick enough. Plain
/// text is cut by bytes, gzip text by record index.
#[test]
fn r_resumed_part_of_text_stops_at_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let lines: String = sample_puzzles()[..60]
        .iter()
        .map(|p| p.clone() + "\n")
        .collect();
    // Part 3 of 16: of 60 lines of 82 bytes, the 3 starting in bytes [922, 1230); of 60
    // records, the 4 in [11, 15).
    let inputs = [
        (write(dir.path(), "corpus.txt", &lines), 3),
        (
            write(dir.path(), "corpus.txt.gz", gzip(lines.as_bytes())),
            4,
        ),
    ];
    let out = dir.path().join("part.csv");
    for (input, rows) in &inputs {
        let args = ["solve", "-qq", "--shard", "3/16", input.to_str().unwrap()];
        let expected = run(&args, 0);
        assert_eq!(expected.lines().count(), rows + 1, "{args:?}: {expected}");
        for _ in 0..10 {
            let _ = std::fs::remove_file(&out);
            let args = ["solve", "-qq", "--resume", "--shard", "3/16", "-o"];
            let status = bin()
                .args(args)
                .arg(&out)
                .arg(input)
                .output()
                .unwrap()
                .status;
            assert_eq!(status.code(), Some(0));
            let got = std::fs::read_to_string(&out).unwrap();
            assert_eq!(without_times(&got), without_times(&expected));
        }
    }
}

#[test]
fn generate_parts_make_the_whole() {
    let whole = run(&["generate", "-q", "-n", "23", "--seed", "7"], 0);
    for n in PARTS {
        let parts: String = (0..n)
            .map(|k| {
                let shard = format!("{k}/{n}");
                run(
                    &[
                        "generate", "-q", "-n", "23", "--seed", "7", "--shard", &shard,
                    ],
                    0,
                )
            })
            .collect();
        crate::util::assert_same(&parts, &whole, &format!("generate in {n} parts"));
    }
    // Without a seed the parts would draw different puzzles.
    run(&["generate", "-q", "-n", "5", "--shard", "0/2"], 2);
    run(
        &["generate", "-q", "-n", "5", "--seed", "1", "--shard", "2/2"],
        2,
    );
}

#[cfg(unix)]
#[test]
fn parts_of_a_named_pipe_are_read_from_a_copy() {
    use std::os::unix::ffi::OsStrExt as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let text = plain_corpus(dir.path()).remove(0);
    let bytes = std::fs::read(&text).unwrap();
    let whole = without_times(&run(&["solve", "-q", text.to_str().unwrap()], 1));
    let pipe = dir.path().join("pipe.txt");
    let name = std::ffi::CString::new(pipe.as_os_str().as_bytes()).unwrap();
    let mut parts = Vec::new();
    for k in 0..3 {
        // SAFETY: `name` is a NUL-terminated path that lives across the call.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let writer = {
            let (pipe, bytes) = (pipe.clone(), bytes.clone());
            std::thread::spawn(move || std::fs::write(pipe, bytes))
        };
        let part = dir.path().join(format!("pipe-{k}.csv"));
        let shard = format!("{k}/3");
        let mut child = std::process::Command::new(crate::util::exe())
            .args(["solve", "-q", "--shard", &shard, "-o"])
            .arg(&part)
            .arg(&pipe)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let status = crate::util::exits_within_10_s(&mut child, "the pipe was written");
        // Should the run not have opened the pipe, the writer is let go, not left waiting.
        let _ = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&pipe);
        let _ = writer.join();
        std::fs::remove_file(&pipe).unwrap();
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(matches!(status.code(), Some(0 | 1)), "{shard}: {stderr}");
        parts.push(part);
    }
    crate::util::assert_same(
        &without_times(&concatenate(&parts)),
        &whole,
        "a named pipe in 3 parts",
    );
}
