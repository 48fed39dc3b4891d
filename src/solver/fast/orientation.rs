//! The grid's orientation: whether the search promises to be smaller on the transposed grid,
//! and the transposition of the state and of a solution.

use super::state::{NO_PICK, State};
use super::tables::{BOX0, CONFIGS, band_columns, stack_graph};
use crate::grid::{CELLS, Grid};

/// The most configurations, summed over the digits of a band, with which the grid keeps its
/// orientation. At 9, one per digit, no stack can promise less (at best a tie); a few more
/// leave so little search that turning the grid costs more than it saves. Above 12 the grid
/// stays as given where a turn would have saved guesses, more of them the higher the bound.
pub(super) const KEEP_ORIENTATION: u32 = 12;

impl State {
    /// Whether the search promises to be smaller in the stack orientation: the configurations
    /// summed over the digits of each band and of each stack, compared smallest first; never
    /// when a band is down to [`KEEP_ORIENTATION`] configurations or fewer (see the `fast`
    /// module documentation). Needs the fixpoint that [`State::propagate`] leaves: `band_key`
    /// is then current and `cols` holds every digit's columns.
    #[inline(never)]
    pub(super) fn prefers_stacks(&self) -> bool {
        // A band with no choice left (or no empty cell) has one configuration per digit.
        let mut band = self
            .band_key
            .map(|k| if k == NO_PICK { 9 } else { k >> 14 & 0x3F });
        band.sort_unstable();
        if band[0] <= KEEP_ORIENTATION {
            return false;
        }
        let mut stack = [0u32; 3];
        for (s, total) in stack.iter_mut().enumerate() {
            for &c in &self.cols {
                *total += CONFIGS[stack_graph(c, s as u32)] as u32;
            }
        }
        stack.sort_unstable();
        stack < band
    }

    /// The state of the transposed grid (the cell at row `r`, column `c` moves to row `c`,
    /// column `r`), at the fixpoint of the per-digit rules as this one is: no word needs its
    /// update, but every band needs its minirow pass.
    #[inline(never)]
    pub(super) fn transposed(&self) -> State {
        // Box k of band b becomes box b of band k, each box transposed in itself.
        let turn = |words: &[u32]| {
            let mut out = [0u32; 3];
            for (b, &w) in words.iter().enumerate() {
                let t = transpose_boxes(w);
                for (k, o) in out.iter_mut().enumerate() {
                    *o |= (t >> (3 * k) & BOX0) << (3 * b);
                }
            }
            out
        };
        // As at the start, every band is due its minirow pass (`since`) and no branch is
        // chosen; unlike it, no word needs its update.
        let mut t = State {
            dirty: 0,
            unsolved: turn(&self.unsolved),
            ..State::START
        };
        for d in 0..9 {
            let words = turn(&self.cand[d * 4..d * 4 + 3]);
            t.cand[d * 4..d * 4 + 3].copy_from_slice(&words);
            t.cols[d] = band_columns(&words);
        }
        t
    }
}

/// Transposes each of the three boxes of a band word in place: the cell at row `r`, column `c`
/// of a box moves to row `c`, column `r` of the same box.
#[inline(always)]
fn transpose_boxes(x: u32) -> u32 {
    // Bit 9r + c of a box goes to 9c + r: the diagonal stays, the rest moves 8 or 16 bits up
    // or down. Multiplying by 0x49 repeats a box's mask for all three boxes.
    const STAY: u32 = (1 | 1 << 10 | 1 << 20) * 0x49;
    const BY8: u32 = (1 << 1 | 1 << 11) * 0x49;
    const BY16: u32 = (1 << 2) * 0x49;
    x & STAY | (x & BY8) << 8 | (x & BY16) << 16 | (x >> 8) & BY8 | (x >> 16) & BY16
}

/// The grid with rows and columns exchanged.
#[cold]
#[inline(never)]
pub(super) fn transpose(grid: &Grid) -> Grid {
    let cells = grid.cells();
    let mut t = [0u8; CELLS];
    // Constant bounds, so the compiler unrolls it into plain moves: an index computed from one
    // counter (`i % 9 * 9 + i / 9`) costs many more instructions.
    for r in 0..9 {
        for c in 0..9 {
            t[c * 9 + r] = cells[r * 9 + c];
        }
    }
    Grid::from_cells(t).unwrap_or(Grid::EMPTY)
}
