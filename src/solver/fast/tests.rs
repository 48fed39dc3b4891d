//! Unit tests of the `fast` strategy (its tables' are in `tables`, its hidden pairs' in
//! `cross_digit`): the vector paths against their scalar references, the rules on small cases,
//! and whole searches against the `singles` strategy and the `sudoku` crate.

use super::super::{Limits, Solver, Strategy, tests::check_strategy};
use super::FastSolver;
use super::grid_io::clue_mask;
use super::orientation::transpose;
use super::search::SETTLED_FAILURES;
use super::state::{ALL_WORDS, State, WORDS};
use super::tables::{
    BAND_PEERS, CONFIGS, KEEP, PERMS, band_columns, row_graph, row_singles, row_singles_scalar,
};
use crate::grid::{CELLS, Grid};

#[test]
fn passes_the_shared_checks() {
    check_strategy(Strategy::Fast);
}

#[test]
fn settled_puzzles_search_lightly_and_turn_thorough_after_failures() {
    // serg's first puzzle (several solutions), a serg puzzle whose search turns thorough
    // before its second solution, and a 17-clue puzzle (unique) that turns thorough: each
    // has a settled band at its root. For each, the search's state after counting to
    // 1, 2 and 10, and the counts against the `singles` strategy's.
    let cases = [
        (
            "83159....657......9428...........8.6.......3.......2.4398174...574629...126385...",
            [false, false, false],
        ),
        (
            "...315798...648215...79234662.........4......98..........476.39...521......9836..",
            [false, true, true],
        ),
        (
            "......7..5...2..3.....6.......7........8.4...9.......2.48........71..4.........96",
            [false, true, true],
        ),
    ];
    let mut reference = Strategy::Singles.solver();
    for (text, thorough) in cases {
        let puzzle: Grid = text.parse().unwrap();
        for (limit, thorough) in [1, 2, 10].into_iter().zip(thorough) {
            let limits = Limits::count_to(limit);
            let mut fast = FastSolver::new();
            let mut seen = Vec::new();
            let out = fast.solve_with(&puzzle, limits, &mut |g| seen.push(*g));
            assert_eq!(
                (fast.thorough, fast.failures >= SETTLED_FAILURES),
                (thorough, thorough),
                "{text} counting to {limit}"
            );
            assert_eq!(out.solutions, reference.solve(&puzzle, limits).solutions);
            assert!(seen.iter().all(|g| g.solves(&puzzle)));
            seen.sort_by_key(|g| *g.cells());
            seen.dedup();
            assert_eq!(
                seen.len() as u64,
                out.solutions,
                "{text}: distinct solutions"
            );
        }
    }
}

#[test]
fn the_state_stays_224_bytes() {
    // The `fast` module documentation's figure; branching copies the whole state.
    assert_eq!(std::mem::size_of::<State>(), 224);
    assert_eq!(std::mem::align_of::<State>(), 16);
}

#[test]
fn solve_counts_what_solve_with_finds() {
    // `solve` builds no grid after the first; the counts, the first solution and the
    // guesses must not change. Puzzles with many solutions, some solved transposed.
    let mut puzzles = vec![Grid::EMPTY];
    for p in super::super::tests::SOURCE_PUZZLES {
        let mut g: Grid = p.parse().unwrap();
        for cell in (0..CELLS).step_by(5) {
            g.set(cell, 0);
        }
        puzzles.push(g);
        puzzles.push(transpose(&g));
    }
    let mut s = FastSolver::new();
    for g in &puzzles {
        for limit in [1, 2, 3, 10] {
            let limits = Limits::count_to(limit);
            let mut seen = 0;
            let with = s.solve_with(g, limits, &mut |_| seen += 1);
            let without = s.solve(g, limits);
            assert_eq!(without, with, "{g} to {limit}");
            assert_eq!(seen, with.solutions, "{g} to {limit}");
            assert!(with.solutions == limit || limit == 10, "{g} to {limit}");
        }
    }
}

#[test]
fn row_singles_match_the_scalar_path() {
    let mut sparse = sparse_words(13);
    let mut rng = crate::generate::Rng::new(15);
    let mut found = 0;
    for i in 0..100_000 {
        let mut word = || {
            if i % 2 == 0 {
                sparse()
            } else {
                rng.below(1 << 27) as u32
            }
        };
        let w = [word(), word(), word()];
        let unsolved = [word(), word(), word()];
        let new = row_singles(w, unsolved);
        assert_eq!(new, row_singles_scalar(w, unsolved), "{w:?} {unsolved:?}");
        found += new.iter().filter(|&&n| n != 0).count();
    }
    assert!(found > 10_000, "too few singles to test anything: {found}");
}

