//! Between the crate's [`Grid`] and the band words: the mask of a grid's clues, which the
//! clue loading reads, and the grid of a solved state.

use super::state::State;
use crate::grid::{CELLS, Grid};

impl State {
    /// The grid of a solved state.
    pub(super) fn grid(&self) -> Grid {
        // Only digits 1-9 are written.
        Grid::from_digits(self.values())
    }

    /// The four bit planes of band `b`: plane `k` holds the cells whose value has bit `k`
    /// set, a value being the OR of the digits (1-9) that the cell still has. In a solved
    /// state that is the cell's one digit.
    #[inline(always)]
    fn planes(&self, b: usize) -> [u32; 4] {
        let c = |digit: usize| self.cand[(digit - 1) * 4 + b];
        [
            c(1) | c(3) | c(5) | c(7) | c(9),
            c(2) | c(3) | c(6) | c(7),
            c(4) | c(5) | c(6) | c(7),
            c(8) | c(9),
        ]
    }

    /// The value of every cell (see [`State::planes`]), 16 cells at a time: each plane's bits
    /// become bytes of 0 or -1, which add up to the values: far fewer instructions than a
    /// store per cell.
    #[cfg(target_arch = "x86_64")]
    pub(super) fn values(&self) -> [u8; CELLS] {
        use std::arch::x86_64::{
            _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_cvtsi32_si128, _mm_setr_epi8,
            _mm_setzero_si128, _mm_storeu_si128, _mm_sub_epi8, _mm_unpackhi_epi32,
            _mm_unpacklo_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi32,
        };
        // Room for the last band's last 16-byte store, which runs past the 81 cells.
        let mut out = [0u8; 96];
        // SAFETY: SSE2 is part of the x86_64 baseline, so its intrinsics are available. Each
        // store goes to 16 bytes of `out` that the slice checks are there; the unaligned store
        // needs no alignment.
        unsafe {
            // Byte i: bit i % 8, the bit of a plane's byte that cell i of 16 reads.
            let bit = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
            for b in 0..3 {
                let planes = self.planes(b);
                let (mut low, mut high) = (_mm_setzero_si128(), _mm_setzero_si128());
                // Highest plane first: doubling the sum before adding the next plane's bit
                // gives each plane its weight.
                for &p in planes.iter().rev() {
                    // Each byte of the plane repeated eight times: bytes 0-1 cover cells 0-15,
                    // bytes 2-3 cells 16-31.
                    let x = _mm_cvtsi32_si128(p as i32);
                    let x = _mm_unpacklo_epi8(x, x);
                    let x = _mm_unpacklo_epi16(x, x);
                    let (l, h) = (_mm_unpacklo_epi32(x, x), _mm_unpackhi_epi32(x, x));
                    let l = _mm_cmpeq_epi8(_mm_and_si128(l, bit), bit);
                    let h = _mm_cmpeq_epi8(_mm_and_si128(h, bit), bit);
                    // A set bit is -1: subtracting it adds one.
                    low = _mm_sub_epi8(_mm_add_epi8(low, low), l);
                    high = _mm_sub_epi8(_mm_add_epi8(high, high), h);
                }
                // Bands go in order, so the zeros a band writes past its 27 cells are
                // overwritten by the next band.
                let at = b * 27;
                _mm_storeu_si128(out[at..at + 16].as_mut_ptr().cast(), low);
                _mm_storeu_si128(out[at + 16..at + 32].as_mut_ptr().cast(), high);
            }
        }
        let mut values = [0u8; CELLS];
        values.copy_from_slice(&out[..CELLS]);
        values
    }

    /// The value of every cell.
    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn values(&self) -> [u8; CELLS] {
        self.values_scalar()
    }

    /// [`State::values`] one cell at a time: the portable path, and the reference the vector
    /// path is tested against.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    pub(super) fn values_scalar(&self) -> [u8; CELLS] {
        let mut values = [0u8; CELLS];
        for (b, band) in values.chunks_exact_mut(27).enumerate() {
            let planes = self.planes(b);
            for (i, v) in band.iter_mut().enumerate() {
                *v = (0..4).map(|k| ((planes[k] >> i & 1) << k) as u8).sum();
            }
        }
        values
    }
}

/// The cells of a grid that hold a clue, bit `cell`. Eight cells at a time: cell values are
/// at most 9, so adding 0x7F to a byte sets its top bit exactly when it is not zero, without
/// carrying into the next byte, and a multiplication gathers the eight top bits.
pub(super) fn clue_mask(cells: &[u8; CELLS]) -> u128 {
    let mut mask = 0u128;
    let mut chunks = cells.chunks_exact(8);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        let x = u64::from_le_bytes(bytes);
        let top = x.wrapping_add(0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080;
        let bits = top.wrapping_mul(0x0002_0408_1020_4081) >> 56;
        mask |= (bits as u128) << (8 * i);
    }
    for (i, &v) in chunks.remainder().iter().enumerate() {
        mask |= ((v != 0) as u128) << (CELLS / 8 * 8 + i);
    }
    mask
}
