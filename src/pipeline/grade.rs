//! The rating stage: a puzzle with exactly one solution rated on the Sudoku Explainer scale
//! by the [`logic`](crate::logic) grader, on the worker threads, and the ER bands a summary
//! counts.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use crate::grid::Grid;
use crate::logic::{Budget, GradeError, Grader, Rating, Ruleset};
use crate::solver::Stop;

/// A puzzle's rating, or why it has none.
pub type Rated = Result<Rating, GradeError>;

/// How to rate puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GradeOptions {
    /// Which ladder of techniques to follow.
    pub ruleset: Ruleset,
    /// Give up rating one puzzle after this long: its row keeps its status, with no rating
    /// and the reason in `error`. `None`: no limit.
    pub max_time: Option<Duration>,
}

impl GradeOptions {
    /// Rates `puzzle` (which has exactly one solution) with `grader` within the time limit,
    /// giving up too when `stop` is set.
    pub fn rate(&self, grader: &mut Grader, puzzle: &Grid, stop: Option<Stop>) -> Rated {
        let budget = Budget {
            deadline: self.max_time.map(|t| Instant::now() + t),
            stop: stop.map(Stop::flag),
        };
        grader.grade(puzzle, &budget)
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
}

impl Ratings {
    /// Counts one row's rating, if it was rated.
    pub fn add(&mut self, rated: Option<&Rated>) {
        match rated {
            Some(Ok(r)) => self.bands[er_band(r.er)] += 1,
            Some(Err(_)) => self.unrated += 1,
            None => {}
        }
    }

    /// Puzzles rated.
    pub fn rated(&self) -> u64 {
        self.bands.iter().sum()
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
