//! The operations on every digit's words at once, a digit's three words and its padding word
//! being one aligned 4-word vector (see the `fast` module documentation): removals across
//! digits, the candidate counts behind naked singles and the cell branch, the settled bands;
//! and the scalar paths they are tested against.

use super::state::{ALL_WORDS, BAND0_WORDS, State, WORDS};
use super::tables::{EDGE_BITS, ROW_LOW};

/// One bit per word (bit `i` for `cand[i]`, the padding words' included) from nine vectors
/// of four all-ones-or-zero lanes, one per digit: packed down to a byte per word (all ones
/// and zero survive the saturation), so that three byte masks give the 36 bits.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn word_mask(v: [std::arch::x86_64::__m128i; 9]) -> u64 {
    use std::arch::x86_64::{_mm_movemask_epi8, _mm_packs_epi16, _mm_packs_epi32};
    // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available; they only
    // work on registers.
    unsafe {
        let low = _mm_packs_epi16(_mm_packs_epi32(v[0], v[1]), _mm_packs_epi32(v[2], v[3]));
        let high = _mm_packs_epi16(_mm_packs_epi32(v[4], v[5]), _mm_packs_epi32(v[6], v[7]));
        let last = _mm_packs_epi16(_mm_packs_epi32(v[8], v[8]), _mm_packs_epi32(v[8], v[8]));
        _mm_movemask_epi8(low) as u32 as u64
            | (_mm_movemask_epi8(high) as u32 as u64) << 16
            | ((_mm_movemask_epi8(last) & 0xF) as u64) << 32
    }
}

/// Loads digit `d`'s four words (the padding one included) as one aligned vector.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn digit_vector(cand: &[u32; WORDS], d: usize) -> std::arch::x86_64::__m128i {
    // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. The load
    // reads four consecutive u32 of `cand` that the slice checks are there, at a multiple of
    // 16 bytes from the start of the 16-byte aligned `State` (`cand` is its first field); a
    // caller with a `cand` elsewhere still reads valid memory, as the load is unaligned.
    unsafe { std::arch::x86_64::_mm_loadu_si128(cand[4 * d..4 * d + 4].as_ptr().cast()) }
}

/// Sets the three words of digit `d` in `words` (laid out as [`State::cand`]) and its padding
/// word, to 0, with one 16-byte store, which a later load of the digit's vector can take its
/// data from (a load spanning several smaller stores waits for them to reach the cache).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn put_digit(words: &mut [u32; WORDS], d: usize, w: [u32; 3]) {
    use std::arch::x86_64::{_mm_setr_epi32, _mm_storeu_si128};
    // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. The store
    // writes four consecutive u32 of `words`, which the slice checks are there; the unaligned
    // store needs no alignment.
    unsafe {
        let v = _mm_setr_epi32(w[0] as i32, w[1] as i32, w[2] as i32, 0);
        _mm_storeu_si128(words[4 * d..4 * d + 4].as_mut_ptr().cast(), v);
    }
}

/// Sets the three words of digit `d` in `words` (laid out as [`State::cand`]).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn put_digit(words: &mut [u32; WORDS], d: usize, w: [u32; 3]) {
    words[4 * d..4 * d + 3].copy_from_slice(&w);
}

/// The bands (bit `b`) all nine of whose words are set in `words` (bit `i` for `cand[i]`).
#[inline(always)]
fn bands_of(words: u64) -> u32 {
    let all = |b: u32| (words & BAND0_WORDS << b == BAND0_WORDS << b) as u32;
    all(0) | all(1) << 1 | all(2) << 2
}

