//! Hashing of canonical-form keys for the hash maps of keys (the spill of
//! [`KeyTable`](super::key_table::KeyTable)): a [`key`](super::canon::key) is already spread
//! evenly over its 128 bits, so the hash tables take its own bits rather than running a
//! general-purpose hash (SipHash, the standard one) over them.
//!
//! The keys are a fixed function of the forms, so someone who wants to could build a corpus
//! whose keys crowd a few buckets; that makes such a run slower, never wrong.

use std::hash::{BuildHasherDefault, Hasher};

/// A [`Hasher`] for 128-bit keys: the two halves folded into one word. Anything else written
/// to it (which the sets of keys do not do) is mixed in eight bytes at a time.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(23) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 ^= (key as u64) ^ ((key >> 64) as u64);
    }
}

/// Builds [`KeyHasher`]s: the hasher of the maps keyed by form keys.
pub type KeyHashing = BuildHasherDefault<KeyHasher>;

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::hash::BuildHasher;

    use super::*;

    #[test]
    fn a_key_hashes_to_its_folded_halves_and_other_input_is_mixed() {
        let hashing = KeyHashing::default();
        assert_eq!(hashing.hash_one((5u128 << 64) | 3), 6);
        // Bytes in other chunks give other hashes.
        assert_ne!(hashing.hash_one([1u64, 2]), hashing.hash_one([2u64, 1]));
        let mut set = HashSet::with_hasher(KeyHashing::default());
        for k in 0..1000u128 {
            set.insert((k << 64) | (k * 7));
        }
        assert_eq!(set.len(), 1000);
        assert!(set.contains(&((10u128 << 64) | 70)));
    }
}
