//! Validity-preserving transformations of a grid: one [`Transform`], drawn, applied, composed,
//! inverted, and written in a short text form.
//!
//! A puzzle stays the same puzzle (the same number of solutions, the same difficulty) when its
//! digits are relabelled, its three bands or three stacks permuted, the rows within each band or
//! the columns within each stack permuted, or the grid transposed. These make a group of
//! 2 x 6^8 x 9! = 1,218,998,108,160 transformations ([`COUNT`]); a transformation applied to a
//! puzzle and to its solution alike gives a puzzle and its solution.
//!
//! # Text form
//!
//! `[T]R<9 digits>C<9 digits>D<9 digits>`, 30 characters (31 with `T`), such as
//! `TR312456987C123789456D912345678`. Applied to a grid `g` it gives the grid `h` with
//!
//! ```text
//! h[r][c] = D[ g'[ R[r] ][ C[c] ] ]      rows, columns and digits numbered from 1
//! ```
//!
//! where `g'` is `g` transposed (`g'[i][j] = g[j][i]`) when the form starts with `T`, else `g`
//! itself: row `r` of the result is row `R[r]` of `g'`, column `c` is its column `C[c]`, and the
//! digit `d` becomes `D[d]` (a blank stays blank). Each group of three rows of `R` (and of
//! columns of `C`) comes from one band (stack): `R` = `312456987` takes rows 3, 1, 2 of the first
//! band, then the second band as it is, then the third band reversed. The identity is
//! `R123456789C123456789D123456789`.
//!
//! # Speed
//!
//! A [`Transform`] keeps its cell permutation (the source of every cell, 81 bytes) and digit map
//! ready, so [`Transform::apply_cells`] is one look-up per cell. [`Transform::random`] draws one
//! number below [`COUNT`] and decodes it with divisions by constants ([`Transform::from_index`]),
//! so drawing costs about as much as applying.

use std::fmt;
use std::str::FromStr;

use rand_xoshiro::rand_core::Rng;

use super::ORDERS_OF_3;
use crate::grid::{CELLS, Grid};

/// The number of transformations: 2 (transposed or not) x 6^8 (bands, stacks, rows within each
/// band, columns within each stack) x 9! (digit relabellings).
pub const COUNT: u64 = 2 * 6u64.pow(8) * 362_880;

/// The first mixed-radix digits of an index (see [`Transform::from_index`]): transposition,
/// rows and columns.
const LINE_PARTS: u64 = 2 * 1296 * 1296;

/// The orders of nine lines that keep each group of three together, by number `k`: the order
/// of the groups is [`super::ORDERS_OF_3`]`[k % 6]`, then the order within the first group (placed
/// first) `[k / 6 % 6]`, the second `[k / 36 % 6]`, the third `[k / 216]`.
static LINE_ORDERS: [[u8; 9]; 1296] = line_orders();

const fn line_orders() -> [[u8; 9]; 1296] {
    let mut out = [[0u8; 9]; 1296];
    let mut k = 0;
    while k < 1296 {
        let groups = ORDERS_OF_3[k % 6];
        let mut rest = k / 6;
        let mut g = 0;
        while g < 3 {
            let within = ORDERS_OF_3[rest % 6];
            rest /= 6;
            let mut i = 0;
            while i < 3 {
                out[k][3 * g + i] = (3 * groups[g] + within[i]) as u8;
                i += 1;
            }
            g += 1;
        }
        k += 1;
    }
    out
}

/// A validity-preserving transformation of a grid (see the [module](self) documentation).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Transform {
    /// The grid is transposed first.
    transpose: bool,
    /// Row `r` of the result is row `rows[r]` (0-based) of the (transposed) grid.
    rows: [u8; 9],
    /// Column `c` of the result is column `cols[c]` (0-based) of the (transposed) grid.
    cols: [u8; 9],
    /// `digits[d]` is what the digit `d` becomes; `digits[0]` is 0, a blank. Sixteen entries,
    /// so that a look-up by a cell's low four bits needs no bounds check; those past 9 are 0.
    digits: [u8; 16],
    /// `cells[i]` is the cell of the input whose value goes to cell `i`.
    cells: [u8; CELLS],
}

