//! Which cells' searches can yield a hint at all, told quickly for Nishio (7.5) and
//! multiple (8.0) chains, which at most steps of a hard puzzle find nothing.
//!
//! There a search from an assumption adds every consequence its links give, each once, so
//! what it reaches when it ends without a contradiction is the least set of potentials
//! closed under those links, whatever the order it works in; and it meets a contradiction
//! exactly when that closure holds a candidate both on and off. This file works the
//! closure out on bitboards, without the parents a hint's rating needs (a Nishio search's
//! links are the digit's last places on its own grid, a multiple one's the fixed grid's).
//! A cell's hints (Nishio contradictions; the cell chain and the region chains starting at
//! it) are potentials in every closure of their chains: where there is none, the cell is
//! not searched. A closure with a contradiction stands for every potential (the search that
//! meets one stops part way, at a point that depends on its order), so that what is
//! skipped is never a hint. A Nishio chain sees only its digit's places, so what they give
//! is kept from grid to grid by the set of places. (Plain dynamic chains are not told apart
//! this way: at their rung most cells have a contradiction, and the closures cost more than
//! they save.)

use super::super::super::board::{Board, CELL_UNITS, PEERS, UNIT_MASK, bit, cells_of, digits_of};
use super::super::{cell_of, digit_of, is_on, key};
use super::Kind;
use crate::logic::bits::Bits;
use std::collections::HashMap;

/// The potentials an assumption leads to: the cells of each digit on, and off.
#[derive(Clone, Copy)]
pub(super) struct Closure {
    on: [u128; 9],
    off: [u128; 9],
}

/// A closure with a contradiction: it stands for every potential.
const EVERY: Closure = Closure {
    on: [!0; 9],
    off: [!0; 9],
};

impl Closure {
    fn contradiction(&self) -> bool {
        self.on[0] == !0
    }
}

/// The closure of potential `start` on grid `base` by Nishio chains: links of the digit's
/// places only, each candidate gone off removed from the search's grid, so that the digit's
/// last place in a unit may rest on several removals.
fn close_x(base: &Board, start: usize) -> Closure {
    let (c0, d) = (cell_of(start), digit_of(start));
    let mut g = base.digit[d];
    let (mut on, mut off) = (0u128, 0u128);
    let (mut new_on, mut new_off) = if is_on(start) {
        (bit(c0), 0)
    } else {
        (0, bit(c0))
    };
    loop {
        let fresh = new_on & !on;
        if fresh & off != 0 {
            return EVERY;
        }
        on |= fresh;
        for c in cells_of(fresh) {
            new_off |= PEERS[c] & g;
        }
        let fresh = new_off & !off;
        if fresh & on != 0 {
            return EVERY;
        }
        off |= fresh;
        new_on = 0;
        // Each made as the search makes it: on its grid before the candidate is removed.
        for c in cells_of(fresh) {
            for &u in &CELL_UNITS[c] {
                let rest = g & UNIT_MASK[u as usize] & !bit(c);
                if rest.one() {
                    new_on |= rest;
                }
            }
            g &= !bit(c);
        }
        if new_on & !on == 0 {
            let mut out = Closure {
                on: [0; 9],
                off: [0; 9],
            };
            out.on[d] = on;
            out.off[d] = off;
            return out;
        }
    }
}

