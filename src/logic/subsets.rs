//! Intersections (pointing and claiming), naked and hidden subsets, and basic fish.
//!
//! Each function returns the first hint in Sudoku Explainer's search order, which the rater
//! applies: the order decides which of several equal hints comes first, and so the path.

use super::board::{BOX0, Board, COL0, ROW0, UNIT_CELLS, UNIT_MASK, bit, digits_of};
use super::singles::{BOX_COL_ROW, INTERSECTION_KINDS, combinations, locked_in, subsets_of};
use super::technique::{Hint, Technique};

/// Pointing (a box's candidates for a digit in one line, 2.6) or claiming (a line's in one
/// box, 2.8): the digit leaves the rest of the second unit.
pub(crate) fn locking(b: &Board) -> Option<Hint> {
    for (k1, k2) in INTERSECTION_KINDS {
        for d in 0..9 {
            for i1 in 0..9 {
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
                    return Some(h);
                }
            }
        }
    }
    None
}

/// A naked pair (3.0), triplet (3.6) or quad (5.0): `degree` cells of a unit whose
/// candidates are `degree` digits, which leave the unit's other cells.
pub(crate) fn naked_set(b: &Board, degree: u32) -> Option<Hint> {
    let (tech, diff) = match degree {
        2 => (Technique::NakedPair, 3.0),
        3 => (Technique::NakedTriplet, 3.6),
        _ => (Technique::NakedQuad, 5.0),
    };
    for &u in &BOX_COL_ROW {
        if b.empty_in(u) < degree * 2 {
            continue;
        }
        let cells = &UNIT_CELLS[u];
        // Positions of the cells with two to `degree` candidates.
        let mut eligible = 0u16;
        for (k, &c) in cells.iter().enumerate() {
            let n = b.cell[c as usize].count_ones();
            if n >= 2 && n <= degree {
                eligible |= 1 << k;
            }
        }
        let found = subsets_of(eligible, degree, |set| {
            let mut digits = 0u16;
            let mut chosen = 0u128;
            for k in digits_of(set) {
                let c = cells[k] as usize;
                digits |= b.cell[c];
                chosen |= bit(c);
            }
            if digits.count_ones() != degree {
                return None;
            }
            let mut h = Hint::new(tech, diff);
            let others = UNIT_MASK[u] & !chosen;
            for d in digits_of(digits) {
                h.elim[d] = b.digit[d] & others;
            }
            h.cells = chosen;
            h.is_worth().then_some(h)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A hidden pair (3.4), triplet (4.0) or quad (5.4): `degree` digits with the same `degree`
/// places in a unit, whose cells lose their other candidates.
pub(crate) fn hidden_set(b: &Board, degree: u32) -> Option<Hint> {
    let (tech, diff) = match degree {
        2 => (Technique::HiddenPair, 3.4),
        3 => (Technique::HiddenTriplet, 4.0),
        _ => (Technique::HiddenQuad, 5.4),
    };
    for &u in &BOX_COL_ROW {
        if b.empty_in(u) <= degree * 2 {
            continue;
        }
        let mask = UNIT_MASK[u];
        let counts = b.counts(u);
        // Each digit of the set has two places at least and `degree` at most.
        let eligible = counts[1] & !counts[degree as usize];
        let found = subsets_of(eligible, degree, |set| {
            let mut common = 0u128;
            for d in digits_of(set) {
                common |= b.digit[d] & mask;
            }
            if common.count_ones() != degree {
                return None;
            }
            let mut h = Hint::new(tech, diff);
            for d in digits_of(0x1ff & !set) {
                h.elim[d] = b.digit[d] & common;
            }
            h.cells = common;
            h.is_worth().then_some(h)
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// For digit `d`, the 9-bit pattern of every line of one kind: for columns (`COL0`), the rows
/// where the digit may go in each column; for rows, the columns.
fn line_patterns(b: &Board, d: usize, kind: usize) -> [u16; 9] {
    let mut out = [0u16; 9];
    for (i, o) in out.iter_mut().enumerate() {
        for (k, &c) in UNIT_CELLS[kind + i].iter().enumerate() {
            *o |= ((b.digit[d] >> c & 1) as u16) << k;
        }
    }
    out
}

/// X-Wing (3.2), Swordfish (3.8) or Jellyfish (5.2): `degree` columns (then rows) whose places
/// for a digit lie in `degree` rows (columns); the digit leaves the rest of those rows.
pub(crate) fn fish(b: &Board, degree: u32) -> Option<Hint> {
    let (tech, diff) = match degree {
        2 => (Technique::XWing, 3.2),
        3 => (Technique::Swordfish, 3.8),
        _ => (Technique::Jellyfish, 5.2),
    };
    let mut placed = [0u32; 9];
    for &v in &b.value {
        if v != 0 {
            placed[v as usize - 1] += 1;
        }
    }
    for (base, cover) in [(COL0, ROW0), (ROW0, COL0)] {
        let mut patterns = [[0u16; 9]; 9];
        for (d, p) in patterns.iter_mut().enumerate() {
            *p = line_patterns(b, d, base);
        }
        for set in combinations(degree, 9) {
            for d in 0..9 {
                if placed[d] + degree * 2 > 9 {
                    continue;
                }
                let mut union = 0u16;
                let mut ok = true;
                let mut s = set;
                while s != 0 {
                    let i = s.trailing_zeros() as usize;
                    s &= s - 1;
                    let p = patterns[d][i];
                    if p.count_ones() <= 1 {
                        ok = false;
                        break;
                    }
                    union |= p;
                }
                if !ok || union.count_ones() != degree {
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
                    return Some(h);
                }
            }
        }
    }
    None
}
