//! Set-wise breadth-first sweeps over a grid's links: a whole level of potentials per
//! step, as one set of cells per digit. They give a forcing chain's exact length and a lower
//! bound for a cycle's, so that the path-keeping searches run only where they can still
//! beat the best hint.

use super::super::super::board::{Board, PEERS, UNIT_MASK, bit, cells_of, digits_of};
use super::super::{cell_of, digit_of, is_on};
use crate::logic::bits::Bits;

/// The links of a grid as sets, for breadth-first sweeps that handle a whole level at once.
pub(super) struct Graph {
    /// `partner[d][c]`: the other place of digit d in each unit of c where d has two places.
    partner: [[u128; 81]; 9],
    /// Cells with two candidates.
    bivalue: u128,
}

impl Graph {
    pub(super) fn new(b: &Board) -> Graph {
        let mut partner = [[0u128; 81]; 9];
        for u in 0..27 {
            for d in 0..9 {
                let p = b.digit[d] & UNIT_MASK[u];
                if p.two() {
                    let a = p.trailing_zeros() as usize;
                    let c = (p & (p - 1)).trailing_zeros() as usize;
                    partner[d][a] |= bit(c);
                    partner[d][c] |= bit(a);
                }
            }
        }
        let mut bivalue = 0u128;
        for c in cells_of(b.empty) {
            if b.cell[c].two() {
                bivalue |= bit(c);
            }
        }
        Graph { partner, bivalue }
    }

    /// From `source`, the levels that matter, as long as they pass their test: for an "on"
    /// source, the first iteration at which a cycle could close (a lower bound: the cycle
    /// search keeps fewer paths), and the level at which the source's conjugate appears
    /// (exact, as in a forcing chain search, where every potential is reached once and first
    /// at its lowest level). The sweep stops once neither can still pass.
    pub(super) fn sweep(
        &self,
        b: &Board,
        source: usize,
        y: bool,
        x: bool,
        cycle_ok: &dyn Fn(u32) -> bool,
        chain_ok: &dyn Fn(u32) -> bool,
    ) -> (Option<u32>, Option<u32>) {
        let (sc, sd) = (cell_of(source), digit_of(source));
        let on_source = is_on(source);
        // The "off" potentials that turn the source on: its cell's other candidate if it has
        // two (Y), the digit's other place in a unit with two (X).
        let mut pre = [0u128; 9];
        if on_source {
            if y && self.bivalue & bit(sc) != 0 {
                let other = (b.cell[sc] & !(1 << sd)).trailing_zeros() as usize;
                pre[other] |= bit(sc);
            }
            if x {
                pre[sd] |= self.partner[sd][sc];
            }
        }
        let mut want_cycle = on_source && cycle_ok(2);
        let mut want_chain = chain_ok(1);
        let (mut cycle_at, mut chain_at) = (None, None);
        let mut seen_on = [0u128; 9];
        let mut seen_off = [0u128; 9];
        let mut front = [0u128; 9];
        front[sd] = bit(sc);
        if on_source {
            seen_on[sd] = bit(sc);
        } else {
            seen_off[sd] = bit(sc);
        }
        let mut level = 0u32;
        let mut on_level = on_source;
        // Digits with potentials in the frontier: without Y links a sweep never leaves the
        // source's digit, and with them it rarely spreads to all nine at once.
        let mut active = 1u16 << sd;
        while want_cycle || want_chain {
            let mut next = [0u128; 9];
            let mut reached = 0u16;
            // The digits `next` can hold: without Y links, the frontier's own.
            let spread = if y { 0x1ff } else { active };
            if on_level {
                // On to off: the digit's other places in the units of the cell; with Y links,
                // the cell's other candidates.
                for d in digits_of(active) {
                    let mut n = 0u128;
                    for c in cells_of(front[d]) {
                        n |= PEERS[c];
                    }
                    next[d] = n & b.digit[d];
                }
                if y {
                    let others = others_of(&front);
                    for d in 0..9 {
                        next[d] |= others[d] & b.digit[d];
                    }
                }
                if want_cycle && level >= 2 && (0..9).any(|d| next[d] & pre[d] != 0) {
                    cycle_at = Some(level / 2 + 1);
                    want_cycle = false;
                }
                if want_chain && on_source && next[sd] & bit(sc) != 0 {
                    chain_at = Some(level + 1);
                    want_chain = false;
                }
                for d in digits_of(spread) {
                    next[d] &= !seen_off[d];
                    seen_off[d] |= next[d];
                    if next[d] != 0 {
                        reached |= 1 << d;
                    }
                }
            } else {
                // Off to on: a bivalue cell's other candidate (Y), the digit's other place in
                // a unit with two (X).
                if x {
                    for d in digits_of(active) {
                        for c in cells_of(front[d]) {
                            next[d] |= self.partner[d][c];
                        }
                    }
                }
                if y {
                    let others = others_of(&front);
                    for d in 0..9 {
                        next[d] |= others[d] & self.bivalue & b.digit[d];
                    }
                }
                if want_chain && !on_source && next[sd] & bit(sc) != 0 {
                    chain_at = Some(level + 1);
                    want_chain = false;
                }
                for d in digits_of(spread) {
                    next[d] &= !seen_on[d];
                    seen_on[d] |= next[d];
                    if next[d] != 0 {
                        reached |= 1 << d;
                    }
                }
            }
            if reached == 0 {
                break;
            }
            front = next;
            active = reached;
            level += 1;
            on_level = !on_level;
            // What the next levels could still find.
            if want_cycle && on_level && level >= 2 && !cycle_ok(level / 2 + 1) {
                want_cycle = false;
            }
            if want_chain && on_level == on_source && !chain_ok(level + 1) {
                want_chain = false;
            }
        }
        (cycle_at, chain_at)
    }
}

/// For each digit, the cells where some other digit is in `sets`.
fn others_of(sets: &[u128; 9]) -> [u128; 9] {
    let mut before = [0u128; 9];
    let mut acc = 0u128;
    for d in 0..9 {
        before[d] = acc;
        acc |= sets[d];
    }
    let mut out = [0u128; 9];
    acc = 0;
    for d in (0..9).rev() {
        out[d] = before[d] | acc;
        acc |= sets[d];
    }
    out
}
