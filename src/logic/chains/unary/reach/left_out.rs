//! The questions of `reach` about potentials that are no nodes of the graph: an "on"
//! potential nothing links to reaches what the "off" potentials it links to reach, and an
//! "off" potential that links to nothing is reached through the "on" potentials that link to
//! it.

use super::super::super::super::board::{PEERS, bit, cells_of, digits_of};
use super::super::super::{cell_of, conjugate, digit_of, key};
use super::Reach;

impl Reach {
    /// `reaches_conjugate` for an "on" potential that is no node. Its "off" potential is no
    /// node either; the nodes that link to that are the "on" potentials of the candidates
    /// whose "off" potentials the source links to (of the cell's other digits and of the
    /// digit's places that see it, those with links into them): the source reaches its
    /// conjugate when one of the latter reaches one of the former.
    pub(super) fn conjugate_through(&self, source: usize) -> bool {
        let (links, n) = self.off_links(source);
        let mut comps = [0u32; 28];
        for (comp, &o) in comps.iter_mut().zip(&links[..n]) {
            *comp = self.key_comp[conjugate(o as usize)];
        }
        links[..n].iter().any(|&o| {
            let row = self.row(o as usize);
            comps[..n]
                .iter()
                .any(|&t| row[t as usize / 64] >> (t % 64) & 1 == 1)
        })
    }

    /// `reaches` from an "on" potential that is no node, through the "off" potentials it
    /// links to (all of them nodes).
    pub(super) fn reaches_through(&mut self, from: usize, to: usize) -> bool {
        let (links, n) = self.off_links(from);
        links[..n].iter().any(|&o| self.reaches(o as usize, to))
    }

    /// The "off" potentials that "on" potential `k` links to, in the first `n` entries: its
    /// cell's other live digits (with Y links) and the digit's live places that see it.
    fn off_links(&self, k: usize) -> ([u16; 28], usize) {
        let (c, d) = (cell_of(k), digit_of(k));
        let mut links = [0u16; 28];
        let mut n = 0;
        if self.y {
            for e in digits_of(self.cell[c] & !(1 << d)) {
                if self.live[e] & bit(c) != 0 {
                    links[n] = key(c, e, false) as u16;
                    n += 1;
                }
            }
        }
        for z in cells_of(PEERS[c] & self.live[d]) {
            links[n] = key(z, d, false) as u16;
            n += 1;
        }
        (links, n)
    }

    /// `reaches` for an "off" potential `to` that is no node: it is reached through the "on"
    /// potentials that link to it, the cell's other candidates (Y links) and the digit's
    /// places that see it. A search asks for the same `to` many times: the components of
    /// those potentials are kept.
    pub(super) fn reaches_left_out(&mut self, from: usize, to: usize) -> bool {
        self.aim(to);
        self.row(from)
            .iter()
            .zip(&self.target_comps)
            .any(|(r, t)| r & t != 0)
    }

    /// Makes `target_comps` the components of the "on" potentials that link to `to`, an
    /// "off" potential that is no node.
    fn aim(&mut self, to: usize) {
        if self.target != to {
            self.target = to;
            self.target_comps.clear();
            self.target_comps.resize(self.words, 0);
            let (c, d) = (cell_of(to), digit_of(to));
            let add = |k: usize, comps: &mut Vec<u64>| {
                if self.stamp[k] == self.epoch {
                    let t = self.comp[self.node[k] as usize] as usize;
                    comps[t / 64] |= 1 << (t % 64);
                }
            };
            // Only the "on" potentials something links to are nodes: those of live cells.
            if self.y {
                for e in digits_of(self.cell[c] & !(1 << d)) {
                    if self.live[e] & bit(c) != 0 {
                        add(key(c, e, true), &mut self.target_comps);
                    }
                }
            }
            for x in cells_of(PEERS[c] & self.live[d]) {
                add(key(x, d, true), &mut self.target_comps);
            }
        }
    }
}
