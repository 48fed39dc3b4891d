//! Sukaku Explainer's strong-link chains on one digit: two (Skyscraper, 2-String Kite, turbot
//! shapes, 4.0-4.3), three (5.4-5.7) or four (5.8-6.1) strong links joined end to end by weak
//! links, and the loops they close.
//!
//! A strong link is a unit where the digit has two places, or its places fall in two groups
//! (two segments of a row or column; in a box, one row and one column through a "heart" cell,
//! or two rows or two columns of the box). Consecutive links are joined when an end of one and
//! an end of the next (all cells of a group) share a column, row or box; the digit then leaves
//! the cells that see both far ends. When the far ends share a unit too, the chain is a loop,
//! and every weak link eliminates as well.
//!
//! The search follows Sukaku Explainer's order exactly: the kinds of unit of the links (boxes,
//! rows, columns, non-decreasing), the digit, the units in increasing order, each link's
//! groupings, then the orders and directions in which the links chain. All hints are sorted by
//! rating, then by more removals, then by the name suffix; the first is applied.

use super::board::{BOX0, Board, COL0, Cells, PEERS, ROW0, UNIT_CELLS, UNIT_MASK, bit};
use super::singles::combinations;
use super::technique::{Hint, Technique};

/// One end of a link: up to three cells, the first always there.
type Group = [Option<u8>; 3];

