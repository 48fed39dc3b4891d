//! Puzzles rated within a band of ER: a search towards a target rating drawn at random in the
//! band ([`rated_puzzle`]), and a search of the neighbourhood of given seed puzzles
//! ([`rated_around`]). Both move between minimal unique puzzles: the first by [`neighbour`], a
//! few clues taken away and a few others put in at random, the result kept when it has one
//! solution, then minimised; the second by [`close_neighbour`], which moves as few clues as it
//! can so that a hard seed's neighbours stay hard.

use std::ops::RangeInclusive;
use std::sync::atomic::Ordering;

use super::{Rng, Spec, Symmetry, minimise, puzzle};
use crate::grid::{CELLS, Grid, PEERS};
use crate::logic::{Bounded, Budget, GradeError, Grader, Rating};
use crate::solver::{Limits, Solver};

/// Moves tried for one neighbour before giving up.
const NEIGHBOUR_TRIES: usize = 64;

/// How far above its target (tenths of ER) a puzzle may be rated and still meet it.
pub const WINDOW: u16 = 4;

/// The top of the targets when the band has no top: this far above its bottom (tenths).
pub const OPEN_SPAN: u16 = 10;

/// Steps without coming closer to the target after which the search starts again from a fresh
/// random puzzle.
const STALE: u32 = 40;

/// A minimal puzzle with exactly one solution near `puzzle` (which must have exactly one): one
/// or two of its clues taken away and one or two digits put in blank cells (digits their peers
/// allow, other than the one just taken from that cell), then, while that has several
/// solutions, clues from one of them where two differ, and finally made minimal by
/// [`minimise`]. The solution may differ from `puzzle`'s. `None`
/// when no move out of `NEIGHBOUR_TRIES` gives a new puzzle.
pub fn neighbour(rng: &mut Rng, puzzle: &Grid, solver: &mut dyn Solver) -> Option<Grid> {
    for _ in 0..NEIGHBOUR_TRIES {
        let mut q = *puzzle;
        for _ in 0..1 + rng.below(2) {
            if let Some(cell) = pick(rng, &q, |d| d != 0) {
                q.set(cell, 0);
            }
        }
        for _ in 0..1 + rng.below(2) {
            let Some(cell) = pick(rng, &q, |d| d == 0) else {
                break;
            };
            let mut allowed = [0u8; 9];
            let mut n = 0;
            for d in 1..=9u8 {
                if d != puzzle.get(cell) && PEERS[cell].iter().all(|&p| q.get(p as usize) != d) {
                    allowed[n] = d;
                    n += 1;
                }
            }
            if n > 0 {
                q.set(cell, allowed[rng.below(n)]);
            }
        }
        if q == *puzzle || !make_unique(rng, &mut q, solver) {
            continue;
        }
        let m = minimise(rng, &q, solver);
        if m != *puzzle {
            return Some(m);
        }
    }
    None
}

/// Solutions enumerated to choose the clue a [`close_neighbour`] puts in.
const CLOSE_SOLUTIONS: u64 = 32;

/// Clues a [`close_neighbour`] may put in before it gives up a move.
const CLOSE_ADDED: usize = 3;