/// Why a transformation's parts or text are not a transformation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransformError {
    /// The text does not have the shape of the text form.
    #[error(
        "`{0}` is not a transformation: expected R, C and D each followed by 9 digits (rows, \
         columns, digits), after a T when the grid is transposed, such as \
         R123456789C123456789D123456789"
    )]
    Format(String),
    /// Rows, columns or digits are not 1 to 9, each once.
    #[error("the {0} of a transformation must be 1 to 9, each once")]
    NotPermutation(&'static str),
    /// A group of three rows (columns) does not come from one band (stack).
    #[error("rows {first}-{last} of a transformation must come from one band: rows 1-3, 4-6 or 7-9", first = 3 * .0 + 1, last = 3 * .0 + 3)]
    SplitsBand(usize),
    /// A group of three columns does not come from one stack.
    #[error("columns {first}-{last} of a transformation must come from one stack: columns 1-3, 4-6 or 7-9", first = 3 * .0 + 1, last = 3 * .0 + 3)]
    SplitsStack(usize),
}

impl Transform {
    /// The transformation that changes nothing.
    pub fn identity() -> Transform {
        const LINES: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        Transform::build(false, LINES, LINES, [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    /// The transformation that transposes the grid when `transpose`, then takes row `rows[r]`
    /// (0-based) for row `r`, column `cols[c]` for column `c`, and writes the digit `d` as
    /// `digits[d - 1]` (`1..=9`). Refused unless `rows` and `cols` are orders of `0..9` that
    /// keep each band and each stack together, and `digits` an order of `1..=9`.
    pub fn new(
        transpose: bool,
        rows: [u8; 9],
        cols: [u8; 9],
        digits: [u8; 9],
    ) -> Result<Transform, TransformError> {
        check_lines(&rows).map_err(|band| {
            band.map_or(
                TransformError::NotPermutation("rows"),
                TransformError::SplitsBand,
            )
        })?;
        check_lines(&cols).map_err(|stack| {
            stack.map_or(
                TransformError::NotPermutation("columns"),
                TransformError::SplitsStack,
            )
        })?;
        let mut seen = 0u16;
        for &d in &digits {
            if !(1..=9).contains(&d) || seen & (1 << d) != 0 {
                return Err(TransformError::NotPermutation("digits"));
            }
            seen |= 1 << d;
        }
        Ok(Transform::build(transpose, rows, cols, digits))
    }

    /// The transformation numbered `index` (below [`COUNT`]; `None` otherwise): a bijection
    /// between `0..COUNT` and the transformations, `0` being the identity. `index` is read as
    /// mixed-radix digits: whether to transpose (2), the order of the bands (6) and of the
    /// rows within each band (6 each), the same for stacks and columns, then the digits' order
    /// as the swaps of a Fisher-Yates shuffle (9, 8, ..., 2: position `p` swapped with `p - k`).
    pub fn from_index(index: u64) -> Option<Transform> {
        if index >= COUNT {
            return None;
        }
        // Two halves that fit in 32 bits, whose divisions by constants are cheaper.
        let lines = (index % LINE_PARTS) as u32;
        let mut rest = (index / LINE_PARTS) as u32;
        let transpose = lines % 2 == 1;
        let rows = LINE_ORDERS[(lines / 2 % 1296) as usize];
        let cols = LINE_ORDERS[(lines / 2 / 1296) as usize];
        let mut digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        // Written out rather than a loop, so that every divisor is a constant: a loop over
        // them was left a loop of hardware divisions, the larger part of a draw's time.
        let mut swap = |last: usize, n: u32| {
            // Counted from `last` down, so that the index 0 swaps nothing.
            digits.swap(last, last - (rest % n) as usize);
            rest /= n;
        };
        swap(8, 9);
        swap(7, 8);
        swap(6, 7);
        swap(5, 6);
        swap(4, 5);
        swap(3, 4);
        swap(2, 3);
        swap(1, 2);
        Some(Transform::build(transpose, rows, cols, digits))
    }

    /// A transformation drawn uniformly from all [`COUNT`] of them: one number below
    /// [`COUNT`] from `rng` (Lemire's method, without bias), decoded by
    /// [`from_index`](Transform::from_index).
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Transform {
        Transform::from_index(below(rng, COUNT)).expect("a number below COUNT")
    }

    /// Builds the transformation from parts known to be valid, with its cell permutation.
    fn build(transpose: bool, rows: [u8; 9], cols: [u8; 9], digits: [u8; 9]) -> Transform {
        // Cell (r, c) comes from (rows[r], cols[c]), or transposed from (cols[c], rows[r]): a
        // row's part plus a column's part, added without a branch.
        let (row_part, col_part) = if transpose {
            (rows, cols.map(|c| 9 * c))
        } else {
            (rows.map(|r| 9 * r), cols)
        };
        let mut cells = [0u8; CELLS];
        for (row, &base) in cells.chunks_exact_mut(9).zip(&row_part) {
            for (cell, &offset) in row.iter_mut().zip(&col_part) {
                *cell = base + offset;
            }
        }
        let mut map = [0u8; 16];
        map[1..10].copy_from_slice(&digits);
        Transform {
            transpose,
            rows,
            cols,
            digits: map,
            cells,
        }
    }

    /// The transformation whose cell permutation is `cells` and digit map `digits`, which must
    /// be one of a transformation (as a composition or an inverse of transformations is).
    fn from_permutation(cells: &[u8; CELLS], digits: &[u8; 16]) -> Transform {
        // Row 0 of the result is a row of the input, or, transposed, a column: its first two
        // cells then share a column.
        let transpose = cells[0] % 9 == cells[1] % 9;
        let (rows, cols): ([u8; 9], [u8; 9]) = if transpose {
            (
                std::array::from_fn(|r| cells[9 * r] % 9),
                std::array::from_fn(|c| cells[c] / 9),
            )
        } else {
            (
                std::array::from_fn(|r| cells[9 * r] / 9),
                std::array::from_fn(|c| cells[c] % 9),
            )
        };
        let out = Transform::build(transpose, rows, cols, digits[1..10].try_into().unwrap());
        debug_assert_eq!(&out.cells, cells);
        out
    }

    /// `self`, then `next`: `self.then(&next).apply(g) == next.apply(&self.apply(g))`.
    pub fn then(&self, next: &Transform) -> Transform {
        let cells = next.cells.map(|from| self.cells[usize::from(from)]);
        let digits = self.digits.map(|d| next.digits[usize::from(d)]);
        Transform::from_permutation(&cells, &digits)
    }

    /// The transformation that undoes `self`: `self.then(&self.inverse())` is the identity.
    pub fn inverse(&self) -> Transform {
        let mut cells = [0u8; CELLS];
        for (to, &from) in self.cells.iter().enumerate() {
            cells[usize::from(from)] = to as u8;
        }
        let mut digits = [0u8; 16];
        for d in 1..10u8 {
            digits[usize::from(self.digits[usize::from(d)])] = d;
        }
        Transform::from_permutation(&cells, &digits)
    }

    /// True when the grid is transposed first.
    pub fn transposes(&self) -> bool {
        self.transpose
    }

    /// Row `r` of the result is row `rows()[r]` of the (transposed) grid, 0-based.
    pub fn rows(&self) -> [u8; 9] {
        self.rows
    }

    /// Column `c` of the result is column `cols()[c]` of the (transposed) grid, 0-based.
    pub fn cols(&self) -> [u8; 9] {
        self.cols
    }

    /// The digit `d` becomes `digits()[d - 1]`.
    pub fn digits(&self) -> [u8; 9] {
        self.digits[1..10].try_into().unwrap()
    }

    /// The cell of the input whose value goes to each cell of the result (0-based).
    pub fn cell_sources(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// `grid` transformed.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let mut out = [0u8; CELLS];
        self.apply_cells(grid.cells(), &mut out);
        Grid::from_digits(out)
    }

    /// Writes `puzzle` and `solution` transformed into `to_puzzle` and `to_solution`, in one
    /// pass over the cell permutation: the hot loop of augmentation. Cells as for
    /// [`apply_cells`](Transform::apply_cells).
    #[inline]
    pub fn apply_pair(
        &self,
        (puzzle, solution): (&[u8; CELLS], &[u8; CELLS]),
        to_puzzle: &mut [u8; CELLS],
        to_solution: &mut [u8; CELLS],
    ) {
        for ((p, s), &source) in to_puzzle
            .iter_mut()
            .zip(to_solution.iter_mut())
            .zip(&self.cells)
        {
            // Indexing checks its bounds: without the check, a loop of this size was within
            // the noise of the measurement, not worth an `unsafe` block.
            let source = usize::from(source);
            let (from_p, from_s) = (puzzle[source], solution[source]);
            *p = self.digits[usize::from(from_p & 15)];
            *s = self.digits[usize::from(from_s & 15)];
        }
    }

    /// Writes `from` transformed into `to`. Cells are `0` for a
    /// blank and `1..=9` for a digit, as a [`Grid`]'s are (a value past 9 comes out as a
    /// blank).
    #[inline]
    pub fn apply_cells(&self, from: &[u8; CELLS], to: &mut [u8; CELLS]) {
        for (out, &source) in to.iter_mut().zip(&self.cells) {
            *out = self.digits[usize::from(from[usize::from(source)] & 15)];
        }
    }
}

/// Checks that `lines` is an order of `0..9` keeping each group of three together: `Err(None)`
/// when it is no order, `Err(Some(g))` when group `g` (0-based) of the result mixes groups.
fn check_lines(lines: &[u8; 9]) -> Result<(), Option<usize>> {
    let mut seen = 0u16;
    for &line in lines {
        if line > 8 || seen & (1 << line) != 0 {
            return Err(None);
        }
        seen |= 1 << line;
    }
    for (g, group) in lines.chunks(3).enumerate() {
        if group.iter().any(|&line| line / 3 != group[0] / 3) {
            return Err(Some(g));
        }
    }
    Ok(())
}

/// A number below `n` (`n > 0`), every one as likely: Lemire's multiply-and-reject.
fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    let mut wide = u128::from(rng.next_u64()) * u128::from(n);
    if (wide as u64) < n {
        // Only then can the low half fall in the few values that would favour some results.
        let threshold = n.wrapping_neg() % n;
        while (wide as u64) < threshold {
            wide = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (wide >> 64) as u64
}

impl fmt::Display for Transform {
    /// The text form: `[T]R<9 digits>C<9 digits>D<9 digits>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [0u8; 31];
        let mut n = 0;
        if self.transpose {
            text[0] = b'T';
            n = 1;
        }
        let parts: [(u8, [u8; 9]); 3] = [
            (b'R', self.rows.map(|r| r + 1)),
            (b'C', self.cols.map(|c| c + 1)),
            (b'D', self.digits()),
        ];
        for (letter, values) in parts {
            text[n] = letter;
            for (k, v) in values.iter().enumerate() {
                text[n + 1 + k] = b'0' + v;
            }
            n += 10;
        }
        f.write_str(std::str::from_utf8(&text[..n]).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Transform({self})")
    }
}

impl FromStr for Transform {
    type Err = TransformError;

    /// Reads the text form (see the [module](self) documentation).
    fn from_str(text: &str) -> Result<Transform, TransformError> {
        let format = || TransformError::Format(text.chars().take(64).collect());
        let bytes = text.as_bytes();
        let (transpose, body) = match bytes.split_first() {
            Some((b'T', rest)) => (true, rest),
            _ => (false, bytes),
        };
        if body.len() != 30 {
            return Err(format());
        }
        let mut parts = [[0u8; 9]; 3];
        for ((letter, chunk), part) in [b'R', b'C', b'D']
            .iter()
            .zip(body.chunks(10))
            .zip(&mut parts)
        {
            if chunk[0] != *letter || !chunk[1..].iter().all(u8::is_ascii_digit) {
                return Err(format());
            }
            for (value, &b) in part.iter_mut().zip(&chunk[1..]) {
                *value = b - b'0';
            }
        }
        let [rows, cols, digits] = parts;
        let zero_based = |lines: [u8; 9], what| {
            if lines.contains(&0) {
                Err(TransformError::NotPermutation(what))
            } else {
                Ok(lines.map(|l| l - 1))
            }
        };
        Transform::new(
            transpose,
            zero_based(rows, "rows")?,
            zero_based(cols, "columns")?,
            digits,
        )
    }
}

#[cfg(test)]
mod tests;
