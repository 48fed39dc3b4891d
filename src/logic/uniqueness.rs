//! Uniqueness techniques: unique rectangles and loops (types 1 to 4) here, and the bivalue
//! universal grave (BUG, types 1 to 4) in `bug`. Both assume the puzzle has one solution: a
//! pattern that would allow two solutions cannot be the whole story.

use super::bits::{Bits, count16};
use super::board::{
    Board, CELL_UNITS, Cells, PEERS, POS_IN_UNIT, UNIT_CELLS, UNIT_MASK, bit, cells_of,
};
use super::singles::combinations;
use super::technique::{Hint, Technique};

mod bug;
pub(crate) use bug::bug;

/// Scratch space for the loop search, kept between calls.
#[derive(Default)]
pub(crate) struct LoopScratch {
    /// By start cell, the loops its last walk found.
    walks: Vec<Walked>,
    /// The hints found so far in this call, with the kind and cells that make them distinct.
    hints: Vec<(Hint, u8, Cells)>,
}

/// The loops a walk from one start cell found, with what they depend on: the walk sees
/// only the cells holding both digits of the start's pair, and their candidates. While none
/// of them has changed (each cell's last change is no later than the clock `at`) and no cell
/// has left them, a walk finds the same loops in the same order.
#[derive(Default)]
struct Walked {
    at: u64,
    pair: u16,
    both: Cells,
    /// Cells of every loop found, one after the other.
    cells: Vec<u8>,
    /// (offset in `cells`, length) of every loop found.
    loops: Vec<(u32, u32)>,
}

/// The rating of a loop of `len` cells, as Sudoku Explainer adds it up.
fn loop_diff(len: usize) -> f64 {
    let mut r = 4.5;
    if len >= 10 {
        r += 0.3;
    }
    if len >= 8 {
        r += 0.2;
    } else if len >= 6 {
        r += 0.1;
    }
    r
}

fn loop_tech(kind: u8) -> Technique {
    match kind {
        1 => Technique::UniqueLoop1,
        2 => Technique::UniqueLoop2,
        3 | 5 => Technique::UniqueLoop3,
        _ => Technique::UniqueLoop4,
    }
}

struct Search<'a> {
    b: &'a Board,
    v1: usize,
    v2: usize,
    /// The cells holding both digits: the only ones a loop may pass through.
    both: Cells,
    path: [u8; 81],
    len: usize,
    on_path: Cells,
    out: &'a mut Walked,
    /// Node budget: the search gives up (finding nothing more) when it runs out.
    budget: u32,
}

impl Search<'_> {
    fn walk(&mut self, cell: usize, allowed_ex: i32, ex_values: u16, last_kind: usize) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        self.path[self.len] = cell as u8;
        self.len += 1;
        self.on_path |= bit(cell);
        let pair = (1u16 << self.v1) | (1u16 << self.v2);
        for kind in 0..3 {
            if kind == last_kind {
                continue;
            }
            let u = CELL_UNITS[cell][kind] as usize;
            // In increasing cell order, as the unit lists its cells.
            for next in cells_of(UNIT_MASK[u] & self.both) {
                if self.path[0] as usize == next && self.len >= 4 {
                    if self.is_valid() {
                        let start = self.out.cells.len() as u32;
                        self.out.cells.extend_from_slice(&self.path[..self.len]);
                        self.out.loops.push((start, self.len as u32));
                    }
                } else if self.on_path & bit(next) == 0 {
                    let pots = self.b.cell[next];
                    let new_ex = (ex_values | pots) & !pair;
                    let card = count16(pots);
                    if card == 2 || new_ex.one() || allowed_ex > 0 {
                        let allowed = allowed_ex - i32::from(card > 2);
                        self.walk(next, allowed, new_ex, kind);
                    }
                }
            }
        }
        self.len -= 1;
        self.on_path &= !bit(cell);
    }

    /// Sudoku Explainer's test: walking the loop, the units of the cells at even and at odd
    /// places are each met once, and they are the same units.
    fn is_valid(&self) -> bool {
        let (mut even, mut odd) = (0u32, 0u32);
        for (k, &c) in self.path[..self.len].iter().enumerate() {
            for &u in &CELL_UNITS[c as usize] {
                let m = 1u32 << u;
                let seen = if k % 2 == 1 { &mut odd } else { &mut even };
                if *seen & m != 0 {
                    return false;
                }
                *seen |= m;
            }
        }
        even == odd
    }
}

