//! Which potentials every potential of a grid reaches, for one kind of links, worked out for
//! all of them at once: the strongly connected components of the link graph (Tarjan's
//! algorithm), then per component the set of components it reaches, as bits.
//!
//! Gathering every chain of a grid (`collect`) asks of every candidate whether its chain
//! from "on" closes a cycle and whether its chains from "on" and "off" reach a
//! contradiction; most do neither. A cycle can close through an "on" source exactly when its
//! component holds another "on" potential (the last "on" potential of a path back to the
//! source reaches it through an "off" potential that turns it on, and the source reaches
//! that potential), and a chain reaches its contradiction exactly when the source reaches
//! its conjugate: the same answers as the level-by-level sweeps, for one pass over the links.
//! A cycle removes the candidates that see one of its "on" potentials and one of its "off"
//! potentials of their digit; a cycle lies within one component, so a candidate no "on" and
//! "off" potential of its digit in the component both see is removed by none of its cycles.
//! On the grids where the unary rungs find nothing (most steps of a hard puzzle) no component
//! has such a candidate, and no cycle search runs.
//! The searches themselves then leave out what cannot matter: a forcing chain the potentials
//! that do not lead to its target, a cycle search those outside its source's component
//! (neither changes the order in which the others are reached, nor their parents).
//! The search for the best hint asks the same questions before it sweeps from a source.
//!
//! Most "off" potentials link to nothing (their cell has more than two candidates and their
//! digit more than two places in each of their units): they are no nodes of the graph, and
//! whether a potential reaches one is told from the "on" potentials that link to it. Nothing
//! links to the "on" potential of such a candidate (what would, the "off" potential of its
//! bivalue cell's other candidate or of its digit's other place in a unit of two, makes the
//! "off" one link too): where reach is worked out it is no node either, it is reached by
//! nothing but itself, and what it reaches is told from the "off" potentials it links to.
//! Without these potentials and their many links, the graph of a dynamic search's stalled
//! grid is much cheaper to build.
//! `left_out` answers the questions about them.

use super::super::super::board::{Board, Cells, PEERS, UNIT_MASK, bit, cells_of, digits_of};
use super::super::{KEYS, cell_of, conjugate, digit_of, is_on, key};
use super::off_to_on;
use crate::logic::bits::Bits;

const NONE: u32 = u32::MAX;

/// The reachability of one grid's link graph, and the scratch memory that computes it.
pub(super) struct Reach {
    /// Per key: its node, while `stamp` is current.
    node: Vec<u16>,
    stamp: Vec<u32>,
    epoch: u32,
    /// Per node: its key.
    keys: Vec<u16>,
    /// The links out of each node, as node lists (`start[n]..start[n + 1]` in `succ`).
    start: Vec<u32>,
    succ: Vec<u16>,
    /// Tarjan's numbers and stacks.
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u16>,
    calls: Vec<(u16, u32)>,
    /// Per node: its component; per component: its "on" nodes and the components it reaches
    /// (`words` 64-bit words each).
    comp: Vec<u32>,
    /// Per key of a node: its component (the same as `comp`, one look-up fewer).
    key_comp: Vec<u32>,
    on_count: Vec<u16>,
    /// Per component: true when it holds two "on" potentials and a candidate sees one of its
    /// "on" and one of its "off" potentials of the candidate's digit.
    removes: Vec<bool>,
    /// Per component: true when it reaches no other (its reach is its own bit).
    alone: Vec<bool>,
    reach: Vec<u64>,
    words: usize,
    /// False for Y links alone, whose passes ask only which potentials lead to each other.
    has_reach: bool,
    /// The grid and links of the graph built last, for the links into potentials left out.
    cell: [u16; 81],
    digit: [Cells; 9],
    y: bool,
    /// Per digit: the cells whose "off" potential is a node (and with reach worked out,
    /// whose "on" potential is).
    live: [Cells; 9],
    /// The last potential asked to be reached, and the components whose reach means it is
    /// (`words` words).
    target: usize,
    target_comps: Vec<u64>,
}

