//! The candidate grid the logical solver works on, and the static tables of the 27 units.
//!
//! # Layout
//!
//! Every set of cells is a `u128` with bit `i` for cell `i` (row-major, 81 bits used), so a
//! unit, the peers of a cell or the positions of a digit are one word, and "the cells of this
//! box where 5 may go" is one `&`. The board keeps two views of the same candidates, updated
//! together, because the techniques ask both kinds of question:
//!
//! ```text
//!   digit[d]   cells where digit d+1 is still a candidate      (9 x u128)
//!   cell[i]    candidates of cell i, bit d for digit d+1       (81 x u16)
//!   value[i]   the digit placed in cell i, 0 when empty        (81 x u8)
//! ```
//!
//! A placed cell keeps no candidates, as in Sudoku Explainer: its digit lives in `value` only.
//!
//! # Units
//!
//! Units are numbered the way Sudoku Explainer orders its region types, because the rater
//! takes the *first* hint it finds and the order of the search decides which one that is:
//! boxes `0..9` (row-major), rows `9..18`, columns `18..27`. Within a unit, cells are listed
//! in increasing cell index, which is also Sudoku Explainer's order for all three kinds.

/// A set of cells: bit `i` is cell `i`.
pub(crate) type Cells = u128;

/// Number of units (9 boxes, 9 rows, 9 columns).
pub(crate) const UNITS: usize = 27;

/// The first unit of each kind.
pub(crate) const BOX0: usize = 0;
pub(crate) const ROW0: usize = 9;
pub(crate) const COL0: usize = 18;

/// The nine cells of every unit, in increasing cell index.
pub(crate) static UNIT_CELLS: [[u8; 9]; UNITS] = build_unit_cells();
/// Every unit as a cell set.
pub(crate) static UNIT_MASK: [Cells; UNITS] = build_unit_masks();
/// The box, row and column unit of every cell (in that order).
pub(crate) static CELL_UNITS: [[u8; 3]; 81] = build_cell_units();
/// The 20 peers of every cell as a cell set.
pub(crate) static PEERS: [Cells; 81] = build_peers();
/// The position (0..9) of every cell in its box, row and column.
pub(crate) static POS_IN_UNIT: [[u8; 3]; 81] = build_positions();

const fn build_unit_cells() -> [[u8; 9]; UNITS] {
    let mut out = [[0u8; 9]; UNITS];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            let (r0, c0) = (i / 3 * 3, i % 3 * 3);
            out[BOX0 + i][k] = ((r0 + k / 3) * 9 + c0 + k % 3) as u8;
            out[ROW0 + i][k] = (i * 9 + k) as u8;
            out[COL0 + i][k] = (k * 9 + i) as u8;
            k += 1;
        }
        i += 1;
    }
    out
}

const fn build_unit_masks() -> [Cells; UNITS] {
    let cells = build_unit_cells();
    let mut out = [0u128; UNITS];
    let mut u = 0;
    while u < UNITS {
        let mut k = 0;
        while k < 9 {
            out[u] |= 1u128 << cells[u][k];
            k += 1;
        }
        u += 1;
    }
    out
}

const fn build_cell_units() -> [[u8; 3]; 81] {
    let mut out = [[0u8; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        out[i] = [
            (BOX0 + r / 3 * 3 + c / 3) as u8,
            (ROW0 + r) as u8,
            (COL0 + c) as u8,
        ];
        i += 1;
    }
    out
}

const fn build_peers() -> [Cells; 81] {
    let masks = build_unit_masks();
    let units = build_cell_units();
    let mut out = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        let u = units[i];
        out[i] =
            (masks[u[0] as usize] | masks[u[1] as usize] | masks[u[2] as usize]) & !(1u128 << i);
        i += 1;
    }
    out
}

const fn build_positions() -> [[u8; 3]; 81] {
    let cells = build_unit_cells();
    let units = build_cell_units();
    let mut out = [[0u8; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let mut t = 0;
        while t < 3 {
            let u = units[i][t] as usize;
            let mut k = 0;
            while k < 9 {
                if cells[u][k] as usize == i {
                    out[i][t] = k as u8;
                }
                k += 1;
            }
            t += 1;
        }
        i += 1;
    }
    out
}

/// The bit of one cell.
#[inline(always)]
pub(crate) const fn bit(cell: usize) -> Cells {
    1u128 << cell
}

/// The cells of a set in increasing order.
#[inline]
pub(crate) fn cells_of(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(c)
        }
    })
}

/// The digits (0-based) of a 9-bit mask in increasing order.
#[inline]
pub(crate) fn digits_of(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(d)
        }
    })
}

