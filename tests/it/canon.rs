//! Canonical forms: ours against the reference tool's output stored in
//! `tests/data/canon_reference.tsv` (puzzle, minlex form, automorphisms, made with Mladen
//! Dobrichev's minlexing tool from samples of the five tdoku corpora, random isomorphs of them,
//! sparse, symmetric, conflicting and solved grids), against a brute force over all
//! transformations, and on random isomorphs.

use std::collections::HashSet;
use std::sync::OnceLock;

use proptest::prelude::*;
use sudoku_batch::Grid;
use sudoku_batch::isomorph::canon::{Canonicaliser, canonical};

use crate::util::data;

/// The fixture's rows: (puzzle, form, automorphisms).
fn reference() -> &'static [(Grid, String, u32)] {
    static ROWS: OnceLock<Vec<(Grid, String, u32)>> = OnceLock::new();
    ROWS.get_or_init(read_reference)
}

fn read_reference() -> Vec<(Grid, String, u32)> {
    let text = std::fs::read_to_string(data("canon_reference.tsv")).unwrap();
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

/// The 1296 orders of nine lines that keep the bands: bands in any order, rows within each.
fn line_orders() -> Vec<[usize; 9]> {
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
fn transform(
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