impl Default for Reach {
    fn default() -> Self {
        Reach {
            node: vec![0; KEYS],
            stamp: vec![0; KEYS],
            epoch: 0,
            keys: Vec::new(),
            start: Vec::new(),
            succ: Vec::new(),
            index: Vec::new(),
            low: Vec::new(),
            on_stack: Vec::new(),
            stack: Vec::new(),
            calls: Vec::new(),
            comp: Vec::new(),
            key_comp: vec![0; KEYS],
            on_count: Vec::new(),
            removes: Vec::new(),
            alone: Vec::new(),
            reach: Vec::new(),
            words: 0,
            has_reach: false,
            cell: [0; 81],
            digit: [0; 9],
            y: false,
            live: [0; 9],
            target: usize::MAX,
            target_comps: Vec::new(),
        }
    }
}

impl Reach {
    /// Works out the reachability of every candidate of `g` of the given `digits`, on and
    /// off, for Y links (the cell's other candidates) when `y` and X links (the digit's places
    /// in a unit) when `x`, as `on_to_off` and `off_to_on` make them. With Y links `digits`
    /// must be all nine (they lead from one digit to the others); X links alone never leave
    /// their digit. Y links alone answer only which potentials lead to each other
    /// (`may_cycle`, `linked`), and for "on" potentials only in bivalue cells.
    pub(super) fn build(&mut self, g: &Board, y: bool, x: bool, digits: u16) {
        debug_assert!(!y || digits == 0x1ff);
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        self.keys.clear();
        self.start.clear();
        self.succ.clear();
        self.cell = g.cell;
        self.digit = g.digit;
        self.y = y;
        self.target = usize::MAX;
        // With Y links alone an "on" potential is reached only in a bivalue cell (from its
        // other candidate's "off"), and only those cells are sources: the other "on"
        // potentials, with the many links out of them, are left out, and no reach is worked
        // out: the passes of Y links alone look for cycles.
        let y_only = y && !x;
        self.has_reach = !y_only;
        // An "off" potential that links to nothing (most of them) is no node either: it is
        // its own component and reaches nothing, and what reaches it is told from the links
        // into it (`reaches`). It links to something when its cell is bivalue (Y links) or
        // when its digit has two places in one of its units (X links).
        let mut live = [0 as Cells; 9];
        for d in digits_of(digits) {
            let p = g.digit[d];
            if x {
                for mask in &UNIT_MASK {
                    if (p & mask).two() {
                        live[d] |= p & mask;
                    }
                }
            }
        }
        let mut bivalue: Cells = 0;
        for c in cells_of(g.empty) {
            if g.cell[c].two() {
                bivalue |= bit(c);
            }
        }
        if y {
            for (d, l) in live.iter_mut().enumerate() {
                *l |= g.digit[d] & bivalue;
            }
        }
        self.live = live;
        let scope = if y_only { bivalue } else { g.empty };
        for c in cells_of(scope) {
            for d in digits_of(g.cell[c] & digits) {
                let linked = live[d] & bit(c) != 0;
                // With reach worked out, an "on" potential nothing links to is left out.
                if !linked && !y_only {
                    continue;
                }
                let k = key(c, d, true);
                self.node[k] = self.keys.len() as u16;
                self.stamp[k] = self.epoch;
                self.keys.push(k as u16);
                if linked {
                    let k = key(c, d, false);
                    self.node[k] = self.keys.len() as u16;
                    self.stamp[k] = self.epoch;
                    self.keys.push(k as u16);
                }
            }
        }
        // The links, as node lists (`start[n]..start[n + 1]` in `succ`), those of an "on"
        // potential to the "off" nodes only, in an order of their own: the order of the
        // links changes neither the components nor what they reach.
        let n = self.keys.len();
        let mut buf4 = [0u16; 4];
        for i in 0..n {
            self.start.push(self.succ.len() as u32);
            let k = self.keys[i] as usize;
            let (c, d) = (cell_of(k), digit_of(k));
            let node = &self.node;
            if is_on(k) {
                if y {
                    for e in digits_of(g.cell[c] & !(1 << d)) {
                        if live[e] & bit(c) != 0 {
                            self.succ.push(node[key(c, e, false)]);
                        }
                    }
                }
                for z in cells_of(PEERS[c] & live[d]) {
                    self.succ.push(node[key(z, d, false)]);
                }
            } else {
                let m = off_to_on(g, k, y, x, &mut buf4);
                debug_assert!(m > 0);
                self.succ
                    .extend(buf4[..m].iter().map(|&q| node[q as usize]));
            }
        }
        self.start.push(self.succ.len() as u32);
        self.components(n);
    }

