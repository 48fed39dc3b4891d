//! The table of [`key`](super::canon::key)s that finds isomorphs and repeats across a corpus
//! (`validate --duplicates --isomorphs`, `--against`): for each distinct key, where it was
//! first seen (an input and a line) and a 2-bit tag its caller chose then, in 16 bytes an
//! entry and at most 25 bytes a key at any size, growth included, plus a fixed cost of at
//! most about 200 KB (the list of sub-tables, and their first 8 slots each while they hold
//! only a few keys).
//!
//! - **Entries.** A key is two hashes below 2^61 (61 bits each); the table keeps 104 of those
//!   122 bits: the second hash whole with 3 bits of the first in one word, 30 more bits of the
//!   first beside the tag in a `u32`, and 10 more in which sub-table holds it. The other
//!   `u32` is where the key was first seen, as an index into a short list of runs of lines
//!   (one per input, in practice) that turns it back into an input and a line. A false match
//!   needs the second hash to agree (a probability below 2^-59, as
//!   [`key`](super::canon::key) says) and 43 bits of the first (2^-43, taking those bits as
//!   random): below 2^-102 for a pair of different forms, so about 10^-13 among a billion
//!   classes.
//! - **Growth.** The keys are spread over 1,024 sub-tables by 10 of their bits. Each is an
//!   open-addressing table with linear probing, at most 4/5 full, that grows by a quarter
//!   when full (to any size, a key's slot being its mixed bits scaled to the size): it holds
//!   between 16 / (4/5) = 20 and 25 bytes a key, and while one grows only its old and new
//!   slots are held together, a thousandth of the whole. The sub-tables fill alike, so all
//!   grow at about the same time, which is why each grows by a quarter and not by doubling.
//! - **Sharing.** Each sub-table has its own lock, so that other threads can read the tags
//!   while the table's owner adds keys ([`Known`]: `validate`'s workers skip the search of a
//!   puzzle whose class is already known).
//! - **Past 2^32 - 1 lines.** A key first seen at a place the `u32` cannot index goes to a
//!   plain hash map beside the table (more bytes a key, the same answers; [`Known`] does not
//!   see it).
//!
//! The keys are a fixed function of the forms, so a corpus built to crowd a few slots makes
//! a run slower, never wrong.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::key_hasher::KeyHashing;

/// The bits of a key choosing its sub-table.
const SUB_BITS: u32 = 10;
/// The number of sub-tables.
const SUBS: usize = 1 << SUB_BITS;
/// `at` of an empty slot; no place has this index.
const EMPTY: u32 = u32::MAX;
/// The slots of a sub-table when its first key comes.
const MIN_SLOTS: usize = 8;
/// A sub-table holds at most `FULL_NUM / FULL_DEN` of its slots.
const FULL_NUM: usize = 4;
const FULL_DEN: usize = 5;
/// The bits of [`Slot::hi`] that hold the key; the two above hold the tag.
const HI_KEY: u32 = (1 << 30) - 1;
/// The tag's place in [`Slot::hi`].
const TAG_SHIFT: u32 = 30;

/// A key's kept bits, in the order [`KeyTable`] keeps them: 128 bits, with 122 significant.
fn packed(key: u128) -> u128 {
    let (first, second) = ((key >> 64) as u64, key as u64);
    debug_assert!(first < 1 << 61 && second < 1 << 61, "not a form key");
    (u128::from(first) << 61) | u128::from(second)
}

/// One slot: 94 bits of a key, its tag and the index of its place (16 bytes).
#[derive(Debug, Clone, Copy)]
#[repr(C)]
struct Slot {
    lo: u64,
    hi: u32,
    at: u32,
}

const VACANT: Slot = Slot {
    lo: 0,
    hi: 0,
    at: EMPTY,
};

/// One sub-table: open addressing, linear probing.
#[derive(Debug, Default)]
struct Sub {
    slots: Box<[Slot]>,
    len: usize,
}

impl Sub {
    /// The slot of `lo`'s first probe among `n`: its bits mixed, then scaled to `0..n`.
    fn home(lo: u64, n: usize) -> usize {
        let mixed = lo.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((u128::from(mixed) * n as u128) >> 64) as usize
    }

