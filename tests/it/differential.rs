//! Differential tests: our strategies, and the binary on generated corpora, against the
//! `sudoku` crate (the oracle) and against each other.
//!
//! Puzzles come from two places: generated records of every kind (fixed seeds), and copies of a
//! sample of the tdoku benchmark corpora moved by a random [`Symmetry`] (skipped with a message
//! when the corpora are absent). A symmetry keeps the solution count, so the copies are new
//! puzzles with known behaviour.

use std::collections::BTreeMap;

use sudoku_batch::generate::{Kind, Rng, mixed_puzzle};
use sudoku_batch::{Grid, Limits, Outcome, Strategy};

use crate::util::{KINDS, Oracle, PUZZLE, Symmetry, check_against_oracle, corpus_dir};
use crate::util::{corpus_sample, rows, solve, write};

/// Checks one puzzle with every strategy and the oracle; returns a description of each
/// disagreement.
fn check(
    p: &Grid,
    solvers: &mut [(Strategy, Box<dyn sudoku_batch::Solver>)],
    with_slow: bool,
) -> Vec<String> {
    let mut errors = Vec::new();
    let oracle = Oracle::grid(p);
    for limit in [1, 2, 10] {
        let want = oracle.count(limit);
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
            if limit == 2 && want == 1 && out.solution != oracle.solution() {
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
    // one 17-clue puzzle. `strategies_agree_on_*` below check it against the others, within a
    // guess budget.
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
    for i in 0..1500 {
        puzzles.push(mixed_puzzle(
            &mut rng,
            KINDS[i % KINDS.len()],
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
fn a_symmetry_keeps_the_solution_count() {
    let mut rng = Rng::new(1);
    let p: Grid = PUZZLE.parse().unwrap();
    for _ in 0..20 {
        let q = Symmetry::random(&mut rng).apply(&p);
        assert_eq!(q.clue_count(), p.clue_count());
        assert_eq!(q.conflict(), None);
        assert_eq!(Oracle::grid(&q).count(2), 1);
    }
}

#[test]
fn generated_corpus_of_every_kind_agrees_with_the_oracle() {
    let mut solver = Strategy::Singles.solver();
    let mut rng = Rng::new(2);
    let mut text = String::new();
    let mut csv = String::from("id,puzzle\n");
    for i in 0..400 {
        let p = mixed_puzzle(&mut rng, KINDS[i % KINDS.len()], &mut *solver);
        text.push_str(&format!("{p}\n"));
        csv.push_str(&format!("{i},{}\n", p.to_string().replace('.', "0")));
    }
    let dir = tempfile::tempdir().unwrap();
    let t = write(dir.path(), "g.txt", &text);
    let c = write(dir.path(), "g.csv", &csv);
    let mut statuses = BTreeMap::new();
    for path in [&t, &c] {
        let out = solve(&[], path);
        assert_eq!(out.status.code(), Some(0));
        let rows = rows(&out);
        assert_eq!(rows.len(), 400);
        assert_eq!(check_against_oracle(&rows), 400);
        for r in &rows {
            *statuses.entry(r.status.clone()).or_insert(0) += 1;
        }
    }
    assert_eq!(statuses["unique"], 2 * 160);
    assert_eq!(statuses["multiple"], 2 * 80);
    assert_eq!(statuses["unsolvable"], 2 * 160);
}

/// Puzzles generated per kind; five kinds make a few thousand puzzles.
const PER_KIND: usize = 600;
/// `backtrack` is checked on one puzzle in this many (40 per kind).
const BACKTRACK_EVERY: usize = 15;
/// Guess budget for `backtrack`: enough for all but about 1 generated minimal puzzle in 100.
const BACKTRACK_BUDGET: u64 = 2_000_000;

/// Every strategy agrees with every other on generated puzzles of `kind`.
///
/// For each puzzle, each strategy in [`Strategy::ALL`] counts solutions up to 1, 2 and 10. The
/// counts must be identical, the solution must be identical when the puzzle has exactly one,
/// and every solution handed to the callback must solve the puzzle.
///
/// `backtrack` needs tens of thousands of guesses on a typical minimal puzzle and millions on
/// some, so it runs on every [`BACKTRACK_EVERY`]th puzzle only, within a guess budget; a search
/// it aborts is left out of the comparison, and only a few may abort.
fn agree_on(kind: Kind, seed: u64) {
    let mut generator = Strategy::Singles.solver();
    let mut solvers: Vec<_> = Strategy::ALL.iter().map(|&s| (s, s.solver())).collect();
    let mut rng = Rng::new(seed);
    let (mut aborted, mut backtracked) = (0, 0);
    for n in 0..PER_KIND {
        let puzzle = mixed_puzzle(&mut rng, kind, &mut *generator);
        for limit in [1, 2, 10] {
            let mut reference: Option<(Strategy, Outcome)> = None;
            for (strategy, solver) in &mut solvers {
                if *strategy == Strategy::Backtrack {
                    if n % BACKTRACK_EVERY != 0 {
                        continue;
                    }
                    backtracked += 1;
                }
                let limits = Limits {
                    solutions: limit,
                    guesses: (*strategy == Strategy::Backtrack).then_some(BACKTRACK_BUDGET),
                    stop: None,
                };
                let mut wrong: Option<Grid> = None;
                let mut found = 0;
                let out = solver.solve_with(&puzzle, limits, &mut |g| {
                    found += 1;
                    if !g.solves(&puzzle) {
                        wrong = Some(*g);
                    }
                });
                let what = format!("{kind:?} #{n} {puzzle} limit {limit}: {strategy}");
                assert_eq!(wrong, None, "{what} reported a grid that does not solve it");
                assert_eq!(found, out.solutions, "{what}: callbacks vs count");
                if out.aborted {
                    aborted += 1;
                    continue;
                }
                assert!(out.solutions <= limit, "{what}: count above the limit");
                match &reference {
                    None => reference = Some((*strategy, out)),
                    Some((first, r)) => {
                        assert_eq!(
                            out.solutions, r.solutions,
                            "{what} counts {}, {first} counts {}",
                            out.solutions, r.solutions
                        );
                        if limit >= 2 && r.solutions == 1 {
                            assert_eq!(
                                out.solution, r.solution,
                                "{what} and {first} disagree on the unique solution"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(
        aborted * 20 <= backtracked,
        "{kind:?}: backtrack aborted {aborted} of {backtracked} searches"
    );
    eprintln!("{kind:?}: backtrack aborted {aborted} of {backtracked} searches");
}

#[test]
fn strategies_agree_on_minimal_puzzles() {
    agree_on(Kind::Minimal, 1);
}

#[test]
fn strategies_agree_on_easy_puzzles() {
    agree_on(Kind::Easy, 2);
}

#[test]
fn strategies_agree_on_puzzles_with_several_solutions() {
    agree_on(Kind::Multiple, 3);
}

#[test]
fn strategies_agree_on_unsolvable_puzzles() {
    agree_on(Kind::Unsolvable, 4);
}

#[test]
fn strategies_agree_on_conflicting_puzzles() {
    agree_on(Kind::Conflicting, 5);
}
