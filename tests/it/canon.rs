//! Canonical forms: ours against the reference tool's output stored in
//! `tests/data/canon_reference.tsv` (puzzle, minlex form, automorphisms, made with Mladen
//! Dobrichev's minlexing tool from samples of the five tdoku corpora, random isomorphs of them,
//! sparse, symmetric, conflicting and solved grids) and in `tests/data/canon_grids_reference.tsv`
//! (solved grids only: solutions of the five corpora, random isomorphs of them, and two
//! symmetric grids with isomorphs of each), against a brute force over all transformations,
//! and on random isomorphs.

use std::collections::HashSet;
use std::sync::OnceLock;

use proptest::prelude::*;
use sudoku_batch::Grid;
use sudoku_batch::isomorph::canon::{Canonicaliser, canonical};

use crate::util::{bin, data, stderr, write};

/// The fixture's rows: (puzzle, form, automorphisms).
pub(crate) fn reference() -> &'static [(Grid, String, u32)] {
    static ROWS: OnceLock<Vec<(Grid, String, u32)>> = OnceLock::new();
    ROWS.get_or_init(read_reference)
}

fn read_reference() -> Vec<(Grid, String, u32)> {
    read_rows("canon_reference.tsv")
}

fn read_rows(name: &str) -> Vec<(Grid, String, u32)> {
    let text = std::fs::read_to_string(data(name)).unwrap();
    text.lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "{line}");
            (
                fields[0].parse().unwrap(),
                fields[1].to_string(),
                fields[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn forms_and_automorphisms_equal_the_reference_tool() {
    let rows = reference();
    assert!(rows.len() > 1900);
    let mut canon = Canonicaliser::new();
    for (puzzle, form, automorphisms) in rows {
        let ours = canon.canonical(puzzle);
        assert_eq!(&ours.grid.to_string(), form, "form of {puzzle}");
        // The reference tool says 0 for the empty grid (it records no map without a clue);
        // the one way an empty grid maps onto itself, told apart by its clues, is 1.
        let expected = if puzzle.clue_count() == 0 {
            1
        } else {
            *automorphisms
        };
        assert_eq!(ours.automorphisms, expected, "automorphisms of {puzzle}");
    }
}

#[test]
fn solved_grids_get_the_reference_tools_forms_and_automorphisms() {
    let rows = read_rows("canon_grids_reference.tsv");
    assert_eq!(rows.len(), 68);
    // Grids with 1, 3 and 54 automorphisms are among them.
    let counts: HashSet<u32> = rows.iter().map(|row| row.2).collect();
    assert_eq!(counts, HashSet::from([1, 3, 54]));
    let mut canon = Canonicaliser::new();
    for (grid, form, automorphisms) in &rows {
        assert!(grid.is_full());
        let ours = canon.canonical(grid);
        assert_eq!(&ours.grid.to_string(), form, "form of {grid}");
        assert_eq!(
            ours.automorphisms, *automorphisms,
            "automorphisms of {grid}"
        );
    }
}

/// The 1296 orders of nine lines that keep the bands: bands in any order, rows within each.
pub(crate) fn line_orders() -> Vec<[usize; 9]> {
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = Vec::new();
    for b in perms {
        for r0 in perms {
            for r1 in perms {
                for r2 in perms {
                    let within = [r0, r1, r2];
                    let mut order = [0; 9];
                    for k in 0..9 {
                        order[k] = 3 * b[k / 3] + within[k / 3][k % 3];
                    }
                    out.push(order);
                }
            }
        }
    }
    out
}

fn transpose(cells: &[u8; 81]) -> [u8; 81] {
    let mut out = [0; 81];
    for r in 0..9 {
        for c in 0..9 {
            out[c * 9 + r] = cells[r * 9 + c];
        }
    }
    out
}

/// Tries every one of the 3,359,232 transformations: the smallest pattern, then the smallest
/// relabelled digits, and the distinct maps of the clue cells onto the form.
fn brute_force(puzzle: &Grid) -> (String, usize) {
    let orders = line_orders();
    let mut best: Option<([u16; 9], [u8; 81])> = None;
    let mut maps: HashSet<Vec<u8>> = HashSet::new();
    for transposed in [false, true] {
        let cells = if transposed {
            transpose(puzzle.cells())
        } else {
            *puzzle.cells()
        };
        // The pattern of every source row under every column order.
        let mut permuted = vec![[0u16; 9]; orders.len()];
        for (ci, co) in orders.iter().enumerate() {
            for r in 0..9 {
                for c in 0..9 {
                    if cells[r * 9 + co[c]] != 0 {
                        permuted[ci][r] |= 1 << (8 - c);
                    }
                }
            }
        }
        for ro in &orders {
            for (ci, co) in orders.iter().enumerate() {
                let pattern: [u16; 9] = std::array::from_fn(|k| permuted[ci][ro[k]]);
                if let Some((p, _)) = &best
                    && pattern > *p
                {
                    continue;
                }
                let mut label = [0u8; 10];
                let mut next = 1;
                let mut digits = [0u8; 81];
                let mut map = vec![0u8; 81];
                for k in 0..9 {
                    for c in 0..9 {
                        let source = ro[k] * 9 + co[c];
                        let d = cells[source] as usize;
                        if d != 0 {
                            if label[d] == 0 {
                                label[d] = next;
                                next += 1;
                            }
                            digits[k * 9 + c] = label[d];
                            let original = if transposed {
                                (source % 9) * 9 + source / 9
                            } else {
                                source
                            };
                            map[original] = (k * 9 + c + 1) as u8;
                        }
                    }
                }
                let better = match &best {
                    None => true,
                    Some((p, d)) => pattern < *p || (pattern == *p && digits < *d),
                };
                if better {
                    best = Some((pattern, digits));
                    maps.clear();
                }
                if best == Some((pattern, digits)) {
                    maps.insert(map);
                }
            }
        }
    }
    let (_, digits) = best.unwrap();
    (Grid::from_cells(digits).unwrap().to_string(), maps.len())
}

#[test]
fn forms_and_automorphisms_equal_a_brute_force() {
    let rows = reference();
    // Every kind: corpus puzzles, sparse and symmetric ones, a conflicting one, a solved grid.
    let picks: Vec<&(Grid, String, u32)> = rows
        .iter()
        .filter(|(p, _, a)| *a > 1 || p.clue_count() < 12)
        .take(6)
        .chain(rows.iter().step_by(331).take(4))
        .chain(rows.iter().filter(|(p, _, _)| p.is_full()).take(1))
        .collect();
    for (puzzle, _, _) in picks {
        let ours = canonical(puzzle);
        let (form, automorphisms) = brute_force(puzzle);
        assert_eq!(ours.grid.to_string(), form, "form of {puzzle}");
        assert_eq!(ours.automorphisms as usize, automorphisms, "of {puzzle}");
    }
}

/// `puzzle` transformed: transposed or not, rows and columns in the orders given, digits
/// relabelled by `labels` (`labels[d - 1]` for digit `d`).
pub(crate) fn transform(
    puzzle: &Grid,
    transposed: bool,
    rows: &[usize; 9],
    cols: &[usize; 9],
    labels: &[u8],
) -> Grid {
    let cells = if transposed {
        transpose(puzzle.cells())
    } else {
        *puzzle.cells()
    };
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let d = cells[rows[r] * 9 + cols[c]];
            out[r * 9 + c] = if d == 0 { 0 } else { labels[d as usize - 1] };
        }
    }
    Grid::from_cells(out).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random isomorphs of a puzzle have its form and automorphisms, and the form is its own
    /// form (an isomorph of the input, not just a stable label).
    #[test]
    fn isomorphs_share_one_form(
        pick in 0usize..1922,
        transposed in any::<bool>(),
        row_order in 0usize..1296,
        col_order in 0usize..1296,
        labels in Just((1u8..=9).collect::<Vec<u8>>()).prop_shuffle(),
    ) {
        let rows = reference();
        let puzzle = &rows[pick % rows.len()].0;
        prop_assume!(!puzzle.is_full() || pick % 8 == 0);
        let orders = line_orders();
        let isomorph = transform(puzzle, transposed, &orders[row_order], &orders[col_order], &labels);
        let form = canonical(puzzle);
        prop_assert_eq!(canonical(&isomorph), form);
        prop_assert_eq!(canonical(&form.grid), form);
    }
}