/// The cells of `both` that can lie on a valid loop through cells of `both`. On a valid loop
/// each unit holds at most one cell at even places and one at odd places
/// ([`Search::is_valid`]), so a loop cell's two neighbours are distinct cells in two
/// different units of it. Cells without two such neighbours are taken out until none is
/// left: no loop passes through them.
fn loop_core(both: Cells) -> Cells {
    let mut core = both;
    loop {
        let mut next = core;
        for c in cells_of(core) {
            let (mut kinds, mut union) = (0, 0 as Cells);
            for &u in &CELL_UNITS[c] {
                let near = UNIT_MASK[u as usize] & core & !bit(c);
                kinds += u32::from(near != 0);
                union |= near;
            }
            if kinds < 2 || !union.many() {
                next &= !bit(c);
            }
        }
        if next == core {
            return core;
        }
        core = next;
    }
}

/// Unique rectangles and loops: the first hint after sorting all of them by rating, then type.
///
/// Walks start only from cells in their pair's [`loop_core`] (a walk from any other finds no
/// loop), and a walk whose cells have not changed since the last one from its start
/// ([`Walked`]; `changed` is the clock of each cell's last change, `clock` the step's) is
/// not made again: its loops are taken as they were.
pub(crate) fn unique_loops(
    b: &Board,
    s: &mut LoopScratch,
    clock: u64,
    changed: &[u64; 81],
) -> Option<Hint> {
    unique_loops_from(b, s, Some((clock, changed)))
}

/// [`unique_loops`], walking from every bivalue cell and keeping nothing when not given a
/// clock.
fn unique_loops_from(
    b: &Board,
    s: &mut LoopScratch,
    since: Option<(u64, &[u64; 81])>,
) -> Option<Hint> {
    s.hints.clear();
    if s.walks.is_empty() {
        s.walks.resize_with(81, Walked::default);
    }
    // Per pair of digits (bit v1 * 9 + v2), its loop core, once made.
    let mut cores = [None::<Cells>; 81];
    for start in cells_of(b.empty) {
        let m = b.cell[start];
        if m.count_ones() != 2 {
            continue;
        }
        let v1 = m.trailing_zeros() as usize;
        let v2 = (m & (m - 1)).trailing_zeros() as usize;
        let both = b.digit[v1] & b.digit[v2];
        let walked = &mut s.walks[start];
        if let Some((clock, changed)) = since {
            let core = *cores[v1 * 9 + v2].get_or_insert_with(|| loop_core(both));
            if core & bit(start) == 0 {
                continue;
            }
            let kept = walked.pair == m
                && walked.both == both
                && cells_of(both).all(|c| changed[c] <= walked.at);
            if !kept {
                walk(b, start, v1, v2, walked);
                (walked.at, walked.pair, walked.both) = (clock, m, both);
            }
        } else {
            walk(b, start, v1, v2, walked);
            walked.at = 0;
        }
        for &(off, len) in &walked.loops {
            let (off, len) = (off as usize, len as usize);
            loop_hints(b, &walked.cells[off..off + len], v1, v2, &mut s.hints);
        }
    }
    // Sorting is stable: among equal ratings and types, the first found wins.
    // Type 3 has a naked (kind 3) and a hidden (kind 5) form; both sort as type 3.
    let sort_type = |kind: u8| if kind == 5 { 3 } else { kind };
    s.hints
        .iter()
        .min_by(|a, c| {
            a.0.diff
                .total_cmp(&c.0.diff)
                .then(sort_type(a.1).cmp(&sort_type(c.1)))
        })
        .map(|h| h.0)
}

