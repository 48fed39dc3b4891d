//! The links between potentials on a fixed grid, one potential's consequences at a time: an
//! "on" potential turns off its cell's other candidates (Y) and its digit's other places in
//! its units; an "off" potential turns on its bivalue cell's other candidate (Y) and its
//! digit's only other place in a unit (X).

use super::super::super::board::{Board, CELL_UNITS, UNIT_MASK, bit, cells_of, digits_of};
use super::super::{KEYS, cell_of, digit_of, key};
use crate::logic::bits::Bits;

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
    let u = CELL_UNITS[c];
    let bx = UNIT_MASK[u[0] as usize];
    let sets = [
        b.digit[d] & bx & !bit(c),
        b.digit[d] & UNIT_MASK[u[1] as usize] & !bx,
        b.digit[d] & UNIT_MASK[u[2] as usize] & !bx,
    ];
    for s in sets {
        for x in cells_of(s) {
            out[n] = key(x, d, false) as u16;
            n += 1;
        }
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