/// The closure of potential `start` by multiple chains: the links of the fixed grid the
/// `links` were made for. The closures of "on" potentials already made for that grid
/// (`kept` at `stamp`) are taken whole when reached: the links being fixed, each is closed,
/// and all of it follows from what reaches it.
fn close_static(
    base: &Board,
    links: &Links,
    kept: &[(u32, Closure)],
    stamp: u32,
    start: usize,
) -> Closure {
    let mut on = [0u128; 9];
    let mut off = [0u128; 9];
    let mut new_on = [0u128; 9];
    let mut new_off = [0u128; 9];
    // The digits with new potentials of each state.
    let (mut on_digits, mut off_digits) = (0u16, 0u16);
    let (c0, d0) = (cell_of(start), digit_of(start));
    if is_on(start) {
        new_on[d0] = bit(c0);
        on_digits = 1 << d0;
    } else {
        new_off[d0] = bit(c0);
        off_digits = 1 << d0;
    }
    loop {
        // An "on" potential turns off the digit's other places in its units and its cell's
        // other candidates.
        for d in digits_of(on_digits) {
            let fresh = new_on[d] & !on[d];
            new_on[d] = 0;
            if fresh & off[d] != 0 {
                return EVERY;
            }
            on[d] |= fresh;
            for c in cells_of(fresh) {
                let (made, closure) = &kept[c * 9 + d];
                if *made == stamp {
                    if closure.contradiction() {
                        return EVERY;
                    }
                    for e in 0..9 {
                        on[e] |= closure.on[e];
                        off[e] |= closure.off[e];
                        if on[e] & off[e] != 0 {
                            return EVERY;
                        }
                    }
                    continue;
                }
                new_off[d] |= PEERS[c] & base.digit[d];
                off_digits |= 1 << d;
                let others = base.cell[c] & !(1 << d);
                off_digits |= others;
                for e in digits_of(others) {
                    new_off[e] |= bit(c);
                }
            }
        }
        on_digits = 0;
        // An "off" one turns on its cell's other candidate when it has two, and the digit's
        // other place in each unit where it has two.
        for d in digits_of(off_digits) {
            let fresh = new_off[d] & !off[d];
            new_off[d] = 0;
            if fresh & on[d] != 0 {
                return EVERY;
            }
            off[d] |= fresh;
            for c in cells_of(fresh & links.active[d]) {
                let m = base.cell[c];
                if m.two() {
                    let e = (m & !(1 << d)).trailing_zeros() as usize;
                    if on[e] & bit(c) == 0 {
                        new_on[e] |= bit(c);
                        on_digits |= 1 << e;
                    }
                }
                let x = links.by[c * 9 + d] & !on[d];
                if x != 0 {
                    new_on[d] |= x;
                    on_digits |= 1 << d;
                }
            }
        }
        off_digits = 0;
        if on_digits == 0 {
            return Closure { on, off };
        }
    }
}

/// The links of a fixed grid from "off" potentials to "on" ones.
#[derive(Default)]
struct Links {
    /// Per candidate (`cell * 9 + digit`): the digit's other place in each unit where it has
    /// two.
    by: Vec<u128>,
    /// Per digit, the cells where it going off turns something on: those with a link for it,
    /// and those with it and one other candidate.
    active: [u128; 9],
}

impl Links {
    fn make(&mut self, b: &Board) {
        self.by.clear();
        self.by.resize(81 * 9, 0);
        let mut bivalue = 0;
        for c in cells_of(b.empty) {
            if b.cell[c].two() {
                bivalue |= bit(c);
            }
        }
        for d in 0..9 {
            self.active[d] = bivalue & b.digit[d];
            for &mask in &UNIT_MASK {
                let places = b.digit[d] & mask;
                if places.two() {
                    self.active[d] |= places;
                    for c in cells_of(places) {
                        self.by[c * 9 + d] |= places & !bit(c);
                    }
                }
            }
        }
    }
}

/// The closures of "on" potentials made for the grid being searched, each once.
#[derive(Default)]
pub(super) struct Closures {
    stamp: u32,
    /// By candidate (`cell * 9 + digit`): the stamp it was made at, and the closure.
    kept: Vec<(u32, Closure)>,
    /// The fixed grid's links for multiple chains, when made for this stamp.
    links: Links,
    links_made: bool,
    /// A Nishio chain sees only its digit's places: per set of places met (on any grid, at
    /// any step), the places whose assumption on, and off, meets a contradiction. A step
    /// changes the places of few digits, so most are looked up.
    nishio: HashMap<u128, (u128, u128)>,
    /// Those of the grid being searched, by digit, when made for this stamp.
    nishio_now: [(u128, u128); 9],
    nishio_made: bool,
}

