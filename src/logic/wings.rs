//! XY-Wing and XYZ-Wing: a pivot cell and two pincers that see it, which between them force
//! a digit into one of the pincers.

use super::bits::{Bits, count16};
use super::board::{Board, Cells, PEERS, bit, cells_of, digits_of};
use super::technique::{Hint, Technique};

/// XY-Wing (4.2): pivot {x,y}, pincers {x,z} and {y,z}; or XYZ-Wing (4.4): pivot {x,y,z}.
/// Either way z leaves the cells that see both pincers (and, for XYZ, the pivot).
///
/// Pivots are tried in cell order, and for each pivot its peers in cell order, first as the
/// {x,z} pincer, then as the {y,z} pincer, as Sudoku Explainer does.
pub(crate) fn xy_wing(b: &Board, xyz: bool) -> Option<Hint> {
    let size = if xyz { 3 } else { 2 };
    // The pincers have two candidates: only those cells are looked at, in the same order.
    let mut bivalue: Cells = 0;
    for c in cells_of(b.empty) {
        if count16(b.cell[c]) == 2 {
            bivalue |= bit(c);
        }
    }
    if !bivalue.many() {
        return None;
    }
    for pivot in cells_of(b.empty) {
        let xy = b.cell[pivot];
        if count16(xy) != size {
            continue;
        }
        let pincers = PEERS[pivot] & bivalue;
        if !pincers.many() {
            continue;
        }
        for xz_cell in cells_of(pincers) {
            let xz = b.cell[xz_cell];
            if count16(xy & !xz) != 1 {
                continue;
            }
            for yz_cell in cells_of(pincers) {
                let yz = b.cell[yz_cell];
                if count16(xy | xz | yz) != 3 {
                    continue;
                }
                let common = count16(xy & xz & yz);
                if common != if xyz { 1 } else { 0 } {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as usize;
                let mut victims = PEERS[xz_cell] & PEERS[yz_cell];
                if xyz {
                    victims &= PEERS[pivot];
                }
                victims &= !(bit(pivot) | bit(xz_cell) | bit(yz_cell));
                let gone = victims & b.digit[z];
                if gone != 0 {
                    let (tech, diff) = if xyz {
                        (Technique::XYZWing, 4.4)
                    } else {
                        (Technique::XYWing, 4.2)
                    };
                    let mut h = Hint::new(tech, diff);
                    h.elim[z] = gone;
                    h.cells = bit(pivot) | bit(xz_cell) | bit(yz_cell);
                    return Some(h);
                }
            }
        }
    }
    None
}

/// The wings of Sukaku Explainer built on an almost locked set: `n` cells that all see each
/// other and hold `n + 1` digits between them (WXYZ for 3 cells, 5.5-5.6; VWXYZ for 4,
/// 6.2-6.4; UVWXYZ for 5, 6.6; TUVWXYZ for 6, 7.5), and a bivalue cell {x, z} outside it. When
/// every set cell holding x sees the bivalue cell (x is "restricted"), z leaves the cells that
/// see the bivalue cell and every set cell holding z. When both digits are restricted, the
/// wing is "doubly linked" and also removes x that way and the set's other digits from the
/// cells that see all the set cells holding them.
///
/// All wings are sorted by rating, then by more removals, then by Sukaku Explainer's name
/// suffix (link count, largest cell, candidate total), largest first; the first is applied.
///
/// A wing removes only candidates the grid still has, and whether its cells form one depends
/// on their candidates only. So when the last search of this size found nothing, a wing that
/// removes something now has a cell changed since (`changed`, the clock of each cell's last
/// change; `memo` keeps that search's clock): either in the set, or the bivalue cell, which
/// sees a set cell. Only such sets are tried, in the same order, so the same wing wins.
pub(crate) fn als_wing(
    b: &Board,
    n: usize,
    memo: &mut AlsMemo,
    clock: u64,
    changed: &[u64; 81],
) -> Option<Hint> {
    let since = memo.none_at[n];
    let mut fresh: Cells = 0;
    for c in cells_of(b.empty) {
        if changed[c] > since {
            fresh |= bit(c);
        }
    }
    let mut bivalue: Cells = 0;
    for c in cells_of(b.empty) {
        if count16(b.cell[c]) == 2 {
            bivalue |= bit(c);
        }
    }
    // A set needs a fresh cell, or a cell seeing a fresh bivalue cell.
    let mut reach = fresh;
    for c in cells_of(fresh & bivalue) {
        reach |= PEERS[c];
    }
    let mut w = AlsWing {
        b,
        n,
        cells: [0; 6],
        best: None,
        fresh,
        reach,
        bivalue,
    };
    // A set cell holds two to n + 1 digits: only those cells are tried.
    let mut eligible: Cells = 0;
    for c in cells_of(b.empty) {
        let card = count16(b.cell[c]) as usize;
        if card > 1 && card < n + 2 {
            eligible |= bit(c);
        }
    }
    for pivot in cells_of(eligible) {
        let m = b.cell[pivot];
        let card = count16(m) as usize;
        let next = PEERS[pivot] & !((2u128 << pivot) - 1) & eligible;
        if (bit(pivot) | next) & reach == 0 || !next.at_least(n as u32 - 1) {
            continue;
        }
        w.cells[0] = pivot;
        w.extend(1, next, bit(pivot), m, card, card);
    }
    memo.none_at[n] = if w.best.is_some() { 0 } else { clock };
    w.best.map(|(_, h)| h)
}

/// For each size of set, the clock of the last search that found no wing (0 after one that
/// found one).
#[derive(Default)]
pub(crate) struct AlsMemo {
    none_at: [u64; 7],
}

/// What orders two wings: rating, removals, and the name suffix as text.
#[derive(Clone, Copy)]
struct WingKey {
    diff: f64,
    elims: u32,
    suffix: [u8; 4],
    len: usize,
}

impl WingKey {
    fn before(&self, o: &WingKey) -> bool {
        match self.diff.total_cmp(&o.diff) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => {
                if self.elims != o.elims {
                    return self.elims > o.elims;
                }
                // Larger suffix first (Sukaku Explainer compares the texts the other way round).
                self.suffix[..self.len] > o.suffix[..o.len]
            }
        }
    }
}

