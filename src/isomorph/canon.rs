//! The canonical form of a puzzle (its minlex form) and its number of automorphisms.
//!
//! Of all the grids a puzzle can be turned into by the validity-preserving transformations
//! (transposing; permuting the bands, the rows within each band, the stacks, the columns
//! within each stack; relabelling the digits), the canonical form is the smallest, compared
//! as the Sudoku community's reference tool (Mladen Dobrichev's minlexing tool) compares them:
//!
//! 1. first the *pattern*, the 81 cells read row by row as given or blank, blanks first: the
//!    form has as many leading blanks as any isomorph can have, and so on cell by cell;
//! 2. then, among the transformations that give that smallest pattern, the digits read row by
//!    row, each relabelled in order of first appearance (the first clue is `1`, the next new
//!    digit `2`, ...).
//!
//! Two puzzles are isomorphs exactly when their forms are equal. A solved grid has a form too
//! (its pattern is full, so only the digits decide); equal forms of solution grids are what
//! "essentially different grids" counts.
//!
//! The number of automorphisms is the number of distinct ways the puzzle maps onto its form,
//! told apart by where its clues go (two transformations that move only blank cells
//! differently count once), as the reference tool counts them: 1 for most puzzles, more for a
//! symmetric one. The empty grid has 1.
//!
//! ```
//! use sudoku_batch::Grid;
//! use sudoku_batch::isomorph::canon::canonical;
//!
//! let puzzle: Grid =
//!     "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
//!         .parse()
//!         .unwrap();
//! let form = canonical(&puzzle);
//! assert_eq!(
//!     form.grid.to_string(),
//!     "........1.....2.3...4.5.6.....6..7....678.....3...9.....8...5...9...7.1.12.....9."
//! );
//! assert_eq!(form.automorphisms, 1);
//! assert_eq!(form.grid.clue_count(), puzzle.clue_count());
//! // Any isomorph has the same form: here the transposed puzzle.
//! let mut cells = [0; 81];
//! for r in 0..9 {
//!     for c in 0..9 {
//!         cells[c * 9 + r] = puzzle.get(r * 9 + c);
//!     }
//! }
//! let transposed = Grid::from_cells(cells).unwrap();
//! assert_eq!(canonical(&transposed), form);
//! ```
//!
//! # How it is found
//!
//! The search never tries the 3,359,232 transformations one by one. Rows are placed one at a
//! time, top to bottom, keeping only the partial transformations whose pattern so far is the
//! smallest; a row's pattern is worked out on 9-bit masks, and the column orders still allowed
//! are kept as sets (six orders per stack, six orders of the stacks) that each placed row
//! narrows. Tables do most of that work: the top row's placement depends on its pattern alone
//! (`TOP_ROW`), a stack's on its three cells and its allowed orders (`SMALLEST`), the order
//! of the stacks on the three and the allowed orders of the stacks (`STACKED`); and a row that
//! even with every column order would be larger than the best at its depth is passed over
//! before any of it. When all nine rows are placed, the few survivors are expanded into whole
//! transformations and their digits compared with the best so far, giving up on one at its
//! first larger digit. A solved grid (full, without conflicts) takes a path of its own, where
//! the digits prune from the first row on: its top row is always `123456789`, which fixes the
//! labels for each order of the columns.

use super::ORDERS_OF_3;
use super::solved::{Placed, canonical_solved};
use crate::grid::{CELLS, Grid};
use fixing::fixing_clues;
use tables::{SMALLEST, STACKED, STACKED_SIZE, TOP_ROW};

mod fixing;
mod tables;

/// The transformations of the grid's cells (transposing, rows, columns): 2 * 1296 * 1296.
const TRANSFORMATIONS: u32 = 2 * 1296 * 1296;

/// A puzzle's canonical form and its number of automorphisms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Canonical {
    /// The canonical (minlex) form: same clue count, digits relabelled from 1.
    pub grid: Grid,
    /// The distinct ways the puzzle maps onto its form (1 for an asymmetric puzzle).
    pub automorphisms: u32,
}

/// A transformation with its top rows placed: which orientation, which source row went to
/// each placed row, and the column orders still giving the smallest pattern.
#[derive(Debug, Clone, Copy)]
struct Partial {
    /// 0: as given; 1: transposed.
    orientation: u8,
    /// The source row of each target row placed so far.
    rows: [u8; 9],
    /// The source rows placed, one bit each.
    used: u16,
    /// The orders of the stacks still allowed.
    stacks: u8,
    /// For each source stack, the orders of its columns still allowed.
    columns: [u8; 3],
}

