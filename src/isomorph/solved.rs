//! The canonical form of a solved grid, found without the puzzle search of
//! [`canon`](super::canon).
//!
//! A solved grid's pattern is full, so every one of the 3,359,232 transformations of its
//! cells gives the smallest pattern and the puzzle search ends up comparing the digits of
//! them all. Here the digits decide from the first row on:
//!
//! - the top row of the form is always `123456789`: it holds nine different digits, each
//!   relabelled in order of first appearance. So the source row placed on top and the order
//!   of the columns decide the labels: a digit's label is one more than the target column it
//!   takes in that row;
//! - the second row comes from the same band as the top one, and its first cell is always `4`:
//!   its digit is not in the top row's first box, so its label is at least 4, and putting the
//!   column holding that digit in the top row first in the second stack gives 4. So only the
//!   24 column orders that do so are tried for each choice of the top two rows (36 of them,
//!   counting the transposed grid), 7,776 in all instead of 46,656;
//! - the later rows are placed one at a time, each keeping the partial transformations whose
//!   rows so far are the smallest (all of them, when several tie).
//!
//! The survivors after the ninth row are the transformations that give the form; as every one
//! of them moves the 81 cells differently, their number is the grid's number of automorphisms,
//! as the reference tool counts them.

use super::ORDERS_OF_3;
use crate::grid::{CELLS, Grid};

/// A transformation with its top rows and all its columns placed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Placed {
    /// 0: as given; 1: transposed.
    orientation: u8,
    /// The source row of each target row placed so far.
    rows: [u8; 9],
    /// The source rows placed, one bit each.
    used: u16,
    /// The source column of each target column.
    columns: [u8; 9],
    /// The label of each digit (index 0 unused): one more than the target column the digit
    /// takes in the top row.
    labels: [u8; 10],
}

/// The nine labels of a row, 4 bits each, the first cell highest: compared as numbers, two
/// rows compare as the digit strings do.
fn packed(labels: &[u8; 10], row: &[u8], columns: &[u8; 9]) -> u64 {
    columns.iter().fold(0u64, |n, &c| {
        (n << 4) | u64::from(labels[usize::from(row[usize::from(c)])])
    })
}

/// The canonical form and the number of automorphisms of `grid`, a full grid without
/// conflicts; `now` and `next` are working buffers kept between calls.
pub(super) fn canonical_solved(
    grid: &Grid,
    now: &mut Vec<Placed>,
    next: &mut Vec<Placed>,
) -> ([u8; CELLS], u32) {
    debug_assert!(grid.is_full() && !grid.has_conflict());
    let cells = grid.cells();
    let mut views = [[0u8; CELLS]; 2];
    for r in 0..9 {
        for c in 0..9 {
            views[0][r * 9 + c] = cells[r * 9 + c];
            views[1][c * 9 + r] = cells[r * 9 + c];
        }
    }
    let row_of = |p: &Placed, r: usize| -> &[u8] {
        let start = usize::from(p.rows[r]) * 9;
        &views[usize::from(p.orientation)][start..start + 9]
    };

    // The top two rows, with the column orders that put a 4 first in the second row.
    now.clear();
    let mut best = u64::MAX;
    for orientation in 0..2u8 {
        let digits = &views[usize::from(orientation)];
        for top in 0..9 {
            // The source column of each digit in the top row.
            let mut column_of_digit = [0u8; 10];
            for c in 0..9 {
                column_of_digit[usize::from(digits[top * 9 + c])] = c as u8;
            }
            let band = top / 3 * 3;
            for second in (band..band + 3).filter(|&r| r != top) {
                for first in 0..9usize {
                    let digit = digits[second * 9 + first];
                    let fourth = usize::from(column_of_digit[usize::from(digit)]);
                    let (s0, s1) = (first / 3, fourth / 3);
                    debug_assert_ne!(s0, s1);
                    let s2 = 3 - s0 - s1;
                    for o0 in first_orders(first % 3) {
                        for o1 in first_orders(fourth % 3) {
                            for o2 in ORDERS_OF_3 {
                                let mut columns = [0u8; 9];
                                for j in 0..3 {
                                    columns[j] = (3 * s0 + o0[j]) as u8;
                                    columns[3 + j] = (3 * s1 + o1[j]) as u8;
                                    columns[6 + j] = (3 * s2 + o2[j]) as u8;
                                }
                                let mut labels = [0u8; 10];
                                for (target, &c) in columns.iter().enumerate() {
                                    labels[usize::from(digits[top * 9 + usize::from(c)])] =
                                        target as u8 + 1;
                                }
                                let row = &digits[second * 9..second * 9 + 9];
                                let value = packed(&labels, row, &columns);
                                if value > best {
                                    continue;
                                }
                                if value < best {
                                    best = value;
                                    now.clear();
                                }
                                let mut rows = [0u8; 9];
                                rows[0] = top as u8;
                                rows[1] = second as u8;
                                now.push(Placed {
                                    orientation,
                                    rows,
                                    used: (1 << top) | (1 << second),
                                    columns,
                                    labels,
                                });
                            }
                        }
                    }
                }
            }
        }
    }

    let mut form = [0u64; 9];
    form[0] = (1..=9).fold(0, |n, d| (n << 4) | d);
    form[1] = best;
    for (k, form_row) in form.iter_mut().enumerate().skip(2) {
        let mut best = u64::MAX;
        next.clear();
        for p in now.iter() {
            let mut free = if k % 3 == 0 {
                !p.used & 0x1ff
            } else {
                let band = usize::from(p.rows[k - k % 3] / 3);
                (7 << (3 * band)) & !p.used
            };
            while free != 0 {
                let r = free.trailing_zeros() as usize;
                free &= free - 1;
                let start = r * 9;
                let row = &views[usize::from(p.orientation)][start..start + 9];
                let value = packed(&p.labels, row, &p.columns);
                if value > best {
                    continue;
                }
                if value < best {
                    best = value;
                    next.clear();
                }
                let mut q = *p;
                q.rows[k] = r as u8;
                q.used |= 1 << r;
                next.push(q);
            }
        }
        *form_row = best;
        std::mem::swap(now, next);
    }
    debug_assert!(
        now.iter()
            .all(|p| { (0..9).all(|k| packed(&p.labels, row_of(p, k), &p.columns) == form[k]) })
    );

    let mut out = [0u8; CELLS];
    for (k, &row) in form.iter().enumerate() {
        for c in 0..9 {
            out[k * 9 + c] = ((row >> (4 * (8 - c))) & 15) as u8;
        }
    }
    (out, now.len() as u32)
}

