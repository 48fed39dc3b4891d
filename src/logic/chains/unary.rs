//! Bidirectional cycles and forcing chains on a fixed grid: X (links of one digit), Y
//! (bivalue cells) and both together, rated 6.5 to 7.0 plus length.
//!
//! Sudoku Explainer searches three passes (X, then Y, then XY), from every candidate in cell
//! order, and sorts all the hints by rating, length and kind; the first is applied. We search
//! in the same order and keep the best hint so far, which lets every search stop at the
//! length where it could no longer beat it: the winner is the same, found with less work.
//!
//! A forcing chain's potentials are unique (the first discovery of a potential is kept), so
//! its length is its depth in a level-by-level search. A cycle search keeps every path to an
//! "off" potential that does not pass through that potential already, as Sudoku Explainer
//! does, because each such path can close its own cycle.
//!
//! This file owns the searches that keep paths and the best hint; `links` the links out of
//! one potential; `sweep` holds the set-wise
//! breadth-first sweeps that tell those searches where they can still win, `collect`
//! gathers every chain on a grid as nested hints for dynamic chains (levels 2 and 3), and
//! `reach` tells both searches, for all sources at once, which of them can find any;
//! `x_pass` keeps each digit's X pass while the digit's places stay the same, and
//! `x_collect` each digit's X chains as nested hints.

mod collect;
mod links;
mod reach;
mod sweep;
mod x_collect;
mod x_pass;

use super::super::board::{Board, PEERS, bit, cells_of, digits_of};
use super::super::technique::{Hint, Technique};
use super::{KEYS, SortKey, cell_of, conjugate, digit_of, is_on, key};
pub(crate) use links::{OffLinks, off_to_on, on_to_off};
use sweep::Graph;

const NONE: u32 = u32::MAX;

/// One bit of 128 standing for an "off" key (its cell and digit): keys with different marks
/// are different keys.
#[inline(always)]
fn mark(k: usize) -> u128 {
    1u128 << ((k >> 1) & 127)
}

/// Scratch memory of the unary search, kept between calls.
pub(crate) struct Unary {
    epoch: u32,
    /// Per key: the search generation that reached it.
    stamp: Vec<u32>,
    /// Per key: the key it was reached from (forcing chains), or for "on" keys in a cycle
    /// search, the index of the "off" path node it was reached from.
    parent: Vec<u32>,
    /// Cycle search "off" nodes: (key, parent "on" key).
    objs: Vec<(u16, u16)>,
    /// Per "off" node of `objs`: the `mark`s of the "off" keys on its path, itself included,
    /// so that most keys are known to be off the path without walking it.
    marks: Vec<u128>,
    cur: Vec<u16>,
    next: Vec<u16>,
    path: Vec<u16>,
    links: OffLinks,
    /// What every potential of the grid searched reaches, for the pass under way.
    reach: reach::Reach,
    /// Each digit's X pass, kept while its places are the same.
    x_kept: [x_pass::Kept; 9],
    /// Each digit's X chains as nested hints, kept by what they depend on.
    x_collect: x_collect::XKept,
}

impl Default for Unary {
    fn default() -> Self {
        Unary {
            epoch: 0,
            stamp: vec![0; KEYS],
            parent: vec![NONE; KEYS],
            objs: Vec::new(),
            marks: Vec::new(),
            cur: Vec::new(),
            next: Vec::new(),
            path: Vec::new(),
            links: OffLinks::default(),
            reach: reach::Reach::default(),
            x_kept: [x_pass::Kept::default(); 9],
            x_collect: Default::default(),
        }
    }
}

/// The best hint so far and its sort key.
pub(crate) struct Best {
    pub key: SortKey,
    pub hint: Option<Hint>,
}

impl Best {
    /// No hint yet: everything beats it.
    pub fn none() -> Best {
        Best {
            key: SortKey {
                diff: f64::INFINITY,
                complexity: u32::MAX,
                rank: u8::MAX,
            },
            hint: None,
        }
    }

    /// True when a hint with key `k` would replace the best.
    #[inline]
    pub fn beaten_by(&self, k: &SortKey) -> bool {
        k.before(&self.key)
    }
}