/// The puzzle read both ways: as given and transposed.
struct Views<'a> {
    /// Cell digits, row-major, `0` blank: cell (row `r`, column `c`) of the transposed
    /// puzzle is `cells[c * 9 + r]`.
    cells: &'a [u8; CELLS],
    /// Each row's pattern, bit 8 for its first cell: `[0]` as given, `[1]` transposed.
    patterns: [[u16; 9]; 2],
    /// Number of clues.
    clues: usize,
}

impl Views<'_> {
    fn new(puzzle: &Grid) -> Views<'_> {
        // Eight cells at a time, one byte each: a byte becomes 1 for a clue, 0 for a blank
        // (adding 0x7f to a digit of at most 9 sets its top bit exactly when it is not 0, and
        // carries into no other byte).
        const ONES: u64 = 0x0101_0101_0101_0101;
        let cells = puzzle.cells();
        let clue_bytes = |at: usize| {
            let eight = u64::from_le_bytes(cells[at..at + 8].try_into().expect("eight cells"));
            (eight.wrapping_add(0x7f * ONES) >> 7) & ONES
        };
        let mut rows = [0u16; 9];
        // Byte `c` of `columns` gathers column `c`'s cells of rows 1 to 8 (row 1 highest);
        // `last` column 8's cells of all rows.
        let mut columns = 0u64;
        let mut last = 0u16;
        for (r, row) in rows.iter_mut().enumerate() {
            let bytes = clue_bytes(9 * r);
            // Byte `i` to bit `7 - i` of the top byte: every product bit lands apart.
            let first8 = (bytes.wrapping_mul(0x8040_2010_0804_0201) >> 56) as u16;
            let ninth = u16::from(cells[9 * r + 8] != 0);
            *row = (first8 << 1) | ninth;
            if r > 0 {
                columns |= bytes << (8 - r);
            }
            last |= ninth << (8 - r);
        }
        let mut transposed = [0u16; 9];
        for (c, column) in transposed.iter_mut().enumerate().take(8) {
            let top = (rows[0] >> (8 - c)) & 1;
            *column = (top << 8) | ((columns >> (8 * c)) & 0xff) as u16;
        }
        transposed[8] = last;
        let clues = rows.iter().map(|p| p.count_ones() as usize).sum();
        Views {
            cells,
            patterns: [rows, transposed],
            clues,
        }
    }
}

/// Finds canonical forms, keeping its working buffers from one puzzle to the next (one per
/// thread; [`canonical`] makes one per call).
#[derive(Debug, Default, Clone)]
pub struct Canonicaliser {
    now: Vec<Partial>,
    next: Vec<Partial>,
    solved_now: Vec<Placed>,
    solved_next: Vec<Placed>,
}

impl Canonicaliser {
    /// A canonicaliser with empty buffers.
    pub fn new() -> Canonicaliser {
        Canonicaliser::default()
    }

    /// The canonical form of `puzzle` (any grid: a puzzle, a solved grid, even one whose
    /// clues conflict) and its number of automorphisms.
    pub fn canonical(&mut self, puzzle: &Grid) -> Canonical {
        let views = Views::new(puzzle);
        if views.clues == 0 {
            return Canonical {
                grid: Grid::EMPTY,
                automorphisms: 1,
            };
        }
        if views.clues == CELLS && !puzzle.has_conflict() {
            let (cells, automorphisms) =
                canonical_solved(puzzle, &mut self.solved_now, &mut self.solved_next);
            return Canonical {
                grid: Grid::from_digits(cells),
                automorphisms,
            };
        }
        self.by_patterns(&views)
    }

    /// The canonical form by the search on patterns, which any grid with a clue can take.
    fn by_patterns(&mut self, views: &Views) -> Canonical {
        let pattern = self.smallest_pattern(views);
        let (cells, count) = self.smallest_digits(views, &pattern);
        Canonical {
            grid: Grid::from_digits(cells),
            automorphisms: count / fixing_clues(views),
        }
    }

    /// The canonical form of a grid with a clue by the search on patterns, whatever its
    /// clues: what the path for solved grids is tested against.
    #[cfg(test)]
    pub(super) fn canonical_by_patterns(&mut self, puzzle: &Grid) -> Canonical {
        self.by_patterns(&Views::new(puzzle))
    }

