//! Checks of the logical grader: every step agrees with the solution, known ratings, errors
//! on bad input, and invariance under relabelling and the grid's symmetries.

use super::board::Board;
use super::*;
use crate::generate::{self, Rng};
use crate::grid::CELLS;

/// Random minimal puzzles from the crate's generator.
pub(crate) fn generated(seed: u64, n: usize) -> Vec<Grid> {
    let mut rng = Rng::new(seed);
    let mut counter = FastSolver::new();
    (0..n)
        .map(|_| generate::puzzle(&mut rng, &generate::Spec::default(), &mut counter).unwrap())
        .collect()
}

/// Up to `n` puzzles from each tdoku corpus file, when the shared corpora are there.
pub(crate) fn tdoku_sample(n: usize) -> Vec<Grid> {
    let dir = std::path::Path::new("/work/shared/corpora/tdoku");
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if !path
            .file_name()
            .is_some_and(|f| f.to_string_lossy().starts_with("puzzles"))
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        let step = (lines.len() / n.max(1)).max(1);
        out.extend(
            lines
                .iter()
                .step_by(step)
                .take(n)
                .filter_map(|l| l.parse::<Grid>().ok()),
        );
    }
    out
}

fn solution_of(puzzle: &Grid) -> Option<Grid> {
    let out = FastSolver::new().solve(puzzle, Limits::count_to(2));
    (out.solutions == 1).then(|| out.solution.unwrap())
}

/// Runs the grader's step loop and checks each step against the solution, including the steps
/// made before a failure or the end of `budget`. Returns the outcome.
fn check_steps(puzzle: &Grid, ruleset: Ruleset, budget: &Budget) -> Result<Rating, GradeError> {
    let solution = solution_of(puzzle).expect("unique puzzle");
    let board = Board::from_values(puzzle.cells()).unwrap();
    let mut steps = Vec::new();
    let mut scratch = rate::Scratch::default();
    let out = rate::run(
        board,
        ruleset,
        budget,
        &mut scratch,
        Some(&mut steps),
        u16::MAX,
        None,
    )
    .map(|b| b.rating().cloned().expect("no limit, no bound"));
    for (k, s) in steps.iter().enumerate() {
        for &(c, d) in &s.placements {
            assert_eq!(
                solution.get(c as usize),
                d,
                "{puzzle}: step {k} {:?} places wrongly",
                s
            );
        }
        for &(c, d) in &s.eliminations {
            assert_ne!(
                solution.get(c as usize),
                d,
                "{puzzle}: step {k} {:?} removes the solution",
                s
            );
        }
    }
    out
}

#[test]
fn steps_agree_with_the_solution_on_generated_puzzles() {
    let mut solved = 0;
    let puzzles = generated(0x5eed, 600);
    for p in &puzzles {
        for ruleset in [Ruleset::Sukaku, Ruleset::Classic] {
            if check_steps(p, ruleset, &Budget::default()).is_ok() {
                solved += 1;
            }
        }
    }
    assert!(solved > 0);
}

#[test]
fn steps_agree_with_the_solution_on_tdoku_corpora() {
    // Some corpora (serg's) hold puzzles with several solutions: those are skipped. The
    // hardest take nested chains (seconds each); a time limit keeps the test short, and the
    // steps made until then are checked all the same.
    for p in tdoku_sample(40).iter().filter(|p| solution_of(p).is_some()) {
        let budget = Budget {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_millis(300)),
            stop: None,
        };
        let _ = check_steps(p, Ruleset::Sukaku, &budget);
    }
}

#[test]
fn easy_puzzles_get_serates_ratings() {
    // Ratings by Sukaku Explainer's serate (ER/EP/ED).
    let cases = [
        (
            "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..",
            12,
            12,
            12,
        ),
        (
            ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1.",
            12,
            12,
            12,
        ),
    ];
    let mut g = Grader::new();
    for (p, er, ep, ed) in cases {
        let r = g.grade(&p.parse().unwrap(), &Budget::default()).unwrap();
        assert_eq!((r.er, r.ep, r.ed), (er, ep, ed), "{p}");
    }
}