/// The two orders of a stack's three columns that put column `first` (0, 1 or 2) first.
fn first_orders(first: usize) -> [[usize; 3]; 2] {
    let (a, b) = match first {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    [[first, a, b], [first, b, a]]
}

#[cfg(test)]
mod tests {
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::SeedableRng;

    use crate::Grid;
    use crate::isomorph::Transform;
    use crate::isomorph::canon::Canonicaliser;

    /// A solved grid with 54 automorphisms (its bands and stacks shift into one another) and
    /// one with 3, as the reference tool counts them.
    const SYMMETRIC: &str =
        "123456789456789123789123456234567891567891234891234567345678912678912345912345678";
    const THREE: &str =
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
    /// A solution of a 17-clue puzzle: no automorphism but the identity.
    const PLAIN: &str =
        "953168742862734951417952836746893125281645397395271468138529674574386219629417583";

    #[test]
    fn solved_grids_get_the_form_and_count_of_the_search_on_patterns() {
        let mut canon = Canonicaliser::new();
        for text in [SYMMETRIC, THREE, PLAIN] {
            let grid: Grid = text.parse().unwrap();
            let fast = canon.canonical(&grid);
            assert_eq!(fast, canon.canonical_by_patterns(&grid), "{text}");
            assert_eq!(&fast.grid.to_string()[..9], "123456789");
        }
        assert_eq!(
            canon.canonical(&SYMMETRIC.parse().unwrap()).automorphisms,
            54
        );
        assert_eq!(canon.canonical(&THREE.parse().unwrap()).automorphisms, 3);
        assert_eq!(canon.canonical(&PLAIN.parse().unwrap()).automorphisms, 1);
    }

    #[test]
    fn random_isomorphs_of_a_solved_grid_share_its_form() {
        let mut canon = Canonicaliser::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(46);
        for text in [SYMMETRIC, THREE, PLAIN] {
            let grid: Grid = text.parse().unwrap();
            let form = canon.canonical(&grid);
            for _ in 0..50 {
                let isomorph = Transform::random(&mut rng).apply(&grid);
                assert_eq!(canon.canonical(&isomorph), form, "{isomorph}");
            }
        }
    }

    #[test]
    fn a_full_grid_with_a_conflict_takes_the_search_on_patterns() {
        // Two 1s in the first row: the top row cannot be relabelled to 123456789.
        let text =
            "113456789456789123789123456234567891567891234891234567345678912678912345912345678";
        let grid: Grid = text.parse().unwrap();
        let mut canon = Canonicaliser::new();
        let form = canon.canonical(&grid);
        assert_eq!(form, canon.canonical_by_patterns(&grid));
        assert!(form.grid.has_conflict());
    }
}
