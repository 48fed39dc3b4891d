//! Counting in fixed memory: histograms on a log scale whose percentiles are read from their
//! buckets ([`LogHistogram`]), exact histograms of small values ([`Counts`]), and the N largest
//! items of a stream ([`TopN`]). Their size does not depend on how many values they count.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::Serialize;

/// Buckets per doubling of a [`LogHistogram`] (and values below it each have their own).
const SUB_BUCKETS: u64 = 16;
/// `log2(SUB_BUCKETS)`.
const SUB_BITS: u32 = 4;
/// Buckets of a [`LogHistogram`]: 16 exact ones, then 16 per doubling up to `u64::MAX`.
const BUCKETS: usize = (SUB_BUCKETS + (64 - SUB_BITS as u64) * SUB_BUCKETS) as usize;

/// The precision of a percentile read from a [`LogHistogram`], as words for the page: the
/// middle of a bucket 1/16 of a doubling wide is within 1/32 of any value in it.
pub const PRECISION: &str = "within 3.2% (log buckets, 16 per doubling); max is exact";

/// The percentiles the report gives, as fractions.
pub const PERCENTILES: [(&str, f64); 3] = [("p50", 0.50), ("p90", 0.90), ("p99", 0.99)];

/// A histogram of `u64` values in buckets of equal width on a log scale: values below 16 each
/// have their own bucket, larger ones 16 buckets per doubling (a bucket spans 1/16 of its
/// lower bound at most). 976 counters, whatever the number of values.
#[derive(Debug, Clone)]
pub struct LogHistogram {
    counts: Box<[u64; BUCKETS]>,
    total: u64,
    min: u64,
    max: u64,
    sum: u128,
}

impl Default for LogHistogram {
    fn default() -> Self {
        LogHistogram {
            counts: Box::new([0; BUCKETS]),
            total: 0,
            min: u64::MAX,
            max: 0,
            sum: 0,
        }
    }
}

/// The bucket of `value`.
fn bucket(value: u64) -> usize {
    if value < SUB_BUCKETS {
        return value as usize;
    }
    let exponent = 63 - value.leading_zeros(); // >= SUB_BITS
    let shift = exponent - SUB_BITS;
    let mantissa = (value >> shift) & (SUB_BUCKETS - 1);
    (SUB_BUCKETS + u64::from(shift) * SUB_BUCKETS + mantissa) as usize
}

/// The values of bucket `i`: from its lower bound to its upper bound, both included.
fn bounds(i: usize) -> (u64, u64) {
    let i = i as u64;
    if i < SUB_BUCKETS {
        return (i, i);
    }
    let shift = (i - SUB_BUCKETS) / SUB_BUCKETS;
    let mantissa = (i - SUB_BUCKETS) % SUB_BUCKETS;
    let low = (SUB_BUCKETS + mantissa) << shift;
    (low, low + ((1u64 << shift) - 1))
}

impl LogHistogram {
    /// Counts `value`.
    pub fn add(&mut self, value: u64) {
        self.counts[bucket(value)] += 1;
        self.total += 1;
        self.min = self.min.min(value);
        self.max = self.max.max(value);
        self.sum += u128::from(value);
    }

    /// The values counted.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The largest value counted (exact); `None` when none was.
    pub fn max(&self) -> Option<u64> {
        (self.total > 0).then_some(self.max)
    }

    /// The mean of the values counted (exact); `None` when none was.
    pub fn mean(&self) -> Option<f64> {
        (self.total > 0).then(|| self.sum as f64 / self.total as f64)
    }

    /// How many values were `0`.
    pub fn zeros(&self) -> u64 {
        self.counts[0]
    }

