//! The rating stage: a puzzle with exactly one solution rated on the Sudoku Explainer scale
//! by the [`logic`](crate::logic) grader, on the worker threads, and the ER bands a summary
//! counts.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use crate::grid::Grid;
use crate::logic::{Bounded, Budget, GradeError, Grader, Rating, Ruleset};
use crate::solver::Stop;

/// A puzzle's rating (or, rated against an [`ErBand`], the bound it stopped at), or why it
/// has none.
pub type Rated = Result<Bounded, GradeError>;

/// How to rate puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GradeOptions {
    /// Which ladder of techniques to follow.
    pub ruleset: Ruleset,
    /// Give up rating one puzzle after this long: its row keeps its status, with no rating
    /// and the reason in `error`. `None`: no limit.
    pub max_time: Option<Duration>,
    /// Rate only as far as needed to place each puzzle in (below, within or above) this band
    /// ([`ErBand::limit`]).
    pub band: ErBand,
}

impl GradeOptions {
    /// Rates `puzzle`, which the caller has proved to have exactly one solution (it is not
    /// searched again), with `grader` within the time limit, giving up too when `stop` is set;
    /// with a [`band`](Self::band), only as far as it needs.
    pub fn rate(&self, grader: &mut Grader, puzzle: &Grid, stop: Option<Stop>) -> Rated {
        let budget = Budget {
            deadline: self.max_time.map(|t| Instant::now() + t),
            stop: stop.map(Stop::flag),
        };
        let limit = self.band.limit();
        match grader.grade_below_unique(puzzle, &budget, limit.unwrap_or(u16::MAX)) {
            // Without a band, a rating that stops is a puzzle beyond the techniques known.
            Ok(Bounded::AtLeast(_)) if limit.is_none() => Err(GradeError::TooHard),
            rated => rated,
        }
    }
}

/// A band of ER (`--min-er`, `--max-er`, in tenths, both ends included); neither end: no band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ErBand {
    /// The least ER in the band.
    pub min: Option<u16>,
    /// The greatest ER in the band.
    pub max: Option<u16>,
}

/// Where a puzzle's rating falls against an [`ErBand`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Below the band's least ER.
    Below,
    /// Within the band.
    Within,
    /// Above the band's greatest ER.
    Above,
}

impl ErBand {
    /// True when either end is given.
    pub fn any(&self) -> bool {
        self.min.is_some() || self.max.is_some()
    }

    /// The rating a bounded rating stops at (ER known to be this or more): one tenth above the
    /// greatest ER, or without one the least; `None` without a band.
    pub fn limit(&self) -> Option<u16> {
        self.max.map(|m| m.saturating_add(1)).or(self.min)
    }

    /// Where `rated` falls. A rating stopped at a bound stopped at the band's
    /// [`limit`](Self::limit): above the greatest ER, or (without one) the least.
    pub fn side(&self, rated: &Bounded) -> Side {
        match rated {
            Bounded::Rated(r) => self.side_of(r.er),
            Bounded::AtLeast(limit) => self.side_of(*limit),
        }
    }

    /// Where an ER (in tenths) falls.
    pub fn side_of(&self, er: u16) -> Side {
        if self.min.is_some_and(|m| er < m) {
            Side::Below
        } else if self.max.is_some_and(|m| er > m) {
            Side::Above
        } else {
            Side::Within
        }
    }

    /// The `band` column of a rating: `< 9.0` or `>= 9.0` with the least ER alone, `<= 8.5`
    /// or `> 8.5` with the greatest alone, `< 7.0`, `7.0-8.5` or `> 8.5` with both.
    pub fn label(&self, side: Side) -> String {
        match (side, self.min, self.max) {
            (Side::Below, Some(min), _) => format!("< {}", tenths(min)),
            (Side::Above, _, Some(max)) => format!("> {}", tenths(max)),
            (Side::Within, Some(min), Some(max)) => format!("{}-{}", tenths(min), tenths(max)),
            (Side::Within, Some(min), None) => format!(">= {}", tenths(min)),
            (Side::Within, None, Some(max)) => format!("<= {}", tenths(max)),
            _ => String::new(),
        }
    }

    /// The options that give this band, in words (`--min-er 9.0`), empty without a band.
    pub fn words(&self) -> String {
        let ends = [("--min-er", self.min), ("--max-er", self.max)];
        let words: Vec<String> = ends
            .iter()
            .filter_map(|(name, v)| v.map(|v| format!("{name} {}", tenths(v))))
            .collect();
        words.join(", ")
    }
}

