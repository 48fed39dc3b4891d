//! The strong links of one digit in one unit (two places, or places in two groups) and the
//! cells their ends cover and see, for the chains of the parent module.

use super::super::bits::{Bits, count16};
use super::super::board::{
    Board, COL0, Cells, PEERS, POS_IN_UNIT, ROW0, UNIT_CELLS, UNIT_MASK, bit, cells_of,
};

/// One end of a link: up to three cells, the first always there.
pub(super) type Group = [Option<u8>; 3];

/// A strong link: its unit, the digit's places there, whether they are grouped, its two ends.
#[derive(Clone, Copy)]
pub(super) struct Link {
    pub(super) unit: u8,
    pub(super) places: Cells,
    pub(super) grouped: bool,
    pub(super) ends: [Group; 2],
}

/// In a box, for each "heart" e < 9 the four cells off its row and column (which must be empty
/// for a grouped link), then for e = 9..15 the box's rows 2, 1, 0 and columns 2, 1, 0.
const BOX_EMPTY: [&[u8]; 15] = [
    &[4, 5, 7, 8],
    &[3, 5, 6, 8],
    &[3, 4, 6, 7],
    &[1, 2, 7, 8],
    &[0, 2, 6, 8],
    &[0, 1, 6, 7],
    &[1, 2, 4, 5],
    &[0, 2, 3, 5],
    &[0, 1, 3, 4],
    &[6, 7, 8],
    &[3, 4, 5],
    &[0, 1, 2],
    &[2, 5, 8],
    &[1, 4, 7],
    &[0, 3, 6],
];

/// The two groups ("blades") of each box pattern: for a heart, its column and its row without
/// it; for e >= 9, the two rows or columns left.
const BOX_BLADES: [(&[u8], &[u8]); 15] = [
    (&[3, 6], &[1, 2]),
    (&[4, 7], &[0, 2]),
    (&[5, 8], &[0, 1]),
    (&[0, 6], &[4, 5]),
    (&[1, 7], &[3, 5]),
    (&[2, 8], &[3, 4]),
    (&[0, 3], &[7, 8]),
    (&[1, 4], &[6, 8]),
    (&[2, 5], &[6, 7]),
    (&[0, 1, 2], &[3, 4, 5]),
    (&[0, 1, 2], &[6, 7, 8]),
    (&[3, 4, 5], &[6, 7, 8]),
    (&[0, 3, 6], &[1, 4, 7]),
    (&[0, 3, 6], &[2, 5, 8]),
    (&[1, 4, 7], &[2, 5, 8]),
];

const LINE_EMPTY: [&[u8]; 3] = [&[0, 1, 2], &[3, 4, 5], &[6, 7, 8]];
const LINE_BLADES: [(&[u8], &[u8]); 3] = [
    (&[3, 4, 5], &[6, 7, 8]),
    (&[0, 1, 2], &[6, 7, 8]),
    (&[0, 1, 2], &[3, 4, 5]),
];

const fn mask(positions: &[u8]) -> u16 {
    let mut m = 0u16;
    let mut i = 0;
    while i < positions.len() {
        m |= 1 << positions[i];
        i += 1;
    }
    m
}

const fn masks<const N: usize>(lists: [&[u8]; N]) -> [u16; N] {
    let mut out = [0u16; N];
    let mut i = 0;
    while i < N {
        out[i] = mask(lists[i]);
        i += 1;
    }
    out
}

/// `BOX_EMPTY` and `LINE_EMPTY` as sets of positions.
const BOX_EMPTY_MASK: [u16; 15] = masks(BOX_EMPTY);
const LINE_EMPTY_MASK: [u16; 3] = masks(LINE_EMPTY);

/// The `k`-th position (0-based) set in `m`.
fn nth(m: u16, k: usize) -> Option<usize> {
    let mut m = m;
    for _ in 0..k {
        if m == 0 {
            return None;
        }
        m &= m - 1;
    }
    (m != 0).then(|| m.trailing_zeros() as usize)
}

fn same_line(a: usize, b: usize) -> bool {
    a % 9 == b % 9 || a / 9 == b / 9
}