    /// The value at fraction `q` (0 to 1) of the values in order, by nearest rank: the middle
    /// of its bucket, kept within the smallest and largest value counted, so within 1/32 of
    /// the exact value (the smallest and the largest are exact). `None` when no value was
    /// counted.
    pub fn percentile(&self, q: f64) -> Option<u64> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        // The ends are known exactly.
        if rank == self.total {
            return Some(self.max);
        }
        if rank == 1 {
            return Some(self.min);
        }
        let mut seen = 0;
        for (i, &n) in self.counts.iter().enumerate() {
            seen += n;
            if seen >= rank {
                let (low, high) = bounds(i);
                return Some((low + (high - low) / 2).clamp(self.min, self.max));
            }
        }
        Some(self.max)
    }

    /// The counts grouped `per_doubling` buckets per doubling (1, 2, 4, 8 or 16), from the
    /// smallest non-zero value counted to the largest: `(low, high, count)` with `high`
    /// excluded, zeros left out. Empty bins inside the range are kept, so that the bins tile
    /// the axis.
    pub fn bins(&self, per_doubling: u64) -> Vec<(u64, u64, u64)> {
        let group = (SUB_BUCKETS / per_doubling.clamp(1, SUB_BUCKETS)) as usize;
        let mut bins: Vec<(u64, u64, u64)> = Vec::new();
        // Values 1..16 have exact buckets: grouped by the same log edges as the rest.
        for (i, &n) in self.counts.iter().enumerate().skip(1) {
            let (bin_low, bin_high) = bin_of(bounds(i).0, group);
            match bins.last_mut() {
                Some(last) if last.0 == bin_low => last.2 += n,
                _ => bins.push((bin_low, bin_high, n)),
            }
        }
        let first = bins.iter().position(|b| b.2 > 0);
        let last = bins.iter().rposition(|b| b.2 > 0);
        match (first, last) {
            (Some(first), Some(last)) => bins[first..=last].to_vec(),
            _ => Vec::new(),
        }
    }

    /// Adds every value of `other`.
    pub fn merge(&mut self, other: &LogHistogram) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a += b;
        }
        self.total += other.total;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.sum += other.sum;
    }

    /// The summary the report gives: count, percentiles, max and mean.
    pub fn summary(&self) -> Percentiles {
        Percentiles {
            count: self.total,
            p50: self.percentile(0.50),
            p90: self.percentile(0.90),
            p99: self.percentile(0.99),
            max: self.max(),
            mean: self.mean(),
        }
    }
}

/// The bin of `group` buckets per 16 that holds the bucket starting at `low`: a doubling split
/// into equal steps, as `(low, high excluded)`.
fn bin_of(low: u64, group: usize) -> (u64, u64) {
    let exponent = 63 - low.leading_zeros();
    let octave = 1u64 << exponent;
    // Where `low` falls in its doubling, in 16ths, then the bin's 16ths.
    let sixteenths = if exponent >= SUB_BITS {
        ((low - octave) >> (exponent - SUB_BITS)) as usize
    } else {
        (((low - octave) << (SUB_BITS - exponent)) as usize).min(15)
    };
    let start = sixteenths / group * group;
    let at = |s: usize| -> u64 {
        if exponent >= SUB_BITS {
            octave + ((s as u64) << (exponent - SUB_BITS))
        } else {
            // Small values: a bin's edge is rounded up to a whole number.
            let scaled = (octave << SUB_BITS) + ((s as u64) << exponent);
            scaled.div_ceil(SUB_BUCKETS)
        }
    };
    let bin_low = at(start);
    let bin_high = if start + group >= SUB_BUCKETS as usize {
        octave.saturating_mul(2)
    } else {
        at(start + group)
    };
    (bin_low, bin_high.max(bin_low + 1))
}

/// The percentiles of a distribution, as the page and the JSON give them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Percentiles {
    /// Values counted.
    pub count: u64,
    /// The median.
    pub p50: Option<u64>,
    /// 90th percentile.
    pub p90: Option<u64>,
    /// 99th percentile.
    pub p99: Option<u64>,
    /// The largest value.
    pub max: Option<u64>,
    /// The mean.
    pub mean: Option<f64>,
}

/// An exact histogram of small whole values (clue counts, ratings in tenths): one counter per
/// value from 0 to `N - 1`, larger values counted in the last.
#[derive(Debug, Clone)]
pub struct Counts<const N: usize> {
    counts: [u64; N],
    total: u64,
}

impl<const N: usize> Default for Counts<N> {
    fn default() -> Self {
        Counts {
            counts: [0; N],
            total: 0,
        }
    }
}

