//! Tests of [`Transform`]: validity kept, the text form, the index, composition and inverse.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use super::*;

const PUZZLE: &str =
    ".6.593...9.1...5...3.4...9.1.8.2...44..3.9..12...1.6.9.8...6.2...4...8.7...785.1.";
const SOLUTION: &str =
    "762593148941278536835461792198627354476359281253814679387146925514932867629785413";

fn grid(text: &str) -> Grid {
    text.parse().unwrap()
}

fn draws(seed: u64, n: usize) -> Vec<Transform> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n).map(|_| Transform::random(&mut rng)).collect()
}

/// The result by the formula of the module's documentation, cell by cell.
fn by_the_formula(t: &Transform, g: &Grid) -> Grid {
    let at = |r: usize, c: usize| {
        if t.transposes() {
            g.get(9 * c + r)
        } else {
            g.get(9 * r + c)
        }
    };
    let (rows, cols, digits) = (t.rows(), t.cols(), t.digits());
    let mut out = Grid::EMPTY;
    for (r, &from_row) in rows.iter().enumerate() {
        for (c, &from_col) in cols.iter().enumerate() {
            let d = at(usize::from(from_row), usize::from(from_col));
            out.set(
                9 * r + c,
                if d == 0 {
                    0
                } else {
                    digits[usize::from(d) - 1]
                },
            );
        }
    }
    out
}

#[test]
fn the_identity_changes_nothing_and_is_index_0() {
    let id = Transform::identity();
    assert_eq!(id.to_string(), "R123456789C123456789D123456789");
    assert_eq!(Transform::from_index(0), Some(id));
    assert_eq!(id.apply(&grid(PUZZLE)), grid(PUZZLE));
    assert_eq!(id.inverse(), id);
}

#[test]
fn a_solved_grid_stays_solved_and_a_puzzle_keeps_its_solution() {
    let (puzzle, solution) = (grid(PUZZLE), grid(SOLUTION));
    assert!(solution.solves(&puzzle));
    for t in draws(1, 2000) {
        let (p, s) = (t.apply(&puzzle), t.apply(&solution));
        assert!(s.is_full() && s.conflict().is_none(), "{t}: {s}");
        assert!(s.solves(&p), "{t}: {s} does not solve {p}");
        assert_eq!(p.clue_count(), puzzle.clue_count(), "{t}");
        // Blanks stay blanks and clues clues, cell for cell through the permutation.
        for (i, &from) in t.cell_sources().iter().enumerate() {
            assert_eq!(p.get(i) == 0, puzzle.get(usize::from(from)) == 0);
        }
        assert_eq!(p, by_the_formula(&t, &puzzle), "{t}");
    }
}

#[test]
fn a_worked_example_of_the_text_form() {
    // Transposed, then rows 3,1,2 of the first band, the second band as it is, the third
    // reversed; the stacks in the order 1,3,2; the digit 1 becomes 9, every other d becomes
    // d - 1.
    let t: Transform = "TR312456987C123789456D912345678".parse().unwrap();
    assert!(t.transposes());
    assert_eq!(t.rows(), [2, 0, 1, 3, 4, 5, 8, 7, 6]);
    assert_eq!(t.cols(), [0, 1, 2, 6, 7, 8, 3, 4, 5]);
    let g = grid(SOLUTION);
    let h = t.apply(&g);
    // Row 1 of the result is row 3 of the transposed grid: column 3 of the grid,
    // 2 1 5 8 6 3 7 4 9, its columns taken in the order 1,2,3,7,8,9,4,5,6, then relabelled.
    let column3: Vec<u8> = (0..9).map(|r| g.get(9 * r + 2)).collect();
    assert_eq!(column3, [2, 1, 5, 8, 6, 3, 7, 4, 9]);
    let expected: Vec<u8> = [0, 1, 2, 6, 7, 8, 3, 4, 5]
        .iter()
        .map(|&c| column3[c])
        .map(|d| if d == 1 { 9 } else { d - 1 })
        .collect();
    assert_eq!((0..9).map(|c| h.get(c)).collect::<Vec<_>>(), expected);
    assert_eq!(h, by_the_formula(&t, &g));
}

#[test]
fn the_text_form_reads_back() {
    for t in draws(2, 500) {
        let text = t.to_string();
        assert_eq!(text.len(), if t.transposes() { 31 } else { 30 });
        assert_eq!(text.parse::<Transform>(), Ok(t), "{text}");
    }
}

