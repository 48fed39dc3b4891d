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
//!
//! The links of one unit and the cells of their ends are the `links` module's; the orders the
//! search tries and the names of the kinds of unit, the `order` module's.

use super::board::{BOX0, Board, COL0, Cells, PEERS, ROW0, UNIT_MASK, bit, cells_of};
use super::technique::{Hint, Technique};

mod links;
mod order;

use links::{Group, Link, group_cells, seeing, unit_links};
use order::{code, kind_ranks, line_name, permutations, rank_table};

/// The key that orders the hints: rating, then more removals, then the suffix, then the
/// order in which Sukaku Explainer would have generated them (its sort is stable).
#[derive(Clone, Copy)]
pub(crate) struct Key {
    diff: f64,
    elims: u32,
    suffix: [u8; 5],
    /// Kinds of unit (their rank among the sequences Sukaku Explainer tries), digit, each
    /// link's index in its kind's list in search order, order of the links in the chain
    /// (rank among the permutations tried) and their directions.
    generated: [u8; 8],
}

impl Key {
    /// True when `self` sorts strictly before `o`.
    pub fn before(&self, o: &Key) -> bool {
        match self.diff.total_cmp(&o.diff) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => {
                if self.elims != o.elims {
                    self.elims > o.elims
                } else if self.suffix != o.suffix {
                    self.suffix < o.suffix
                } else {
                    self.generated < o.generated
                }
            }
        }
    }
}

/// Where the cells of a group lie: their column, row and box if they share one.
#[derive(Clone, Copy)]
struct Lines {
    col: Option<u8>,
    row: Option<u8>,
    bx: Option<u8>,
}

impl Lines {
    fn of(g: &Group) -> Lines {
        let cells = group_cells(g);
        let first = g[0].unwrap() as usize;
        let (r, c) = (first / 9, first % 9);
        let bx = r / 3 * 3 + c / 3;
        let within = |u: usize| cells & !UNIT_MASK[u] == 0;
        Lines {
            col: within(COL0 + c).then_some(c as u8),
            row: within(ROW0 + r).then_some(r as u8),
            bx: within(BOX0 + bx).then_some(bx as u8),
        }
    }

    /// The unit two groups share, as Sukaku Explainer picks it: column, else row, else box.
    fn shared(&self, o: &Lines) -> Option<usize> {
        match (self.col, o.col, self.row, o.row, self.bx, o.bx) {
            (Some(a), Some(b), ..) if a == b => Some(COL0 + a as usize),
            (_, _, Some(a), Some(b), ..) if a == b => Some(ROW0 + a as usize),
            (.., Some(a), Some(b)) if a == b => Some(BOX0 + a as usize),
            _ => None,
        }
    }
}

/// One link of the digit's list, with what the search needs at hand.
#[derive(Clone, Copy)]
struct Node {
    link: Link,
    kind: u8,
    /// Index in its kind's list (Sukaku Explainer's search order within a kind).
    index: u8,
    lines: [Lines; 2],
}

/// The links of one digit and how they chain: the same for chains of two, three or four
/// links, so built once while the digit's places stay the same.
#[derive(Default)]
struct Graph {
    nodes: Vec<Node>,
    /// bridges[2 * i + e]: the (node, entry end) states reachable leaving node i by end e.
    bridges: Vec<u128>,
}

/// Memory of the search, kept between calls.
#[derive(Default)]
pub(crate) struct Scratch {
    /// Per digit, its graph as last built.
    graphs: [Graph; 9],
    links: Vec<Link>,
    /// Per number of links - 2: the rank of each permutation and kind sequence among those
    /// Sukaku Explainer tries, indexed by its digits read in base 4.
    perms: [Vec<u8>; 3],
    kinds: [Vec<u8>; 3],
}

struct Search<'a> {
    b: &'a Board,
    n: usize,
    d: usize,
    nodes: &'a [Node],
    bridges: &'a [u128],
    path: [(usize, usize); 4],
    perms: &'a [u8],
    kinds: &'a [u8],
    best: Option<(Key, Hint)>,
}