impl<const N: usize> Counts<N> {
    /// Counts `value`.
    pub fn add(&mut self, value: usize) {
        self.counts[value.min(N - 1)] += 1;
        self.total += 1;
    }

    /// The count of each value.
    pub fn counts(&self) -> &[u64; N] {
        &self.counts
    }

    /// The values counted.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The value at fraction `q` of the values in order, by nearest rank (exact).
    pub fn percentile(&self, q: f64) -> Option<usize> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        self.counts.iter().position(|&n| {
            seen += n;
            seen >= rank
        })
    }

    /// The largest value counted.
    pub fn max(&self) -> Option<usize> {
        self.counts.iter().rposition(|&n| n > 0)
    }

    /// The mean of the values counted.
    pub fn mean(&self) -> Option<f64> {
        let sum: u64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(v, &n)| v as u64 * n)
            .sum();
        (self.total > 0).then(|| sum as f64 / self.total as f64)
    }

    /// The values from the smallest to the largest counted, with their counts.
    pub fn range(&self) -> Vec<(usize, u64)> {
        let first = self.counts.iter().position(|&n| n > 0);
        let last = self.max();
        match (first, last) {
            (Some(first), Some(last)) => (first..=last).map(|v| (v, self.counts[v])).collect(),
            _ => Vec::new(),
        }
    }
}

/// The `n` largest items of a stream, by their key (ties: the first seen is kept): a
/// min-heap of at most `n` items.
#[derive(Debug, Clone)]
pub struct TopN<K: Ord, T> {
    n: usize,
    /// Items by (key, -sequence): the smallest, or of equal keys the latest, on top.
    heap: BinaryHeap<Reverse<Entry<K, T>>>,
    seen: u64,
}

#[derive(Debug, Clone)]
struct Entry<K, T> {
    key: K,
    seq: Reverse<u64>,
    item: T,
}

impl<K: Ord, T> PartialEq for Entry<K, T> {
    fn eq(&self, other: &Self) -> bool {
        (&self.key, self.seq) == (&other.key, other.seq)
    }
}
impl<K: Ord, T> Eq for Entry<K, T> {}
impl<K: Ord, T> PartialOrd for Entry<K, T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<K: Ord, T> Ord for Entry<K, T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (&self.key, self.seq).cmp(&(&other.key, other.seq))
    }
}

impl<K: Ord, T> TopN<K, T> {
    /// Keeps the `n` largest.
    pub fn new(n: usize) -> Self {
        TopN {
            n,
            heap: BinaryHeap::with_capacity(n + 1),
            seen: 0,
        }
    }

    /// Whether an item with `key` would be kept: callers skip building items that would not.
    pub fn would_keep(&self, key: &K) -> bool {
        self.heap.len() < self.n || self.heap.peek().is_some_and(|Reverse(e)| *key > e.key)
    }

    /// Offers `item` with `key`.
    pub fn push(&mut self, key: K, item: T) {
        self.seen += 1;
        if self.n == 0 || !self.would_keep(&key) {
            return;
        }
        self.heap.push(Reverse(Entry {
            key,
            seq: Reverse(self.seen),
            item,
        }));
        if self.heap.len() > self.n {
            self.heap.pop();
        }
    }