#[test]
fn clue_mask_marks_exactly_the_clues() {
    let mut rng = crate::generate::Rng::new(7);
    for _ in 0..1000 {
        let mut cells = [0u8; CELLS];
        for c in &mut cells {
            let r = rng.below(19) as u8;
            *c = if r > 9 { 0 } else { r };
        }
        let expected = cells
            .iter()
            .enumerate()
            .fold(0u128, |m, (i, &v)| m | ((v != 0) as u128) << i);
        assert_eq!(clue_mask(&cells), expected);
    }
}

/// Random band words with about a quarter of their 27 bits set, from `seed`.
pub(super) fn sparse_words(seed: u64) -> impl FnMut() -> u32 {
    let mut rng = crate::generate::Rng::new(seed);
    move || (rng.below(1 << 27) as u32) & (rng.below(1 << 27) as u32)
}

/// Random band words from `seed`, by turns sparse (see [`sparse_words`]) and with about
/// half their bits set, so that rows with one, two and three cells per segment all occur.
pub(super) fn mixed_words(seed: u64) -> impl FnMut() -> u32 {
    let mut sparse = sparse_words(seed);
    let mut rng = crate::generate::Rng::new(seed + 1);
    let mut dense = false;
    move || {
        dense = !dense;
        if dense {
            rng.below(1 << 27) as u32
        } else {
            sparse()
        }
    }
}

/// A state whose candidates, empty cells and dirty marks are random words, for tests of
/// the operations on words (it need not be a consistent grid).
fn random_state(word: &mut impl FnMut() -> u32) -> State {
    let mut state = State::START;
    for i in (0..WORDS).filter(|i| i % 4 < 3) {
        state.cand[i] = word();
    }
    state.unsolved = [word(), word(), word()];
    state.dirty = (word() as u64 | (word() as u64) << 32) & ALL_WORDS;
    state
}

#[test]
fn clear_matches_the_scalar_path() {
    let mut word = sparse_words(11);
    for _ in 0..1000 {
        let mut state = random_state(&mut word);
        let cells = [word(), word(), word()];
        // Some words keep some of those cells, as a digit keeps the cell it is placed on.
        let own: [u32; WORDS] = std::array::from_fn(|i| {
            if i % 4 < 3 {
                state.cand[i] & cells[i % 4] & word()
            } else {
                0
            }
        });
        let mut scalar = state;
        state.clear(cells, &own);
        scalar.clear_scalar(cells, &own);
        assert_eq!(state.cand, scalar.cand);
        assert_eq!(state.dirty, scalar.dirty);
    }
}

#[test]
fn settled_bands_are_those_with_one_configuration_per_digit() {
    // Words after their row matching, as `settled_bands` expects: random ones through
    // the matching (redrawn when nothing fits), except in a random set of bands whose
    // words are all single configurations, so that each band is settled now and then.
    let mut word = mixed_words(5);
    let mut rng = crate::generate::Rng::new(6);
    let mut settled_seen = [0; 3];
    for _ in 0..3000 {
        let mut state = State::START;
        let single = rng.below(8) as u32;
        for i in (0..WORDS).filter(|i| i % 4 < 3) {
            state.cand[i] = loop {
                let w = if single >> (i % 4) & 1 != 0 {
                    let perm = PERMS[rng.below(6)];
                    // One cell of each row's box, chosen at random.
                    (0..3).fold(0, |w, r| w | 1 << (9 * r + 3 * perm[r] + rng.below(3)))
                } else {
                    word()
                };
                let w = w & KEEP[row_graph(w)];
                if w != 0 {
                    break w;
                }
            };
        }
        let expected = (0..3).fold(0, |out, b| {
            let one = (0..9).all(|d| CONFIGS[row_graph(state.cand[d * 4 + b])] == 1);
            out | (one as u32) << b
        });
        assert_eq!(state.settled_bands(), expected, "{:?}", state.cand);
        assert_eq!(state.settled_bands_scalar(), expected, "{:?}", state.cand);
        for (b, seen) in settled_seen.iter_mut().enumerate() {
            *seen += expected >> b & 1;
        }
    }
    assert!(
        settled_seen.iter().all(|&n| n > 1000),
        "too few settled bands drawn: {settled_seen:?}"
    );
}