    /// Tarjan's algorithm, without recursion; components come out in reverse topological
    /// order, so each one's reach is complete when its successors' are.
    fn components(&mut self, n: usize) {
        self.index.clear();
        self.index.resize(n, NONE);
        self.low.clear();
        self.low.resize(n, 0);
        self.on_stack.clear();
        self.on_stack.resize(n, false);
        self.comp.clear();
        self.comp.resize(n, NONE);
        self.on_count.clear();
        self.removes.clear();
        self.alone.clear();
        self.stack.clear();
        self.words = n.div_ceil(64).max(1);
        self.reach.clear();
        let mut next = 0u32;
        for root in 0..n {
            if self.index[root] != NONE {
                continue;
            }
            self.calls.push((root as u16, self.start[root]));
            self.index[root] = next;
            self.low[root] = next;
            next += 1;
            self.stack.push(root as u16);
            self.on_stack[root] = true;
            while let Some(call) = self.calls.last_mut() {
                let (v, e) = (call.0 as usize, call.1);
                if e < self.start[v + 1] {
                    call.1 += 1;
                    let w = self.succ[e as usize] as usize;
                    if self.index[w] == NONE {
                        self.index[w] = next;
                        self.low[w] = next;
                        next += 1;
                        self.stack.push(w as u16);
                        self.on_stack[w] = true;
                        self.calls.push((w as u16, self.start[w]));
                    } else if self.on_stack[w] {
                        self.low[v] = self.low[v].min(self.index[w]);
                    }
                    continue;
                }
                self.calls.pop();
                if let Some(&(u, _)) = self.calls.last() {
                    let u = u as usize;
                    self.low[u] = self.low[u].min(self.low[v]);
                }
                if self.low[v] == self.index[v] {
                    self.close(v);
                }
            }
        }
    }

    /// Pops the component rooted at `v` and works out what it reaches.
    fn close(&mut self, v: usize) {
        let id = self.on_count.len() as u32;
        let mut ons = 0u16;
        let top = self
            .stack
            .iter()
            .rposition(|&w| w as usize == v)
            .unwrap_or(0);
        for i in top..self.stack.len() {
            let w = self.stack[i] as usize;
            self.on_stack[w] = false;
            self.comp[w] = id;
            self.key_comp[self.keys[w] as usize] = id;
            ons += is_on(self.keys[w] as usize) as u16;
        }
        let removes = ons >= 2 && self.removable(top);
        self.removes.push(removes);
        if !self.has_reach {
            self.stack.truncate(top);
            self.on_count.push(ons);
            return;
        }
        let words = self.words;
        let base = self.reach.len();
        self.reach.resize(base + words, 0);
        self.reach[base + id as usize / 64] |= 1 << (id % 64);
        let mut alone = true;
        for i in top..self.stack.len() {
            let w = self.stack[i] as usize;
            for e in self.start[w]..self.start[w + 1] {
                let t = self.comp[self.succ[e as usize] as usize] as usize;
                // Components found earlier are complete (reverse topological order), and a
                // component already reached brought everything it reaches along.
                if t as u32 != id && self.reach[base + t / 64] >> (t % 64) & 1 == 0 {
                    alone = false;
                    if self.alone[t] {
                        // Most components reach no other: their reach is their own bit.
                        self.reach[base + t / 64] |= 1 << (t % 64);
                        continue;
                    }
                    let (done, this) = self.reach.split_at_mut(base);
                    let other = &done[t * words..(t + 1) * words];
                    for (a, b) in this.iter_mut().zip(other) {
                        *a |= b;
                    }
                }
            }
        }
        self.stack.truncate(top);
        self.on_count.push(ons);
        self.alone.push(alone);
    }

