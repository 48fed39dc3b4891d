//! Cheap bit counts for the grader's inner loops.
//!
//! The portable build (no `target-cpu`) has no popcount instruction, so `count_ones` costs a
//! dozen or more instructions per word; the chains ask "exactly one place left?" hundreds of
//! millions of times on a hard puzzle. The tests ask most questions in one or two steps of
//! `x & (x - 1)` (which clears the lowest set bit), and count a cell's nine candidates with a
//! table.

/// Bit-count questions on a set (a `u128` of cells or a `u16` of digits).
pub(crate) trait Bits: Copy {
    /// Exactly one bit set.
    fn one(self) -> bool;
    /// Exactly two bits set.
    fn two(self) -> bool;
    /// Two or more bits set.
    fn many(self) -> bool;
    /// Exactly `k` bits set (for small `k`: one step per bit).
    fn exactly(self, k: u32) -> bool;
    /// `k` or more bits set (for small `k`: one step per bit).
    fn at_least(self, k: u32) -> bool;
}

macro_rules! impl_bits {
    ($($t:ty),*) => {$(
        impl ClearLowest for $t {
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & (self - 1)
            }
        }
        impl Bits for $t {
            #[inline(always)]
            fn one(self) -> bool {
                self != 0 && self & self.wrapping_sub(1) == 0
            }
            #[inline(always)]
            fn two(self) -> bool {
                self.many() && (self & self.wrapping_sub(1)).one()
            }
            #[inline(always)]
            fn many(self) -> bool {
                self & self.wrapping_sub(1) != 0
            }
            #[inline(always)]
            fn exactly(self, k: u32) -> bool {
                without_lowest(self, k) == Some(0)
            }
            #[inline(always)]
            fn at_least(self, k: u32) -> bool {
                without_lowest(self, k).is_some()
            }
        }
    )*};
}
impl_bits!(u16, u128);

/// A set that can drop its lowest member, which is all the counting questions need.
trait ClearLowest: Copy {
    fn is_empty(self) -> bool;
    fn clear_lowest(self) -> Self;
}

/// `x` with its `k` lowest bits cleared, or `None` if it has fewer than `k`.
#[inline(always)]
fn without_lowest<T: ClearLowest>(mut x: T, k: u32) -> Option<T> {
    for _ in 0..k {
        if x.is_empty() {
            return None;
        }
        x = x.clear_lowest();
    }
    Some(x)
}

/// The number of bits set in each byte value.
static POP8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

/// The number of digits in a digit mask (any `u16`), by table.
#[inline(always)]
pub(crate) fn count16(m: u16) -> u32 {
    POP8[(m & 0xff) as usize] as u32 + POP8[(m >> 8) as usize] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_questions_match_count_ones() {
        let words: Vec<u128> = (0..128)
            .flat_map(|i| {
                let a = 1u128 << i;
                // One bit, two bits, and every third time a third next to the first.
                let third = if i % 3 == 0 { a >> 1 } else { 0 };
                (0..128).map(move |j| a | (1u128 << j) | third)
            })
            .chain([0, u128::MAX, 0x1ff, 0x1ff << 72])
            .collect();
        for x in words {
            assert_eq!(x.one(), x.count_ones() == 1, "{x:#x}");
            assert_eq!(x.two(), x.count_ones() == 2, "{x:#x}");
            assert_eq!(x.many(), x.count_ones() >= 2, "{x:#x}");
            for k in 0..5 {
                assert_eq!(x.exactly(k), x.count_ones() == k, "{x:#x} {k}");
                assert_eq!(x.at_least(k), x.count_ones() >= k, "{x:#x} {k}");
            }
        }
        for m in 0..=u16::MAX {
            assert_eq!(m.one(), m.count_ones() == 1);
            assert_eq!(m.two(), m.count_ones() == 2);
            assert_eq!(m.many(), m.count_ones() >= 2);
            for k in 0..5 {
                assert_eq!(m.exactly(k), m.count_ones() == k);
                assert_eq!(m.at_least(k), m.count_ones() >= k);
            }
            assert_eq!(count16(m), m.count_ones());
        }
    }
}