#[test]
fn transpose_swaps_rows_and_columns() {
    let g: Grid = super::super::tests::PUBLISHED_SOLUTION_3.parse().unwrap();
    let t = transpose(&g);
    for (r, c) in (0..81).map(|i| (i / 9, i % 9)) {
        assert_eq!(t.get(c * 9 + r), g.get(r * 9 + c), "cell {r},{c}");
    }
    assert_eq!(transpose(&t), g);
}

#[test]
fn candidate_counts_match_the_scalar_path() {
    let mut word = sparse_words(29);
    for _ in 0..1000 {
        let state = random_state(&mut word);
        assert_eq!(
            state.candidate_counts::<2>(),
            state.candidate_counts_scalar::<2>()
        );
        assert_eq!(
            state.candidate_counts::<3>(),
            state.candidate_counts_scalar::<3>()
        );
    }
}

#[test]
fn values_match_the_scalar_path() {
    let mut word = sparse_words(17);
    for _ in 0..1000 {
        let state = random_state(&mut word);
        assert_eq!(state.values(), state.values_scalar());
    }
}

/// Whether cell `(r, c)` of the grid is set in three band words (a digit's, or
/// `unsolved`).
fn has(words: &[u32], r: usize, c: usize) -> bool {
    words[r / 3] >> (r % 3 * 9 + c) & 1 != 0
}

#[test]
fn transposed_state_moves_every_cell_to_its_mirror() {
    let mut word = sparse_words(13);
    for _ in 0..1000 {
        let state = random_state(&mut word);
        let t = state.transposed();
        for (r, c) in (0..81).map(|i| (i / 9, i % 9)) {
            for d in 0..9 {
                let (before, after) = (&state.cand[d * 4..d * 4 + 3], &t.cand[d * 4..]);
                assert_eq!(has(before, r, c), has(after, c, r), "digit {d} at {r},{c}");
            }
            assert_eq!(has(&state.unsolved, r, c), has(&t.unsolved, c, r));
        }
        for d in 0..9 {
            assert_eq!(
                t.cols[d],
                band_columns(&[t.cand[d * 4], t.cand[d * 4 + 1], t.cand[d * 4 + 2]])
            );
        }
        for d in 0..9 {
            assert_eq!(t.cand[d * 4 + 3], 0, "the padding word of digit {d}");
        }
        let back = t.transposed();
        assert_eq!((back.cand, back.unsolved), (state.cand, state.unsolved));
    }
}

#[test]
fn a_transposed_search_reports_the_grid_as_given() {
    // A fifth or so of these searches run on the turned grid; each must report what the
    // `sudoku` crate finds, in the grid's own orientation.
    use crate::generate::{Kind, Rng, mixed_puzzle};
    let mut rng = Rng::new(17);
    let mut fast = FastSolver::new();
    let mut maker = FastSolver::new();
    let mut turned = 0;
    let kinds = [Kind::Minimal, Kind::Multiple, Kind::Unsolvable];
    for i in 0..300 {
        let puzzle = mixed_puzzle(&mut rng, kinds[i % 3], &mut maker);
        let mut seen = Vec::new();
        let out = fast.solve_with(&puzzle, Limits::count_to(3), &mut |g| seen.push(*g));
        turned += fast.transposed as u32;
        let oracle = sudoku::Sudoku::from_bytes(*puzzle.cells()).unwrap();
        assert_eq!(
            out.solutions,
            oracle.solutions_count_up_to(3) as u64,
            "{puzzle}"
        );
        if out.solutions == 1 {
            let unique = oracle
                .solution()
                .map(|g| Grid::from_cells(g.to_bytes()).unwrap());
            assert_eq!(out.solution, unique, "{puzzle}");
        }
        assert_eq!(out.solution, seen.first().copied());
        for (j, g) in seen.iter().enumerate() {
            assert!(g.solves(&puzzle), "{puzzle}");
            assert!(!seen[..j].contains(g), "{puzzle}: {g} twice");
        }
    }
    assert!(turned > 30, "only {turned} of 300 searches ran transposed");
}

#[test]
fn band_peers_are_row_and_box() {
    for (i, peers) in BAND_PEERS.iter().enumerate() {
        // 8 others in the row, 6 more in the box.
        assert_eq!(peers.count_ones(), 14, "cell {i}");
    }
}

