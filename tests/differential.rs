//! Differential tests: every strategy and the `sudoku` crate (a JCZSolve port used as an
//! oracle) must agree on the solution count at several limits and on the solution of every
//! uniquely solvable puzzle.
//!
//! Puzzles come from two places: generated records of every kind (fixed seed), and transformed
//! copies of a sample of the tdoku benchmark corpora at `../shared/corpora/tdoku` beside the
//! repository (skipped with a message when absent). The transformations (digit relabelling, row
//! and column permutations within bands and stacks, band and stack permutations, transposition)
//! keep the solution count, so the copies are new puzzles with known behaviour.

use std::path::PathBuf;

use sudoku_batch::generate::{Kind, Rng, mixed_puzzle};
use sudoku_batch::{Grid, Limits, Strategy};

/// Counts with the `sudoku` crate.
fn oracle_count(p: &Grid, limit: u64) -> u64 {
    sudoku::Sudoku::from_bytes(*p.cells())
        .expect("cells are 0-9")
        .solutions_count_up_to(limit as usize) as u64
}

/// The unique solution according to the `sudoku` crate.
fn oracle_solution(p: &Grid) -> Option<Grid> {
    let s = sudoku::Sudoku::from_bytes(*p.cells()).ok()?.solution()?;
    Grid::from_cells(s.to_bytes()).ok()
}

/// A random symmetry of the Sudoku rules applied to `p`.
fn transform(p: &Grid, rng: &mut Rng) -> Grid {
    let mut perm3 = || {
        let mut v = [0usize, 1, 2];
        rng.shuffle(&mut v);
        v
    };
    let (bands, stacks) = (perm3(), perm3());
    let rows: [[usize; 3]; 3] = [perm3(), perm3(), perm3()];
    let cols: [[usize; 3]; 3] = [perm3(), perm3(), perm3()];
    let mut labels = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut labels);
    let transpose = rng.below(2) == 1;
    let mut out = Grid::EMPTY;
    for r in 0..9 {
        for c in 0..9 {
            let v = p.get(r * 9 + c);
            if v == 0 {
                continue;
            }
            let r2 = bands[r / 3] * 3 + rows[r / 3][r % 3];
            let c2 = stacks[c / 3] * 3 + cols[c / 3][c % 3];
            let (r2, c2) = if transpose { (c2, r2) } else { (r2, c2) };
            out.set(r2 * 9 + c2, labels[v as usize - 1]);
        }
    }
    out
}

/// Every `step`th puzzle of a corpus file, transformed.
fn corpus_sample(dir: &std::path::Path, name: &str, step: usize, rng: &mut Rng) -> Vec<Grid> {
    let text = std::fs::read(dir.join(name)).expect("corpus file readable");
    text.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.is_empty() && l[0] != b'#')
        .step_by(step)
        .map(|l| transform(&Grid::parse_bytes(l).expect("corpus line parses"), rng))
        .collect()
}

fn corpus_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/tdoku");
    dir.is_dir().then_some(dir)
}

/// Checks one puzzle with every strategy and the oracle; returns a description of each
/// disagreement.
fn check(
    p: &Grid,
    solvers: &mut [(Strategy, Box<dyn sudoku_batch::Solver>)],
    with_slow: bool,
) -> Vec<String> {
    let mut errors = Vec::new();
    for limit in [1, 2, 10] {
        let want = oracle_count(p, limit);
        for (strategy, solver) in solvers.iter_mut() {
            if !with_slow && is_slow(*strategy) {
                continue;
            }
            let mut seen = Vec::new();
            let out = solver.solve_with(p, Limits::count_to(limit), &mut |g| seen.push(*g));
            if out.solutions != want || seen.len() as u64 != want {
                errors.push(format!(
                    "{strategy} limit {limit}: {} solutions ({} reported), oracle {want}",
                    out.solutions,
                    seen.len()
                ));
            }
            if let Some(bad) = seen.iter().find(|g| !g.solves(p)) {
                errors.push(format!("{strategy} limit {limit}: bad solution {bad}"));
            }
            if out.solution != seen.first().copied() {
                errors.push(format!(
                    "{strategy} limit {limit}: solution is not the first"
                ));
            }
            if limit == 2 && want == 1 && out.solution != oracle_solution(p) {
                errors.push(format!("{strategy}: solution differs from the oracle's"));
            }
        }
    }
    errors
}

/// The source material's strategies with only naked singles: thousands of guesses on a hard
/// corpus puzzle, so they see the generated puzzles and a tenth of the corpus sample.
fn is_slow(strategy: Strategy) -> bool {
    matches!(strategy, Strategy::Candidates | Strategy::Bitmask)
}

#[test]
fn strategies_agree_with_the_oracle() {
    // Plain backtracking is left out: with no guess budget it can need billions of steps on
    // one 17-clue puzzle. tests/strategies.rs checks it against the others under a budget.
    let mut solvers: Vec<_> = Strategy::ALL
        .iter()
        .filter(|&&s| s != Strategy::Backtrack)
        .map(|&s| (s, s.solver()))
        .collect();
    let mut rng = Rng::new(20240601);
    let mut puzzles = Vec::new();
    // Generated with the simple `singles` strategy, so that a bug in `fast` cannot shape the
    // puzzles it is tested on.
    let mut generator = Strategy::Singles.solver();
    let kinds = [
        Kind::Minimal,
        Kind::Easy,
        Kind::Multiple,
        Kind::Unsolvable,
        Kind::Conflicting,
    ];
    for i in 0..1500 {
        puzzles.push(mixed_puzzle(
            &mut rng,
            kinds[i % kinds.len()],
            &mut *generator,
        ));
    }
    let generated = puzzles.len();
    match corpus_dir() {
        Some(dir) => {
            // Steps chosen for about 10,000 corpus puzzles in all; serg gives 2+ solutions.
            for (name, step) in [
                ("puzzles2_17_clue", 10),
                ("puzzles3_magictour_top1465", 1),
                ("puzzles5_forum_hardest_1905_11+", 25),
                ("puzzles6_forum_hardest_1106", 1),
                ("puzzles7_serg_benchmark", 5),
            ] {
                puzzles.extend(corpus_sample(&dir, name, step, &mut rng));
            }
        }
        None => eprintln!("tdoku corpora not found beside the repository; generated puzzles only"),
    }
    let mut failures = 0;
    for (i, p) in puzzles.iter().enumerate() {
        let errors = check(p, &mut solvers, i < generated || i % 10 == 0);
        if !errors.is_empty() {
            failures += 1;
            eprintln!("MISMATCH {p}\n  {}", errors.join("\n  "));
        }
    }
    eprintln!(
        "{} puzzles checked ({generated} generated), {failures} mismatches",
        puzzles.len()
    );
    assert_eq!(failures, 0, "strategies disagree; see the puzzles above");
}

#[test]
fn transform_keeps_the_solution_count() {
    let mut rng = Rng::new(1);
    let p: Grid =
        "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35.."
            .parse()
            .unwrap();
    for _ in 0..20 {
        let q = transform(&p, &mut rng);
        assert_eq!(q.clue_count(), p.clue_count());
        assert_eq!(q.conflict(), None);
        assert_eq!(oracle_count(&q, 2), 1);
    }
}