#[test]
fn bad_puzzles_are_errors() {
    let mut g = Grader::new();
    let b = Budget::default();
    assert_eq!(g.grade(&Grid::EMPTY, &b), Err(GradeError::NotUnique));
    let mut conflict: Grid =
        "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35.."
            .parse()
            .unwrap();
    conflict.set(0, 2);
    assert_eq!(g.grade(&conflict, &b), Err(GradeError::NotUnique));
    let solved: Grid =
        "762593148941278536835461792198627354476359281253814679387146925514932867629785413"
            .parse()
            .unwrap();
    let r = g.grade(&solved, &b).unwrap();
    assert_eq!((r.er, r.steps), (0, 0));
}

#[test]
fn puzzles_without_one_solution_are_errors_at_every_limit() {
    // Uniqueness is proved by the rating itself when its steps reach the full grid, and asked
    // of the solver only otherwise: a puzzle with several solutions or none must still be
    // refused, however far the easy steps get and wherever a limit stops the rating.
    let p: Grid =
        "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35.."
            .parse()
            .unwrap();
    let solution = solution_of(&p).unwrap();
    let mut bad = Vec::new();
    for cell in 0..CELLS {
        let v = p.get(cell);
        if v == 0 {
            continue;
        }
        // Without one clue: several solutions.
        let mut fewer = p;
        fewer.set(cell, 0);
        // One clue changed to a digit none of its peers shows: no solution, no clash.
        let mut wrong = p;
        for d in 1..=9u8 {
            wrong.set(cell, d);
            if d != v && Board::from_values(wrong.cells()).is_some() {
                break;
            }
        }
        for q in [fewer, wrong] {
            if q != p && solution_of(&q).is_none() {
                bad.push(q);
            }
        }
    }
    assert!(bad.len() > 20, "{}", bad.len());
    let mut g = Grader::new();
    let budget = Budget::default();
    let (mut several, mut none) = (0, 0);
    for q in &bad {
        let count = FastSolver::new().solve(q, Limits::count_to(2)).solutions;
        several += usize::from(count == 2);
        none += usize::from(count == 0);
        assert_eq!(g.grade(q, &budget), Err(GradeError::NotUnique), "{q}");
        assert_eq!(g.steps(q, &budget), Err(GradeError::NotUnique), "{q}");
        for limit in [10, 13, 20, 30, 45, 60, 100] {
            assert_eq!(
                g.grade_below(q, &budget, limit),
                Err(GradeError::NotUnique),
                "{q} below {limit}"
            );
        }
    }
    assert!(
        several > 0 && none > 0,
        "{several} with several, {none} with none"
    );
    // The grader is left fit for a unique puzzle.
    let r = g.steps(&p, &budget).unwrap();
    assert!(r.iter().all(|s| {
        s.placements
            .iter()
            .all(|&(c, d)| solution.get(c as usize) == d)
    }));
}

#[test]
fn a_set_stop_flag_aborts() {
    let stop = std::sync::atomic::AtomicBool::new(true);
    let budget = Budget {
        deadline: None,
        stop: Some(&stop),
    };
    let p: Grid =
        ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1."
            .parse()
            .unwrap();
    assert_eq!(Grader::new().grade(&p, &budget), Err(GradeError::Aborted));
}

/// The puzzle under a random relabelling, transposition and row/column permutation within
/// bands and stacks, and of bands and stacks.
pub(crate) fn shuffle(p: &Grid, rng: &mut Rng) -> Grid {
    let mut labels = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut labels);
    let perm = |rng: &mut Rng| {
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
    let rows = perm(rng);
    let cols = perm(rng);
    let transpose = rng.below(2) == 1;
    let mut cells = [0u8; CELLS];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = (rows[r], cols[c]);
            let (sr, sc) = if transpose { (sc, sr) } else { (sr, sc) };
            let v = p.get(sr * 9 + sc);
            cells[r * 9 + c] = if v == 0 { 0 } else { labels[v as usize - 1] };
        }
    }
    Grid::from_cells(cells).unwrap()
}