/// Walks from `start` along the cells holding digits `v1` and `v2`, into `out`.
fn walk(b: &Board, start: usize, v1: usize, v2: usize, out: &mut Walked) {
    out.cells.clear();
    out.loops.clear();
    let mut search = Search {
        b,
        v1,
        v2,
        both: b.digit[v1] & b.digit[v2],
        path: [0; 81],
        len: 0,
        on_path: 0,
        out,
        budget: 200_000,
    };
    search.walk(start, 2, 0, usize::MAX);
}

fn push(hints: &mut Vec<(Hint, u8, Cells)>, h: Hint, kind: u8, set: Cells) {
    // Sudoku Explainer keeps the first hint of each kind on each loop.
    if hints.iter().any(|(_, k, s)| *k == kind && *s == set) {
        return;
    }
    if h.is_worth() {
        hints.push((h, kind, set));
    }
}

fn loop_hints(b: &Board, lp: &[u8], v1: usize, v2: usize, hints: &mut Vec<(Hint, u8, Cells)>) {
    let set: Cells = lp.iter().fold(0, |s, &c| s | bit(c as usize));
    let pair = (1u16 << v1) | (1u16 << v2);
    let base = loop_diff(lp.len());
    let mut extra = [0usize; 81];
    let mut n = 0;
    for &c in lp {
        if b.cell[c as usize].count_ones() > 2 {
            extra[n] = c as usize;
            n += 1;
        }
    }
    let extra = &extra[..n];
    let mk = |kind: u8, diff: f64| {
        let mut h = Hint::new(loop_tech(kind), diff);
        h.cells = set;
        h
    };
    if n == 1 {
        let mut h = mk(1, base);
        h.elim[v1] = b.digit[v1] & bit(extra[0]);
        h.elim[v2] = b.digit[v2] & bit(extra[0]);
        push(hints, h, 1, set);
    } else if n > 2 {
        push(hints, type2(b, extra, pair, mk(2, base)), 2, set);
    } else if n == 2 {
        let (c1, c2) = (extra[0], extra[1]);
        let others = (b.cell[c1] | b.cell[c2]) & !pair;
        if others.count_ones() == 1 {
            push(hints, type2(b, extra, pair, mk(2, base)), 2, set);
        } else if others.count_ones() >= 2 {
            type3(b, c1, c2, v1, v2, others, base, set, hints);
        }
        if let Some(h) = type4(b, c1, c2, v1, v2, base, set) {
            push(hints, h, 4, set);
        }
    }
}

fn type2(b: &Board, extra: &[usize], pair: u16, mut h: Hint) -> Hint {
    let value = (b.cell[extra[0]] & !pair).trailing_zeros() as usize;
    let mut common = !0u128;
    let mut all = 0u128;
    for &c in extra {
        common &= PEERS[c];
        all |= bit(c);
    }
    h.elim[value] = b.digit[value] & common & !all;
    h
}

