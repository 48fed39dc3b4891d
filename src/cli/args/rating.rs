//! The rating arguments that `grade`, `validate` and `generate` share: the ladder, the time
//! limit per puzzle, and a band of ER (`--min-er`, `--max-er`) read as tenths.

use clap::Args;

use super::*;

/// How puzzles are rated (`grade`, and `validate` and `generate` with an ER band).
#[derive(Debug, Args)]
pub struct RatingArgs {
    /// Which ladder of techniques to follow: `sukaku` is Sukaku Explainer's `serate` (Sudoku
    /// Explainer 1.2.1 plus strong-link chains and the larger wings), `classic` Sudoku
    /// Explainer 1.2.1 alone.
    #[arg(long, value_enum, default_value_t)]
    pub ruleset: Ruleset,

    /// Give up rating one puzzle after MS milliseconds (the hardest puzzles, ER 10 and up,
    /// can take seconds each). Default: no limit.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_time_ms: Option<u64>,
}

impl RatingArgs {
    /// The rating options these arguments ask for.
    pub fn options(&self) -> GradeOptions {
        GradeOptions {
            ruleset: self.ruleset,
            max_time: self.max_time_ms.map(std::time::Duration::from_millis),
            band: ErBand::default(),
        }
    }
}

/// A band of difficulty on the Sudoku Explainer scale.
#[derive(Debug, Args)]
pub struct ErBandArgs {
    /// Only puzzles rated at least R on the Sudoku Explainer scale (ER, e.g. 2.5; see `grade
    /// --help`).
    #[arg(long, value_name = "R", value_parser = parse_er)]
    pub min_er: Option<u16>,

    /// Only puzzles rated at most R (ER, e.g. 4.5).
    #[arg(long, value_name = "R", value_parser = parse_er)]
    pub max_er: Option<u16>,
}

impl ErBandArgs {
    /// True when a band is asked for.
    pub fn any(&self) -> bool {
        self.min_er.is_some() || self.max_er.is_some()
    }

    /// The band asked for, or why it is empty.
    pub fn band(&self) -> Result<ErBand, String> {
        checked_band(self.min_er, self.max_er)
    }
}

/// The band of `grade`: how far to rate each puzzle.
#[derive(Debug, Args)]
pub struct GradeBandArgs {
    /// Rate each puzzle only as far as needed to tell whether its ER is at least R (e.g. 9.0):
    /// a rating stops as soon as it reaches R, or as soon as no technique rated below R
    /// applies; its row then has no ratings and a `band` column saying `>= 9.0`. A puzzle
    /// below R gets its full rating, and `< 9.0`. Much faster than full ratings for
    /// filtering hard candidates; the answer is the one the full rating gives.
    #[arg(long, value_name = "R", value_parser = parse_er)]
    pub min_er: Option<u16>,

    /// Rate each puzzle only as far as needed to tell whether its ER is at most R (e.g. 8.5):
    /// a rating stops as soon as it is known to be above R (`band` says `> 8.5`, no ratings);
    /// one rated at most R gets its full rating and `<= 8.5` (with --min-er too: `< 7.0` or
    /// `7.0-8.5`).
    #[arg(long, value_name = "R", value_parser = parse_er)]
    pub max_er: Option<u16>,
}

impl GradeBandArgs {
    /// The band asked for, or why it is empty.
    pub fn band(&self) -> Result<ErBand, String> {
        checked_band(self.min_er, self.max_er)
    }
}

/// The band from `min` to `max`, or why it holds no rating.
fn checked_band(min: Option<u16>, max: Option<u16>) -> Result<ErBand, String> {
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        return Err(format!(
            "--min-er {} is more than --max-er {}",
            tenths(min),
            tenths(max)
        ));
    }
    Ok(ErBand { min, max })
}

/// An ER from the command line, as tenths: `2.5` is 25.
fn parse_er(text: &str) -> Result<u16, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a rating such as 2.5"))?;
    if !(0.0..=20.0).contains(&value) || (value * 10.0 - (value * 10.0).round()).abs() > 1e-6 {
        return Err(format!(
            "`{text}`: ratings go from 1.0 to about 12.0, in tenths"
        ));
    }
    Ok((value * 10.0).round() as u16)
}