    /// The slot holding `(lo, hi)`, or else the empty slot where it would go (`Err`). There
    /// is always an empty slot: a sub-table is never full.
    fn find(&self, lo: u64, hi: u32) -> Result<usize, usize> {
        let n = self.slots.len();
        if n == 0 {
            return Err(0);
        }
        let mut i = Sub::home(lo, n);
        loop {
            let slot = &self.slots[i];
            if slot.at == EMPTY {
                return Err(i);
            }
            if slot.lo == lo && slot.hi & HI_KEY == hi {
                return Ok(i);
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    /// Adds a key known to be absent.
    fn insert(&mut self, slot: Slot) {
        if (self.len + 1) * FULL_DEN > self.slots.len() * FULL_NUM {
            self.grow();
        }
        let Err(i) = self.find(slot.lo, slot.hi) else {
            unreachable!("the key is absent")
        };
        self.slots[i] = slot;
        self.len += 1;
    }

    /// A quarter more slots, every key moved to its place among them.
    fn grow(&mut self) {
        let n = self.slots.len();
        let bigger = (n + n / 4).max(MIN_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![VACANT; bigger].into_boxed_slice());
        for slot in old.iter().filter(|s| s.at != EMPTY) {
            let mut i = Sub::home(slot.lo, bigger);
            while self.slots[i].at != EMPTY {
                i = if i + 1 == bigger { 0 } else { i + 1 };
            }
            self.slots[i] = *slot;
        }
    }
}

/// A run of places: input `file`, lines from `first_line`, at indices from `start`.
#[derive(Debug, Clone, Copy)]
struct Run {
    start: u64,
    file: u32,
    first_line: u64,
}

/// Where keys were first seen, as `u32` indices: the places of one input, its lines rising,
/// take consecutive indices from where the previous input's left off, so the list holds one
/// run for each input (and one more whenever an input's lines go back).
#[derive(Debug, Default)]
struct Places {
    runs: Vec<Run>,
    /// The first index not yet given.
    next: u64,
}

impl Places {
    /// The index of line `line` of input `file`, or `None` past the last `u32` index.
    fn index(&mut self, file: u32, line: u64) -> Option<u32> {
        let run = match self.runs.last() {
            Some(run) if run.file == file && line >= run.first_line => *run,
            _ => {
                let run = Run {
                    start: self.next,
                    file,
                    first_line: line,
                };
                self.runs.push(run);
                run
            }
        };
        let index = run.start.checked_add(line - run.first_line)?;
        if index >= u64::from(EMPTY) {
            return None;
        }
        self.next = self.next.max(index + 1);
        Some(index as u32)
    }

    /// The input and line of `index`.
    fn place(&self, index: u32) -> (u32, u64) {
        let index = u64::from(index);
        let run = self.runs[self.runs.partition_point(|r| r.start <= index) - 1];
        (run.file, run.first_line + (index - run.start))
    }
}

/// The keys seen, each with where it was first seen (the module documentation says how).
#[derive(Debug)]
pub struct KeyTable {
    subs: Subs,
    len: usize,
    places: Places,
    /// The keys first seen where `places` has no index for, with their tags.
    spill: HashMap<u128, (u32, u64, u8), KeyHashing>,
}

/// The sub-tables, each behind its own lock, shared with the [`Known`] views.
type Subs = Arc<[Mutex<Sub>]>;

/// Sub-table `s` of `subs`, locked. A thread that panicked holding a lock left the
/// sub-table whole (every change to it is a single assignment after any allocation), so its
/// lock is taken all the same.
fn lock(subs: &Subs, s: usize) -> MutexGuard<'_, Sub> {
    subs[s].lock().unwrap_or_else(PoisonError::into_inner)
}

/// A view of a [`KeyTable`] for other threads: the tag of each key held (not of those past
/// the last `u32` index). Answers change as the table's owner adds keys.
#[derive(Clone)]
pub struct Known {
    subs: Subs,
}

impl std::fmt::Debug for Known {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Known")
    }
}

/// A key a [`Known`] view found: its tag, and where its table keeps its first place, which
/// [`KeyTable::first_found`] reads back without looking the key up again. Once added, a key's
/// place and tag never change, so what a view found stays true.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    at: u32,
    tag: u8,
}

impl Found {
    /// The tag the key was added with.
    pub fn tag(self) -> u8 {
        self.tag
    }
}

