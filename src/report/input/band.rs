//! The `band` column of `grade --min-er/--max-er` read back: where each puzzle falls against
//! the band (`< 9.0`, `>= 9.0`, `3.0-7.5`, `> 7.5`, ...), counted per value, apart for the
//! puzzles rated in full and those whose rating stopped as soon as their band was known
//! (which have no ER, EP or ED: only the band says how hard they are).

use serde::Serialize;

/// Distinct values of the `band` column counted apart; more are counted as `other` (one run
/// of `grade` writes at most three).
const MAX_BANDS: usize = 16;

/// The puzzles of one value of the `band` column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BandCount {
    /// The band as written: `< 9.0`, `>= 9.0`, `<= 4.5`, `> 4.5` or `3.0-7.5`.
    pub band: String,
    /// Puzzles rated in full that fall in it.
    pub rated: u64,
    /// Puzzles whose rating stopped as soon as they were known to fall in it: at least its
    /// least ER, with no rating of their own.
    pub stopped: u64,
}

/// Where a value of the `band` column sorts: by the rating it names, then below it, up to
/// it, from it, above it; values that name no rating last.
fn order(band: &str) -> (u32, u8) {
    let tenths = |t: &str| -> Option<u32> {
        let v: f64 = t.trim().parse().ok()?;
        (0.0..1000.0)
            .contains(&v)
            .then(|| (v * 10.0).round() as u32)
    };
    let at = |t: &str, rank: u8| tenths(t).map(|v| (v, rank));
    let parsed = if let Some(t) = band.strip_prefix("<=") {
        at(t, 1)
    } else if let Some(t) = band.strip_prefix(">=") {
        at(t, 2)
    } else if let Some(t) = band.strip_prefix('<') {
        at(t, 0)
    } else if let Some(t) = band.strip_prefix('>') {
        at(t, 3)
    } else {
        band.split_once('-').and_then(|(low, _)| at(low, 2))
    };
    parsed.unwrap_or((u32::MAX, 0))
}

/// The puzzles per value of the `band` column, filled row by row.
#[derive(Debug, Default)]
pub(super) struct Bands {
    counts: Vec<BandCount>,
}

impl Bands {
    /// Counts a puzzle in `band`: `rated` in full, or stopped there.
    pub(super) fn add(&mut self, band: &[u8], rated: bool) {
        let at = match self.counts.iter().position(|c| c.band.as_bytes() == band) {
            Some(at) => at,
            None => {
                let name = if self.counts.len() < MAX_BANDS {
                    String::from_utf8_lossy(band).into_owned()
                } else {
                    "other".to_string()
                };
                match self.counts.iter().position(|c| c.band == name) {
                    Some(at) => at,
                    None => {
                        self.counts.push(BandCount {
                            band: name,
                            rated: 0,
                            stopped: 0,
                        });
                        self.counts.len() - 1
                    }
                }
            }
        };
        let count = &mut self.counts[at];
        if rated {
            count.rated += 1;
        } else {
            count.stopped += 1;
        }
    }

    /// The counts, from the easiest band to the hardest.
    pub(super) fn finish(mut self) -> Vec<BandCount> {
        // A stable sort: values that name no rating stay in the order met.
        self.counts.sort_by_key(|c| order(&c.band));
        self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_sort_from_the_easiest_to_the_hardest() {
        let mut bands = Bands::default();
        for band in [
            "> 7.5", "3.0-7.5", "odd", "< 3.0", ">= 9.0", "<= 4.5", "< 9.0",
        ] {
            bands.add(band.as_bytes(), true);
        }
        bands.add(b"> 7.5", false);
        let got: Vec<(String, u64, u64)> = bands
            .finish()
            .into_iter()
            .map(|c| (c.band, c.rated, c.stopped))
            .collect();
        let want = [
            ("< 3.0", 1, 0),
            ("3.0-7.5", 1, 0),
            ("<= 4.5", 1, 0),
            ("> 7.5", 1, 1),
            ("< 9.0", 1, 0),
            (">= 9.0", 1, 0),
            ("odd", 1, 0),
        ]
        .map(|(b, r, s)| (b.to_string(), r, s));
        assert_eq!(got, want);
    }
}