struct AlsWing<'a> {
    b: &'a Board,
    n: usize,
    cells: [usize; 6],
    best: Option<(WingKey, Hint)>,
    /// Cells changed since the last search that found nothing.
    fresh: Cells,
    /// The fresh cells and the peers of fresh bivalue cells: every set tried has one.
    reach: Cells,
    /// The cells with two candidates.
    bivalue: Cells,
}

impl AlsWing<'_> {
    /// Adds cell `k` of the set from `next` (cells after all chosen ones that see them all);
    /// `chosen` holds the set's cells so far. A set with none of the `reach` cells, whose
    /// later cells could add none, is not followed: it makes no wing the last search did not
    /// find.
    fn extend(
        &mut self,
        k: usize,
        next: Cells,
        chosen: Cells,
        union: u16,
        big: usize,
        size: usize,
    ) {
        let last = k + 1 == self.n;
        // `next` holds only cells of two to n + 1 digits.
        for c in cells_of(next) {
            let m = self.b.cell[c];
            let card = count16(m) as usize;
            let u = union | m;
            let digits = count16(u) as usize;
            let set = chosen | bit(c);
            if last {
                if digits != self.n + 1 || set & self.reach == 0 {
                    continue;
                }
                self.cells[k] = c;
                self.bivalues(u, big.max(card), size + card);
            } else if digits < self.n + 2 {
                let later = next & PEERS[c] & !((2u128 << c) - 1);
                // The set still needs n - k - 1 cells, all from `later`.
                if (set | later) & self.reach == 0 || !later.at_least((self.n - k - 1) as u32) {
                    continue;
                }
                self.cells[k] = c;
                self.extend(k + 1, later, set, u, big.max(card), size + card);
            }
        }
    }

    fn bivalues(&mut self, union: u16, big: usize, size: usize) {
        let b = self.b;
        let cells = self.cells;
        let set = &cells[..self.n];
        let mut range = 0u128;
        let mut own = 0u128;
        for &c in set {
            range |= PEERS[c];
            own |= bit(c);
        }
        range &= !own;
        range &= self.bivalue;
        if own & self.fresh == 0 {
            // An unchanged set: only a changed bivalue cell makes a new wing.
            range &= self.fresh;
        }
        for yz in cells_of(range) {
            let m = b.cell[yz];
            if m & union != m {
                continue;
            }
            let x = m.trailing_zeros() as usize;
            let z = (m & (m - 1)).trailing_zeros() as usize;
            let restricted = |a: usize| {
                set.iter()
                    .all(|&c| b.cell[c] & (1 << a) == 0 || PEERS[yz] & bit(c) != 0)
            };
            let double = restricted(z);
            if restricted(x) {
                self.hint(yz, x, z, double, union, big, size);
            } else if double {
                self.hint(yz, z, x, false, union, big, size);
            }
        }
    }

    /// The cells that see every set cell holding `a` (and `yz` when given).
    fn victims(&self, a: usize, yz: Option<usize>) -> Cells {
        let mut v = yz.map_or(!0u128, |c| PEERS[c]);
        for &c in &self.cells[..self.n] {
            if self.b.cell[c] & (1 << a) != 0 {
                v &= PEERS[c];
            }
        }
        v
    }

    #[allow(clippy::too_many_arguments)]
    fn hint(
        &mut self,
        yz: usize,
        x: usize,
        z: usize,
        mut double: bool,
        union: u16,
        big: usize,
        size: usize,
    ) {
        let b = self.b;
        let mut pattern = bit(yz);
        for &c in &self.cells[..self.n] {
            pattern |= bit(c);
        }
        let mut elim = [0u128; 9];
        let (mut weak, mut strong_x) = (false, false);
        if double {
            for w in digits_of(union & !(1 << x) & !(1 << z)) {
                elim[w] = self.victims(w, None) & !pattern & b.digit[w];
                weak |= elim[w] != 0;
            }
            elim[x] = self.victims(x, Some(yz)) & !pattern & b.digit[x];
            strong_x = elim[x] != 0;
        }
        elim[z] = self.victims(z, Some(yz)) & !pattern & b.digit[z];
        let strong_z = elim[z] != 0;
        if double && !weak && (!strong_z || !strong_x) {
            double = false;
        }
        let (tech, diff) = match self.n {
            3 => (
                Technique::WXYZWing,
                5.5 + ((4 - 3) - (3i32 - big as i32).abs()) as f64 * 0.1,
            ),
            4 => (
                Technique::VWXYZWing,
                6.2 + ((5 - 3) - (3i32 - big as i32).abs()) as f64 * 0.1,
            ),
            5 => (Technique::UVWXYZWing, 6.6),
            _ => (Technique::TUVWXYZWing, 7.5),
        };
        let mut h = Hint::new(tech, diff);
        h.elim = elim;
        h.cells = pattern;
        if !h.is_worth() {
            return;
        }
        // The suffix as Sukaku Explainer writes it: "1" or "2", the largest cell, the total.
        let mut suffix = [b'1' + u8::from(double), b'0' + big as u8, 0, 0];
        let len = if size >= 10 {
            suffix[2] = b'0' + (size / 10) as u8;
            suffix[3] = b'0' + (size % 10) as u8;
            4
        } else {
            suffix[2] = b'0' + size as u8;
            3
        };
        let key = WingKey {
            diff,
            elims: elim.iter().map(|e| e.count_ones()).sum(),
            suffix,
            len,
        };
        if self.best.as_ref().is_none_or(|(k, _)| key.before(k)) {
            self.best = Some((key, h));
        }
    }
}
