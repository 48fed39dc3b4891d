//! Generation of minimal unique puzzles, one thread, side by side with the `sudoku` crate's
//! generator (a fresh solved grid, then clues removed in random order while the solution stays
//! unique, no symmetry), the two timed in alternating rounds so that load on the machine hits
//! both alike. Also checks what both made (minimal, unique, distinct) and prints the clue-count
//! spread of each.
//!
//! `cargo run --release --example gen_bench -- [COUNT] [ROUNDS]` (3,000 puzzles, 11 rounds by
//! default); `scripts/gen_bench.sh` runs it. Ours is `sudoku_batch::generate::puzzle` with the
//! default spec and the solvers `generate` uses, puzzle `i` seeded as `generate --seed` seeds it.

use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

use sudoku_batch::generate::{Spec, puzzle, puzzle_rng, random_solution};
use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::{Limits, Strategy};

fn ours(count: usize, seed: u64) -> Vec<Grid> {
    let mut counter = Strategy::default().solver();
    let spec = Spec::default();
    (0..count as u64)
        .map(|i| {
            let mut rng = puzzle_rng(seed, i);
            puzzle(&mut rng, &spec, &mut *counter).expect("the default spec fits")
        })
        .collect()
}

/// The solution grids alone, as `ours` makes them.
fn our_grids(count: usize, seed: u64) -> Vec<Grid> {
    (0..count as u64)
        .map(|i| random_solution(&mut puzzle_rng(seed, i)))
        .collect()
}

fn theirs(count: usize) -> Vec<Grid> {
    (0..count)
        .map(|_| {
            let s = sudoku::Sudoku::generate_with_symmetry(sudoku::Symmetry::None);
            let bytes = s.to_bytes();
            Grid::from_cells(bytes).expect("the crate's cells are 0-9")
        })
        .collect()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Clue counts, and how many puzzles are not unique, not minimal, or repeated.
fn check(puzzles: &[Grid]) -> (BTreeMap<usize, usize>, usize, usize, usize) {
    let mut s = Strategy::default().solver();
    let mut spread = BTreeMap::new();
    let (mut not_unique, mut not_minimal) = (0, 0);
    for p in puzzles {
        *spread.entry(p.clue_count()).or_insert(0) += 1;
        if s.solve(p, Limits::count_to(2)).solutions != 1 {
            not_unique += 1;
        }
        let redundant = (0..CELLS).filter(|&c| p.get(c) != 0).any(|c| {
            let mut q = *p;
            q.set(c, 0);
            s.solve(&q, Limits::count_to(2)).solutions == 1
        });
        not_minimal += redundant as usize;
    }
    let distinct: HashSet<&Grid> = puzzles.iter().collect();
    (
        spread,
        not_unique,
        not_minimal,
        puzzles.len() - distinct.len(),
    )
}

fn summary(name: &str, puzzles: &[Grid]) {
    let (spread, not_unique, not_minimal, repeated) = check(puzzles);
    let n = puzzles.len() as f64;
    let mean = spread.iter().map(|(k, v)| (k * v) as f64).sum::<f64>() / n;
    let sd = (spread
        .iter()
        .map(|(k, v)| (*k as f64 - mean).powi(2) * *v as f64)
        .sum::<f64>()
        / n)
        .sqrt();
    let cells: Vec<String> = spread.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    println!(
        "{name}: clues mean {mean:.2} sd {sd:.2} [{}]; not unique {not_unique}, not minimal \
         {not_minimal}, repeated {repeated}",
        cells.join(" ")
    );
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--only ours|crate|grids`: time that alone, for a profiler; no checks.
    let only = args.iter().position(|a| a == "--only").map(|i| {
        let what = args.get(i + 1).cloned().unwrap_or_default();
        args.drain(i..(i + 2).min(args.len()));
        what
    });
    let args: Vec<usize> = args
        .iter()
        .map(|a| a.parse().expect("COUNT and ROUNDS are numbers"))
        .collect();
    let count = args.first().copied().unwrap_or(3000);
    let rounds = args.get(1).copied().unwrap_or(11);
    if let Some(what) = only {
        let t = Instant::now();
        for round in 0..rounds {
            match what.as_str() {
                "ours" => drop(ours(count, round as u64)),
                "crate" => drop(theirs(count)),
                _ => drop(our_grids(count, round as u64)),
            }
        }
        println!(
            "{what}: {:.1} ms a round",
            t.elapsed().as_secs_f64() * 1e3 / rounds as f64
        );
        return;
    }
    let (mut ours_ms, mut theirs_ms, mut grids_ms) = (Vec::new(), Vec::new(), Vec::new());
    let (mut our_all, mut their_all) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let t = Instant::now();
        let o = ours(count, round as u64);
        ours_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        let c = theirs(count);
        theirs_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        drop(our_grids(count, round as u64));
        grids_ms.push(t.elapsed().as_secs_f64() * 1e3);
        if round < 3 {
            our_all.extend(o);
            their_all.extend(c);
        }
    }
    let mut ratios: Vec<f64> = ours_ms.iter().zip(&theirs_ms).map(|(o, t)| t / o).collect();
    let (o, t) = (median(&mut ours_ms), median(&mut theirs_ms));
    println!(
        "{count} puzzles x {rounds} rounds: ours {o:.1} ms (its grids alone {:.1} ms), crate \
         {t:.1} ms (medians); crate/ours {:.2}x (ratio of medians), {:.2}x (median of per-round \
         ratios)",
        median(&mut grids_ms),
        t / o,
        median(&mut ratios)
    );
    summary("ours ", &our_all);
    summary("crate", &their_all);
}