impl Unary {
    fn next_gen(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }

    /// The best cycle or forcing chain, searching X, then Y, then XY links.
    pub fn find(&mut self, b: &Board, best: &mut Best) {
        // The links as sets, for the sweeps: worked out at the first one, as most grids
        // where the unary rungs find nothing need none.
        let mut graph = None;
        self.x_pass(b, &mut graph, best);
        for (y, x) in [(true, false), (true, true)] {
            self.pass(b, &mut graph, y, x, 0x1ff, best);
        }
    }

    /// One pass of [`find`](Self::find): the cycles and forcing chains of one kind of links
    /// from the candidates of `digits` (all nine but for X links, which never leave their
    /// digit), in cell order. Returns the cell of the source whose search last improved
    /// `best`, if any did.
    fn pass(
        &mut self,
        b: &Board,
        graph: &mut Option<Graph>,
        y: bool,
        x: bool,
        digits: u16,
        best: &mut Best,
    ) -> Option<usize> {
        let (rank, _, _) = Self::kind(y, x);
        let cycle_base = if y && x { 7.0 } else { 6.5 };
        let chain_base = if y { 7.0 } else { 6.6 };
        // A pass whose easiest hint (a cycle closes at 4 potentials, a forcing chain rests
        // on at least 2; Y links alone make no forcing chains) could not beat the best so
        // far is not searched: after an X-Cycle or a forcing X-Chain rated below 7.0 the
        // XY pass, the costliest, never is.
        let (cycle_min, chain_min) = (
            SortKey::new(cycle_base, 4, rank),
            SortKey::new(chain_base, 2, rank),
        );
        let open = |best: &Best| best.beaten_by(&cycle_min) || x && best.beaten_by(&chain_min);
        if !open(best) {
            return None;
        }
        let mut improved = None;
        self.links.start();
        // Most sources close no cycle and reach no contradiction: one pass over the grid's
        // links says which, sooner than a sweep from each of them.
        self.reach.build(b, y, x, digits);
        for c in cells_of(b.empty) {
            let n = b.cell[c].count_ones();
            if n < 2 || (!x && n > 2) {
                continue;
            }
            // The same holds for the rest of the pass once the best has improved.
            if !open(best) {
                break;
            }
            let before = best.key;
            for d in digits_of(b.cell[c] & digits) {
                let source = key(c, d, true);
                // A breadth-first sweep over sets gives the forcing chain's exact length
                // and a lower bound for the cycle's; the searches that keep paths run
                // only where they can still beat the best hint.
                let cycle_ok = |k: u32| best.beaten_by(&SortKey::new(cycle_base, 2 * k, rank));
                let chain_ok =
                    |level: u32| best.beaten_by(&SortKey::new(chain_base, level + 1, rank));
                // Only a cycle that removes a candidate is a hint.
                let may_cycle = self.reach.may_remove(source);
                #[cfg(test)]
                if !may_cycle && self.reach.may_cycle(source) {
                    self.check_no_cycle_hint(b, source, y, x);
                }
                let (cycle_at, chain_at) = if may_cycle || x && self.reach.reaches_conjugate(source)
                {
                    graph.get_or_insert_with(|| Graph::new(b)).sweep(
                        b,
                        source,
                        y,
                        x,
                        if may_cycle { &cycle_ok } else { &|_| false },
                        if x { &chain_ok } else { &|_| false },
                    )
                } else {
                    (None, None)
                };
                if cycle_at.is_some() {
                    self.cycles(b, source, y, x, best);
                }
                if x {
                    if chain_at
                        .is_some_and(|l| best.beaten_by(&SortKey::new(chain_base, l + 1, rank)))
                    {
                        self.forcing(b, source, y, best);
                    }
                    let chain_ok =
                        |level: u32| best.beaten_by(&SortKey::new(chain_base, level + 1, rank));
                    if self.reach.reaches_conjugate(conjugate(source))
                        && graph
                            .get_or_insert_with(|| Graph::new(b))
                            .sweep(b, conjugate(source), y, true, &|_| false, &chain_ok)
                            .1
                            .is_some()
                    {
                        self.forcing(b, conjugate(source), y, best);
                    }
                }
            }
            if best.key != before {
                improved = Some(c);
            }
        }
        improved
    }