    /// Places the rows one by one, keeping in `self.now` every partial transformation whose
    /// pattern is the smallest; returns that pattern, row by row.
    fn smallest_pattern(&mut self, views: &Views) -> [u16; 9] {
        // The top row: every column order is still allowed, so a table gives its pattern.
        let mut top = u16::MAX;
        for rows in &views.patterns {
            for &mask in rows {
                top = top.min(TOP_ROW[usize::from(mask)].value);
            }
        }
        self.now.clear();
        for (orientation, rows) in views.patterns.iter().enumerate() {
            for (r, &mask) in rows.iter().enumerate() {
                let placed = TOP_ROW[usize::from(mask)];
                if placed.value == top {
                    let mut first = [0; 9];
                    first[0] = r as u8;
                    self.now.push(Partial {
                        orientation: orientation as u8,
                        rows: first,
                        used: 1 << r,
                        stacks: placed.stacks,
                        columns: placed.columns,
                    });
                }
            }
        }
        let stacked: &[u16; STACKED_SIZE] = &STACKED;
        let mut pattern = [0u16; 9];
        pattern[0] = top;
        for (k, row_pattern) in pattern.iter_mut().enumerate().skip(1) {
            let mut best = u16::MAX;
            self.next.clear();
            for p in &self.now {
                let mut free = if k % 3 == 0 {
                    !p.used & 0x1ff
                } else {
                    let band = usize::from(p.rows[k - k % 3] / 3);
                    (7 << (3 * band)) & !p.used
                };
                let rows = &views.patterns[usize::from(p.orientation)];
                while free != 0 {
                    let r = free.trailing_zeros() as usize;
                    free &= free - 1;
                    let mask = rows[r];
                    // No column order makes the row smaller than the best with them all.
                    // (Patterns and sets are masked to their widths: no bounds checks.)
                    if TOP_ROW[usize::from(mask & 0x1ff)].value > best {
                        continue;
                    }
                    let mut least = [0u8; 3];
                    let mut orders = [0u8; 3];
                    for s in 0..3 {
                        let triplet = usize::from((mask >> (6 - 3 * s)) & 7);
                        let (v, o) = SMALLEST[triplet][usize::from(p.columns[s] & 63)];
                        least[s] = v;
                        orders[s] = o;
                    }
                    let index = usize::from(p.stacks & 63) << 9
                        | usize::from(least[0]) << 6
                        | usize::from(least[1]) << 3
                        | usize::from(least[2]);
                    let arranged = stacked[index];
                    let value = arranged >> 6;
                    if value > best {
                        continue;
                    }
                    let stacks = (arranged & 63) as u8;
                    if value < best {
                        best = value;
                        self.next.clear();
                    }
                    // Changed where it lies in `next`: a copy changed byte by byte on the
                    // stack and then moved whole stalls on the store forwarding.
                    self.next.push(*p);
                    let q = self.next.last_mut().expect("just pushed");
                    q.rows[k] = r as u8;
                    q.used |= 1 << r;
                    q.stacks = stacks;
                    q.columns = orders;
                }
            }
            *row_pattern = best;
            std::mem::swap(&mut self.now, &mut self.next);
        }
        pattern
    }

    /// Expands the survivors of [`smallest_pattern`](Self::smallest_pattern) into whole
    /// transformations and keeps the smallest digits; returns them and how many
    /// transformations give them.
    fn smallest_digits(&self, views: &Views, pattern: &[u16; 9]) -> ([u8; CELLS], u32) {
        // The clue cells of the form, in reading order, as (row, column).
        let mut slots = [(0u8, 0u8); CELLS];
        let mut n = 0;
        for (k, &row) in pattern.iter().enumerate() {
            let mut clues = row;
            while clues != 0 {
                // Bit 8 is column 0.
                let c = clues.leading_zeros() - 7;
                clues &= !(0x100 >> c);
                slots[n] = (k as u8, c as u8);
                n += 1;
            }
        }
        let slots = &slots[..n];
        let mut best = [10u8; CELLS];
        let mut count = 0u32;
        for p in &self.now {
            let digits = views.cells;
            // Rows of the transposed puzzle are columns of the given one.
            let (row_step, column_step) = if p.orientation == 0 { (9, 1) } else { (1, 9) };
            let offsets = p.rows.map(|r| usize::from(r) * row_step);
            for_each_column_order(p, column_step, |column_of| {
                // Sixteen labels, looked up by a digit's low four bits: no bounds check.
                let mut label = [0u8; 16];
                let mut next = 1u8;
                let mut less = false;
                for &(k, c) in slots {
                    let d = usize::from(
                        digits[offsets[usize::from(k)] + column_of[usize::from(c)]] & 15,
                    );
                    // A new digit takes the next label (without a branch).
                    let new = u8::from(label[d] == 0);
                    label[d] |= next * new;
                    next += new;
                    let v = label[d];
                    let cell = usize::from(k) * 9 + usize::from(c);
                    if !less {
                        if v > best[cell] {
                            return;
                        }
                        less = v < best[cell];
                    }
                    if less {
                        best[cell] = v;
                    }
                }
                if less {
                    count = 1;
                } else {
                    count += 1;
                }
            });
        }
        let mut cells = [0u8; CELLS];
        for &(k, c) in slots {
            let cell = usize::from(k) * 9 + usize::from(c);
            cells[cell] = best[cell];
        }
        (cells, count)
    }
}

