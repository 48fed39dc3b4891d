//! Augmentation: random isomorphs of every puzzle, each with its solution transformed alike.
//!
//! A record's copies come from a generator of its own ([`record_rng`], xoshiro256++), seeded by
//! the run's seed, the record's input (its position in the list of inputs) and its line; copy
//! `k` is the `k`-th [`Transform::random`] drawn from it. So a seed gives the same copies
//! whatever the thread count, however a run is cut into shards, and in the command line and the
//! Python package alike (where the puzzle at position `i` is on line `first_line + i` of input
//! 0); and copies `0..k` are the same whatever the number of copies asked for. Every copy is a
//! random draw, the first too: the original is not among them (but with a chance of one in
//! [`COUNT`](super::transform::COUNT) per copy, when the identity is drawn).
//!
//! [`split_part`] deals isomorph classes between the parts of a train/test split by a class key.
//!
//! Only a puzzle with exactly one solution is augmented. Any other record (not a puzzle, no
//! solution, several) gets one row of its own with its status and the reason, and no copies:
//! its copies could not be told apart from a puzzle's, or would have no solution to carry.

use std::fmt::Write as _;
use std::io;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use super::transform::Transform;
use crate::grid::{CELLS, Grid};
use crate::pipeline::ResultsWriter;
use crate::pipeline::read::RecordInput;
use crate::pipeline::solve::{Row, Status};
use crate::pipeline::write::{Field, Kind, Value};

/// The columns of `augment`'s output, in order, without `transform`.
pub const COLUMNS: [Field; 6] = [
    Field::new("line", Kind::Number),
    Field::new("copy", Kind::Number),
    Field::new("puzzle", Kind::Grid),
    Field::new("solution", Kind::Grid),
    Field::new("status", Kind::Category),
    Field::new("error", Kind::Text),
];

/// The column `--with-transform` adds, after `solution`: the transformation applied, in its
/// text form.
pub const TRANSFORM_COLUMN: Field = Field::new("transform", Kind::Text);

/// The columns of the output, with `transform` when asked for.
pub fn columns(with_transform: bool) -> Vec<Field> {
    let mut columns = COLUMNS.to_vec();
    if with_transform {
        columns.insert(4, TRANSFORM_COLUMN);
    }
    columns
}

/// SplitMix64's output function: a bijection of `u64` that mixes every bit into every other.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of the copies of the record on `line` of input `file` (0-based) in a run
/// seeded with `seed`. Within one input, distinct lines always get distinct generators: the
/// line goes through a bijection last.
pub fn record_rng(seed: u64, file: u32, line: u64) -> Xoshiro256PlusPlus {
    let input = mix(seed ^ mix(u64::from(file).wrapping_add(0x9E37_79B9_7F4A_7C15)));
    Xoshiro256PlusPlus::seed_from_u64(mix(input ^ line))
}

/// The transformations of a record's copies, in order: copy 0, copy 1, ... (endless).
pub fn copies(seed: u64, file: u32, line: u64) -> impl Iterator<Item = Transform> {
    let mut rng = record_rng(seed, file, line);
    std::iter::repeat_with(move || Transform::random(&mut rng))
}

/// Writes copies of `puzzle` and its `solution` into `puzzles` and `solutions`, 81 cells each
/// (`0` for a blank), as many as they hold, each transformed by the next of `transforms`.
pub fn write_copies(
    puzzle: &Grid,
    solution: &Grid,
    transforms: impl Iterator<Item = Transform>,
    puzzles: &mut [u8],
    solutions: &mut [u8],
) {
    let pairs = puzzles
        .chunks_exact_mut(CELLS)
        .zip(solutions.chunks_exact_mut(CELLS));
    let from = (puzzle.cells(), solution.cells());
    for ((p, s), t) in pairs.zip(transforms) {
        let (p, s) = (
            p.try_into().expect("81 cells"),
            s.try_into().expect("81 cells"),
        );
        t.apply_pair(from, p, s);
    }
}

/// Why a record with this status gets no copies; `error` is its row's error text (the parse
/// error, the conflicting unit), if any. `None` for a puzzle with exactly one solution.
pub fn not_augmented(status: Status, error: Option<String>) -> Option<String> {
    let why = match status {
        Status::Unique => return None,
        Status::Invalid => return Some(error.unwrap_or_else(|| "not a puzzle".into())),
        Status::Unsolvable => error.unwrap_or_else(|| "no solution".into()),
        Status::Multiple => "more than one solution".into(),
        Status::Solved => "not proved to have only one solution".into(),
        Status::Aborted => "its search was given up".into(),
    };
    Some(format!(
        "{why}: only a puzzle with exactly one solution is augmented"
    ))
}