    /// True when a candidate of the grid sees an "on" and an "off" potential of its digit
    /// among the nodes `stack[top..]`.
    fn removable(&self, top: usize) -> bool {
        let mut on = [0 as Cells; 9];
        let mut off = [0 as Cells; 9];
        for &w in &self.stack[top..] {
            let k = self.keys[w as usize] as usize;
            let (c, d) = (cell_of(k), digit_of(k));
            if is_on(k) {
                on[d] |= PEERS[c];
            } else {
                off[d] |= PEERS[c];
            }
        }
        (0..9).any(|d| on[d] & off[d] & self.digit[d] != 0)
    }

    /// The component of candidate key `k`, which must be a node.
    #[inline]
    fn comp_of(&self, k: usize) -> usize {
        debug_assert!(self.is_node(k));
        self.key_comp[k] as usize
    }

    /// True when key `k` is a node of the graph built last.
    #[inline]
    fn is_node(&self, k: usize) -> bool {
        self.stamp[k] == self.epoch
    }

    /// True when a cycle search from "on" key `source` could close a cycle: another "on"
    /// potential lies in its component. The searches ask `may_remove`; the tests check with
    /// this that the cycles it leaves out make no hint.
    #[cfg(test)]
    pub(super) fn may_cycle(&self, source: usize) -> bool {
        // An "on" potential that is no node is reached by nothing: no cycle closes there.
        self.is_node(source) && self.on_count[self.comp_of(source)] >= 2
    }

    /// True when a cycle through "on" key `source` could remove a candidate: `may_cycle`, and
    /// a candidate sees an "on" and an "off" potential of its digit in the source's component.
    pub(super) fn may_remove(&self, source: usize) -> bool {
        self.is_node(source) && self.removes[self.comp_of(source)]
    }

    /// True when the chain from `source` reaches its conjugate.
    pub(super) fn reaches_conjugate(&mut self, source: usize) -> bool {
        if is_on(source) && !self.is_node(source) {
            return self.conjugate_through(source);
        }
        self.reaches(source, conjugate(source))
    }

    /// The components that node `k` reaches, as bits.
    #[inline]
    fn row(&self, k: usize) -> &[u64] {
        let a = self.comp_of(k);
        &self.reach[a * self.words..(a + 1) * self.words]
    }

    /// True when potential `from` leads to potential `to` (a candidate of the grid).
    #[inline]
    pub(super) fn reaches(&mut self, from: usize, to: usize) -> bool {
        debug_assert!(self.has_reach);
        if from == to {
            return true;
        }
        // An "on" potential that is no node reaches what the "off" potentials it links to
        // reach; an "off" one links to nothing.
        if !self.is_node(from) {
            return is_on(from) && self.reaches_through(from, to);
        }
        if self.is_node(to) {
            let b = self.comp_of(to);
            return self.row(from)[b / 64] >> (b % 64) & 1 == 1;
        }
        // An "on" potential that is no node is reached by nothing but itself.
        if is_on(to) {
            return false;
        }
        self.reaches_left_out(from, to)
    }

    /// True when potential `a` and the node `b` lead to each other.
    #[inline]
    pub(super) fn linked(&self, a: usize, b: usize) -> bool {
        self.is_node(a) && self.comp_of(a) == self.comp_of(b)
    }
}

mod left_out;

#[cfg(test)]
#[path = "reach_tests.rs"]
mod tests;
