//! One results file summed up: the rows are read once, in order, into fixed-size counters
//! (a `Tally`), which then become the numbers the page and the JSON show ([`InputReport`]).

use std::path::Path;

use serde::Serialize;

use super::read::{Col, Results, Row, bad};
use super::stats::{Counts, LogHistogram, PERCENTILES, Percentiles};
use crate::pipeline::RunError;
use crate::pipeline::grade::tenths;

mod band;
mod tally;

pub use band::BandCount;
use tally::Tally;

/// What wrote a results file, told by its columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Command {
    /// `solve`: `guesses`, `time_ns`, `solutions`.
    Solve,
    /// `validate`: the columns of `solve` and `problem`.
    Validate,
    /// `grade`: `er`, `ep`, `ed`, `hardest`.
    Grade,
}

/// What the report lists and how much.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The slowest and the hardest puzzles listed per input.
    pub top: usize,
    /// The failed records listed per input (the first ones).
    pub failures: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            top: 10,
            failures: 20,
        }
    }
}

/// Distinct statuses counted apart; more are counted as `other` (the tool writes six).
const MAX_STATUSES: usize = 16;
/// Distinct hardest techniques counted apart; more are counted as `other` (the grader knows
/// about 40).
const MAX_TECHNIQUES: usize = 64;
/// Ratings are counted in tenths up to 25.0 (the hardest known puzzles rate about 12).
const TENTHS: usize = 251;
/// The statuses in the order the page lists them.
const STATUS_ORDER: [&str; 6] = [
    "unique",
    "solved",
    "multiple",
    "unsolvable",
    "aborted",
    "invalid",
];
/// The longest puzzle text kept for a listed record.
const SHOWN: usize = 96;

/// A record listed because it failed: not a puzzle, not a proper one, or not rated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    /// The input the record comes from (the `file` column; empty with one input).
    pub file: String,
    /// Its line in that input.
    pub line: u64,
    /// The line of the results file that holds its row (the row number for Parquet).
    pub row: u64,
    /// Its `puzzle` field (cut).
    pub puzzle: String,
    /// Its status.
    pub status: String,
    /// Why it is listed: the `problem`, else the `error`, else the status.
    pub reason: String,
}

/// A puzzle listed for its solving time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slow {
    /// The input it comes from (empty with one input).
    pub file: String,
    /// Its line there.
    pub line: u64,
    /// The puzzle.
    pub puzzle: String,
    /// Its status.
    pub status: String,
    /// Guesses.
    pub guesses: u64,
    /// Time, in nanoseconds.
    pub time_ns: u64,
}

/// A puzzle listed for its rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hard {
    /// The input it comes from (empty with one input).
    pub file: String,
    /// Its line there.
    pub line: u64,
    /// The puzzle.
    pub puzzle: String,
    /// ER, EP and ED, as written (`9.2`).
    pub er: String,
    /// EP.
    pub ep: String,
    /// ED.
    pub ed: String,
    /// The hardest technique.
    pub hardest: String,
}

/// A distribution on a log scale, as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Distribution {
    /// Count, percentiles, max and mean.
    #[serde(flatten)]
    pub percentiles: Percentiles,
    /// Values that were 0, which a log axis cannot show.
    pub zeros: u64,
    /// The values above 0 in bins, 4 per doubling: `[low, high (excluded), count]`.
    pub bins: Vec<(u64, u64, u64)>,
}

impl Distribution {
    /// The distribution of the values counted in `h`.
    pub(crate) fn of(h: &LogHistogram) -> Distribution {
        Distribution {
            percentiles: h.summary(),
            zeros: h.zeros(),
            bins: h.bins(4),
        }
    }
}

/// The solving side of an output of `solve` or `validate`: every record that is a puzzle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Solving {
    /// Guesses per puzzle.
    pub guesses: Distribution,
    /// Time per puzzle, in nanoseconds.
    pub time_ns: Distribution,
    /// The slowest puzzles, slowest first.
    pub slowest: Vec<Slow>,
}

/// Percentiles of a rating (exact: ratings are counted per tenth), as written (`7.2`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingPercentiles {
    /// The median.
    pub p50: Option<String>,
    /// 90th percentile.
    pub p90: Option<String>,
    /// 99th percentile.
    pub p99: Option<String>,
    /// The largest.
    pub max: Option<String>,
    /// The mean, to two decimals.
    pub mean: Option<f64>,
}

impl RatingPercentiles {
    fn of(c: &Counts<TENTHS>) -> RatingPercentiles {
        let at = |q: f64| c.percentile(q).map(|t| tenths(t as u16));
        RatingPercentiles {
            p50: at(PERCENTILES[0].1),
            p90: at(PERCENTILES[1].1),
            p99: at(PERCENTILES[2].1),
            max: c.max().map(|t| tenths(t as u16)),
            mean: c.mean().map(|m| (m * 10.0).round() / 100.0),
        }
    }
}