/// Sets of places kept for Nishio chains at most, so that memory stays bounded.
const NISHIO_KEPT_MAX: usize = 1 << 14;

impl Closures {
    /// Forgets the closures kept: a new grid, or a new kind of chains, is to be searched.
    pub fn start(&mut self) {
        if self.kept.is_empty() {
            self.kept = vec![(0, EVERY); 81 * 9];
        }
        self.links_made = false;
        self.nishio_made = false;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.kept.fill((0, EVERY));
            self.stamp = 1;
        }
    }

    /// The closure of potential `k` on grid `b` by chains of `kind`.
    fn close(&mut self, b: &Board, k: usize, kind: Kind) -> Closure {
        if kind == Kind::Nishio {
            return close_x(b, k);
        }
        if !self.links_made {
            self.links.make(b);
            self.links_made = true;
        }
        close_static(b, &self.links, &self.kept, self.stamp, k)
    }

    #[cfg(test)]
    fn on(&mut self, b: &Board, c: usize, d: usize, kind: Kind) -> &Closure {
        self.make_on(b, c, d, kind);
        &self.kept[c * 9 + d].1
    }

    /// Makes the closure of candidate `d` of cell `c` on, unless made for this grid.
    fn make_on(&mut self, b: &Board, c: usize, d: usize, kind: Kind) {
        let i = c * 9 + d;
        if self.kept[i].0 != self.stamp {
            let made = self.close(b, key(c, d, true), kind);
            self.kept[i] = (self.stamp, made);
        }
    }

    /// Whether the closures of the candidates `(cell, digit)` listed in `of`, all made for
    /// this grid, share a potential.
    fn share(&self, of: &[usize]) -> bool {
        (0..9).any(|e| {
            let (mut on, mut off) = (!0u128, !0u128);
            for &i in of {
                let closure = &self.kept[i].1;
                on &= closure.on[e];
                off &= closure.off[e];
            }
            on | off != 0
        })
    }

    /// The places of digit `d` on grid `b` whose assumption on, and off, meets a
    /// contradiction by Nishio chains.
    fn nishio_places(&mut self, b: &Board, d: usize) -> (u128, u128) {
        let places = b.digit[d];
        if let Some(&kept) = self.nishio.get(&places) {
            return kept;
        }
        let (mut on, mut off) = (0, 0);
        for c in cells_of(places) {
            if close_x(b, key(c, d, true)).contradiction() {
                on |= bit(c);
            }
            if close_x(b, key(c, d, false)).contradiction() {
                off |= bit(c);
            }
        }
        if self.nishio.len() >= NISHIO_KEPT_MAX {
            self.nishio.clear();
        }
        self.nishio.insert(places, (on, off));
        (on, off)
    }

    /// False when the search of cell `c` by Nishio or multiple chains finds no hint: its
    /// contradictions (Nishio), or its region chains from the first place of each of its
    /// digits in a unit and its cell chain (multiple), as `Multiple::cell_hints` looks for
    /// them.
    pub fn may_hint(&mut self, b: &Board, c: usize, kind: Kind) -> bool {
        debug_assert!(matches!(kind, Kind::Nishio | Kind::Multiple));
        if kind == Kind::Nishio {
            if !self.nishio_made {
                self.nishio_now = std::array::from_fn(|d| self.nishio_places(b, d));
                self.nishio_made = true;
            }
            return digits_of(b.cell[c]).any(|v| {
                let (on, off) = self.nishio_now[v];
                (on | off) & bit(c) != 0
            });
        }
        // The closures are met in place, digit by digit, up to the first shared potential.
        for v in digits_of(b.cell[c]) {
            self.make_on(b, c, v, kind);
            for &u in &CELL_UNITS[c] {
                let places = b.digit[v] & UNIT_MASK[u as usize];
                if !places.many() || places.trailing_zeros() as usize != c {
                    continue;
                }
                let (mut of, mut n) = ([0; 9], 0);
                for x in cells_of(places) {
                    self.make_on(b, x, v, kind);
                    of[n] = x * 9 + v;
                    n += 1;
                }
                if self.share(&of[..n]) {
                    return true;
                }
            }
        }
        let (mut of, mut n) = ([0; 9], 0);
        for v in digits_of(b.cell[c]) {
            of[n] = c * 9 + v;
            n += 1;
        }
        self.share(&of[..n])
    }
}