impl Known {
    /// The tag `key` was added with, if the table holds it.
    pub fn tag(&self, key: u128) -> Option<u8> {
        self.find(key).map(Found::tag)
    }

    /// `key`'s tag and first place, if the table holds it.
    pub fn find(&self, key: u128) -> Option<Found> {
        let (s, lo, hi) = KeyTable::split(key);
        let sub = lock(&self.subs, s);
        sub.find(lo, hi).ok().map(|i| {
            let slot = sub.slots[i];
            Found {
                at: slot.at,
                tag: (slot.hi >> TAG_SHIFT) as u8,
            }
        })
    }
}

impl Default for KeyTable {
    fn default() -> KeyTable {
        KeyTable::new()
    }
}

impl KeyTable {
    /// An empty table.
    pub fn new() -> KeyTable {
        KeyTable {
            subs: (0..SUBS).map(|_| Mutex::new(Sub::default())).collect(),
            len: 0,
            places: Places::default(),
            spill: HashMap::default(),
        }
    }

    /// The sub-table and the kept bits of `key`.
    fn split(key: u128) -> (usize, u64, u32) {
        let p = packed(key);
        (
            (p >> 96) as usize & (SUBS - 1),
            p as u64,
            (p >> 64) as u32 & HI_KEY,
        )
    }

    /// A view of the tags for other threads.
    pub fn known(&self) -> Known {
        Known {
            subs: self.subs.clone(),
        }
    }

    /// The distinct keys held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no key is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where `key` was first seen (input, line), if it was.
    pub fn get(&self, key: u128) -> Option<(u32, u64)> {
        self.get_tagged(key).map(|(file, line, _)| (file, line))
    }

    /// Where `key` was first seen (input, line) and its tag, if it was.
    fn get_tagged(&self, key: u128) -> Option<(u32, u64, u8)> {
        let (s, lo, hi) = KeyTable::split(key);
        let at = {
            let sub = lock(&self.subs, s);
            sub.find(lo, hi).ok().map(|i| sub.slots[i])
        };
        match at {
            Some(slot) => {
                let (file, line) = self.places.place(slot.at);
                Some((file, line, (slot.hi >> TAG_SHIFT) as u8))
            }
            None => self.spill.get(&key).copied(),
        }
    }

    /// Where the key that a [`Known`] view of this table found was first seen (input, line),
    /// and its tag: what [`first_or_insert_tagged`](KeyTable::first_or_insert_tagged) would
    /// return for it, without looking the key up again.
    pub fn first_found(&self, found: Found) -> (u32, u64, u8) {
        let (file, line) = self.places.place(found.at);
        (file, line, found.tag)
    }

    /// Where `key` was first seen; if it was not, it is now, at line `line` of input `file`,
    /// which is returned.
    pub fn first_or_insert(&mut self, key: u128, file: u32, line: u64) -> (u32, u64) {
        let (file, line, _) = self.first_or_insert_tagged(key, file, line, 0);
        (file, line)
    }

    /// Where `key` was first seen and its tag; if it was not, it is now, at line `line` of
    /// input `file` with `tag` (below 4), which are returned.
    pub fn first_or_insert_tagged(
        &mut self,
        key: u128,
        file: u32,
        line: u64,
        tag: u8,
    ) -> (u32, u64, u8) {
        debug_assert!(tag < 4, "a tag has two bits");
        if let Some(first) = self.get_tagged(key) {
            return first;
        }
        self.len += 1;
        match self.places.index(file, line) {
            Some(at) => {
                let (s, lo, hi) = KeyTable::split(key);
                let hi = hi | u32::from(tag & 3) << TAG_SHIFT;
                lock(&self.subs, s).insert(Slot { lo, hi, at });
            }
            None => {
                self.spill.insert(key, (file, line, tag));
            }
        }
        (file, line, tag)
    }

    /// The bytes the table holds on the heap beyond its fixed cost: its slots and runs (the
    /// spilled keys not counted).
    pub fn heap_bytes(&self) -> usize {
        (0..SUBS)
            .map(|s| lock(&self.subs, s).slots.len() * size_of::<Slot>())
            .sum::<usize>()
            + self.places.runs.capacity() * size_of::<Run>()
    }
}

#[cfg(test)]
mod tests;