/// A minimal puzzle with exactly one solution that differs from `puzzle` (which must have
/// exactly one) by as little as a clue moved: the hunters' "vicinity" move. One clue (now and
/// then two) is taken away; of the solutions the rest has (up to `CLOSE_SOLUTIONS`), a digit
/// that only one or a few of them have in some other blank cell is put in, until one solution
/// is left (at most `CLOSE_ADDED` digits), and the result is made minimal by [`minimise`].
///
/// Unlike [`neighbour`], no digit is put in at random and no clue is added back from a whole
/// solution, so the puzzle keeps most of the seed's structure: next to a hard puzzle, its
/// neighbours are often hard too. `None` when no move out of `NEIGHBOUR_TRIES` gives a new
/// puzzle.
pub fn close_neighbour(rng: &mut Rng, puzzle: &Grid, solver: &mut dyn Solver) -> Option<Grid> {
    let mut solutions = Vec::with_capacity(CLOSE_SOLUTIONS as usize);
    for _ in 0..NEIGHBOUR_TRIES {
        let mut q = *puzzle;
        let mut taken = [false; CELLS];
        for _ in 0..1 + usize::from(rng.below(3) == 0) {
            if let Some(cell) = pick(rng, &q, |d| d != 0) {
                q.set(cell, 0);
                taken[cell] = true;
            }
        }
        let mut unique = false;
        for _ in 0..=CLOSE_ADDED {
            solutions.clear();
            let found = solver.solve_with(&q, Limits::count_to(CLOSE_SOLUTIONS), &mut |g| {
                solutions.push(*g)
            });
            if found.solutions <= 1 {
                unique = found.solutions == 1;
                break;
            }
            // The (cell, digit) pairs held by the fewest solutions but at least one, in a
            // blank cell other than those just emptied.
            let mut counts = [[0u8; 9]; CELLS];
            for g in &solutions {
                for (c, &d) in g.cells().iter().enumerate() {
                    counts[c][d as usize - 1] += 1;
                }
            }
            let all = solutions.len() as u8;
            let mut fewest = u8::MAX;
            let mut pairs = Vec::new();
            for c in (0..CELLS).filter(|&c| q.get(c) == 0 && !taken[c]) {
                for (d, &n) in counts[c].iter().enumerate() {
                    if n == 0 || n == all || n > fewest {
                        continue;
                    }
                    if n < fewest {
                        fewest = n;
                        pairs.clear();
                    }
                    pairs.push((c, d as u8 + 1));
                }
            }
            if pairs.is_empty() {
                break;
            }
            let (c, d) = pairs[rng.below(pairs.len())];
            q.set(c, d);
        }
        if !unique {
            continue;
        }
        let m = minimise(rng, &q, solver);
        if m != *puzzle {
            return Some(m);
        }
    }
    None
}

/// Adds clues to `grid` until it has exactly one solution: while it has two or more, a cell
/// where two of them differ gets the digit of one of the two, at random. False when `grid` has
/// no solution.
fn make_unique(rng: &mut Rng, grid: &mut Grid, solver: &mut dyn Solver) -> bool {
    loop {
        let mut two = [Grid::EMPTY; 2];
        let mut n = 0;
        let found = solver.solve_with(grid, Limits::count_to(2), &mut |g| {
            if n < 2 {
                two[n] = *g;
                n += 1;
            }
        });
        match found.solutions {
            0 => return false,
            1 => return true,
            _ => {
                let differ = |d: u8| d != 0;
                let mut diff = Grid::EMPTY;
                for c in 0..CELLS {
                    if two[0].get(c) != two[1].get(c) {
                        diff.set(c, 1);
                    }
                }
                let Some(cell) = pick(rng, &diff, differ) else {
                    return false;
                };
                grid.set(cell, two[rng.below(2)].get(cell));
            }
        }
    }
}

/// A random cell of `grid` whose digit passes `keep`, if any.
fn pick(rng: &mut Rng, grid: &Grid, keep: impl Fn(u8) -> bool) -> Option<usize> {
    let mut cells = [0u8; CELLS];
    let mut n = 0;
    for (i, &d) in grid.cells().iter().enumerate() {
        if keep(d) {
            cells[n] = i as u8;
            n += 1;
        }
    }
    (n > 0).then(|| cells[rng.below(n)] as usize)
}

/// What rating one puzzle gave.
enum Rated {
    /// Rated, ER in tenths.
    Er(Rating),
    /// Not rated within the budget, or not rated at all.
    Unknown,
    /// The budget's stop flag is set: the search must end.
    Stopped,
}

fn rate(grader: &mut Grader, p: &Grid, budget: &dyn Fn() -> Budget<'static>) -> Rated {
    let budget = budget();
    match grader.grade(p, &budget) {
        Ok(rating) => Rated::Er(rating),
        Err(GradeError::Aborted) if budget.stop.is_some_and(|s| s.load(Ordering::Relaxed)) => {
            Rated::Stopped
        }
        Err(_) => Rated::Unknown,
    }
}

