//! [`Rng`], the generator's SplitMix64 random numbers, and the stream of each puzzle of a
//! seeded run ([`puzzle_rng`]).

/// A seeded SplitMix64 random number generator: fast, tiny and stable across versions.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), without modulo bias worth measuring for small `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Shuffles `items` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// The generator for puzzle `index` of a run seeded with `seed`: each puzzle has its own
/// stream, so the puzzles do not depend on how the work is split over threads, nor on which
/// front end (the command line, the Python package) splits it.
pub fn puzzle_rng(seed: u64, index: u64) -> Rng {
    let mut mix = Rng::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    Rng::new(mix.next_u64())
}