/// The best chain of `n` strong links (2, 3 or 4) on digit `d`, with its sort key (which
/// orders chains of all digits).
///
/// Sukaku Explainer enumerates every set of links by kind and unit, then every order and
/// direction of each set, and keeps those that chain. We walk the chains directly, from link
/// to link through the ends that share a unit, and give each the key of its place in Sukaku
/// Explainer's enumeration, so that the sort picks the same hint.
///
/// `rebuild`: the digit's places changed since its graph was last built here (a graph is
/// kept per digit, for the next search of the same digit with another `n`).
pub(crate) fn strong_links(
    b: &Board,
    n: usize,
    d: usize,
    sc: &mut Scratch,
    rebuild: bool,
) -> Option<(Key, Hint)> {
    if sc.perms[n - 2].is_empty() {
        sc.perms[n - 2] = rank_table(&permutations(n), n);
        sc.kinds[n - 2] = rank_table(&kind_ranks(n), n);
    }
    if rebuild {
        build(b, d, &mut sc.graphs[d], &mut sc.links);
    }
    let g = &sc.graphs[d];
    let mut s = Search {
        b,
        n,
        d,
        nodes: &g.nodes,
        bridges: &g.bridges,
        path: [(0, 0); 4],
        perms: &sc.perms[n - 2],
        kinds: &sc.kinds[n - 2],
        best: None,
    };
    for i in 0..g.nodes.len() {
        for u0 in 0..2 {
            s.path[0] = (i, u0);
            s.walk(1, s.nodes[i].link.places);
        }
    }
    s.best
}

/// The links of digit `d` and the ends through which they chain.
fn build(b: &Board, d: usize, g: &mut Graph, links: &mut Vec<Link>) {
    g.nodes.clear();
    for kind in 0..3 {
        links.clear();
        let first = [BOX0, ROW0, COL0][kind];
        for u in first..first + 9 {
            unit_links(b, d, u, links);
        }
        for (index, &link) in links.iter().enumerate() {
            g.nodes.push(Node {
                link,
                kind: kind as u8,
                index: index as u8,
                lines: [Lines::of(&link.ends[0]), Lines::of(&link.ends[1])],
            });
        }
    }
    // At most 27 units with two groupings each: 108 (node, end) states fit a u128. Ends are
    // bucketed by the column, row and box that hold all their cells; two ends join when they
    // share a bucket.
    let nodes = &g.nodes;
    let m = nodes.len();
    let mut cols = [0u128; 9];
    let mut rows = [0u128; 9];
    let mut boxes = [0u128; 9];
    for (i, node) in nodes.iter().enumerate() {
        for f in 0..2 {
            let st = 1u128 << (2 * i + f);
            let l = &node.lines[f];
            if let Some(c) = l.col {
                cols[c as usize] |= st;
            }
            if let Some(r) = l.row {
                rows[r as usize] |= st;
            }
            if let Some(x) = l.bx {
                boxes[x as usize] |= st;
            }
        }
    }
    g.bridges.clear();
    g.bridges.resize(2 * m, 0);
    // For each place of the digit, the states of the links through it.
    let mut at = [0u128; 81];
    for (i, node) in nodes.iter().enumerate() {
        for c in cells_of(node.link.places) {
            at[c] |= 3u128 << (2 * i);
        }
    }
    for i in 0..m {
        // Links on shared places never chain with link i; the links of its own unit (its
        // other grouping) have the same places.
        let mut touching = 0u128;
        for c in cells_of(nodes[i].link.places) {
            touching |= at[c];
        }
        let apart = !touching;
        for e in 0..2 {
            let l = &nodes[i].lines[e];
            let mut reach = 0u128;
            if let Some(c) = l.col {
                reach |= cols[c as usize];
            }
            if let Some(r) = l.row {
                reach |= rows[r as usize];
            }
            if let Some(x) = l.bx {
                reach |= boxes[x as usize];
            }
            g.bridges[2 * i + e] = reach & apart;
        }
    }
}

