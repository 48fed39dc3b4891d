//! The units that lock each digit on a stalled grid, for the "plus" rules' pointing and
//! claiming, kept from grid to grid by the digit's places.

use super::super::super::super::board::{Board, Cells};
use super::super::super::super::singles::locked_units;
use std::cell::RefCell;

/// Slots of the table of locked units kept by places (a power of two).
const LOCKED_SLOTS: usize = 1 << 12;

thread_local! {
    /// The units that lock a digit depend only on its places, and the grids the dynamic
    /// searches of a step stall on differ from each other in a few digits: the answers are
    /// kept by places, one in each slot of a table indexed by a hash of them (a new set of
    /// places takes its slot over). Places 0 lock nothing, which the empty slots say.
    static LOCKED: RefCell<Vec<(Cells, [u16; 4])>> =
        RefCell::new(vec![(0, [0; 4]); LOCKED_SLOTS]);
}

/// The units that lock each digit on `g` (`locked_units`), as kept in `LOCKED`.
pub(super) fn locked_kept(g: &Board) -> [[u16; 4]; 9] {
    LOCKED.with(|t| {
        let mut t = t.borrow_mut();
        std::array::from_fn(|d| kept(&mut t, g, d))
    })
}

fn kept(table: &mut [(Cells, [u16; 4])], g: &Board, d: usize) -> [u16; 4] {
    let p = g.digit[d];
    let h = (p as u64 ^ (p >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let slot = &mut table[(h >> 52) as usize & (LOCKED_SLOTS - 1)];
    if slot.0 != p {
        *slot = (p, locked_units(g, d));
    }
    #[cfg(test)]
    assert_eq!(slot.1, locked_units(g, d));
    slot.1
}