    fn kind(y: bool, x: bool) -> (u8, Technique, Technique) {
        match (y, x) {
            (true, true) => (4, Technique::BidirectionalCycle, Technique::ForcingChain),
            (true, false) => (3, Technique::YCycle, Technique::ForcingChain),
            _ => (2, Technique::XCycle, Technique::ForcingXChain),
        }
    }

    /// A forcing chain from `source`: the search stops at the first potential that
    /// contradicts the source (its conjugate), which proves the opposite of the source.
    fn forcing(&mut self, b: &Board, source: usize, y: bool, best: &mut Best) {
        let base = if y { 7.0 } else { 6.6 };
        let (rank, _, tech) = Self::kind(y, true);
        let epoch = self.next_gen();
        self.stamp[source] = epoch;
        self.parent[source] = NONE;
        self.cur.clear();
        self.cur.push(source as u16);
        let target = conjugate(source);
        let mut level = 0u32;
        let mut buf = [0u16; 32];
        let mut buf4 = [0u16; 4];
        while !self.cur.is_empty() {
            // Nodes made now sit at level + 1: a target there rests on level + 2 potentials.
            if !best.beaten_by(&SortKey::new(base, level + 2, rank)) {
                return;
            }
            self.next.clear();
            for i in 0..self.cur.len() {
                let p = self.cur[i] as usize;
                let n = if is_on(p) {
                    on_to_off(b, p, y, &mut buf)
                } else {
                    let n = self.links.get(b, p, y, true, &mut buf4);
                    buf[..n].copy_from_slice(&buf4[..n]);
                    n
                };
                for &q in &buf[..n] {
                    let q = q as usize;
                    if q == target {
                        self.parent[q] = p as u32;
                        self.stamp[q] = epoch;
                        let key = SortKey::new(base, level + 2, rank);
                        let mut h = Hint::new(tech, key.diff);
                        let (c, d) = (cell_of(q), digit_of(q));
                        if is_on(q) {
                            for e in digits_of(b.cell[c] & !(1 << d)) {
                                h.elim[e] = bit(c);
                            }
                            h.place = Some((c as u8, d as u8));
                        } else {
                            h.elim[d] = bit(c);
                        }
                        h.cells = self.chain_cells(q);
                        if h.is_worth() && best.beaten_by(&key) {
                            best.key = key;
                            best.hint = Some(h);
                        }
                        return;
                    }
                    // A potential that does not lead to the target is never a parent of one
                    // that does: leaving it out changes nothing else.
                    if self.stamp[q] != epoch && self.reach.reaches(q, target) {
                        self.stamp[q] = epoch;
                        self.parent[q] = p as u32;
                        self.next.push(q as u16);
                    }
                }
            }
            std::mem::swap(&mut self.cur, &mut self.next);
            level += 1;
        }
    }

    fn chain_cells(&self, mut k: usize) -> u128 {
        let mut cells = 0u128;
        loop {
            cells |= bit(cell_of(k));
            let p = self.parent[k];
            if p == NONE {
                return cells;
            }
            k = p as usize;
        }
    }

    /// Adds the "off" node `q` reached from the "on" key `p`, unless `q` lies on the path
    /// that leads to `p`. `path` is `path_marks(p)`.
    #[inline]
    fn offer(&mut self, p: usize, q: u16, path: u128) {
        let m = mark(q as usize);
        if path & m != 0 && self.on_path(p, q as usize) {
            return;
        }
        self.objs.push((q, p as u16));
        self.marks.push(path | m);
    }

    /// The marks of the "off" keys on the path that leads to the "on" key `p`.
    #[inline]
    fn path_marks(&self, p: usize) -> u128 {
        match self.parent[p] {
            NONE => 0,
            o => self.marks[o as usize],
        }
    }

