//! How often a puzzle and a relabelled, transposed, row- and column-shuffled copy get the same
//! ER from the logical grader.
//!
//! ```text
//! cargo run --release --example logic_invariance -- PUZZLES [--limit N] [--copies N]
//!     [--budget-ms N] [--show N]
//! ```
//!
//! PUZZLES holds one puzzle per line (anything after the first 81 cells is ignored; lines
//! that do not start with a puzzle are skipped). Each puzzle is compared with `--copies`
//! (default 1) random copies; prints the share of copies with the same ER, and the largest
//! difference. `--budget-ms N` gives each grading N milliseconds; a pair with a side cut
//! short is not counted as rated. `--show N` prints the first N pairs that differ, as
//! `puzzle copy er er_copy`, so that another rater can be asked about the copies.

use rayon::prelude::*;
use sudoku_batch::Grid;
use sudoku_batch::generate::Rng;
use sudoku_batch::logic::{Budget, Grader};

/// A copy of `p` under a random relabelling, transposition and permutation of rows within
/// bands, columns within stacks, bands and stacks.
fn shuffle(p: &Grid, rng: &mut Rng) -> Grid {
    let mut labels = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut labels);
    let mut perm = || {
        let mut bands = [0usize, 1, 2];
        rng.shuffle(&mut bands);
        let mut out = [0usize; 9];
        for (b, &band) in bands.iter().enumerate() {
            let mut rows = [0usize, 1, 2];
            rng.shuffle(&mut rows);
            for (k, &r) in rows.iter().enumerate() {
                out[b * 3 + k] = band * 3 + r;
            }
        }
        out
    };
    let rows = perm();
    let cols = perm();
    let transpose = rng.below(2) == 1;
    let mut cells = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            let v = p.get(sr * 9 + sc);
            cells[r * 9 + c] = if v == 0 { 0 } else { labels[v as usize - 1] };
        }
    }
    Grid::from_cells(cells).unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect(
        "usage: logic_invariance PUZZLES [--limit N] [--copies N] [--budget-ms N] [--show N]",
    );
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<usize>().ok())
    };
    let text = std::fs::read_to_string(path).expect("puzzle file");
    let mut puzzles: Vec<Grid> = text
        .lines()
        .filter_map(|l| l.get(..81).and_then(|s| s.parse().ok()))
        .collect();
    if let Some(n) = opt("--limit") {
        puzzles.truncate(n);
    }
    let copies = opt("--copies").unwrap_or(1);
    let budget_ms = opt("--budget-ms");
    let mut rng = Rng::new(0x005e_ed1d);
    let pairs: Vec<(Grid, Grid)> = puzzles
        .iter()
        .flat_map(|p| {
            (0..copies)
                .map(|_| (*p, shuffle(p, &mut rng)))
                .collect::<Vec<_>>()
        })
        .collect();
    let results: Vec<Option<(u16, u16)>> = pairs
        .par_iter()
        .map_init(Grader::new, |g, (p, q)| {
            let budget = || Budget {
                deadline: budget_ms.map(|ms| {
                    std::time::Instant::now() + std::time::Duration::from_millis(ms as u64)
                }),
                stop: None,
            };
            let er = |g: &mut Grader, x: &Grid| g.grade(x, &budget()).ok().map(|r| r.er);
            Some((er(g, p)?, er(g, q)?))
        })
        .collect();
    let show = opt("--show").unwrap_or(0);
    let differ = pairs
        .iter()
        .zip(&results)
        .filter_map(|((p, q), r)| match r {
            Some((a, b)) if a != b => Some((p, q, a, b)),
            _ => None,
        });
    for (p, q, a, b) in differ.take(show) {
        println!("{p} {q} {:.1} {:.1}", *a as f64 / 10.0, *b as f64 / 10.0);
    }
    let rated: Vec<(u16, u16)> = results.iter().flatten().copied().collect();
    let same = rated.iter().filter(|(a, b)| a == b).count();
    let maxd = rated
        .iter()
        .map(|(a, b)| (*a as i32 - *b as i32).abs())
        .max()
        .unwrap_or(0);
    println!(
        "{} copies of {} puzzles: {} rated both ways, same ER {:.2}%, largest difference {:.1}",
        pairs.len(),
        puzzles.len(),
        rated.len(),
        100.0 * same as f64 / rated.len().max(1) as f64,
        maxd as f64 / 10.0
    );
}
