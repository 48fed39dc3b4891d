//! The X pass of `collect`, digit by digit, with each digit's chains kept.
//!
//! X links never leave their digit: the X-Cycles and forcing X-Chains of digit `d` on a
//! dynamic search's grid, their removals, rule parents, complexity and fingerprint depend on
//! `d`'s places on that grid, on which of them are sources (cells with two or more
//! candidates) and on `d`'s places on the grid the outer search started from. The one
//! exception is what a chain that places `d` removes: the cell's other candidates, filled in
//! from the grid each time. The grids a dynamic search stalls on differ from the step's grid
//! in a few digits, so most digits' chains are taken as they were.
//!
//! The pass over all digits lists a source's chains in cell order, then digit order; each
//! digit's list is in cell order, and a stable sort by cell of the nine lists, taken in digit
//! order, gives the same sequence.

use super::super::super::board::{Board, Cells, cells_of};
use super::super::nested::{NestedHint, WordHasher};
use super::super::{conjugate, is_on, key};
use super::Unary;
use crate::logic::Budget;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// What one digit's X chains depend on: the digit, its places on the outer search's grid,
/// on the grid searched, and those of the latter that are sources.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    digit: u8,
    base: Cells,
    places: Cells,
    sources: Cells,
}

/// One chain of a digit's X pass.
struct Found {
    /// The cell of its source.
    cell: u8,
    /// True for a chain that places the digit in that cell: its removals are the cell's
    /// other candidates on the grid searched.
    places: bool,
    hint: NestedHint,
}

/// Digits' X passes kept at most, so that memory stays bounded on long searches.
const KEPT_MAX: usize = 1 << 16;

/// Each digit's X chains on the grids searched so far.
#[derive(Default)]
pub(super) struct XKept {
    map: HashMap<Key, Arc<[Found]>, BuildHasherDefault<WordHasher>>,
    /// The chains of one call, as (cell, digit, index in the digit's list).
    order: Vec<(u8, u8, u16)>,
}

impl Unary {
    /// The X pass of `collect`: every X-Cycle and forcing X-Chain on grid `g` as nested
    /// hints, appended to `out` in the order the pass over all digits finds them. False when
    /// the budget ran out.
    pub(super) fn collect_x(
        &mut self,
        base: &Board,
        g: &Board,
        out: &mut Vec<NestedHint>,
        budget: &Budget,
    ) -> bool {
        let multi = g.multi_candidate();
        let mut lists: [Option<Arc<[Found]>>; 9] = Default::default();
        let mut order = std::mem::take(&mut self.x_collect.order);
        order.clear();
        for (d, list) in lists.iter_mut().enumerate() {
            let k = Key {
                digit: d as u8,
                base: base.digit[d],
                places: g.digit[d],
                sources: g.digit[d] & multi,
            };
            let found = match self.x_collect.map.get(&k) {
                Some(found) => found.clone(),
                None => {
                    if budget.spent() {
                        self.x_collect.order = order;
                        return false;
                    }
                    let found: Arc<[Found]> = self.x_digit(base, g, d, k.sources).into();
                    if self.x_collect.map.len() >= KEPT_MAX {
                        self.x_collect.map.clear();
                    }
                    self.x_collect.map.insert(k, found.clone());
                    found
                }
            };
            order.extend(
                found
                    .iter()
                    .enumerate()
                    .map(|(i, f)| (f.cell, d as u8, i as u16)),
            );
            *list = Some(found);
        }
        order.sort_by_key(|e| e.0);
        for &(c, d, i) in &order {
            let f = &lists[d as usize].as_ref().expect("listed")[i as usize];
            let mut h = f.hint.clone();
            if f.places {
                h.entries[0].1 = g.cell[c as usize] & !(1 << d);
            }
            out.push(h);
        }
        self.x_collect.order = order;
        true
    }

    /// The X chains of digit `d` on `g` from the sources `sources`, in cell order.
    fn x_digit(&mut self, base: &Board, g: &Board, d: usize, sources: Cells) -> Vec<Found> {
        self.links.start();
        self.reach.build(g, false, true, 1 << d);
        let (rank, _, _) = Self::kind(false, true);
        let mut found = Vec::new();
        let mut hints = Vec::new();
        for c in cells_of(sources) {
            let source = key(c, d, true);
            hints.clear();
            // Only a cycle that removes a candidate is a hint.
            if self.reach.may_remove(source) {
                self.collect_cycles(base, g, source, false, true, rank, &mut hints);
            }
            let found_cycles = hints.drain(..).map(|hint| Found {
                cell: c as u8,
                places: false,
                hint,
            });
            found.extend(found_cycles);
            for s in [source, conjugate(source)] {
                if self.reach.reaches_conjugate(s)
                    && let Some(hint) = self.collect_forcing(base, g, s, false, rank)
                {
                    // The chain from "off" reaches its source "on": it places the digit.
                    found.push(Found {
                        cell: c as u8,
                        places: !is_on(s),
                        hint,
                    });
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    /// On grids of hard puzzles thinned as a dynamic search's grids are, one search keeping
    /// its digits' X chains from grid to grid gathers the hints a fresh search gathers (and,
    /// under test, `collect` checks its X pass against the pass over all digits at once).
    #[test]
    fn kept_x_chains_are_those_found_afresh() {
        let puzzles = [
            "2....4.....1.9..2.39....6.......7..6...5..4...1..3..9.1...8..3...8.....5..97.....",
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        ];
        let describe = |hints: &[NestedHint]| -> Vec<_> {
            hints
                .iter()
                .map(|h| {
                    (
                        h.key.diff.to_bits(),
                        h.key.rank,
                        h.entries.clone(),
                        h.parents.clone(),
                        h.complexity,
                        h.fingerprint,
                    )
                })
                .collect()
        };
        let mut kept = Unary::default();
        let (mut grids, mut x_hints) = (0, 0);
        for p in puzzles {
            let grid: Grid = p.parse().unwrap();
            let base = Board::from_values(grid.cells()).unwrap();
            for step in 2..8 {
                // Every `step`-th candidate of the cells with three or more taken out.
                let mut g = base;
                for (i, c) in cells_of(base.empty).enumerate() {
                    if base.cell[c].count_ones() >= 3 && i % step == 0 {
                        g.remove(c, base.cell[c].trailing_zeros() as usize);
                    }
                }
                let (mut a, mut b) = (Vec::new(), Vec::new());
                assert!(kept.collect(&base, &g, &mut a, &Budget::default()));
                assert!(Unary::default().collect(&base, &g, &mut b, &Budget::default()));
                assert_eq!(describe(&a), describe(&b), "{p} {step}");
                grids += 1;
                x_hints += a.iter().filter(|h| h.key.rank == 2).count();
            }
        }
        // X chains are found, and some digits' chains were kept from an earlier grid.
        assert!(grids > 0 && x_hints > 0, "{x_hints}");
        assert!(kept.x_collect.map.len() < grids * 9);
    }
}
