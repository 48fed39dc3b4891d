//! Chains of implications between candidates ("potentials"): cycles and forcing chains on
//! one digit or through bivalue cells (`unary`), and the multiple, Nishio, dynamic and nested
//! forcing chains that follow every consequence of an assumption (`multiple`).
//!
//! A potential is a candidate with a state, "on" (the cell holds the digit) or "off" (it
//! does not). Its key packs both: `(cell * 9 + digit) * 2 + on`. A chain's rating is a base
//! for its kind plus 0.1 per length step, where the length is the number of distinct
//! potentials its conclusion rests on (Sudoku Explainer's "complexity").

pub(crate) mod multiple;
pub(crate) mod nested;
pub(crate) mod unary;

/// Number of potential keys: 81 cells, 9 digits, 2 states.
pub(crate) const KEYS: usize = 81 * 9 * 2;

/// The key of a potential.
#[inline(always)]
pub(crate) const fn key(cell: usize, d: usize, on: bool) -> usize {
    (cell * 9 + d) * 2 + on as usize
}

/// The cell of a key.
#[inline(always)]
pub(crate) const fn cell_of(k: usize) -> usize {
    k / 18
}

/// The digit (0-based) of a key.
#[inline(always)]
pub(crate) const fn digit_of(k: usize) -> usize {
    k / 2 % 9
}

/// True for an "on" key.
#[inline(always)]
pub(crate) const fn is_on(k: usize) -> bool {
    k & 1 == 1
}

/// The same candidate in the other state.
#[inline(always)]
pub(crate) const fn conjugate(k: usize) -> usize {
    k ^ 1
}

/// The rating added for a chain resting on `complexity` potentials: 0.1 for each step of
/// 4, 6, 8, 12, 16, 24, ... that `complexity - 2` exceeds, summed one 0.1 at a time as
/// Sudoku Explainer does (so that 6.6 + 0.4 is exactly 7.0, and 6.6 + 0.1 a hair below 6.7).
pub(crate) fn length_diff(complexity: u32) -> f64 {
    let length = complexity as i64 - 2;
    let mut added = 0.0;
    let mut ceil = 4i64;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// The sort key of a chain hint: rating, then complexity, then the kind's rank. Among equal
/// keys the first found wins, as Sudoku Explainer's stable sort keeps it first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SortKey {
    pub diff: f64,
    pub complexity: u32,
    pub rank: u8,
}

impl SortKey {
    /// The key of a chain of kind `rank` with base rating `base`.
    pub fn new(base: f64, complexity: u32, rank: u8) -> SortKey {
        SortKey {
            diff: base + length_diff(complexity),
            complexity,
            rank,
        }
    }

    /// True when `self` sorts strictly before `other`.
    pub fn before(&self, other: &SortKey) -> bool {
        match self.diff.total_cmp(&other.diff) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => {
                (self.complexity, self.rank) < (other.complexity, other.rank)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_steps() {
        let tenths = |c| (length_diff(c) * 10.0).round() as u32;
        assert_eq!(tenths(6), 0);
        assert_eq!(tenths(7), 1);
        assert_eq!(tenths(8), 1);
        assert_eq!(tenths(9), 2);
        assert_eq!(tenths(10), 2);
        assert_eq!(tenths(11), 3);
        assert_eq!(tenths(14), 3);
        assert_eq!(tenths(15), 4);
        assert_eq!(tenths(18), 4);
        assert_eq!(tenths(19), 5);
        assert_eq!(tenths(26), 5);
        assert_eq!(tenths(27), 6);
        assert_eq!(6.6 + length_diff(15), 7.0);
    }
}
