//! `canon --split`: isomorph classes dealt into named parts, every isomorph of a puzzle in the
//! part of the puzzle, the same parts for the same seed.

use std::collections::HashMap;

use crate::util::{bin, sample_puzzles, stderr, write};

/// `puzzle` transposed: an isomorph, another string.
fn transposed(puzzle: &str) -> String {
    let cells = puzzle.as_bytes();
    (0..81)
        .map(|i| cells[(i % 9) * 9 + i / 9] as char)
        .collect()
}

/// The `part` of each line of `canon --split` over `input`.
fn parts(input: &std::path::Path, extra: &[&str]) -> HashMap<u64, String> {
    let out = bin()
        .args(["canon", "-qq", "--split", "train=3,test=1"])
        .args(extra)
        .arg(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("line,puzzle,status,canonical,automorphisms,part,error")
    );
    lines
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            (fields[0].parse().unwrap(), fields[5].to_string())
        })
        .collect()
}

#[test]
fn every_isomorph_lands_in_the_part_of_its_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles: Vec<String> = sample_puzzles().into_iter().take(400).collect();
    // Line 2k+1 a puzzle, line 2k+2 its transpose.
    let text: String = puzzles
        .iter()
        .flat_map(|p| [p.clone(), transposed(p)])
        .map(|l| l + "\n")
        .collect();
    let input = write(dir.path(), "pairs.txt", text);
    let parts = parts(&input, &[]);
    assert_eq!(parts.len(), 2 * puzzles.len());
    for k in 0..puzzles.len() as u64 {
        assert_eq!(
            parts[&(2 * k + 1)],
            parts[&(2 * k + 2)],
            "line {}",
            2 * k + 1
        );
    }
    let test = parts.values().filter(|p| *p == "test").count();
    let share = test as f64 / parts.len() as f64;
    assert!((0.15..0.35).contains(&share), "test share {share}");
    // The same seed, the same parts; another seed deals the classes anew.
    assert_eq!(parts, self::parts(&input, &["--split-seed", "0"]));
    assert_ne!(parts, self::parts(&input, &["--split-seed", "7"]));
}

#[test]
fn a_split_that_is_not_two_named_shares_is_refused() {
    for bad in [
        "train=8",
        "train=8,train=2",
        "a=1,b",
        "a=0,b=0",
        "=1,b=2",
        "a=x,b=1",
    ] {
        let out = bin().args(["canon", "--split", bad, "-"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
    }
}
