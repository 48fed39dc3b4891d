//! `validate --duplicates --isomorphs`: a later isomorph of a puzzle whose status is known
//! takes that status without a search, and its row is the same whatever the threads and
//! batches (whether its worker searched it or not).

use crate::util::{bin, sample_puzzles, stderr, write};

/// `puzzle` (81 characters) transformed by `k`: rows swapped within each band, digits
/// relabelled, transposed for odd `k`.
fn isomorph(puzzle: &str, k: usize) -> String {
    let cells: Vec<u8> = puzzle.bytes().collect();
    let rows: [usize; 9] = match k % 3 {
        0 => [0, 1, 2, 3, 4, 5, 6, 7, 8],
        1 => [1, 0, 2, 5, 3, 4, 6, 8, 7],
        _ => [2, 1, 0, 4, 5, 3, 8, 7, 6],
    };
    let mut out = String::with_capacity(81);
    for row in rows {
        for c in 0..9 {
            let (r, c) = if k % 2 == 1 { (c, row) } else { (row, c) };
            let d = cells[r * 9 + c];
            out.push(if d.is_ascii_digit() && d != b'0' {
                (b'1' + (d - b'1' + k as u8) % 9) as char
            } else {
                '.'
            });
        }
    }
    out
}

/// `validate --all --duplicates --isomorphs` with `args`: the rows (time blanked where the
/// record was searched) and stderr.
fn run(input: &std::path::Path, args: &[&str]) -> (Vec<Vec<String>>, String) {
    let out = bin()
        .args(["validate", "--all", "--duplicates", "--isomorphs"])
        .args(args)
        .arg(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let rows = reader
        .records()
        .map(|r| {
            let mut r: Vec<String> = r.unwrap().iter().map(String::from).collect();
            if !r[6].is_empty() {
                r[6] = "t".into();
            }
            r
        })
        .collect();
    (rows, stderr(&out))
}

#[test]
fn later_isomorphs_take_their_class_status_alike_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut classes: Vec<String> = sample_puzzles()[..40].to_vec();
    // Multiple solutions: the first puzzle's first ten clues alone.
    let mut kept = 0;
    let few: String = classes[0]
        .chars()
        .map(|c| {
            kept += usize::from(c != '.');
            if c != '.' && kept > 10 { '.' } else { c }
        })
        .collect();
    classes.push(few);
    // Clues that conflict: the unit named differs between isomorphs.
    classes.push(format!("11{}", ".".repeat(79)));
    // Three rounds of isomorphs, each class's copies 42 records apart.
    let text: String = (0..3)
        .flat_map(|k| classes.iter().map(move |p| format!("{}\n", isomorph(p, k))))
        .collect();
    let input = write(dir.path(), "in.txt", &text);
    let n = classes.len();

    // One record a batch on one thread: the workers see most classes known. One batch on
    // two threads: they see none. The rows are the same.
    let (one, err) = run(&input, &["-j", "1", "--batch-size", "1"]);
    for args in [
        ["-j", "2", "--batch-size", "1"],
        ["-j", "2", "--batch-size", "4096"],
    ] {
        let (other, _) = run(&input, &args);
        assert_eq!(other, one, "{args:?}");
    }
    assert_eq!(one.len(), 3 * n);
    for (i, row) in one.iter().enumerate().skip(n) {
        let first = i % n + 1;
        let [
            line,
            _,
            status,
            solutions,
            solution,
            guesses,
            time,
            error,
            problem,
        ] = &row[..]
        else {
            panic!("{row:?}")
        };
        assert_eq!(line, &(i + 1).to_string());
        if i % n == n - 1 {
            // Conflicting clues: searched, each naming its own unit.
            assert_eq!((status.as_str(), guesses.as_str()), ("unsolvable", "0"));
            assert!(error.starts_with("digit"), "{row:?}");
            assert_eq!(problem, &format!("unsolvable; isomorph of line {first}"));
        } else {
            // Copied: the class's status and count, nothing of a search.
            let want = if i % n == n - 2 { "multiple" } else { "unique" };
            assert_eq!(status, want, "{row:?}");
            assert_eq!(solutions, if want == "multiple" { "2" } else { "1" });
            assert_eq!(
                [solution, guesses, time, error],
                [""; 4].map(String::from).each_ref()
            );
            let lead = if want == "multiple" { "multiple; " } else { "" };
            assert_eq!(problem, &format!("{lead}isomorph of line {first}"));
        }
    }
    // The first of each class was searched: a unique one has its solution.
    assert!(
        one[..n - 2]
            .iter()
            .all(|r| r[4].len() == 81 && !r[5].is_empty())
    );
    let copied = 2 * (n - 1);
    assert!(err.contains(&format!("{copied} not searched")), "{err}");
    assert!(
        err.contains(&format!("(of the {} searched)", 3 * n - copied)),
        "{err}"
    );

    // A class whose first search ran out of guesses is searched member by member.
    let (limited, _) = run(
        &input,
        &["-j", "1", "--batch-size", "1", "--max-guesses", "1"],
    );
    let aborted: Vec<usize> = (0..n).filter(|&i| limited[i][2] == "aborted").collect();
    assert!(!aborted.is_empty() && aborted.len() < n - 2, "{aborted:?}");
    for i in aborted {
        for row in [&limited[i + n], &limited[i + 2 * n]] {
            assert!(!row[5].is_empty() && row[6] == "t", "{row:?}");
            assert!(row[8].contains("isomorph of line"), "{row:?}");
        }
    }
    let (limited_two, _) = run(&input, &["-j", "2", "--max-guesses", "1"]);
    assert_eq!(limited_two, limited);

    // Redundant clues need each record's own search: nothing is copied.
    let (minimal, err) = run(&input, &["-j", "1", "--batch-size", "1", "--minimal"]);
    assert!(minimal.iter().all(|r| !r[5].is_empty()), "{err}");
    assert!(!err.contains("not searched"), "{err}");
}
