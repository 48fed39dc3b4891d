//! One search's outcome: the potentials a multiple-chain search reached, each with the
//! potentials it rests on, why it is on, and the nested chain it came from.

use super::super::{KEYS, is_on};

/// The outcome of one search: the potentials reached, each with the potentials it rests on.
///
/// Many searches are kept at once (every "on" chain of a grid), and hints ask whether each
/// holds a potential far more often than what it rests on: membership is a bitset, and each
/// potential's details sit in a short list in the order found, found from its key through
/// an index that is only read for the potentials in the set. A lone parent is kept in the
/// potential's entry, longer lists in a shared pool.
pub(super) struct Slot {
    /// The keys reached, a bit each.
    set: [u64; WORDS],
    /// Per key in `set`: its entry in `entries`.
    index: Vec<u16>,
    entries: Vec<Entry>,
    pub(super) pool: Vec<u16>,
    pub(super) on_list: Vec<u16>,
    pub(super) off_list: Vec<u16>,
    /// A contradiction: the potential found with its opposite, which is not added to the
    /// set, with its parents (in `pool`).
    pub(super) clash: Option<(u16, u32, u16)>,
    /// And the stored opposite's key.
    pub(super) clash_with: u16,
    /// Why the clashing potential is on, when it is (see `Entry::cause`).
    pub(super) clash_cause: u8,
    /// The nested chains used: (fingerprint, complexity).
    pub(super) nested: Vec<(u64, u32)>,
}

/// Words of the key bitset.
const WORDS: usize = KEYS.div_ceil(64);

/// What a search keeps of a potential it reached.
#[derive(Clone, Copy)]
struct Entry {
    /// Its parents: `first` alone when there is one (most potentials), else
    /// `pool[start..start + len]`.
    start: u32,
    len: u16,
    first: u16,
    /// For an "on" potential found from an "off" one: why it is on, `CAUSE_CELL` (the
    /// cell's last candidate) or the index of the unit in `CELL_UNITS` (the digit's last
    /// place there).
    cause: u8,
    /// The nested chain it came from (an index in `nested`), or `NO_NEST`.
    nest: u16,
}

/// No nested chain.
pub(super) const NO_NEST: u16 = u16::MAX;

/// The cause of an "on" potential that is its cell's last candidate.
pub(super) const CAUSE_CELL: u8 = 3;

impl Slot {
    pub(super) fn new() -> Slot {
        Slot {
            set: [0; WORDS],
            index: vec![0; KEYS],
            entries: Vec::new(),
            pool: Vec::new(),
            on_list: Vec::new(),
            off_list: Vec::new(),
            clash: None,
            clash_with: 0,
            clash_cause: CAUSE_CELL,
            nested: Vec::new(),
        }
    }

    pub(super) fn reset(&mut self) {
        self.set = [0; WORDS];
        self.entries.clear();
        self.pool.clear();
        self.on_list.clear();
        self.off_list.clear();
        self.clash = None;
        self.clash_cause = CAUSE_CELL;
        self.nested.clear();
    }

    #[inline(always)]
    pub(super) fn has(&self, k: usize) -> bool {
        self.set[k / 64] >> (k % 64) & 1 != 0
    }

    /// The candidate of "off" key `k` (even) in both states: bit 0 set when `k` is in the
    /// set, bit 1 when its opposite is (both keys sit in one word).
    #[inline(always)]
    pub(super) fn pair(&self, k: usize) -> u64 {
        debug_assert!(!is_on(k));
        self.set[k / 64] >> (k % 64) & 3
    }

    #[inline(always)]
    pub(super) fn insert(&mut self, k: usize, parents: &[u16]) {
        self.set[k / 64] |= 1 << (k % 64);
        self.index[k] = self.entries.len() as u16;
        let (start, first) = match parents {
            [one] => (0, *one),
            _ => {
                let start = self.pool.len() as u32;
                push_all(&mut self.pool, parents);
                (start, 0)
            }
        };
        self.entries.push(Entry {
            start,
            len: parents.len() as u16,
            first,
            cause: CAUSE_CELL,
            nest: NO_NEST,
        });
        if is_on(k) {
            self.on_list.push(k as u16);
        } else {
            self.off_list.push(k as u16);
        }
    }

    #[inline]
    fn entry(&self, k: usize) -> &Entry {
        debug_assert!(self.has(k));
        &self.entries[self.index[k] as usize]
    }

    /// The potentials `k` (in the set) rests on.
    #[inline]
    pub(super) fn parents(&self, k: usize) -> &[u16] {
        let e = self.entry(k);
        if e.len == 1 {
            std::slice::from_ref(&e.first)
        } else {
            &self.pool[e.start as usize..e.start as usize + e.len as usize]
        }
    }

    /// Why "on" potential `k` (in the set, found from an "off" one) is on.
    pub(super) fn cause(&self, k: usize) -> u8 {
        self.entry(k).cause
    }

    pub(super) fn set_cause(&mut self, k: usize, cause: u8) {
        let i = self.index[k] as usize;
        self.entries[i].cause = cause;
    }

    /// The nested chain `k` (in the set) came from, or `NO_NEST`.
    pub(super) fn nest(&self, k: usize) -> u16 {
        self.entry(k).nest
    }

    pub(super) fn set_nest(&mut self, k: usize, nest: u16) {
        let i = self.index[k] as usize;
        self.entries[i].nest = nest;
    }
}

/// Pushes `keys` on `list` one by one: the lists are short, and a copy of a slice calls
/// `memcpy`.
#[inline(always)]
pub(super) fn push_all(list: &mut Vec<u16>, keys: &[u16]) {
    for &k in keys {
        list.push(k);
    }
}

/// Whether no key is in every one of `which` (indices in `slots`): then a hint that asks
/// for a potential common to them all has none to look at.
pub(super) fn none_common(slots: &[Slot], which: &[usize]) -> bool {
    let none = (0..WORDS).all(|w| which.iter().fold(!0u64, |acc, &s| acc & slots[s].set[w]) == 0);
    // The same answer as a look at each potential of the first slot, at every step the
    // tests take.
    #[cfg(test)]
    {
        let first = &slots[which[0]];
        let common = first
            .on_list
            .iter()
            .chain(&first.off_list)
            .any(|&k| which.iter().all(|&s| slots[s].has(k as usize)));
        assert_eq!(none, !common);
    }
    none
}