#[test]
fn bad_texts_are_refused_in_words() {
    let err = |text: &str| text.parse::<Transform>().unwrap_err().to_string();
    assert!(err("R123456789C123456789D12345678").starts_with(
        "`R123456789C123456789D12345678` is not a transformation: expected R, C and D"
    ));
    assert!(err("").contains("is not a transformation"));
    assert!(err("X123456789C123456789D123456789").contains("is not a transformation"));
    assert!(err("R12345678xC123456789D123456789").contains("is not a transformation"));
    assert_eq!(
        err("R124356789C123456789D123456789"),
        "rows 1-3 of a transformation must come from one band: rows 1-3, 4-6 or 7-9"
    );
    assert_eq!(
        err("TR123456789C123457689D123456789"),
        "columns 4-6 of a transformation must come from one stack: columns 1-3, 4-6 or 7-9"
    );
    assert_eq!(
        err("R113456789C123456789D123456789"),
        "the rows of a transformation must be 1 to 9, each once"
    );
    assert_eq!(
        err("R023456789C123456789D123456789"),
        "the rows of a transformation must be 1 to 9, each once"
    );
    assert_eq!(
        err("R123456789C123456789D023456789"),
        "the digits of a transformation must be 1 to 9, each once"
    );
    // A long bad text is cut in the message.
    assert!(err(&"R".repeat(1000)).len() < 300);
}

#[test]
fn composition_and_inverse_agree_with_applying_in_turn() {
    let g = grid(SOLUTION);
    let ts = draws(3, 400);
    for pair in ts.chunks(2) {
        let (a, b) = (pair[0], pair[1]);
        let ab = a.then(&b);
        assert_eq!(ab.apply(&g), b.apply(&a.apply(&g)), "{a} then {b}");
        assert_eq!(a.inverse().apply(&a.apply(&g)), g, "{a}");
        assert_eq!(a.then(&a.inverse()), Transform::identity(), "{a}");
        assert_eq!(a.inverse().then(&a), Transform::identity(), "{a}");
        // The result is a transformation like any other: its text reads back.
        assert_eq!(ab.to_string().parse::<Transform>(), Ok(ab));
    }
}

#[test]
fn the_index_covers_every_part_of_the_group() {
    assert_eq!(COUNT, 1_218_998_108_160);
    assert_eq!(Transform::from_index(COUNT), None);
    let last = Transform::from_index(COUNT - 1).unwrap();
    // Every part at its last value: transposed, bands and lines reversed, and the shuffle
    // swaps each position, from the last down, with the first.
    assert_eq!(last.to_string(), "TR987654321C987654321D234567891");
    // Neighbouring indices differ; a sample of indices gives distinct transformations.
    let mut seen = std::collections::HashSet::new();
    for i in (0..COUNT).step_by((COUNT / 10_007) as usize) {
        assert!(seen.insert(Transform::from_index(i).unwrap()), "index {i}");
    }
    // Each part takes every value it can: both orientations, all 6 orders of the bands, all
    // 9 images of the digit 1.
    let ts = draws(4, 3000);
    let transposed = ts.iter().filter(|t| t.transposes()).count();
    assert!(
        (1300..1700).contains(&transposed),
        "{transposed} of 3000 transposed"
    );
    let mut bands = std::collections::HashSet::new();
    let mut ones = [0u32; 9];
    for t in &ts {
        bands.insert([t.rows()[0] / 3, t.rows()[3] / 3, t.rows()[6] / 3]);
        ones[usize::from(t.digits()[0]) - 1] += 1;
    }
    assert_eq!(bands.len(), 6);
    assert!(ones.iter().all(|&n| (250..420).contains(&n)), "{ones:?}");
}

#[test]
fn the_same_generator_draws_the_same_transformations() {
    assert_eq!(draws(9, 50), draws(9, 50));
    assert_ne!(draws(9, 50), draws(10, 50));
}

#[test]
fn below_rejects_the_values_that_would_bias_it() {
    /// Hands out the given numbers in turn.
    struct Fixed(Vec<u64>);
    impl rand_xoshiro::rand_core::TryRng for Fixed {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.0.remove(0))
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            unimplemented!()
        }
    }
    // With n = 3, 2^64 mod 3 = 1: the low half 0 is the one value rejected.
    let mut rng = Fixed(vec![0, u64::MAX]);
    assert_eq!(below(&mut rng, 3), 2);
    assert!(rng.0.is_empty());
    let mut rng = Fixed(vec![u64::MAX / 3 + 1, 7]);
    assert_eq!(below(&mut rng, 3), 1);
    assert_eq!(rng.0, [7]);
}