    /// The items kept, largest first (of equal keys, the first seen first).
    pub fn into_sorted(self) -> Vec<(K, T)> {
        let mut entries: Vec<Entry<K, T>> = self.heap.into_iter().map(|Reverse(e)| e).collect();
        entries.sort_by(|a, b| b.cmp(a));
        entries.into_iter().map(|e| (e.key, e.item)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact nearest-rank percentile of `values`, counted independently.
    fn exact(values: &[u64], q: f64) -> u64 {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    }

    #[test]
    fn buckets_tile_the_values_and_are_one_sixteenth_of_a_doubling_wide() {
        let mut next = 0;
        for i in 0..BUCKETS {
            let (low, high) = bounds(i);
            assert_eq!(low, next, "bucket {i}");
            assert_eq!(bucket(low), i);
            assert_eq!(bucket(high), i);
            assert!((high - low) as f64 <= low as f64 / 16.0, "bucket {i}");
            next = high.wrapping_add(1);
        }
        assert_eq!(next, 0, "the last bucket ends at u64::MAX");
    }

    #[test]
    fn percentiles_are_within_a_thirty_second_of_the_exact_ones() {
        // A skewed spread of values, as solving times are: a few slow ones.
        let mut state = 12345u64;
        let values: Vec<u64> = (0..20_000)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let x = state >> 33;
                (x % 1000) * (x % 1000) * (1 + x % 7) + x % 13
            })
            .collect();
        let mut h = LogHistogram::default();
        values.iter().for_each(|&v| h.add(v));
        for q in [0.0, 0.01, 0.5, 0.9, 0.99, 0.999, 1.0] {
            let (got, want) = (h.percentile(q).unwrap(), exact(&values, q));
            let error = (got as f64 - want as f64).abs();
            assert!(error <= want as f64 / 32.0, "q {q}: {got} vs exact {want}");
        }
        assert_eq!(h.max(), values.iter().copied().max());
        assert_eq!(h.percentile(1.0), h.max());
        assert_eq!(h.total(), 20_000);
        let mean = values.iter().sum::<u64>() as f64 / values.len() as f64;
        assert!((h.mean().unwrap() - mean).abs() < 1e-6);
    }

    #[test]
    fn small_values_are_exact() {
        let values = [0, 0, 1, 3, 3, 3, 7, 15];
        let mut h = LogHistogram::default();
        values.iter().for_each(|&v| h.add(v));
        for q in [0.1, 0.25, 0.5, 0.75, 0.9, 1.0] {
            assert_eq!(h.percentile(q), Some(exact(&values, q)), "q {q}");
        }
        assert_eq!(h.zeros(), 2);
        assert_eq!(LogHistogram::default().percentile(0.5), None);
    }

    #[test]
    fn bins_tile_the_axis_and_hold_every_value_but_zero() {
        let values = [0, 1, 2, 3, 5, 9, 17, 100, 1000, 1001, 123_456, 10_000_000];
        let mut h = LogHistogram::default();
        values.iter().for_each(|&v| h.add(v));
        for per in [1, 2, 4, 16] {
            let bins = h.bins(per);
            assert_eq!(
                bins.iter().map(|b| b.2).sum::<u64>(),
                values.len() as u64 - 1
            );
            for pair in bins.windows(2) {
                assert_eq!(pair[0].1, pair[1].0, "{per}: {pair:?}");
            }
            for &v in &values[1..] {
                let holding: Vec<_> = bins.iter().filter(|b| b.0 <= v && v < b.1).collect();
                assert_eq!(holding.len(), 1, "{per}: {v} in {bins:?}");
            }
        }
        // One bin per doubling: the powers of two.
        let bins = h.bins(1);
        assert_eq!(bins[0], (1, 2, 1));
        assert_eq!(bins[1], (2, 4, 2));
    }

    #[test]
    fn counts_give_exact_percentiles() {
        let mut c = Counts::<10>::default();
        for v in [2, 2, 3, 5, 5, 5, 5, 12] {
            c.add(v);
        }
        assert_eq!(c.percentile(0.5), Some(5));
        assert_eq!(c.percentile(0.25), Some(2));
        assert_eq!(c.max(), Some(9), "values past the end count in the last");
        assert_eq!(c.range().first(), Some(&(2, 2)));
        assert_eq!(c.total(), 8);
    }

    #[test]
    fn top_n_keeps_the_largest_and_the_first_of_equals() {
        let mut top = TopN::new(3);
        for (i, key) in [5, 1, 9, 5, 7, 9, 2].into_iter().enumerate() {
            top.push(key, i);
        }
        assert_eq!(top.into_sorted(), vec![(9, 2), (9, 5), (7, 4)]);
        let mut top = TopN::new(2);
        for (i, key) in [4, 4, 4].into_iter().enumerate() {
            top.push(key, i);
        }
        assert_eq!(top.into_sorted(), vec![(4, 0), (4, 1)]);
    }
}