/// The rating side of an output of `grade`: every rated puzzle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Grading {
    /// Puzzles rated in full: every number below is theirs.
    pub rated: u64,
    /// Puzzles with one solution but no rating and no band (time limit, or beyond the
    /// techniques known).
    pub unrated: u64,
    /// Puzzles whose rating `grade --min-er/--max-er` stopped as soon as their band was known
    /// (at least its least ER): they have no ER, EP or ED, only a band.
    pub stopped: u64,
    /// Per value of the `band` column (files of `grade --min-er/--max-er`), from the easiest
    /// band to the hardest: its puzzles rated in full and stopped. Empty without the column.
    pub by_band: Vec<BandCount>,
    /// The bands of ER (`1.0-1.9`, ..., `11.0+`).
    pub bands: Vec<String>,
    /// Per hardest technique, most frequent first: its name and its puzzles per band.
    pub by_technique: Vec<(String, Vec<u64>)>,
    /// Puzzles per band of ER, of EP and of ED.
    pub er_bands: Vec<u64>,
    /// EP per band.
    pub ep_bands: Vec<u64>,
    /// ED per band.
    pub ed_bands: Vec<u64>,
    /// Percentiles of ER, EP and ED.
    pub er: RatingPercentiles,
    /// EP.
    pub ep: RatingPercentiles,
    /// ED.
    pub ed: RatingPercentiles,
    /// Time spent rating a puzzle, in nanoseconds.
    pub time_ns: Percentiles,
    /// The hardest puzzles (by ER, then EP, then ED), hardest first.
    pub hardest: Vec<Hard>,
}

/// One results file summed up.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputReport {
    /// The file, as named on the command line.
    pub path: String,
    /// What wrote it.
    pub command: Command,
    /// Its rows: one per input record.
    pub records: u64,
    /// Rows per status, in the order `unique`, `solved`, `multiple`, `unsolvable`, `aborted`,
    /// `invalid`, then any other.
    pub statuses: Vec<(String, u64)>,
    /// Records that failed: invalid, unsolvable, multiple, aborted, not rated, or with a
    /// `problem` (validate).
    pub failures: u64,
    /// The first of them.
    pub failed: Vec<Failure>,
    /// Puzzles per clue count, from the fewest clues to the most: `[clues, puzzles]`.
    pub clues: Vec<(usize, u64)>,
    /// For `solve` and `validate`.
    pub solving: Option<Solving>,
    /// For `grade`.
    pub grading: Option<Grading>,
}

/// The text of a field, invalid UTF-8 replaced.
fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `text` cut to [`SHOWN`] characters.
fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.into_owned(),
    }
}

/// What wrote a file with `results`' columns; a usage error naming what is missing when it is
/// no output of `solve`, `validate` or `grade`.
fn command_of(results: &Results, name: &str) -> Result<Command, RunError> {
    let has_all = |cols: &[Col]| cols.iter().all(|&c| results.has(c));
    let missing = |cols: &[Col]| -> Vec<&str> {
        cols.iter()
            .filter(|&&c| !results.has(c))
            .map(|c| c.name())
            .collect()
    };
    let common = [Col::Line, Col::Puzzle, Col::Status];
    let solve = [Col::Solutions, Col::Guesses, Col::TimeNs];
    let grade = [Col::Er, Col::Ep, Col::Ed, Col::Hardest];
    let command = if has_all(&grade) {
        Command::Grade
    } else if has_all(&solve) {
        if results.has(Col::Problem) {
            Command::Validate
        } else {
            Command::Solve
        }
    } else {
        let (closest, what) = if grade.iter().any(|&c| results.has(c)) {
            (missing(&grade), "grade")
        } else {
            (missing(&solve), "solve or validate")
        };
        return Err(bad(
            name,
            format!(
                "is no output of solve, validate or grade: it has no column {} (its columns: {}); \
                 an output of {what} has them",
                closest.join(", "),
                shown(results.columns.join(",").as_bytes())
            ),
        ));
    };
    let lacking = missing(&common);
    if !lacking.is_empty() {
        return Err(bad(
            name,
            format!(
                "is no output of solve, validate or grade: it has no column {} (its columns: {})",
                lacking.join(", "),
                shown(results.columns.join(",").as_bytes())
            ),
        ));
    }
    Ok(command)
}

/// Opens the results file at `path` and checks its columns: a usage error, before any row is
/// read, when it is no output of `solve`, `validate` or `grade`.
pub(crate) fn open(path: &Path) -> Result<(Results, Command), RunError> {
    let results = Results::open(path)?;
    let command = command_of(&results, &path.display().to_string())?;
    Ok((results, command))
}

/// Reads every row of `results` (opened by [`open`]) into its report.
pub(crate) fn summarise(
    path: &Path,
    mut results: Results,
    command: Command,
    limits: Limits,
) -> Result<InputReport, RunError> {
    let name = path.display().to_string();
    let mut tally = Tally::new(command, limits);
    let mut row = Row::default();
    while results.next_row(&mut row)? {
        tally.add(&row, &name)?;
    }
    Ok(tally.finish(name))
}