/// A puzzle to `spec` whose rating on the Sudoku Explainer scale lies in `band` (ER in tenths,
/// both ends included), rated by `grader` within `budget`, spread over the band rather than
/// piled at its bottom.
///
/// A target is drawn uniformly from the band's tenths (from its bottom to `OPEN_SPAN` above
/// when the band has no top), and the puzzle must be rated from the target to `WINDOW` above
/// it (within the band). The search starts from a random puzzle drawn as [`puzzle`] draws and
/// moves to a [`neighbour`] whenever that is no farther from the target's window; after
/// `STALE` steps without such a move it starts again from a fresh draw. With a clue pattern
/// symmetry every step is a fresh draw (neighbours do not keep the symmetry). Each rated
/// puzzle is one of `spec.attempts`; when they run out, the puzzle rated closest to the window
/// within the band is the answer, and `None` comes only when none was rated in the band at all
/// or once the budget's stop flag is set. A puzzle the grader cannot rate within the budget
/// counts as outside the band.
pub fn rated_puzzle(
    rng: &mut Rng,
    spec: &Spec,
    band: RangeInclusive<u16>,
    counter: &mut dyn Solver,
    grader: &mut Grader,
    budget: &dyn Fn() -> Budget<'static>,
) -> Option<(Grid, Rating)> {
    let (lo, hi) = (*band.start(), *band.end());
    let top = if hi == u16::MAX {
        lo.saturating_add(OPEN_SPAN)
    } else {
        hi
    };
    let target = lo + rng.below(usize::from(top.saturating_sub(lo)) + 1) as u16;
    let window = target..=target.saturating_add(WINDOW).min(hi);
    let distance = |er: u16| {
        if er < *window.start() {
            window.start() - er
        } else {
            er.saturating_sub(*window.end())
        }
    };
    let one = Spec {
        attempts: 1,
        ..*spec
    };
    let clues = spec.min_clues..=spec.max_clues;
    let mut current: Option<(Grid, u16)> = None;
    let mut best: Option<(Grid, Rating)> = None;
    let mut stale = 0;
    for _ in 0..spec.attempts.max(1) {
        let near = match &current {
            Some((p, _)) if spec.symmetry == Symmetry::None => neighbour(rng, p, counter),
            _ => None,
        };
        let Some(p) = near
            .filter(|p| clues.contains(&p.clue_count()))
            .or_else(|| puzzle(rng, &one, counter))
        else {
            continue;
        };
        let rating = match rate(grader, &p, budget) {
            Rated::Er(rating) => rating,
            Rated::Unknown => continue,
            Rated::Stopped => return None,
        };
        let (er, d) = (rating.er, distance(rating.er));
        if d == 0 {
            return Some((p, rating));
        }
        if band.contains(&er) && best.as_ref().is_none_or(|(_, b)| d < distance(b.er)) {
            best = Some((p, rating));
        }
        if current.as_ref().is_none_or(|&(_, e)| d <= distance(e)) {
            current = Some((p, er));
            stale = 0;
        } else {
            stale += 1;
            if stale >= STALE {
                current = None;
                stale = 0;
            }
        }
    }
    best
}