/// The candidate grid: candidates per digit and per cell, and the placed digits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Board {
    /// `digit[d]`: the cells where digit `d + 1` is still a candidate.
    pub digit: [Cells; 9],
    /// `cell[i]`: the candidates of cell `i`, bit `d` for digit `d + 1`.
    pub cell: [u16; 81],
    /// `value[i]`: the digit placed in cell `i`, `0` when empty.
    pub value: [u8; 81],
    /// The cells without a digit.
    pub empty: Cells,
}

impl Board {
    /// The board of a puzzle: every empty cell holds the digits no peer holds. `None` when two
    /// clues of one unit share a digit.
    pub fn from_values(values: &[u8; 81]) -> Option<Board> {
        let mut b = Board {
            digit: [0; 9],
            cell: [0; 81],
            value: [0; 81],
            empty: 0,
        };
        // The clues of each digit, and the digits given in each unit.
        let mut given = [0u128; 9];
        let mut used = [0u16; UNITS];
        for (i, &v) in values.iter().enumerate() {
            if v == 0 {
                b.empty |= bit(i);
                continue;
            }
            let d = v as usize - 1;
            if given[d] & PEERS[i] != 0 {
                return None;
            }
            given[d] |= bit(i);
            b.value[i] = v;
            for &u in &CELL_UNITS[i] {
                used[u as usize] |= 1 << d;
            }
        }
        for i in cells_of(b.empty) {
            let [x, y, z] = CELL_UNITS[i];
            b.cell[i] = 0x1ff & !(used[x as usize] | used[y as usize] | used[z as usize]);
        }
        for d in 0..9 {
            let mut seen = 0u128;
            for i in cells_of(given[d]) {
                seen |= PEERS[i];
            }
            b.digit[d] = b.empty & !seen;
        }
        Some(b)
    }

    /// True when every cell holds a digit.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.empty == 0
    }

    /// True when digit `d` (0-based) is a candidate of `cell`.
    #[inline(always)]
    pub fn has(&self, cell: usize, d: usize) -> bool {
        self.digit[d] >> cell & 1 != 0
    }

    /// The number of candidates of `cell`.
    #[inline(always)]
    pub fn count(&self, cell: usize) -> u32 {
        super::bits::count16(self.cell[cell])
    }

    /// The empty cells with two or more candidates.
    pub fn multi_candidate(&self) -> Cells {
        let mut multi: Cells = 0;
        for c in cells_of(self.empty) {
            if self.count(c) >= 2 {
                multi |= bit(c);
            }
        }
        multi
    }

    /// Removes candidate `d` (0-based) from `cell`; false when it was not there.
    #[inline]
    pub fn remove(&mut self, cell: usize, d: usize) -> bool {
        if self.digit[d] & bit(cell) == 0 {
            return false;
        }
        self.digit[d] &= !bit(cell);
        self.cell[cell] &= !(1 << d);
        true
    }

    /// Places digit `d` (0-based) in `cell`: the cell loses its candidates and its peers lose
    /// `d`, which is all Sudoku Explainer does when it sets a value.
    pub fn place(&mut self, cell: usize, d: usize) {
        let mut m = self.cell[cell];
        while m != 0 {
            let e = m.trailing_zeros() as usize;
            m &= m - 1;
            self.digit[e] &= !bit(cell);
        }
        self.cell[cell] = 0;
        self.value[cell] = d as u8 + 1;
        self.empty &= !bit(cell);
        let peers = PEERS[cell] & self.digit[d];
        for p in cells_of(peers) {
            self.cell[p] &= !(1 << d);
        }
        self.digit[d] &= !peers;
    }

    /// How often each digit is a candidate in unit `u`, bit-sliced: `out[k]` holds the digits
    /// (bit d for digit d + 1) with more than `k` places there, for k = 0..5.
    #[inline]
    pub fn counts(&self, u: usize) -> [u16; 5] {
        let mut out = [0u16; 5];
        for &c in &UNIT_CELLS[u] {
            let m = self.cell[c as usize];
            out[4] |= out[3] & m;
            out[3] |= out[2] & m;
            out[2] |= out[1] & m;
            out[1] |= out[0] & m;
            out[0] |= m;
        }
        out
    }

    /// The number of empty cells of unit `u`.
    #[inline]
    pub fn empty_in(&self, u: usize) -> u32 {
        (self.empty & UNIT_MASK[u]).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_the_grid_module() {
        for i in 0..81 {
            let mut peers: Vec<usize> = cells_of(PEERS[i]).collect();
            peers.sort();
            let grid_peers: Vec<usize> =
                crate::grid::PEERS[i].iter().map(|&p| p as usize).collect();
            assert_eq!(peers, grid_peers);
            for t in 0..3 {
                let u = CELL_UNITS[i][t] as usize;
                assert_eq!(UNIT_CELLS[u][POS_IN_UNIT[i][t] as usize] as usize, i);
            }
        }
        for u in 0..UNITS {
            assert!(UNIT_CELLS[u].windows(2).all(|w| w[0] < w[1]));
        }
    }
}
