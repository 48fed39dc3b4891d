//! Singles and their "direct" variants: full house, hidden and naked singles, and the
//! intersections and hidden pairs or triplets that Sudoku Explainer counts only for the hidden
//! single they leave behind.
//!
//! Every function returns the first hint in Sudoku Explainer's search order (units as boxes,
//! then columns, then rows; digits upwards), because the rater applies the first hint found.

use super::bits::Bits;
use super::board::{BOX0, Board, COL0, ROW0, UNIT_MASK, bit, cells_of, digits_of};
use super::technique::{Hint, Technique};

/// Boxes, then columns, then rows: the order in which Sudoku Explainer walks the units for
/// singles and subsets.
pub(crate) static BOX_COL_ROW: [usize; 27] = {
    let mut out = [0usize; 27];
    let mut i = 0;
    while i < 9 {
        out[i] = BOX0 + i;
        out[9 + i] = COL0 + i;
        out[18 + i] = ROW0 + i;
        i += 1;
    }
    out
};

fn placement(tech: Technique, diff: f64, cell: usize, d: usize, cells: u128) -> Hint {
    let mut h = Hint::new(tech, diff);
    h.place = Some((cell as u8, d as u8));
    h.cells = cells;
    h
}

/// A full house or hidden single, before it is made a [`Hint`]: the rater places most singles
/// without one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Single {
    pub tech: Technique,
    pub diff: f64,
    /// The rating in tenths (10, 12 or 15).
    pub tenths: u16,
    pub cell: usize,
    /// The digit, 0-based.
    pub d: usize,
    /// The cells of the hint: the unit's empty cells.
    pub cells: u128,
}

impl Single {
    pub fn hint(&self) -> Hint {
        placement(self.tech, self.diff, self.cell, self.d, self.cells)
    }
}

/// The full house of unit `u`, if it has one empty cell and that cell a candidate.
#[inline]
pub(crate) fn full_house_in(b: &Board, u: usize) -> Option<Single> {
    let empty = b.empty & UNIT_MASK[u];
    if !empty.one() {
        return None;
    }
    let cell = empty.trailing_zeros() as usize;
    let m = b.cell[cell];
    (m != 0).then(|| Single {
        tech: Technique::FullHouse,
        diff: 1.0,
        tenths: 10,
        cell,
        d: m.trailing_zeros() as usize,
        cells: empty,
    })
}

/// The digits with one place in unit `u`.
#[cfg(test)]
pub(crate) fn singles_in(b: &Board, u: usize) -> u16 {
    let (mut once, mut twice) = (0u16, 0u16);
    for &c in &super::board::UNIT_CELLS[u] {
        let m = b.cell[usize::from(c)];
        twice |= once & m;
        once |= m;
    }
    once & !twice
}

/// Full house, else the first hidden single in Sudoku Explainer's unit order (then the lowest
/// digit), searched from scratch: what the rater's kept search (`Memo::hidden_single`) must
/// find.
#[cfg(test)]
pub(crate) fn hidden_single(b: &Board) -> Option<Hint> {
    if let Some(s) = BOX_COL_ROW.iter().find_map(|&u| full_house_in(b, u)) {
        return Some(s.hint());
    }
    BOX_COL_ROW.iter().find_map(|&u| {
        let single = singles_in(b, u);
        (single != 0).then(|| hidden_single_at(b, u, single.trailing_zeros() as usize).hint())
    })
}

/// The hidden single of digit `d` in unit `u` (1.2 in a box, 1.5 in a line).
pub(crate) fn hidden_single_at(b: &Board, u: usize, d: usize) -> Single {
    let mask = UNIT_MASK[u];
    let cell = (b.digit[d] & mask).trailing_zeros() as usize;
    let (tech, diff, tenths) = if u < ROW0 {
        (Technique::HiddenSingleBox, 1.2, 12)
    } else {
        (Technique::HiddenSingleLine, 1.5, 15)
    };
    Single {
        tech,
        diff,
        tenths,
        cell,
        d,
        cells: mask & b.empty,
    }
}

/// A cell with one candidate (2.3).
pub(crate) fn naked_single(b: &Board) -> Option<Hint> {
    for c in cells_of(b.empty) {
        if b.cell[c].count_ones() == 1 {
            let d = b.cell[c].trailing_zeros() as usize;
            return Some(placement(Technique::NakedSingle, 2.3, c, d, bit(c)));
        }
    }
    None
}

/// The unit pairs (first, second) of Sudoku Explainer's intersection search, in its order:
/// box and column, box and row, column and box, row and box. The candidates of the first unit
/// lie in the second.
pub(crate) const INTERSECTION_KINDS: [(usize, usize); 4] =
    [(BOX0, COL0), (BOX0, ROW0), (COL0, BOX0), (ROW0, BOX0)];

