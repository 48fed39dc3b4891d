//! One search's outcome: the potentials a multiple-chain search reached, each with the
//! potentials it rests on, why it is on, and the nested chain it came from.

use super::super::{KEYS, is_on};

/// The outcome of one search: the potentials reached, each with the potentials it rests on.
pub(super) struct Slot {
    pub(super) epoch: u32,
    pub(super) stamp: Vec<u32>,
    pub(super) pstart: Vec<u32>,
    pub(super) plen: Vec<u16>,
    pub(super) pool: Vec<u16>,
    pub(super) on_list: Vec<u16>,
    pub(super) off_list: Vec<u16>,
    /// A contradiction: the potential found with its opposite, which is not added to the
    /// set, with its parents (in `pool`).
    pub(super) clash: Option<(u16, u32, u16)>,
    /// And the stored opposite's key.
    pub(super) clash_with: u16,
    /// Why the clashing potential is on, when it is (see `cause`).
    pub(super) clash_cause: u8,
    /// Per "on" key found from an "off" one: why it is on, `CAUSE_CELL` (the cell's last
    /// candidate) or the index of the unit in `CELL_UNITS` (the digit's last place there).
    pub(super) cause: Vec<u8>,
    /// Per key: the nested chain it came from (an index in `nested`), or `NO_NEST`.
    pub(super) nest: Vec<u16>,
    /// The nested chains used: (fingerprint, complexity).
    pub(super) nested: Vec<(u64, u32)>,
}

/// No nested chain.
pub(super) const NO_NEST: u16 = u16::MAX;

/// The cause of an "on" potential that is its cell's last candidate.
pub(super) const CAUSE_CELL: u8 = 3;

impl Slot {
    pub(super) fn new() -> Slot {
        Slot {
            epoch: 0,
            stamp: vec![0; KEYS],
            pstart: vec![0; KEYS],
            plen: vec![0; KEYS],
            pool: Vec::new(),
            on_list: Vec::new(),
            off_list: Vec::new(),
            clash: None,
            clash_with: 0,
            clash_cause: CAUSE_CELL,
            cause: vec![CAUSE_CELL; KEYS],
            nest: vec![NO_NEST; KEYS],
            nested: Vec::new(),
        }
    }

    pub(super) fn reset(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        self.pool.clear();
        self.on_list.clear();
        self.off_list.clear();
        self.clash = None;
        self.clash_cause = CAUSE_CELL;
        self.nested.clear();
    }

    #[inline(always)]
    pub(super) fn has(&self, k: usize) -> bool {
        self.stamp[k] == self.epoch
    }

    #[inline]
    pub(super) fn insert(&mut self, k: usize, parents: &[u16]) {
        self.nest[k] = NO_NEST;
        self.stamp[k] = self.epoch;
        self.pstart[k] = self.pool.len() as u32;
        self.plen[k] = parents.len() as u16;
        self.pool.extend_from_slice(parents);
        if is_on(k) {
            self.on_list.push(k as u16);
        } else {
            self.off_list.push(k as u16);
        }
    }

    #[inline]
    pub(super) fn parents(&self, k: usize) -> &[u16] {
        let s = self.pstart[k] as usize;
        &self.pool[s..s + self.plen[k] as usize]
    }
}