#[test]
fn er_is_invariant_under_relabelling_and_symmetries() {
    // Sudoku Explainer itself is not perfectly invariant (its search order favours some cells
    // and digits over others), so the bar is 97% rather than all.
    let mut rng = Rng::new(0x1d);
    let mut g = Grader::new();
    let b = Budget::default();
    let puzzles = generated(0xabc, 300);
    let mut same = 0;
    for p in &puzzles {
        let q = shuffle(p, &mut rng);
        let (a, c) = (g.grade(p, &b), g.grade(&q, &b));
        if a.as_ref().map(|r| r.er) == c.as_ref().map(|r| r.er) {
            same += 1;
        }
    }
    assert!(
        same * 100 >= puzzles.len() * 97,
        "{same} of {}",
        puzzles.len()
    );
}

#[test]
fn a_deadline_aborts_soon_even_in_nested_chains() {
    // Rated 11.0 by serate (forum's hardest list): nested forcing chains, seconds of work.
    let p: Grid =
        "..34.........8..36..8...1.4.4..6..73...9..........2..5..4.7..686........7.....5.."
            .parse()
            .unwrap();
    let start = std::time::Instant::now();
    let budget = Budget {
        deadline: Some(start + std::time::Duration::from_millis(20)),
        stop: None,
    };
    assert_eq!(Grader::new().grade(&p, &budget), Err(GradeError::Aborted));
    // The budget is looked at every few thousand chain nodes; a loaded test machine may add
    // its own delays, hence the margin.
    assert!(
        start.elapsed() < std::time::Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn serate_sample_keeps_its_agreement() {
    // 252 public-domain puzzles rated by Sukaku Explainer's serate (see the fixture's README).
    // Every one gets serate's ER, EP and ED today; this guards that floor.
    let text = include_str!("../../tests/data/logic/serate_sample.csv");
    let tenths = |s: &str| (s.parse::<f64>().unwrap() * 10.0).round() as u16;
    let mut g = Grader::new();
    let (mut n, mut er, mut ep, mut ed) = (0, 0, 0, 0);
    let mut differ = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let p: Grid = f[0].parse().unwrap();
        let r = g.grade(&p, &Budget::default()).unwrap();
        n += 1;
        er += usize::from(r.er == tenths(f[1]));
        ep += usize::from(r.ep == tenths(f[2]));
        ed += usize::from(r.ed == tenths(f[3]));
        if r.er != tenths(f[1]) {
            differ.push(format!("{p} serate {} ours {}", f[1], r.er));
        }
    }
    assert_eq!(n, 252);
    assert!(
        er == n && ep == n && ed == n,
        "ER {er}, EP {ep}, ED {ed} of {n}: {differ:?}"
    );
}

#[test]
#[ignore = "seconds per puzzle in release, minutes in debug: run with --release -- --ignored"]
fn serate_hard_gets_serates_ratings() {
    // Puzzles of ER 10-11.4 rated by serate (see the fixture's README), the deepest levels
    // of its ladder included (dynamic chains nested in dynamic chains, 10.5 and up).
    let text = include_str!("../../tests/data/logic/serate_hard.csv");
    let tenths = |s: &str| (s.parse::<f64>().unwrap() * 10.0).round() as u16;
    let mut g = Grader::new();
    let mut differ = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let p: Grid = f[0].parse().unwrap();
        let r = g.grade(&p, &Budget::default()).unwrap();
        let want = (tenths(f[1]), tenths(f[2]), tenths(f[3]));
        if (r.er, r.ep, r.ed) != want {
            differ.push(format!("{p} serate {want:?} ours {:?}", (r.er, r.ep, r.ed)));
        }
    }
    assert!(differ.is_empty(), "{differ:?}");
}