impl Search<'_> {
    /// Extends the chain by its `depth`-th link; `used` are the places taken so far.
    fn walk(&mut self, depth: usize, used: Cells) {
        if depth == self.n {
            self.evaluate();
            return;
        }
        let (i, u) = self.path[depth - 1];
        let mut next = self.bridges[2 * i + (1 - u)];
        if depth + 1 == self.n {
            // Chains whose first link comes after their last in search order (by unit, as
            // the nodes are) are read the other way round: only later nodes end one.
            next &= !0u128 << (2 * (self.path[0].0 + 1));
        }
        while next != 0 {
            let st = next.trailing_zeros() as usize;
            next &= next - 1;
            let (j, f) = (st / 2, st % 2);
            let places = self.nodes[j].link.places;
            if places & used != 0 {
                continue;
            }
            self.path[depth] = (j, f);
            self.walk(depth + 1, used | places);
        }
    }

    /// Turns the chain in `path` into Sukaku Explainer's terms (the set's search order, the
    /// permutation and directions) and offers its hint.
    fn evaluate(&mut self) {
        let n = self.n;
        let node = |k: usize| &self.nodes[self.path[k].0];
        let chain_start = &node(0).lines[self.path[0].1];
        let chain_end = &node(n - 1).lines[1 - self.path[n - 1].1];
        let ring = chain_start.shared(chain_end).is_some();
        if ring {
            let min_unit = (0..n).map(|k| node(k).link.unit).min().unwrap();
            if node(0).link.unit != min_unit || self.path[0].1 != 0 {
                return;
            }
        } else {
            // A chain that is not a loop removes the digit only from cells that see both its
            // far ends (all their cells): with none, it has no hint to offer.
            let first = |g: &Group| g[0].unwrap() as usize;
            let start = first(&node(0).link.ends[self.path[0].1]);
            let end = first(&node(n - 1).link.ends[1 - self.path[n - 1].1]);
            if PEERS[start] & PEERS[end] & self.b.digit[self.d] == 0 {
                return;
            }
        }
        // The set in search order: by kind, then by unit.
        let mut order = [0usize; 4];
        for (k, o) in order[..n].iter_mut().enumerate() {
            *o = k;
        }
        // Units are numbered boxes, rows, columns: by unit is by kind, then unit.
        for i in 1..n {
            let mut j = i;
            while j > 0 && node(order[j - 1]).link.unit > node(order[j]).link.unit {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        // q[i]: the search depth of the chain's i-th link.
        let mut q = [0u8; 4];
        for (depth, &k) in order[..n].iter().enumerate() {
            q[k] = depth as u8;
        }
        // Sukaku Explainer reads each chain in one direction only (`walk` offers only those).
        debug_assert!(q[0] < q[n - 1]);
        let mut generated = [0u8; 8];
        let mut kinds = [0u8; 4];
        for (depth, &k) in order[..n].iter().enumerate() {
            kinds[depth] = node(k).kind;
            generated[2 + depth] = node(k).index;
        }
        generated[0] = self.kinds[code(&kinds[..n])];
        generated[1] = self.d as u8;
        generated[6] = self.perms[code(&q[..n])];
        let mut u = 0u8;
        for k in 0..n {
            u = u << 1 | self.path[k].1 as u8;
        }
        generated[7] = u;
        self.hint(ring, generated);
    }

    fn hint(&mut self, ring: bool, generated: [u8; 8]) {
        let (n, d, b) = (self.n, self.d, self.b);
        let link = |k: usize| self.nodes[self.path[k].0].link;
        let near = |k: usize| link(k).ends[self.path[k].1];
        let far = |k: usize| link(k).ends[1 - self.path[k].1];
        let start = near(0);
        let end = far(n - 1);
        let mut bases = 0u128;
        let mut pattern = 0u128;
        let mut grouped = 0;
        for k in 0..n {
            bases |= UNIT_MASK[link(k).unit as usize];
            pattern |= link(k).places;
            grouped += usize::from(link(k).grouped);
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
        let mut victims = ends_seen(&start, link(0).grouped) & ends_seen(&end, link(n - 1).grouped);
        victims &= !(bit(start[0].unwrap() as usize) | bit(end[0].unwrap() as usize));
        victims &= !bases;
        let mut elim;
        let mut count;
        if !ring {
            for k in 0..n - 1 {
                let a = &self.nodes[self.path[k].0].lines[1 - self.path[k].1];
                let c = &self.nodes[self.path[k + 1].0].lines[self.path[k + 1].1];
                victims &= !UNIT_MASK[a.shared(c).unwrap()];
            }
            elim = victims & b.digit[d];
            count = elim.count_ones();
        } else {
            elim = victims & b.digit[d];
            count = elim.count_ones();
            for k in 0..n - 1 {
                let (b1, b2) = (far(k), near(k + 1));
                let mut v = seeing(&b1) & seeing(&b2);
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
        for k in 0..n {
            kinds[k] = link(k).unit / 9;
        }
        let kinds = &kinds[..n];
        let mut reversed = [0u8; 4];
        for k in 0..n {
            reversed[k] = kinds[n - 1 - k];
        }
        let (name, len) = if kinds <= &reversed[..n] {
            line_name(kinds)
        } else {
            line_name(&reversed[..n])
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
            generated,
        };
        if self.best.as_ref().is_none_or(|(k, _)| key.before(k)) {
            let mut h = Hint::new(tech, diff);
            h.elim[d] = elim;
            h.cells = pattern;
            self.best = Some((key, h));
        }
    }
}
