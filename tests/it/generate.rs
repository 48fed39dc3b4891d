//! `generate`: run the binary and check its puzzles with the oracle: unique, minimal,
//! reproducible, and true to the options.

use sudoku_batch::Grid;
use sudoku_batch::generate::Symmetry;

use crate::util::{Oracle, bin, sample_puzzles};

/// Runs `generate` with `args` and returns its lines, after checking it exited 0.
fn generate(args: &[&str]) -> Vec<String> {
    let out = bin().arg("generate").args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The oracle's solution count, up to 2.
fn count(puzzle: &str) -> u64 {
    Oracle::line(puzzle).count(2)
}

fn clues(puzzle: &str) -> usize {
    puzzle.bytes().filter(|b| b.is_ascii_digit()).count()
}

#[test]
fn default_puzzles_are_unique_and_minimal() {
    let lines = generate(&["--count", "12", "--seed", "5"]);
    assert_eq!(lines.len(), 12);
    for p in &lines {
        assert_eq!(p.len(), 81, "{p}");
        assert_eq!(count(p), 1, "{p}");
        for (i, b) in p.bytes().enumerate() {
            if b != b'.' {
                let mut q = p.clone().into_bytes();
                q[i] = b'.';
                let q = String::from_utf8(q).unwrap();
                assert_eq!(count(&q), 2, "clue {} of {p} is redundant", i + 1);
            }
        }
    }
}

#[test]
fn same_seed_same_bytes_whatever_the_threads() {
    let run = |threads: &str| {
        bin()
            .args(["generate", "-n", "40", "--seed", "77", "-j", threads])
            .output()
            .unwrap()
            .stdout
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let lines: Vec<&str> = std::str::from_utf8(&one).unwrap().lines().collect();
    assert_eq!(lines.len(), 40);
    assert_ne!(lines, generate(&["-n", "40", "--seed", "78"]));
}

/// Guards the sample corpus: `data/sample.txt` was made with `generate --count 1000 --seed
/// 2026`, so the generator must keep producing those puzzles for that seed.
#[test]
fn r_sample_corpus_is_reproduced_by_its_seed() {
    // After the comment lines come the three source puzzles, then the generated ones.
    let stored = sample_puzzles()[3..33].to_vec();
    assert_eq!(generate(&["--count", "30", "--seed", "2026"]), stored);
}

#[test]
fn symmetric_patterns_hold_and_are_unique() {
    for (name, sym) in [
        ("rotational", Symmetry::Rotational),
        ("quarter-turn", Symmetry::QuarterTurn),
        ("mirror", Symmetry::Mirror),
        ("diagonal", Symmetry::Diagonal),
    ] {
        for p in generate(&["-n", "4", "--seed", "3", "--symmetry", name]) {
            let g: Grid = p.parse().unwrap();
            assert!(sym.holds_for(&g), "{name}: {p}");
            assert_eq!(count(&p), 1, "{name}: {p}");
            // Minimal per orbit: removing any orbit of clues allows a second solution.
            for orbit in sym.orbits().iter().filter(|o| g.get(o[0]) != 0) {
                let mut q = g;
                orbit.iter().for_each(|&c| q.set(c, 0));
                assert_eq!(count(&q.to_string()), 2, "{name}: {p} orbit {orbit:?}");
            }
        }
    }
}

#[test]
fn clue_bounds_hold() {
    for p in generate(&["-n", "6", "--seed", "1", "--max-clues", "23"]) {
        assert!(clues(&p) <= 23, "{p}");
        assert_eq!(count(&p), 1, "{p}");
    }
    for p in generate(&["-n", "6", "--seed", "1", "--min-clues", "26"]) {
        assert!(clues(&p) >= 26, "{p}");
        assert_eq!(count(&p), 1, "{p}");
    }
}

#[test]
fn unreachable_clue_bounds_exit_2_with_a_message() {
    let out = bin()
        .args(["generate", "-n", "3", "--seed", "1", "--max-clues", "18"])
        .args(["--attempts", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no draw in 2 attempts had at most 18 clues"),
        "{err}"
    );
    for (args, message) in [
        (
            &["--max-clues", "16"][..],
            "no puzzle with fewer than 17 clues",
        ),
        (
            &["--min-clues", "30", "--max-clues", "20"][..],
            "--min-clues 30 is more than --max-clues 20",
        ),
    ] {
        let out = bin()
            .args(["generate", "-n", "1"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{err}");
    }
}

#[test]
fn solved_gives_complete_valid_grids() {
    let lines = generate(&["--solved", "-n", "5", "--seed", "9"]);
    assert_eq!(lines.len(), 5);
    for p in &lines {
        let g: Grid = p.parse().unwrap();
        assert!(g.is_full() && g.conflict().is_none(), "{p}");
    }
}

#[test]
fn around_refuses_a_bad_seed_file_with_exit_2_and_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let unique =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let cases: [(&str, Option<&str>, &str); 5] = [
        ("missing", None, "missing"),
        (
            "empty",
            Some("# only a comment\n\n"),
            "holds no puzzle to search around",
        ),
        (
            "junk",
            Some("# seeds\nnot a puzzle\n"),
            "line 2: not a puzzle",
        ),
        (
            "many",
            Some(&".".repeat(81)),
            "line 1: the puzzle has more than one solution",
        ),
        (
            "none",
            Some(
                "11...............................................................................",
            ),
            "line 1: the puzzle has no solution",
        ),
    ];
    for (name, text, message) in cases {
        let path = dir.path().join(name);
        if let Some(text) = text {
            std::fs::write(&path, text).unwrap();
        }
        let out_path = dir.path().join(format!("{name}.out"));
        let out = bin()
            .args([
                "generate", "-n", "1", "--seed", "1", "--min-er", "2.0", "--around",
            ])
            .arg(&path)
            .arg("-o")
            .arg(&out_path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(message), "{name}: {err}");
        assert!(!out_path.exists(), "{name}: an output was made");
    }
    // A good seed file without --min-er is refused before anything is read.
    let seeds = dir.path().join("seeds");
    std::fs::write(&seeds, format!("{unique}\n")).unwrap();
    let out = bin()
        .args(["generate", "-n", "1", "--around"])
        .arg(&seeds)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--min-er"));
}