/// The first `n` puzzles of the fixture, one per line.
pub(crate) fn fixture_text(n: usize) -> String {
    reference()[..n]
        .iter()
        .map(|(p, _, _)| format!("{p}\n"))
        .collect()
}

#[test]
fn canon_writes_one_row_per_record_in_order_with_the_reference_form() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", fixture_text(60) + "12x\n");
    let out = bin()
        .args(["canon", "-j", "2", "--batch-size", "7"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "an invalid record fails the run"
    );
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("line,puzzle,status,canonical,automorphisms,error")
    );
    for (i, (p, form, automorphisms)) in reference()[..60].iter().enumerate() {
        let expected = format!("{},{p},ok,{form},{automorphisms},", i + 1);
        assert_eq!(lines.next(), Some(expected.as_str()));
    }
    assert_eq!(
        lines.next(),
        Some("61,12x,invalid,,,cell 3: unexpected character 'x'")
    );
    assert_eq!(lines.next(), None);
    let err = stderr(&out);
    assert!(err.contains("60 puzzles, 1 invalid"), "{err}");
    // The fixture's first 60 puzzles are 60 classes.
    assert!(
        err.contains("60 essentially different (distinct canonical forms)"),
        "{err}"
    );
}

#[test]
fn canon_counts_isomorphs_as_one_class_and_writes_every_format() {
    let dir = tempfile::tempdir().unwrap();
    // 20 puzzles, then random isomorphs of the same 20 (the fixture's second half holds
    // isomorphs of its first in another order; here they are made afresh).
    let orders = line_orders();
    let mut text = fixture_text(20);
    for (i, (p, _, _)) in reference()[..20].iter().enumerate() {
        let labels: Vec<u8> = (1..=9).map(|d| (d + i as u8) % 9 + 1).collect();
        let iso = transform(p, i % 2 == 0, &orders[i * 61], &orders[i * 37 + 5], &labels);
        text += &format!("{iso}\n");
    }
    let input = write(dir.path(), "in.txt", text);
    for name in ["out.csv", "out.jsonl", "out.parquet"] {
        let out = bin()
            .args(["canon", "-o"])
            .arg(dir.path().join(name))
            .arg(&input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("40 puzzles, 0 invalid"), "{err}");
        assert!(err.contains("20 essentially different"), "{err}");
    }
    let jsonl = std::fs::read_to_string(dir.path().join("out.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first["canonical"], reference()[0].1.as_str());
    assert_eq!(first["automorphisms"], u64::from(reference()[0].2));
}

#[test]
fn canon_resumes_an_output_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", fixture_text(50));
    let whole = dir.path().join("whole.csv");
    let out = bin()
        .args(["canon", "-q", "-o"])
        .arg(&whole)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    // An interrupted run: its first rows, half a row, and its options beside it.
    let part = dir.path().join("part.csv");
    let cut: String = whole_text
        .lines()
        .take(21)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "21,..........";
    std::fs::write(&part, cut).unwrap();
    let options = sudoku_batch::pipeline::resume::RunOptions::of(&canon_config(&input, &part));
    options.record(&part).unwrap();
    let out = bin()
        .args(["canon", "-q", "--resume", "-o"])
        .arg(&part)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&part).unwrap(), whole_text);
    // A solve output cannot be resumed by canon.
    let solved = dir.path().join("solved.csv");
    bin()
        .args(["solve", "-q", "-o"])
        .arg(&solved)
        .arg(&input)
        .assert()
        .success();
    let out = bin()
        .args(["canon", "-q", "--resume", "-o"])
        .arg(&solved)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// The configuration `canon -o OUTPUT INPUT` runs with.
fn canon_config(
    input: &std::path::Path,
    output: &std::path::Path,
) -> sudoku_batch::pipeline::Config {
    use sudoku_batch::pipeline::canon::Canon;
    use sudoku_batch::pipeline::read::Source;
    use sudoku_batch::pipeline::solve::SolveOptions;
    use sudoku_batch::pipeline::{Config, Output};
    Config {
        solve: SolveOptions {
            canon: Canon::Only,
            ..SolveOptions::default()
        },
        ..Config::new(
            Source::Path(input.to_path_buf()),
            Output::Path(output.to_path_buf()),
        )
    }
}