/// A new puzzle rated in `band` (ER in tenths, both ends included) found next to one of
/// `seeds` (each with exactly one solution): a seed drawn at random, then up to `attempts` of
/// its [`close_neighbour`]s rated by `grader` within `budget`, the first in the band (and not
/// itself a seed) being the answer. `None` when none is, or once the budget's stop flag is set.
///
/// Each neighbour is rated only as far as the band needs ([`Grader::grade_below`]): with no
/// upper end, until it is known to be at least the band's start; otherwise until it is known
/// to be above the band's end. The answer is the same as a full rating's, sooner; the hard
/// end's full ratings take seconds.
pub fn rated_around(
    rng: &mut Rng,
    seeds: &[Grid],
    band: RangeInclusive<u16>,
    attempts: u64,
    counter: &mut dyn Solver,
    grader: &mut Grader,
    budget: &dyn Fn() -> Budget<'static>,
) -> Option<Grid> {
    let seed = *seeds.get(rng.below(seeds.len().max(1)))?;
    let open_above = *band.end() == u16::MAX;
    let limit = if open_above {
        *band.start()
    } else {
        band.end() + 1
    };
    for _ in 0..attempts.max(1) {
        let p = close_neighbour(rng, &seed, counter)?;
        if seeds.contains(&p) {
            continue;
        }
        let budget = budget();
        let fits = match grader.grade_below(&p, &budget, limit) {
            Ok(Bounded::AtLeast(_)) => open_above,
            Ok(Bounded::Rated(rating)) => band.contains(&rating.er),
            Err(GradeError::Aborted) if budget.stop.is_some_and(|s| s.load(Ordering::Relaxed)) => {
                return None;
            }
            Err(_) => false,
        };
        if fits {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Strategy;
    use crate::logic::Ruleset;

    fn minimal_unique(p: &Grid, s: &mut dyn Solver) -> bool {
        s.solve(p, Limits::count_to(2)).solutions == 1
            && (0..CELLS).filter(|&c| p.get(c) != 0).all(|c| {
                let mut q = *p;
                q.set(c, 0);
                s.solve(&q, Limits::count_to(2)).solutions == 2
            })
    }

    #[test]
    fn neighbours_are_new_minimal_unique_puzzles() {
        let mut s = Strategy::default().solver();
        let mut rng = Rng::new(4);
        let mut p = puzzle(&mut rng, &Spec::default(), &mut *s).unwrap();
        for _ in 0..20 {
            let q = neighbour(&mut rng, &p, &mut *s).expect("a neighbour");
            assert_ne!(q, p);
            assert!(minimal_unique(&q, &mut *s), "{q}");
            p = q;
        }
    }

    #[test]
    fn close_neighbours_are_new_minimal_unique_puzzles_that_keep_most_clues() {
        let mut s = Strategy::default().solver();
        let mut rng = Rng::new(6);
        let mut p = puzzle(&mut rng, &Spec::default(), &mut *s).unwrap();
        let mut kept = 0;
        for _ in 0..20 {
            let q = close_neighbour(&mut rng, &p, &mut *s).expect("a neighbour");
            assert_ne!(q, p);
            assert!(minimal_unique(&q, &mut *s), "{q}");
            let same = (0..CELLS)
                .filter(|&c| p.get(c) != 0 && q.get(c) == p.get(c))
                .count();
            kept += same * 100 / p.clue_count();
            p = q;
        }
        // A clue or two moved, and minimising may drop a few: most clues stay where they were.
        assert!(
            kept / 20 >= 70,
            "{}% of the clues kept on average",
            kept / 20
        );
    }

    #[test]
    fn rated_puzzles_meet_their_band_and_do_not_all_sit_at_its_bottom() {
        let mut s = Strategy::default().solver();
        let mut grader = Grader::with_ruleset(Ruleset::default());
        let budget = || Budget {
            deadline: None,
            stop: None,
        };
        let spec = Spec {
            attempts: 300,
            ..Spec::default()
        };
        let mut ers = Vec::new();
        for i in 0..12 {
            let mut rng = super::super::puzzle_rng(5, i);
            let (p, rating) =
                rated_puzzle(&mut rng, &spec, 20..=40, &mut *s, &mut grader, &budget).unwrap();
            assert!((20..=40).contains(&rating.er), "{}", rating.er);
            assert_eq!(grader.grade(&p, &budget()).unwrap().er, rating.er);
            assert!(minimal_unique(&p, &mut *s));
            ers.push(rating.er);
        }
        ers.sort_unstable();
        // Drawn targets over 2.0-4.0: some above the middle of the band.
        assert!(ers[ers.len() - 1] >= 32, "{ers:?}");
    }

    #[test]
    fn around_finds_rated_neighbours_that_are_not_seeds() {
        let mut s = Strategy::default().solver();
        let mut grader = Grader::with_ruleset(Ruleset::default());
        let budget = || Budget {
            deadline: None,
            stop: None,
        };
        let mut rng = Rng::new(8);
        let seeds: Vec<Grid> = (0..3)
            .map(|_| puzzle(&mut rng, &Spec::default(), &mut *s).unwrap())
            .collect();
        for _ in 0..5 {
            let p = rated_around(&mut rng, &seeds, 10..=90, 50, &mut *s, &mut grader, &budget)
                .expect("a neighbour in a wide band");
            let er = grader.grade(&p, &budget()).unwrap().er;
            assert!(!seeds.contains(&p) && (10..=90).contains(&er), "{er}");
            assert!(minimal_unique(&p, &mut *s));
        }
        // Open above: a neighbour known to rate at least the start is taken unrated.
        for _ in 0..3 {
            let p = rated_around(
                &mut rng,
                &seeds,
                20..=u16::MAX,
                50,
                &mut *s,
                &mut grader,
                &budget,
            )
            .expect("a neighbour rated 2.0 or more");
            assert!(grader.grade(&p, &budget()).unwrap().er >= 20);
        }
        assert_eq!(
            rated_around(
                &mut rng,
                &seeds,
                1000..=1000,
                5,
                &mut *s,
                &mut grader,
                &budget
            ),
            None
        );
    }
}
