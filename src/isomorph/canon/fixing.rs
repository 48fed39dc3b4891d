//! How many transformations fix a puzzle's clues, which tells the transformations onto the
//! canonical form that count as one automorphism: worked out from the rows and columns that
//! hold clues, never by trying transformations.

use super::{TRANSFORMATIONS, Views};
use crate::grid::CELLS;

/// How many transformations leave every clue cell where it is (they map the puzzle onto
/// itself, digits unchanged): the transformations onto the form that differ only by one of
/// them move the clues alike and count as one automorphism.
pub(super) fn fixing_clues(views: &Views) -> u32 {
    let rows = lines_used(&views.patterns[0]);
    let columns = lines_used(&views.patterns[1]);
    let straight = fixing_lines(rows) * fixing_lines(columns);
    // A transposing transformation can fix every clue only when no two clues share a row or
    // a column, and two clues share a band exactly when they share a stack; then those
    // transformations are as many as the straight ones.
    let n = views.clues;
    let one_per_line = rows.count_ones() as usize == n && columns.count_ones() as usize == n;
    let blocks_agree = one_per_line && {
        let clues: Vec<(usize, usize)> = (0..CELLS)
            .filter(|&i| views.cells[i] != 0)
            .map(|i| (i / 9, i % 9))
            .collect();
        clues.iter().all(|&(r1, c1)| {
            clues
                .iter()
                .all(|&(r2, c2)| (r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3))
        })
    };
    let fixing = if blocks_agree { 2 * straight } else { straight };
    debug_assert!(TRANSFORMATIONS.is_multiple_of(fixing));
    fixing
}

/// The rows (or columns) holding a clue, one bit each.
fn lines_used(patterns: &[u16; 9]) -> u16 {
    patterns
        .iter()
        .enumerate()
        .filter(|&(_, &p)| p != 0)
        .fold(0, |set, (i, _)| set | 1 << i)
}

/// How many orders of the rows (bands, and rows within each) leave each row of `used` in
/// its place: the empty bands may be permuted and so may their rows; the free rows of a band
/// holding clues among themselves.
fn fixing_lines(used: u16) -> u32 {
    const FACTORIAL: [u32; 4] = [1, 1, 2, 6];
    let mut empty_bands = 0;
    let mut count = 1;
    for band in 0..3 {
        let in_band = ((used >> (3 * band)) & 7).count_ones() as usize;
        if in_band == 0 {
            empty_bands += 1;
            count *= 6;
        } else {
            count *= FACTORIAL[3 - in_band];
        }
    }
    count * FACTORIAL[empty_bands]
}
