//! The search from a candidate's "off" potential, which dynamic chains make for every
//! candidate (for contradictions and double chains): in a two-candidate cell it is often the
//! kept search from the cell's other value "on", re-rooted, rather than a new search.

use super::super::super::board::{Board, CELL_UNITS, UNIT_MASK};
use super::super::{conjugate, key};
use super::{Kind, Multiple, OFF_SLOT};
use crate::logic::{Budget, GradeError};

impl Multiple {
    /// The search from "off" potential `off`, of candidate `v` of cell `c`, into `OFF_SLOT`.
    ///
    /// When `c` has two candidates, `v` and `w`, and `v` has more than two places in each
    /// of `c`'s units, the dynamic search from `off` has one consequence, `w` "on" (the cell's
    /// last candidate), and the dynamic search from `w` "on" has `off` as its first (the
    /// cell's other candidate goes), whose only consequence is `w` "on" again. Both searches
    /// then stand alike: the same grid (`v` gone from `c`), the same potentials reached, the
    /// same queues. So they go on alike, to the same potentials with the same parents, and
    /// the search from `off` is the kept one from `w` "on" with its first two potentials'
    /// parents swapped (`Slot::reroot_from`); the tests check it against a new search.
    pub(super) fn off_chain(
        &mut self,
        b: &Board,
        c: usize,
        v: usize,
        kind: Kind,
        budget: &Budget,
    ) -> Result<(), GradeError> {
        let off = key(c, v, false);
        let single_consequence = matches!(kind, Kind::Dynamic(_))
            && b.cell[c].count_ones() == 2
            && CELL_UNITS[c]
                .iter()
                .all(|&u| (b.digit[v] & UNIT_MASK[u as usize]).count_ones() != 2);
        if !single_consequence {
            self.tick(budget)?;
            self.chain(b, OFF_SLOT, off, kind, budget);
            return Ok(());
        }
        #[cfg(test)]
        tests::REROOTED.with(|n| n.set(n.get() + 1));
        let w = (b.cell[c] & !(1 << v)).trailing_zeros() as usize;
        let on = key(c, w, true);
        debug_assert_eq!(conjugate(off), key(c, v, true));
        let s = self.chain_in(b, on, OFF_SLOT, kind, budget)?;
        // The tests make the search anew, to check the re-rooted one against it.
        #[cfg(test)]
        let fresh = {
            self.chain(b, OFF_SLOT, off, kind, budget);
            std::mem::replace(&mut self.slots[OFF_SLOT], super::Slot::new())
        };
        let (before, rest) = self.slots.split_at_mut(OFF_SLOT + 1);
        before[OFF_SLOT].reroot_from(&rest[s - OFF_SLOT - 1], on, off);
        #[cfg(test)]
        assert!(
            self.aborted || self.slots[OFF_SLOT].same_outcome(&fresh),
            "off chain of {c}/{v}"
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::super::board::{Board, cells_of, digits_of};
    use super::*;
    use crate::grid::Grid;
    use crate::logic::bits::Bits;
    use std::cell::Cell;

    thread_local! {
        /// "Off" searches made by re-rooting, each checked against a new search.
        pub(super) static REROOTED: Cell<u32> = const { Cell::new(0) };
    }

    /// Dynamic searches, plain and "plus", on grids of hard puzzles thinned at random
    /// (which makes two-candidate cells), find the same hints with the re-rooted "off"
    /// searches as with new ones (`off_chain` checks every one).
    #[test]
    fn rerooted_off_searches_match_new_ones() {
        let puzzles = [
            "...4.25....2...946.5.97.......72.1..9...1...5..7.39.......45.9.285...3....92.3...",
            "..48...5.3...47.....8..64.2.17.....5.6.....9.5.....12.9.64..5.....63...9.4...98..",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut hints = 0;
        let budget = Budget::default();
        for p in puzzles {
            let grid: Grid = p.parse().unwrap();
            let full = Board::from_values(grid.cells()).unwrap();
            for round in 0..12 {
                let mut g = full;
                for c in cells_of(full.empty) {
                    for d in digits_of(full.cell[c]) {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        if round > 0 && g.cell[c].many() && seed.is_multiple_of(5) {
                            g.remove(c, d);
                        }
                    }
                }
                let mut m = Multiple::default();
                for kind in [Kind::Dynamic(0), Kind::Dynamic(1)] {
                    hints += m.find(&g, kind, &budget).unwrap().is_some() as u32;
                }
            }
        }
        let rerooted = REROOTED.with(|n| n.get());
        assert!(rerooted > 100 && hints > 0, "{rerooted} {hints}");
    }
}
