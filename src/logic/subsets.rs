//! Intersections (pointing and claiming), naked and hidden subsets, and basic fish.
//!
//! Each function returns the first hint in Sudoku Explainer's search order, which the rater
//! applies: the order decides which of several equal hints comes first, and so the path.

use super::bits::{Bits, count16};
use super::board::{BOX0, Board, COL0, ROW0, UNIT_CELLS, UNIT_MASK, bit, cells_of, digits_of};
use super::singles::{INTERSECTION_KINDS, combinations, locked_in, locked_units, subsets_of};
use super::technique::{Hint, Technique};

/// Pointing (a box's candidates for a digit in one line, 2.6) or claiming (a line's in one
/// box, 2.8) on digit `d`: the digit leaves the rest of the second unit. The first in Sudoku
/// Explainer's order, with the rank of its kind of intersection (lowest rank, then lowest
/// digit, wins across digits).
pub(crate) fn locking(b: &Board, d: usize) -> Option<(u16, Hint)> {
    let locked = locked_units(b, d);
    for (rank, (k1, k2)) in INTERSECTION_KINDS.into_iter().enumerate() {
        for i1 in digits_of(locked[rank]) {
            let Some((p1, u2)) = locked_in(b, d, k1 + i1, k2) else {
                continue;
            };
            let gone = b.digit[d] & UNIT_MASK[u2] & !UNIT_MASK[k1 + i1];
            if gone != 0 {
                let (tech, diff) = if k2 == BOX0 {
                    (Technique::Claiming, 2.8)
                } else {
                    (Technique::Pointing, 2.6)
                };
                let mut h = Hint::new(tech, diff);
                h.elim[d] = gone;
                h.cells = p1;
                return Some((rank as u16, h));
            }
        }
    }
    None
}

/// A naked pair (3.0), triplet (3.6) or quad (5.0) in unit `u`: `degree` cells whose
/// candidates are `degree` digits, which leave the unit's other cells.
pub(crate) fn naked_set(b: &Board, u: usize, degree: u32) -> Option<Hint> {
    let (tech, diff) = match degree {
        2 => (Technique::NakedPair, 3.0),
        3 => (Technique::NakedTriplet, 3.6),
        _ => (Technique::NakedQuad, 5.0),
    };
    if b.empty_in(u) < degree * 2 {
        return None;
    }
    let cells = &UNIT_CELLS[u];
    // Positions of the cells with two to `degree` candidates.
    let mut eligible = 0u16;
    for (k, &c) in cells.iter().enumerate() {
        let n = count16(b.cell[c as usize]);
        if n >= 2 && n <= degree {
            eligible |= 1 << k;
        }
    }
    subsets_of(eligible, degree, |set| {
        let mut digits = 0u16;
        let mut chosen = 0u128;
        for k in digits_of(set) {
            let c = cells[k] as usize;
            digits |= b.cell[c];
            chosen |= bit(c);
        }
        if count16(digits) != degree {
            return None;
        }
        let mut h = Hint::new(tech, diff);
        let others = UNIT_MASK[u] & !chosen;
        for d in digits_of(digits) {
            h.elim[d] = b.digit[d] & others;
        }
        h.cells = chosen;
        h.is_worth().then_some(h)
    })
}

/// A hidden pair (3.4), triplet (4.0) or quad (5.4) in unit `u`: `degree` digits with the
/// same `degree` places, whose cells lose their other candidates.
pub(crate) fn hidden_set(b: &Board, u: usize, degree: u32) -> Option<Hint> {
    let (tech, diff) = match degree {
        2 => (Technique::HiddenPair, 3.4),
        3 => (Technique::HiddenTriplet, 4.0),
        _ => (Technique::HiddenQuad, 5.4),
    };
    if b.empty_in(u) <= degree * 2 {
        return None;
    }
    let mask = UNIT_MASK[u];
    let counts = b.counts(u);
    // Each digit of the set has two places at least and `degree` at most.
    let eligible = counts[1] & !counts[degree as usize];
    subsets_of(eligible, degree, |set| {
        let mut common = 0u128;
        for d in digits_of(set) {
            common |= b.digit[d] & mask;
        }
        if !common.exactly(degree) {
            return None;
        }
        let mut h = Hint::new(tech, diff);
        for d in digits_of(0x1ff & !set) {
            h.elim[d] = b.digit[d] & common;
        }
        h.cells = common;
        h.is_worth().then_some(h)
    })
}

/// For digit `d`, the 9-bit pattern of every line of one kind: for columns (`COL0`), the rows
/// where the digit may go in each column; for rows, the columns.
fn line_patterns(b: &Board, d: usize, kind: usize) -> [u16; 9] {
    let mut out = [0u16; 9];
    if kind == ROW0 {
        // A row's nine cells are nine consecutive bits.
        for (i, o) in out.iter_mut().enumerate() {
            *o = (b.digit[d] >> (9 * i)) as u16 & 0x1ff;
        }
    } else {
        for c in cells_of(b.digit[d]) {
            out[c % 9] |= 1 << (c / 9);
        }
    }
    out
}

/// X-Wing (3.2), Swordfish (3.8) or Jellyfish (5.2) on digit `d`: `degree` columns (then
/// rows) whose places lie in `degree` rows (columns); the digit leaves the rest of those rows.
/// The first in Sudoku Explainer's order, with its rank (kind of base line, then the base
/// lines' rank among the subsets tried); across digits the lowest rank, then digit, wins.
pub(crate) fn fish(b: &Board, d: usize, degree: u32) -> Option<(u16, Hint)> {
    let (tech, diff) = match degree {
        2 => (Technique::XWing, 3.2),
        3 => (Technique::Swordfish, 3.8),
        _ => (Technique::Jellyfish, 5.2),
    };
    let placed = (b.value.iter().filter(|&&v| v as usize == d + 1).count()) as u32;
    if placed + degree * 2 > 9 {
        return None;
    }
    for (pass, (base, cover)) in [(COL0, ROW0), (ROW0, COL0)].into_iter().enumerate() {
        let patterns = line_patterns(b, d, base);
        // Lines with two places or more, the only ones a fish may use.
        let mut lines = 0u16;
        for (i, p) in patterns.iter().enumerate() {
            if p.many() {
                lines |= 1 << i;
            }
        }
        let mut rank = 0u16;
        for set in combinations(degree, 9) {
            rank += 1;
            if set as u16 & !lines != 0 {
                continue;
            }
            let mut union = 0u16;
            for i in digits_of(set as u16) {
                union |= patterns[i];
            }
            if count16(union) != degree {
                continue;
            }
            let mut base_cells = 0u128;
            let mut cover_cells = 0u128;
            for i in 0..9 {
                if set & (1 << i) != 0 {
                    base_cells |= UNIT_MASK[base + i];
                }
                if union & (1 << i) != 0 {
                    cover_cells |= UNIT_MASK[cover + i];
                }
            }
            let gone = b.digit[d] & cover_cells & !base_cells;
            if gone != 0 {
                let mut h = Hint::new(tech, diff);
                h.elim[d] = gone;
                h.cells = b.digit[d] & base_cells;
                return Some((pass as u16 * 256 + rank, h));
            }
        }
    }
    None
}