#[test]
fn every_level_the_processor_has_searches_as_the_baseline() {
    // The copies of the search compiled for newer instruction sets must find the same
    // solutions, in the same order, with the same guesses, as the baseline's; and `new` must
    // pick the processor's best level. Generated puzzles of every kind, some turned.
    use super::level::Level;
    use crate::generate::{Kind, Rng, mixed_puzzle};
    let best = Level::detect();
    assert_eq!(FastSolver::new().level, best);
    let levels: &[Level] = match best {
        Level::Base => &[],
        Level::V3 => &[Level::V3],
    };
    let mut rng = Rng::new(29);
    let mut maker = FastSolver::new();
    let mut base = FastSolver::at(Level::Base);
    let kinds = [Kind::Minimal, Kind::Multiple, Kind::Unsolvable];
    let mut guesses = 0;
    for i in 0..300 {
        let puzzle = mixed_puzzle(&mut rng, kinds[i % 3], &mut maker);
        for limit in [1, 2, 20] {
            let limits = Limits::count_to(limit);
            let mut want = Vec::new();
            let expected = base.solve_with(&puzzle, limits, &mut |g| want.push(*g));
            guesses += expected.guesses;
            for &level in levels {
                let mut seen = Vec::new();
                let mut s = FastSolver::at(level);
                let out = s.solve_with(&puzzle, limits, &mut |g| seen.push(*g));
                assert_eq!(out, expected, "{level:?}: {puzzle} to {limit}");
                assert_eq!(seen, want, "{level:?}: {puzzle} to {limit}");
            }
        }
    }
    // Searches deep enough to reach every rule and both kinds of branch.
    assert!(guesses > 3000, "only {guesses} guesses");
}

#[test]
fn deferred_row_singles_reach_the_same_fixpoint() {
    // Placing the digits the updates find alone in a row once per round (the search's way)
    // must end where placing them at once does (the root's): same words, same empty cells,
    // same cells with two candidates, and a contradiction in both or neither. States from
    // generated puzzles, their clues placed, some with a few candidates struck at random so
    // that contradictions come up too.
    use crate::generate::{Kind, Rng, mixed_puzzle};
    let mut rng = Rng::new(31);
    let mut maker = FastSolver::new();
    let kinds = [Kind::Minimal, Kind::Multiple, Kind::Unsolvable, Kind::Easy];
    let mut failed = 0;
    for i in 0..400 {
        let puzzle = mixed_puzzle(&mut rng, kinds[i % 4], &mut maker);
        let mut state = State::START;
        for cell in 0..CELLS {
            let digit = puzzle.get(cell);
            let (b, bit) = (cell / 27, 1u32 << (cell % 27));
            if digit == 0 || state.unsolved[b] & bit == 0 {
                continue;
            }
            let d = digit as usize - 1;
            let others = (0..9)
                .filter(|&e| e != d && state.cand[e * 4 + b] & bit != 0)
                .fold(0, |m, e| m | 1 << e);
            state.cand[d * 4 + b] |= bit;
            state.assign(d, b, bit, others);
        }
        for _ in 0..(i % 3) * 2 {
            let i = rng.below(27);
            state.restrict(i / 3 * 4 + i % 3, !(1 << rng.below(27)));
        }
        let mut deferred = state;
        let now = state.propagate::<false, false>();
        let later = deferred.propagate::<false, true>();
        assert_eq!(now.is_some(), later.is_some(), "puzzle {i}");
        if now.is_none() {
            failed += 1;
            continue;
        }
        assert_eq!(now, later, "puzzle {i}");
        assert_eq!(state.cand, deferred.cand, "puzzle {i}");
        assert_eq!(state.unsolved, deferred.unsolved, "puzzle {i}");
        assert_eq!(deferred.dirty, 0);
    }
    assert!(failed > 0 && failed < 400, "{failed} contradictions");
}

#[test]
fn two_digits_alone_in_a_row_on_one_cell_are_a_contradiction() {
    // Digits 0 and 1 both have only the first cell of row 0 left: placed together at the end
    // of a round, neither may keep it as its own.
    for defer in [false, true] {
        let mut s = State::START;
        s.cand[0] &= !0x1FE;
        s.cand[4] &= !0x1FE;
        let out = if defer {
            s.propagate::<false, true>()
        } else {
            s.propagate::<false, false>()
        };
        assert_eq!(out, None, "defer {defer}");
    }
}