#[test]
fn rungs_kept_across_steps_find_what_a_fresh_search_finds() {
    // ALS wings and aligned pairs and triplets skip, after a search that found nothing, what
    // no change since can have made new, and aligned triplets skip cells known to remove
    // nothing. At every step of these puzzles (ER 5.5 to 9.9, where these rungs are reached
    // often) they must find exactly what a search from scratch finds.
    let puzzles = sample_rated(5.5..10.0);
    assert!(puzzles.len() >= 20, "{}", puzzles.len());
    let mut wings_memo = wings::AlsMemo::default();
    let (mut triples, mut fresh_triples) = Default::default();
    let mut pairs = Default::default();
    let mut list = Vec::new();
    let mut found = 0;
    let checked = each_step(&puzzles, |p, b, memo| {
        let clock = memo.clock();
        for n in 3..=6 {
            let kept = wings::als_wing(b, n, &mut wings_memo, clock, memo.cell_changed());
            let fresh = wings::als_wing(b, n, &mut Default::default(), clock, &[clock; 81]);
            assert_eq!(format!("{kept:?}"), format!("{fresh:?}"), "{p} size {n}");
            found += usize::from(fresh.is_some());
        }
        let changed = memo.cell_changed();
        let kept = exclusion::aligned_pair(b, &mut list, &mut pairs, clock, changed);
        let fresh =
            exclusion::aligned_pair(b, &mut list, &mut Default::default(), clock, &[clock; 81]);
        assert_eq!(format!("{kept:?}"), format!("{fresh:?}"), "{p} pair");
        found += usize::from(fresh.is_some());
        let kept = exclusion::aligned_triplet(b, &mut list, &mut triples, clock, changed);
        let fresh =
            exclusion::aligned_triplet(b, &mut list, &mut fresh_triples, clock, &[clock; 81]);
        assert_eq!(format!("{kept:?}"), format!("{fresh:?}"), "{p} triplet");
        found += usize::from(fresh.is_some());
    });
    assert!(
        checked > 500 && found > 20,
        "{checked} steps, {found} found"
    );
}

#[test]
fn kept_singles_find_what_a_fresh_search_finds() {
    // The full houses and hidden singles are looked at again only in the units a step
    // changed. At every step of these puzzles, and after every single step of them too
    // (where a chain of singles runs), they must be what a search from scratch finds.
    let text = include_str!("../../tests/data/logic/serate_sample.csv");
    let mut puzzles: Vec<Grid> = text
        .lines()
        .skip(1)
        .filter_map(|line| line.split(',').next()?.parse().ok())
        .step_by(3)
        .collect();
    puzzles.extend(generated(11, 20));
    let mut grader = Grader::new();
    let mut memo = memo::Memo::default();
    let (mut checked, mut found) = (0, 0);
    for p in &puzzles {
        let Ok(steps) = grader.steps(p, &Budget::default()) else {
            continue;
        };
        let mut b = Board::from_values(p.cells()).unwrap();
        memo.start();
        for step in &steps {
            let kept = memo.hidden_single(&b);
            let fresh = singles::hidden_single(&b);
            assert_eq!(format!("{kept:?}"), format!("{fresh:?}"), "{p}");
            found += usize::from(fresh.is_some());
            checked += 1;
            apply(&mut memo, &mut b, step);
        }
    }
    assert!(
        checked > 3000 && found > 2000 && found < checked,
        "{checked} steps, {found} found"
    );
}

/// Every second puzzle of the serate sample whose ER lies in `er`.
pub(crate) fn sample_rated(er: std::ops::Range<f64>) -> Vec<Grid> {
    let text = include_str!("../../tests/data/logic/serate_sample.csv");
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            er.contains(&f[1].parse().unwrap())
                .then(|| f[0].parse().unwrap())
        })
        .step_by(2)
        .collect()
}

/// Grades each of `puzzles` and calls `visit` with the puzzle, the grid before each of its
/// steps and a memo told of every change so far; returns how many steps were visited.
pub(crate) fn each_step(
    puzzles: &[Grid],
    mut visit: impl FnMut(&Grid, &Board, &memo::Memo),
) -> usize {
    let mut grader = Grader::new();
    let mut memo = memo::Memo::default();
    let mut visited = 0;
    for p in puzzles {
        let steps = grader.steps(p, &Budget::default()).unwrap();
        let mut b = Board::from_values(p.cells()).unwrap();
        memo.start();
        for step in &steps {
            visit(p, &b, &memo);
            visited += 1;
            apply(&mut memo, &mut b, step);
        }
    }
    visited
}

/// Makes `step` on `b`, and tells `memo` what changed.
pub(crate) fn apply(memo: &mut memo::Memo, b: &mut Board, step: &Step) {
    let before = *b;
    for &(c, d) in &step.eliminations {
        b.remove(c as usize, d as usize - 1);
    }
    for &(c, d) in &step.placements {
        b.place(c as usize, d as usize - 1);
    }
    memo.changed(&before, b);
}