/// Calls `f` with the source column of each target column, times `step`, for every column
/// order (of the stacks, and of the columns within each) that `p` still allows.
fn for_each_column_order(p: &Partial, step: usize, mut f: impl FnMut(&[usize; 9])) {
    let mut column_of = [0usize; 9];
    let mut stacks = p.stacks;
    while stacks != 0 {
        let so = stacks.trailing_zeros() as usize;
        stacks &= stacks - 1;
        let [s0, s1, s2] = ORDERS_OF_3[so];
        let mut a = p.columns[s0];
        while a != 0 {
            let o0 = a.trailing_zeros() as usize;
            a &= a - 1;
            for (i, &x) in ORDERS_OF_3[o0].iter().enumerate() {
                column_of[i] = (3 * s0 + x) * step;
            }
            let mut b = p.columns[s1];
            while b != 0 {
                let o1 = b.trailing_zeros() as usize;
                b &= b - 1;
                for (i, &x) in ORDERS_OF_3[o1].iter().enumerate() {
                    column_of[3 + i] = (3 * s1 + x) * step;
                }
                let mut c = p.columns[s2];
                while c != 0 {
                    let o2 = c.trailing_zeros() as usize;
                    c &= c - 1;
                    for (i, &x) in ORDERS_OF_3[o2].iter().enumerate() {
                        column_of[6 + i] = (3 * s2 + x) * step;
                    }
                    f(&column_of);
                }
            }
        }
    }
}

/// The canonical form of `puzzle` and its number of automorphisms (see the [module
/// documentation](self)). Canonicalising many puzzles, keep one [`Canonicaliser`] per thread.
pub fn canonical(puzzle: &Grid) -> Canonical {
    Canonicaliser::new().canonical(puzzle)
}

/// A 128-bit key of a grid, for sets of forms (`validate --duplicates isomorph`, the classes a
/// summary counts): two polynomial hashes of the 81 cells, packed 18 digits to a
/// coefficient, modulo the prime 2^61 - 1, at two fixed points.
///
/// Two different grids get the same key with a probability below 2^-118 (each hash is a
/// polynomial of degree 4, which has at most 4 roots among 2^61 - 1 points), so among
/// `n` distinct forms the chance that any two share a key is below `n * n * 2^-119`: under
/// 10^-17 for a billion classes. The key is the same on every platform and in every
/// version. `validate` keeps 106 of its bits ([`key_table`](super::key_table)), with a bound
/// of 2^-104 a pair.
///
/// ```
/// use sudoku_batch::Grid;
/// use sudoku_batch::isomorph::canon::{canonical, key};
///
/// let a: Grid = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
///     .parse()
///     .unwrap();
/// let b: Grid = "4...3.......6..8..........2....5..9..8....6...7.1........2.17..5.3....4.9........"
///     .parse()
///     .unwrap();
/// assert_ne!(key(&a), key(&b));
/// assert_eq!(key(&canonical(&a).grid), key(&canonical(&b).grid)); // digits 1 and 2 swapped
/// ```
pub fn key(grid: &Grid) -> u128 {
    const PRIME: u64 = (1 << 61) - 1;
    const POINTS: [u64; 2] = [0x0b2d_53f1_9a6c_e4b7, 0x1c58_a0e3_7d29_f64d];
    fn mul_mod(a: u64, b: u64) -> u64 {
        let p = u128::from(a) * u128::from(b);
        let folded = (p as u64 & PRIME) + (p >> 61) as u64;
        if folded >= PRIME {
            folded - PRIME
        } else {
            folded
        }
    }
    let mut hashes = [0u64; 2];
    for chunk in grid.cells().chunks(18) {
        let coefficient = chunk.iter().fold(0u64, |n, &d| n * 10 + u64::from(d));
        for (h, &point) in hashes.iter_mut().zip(&POINTS) {
            let sum = mul_mod(*h, point) + coefficient;
            *h = if sum >= PRIME { sum - PRIME } else { sum };
        }
    }
    (u128::from(hashes[0]) << 64) | u128::from(hashes[1])
}