/// For digit `d` and unit `u1` of the first kind of an intersection search, the unit of the
/// second kind that holds all of `u1`'s places for `d` (at least two), if any. There is at
/// most one, so this is what Sudoku Explainer's loop over the second units finds.
#[inline]
pub(crate) fn locked_in(b: &Board, d: usize, u1: usize, kind2: usize) -> Option<(u128, usize)> {
    let p1 = b.digit[d] & UNIT_MASK[u1];
    if !p1.many() {
        return None;
    }
    let c = p1.trailing_zeros() as usize;
    let u2 = match kind2 {
        BOX0 => BOX0 + c / 27 * 3 + c % 9 / 3,
        ROW0 => ROW0 + c / 9,
        _ => COL0 + c % 9,
    };
    (p1 & !UNIT_MASK[u2] == 0).then_some((p1, u2))
}

/// For digit `d`, the units of the first kind of each intersection search (in
/// [`INTERSECTION_KINDS`] order, bit `i` for the kind's unit `i`) that [`locked_in`] finds
/// locked: two places or more, all in one unit of the second kind. Worked out for all 36
/// units at once from the digit's nine rows of places, so that the searches look only at
/// the units it names (on most digits, none).
#[inline]
pub(crate) fn locked_units(b: &Board, d: usize) -> [u16; 4] {
    let p = b.digit[d];
    let rows: [u16; 9] = std::array::from_fn(|r| (p >> (9 * r)) as u16 & 0x1ff);
    let (mut box_col, mut box_row, mut row_box) = (0u16, 0u16, 0u16);
    // Columns with a place (`once`), with two or more (`twice`), and with a place in each band.
    let (mut once, mut twice) = (0u16, 0u16);
    let mut bands = [0u16; 3];
    for i in 0..3 {
        let (x, y, z) = (rows[3 * i], rows[3 * i + 1], rows[3 * i + 2]);
        let any = x | y | z;
        let two = (x & y) | (x & z) | (y & z);
        bands[i] = any;
        twice |= (once & any) | two;
        once |= any;
        for j in 0..3 {
            let shift = 3 * j;
            let bit = 1 << (3 * i + j);
            // The box's places in one column, two of them at least.
            if ((any >> shift) & 7).one() && (two >> shift) & 7 != 0 {
                box_col |= bit;
            }
            // The box's places in one row, two of them at least.
            let (a, b, c) = ((x >> shift) & 7, (y >> shift) & 7, (z >> shift) & 7);
            let rows_used = u16::from(a != 0) + u16::from(b != 0) + u16::from(c != 0);
            if rows_used == 1 && (a | b | c).many() {
                box_row |= bit;
            }
        }
    }
    for (r, &m) in rows.iter().enumerate() {
        if m.many() && (m & 0x7 == m || m & 0x38 == m || m & 0x1c0 == m) {
            row_box |= 1 << r;
        }
    }
    // A column with two places or more, all in one band, has them in one box.
    let [x, y, z] = bands;
    let col_box = twice & (x ^ y ^ z) & !(x & y & z);
    [box_col, box_row, col_box, row_box]
}

/// Pointing or claiming on digit `d` that leaves a hidden single in a unit of the first
/// kind: direct pointing (1.7) for boxes, direct claiming (1.9) for lines. The first in
/// Sudoku Explainer's order, with the rank of its kind of intersection: across digits, the
/// lowest rank wins, then the lowest digit.
pub(crate) fn direct_locking(b: &Board, d: usize) -> Option<(u16, Hint)> {
    let locked = locked_units(b, d);
    for (rank, (k1, k2)) in INTERSECTION_KINDS.into_iter().enumerate() {
        for i1 in digits_of(locked[rank]) {
            let Some((p1, u2)) = locked_in(b, d, k1 + i1, k2) else {
                continue;
            };
            let r2 = UNIT_MASK[u2];
            // The digit is locked in u1 & u2: it leaves the rest of u2. A unit of the first
            // kind crossing u2 may be left with one place.
            for i3 in 0..9 {
                let r3 = UNIT_MASK[k1 + i3];
                if i3 == i1 || r3 & r2 == 0 {
                    continue;
                }
                let p3 = b.digit[d] & r3;
                if p3.many() && (p3 & !r2).one() {
                    let cell = (p3 & !r2).trailing_zeros() as usize;
                    let (tech, diff) = if k1 == BOX0 {
                        (Technique::DirectPointing, 1.7)
                    } else {
                        (Technique::DirectClaiming, 1.9)
                    };
                    return Some((rank as u16, placement(tech, diff, cell, d, p1 | bit(cell))));
                }
            }
        }
    }
    None
}

/// The subsets of `k` elements of `0..n` in Sudoku Explainer's order (colexicographic:
/// by largest element first), as bit masks.
pub(crate) fn combinations(k: u32, n: u32) -> impl Iterator<Item = u32> {
    // Like Sudoku Explainer's enumeration, nothing at all from an empty range.
    let mut next = if k <= n && n > 0 {
        Some((1u32 << k) - 1)
    } else {
        None
    };
    std::iter::from_fn(move || {
        let v = next?;
        next = if v == 0 {
            None
        } else {
            // Gosper's hack: the next larger number with as many bits set.
            let c = v & v.wrapping_neg();
            let r = v + c;
            let n2 = (((r ^ v) >> 2) / c) | r;
            if n2 >> n != 0 { None } else { Some(n2) }
        };
        Some(v)
    })
}