/// A rating in tenths as Sudoku Explainer writes it: `23` is `2.3`.
pub fn tenths(value: u16) -> String {
    format!("{}.{}", value / 10, value % 10)
}

/// The `techniques` column: `name:count` for every technique used, easiest first, joined by
/// `;`. Variants Sudoku Explainer names alike (the kinds of hidden single) count as one.
pub fn techniques(rating: &Rating) -> String {
    let mut merged: Vec<(&str, u32)> = Vec::new();
    for &(technique, count) in &rating.techniques {
        match merged
            .iter_mut()
            .find(|(name, _)| *name == technique.name())
        {
            Some((_, total)) => *total += count,
            None => merged.push((technique.name(), count)),
        }
    }
    let mut out = String::new();
    for (i, (name, count)) in merged.iter().enumerate() {
        let sep = if i == 0 { "" } else { ";" };
        let _ = write!(out, "{sep}{name}:{count}");
    }
    out
}

/// Bands of ER a summary counts: `[1.0, 2.0)`, `[2.0, 3.0)`, ... `[10.0, 11.0)`, and 11.0 up.
pub const ER_BANDS: usize = 11;

/// The band of an ER in tenths (see [`ER_BANDS`]).
pub fn er_band(er: u16) -> usize {
    (usize::from(er / 10)).saturating_sub(1).min(ER_BANDS - 1)
}

/// The label of band `i`: `1.0-1.9`, ..., `11.0+`.
pub fn er_band_label(i: usize) -> String {
    if i + 1 == ER_BANDS {
        format!("{}.0+", i + 1)
    } else {
        format!("{}.0-{}.9", i + 1, i + 1)
    }
}

/// Ratings counted over a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ratings {
    /// Puzzles rated, per band of ER ([`er_band`]).
    pub bands: [u64; ER_BANDS],
    /// Puzzles with exactly one solution that got no rating (time limit, or beyond the
    /// techniques the grader knows).
    pub unrated: u64,
    /// Puzzles rated, per ER in tenths (index 25 is ER 2.5): to count those below, within
    /// and above an [`ErBand`].
    pub by_tenth: Vec<u64>,
    /// Puzzles whose rating stopped at a bound ([`Bounded::AtLeast`]), per bound in tenths.
    pub at_least: Vec<u64>,
}

impl Ratings {
    /// Counts one row's rating, if it was rated.
    pub fn add(&mut self, rated: Option<&Rated>) {
        let count = |v: &mut Vec<u64>, i: u16| {
            let i = usize::from(i);
            if v.len() <= i {
                v.resize(i + 1, 0);
            }
            v[i] += 1;
        };
        match rated {
            Some(Ok(Bounded::Rated(r))) => {
                self.bands[er_band(r.er)] += 1;
                count(&mut self.by_tenth, r.er);
            }
            Some(Ok(Bounded::AtLeast(limit))) => count(&mut self.at_least, *limit),
            Some(Err(_)) => self.unrated += 1,
            None => {}
        }
    }

    /// Puzzles rated.
    pub fn rated(&self) -> u64 {
        self.bands.iter().sum()
    }

    /// Puzzles whose rating stopped at a bound.
    pub fn stopped(&self) -> u64 {
        self.at_least.iter().sum()
    }

    /// Puzzles below, within and above `band` (rated or stopped at a bound).
    pub fn sides(&self, band: &ErBand) -> [u64; 3] {
        let mut sides = [0; 3];
        for counts in [&self.by_tenth, &self.at_least] {
            for (er, &n) in counts.iter().enumerate() {
                sides[band.side_of(er as u16) as usize] += n;
            }
        }
        sides
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Technique;

    #[test]
    fn bands_and_labels() {
        assert_eq!(er_band(10), 0);
        assert_eq!(er_band(19), 0);
        assert_eq!(er_band(23), 1);
        assert_eq!(er_band(109), 9);
        assert_eq!(er_band(113), 10);
        assert_eq!(er_band(0), 0);
        assert_eq!(er_band_label(0), "1.0-1.9");
        assert_eq!(er_band_label(10), "11.0+");
        assert_eq!(tenths(23), "2.3");
        assert_eq!(tenths(110), "11.0");
    }

    #[test]
    fn techniques_merge_variants_of_one_name() {
        let rating = Rating {
            er: 32,
            ep: 12,
            ed: 12,
            hardest: Technique::XWing,
            steps: 6,
            techniques: vec![
                (Technique::FullHouse, 1),
                (Technique::HiddenSingleBox, 2),
                (Technique::HiddenSingleLine, 1),
                (Technique::XWing, 2),
            ],
        };
        assert_eq!(techniques(&rating), "Hidden Single:4;X-Wing:2");
    }
}