impl State {
    /// Removes the cells `cells[b]` of each band `b` from every digit's word but the cells
    /// `own[i]` of word `i` (which it must hold: the digit placed there), marking the words
    /// that lose any dirty: a 4-word vector operation per digit instead of 27 scalar ones.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn clear(&mut self, cells: [u32; 3], own: &[u32; WORDS]) {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_or_si128, _mm_setr_epi32,
            _mm_storeu_si128,
        };
        let [a, b, c] = cells.map(|x| !x as i32);
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. Each
        // `p` points to four consecutive u32 of `self.cand` (the slice checks the range): 16
        // bytes, readable and writable through `&mut self`; each `q` to four of `own`, read
        // only; the unaligned loads and store need no alignment.
        let same = unsafe {
            // The padding lane is 0 in both `cand` and `own`, and stays so.
            let keep = _mm_setr_epi32(a, b, c, 0);
            // Per word, all ones where it kept every cell.
            let same: [__m128i; 9] = std::array::from_fn(|d| {
                let p = self.cand[4 * d..4 * d + 4].as_mut_ptr().cast::<__m128i>();
                let q = own[4 * d..4 * d + 4].as_ptr().cast::<__m128i>();
                let old = _mm_loadu_si128(p);
                let new = _mm_or_si128(_mm_and_si128(old, keep), _mm_loadu_si128(q));
                _mm_storeu_si128(p, new);
                _mm_cmpeq_epi32(old, new)
            });
            word_mask(same)
        };
        self.dirty |= !same & ALL_WORDS;
    }

    /// Removes the cells `cells[b]` of each band `b` from every digit's word but the cells
    /// `own[i]` of word `i`, marking the words that lose any dirty.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub(super) fn clear(&mut self, cells: [u32; 3], own: &[u32; WORDS]) {
        self.clear_scalar(cells, own);
    }

    /// [`State::clear`] one word at a time: the portable path, and the reference the vector
    /// path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    pub(super) fn clear_scalar(&mut self, cells: [u32; 3], own: &[u32; WORDS]) {
        for d in 0..9 {
            for (b, &c) in cells.iter().enumerate() {
                let i = 4 * d + b;
                self.restrict(i, !(c & !own[i]));
            }
        }
    }

    /// [`State::restrict`] on the three words of digit `d` at once, `keep[b]` for band `b`:
    /// one vector operation, so that a later load of the digit's vector finds one store to
    /// take it from (a load spanning several smaller stores waits for them to reach the
    /// cache).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn restrict_digit(&mut self, d: usize, keep: [u32; 3]) {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_movemask_ps, _mm_setr_epi32,
            _mm_storeu_si128,
        };
        let old = digit_vector(&self.cand, d);
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. The
        // store writes four consecutive u32 of `self.cand`, which the slice checks are there;
        // the unaligned store needs no alignment.
        let same = unsafe {
            let [a, b, c] = keep.map(|x| x as i32);
            let new = _mm_and_si128(old, _mm_setr_epi32(a, b, c, 0));
            _mm_storeu_si128(self.cand[4 * d..4 * d + 4].as_mut_ptr().cast(), new);
            _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(old, new))) as u64
        };
        self.dirty |= (!same & 7) << (4 * d);
    }

    /// [`State::restrict`] on the three words of digit `d`, `keep[b]` for band `b`.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub(super) fn restrict_digit(&mut self, d: usize, keep: [u32; 3]) {
        for (b, &k) in keep.iter().enumerate() {
            self.restrict(4 * d + b, k);
        }
    }

    /// For every band, the cells with at least one candidate left, those with at least two,
    /// and so on up to `N` (naked singles are the empty cells of the first not in the second;
    /// the branch on a cell looks for the second not in the third): the three bands at once, a
    /// digit's three words being one vector (the fourth lane, its padding word, is ignored):
    /// far fewer instructions than a band at a time.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn candidate_counts<const N: usize>(&self) -> [[u32; 3]; N] {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_or_si128, _mm_setzero_si128, _mm_storeu_si128,
        };
        let mut out = [[0u32; 3]; N];
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. Each
        // store writes the 16 bytes of a local `[u32; 4]`; the unaligned store needs no
        // alignment.
        unsafe {
            // `at_least[k]`: the cells with at least k + 1 candidates so far.
            let mut at_least: [__m128i; N] = [_mm_setzero_si128(); N];
            for d in 0..9 {
                let w = digit_vector(&self.cand, d);
                for k in (1..N).rev() {
                    at_least[k] = _mm_or_si128(at_least[k], _mm_and_si128(at_least[k - 1], w));
                }
                at_least[0] = _mm_or_si128(at_least[0], w);
            }
            for (o, v) in out.iter_mut().zip(at_least) {
                let mut lanes = [0u32; 4];
                _mm_storeu_si128(lanes.as_mut_ptr().cast(), v);
                *o = [lanes[0], lanes[1], lanes[2]];
            }
        }
        out
    }

    /// For every band, the cells with at least one candidate left, at least two, and so on up
    /// to `N`.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub(super) fn candidate_counts<const N: usize>(&self) -> [[u32; 3]; N] {
        self.candidate_counts_scalar()
    }

    /// [`State::candidate_counts`] a band at a time: the portable path, and the reference the
    /// vector path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    pub(super) fn candidate_counts_scalar<const N: usize>(&self) -> [[u32; 3]; N] {
        let mut at_least = [[0u32; 3]; N];
        // Word i is in band i % 4; within a band the digits come in order.
        for (i, &w) in self.cand.iter().enumerate().filter(|(i, _)| i % 4 < 3) {
            let b = i % 4;
            for k in (1..N).rev() {
                at_least[k][b] |= at_least[k - 1][b] & w;
            }
            at_least[0][b] |= w;
        }
        at_least
    }

    /// The bands (bit `b` for band `b`) where every digit has a single configuration left:
    /// the bands a minirow pass would give the key [`NO_PICK`](super::state::NO_PICK), read
    /// without one. Valid where no word is dirty, every word having been through its row
    /// matching: a digit then has a single configuration exactly when each row of its word
    /// uses a single box.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn settled_bands(&self) -> u32 {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cmpeq_epi32, _mm_or_si128, _mm_set1_epi32,
            _mm_setzero_si128, _mm_srli_epi32, _mm_sub_epi32,
        };
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available; they
        // only work on registers.
        let single = unsafe {
            let edges = _mm_set1_epi32(EDGE_BITS as i32);
            let low = _mm_set1_epi32(ROW_LOW as i32);
            // Per word, all ones where it has a single configuration.
            let single: [__m128i; 9] = std::array::from_fn(|d| {
                let w = digit_vector(&self.cand, d);
                let shifted = _mm_or_si128(_mm_srli_epi32(w, 1), _mm_srli_epi32(w, 2));
                let e = _mm_and_si128(_mm_or_si128(w, shifted), edges);
                let rest = _mm_and_si128(e, _mm_sub_epi32(e, low));
                _mm_cmpeq_epi32(rest, _mm_setzero_si128())
            });
            word_mask(single)
        };
        bands_of(single)
    }

    /// The bands where every digit has a single configuration left.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub(super) fn settled_bands(&self) -> u32 {
        self.settled_bands_scalar()
    }

    /// [`State::settled_bands`] one word at a time: the portable path, and the reference the
    /// vector path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    pub(super) fn settled_bands_scalar(&self) -> u32 {
        let mut single = 0;
        for (i, &w) in self.cand.iter().enumerate().filter(|(i, _)| i % 4 < 3) {
            // The box segments a row uses, as its lowest bit; taking away one per row (every
            // row has a cell) and keeping what was there leaves a row empty exactly when it
            // used one segment.
            let e = (w | w >> 1 | w >> 2) & EDGE_BITS;
            single |= ((e & e.wrapping_sub(ROW_LOW) == 0) as u64) << i;
        }
        bands_of(single)
    }
}