/// Why `solution` is not a solution of `puzzle`, in words; `None` when it is one (complete,
/// without conflict, keeping every clue). Whether it is the only one is not checked.
pub fn solution_problem(puzzle: &Grid, solution: &Grid) -> Option<String> {
    if !solution.is_full() {
        let blanks = CELLS - solution.clue_count();
        return Some(format!("the solution has {blanks} blank cells"));
    }
    if let Some(conflict) = solution.conflict() {
        return Some(format!("the solution is not valid: {conflict}"));
    }
    let cell = (0..CELLS).find(|&i| puzzle.get(i) != 0 && puzzle.get(i) != solution.get(i))?;
    Some(format!(
        "the solution differs from the clue at r{}c{} (clue {}, solution {})",
        cell / 9 + 1,
        cell % 9 + 1,
        puzzle.get(cell),
        solution.get(cell)
    ))
}

/// Writes `augment`'s rows, record by record in input order: `copies` rows for a puzzle with
/// exactly one solution, one row with the reason for any other record.
#[derive(Debug)]
pub struct Augmenter {
    seed: u64,
    copies: u64,
    with_transform: bool,
    /// The text of the `transform` column.
    transform: String,
    /// The text of the `error` column.
    error: String,
}

impl Augmenter {
    /// An augmenter writing `copies` copies of every puzzle, drawn for `seed`, with the
    /// `transform` column when `with_transform`.
    pub fn new(seed: u64, copies: u64, with_transform: bool) -> Augmenter {
        Augmenter {
            seed,
            copies,
            with_transform,
            transform: String::with_capacity(32),
            error: String::new(),
        }
    }

    /// Writes the rows of one solved record (a row of the pipeline) to `out`.
    pub fn write(&mut self, out: &mut ResultsWriter, row: &Row) -> io::Result<()> {
        let line = Value::Number(row.record.line);
        let (puzzle, solution) = match (&row.record.input, &row.outcome.solution) {
            (RecordInput::Puzzle(p), Some(s)) if row.status == Status::Unique => (p, s),
            (input, _) => {
                self.error = not_augmented(row.status, row.error()).unwrap_or_default();
                let puzzle = match input {
                    RecordInput::Puzzle(g) => Value::Grid(g),
                    RecordInput::Invalid { text, .. } => Value::Text(text),
                };
                let status = Value::Text(row.status.as_str());
                let error = Value::Text(&self.error);
                let values = [line, Value::Empty, puzzle, Value::Empty, Value::Empty];
                return self.write_values(out, values, status, error);
            }
        };
        let transforms = copies(self.seed, row.record.file, row.record.line);
        for (copy, t) in (0..self.copies).zip(transforms) {
            let (p, s) = (t.apply(puzzle), t.apply(solution));
            if self.with_transform {
                self.transform.clear();
                let _ = write!(self.transform, "{t}");
            }
            let values = [
                line,
                Value::Number(copy),
                Value::Grid(&p),
                Value::Grid(&s),
                Value::Text(&self.transform),
            ];
            let status = Value::Text(Status::Unique.as_str());
            self.write_values(out, values, status, Value::Empty)?;
        }
        Ok(())
    }

    /// Writes one row: `values` are line, copy, puzzle, solution and transform, the last left
    /// out unless asked for.
    fn write_values(
        &self,
        out: &mut ResultsWriter,
        values: [Value; 5],
        status: Value,
        error: Value,
    ) -> io::Result<()> {
        let [line, copy, puzzle, solution, transform] = values;
        if self.with_transform {
            out.write_row(&[line, copy, puzzle, solution, transform, status, error])
        } else {
            out.write_row(&[line, copy, puzzle, solution, status, error])
        }
    }
}