/// Type 3: the extra candidates of the two cells act as one cell in a naked set with other
/// cells of a unit they share, or the loop digits form a hidden set there.
#[allow(clippy::too_many_arguments)]
fn type3(
    b: &Board,
    c1: usize,
    c2: usize,
    v1: usize,
    v2: usize,
    extra: u16,
    base: f64,
    set: Cells,
    hints: &mut Vec<(Hint, u8, Cells)>,
) {
    let pair = (1u16 << v1) | (1u16 << v2);
    for degree in 2..=7u32 {
        for kind in 0..3 {
            let u = CELL_UNITS[c1][kind] as usize;
            if u != CELL_UNITS[c2][kind] as usize {
                continue;
            }
            let empty = b.empty_in(u);
            let (i1, i2) = (POS_IN_UNIT[c1][kind], POS_IN_UNIT[c2][kind]);
            let cells = &UNIT_CELLS[u];
            if degree * 2 <= empty && degree >= extra.count_ones() {
                for comb in combinations(degree, 9) {
                    if comb & (1 << i1) == 0 || comb & (1 << i2) != 0 {
                        continue;
                    }
                    // The naked set: c1 stands for both cells with the extra digits.
                    let mut naked = extra & b.cell[c1] & b.cell[c2];
                    let mut union = 0u16;
                    let mut ok = true;
                    let mut others = 0u128;
                    for k in super::board::digits_of(comb as u16) {
                        let pots = if k == i1 as usize {
                            extra
                        } else {
                            let c = cells[k] as usize;
                            others |= bit(c);
                            naked |= b.cell[c];
                            b.cell[c]
                        };
                        if pots.count_ones() <= 1 {
                            ok = false;
                        }
                        union |= pots;
                    }
                    if naked.count_ones() != degree || !ok || union.count_ones() != degree {
                        continue;
                    }
                    let diff = base + (degree - 1) as f64 * 0.1;
                    let mut h = Hint::new(Technique::UniqueLoop3, diff);
                    h.cells = set | others;
                    let rest = UNIT_MASK[u] & !others & !bit(c1) & !bit(c2);
                    for d in super::board::digits_of(union) {
                        h.elim[d] = b.digit[d] & rest;
                    }
                    push(hints, h, 3, set);
                }
            }
            if degree * 2 < empty {
                let rem = 0x1ff & !pair & !extra;
                let rem_digits: Vec<usize> = super::board::digits_of(rem).collect();
                if (degree - 2) as usize <= rem_digits.len() {
                    for comb in combinations(degree - 2, rem_digits.len() as u32) {
                        let mut values = pair;
                        for k in super::board::digits_of(comb as u16) {
                            values |= 1 << rem_digits[k];
                        }
                        let mut union = 0u128;
                        let mut ok = true;
                        for d in super::board::digits_of(values) {
                            let p = b.digit[d] & UNIT_MASK[u] & !bit(c2);
                            if p == 0 {
                                ok = false;
                            }
                            union |= p;
                        }
                        if !ok || union.count_ones() != degree {
                            continue;
                        }
                        let hidden = union & !bit(c1) & !bit(c2);
                        let diff = base + (hidden.count_ones() as f64 - 1.0) * 0.1;
                        let mut h = Hint::new(Technique::UniqueLoop3, diff);
                        h.cells = set | hidden;
                        for d in 0..9 {
                            if values & (1 << d) == 0 {
                                h.elim[d] = b.digit[d] & hidden;
                            }
                        }
                        push(hints, h, 5, set);
                    }
                }
            }
        }
    }
}

fn type4(
    b: &Board,
    c1: usize,
    c2: usize,
    v1: usize,
    v2: usize,
    base: f64,
    set: Cells,
) -> Option<Hint> {
    let (mut r1, mut r2) = (false, false);
    let both = bit(c1) | bit(c2);
    for kind in 0..3 {
        let u = CELL_UNITS[c1][kind] as usize;
        if u != CELL_UNITS[c2][kind] as usize {
            continue;
        }
        let rest = UNIT_MASK[u] & !both;
        if b.digit[v1] & rest == 0 {
            r1 = true;
        }
        if b.digit[v2] & rest == 0 {
            r2 = true;
        }
    }
    let gone = if r1 {
        v2
    } else if r2 {
        v1
    } else {
        return None;
    };
    let mut h = Hint::new(Technique::UniqueLoop4, base);
    h.cells = set;
    h.elim[gone] = b.digit[gone] & both;
    Some(h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::tests::{each_step, sample_rated};

    #[test]
    fn walks_skipped_or_kept_find_what_walks_from_every_cell_find() {
        // At every step of these puzzles (ER 4.5 and up, where loops are looked for), the
        // search walking only from cells in their pair's loop core, and taking the loops of
        // walks whose cells have not changed as they were, finds what walking from every
        // bivalue cell finds.
        let puzzles = sample_rated(4.5..20.0);
        let (mut kept, mut full) = (LoopScratch::default(), LoopScratch::default());
        let mut found = 0;
        let checked = each_step(&puzzles, |p, b, memo| {
            let want = unique_loops_from(b, &mut full, None);
            let got = unique_loops(b, &mut kept, memo.clock(), memo.cell_changed());
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{p}");
            found += usize::from(want.is_some());
        });
        assert!(
            checked > 2000 && found > 20,
            "{checked} steps, {found} found"
        );
    }
}
