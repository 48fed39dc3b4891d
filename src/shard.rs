//! Shards: part K of N of a run, so that N machines (a Slurm job array, a Kubernetes Indexed
//! Job, GNU parallel) can share one corpus. Shard K takes the contiguous range of records (or
//! of `generate`'s puzzle indices) given by [`Shard::range`]; the ranges of shards 0..N-1 follow
//! each other and cover everything, so their outputs concatenated are the one-machine output.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Part `index` of `count`, from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which part, `0 <= index < count`.
    index: u64,
    /// How many parts.
    count: u64,
}

impl Shard {
    /// Part `index` of `count`; `None` unless `0 <= index < count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index < count).then_some(Shard { index, count })
    }

    /// Which part, from 0.
    pub fn index(self) -> u64 {
        self.index
    }

    /// How many parts.
    pub fn count(self) -> u64 {
        self.count
    }

    /// The indices of this part's items among `total`: `[K*total/N, (K+1)*total/N)`. Sizes
    /// differ by at most one, and the parts of 0..N follow each other without gap or overlap.
    ///
    /// ```
    /// use sudoku_batch::shard::Shard;
    /// let parts: Vec<_> = (0..3).map(|k| Shard::new(k, 3).unwrap().range(10)).collect();
    /// assert_eq!(parts, [0..3, 3..6, 6..10]);
    /// ```
    pub fn range(self, total: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(total) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N` with `0 <= K < N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not K/N, such as 0/4"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| format!("`{s}` is not K/N, such as 0/4"))
        };
        let (k, n) = (number(k)?, number(n)?);
        if n == 0 {
            return Err(format!(
                "`{s}`: N, the number of parts, must be at least 1 (such as 0/4 for the first \
                 of four parts)"
            ));
        }
        Shard::new(k, n).ok_or_else(|| {
            format!(
                "`{s}`: the shard K of N must be at least 0 and less than N (0/{n} to {}/{n})",
                n.saturating_sub(1)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_tile_the_whole() {
        for total in [0, 1, 2, 5, 7, 100, 1023] {
            for n in 1..=9 {
                let mut next = 0;
                for k in 0..n {
                    let r = Shard::new(k, n).unwrap().range(total);
                    assert_eq!(r.start, next, "total {total}, {k}/{n}");
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn parses_k_of_n_and_refuses_the_rest() {
        assert_eq!("2/7".parse(), Ok(Shard::new(2, 7).unwrap()));
        for bad in ["7/7", "1/0", "0/0", "-1/3", "3", "a/b", "1/2/3", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let zero = "0/0".parse::<Shard>().unwrap_err();
        assert!(zero.contains("must be at least 1"), "{zero}");
        let past = "7/7".parse::<Shard>().unwrap_err();
        assert!(past.contains("(0/7 to 6/7)"), "{past}");
    }
}
