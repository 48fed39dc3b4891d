//! The links between potentials on a fixed grid, one potential's consequences at a time: an
//! "on" potential turns off its cell's other candidates (Y) and its digit's other places in
//! its units; an "off" potential turns on its bivalue cell's other candidate (Y) and its
//! digit's only other place in a unit (X).

use super::super::super::board::{Board, CELL_UNITS, Cells, UNIT_MASK, bit, digits_of};
use super::super::{KEYS, cell_of, digit_of, key};
use crate::logic::bits::Bits;

/// Per cell: the other cells of its box, then the cells of its row and of its column
/// outside the box, the places an "on" potential turns off in the order it lists them.
static SEEN: [[Cells; 3]; 81] = build_seen();

const fn build_seen() -> [[Cells; 3]; 81] {
    let mut out = [[0; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let mut z = 0;
        while z < 81 {
            let same_box = z / 27 == c / 27 && z % 9 / 3 == c % 9 / 3;
            if z != c {
                if same_box {
                    out[c][0] |= 1 << z;
                } else if z / 9 == c / 9 {
                    out[c][1] |= 1 << z;
                } else if z % 9 == c % 9 {
                    out[c][2] |= 1 << z;
                }
            }
            z += 1;
        }
        c += 1;
    }
    out
}

/// Appends to `out` from `n` the "off" keys of digit `d` in `cells`, in cell order (each
/// half of the set a 64-bit word, which is cheaper to walk); returns the new length.
#[inline(always)]
fn push_off(cells: Cells, d: usize, out: &mut [u16; 32], mut n: usize) -> usize {
    let off = key(0, d, false) as u16;
    for (half, base) in [(cells as u64, 0u16), ((cells >> 64) as u64, 64)] {
        let mut w = half;
        while w != 0 {
            out[n] = (base + w.trailing_zeros() as u16) * 18 + off;
            n += 1;
            w &= w - 1;
        }
    }
    n
}

/// The consequences of an "on" potential: the cell's other candidates (Y links only), then
/// the digit's other places in the box, the row and the column, in that order.
#[inline]
pub(crate) fn on_to_off(b: &Board, k: usize, y: bool, out: &mut [u16; 32]) -> usize {
    let (c, d) = (cell_of(k), digit_of(k));
    let mut n = 0;
    if y {
        for e in digits_of(b.cell[c] & !(1 << d)) {
            out[n] = key(c, e, false) as u16;
            n += 1;
        }
    }
    let places = b.digit[d];
    for s in SEEN[c] {
        n = push_off(places & s, d, out, n);
    }
    n
}

/// The consequences of an "off" potential: the cell's other candidate if it has two (Y),
/// then the digit's only other place in the box, the row or the column (X).
#[inline]
pub(crate) fn off_to_on(b: &Board, k: usize, y: bool, x: bool, out: &mut [u16; 4]) -> usize {
    let (c, d) = (cell_of(k), digit_of(k));
    let mut n = 0;
    if y && b.cell[c].two() {
        let other = (b.cell[c] & !(1 << d)).trailing_zeros() as usize;
        out[n] = key(c, other, true) as u16;
        n += 1;
    }
    if x {
        for &u in &CELL_UNITS[c] {
            let rest = b.digit[d] & UNIT_MASK[u as usize] & !bit(c);
            if rest.one() {
                let kk = key(rest.trailing_zeros() as usize, d, true) as u16;
                if !out[..n].contains(&kk) {
                    out[n] = kk;
                    n += 1;
                }
            }
        }
    }
    n
}

/// `off_to_on` answers on one grid with one kind of links (a pass of a search), each worked
/// out once: a cycle search asks again for every path through an "off" potential.
pub(crate) struct OffLinks {
    epoch: u32,
    stamp: Vec<u32>,
    /// Per key: the answer, its length in the last place.
    out: Vec<[u16; 5]>,
}

impl Default for OffLinks {
    fn default() -> Self {
        OffLinks {
            epoch: 0,
            stamp: vec![0; KEYS],
            out: vec![[0; 5]; KEYS],
        }
    }
}

impl OffLinks {
    /// Forgets every answer: a new grid or new kinds of links.
    pub(crate) fn start(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
    }

    /// `off_to_on(b, k, y, x, out)`, for the grid and links since `start`.
    #[inline]
    pub(crate) fn get(
        &mut self,
        b: &Board,
        k: usize,
        y: bool,
        x: bool,
        out: &mut [u16; 4],
    ) -> usize {
        if self.stamp[k] != self.epoch {
            let mut buf = [0u16; 4];
            let n = off_to_on(b, k, y, x, &mut buf);
            self.out[k] = [buf[0], buf[1], buf[2], buf[3], n as u16];
            self.stamp[k] = self.epoch;
        }
        let e = &self.out[k];
        out.copy_from_slice(&e[..4]);
        e[4] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::super::board::{PEERS, cells_of};
    use super::*;

    /// Each cell's three sets are its box, row and column less the cell, the line's cells
    /// outside the box, and together its peers.
    #[test]
    fn seen_sets_are_the_units_in_order() {
        for c in 0..81 {
            let u = CELL_UNITS[c];
            let bx = UNIT_MASK[u[0] as usize];
            let [a, r, l] = SEEN[c];
            assert_eq!(a, bx & !bit(c));
            assert_eq!(r, UNIT_MASK[u[1] as usize] & !bx);
            assert_eq!(l, UNIT_MASK[u[2] as usize] & !bx);
            assert_eq!(a | r | l, PEERS[c]);
            // The keys come out in cell order, across both halves of the set.
            let mut out = [0u16; 32];
            let n = push_off(PEERS[c], c % 9, &mut out, 0);
            let keys: Vec<u16> = cells_of(PEERS[c])
                .map(|z| key(z, c % 9, false) as u16)
                .collect();
            assert_eq!(&out[..n], &keys[..]);
        }
    }
}