/// The part of a split (train, test, ...) that the isomorph class with key `class` goes to:
/// `shares` are the parts' shares of the classes, in any unit (`[8, 2]`: 80% and 20%), at
/// least one of them above 0. The key is mixed with `seed` into a number spread evenly over
/// `u64`, whose place among the shares' cumulative bounds picks the part: every puzzle of a
/// class, and so every isomorph of a puzzle, goes to the same part, and a new seed deals the
/// classes anew. The key must be the same for all isomorphs: a hash of the canonical form.
pub fn split_part(class: u64, seed: u64, shares: &[u32]) -> usize {
    let total: u128 = shares.iter().map(|&s| u128::from(s)).sum();
    assert!(total > 0, "a split needs a part with a share above 0");
    // The point in 0..total that the mixed key falls on, without bias worth measuring.
    let point = (u128::from(mix(mix(class) ^ seed)) * total) >> 64;
    let mut bound = 0u128;
    for (part, &share) in shares.iter().enumerate() {
        bound += u128::from(share);
        if point < bound {
            return part;
        }
    }
    unreachable!("the point is below the total of the shares")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1.";
    const SOLUTION: &str =
        "762593148941278536835461792198627354476359281253814679387146925514932867629785413";

    #[test]
    fn a_record_s_copies_depend_on_seed_input_and_line_only() {
        let take = |seed, file, line, n| copies(seed, file, line).take(n).collect::<Vec<_>>();
        assert_eq!(take(7, 0, 1, 5), take(7, 0, 1, 5));
        // Fewer copies are the first of more.
        assert_eq!(take(7, 0, 1, 3), take(7, 0, 1, 5)[..3]);
        assert_ne!(take(7, 0, 1, 3), take(8, 0, 1, 3));
        assert_ne!(take(7, 0, 1, 3), take(7, 1, 1, 3));
        assert_ne!(take(7, 0, 1, 3), take(7, 0, 2, 3));
        // Copy 0 is a random draw, not the original.
        assert_ne!(take(7, 0, 1, 1)[0], Transform::identity());
    }

    #[test]
    fn a_seed_s_copies_are_fixed_for_good() {
        // xoshiro256++ and the decoding of a transformation are fixed by their definitions:
        // this must not change from one version to the next.
        let first: Vec<String> = copies(2026, 0, 1).take(2).map(|t| t.to_string()).collect();
        assert_eq!(
            first,
            [
                "TR213456987C132564987D364729581",
                "TR456879132C897546312D317465289"
            ]
        );
    }

    #[test]
    fn copies_are_written_in_order_and_stay_solutions() {
        let (p, s): (Grid, Grid) = (PUZZLE.parse().unwrap(), SOLUTION.parse().unwrap());
        let (mut ps, mut ss) = (vec![0u8; 4 * CELLS], vec![0u8; 4 * CELLS]);
        write_copies(&p, &s, copies(1, 0, 5), &mut ps, &mut ss);
        for ((cp, cs), t) in ps.chunks(CELLS).zip(ss.chunks(CELLS)).zip(copies(1, 0, 5)) {
            let cp = Grid::from_cells(cp.try_into().unwrap()).unwrap();
            let cs = Grid::from_cells(cs.try_into().unwrap()).unwrap();
            assert_eq!((cp, cs), (t.apply(&p), t.apply(&s)));
            assert!(cs.solves(&cp));
        }
    }

    #[test]
    fn a_split_keeps_a_class_on_one_side_in_the_shares_given() {
        let shares = [8, 2];
        let parts: Vec<usize> = (0..10_000u64).map(|k| split_part(k, 1, &shares)).collect();
        let test = parts.iter().filter(|&&p| p == 1).count();
        assert!(
            (1800..2200).contains(&test),
            "{test} of 10000 in the test part"
        );
        // The same key always goes to the same part; another seed deals anew.
        assert!((0..10_000u64).all(|k| split_part(k, 1, &shares) == parts[k as usize]));
        let moved = (0..10_000u64)
            .filter(|&k| split_part(k, 2, &shares) != parts[k as usize])
            .count();
        assert!(moved > 2000, "{moved}");
        // A part with no share gets nothing; a single part everything.
        assert!((0..1000).all(|k| split_part(k, 3, &[0, 5, 0]) == 1));
        assert!((0..1000).all(|k| split_part(k, 3, &[1]) == 0));
        assert!(split_part(u64::MAX, u64::MAX, &[u32::MAX, u32::MAX]) < 2);
    }

    #[test]
    fn reasons_in_words() {
        assert_eq!(not_augmented(Status::Unique, None), None);
        assert_eq!(
            not_augmented(Status::Multiple, None).unwrap(),
            "more than one solution: only a puzzle with exactly one solution is augmented"
        );
        assert_eq!(
            not_augmented(Status::Unsolvable, Some("digit 5 twice in row 1".into())).unwrap(),
            "digit 5 twice in row 1: only a puzzle with exactly one solution is augmented"
        );
        assert_eq!(
            not_augmented(Status::Invalid, Some("80 cells, expected 81".into())).unwrap(),
            "80 cells, expected 81"
        );
        let (p, s): (Grid, Grid) = (PUZZLE.parse().unwrap(), SOLUTION.parse().unwrap());
        assert_eq!(solution_problem(&p, &s), None);
        assert_eq!(
            solution_problem(&p, &p).unwrap(),
            "the solution has 49 blank cells"
        );
        let mut wrong = s;
        wrong.set(1, 7);
        assert_eq!(
            solution_problem(&p, &wrong).unwrap(),
            "the solution is not valid: digit 7 twice in row 1"
        );
        // A valid grid that is not this puzzle's: the first clue that differs is named.
        let other = Transform::from_index(1).unwrap().apply(&s);
        assert!(
            solution_problem(&p, &other)
                .unwrap()
                .starts_with("the solution differs from the clue at r1c2 (clue 6, solution")
        );
    }
}
