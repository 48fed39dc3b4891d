//! Every strategy agrees with every other on generated puzzles of every kind.
//!
//! For each puzzle, each strategy in [`Strategy::ALL`] counts solutions up to 1, 2 and 10. The
//! counts must be identical, the solution must be identical when the puzzle has exactly one,
//! and every solution handed to the callback must solve the puzzle.
//!
//! `backtrack` needs tens of thousands of guesses on a typical minimal puzzle and millions on
//! some, so it runs on every [`BACKTRACK_EVERY`]th puzzle only, within a guess budget; a search
//! it aborts is left out of the comparison, and only a few may abort.

use sudoku_batch::generate::{Kind, Rng, mixed_puzzle};
use sudoku_batch::{Grid, Limits, Outcome, Strategy};

/// Puzzles generated per kind; five kinds make a few thousand puzzles.
const PER_KIND: usize = 600;
/// `backtrack` is checked on one puzzle in this many (40 per kind).
const BACKTRACK_EVERY: usize = 15;
/// Guess budget for `backtrack`: enough for all but about 1 generated minimal puzzle in 100.
const BACKTRACK_BUDGET: u64 = 2_000_000;

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