    /// True when the "off" key `q` lies on the path that leads to the "on" key `p`.
    fn on_path(&self, mut p: usize, q: usize) -> bool {
        loop {
            let o = self.parent[p];
            if o == NONE {
                return false;
            }
            let (ok, op) = self.objs[o as usize];
            if ok as usize == q {
                return true;
            }
            p = op as usize;
        }
    }

    /// Under test, the cycles through `source` that `reach` says remove nothing make no hint.
    #[cfg(test)]
    fn check_no_cycle_hint(&mut self, b: &Board, source: usize, y: bool, x: bool) {
        let mut any = Best::none();
        self.cycles(b, source, y, x, &mut any);
        assert!(any.hint.is_none(), "{source} {y} {x}");
    }

    /// Cycles through `source` (an "on" key).
    fn cycles(&mut self, b: &Board, source: usize, y: bool, x: bool, best: &mut Best) {
        let base = if y && x { 7.0 } else { 6.5 };
        let (rank, tech, _) = Self::kind(y, x);
        let epoch = self.next_gen();
        self.stamp[source] = epoch;
        self.parent[source] = NONE;
        self.objs.clear();
        self.marks.clear();
        self.cur.clear();
        self.cur.push(source as u16);
        let mut buf = [0u16; 32];
        let mut buf4 = [0u16; 4];
        let mut iteration = 0u32;
        while !self.cur.is_empty() {
            iteration += 1;
            // Cycles closed in this iteration rest on 2 * iteration potentials.
            let length = 2 * iteration;
            if iteration >= 2 && !best.beaten_by(&SortKey::new(base, length, rank)) {
                return;
            }
            let first = self.objs.len();
            for i in 0..self.cur.len() {
                let p = self.cur[i] as usize;
                let n = on_to_off(b, p, y, &mut buf);
                let path = self.path_marks(p);
                for &q in &buf[..n] {
                    // Only the source's component leads back to it, and only through itself.
                    if self.reach.linked(q as usize, source) {
                        self.offer(p, q, path);
                    }
                }
            }
            self.next.clear();
            for oi in first..self.objs.len() {
                let q = self.objs[oi].0 as usize;
                let n = self.links.get(b, q, y, x, &mut buf4);
                for &r in &buf4[..n] {
                    let r = r as usize;
                    if iteration >= 2 && r == source {
                        let key = SortKey::new(base, length, rank);
                        if best.beaten_by(&key)
                            && let Some(h) = self.cycle_hint(b, oi, source, tech, key.diff)
                        {
                            best.key = key;
                            best.hint = Some(h);
                        }
                    }
                    if self.stamp[r] != epoch && self.reach.linked(r, source) {
                        self.stamp[r] = epoch;
                        self.parent[r] = oi as u32;
                        self.next.push(r as u16);
                    }
                }
            }
            std::mem::swap(&mut self.cur, &mut self.next);
        }
    }

    /// The eliminations of the cycle closed by "off" node `oi`: candidates that see an "on"
    /// potential of the cycle and an "off" potential of the same digit.
    fn cycle_hint(
        &mut self,
        b: &Board,
        oi: usize,
        source: usize,
        tech: Technique,
        diff: f64,
    ) -> Option<Hint> {
        self.path.clear();
        self.path.push(source as u16);
        let mut o = oi;
        loop {
            let (ok, op) = self.objs[o];
            self.path.push(ok);
            let op = op as usize;
            let po = self.parent[op];
            if po == NONE {
                break;
            }
            self.path.push(op as u16);
            o = po as usize;
        }
        let mut cells = 0u128;
        for &k in &self.path {
            cells |= bit(cell_of(k as usize));
        }
        let mut forw = [0u128; 9];
        let mut back = [0u128; 9];
        for &k in &self.path {
            let (c, d) = (cell_of(k as usize), digit_of(k as usize));
            let seen = PEERS[c] & !cells & b.digit[d];
            if is_on(k as usize) {
                forw[d] |= seen;
            } else {
                back[d] |= seen;
            }
        }
        let mut h = Hint::new(tech, diff);
        for d in 0..9 {
            h.elim[d] = forw[d] & back[d];
        }
        h.cells = cells;
        h.is_worth().then_some(h)
    }
}