/// The links of digit `d` in unit `u`, in Sukaku Explainer's order (at most two groupings).
pub(super) fn unit_links(b: &Board, d: usize, u: usize, out: &mut Vec<Link>) {
    let cells = &UNIT_CELLS[u];
    let set = b.digit[d] & UNIT_MASK[u];
    if !set.many() {
        return;
    }
    // The digit's places as positions in the unit.
    let p = if (ROW0..COL0).contains(&u) {
        (set >> (9 * (u - ROW0))) as u16 & 0x1ff
    } else {
        let kind = u / 9;
        cells_of(set).fold(0u16, |p, c| p | 1 << POS_IN_UNIT[c][kind])
    };
    let count = count16(p);
    if count > 6 {
        return;
    }
    let is_box = u < ROW0;
    let cell = |k: usize| cells[k];
    let (mut b1, mut b2, mut heart) = (p, p, p);
    let mut grouped = false;
    let mut e = 0usize;
    if count > 2 {
        let patterns = if is_box { 15 } else { 3 };
        while e < patterns {
            if e > 8 && count < 4 {
                e += 1;
                continue;
            }
            let empty = if is_box {
                BOX_EMPTY_MASK[e]
            } else {
                LINE_EMPTY_MASK[e]
            };
            b1 = p;
            b2 = p;
            heart = p;
            if p & empty == 0 {
                let (x, y) = if is_box {
                    BOX_BLADES[e]
                } else {
                    LINE_BLADES[e]
                };
                b1 = p & mask(x);
                b2 = p & mask(y);
                if is_box {
                    heart = if e < 9 { p & (1 << e) } else { 0 };
                }
                grouped = b1 != 0 && b2 != 0;
                break;
            }
            e += 1;
        }
        if !grouped {
            return;
        }
    }
    let group = |m: u16, skip: usize| -> Group {
        [
            nth(m, skip).map(cell),
            nth(m, skip + 1).map(cell),
            nth(m, skip + 2).map(cell),
        ]
    };
    let heart_cell = || (e < 9).then(|| cell(e));
    let mut ordinal = 0;
    while ordinal < 2 {
        let mut ends: [Group; 2] = [[None; 3]; 2];
        if grouped {
            let (n1, n2) = (b1.count_ones(), b2.count_ones());
            if n1 == 1 || n2 == 1 {
                if ordinal == 0 {
                    if n1 != 1 {
                        ordinal += 1;
                        continue;
                    }
                    ends[0] = group(b1, 0);
                    ends[1] = if is_box {
                        [nth(b2, 0).map(cell), heart_cell(), nth(b2, 1).map(cell)]
                    } else {
                        group(b2, 0)
                    };
                    if n2 == 1 {
                        ordinal = 1;
                    }
                }
                if ordinal == 1 {
                    if n2 != 1 {
                        ordinal += 1;
                        continue;
                    }
                    ends[0] = group(b2, 0);
                    ends[1] = if is_box {
                        [nth(b1, 0).map(cell), heart_cell(), nth(b1, 1).map(cell)]
                    } else {
                        group(b1, 0)
                    };
                }
            } else {
                ends[0] = group(b1, 0);
                ends[1] = group(b2, 0);
                let c = |g: Group, i: usize| g[i].unwrap() as usize;
                let eml = e > 8
                    && count == 4
                    && same_line(c(ends[0], 1), c(ends[1], 1))
                    && same_line(c(ends[0], 0), c(ends[1], 0));
                if eml && ordinal == 1 {
                    // The four places form a rectangle: the second grouping pairs them the
                    // other way.
                    ends[1][0] = nth(b1, 1).map(cell);
                    ends[0][1] = nth(b2, 0).map(cell);
                }
                if !eml {
                    ordinal = 1;
                    if e < 9 && heart.count_ones() == 1 {
                        if n1 == 2 {
                            ends[0][2] = heart_cell();
                        }
                        if n2 == 2 {
                            ends[1][2] = heart_cell();
                        }
                    }
                }
            }
        } else {
            ordinal = 1;
            ends[0] = [nth(p, 0).map(cell), None, None];
            ends[1] = [nth(p, 1).map(cell), None, None];
            let (a, c) = (ends[0][0].unwrap() as usize, ends[1][0].unwrap() as usize);
            if is_box && same_line(a, c) {
                ordinal += 1;
                continue;
            }
        }
        let places = cells_of_positions(u, p);
        out.push(Link {
            unit: u as u8,
            places,
            grouped,
            ends,
        });
        ordinal += 1;
    }
}

fn cells_of_positions(u: usize, p: u16) -> Cells {
    let mut s = 0u128;
    for (k, &c) in UNIT_CELLS[u].iter().enumerate() {
        if p & (1 << k) != 0 {
            s |= bit(c as usize);
        }
    }
    s
}

/// The cells of a group as a set.
pub(super) fn group_cells(g: &Group) -> Cells {
    g.iter().flatten().fold(0, |s, &c| s | bit(c as usize))
}

/// The cells that see every cell of a group.
pub(super) fn seeing(g: &Group) -> Cells {
    g.iter()
        .flatten()
        .fold(!0u128, |s, &c| s & PEERS[c as usize])
}