/// A strong link: its unit, the digit's places there, whether they are grouped, its two ends.
#[derive(Clone, Copy)]
struct Link {
    unit: u8,
    places: Cells,
    grouped: bool,
    ends: [Group; 2],
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

fn mask(positions: &[u8]) -> u16 {
    positions.iter().fold(0, |m, &p| m | 1 << p)
}

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
fn unit_links(b: &Board, d: usize, u: usize, out: &mut Vec<Link>) {
    let cells = &UNIT_CELLS[u];
    let mut p = 0u16;
    for (k, &c) in cells.iter().enumerate() {
        if b.has(c as usize, d) {
            p |= 1 << k;
        }
    }
    let count = p.count_ones();
    if count <= 1 || count > 6 {
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
            let empty = if is_box { BOX_EMPTY[e] } else { LINE_EMPTY[e] };
            b1 = p;
            b2 = p;
            heart = p;
            if p & mask(empty) == 0 {
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
fn group_cells(g: &Group) -> Cells {
    g.iter().flatten().fold(0, |s, &c| s | bit(c as usize))
}

/// The unit that holds every cell of two groups: a column, else a row, else a box.
fn shared_unit(a: &Group, b: &Group) -> Option<usize> {
    let all = group_cells(a) | group_cells(b);
    let first = a[0].unwrap() as usize;
    let (r, c) = (first / 9, first % 9);
    let bx = r / 3 * 3 + c / 3;
    [COL0 + c, ROW0 + r, BOX0 + bx]
        .into_iter()
        .find(|&u| all & !UNIT_MASK[u] == 0)
}

/// The cells that see every cell of a group.
fn seeing(g: &Group) -> Cells {
    g.iter()
        .flatten()
        .fold(!0u128, |s, &c| s & PEERS[c as usize])
}

/// Sukaku Explainer's name for the kinds of unit in chain order: 0 box, 1 row, 2 column, with
/// rows and columns swapped or the sequence read backwards where that reads smaller.
fn line_name(set: &[u8]) -> ([u8; 4], usize) {
    let n = set.len();
    let mut orig = [0u8; 4];
    let mut lines = [0u8; 4];
    let mut current = [0u8; 4];
    let mut reverse = [0u8; 4];
    let mut one = false;
    for (i, &s) in set.iter().enumerate() {
        orig[i] = s;
        lines[i] = if s == 2 { 1 } else { s };
        let swapped = match s {
            1 => {
                one = true;
                2
            }
            2 => 1,
            x => x,
        };
        current[i] = swapped;
        reverse[n - 1 - i] = swapped;
    }
    if reverse[..n] > current[..n] {
        reverse = current;
    }
    if one {
        if orig[..n] > reverse[..n] {
            (reverse, n)
        } else {
            (orig, n)
        }
    } else {
        (lines, n)
    }
}

/// The key that orders the hints: rating, then more removals, then the suffix.
#[derive(Clone, Copy)]
struct Key {
    diff: f64,
    elims: u32,
    suffix: [u8; 5],
}

impl Key {
    fn before(&self, o: &Key) -> bool {
        match self.diff.total_cmp(&o.diff) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => {
                if self.elims != o.elims {
                    self.elims > o.elims
                } else {
                    self.suffix < o.suffix
                }
            }
        }
    }
}

struct Search<'a> {
    b: &'a Board,
    n: usize,
    d: usize,
    kinds: [u8; 4],
    links: [Vec<Link>; 3],
    chosen: [Link; 4],
    best: Option<(Key, Hint)>,
}

/// The best chain of `n` strong links (2, 3 or 4).
pub(crate) fn strong_links(b: &Board, n: usize) -> Option<Hint> {
    let blank = Link {
        unit: 0,
        places: 0,
        grouped: false,
        ends: [[None; 3]; 2],
    };
    let mut s = Search {
        b,
        n,
        d: 0,
        kinds: [0; 4],
        links: [Vec::new(), Vec::new(), Vec::new()],
        chosen: [blank; 4],
        best: None,
    };
    // The kinds of unit: positions 0..3n taken n at a time, position i of kind index / n,
    // kept when index % n == i; this yields the non-decreasing sequences in Sukaku
    // Explainer's order.
    for comb in combinations(n as u32, 3 * n as u32) {
        let mut ok = true;
        let mut i = 0;
        for idx in 0..3 * n {
            if comb & (1 << idx) != 0 {
                if idx % n != i {
                    ok = false;
                    break;
                }
                s.kinds[i] = (idx / n) as u8;
                i += 1;
            }
        }
        if !ok {
            continue;
        }
        for d in 0..9 {
            s.d = d;
            for kind in 0..3 {
                s.links[kind].clear();
                let first = [BOX0, ROW0, COL0][kind];
                for u in first..first + 9 {
                    unit_links(b, d, u, &mut s.links[kind]);
                }
            }
            s.extend(0, 0, 0);
        }
    }
    s.best.map(|(_, h)| h)
}

impl Search<'_> {
    /// Chooses link `depth` from units after `after` when the previous link is of the same
    /// kind, whose places do not touch the earlier links' (`used`).
    fn extend(&mut self, depth: usize, after: usize, used: Cells) {
        let kind = self.kinds[depth] as usize;
        let same = depth > 0 && self.kinds[depth - 1] as usize == kind;
        for li in 0..self.links[kind].len() {
            let link = self.links[kind][li];
            let index = link.unit as usize % 9;
            if same && index <= after {
                continue;
            }
            if link.places & used != 0 {
                continue;
            }
            self.chosen[depth] = link;
            if depth + 1 < self.n {
                self.extend(depth + 1, index, used | link.places);
            } else {
                self.chains();
            }
        }
    }

    /// Every order (read one way) and direction in which the chosen links chain.
    fn chains(&mut self) {
        let n = self.n;
        let mut q = [0usize, 1, 2, 3];
        let mut r = [0usize, 1, 2, 3, 4];
        r[n] = n;
        self.orders(&q[..n]);
        let mut s = 1;
        while s < n {
            r[s] -= 1;
            let t = s % 2 * r[s];
            q.swap(t, s);
            self.orders(&q[..n]);
            s = 1;
            while r[s] == 0 {
                r[s] = s;
                s += 1;
            }
        }
    }

    fn orders(&mut self, q: &[usize]) {
        let n = self.n;
        let reversed_smaller = (0..n).map(|i| q[n - 1 - i]).lt(q.iter().copied());
        if reversed_smaller {
            return;
        }
        for bits in 0..1u32 << n {
            // u[0] is the most significant bit: Sukaku Explainer counts with the last fastest.
            let u = |i: usize| (bits >> (n - 1 - i)) as usize & 1;
            let mut shared = [0usize; 3];
            let mut ok = true;
            for w in 0..n - 1 {
                let b1 = &self.chosen[q[w]].ends[1 - u(w)];
                let b2 = &self.chosen[q[w + 1]].ends[u(w + 1)];
                match shared_unit(b1, b2) {
                    Some(su) => shared[w] = su,
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            let start = self.chosen[q[0]].ends[u(0)];
            let end = self.chosen[q[n - 1]].ends[1 - u(n - 1)];
            match shared_unit(&start, &end) {
                Some(_) => {
                    let min_unit = (0..n).map(|i| self.chosen[i].unit).min().unwrap();
                    if self.chosen[q[0]].unit == min_unit && u(0) == 0 {
                        self.hint(q, &|i| u(i), &shared[..n - 1], true);
                    }
                }
                None => self.hint(q, &|i| u(i), &shared[..n - 1], false),
            }
        }
    }

    fn hint(&mut self, q: &[usize], u: &dyn Fn(usize) -> usize, shared: &[usize], ring: bool) {
        let (n, d, b) = (self.n, self.d, self.b);
        let start = self.chosen[q[0]].ends[u(0)];
        let end = self.chosen[q[n - 1]].ends[1 - u(n - 1)];
        let mut bases = 0u128;
        let mut pattern = 0u128;
        let mut grouped = 0;
        for i in 0..n {
            bases |= UNIT_MASK[self.chosen[i].unit as usize];
            pattern |= self.chosen[i].places;
            grouped += usize::from(self.chosen[i].grouped);
        }
        // A group's other cells count only for a grouped link.
        let ends_seen = |g: &Group, grouped: bool| {
            let mut v = PEERS[g[0].unwrap() as usize];
            if grouped && g[1].is_some() {
                v &= PEERS[g[1].unwrap() as usize];
                if let Some(c) = g[2] {
                    v &= PEERS[c as usize];
                }
            }
            v
        };
        let mut victims = ends_seen(&start, self.chosen[q[0]].grouped)
            & ends_seen(&end, self.chosen[q[n - 1]].grouped);
        victims &= !(bit(start[0].unwrap() as usize) | bit(end[0].unwrap() as usize));
        victims &= !bases;
        let mut elim = 0u128;
        let mut count = 0;
        if !ring {
            for &s in shared {
                victims &= !UNIT_MASK[s];
            }
            elim = victims & b.digit[d];
            count = elim.count_ones();
        } else {
            let v = victims & b.digit[d];
            elim |= v;
            count += v.count_ones();
            for w in 0..n - 1 {
                let b1 = &self.chosen[q[w]].ends[1 - u(w)];
                let b2 = &self.chosen[q[w + 1]].ends[u(w + 1)];
                let mut v = seeing(b1) & seeing(b2);
                v &= !(bit(b1[0].unwrap() as usize) | bit(b2[0].unwrap() as usize));
                v &= !bases;
                let v = v & b.digit[d];
                elim |= v;
                count += v.count_ones();
            }
        }
        if elim == 0 {
            return;
        }
        // The kind of each link in chain order: units 0..9 are boxes (kind 0), 9..18 rows
        // (1), 18..27 columns (2).
        let mut kinds = [0u8; 4];
        for i in 0..n {
            kinds[i] = self.chosen[q[i]].unit / 9;
        }
        let kinds = &kinds[..n];
        let reversed: Vec<u8> = kinds.iter().rev().copied().collect();
        let (name, len) = if kinds <= &reversed[..] {
            line_name(kinds)
        } else {
            line_name(&reversed)
        };
        let mut suffix = [0u8; 5];
        suffix[0] = b'0' + grouped as u8;
        for i in 0..len {
            suffix[1 + i] = b'0' + name[i];
        }
        let tail = &suffix[1..=len];
        let base = [0.0, 4.0, 5.4, 5.8][n - 1];
        let diff = if grouped > 0 || tail.iter().any(|&c| c >= b'3') {
            base + 0.3
        } else if !tail.contains(&b'0') && !tail.contains(&b'2') {
            base
        } else if tail.contains(&b'0') && tail.contains(&b'2') {
            base + 0.2
        } else {
            base + 0.1
        };
        let tech = match n {
            2 if ring => Technique::TwoStrongLinks,
            2 if !tail.contains(&b'0') && !tail.contains(&b'2') => Technique::Skyscraper,
            2 if !tail.contains(&b'0') => Technique::TwoStringKite,
            2 => Technique::TwoStrongLinks,
            3 => Technique::ThreeStrongLinks,
            _ => Technique::FourStrongLinks,
        };
        let key = Key {
            diff,
            elims: count,
            suffix,
        };
        if self.best.as_ref().is_none_or(|(k, _)| key.before(k)) {
            let mut h = Hint::new(tech, diff);
            h.elim[d] = elim;
            h.cells = pattern;
            self.best = Some((key, h));
        }
    }
}