#[cfg(test)]
impl super::Multiple {
    /// Searches cell `c` as if its closures had not been looked at, and checks that it
    /// offers no hint.
    pub(super) fn check_no_hint(
        &mut self,
        b: &Board,
        c: usize,
        kind: Kind,
        budget: &crate::logic::Budget,
    ) -> Result<(), crate::logic::GradeError> {
        let mut probe = super::super::unary::Best::none();
        let before = self.collected.len();
        self.cell_hints(b, c, kind, &mut probe, budget)?;
        assert!(
            probe.hint.is_none() && self.collected.len() == before,
            "{kind:?} cell {c}"
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Multiple, OFF_SLOT};
    use super::*;
    use crate::grid::Grid;
    use crate::logic::{Budget, Grader};

    /// The closure of what slot `OFF_SLOT` of `m` holds.
    fn reached(m: &Multiple) -> Closure {
        let slot = &m.slots[OFF_SLOT];
        let mut out = Closure {
            on: [0; 9],
            off: [0; 9],
        };
        for &k in slot.on_list.iter().chain(&slot.off_list) {
            let (c, d) = (cell_of(k as usize), digit_of(k as usize));
            if is_on(k as usize) {
                out.on[d] |= bit(c);
            } else {
                out.off[d] |= bit(c);
            }
        }
        out
    }

    #[test]
    fn closures_hold_what_the_searches_reach() {
        // At the steps of ER 8 and up puzzles where chains are searched, from every
        // candidate on and off, for each kind of chains that nests nothing: the closure has
        // a contradiction exactly when the search meets one, and else holds the potentials
        // the search reached.
        let text = include_str!("../../../../tests/data/logic/serate_sample.csv");
        let puzzles: Vec<Grid> = text
            .lines()
            .skip(1)
            .filter(|line| line.split(',').nth(1).unwrap().parse::<f64>().unwrap() >= 8.0)
            .step_by(2)
            .take(12)
            .map(|line| line.split(',').next().unwrap().parse().unwrap())
            .collect();
        let budget = Budget::default();
        let mut grader = Grader::new();
        let mut m = Multiple::default();
        let (mut clashes, mut ends) = (0, 0);
        for p in &puzzles {
            let steps = grader.steps(p, &budget).unwrap();
            let mut b = Board::from_values(p.cells()).unwrap();
            for step in steps {
                if step.rating >= 75 {
                    for kind in [Kind::Nishio, Kind::Multiple] {
                        let mut closures = Closures::default();
                        closures.start();
                        for c in cells_of(b.empty) {
                            for d in digits_of(b.cell[c]) {
                                for state in [true, false] {
                                    let k = key(c, d, state);
                                    m.chain(&b, OFF_SLOT, k, kind, &budget);
                                    // "On" closures are kept, and later ones take them whole.
                                    let closure = if state {
                                        *closures.on(&b, c, d, kind)
                                    } else {
                                        closures.close(&b, k, kind)
                                    };
                                    let clash = m.slots[OFF_SLOT].clash.is_some();
                                    assert_eq!(clash, closure.contradiction(), "{p} {kind:?} {k}");
                                    if clash {
                                        clashes += 1;
                                    } else {
                                        let seen = reached(&m);
                                        assert!(seen.on == closure.on && seen.off == closure.off);
                                        ends += 1;
                                    }
                                }
                            }
                        }
                    }
                }
                for &(c, d) in &step.eliminations {
                    b.remove(c as usize, d as usize - 1);
                }
                for &(c, d) in &step.placements {
                    b.place(c as usize, d as usize - 1);
                }
            }
        }
        assert!(clashes > 5 && ends > 10_000, "{clashes} {ends}");
    }
}