/// The sets of `k` (2 to 4) elements of `elements` (a bit mask) in Sudoku Explainer's order
/// of subsets of 0..9 (by largest element, then the next), which restricted to the allowed
/// elements is the same order. Calls `f` with each set as a mask until it returns `Some`.
#[inline]
pub(crate) fn subsets_of<T>(
    elements: u16,
    k: u32,
    mut f: impl FnMut(u16) -> Option<T>,
) -> Option<T> {
    let list: [u8; 9] = {
        let mut l = [0u8; 9];
        let mut m = elements;
        let mut n = 0;
        while m != 0 {
            l[n] = m.trailing_zeros() as u8;
            m &= m - 1;
            n += 1;
        }
        l
    };
    let n = elements.count_ones() as usize;
    let bitm = |i: usize| 1u16 << list[i];
    match k {
        2 => {
            for j in 1..n {
                for i in 0..j {
                    if let Some(t) = f(bitm(i) | bitm(j)) {
                        return Some(t);
                    }
                }
            }
        }
        3 => {
            for l in 2..n {
                for j in 1..l {
                    for i in 0..j {
                        if let Some(t) = f(bitm(i) | bitm(j) | bitm(l)) {
                            return Some(t);
                        }
                    }
                }
            }
        }
        _ => {
            for m in 3..n {
                for l in 2..m {
                    for j in 1..l {
                        for i in 0..j {
                            if let Some(t) = f(bitm(i) | bitm(j) | bitm(l) | bitm(m)) {
                                return Some(t);
                            }
                        }
                    }
                }
            }
        }
    }
    None
}

/// A hidden pair (2.0) or triplet (2.5) in unit `u` that leaves a hidden single there: the
/// set's digits take its cells, and some other digit has one place left outside them.
pub(crate) fn direct_hidden_set(b: &Board, u: usize, degree: u32) -> Option<Hint> {
    let (tech, diff) = if degree == 2 {
        (Technique::DirectHiddenPair, 2.0)
    } else {
        (Technique::DirectHiddenTriplet, 2.5)
    };
    if b.empty_in(u) <= degree {
        return None;
    }
    let mask = UNIT_MASK[u];
    let counts = b.counts(u);
    // Each digit of the set has two places at least and `degree` at most.
    let eligible = counts[1] & !counts[degree as usize];
    let multi = counts[1];
    subsets_of(eligible, degree, |set| {
        let mut common = 0u128;
        for d in super::board::digits_of(set) {
            common |= b.digit[d] & mask;
        }
        if !common.exactly(degree) {
            return None;
        }
        for d in super::board::digits_of(multi & !set) {
            let rest = b.digit[d] & mask & !common;
            if rest.one() {
                let cell = rest.trailing_zeros() as usize;
                return Some(placement(tech, diff, cell, d, common | bit(cell)));
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;

    #[test]
    fn locked_units_are_the_units_locked_in_finds() {
        // Boards of generated puzzles with random candidates removed, so that the digits'
        // places take every shape; the kept sets must be exactly those a unit-by-unit check finds.
        let mut rng = Rng::new(7);
        let (mut boards, mut locked) = (0, 0);
        for p in crate::logic::tests::generated(3, 30) {
            let start = Board::from_values(p.cells()).unwrap();
            for keep in [100, 80, 60, 40, 25] {
                let mut b = start;
                for c in 0..81 {
                    for d in 0..9 {
                        if rng.below(100) >= keep {
                            b.remove(c, d);
                        }
                    }
                }
                boards += 1;
                for d in 0..9 {
                    let fast = locked_units(&b, d);
                    for (rank, (k1, k2)) in INTERSECTION_KINDS.into_iter().enumerate() {
                        let slow = (0..9)
                            .filter(|&i| locked_in(&b, d, k1 + i, k2).is_some())
                            .fold(0u16, |m, i| m | 1 << i);
                        assert_eq!(fast[rank], slow, "{p} keep {keep} digit {d} kind {rank}");
                        locked += slow.count_ones();
                    }
                }
            }
        }
        assert!(
            boards == 150 && locked > 1000,
            "{boards} boards, {locked} locked"
        );
    }

    #[test]
    fn combinations_in_colex_order() {
        let pairs: Vec<u32> = combinations(2, 4).collect();
        assert_eq!(pairs, vec![0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        assert_eq!(combinations(3, 9).count(), 84);
        assert_eq!(combinations(0, 5).collect::<Vec<_>>(), vec![0]);
        assert_eq!(combinations(9, 9).collect::<Vec<_>>(), vec![0x1ff]);
    }
}
