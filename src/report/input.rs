//! One results file summed up: the rows are read once, in order, into fixed-size counters
//! (a `Tally`), which then become the numbers the page and the JSON show ([`InputReport`]).

use std::path::Path;

use serde::Serialize;

use super::read::{Col, Results, Row, bad};
use super::stats::{Counts, LogHistogram, PERCENTILES, Percentiles, TopN};
use crate::pipeline::RunError;
use crate::pipeline::grade::{ER_BANDS, er_band, er_band_label, tenths};

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
    /// Puzzles rated.
    pub rated: u64,
    /// Puzzles with one solution but no rating (time limit, or beyond the techniques known).
    pub unrated: u64,
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

/// The counters of one results file, filled row by row.
struct Tally {
    command: Command,
    limits: Limits,
    records: u64,
    statuses: Vec<(String, u64)>,
    failures: u64,
    failed: Vec<Failure>,
    clues: Counts<82>,
    guesses: LogHistogram,
    time: LogHistogram,
    slowest: TopN<u64, Slow>,
    /// Per hardest technique, its ratings.
    techniques: Vec<(String, Box<Counts<TENTHS>>)>,
    er: Box<Counts<TENTHS>>,
    ep: Box<Counts<TENTHS>>,
    ed: Box<Counts<TENTHS>>,
    unrated: u64,
    hardest: TopN<(u16, u16, u16), Hard>,
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

/// The clues of an 81-cell puzzle as the outputs write it (`1`-`9`, `.` blanks); `None` for
/// anything else.
fn clue_count(puzzle: &[u8]) -> Option<usize> {
    if puzzle.len() != 81 {
        return None;
    }
    let mut clues = 0;
    for &b in puzzle {
        match b {
            b'1'..=b'9' => clues += 1,
            b'.' | b'0' | b'_' => {}
            _ => return None,
        }
    }
    Some(clues)
}

impl Tally {
    fn new(command: Command, limits: Limits) -> Tally {
        Tally {
            command,
            limits,
            records: 0,
            statuses: Vec::new(),
            failures: 0,
            failed: Vec::new(),
            clues: Counts::default(),
            guesses: LogHistogram::default(),
            time: LogHistogram::default(),
            slowest: TopN::new(limits.top),
            techniques: Vec::new(),
            er: Box::default(),
            ep: Box::default(),
            ed: Box::default(),
            unrated: 0,
            hardest: TopN::new(limits.top),
        }
    }

    fn add(&mut self, row: &Row, name: &str) -> Result<(), RunError> {
        let number = |col: Col| -> Result<Option<u64>, RunError> {
            let field = row.get(col).trim_ascii();
            if field.is_empty() {
                return Ok(None);
            }
            std::str::from_utf8(field)
                .ok()
                .and_then(|f| f.parse().ok())
                .map(Some)
                .ok_or_else(|| {
                    bad(
                        name,
                        format!(
                            "line {}: `{}` is `{}`, not a whole number",
                            row.at,
                            col.name(),
                            shown(field)
                        ),
                    )
                })
        };
        let rating = |col: Col| -> Result<Option<u16>, RunError> {
            let field = row.get(col).trim_ascii();
            if field.is_empty() {
                return Ok(None);
            }
            let value = std::str::from_utf8(field)
                .ok()
                .and_then(|f| f.parse::<f64>().ok())
                .filter(|v| (0.0..1000.0).contains(v));
            match value {
                Some(v) => Ok(Some((v * 10.0).round() as u16)),
                None => Err(bad(
                    name,
                    format!(
                        "line {}: `{}` is `{}`, not a rating such as 7.2",
                        row.at,
                        col.name(),
                        shown(field)
                    ),
                )),
            }
        };
        let line = number(Col::Line)?
            .ok_or_else(|| bad(name, format!("line {}: the `line` field is empty", row.at)))?;
        self.records += 1;
        let status = row.get(Col::Status);
        let known = self
            .statuses
            .iter()
            .position(|(s, _)| s.as_bytes() == status);
        let other = || self.statuses.iter().position(|(s, _)| s == "other");
        match known.or_else(|| (self.statuses.len() >= MAX_STATUSES).then(other).flatten()) {
            Some(at) => self.statuses[at].1 += 1,
            None if self.statuses.len() < MAX_STATUSES => self.statuses.push((text(status), 1)),
            None => self.statuses.push(("other".into(), 1)),
        }
        let problem = row.get(Col::Problem);
        let error = row.get(Col::Error);
        let proper = matches!(status, b"unique" | b"solved");
        if !problem.is_empty() || !error.is_empty() || !proper {
            self.failures += 1;
            if self.failed.len() < self.limits.failures {
                let reason = [problem, error]
                    .into_iter()
                    .find(|r| !r.is_empty())
                    .map(text)
                    .unwrap_or_else(|| match status {
                        b"multiple" => "more than one solution".into(),
                        b"unsolvable" => "no solution".into(),
                        other => text(other),
                    });
                self.failed.push(Failure {
                    file: text(row.get(Col::File)),
                    line,
                    row: row.at,
                    puzzle: shown(row.get(Col::Puzzle)),
                    status: text(status),
                    reason,
                });
            }
        }
        if status == b"invalid" {
            return Ok(());
        }
        let puzzle = row.get(Col::Puzzle);
        if let Some(clues) = clue_count(puzzle) {
            self.clues.add(clues);
        }
        match self.command {
            Command::Solve | Command::Validate => {
                let guesses = number(Col::Guesses)?.unwrap_or(0);
                let time = number(Col::TimeNs)?.unwrap_or(0);
                self.guesses.add(guesses);
                self.time.add(time);
                if self.slowest.would_keep(&time) {
                    let slow = Slow {
                        file: text(row.get(Col::File)),
                        line,
                        puzzle: shown(puzzle),
                        status: text(status),
                        guesses,
                        time_ns: time,
                    };
                    self.slowest.push(time, slow);
                }
            }
            Command::Grade => {
                if let Some(time) = number(Col::TimeNs)? {
                    self.time.add(time);
                }
                let Some(er) = rating(Col::Er)? else {
                    if status == b"unique" {
                        self.unrated += 1;
                    }
                    return Ok(());
                };
                let ep = rating(Col::Ep)?.unwrap_or(0);
                let ed = rating(Col::Ed)?.unwrap_or(0);
                self.er.add(er.into());
                self.ep.add(ep.into());
                self.ed.add(ed.into());
                let hardest = row.get(Col::Hardest);
                let at = match self
                    .techniques
                    .iter()
                    .position(|(t, _)| t.as_bytes() == hardest)
                {
                    Some(at) => at,
                    None if self.techniques.len() < MAX_TECHNIQUES => {
                        self.techniques.push((text(hardest), Box::default()));
                        self.techniques.len() - 1
                    }
                    None => match self.techniques.iter().position(|(t, _)| t == "other") {
                        Some(at) => at,
                        None => {
                            self.techniques.push(("other".into(), Box::default()));
                            self.techniques.len() - 1
                        }
                    },
                };
                self.techniques[at].1.add(er.into());
                let key = (er, ep, ed);
                if self.hardest.would_keep(&key) {
                    let hard = Hard {
                        file: text(row.get(Col::File)),
                        line,
                        puzzle: shown(puzzle),
                        er: tenths(er),
                        ep: tenths(ep),
                        ed: tenths(ed),
                        hardest: text(hardest),
                    };
                    self.hardest.push(key, hard);
                }
            }
        }
        Ok(())
    }

    fn finish(self, path: String) -> InputReport {
        let mut statuses = self.statuses;
        let order = |s: &str| {
            STATUS_ORDER
                .iter()
                .position(|o| *o == s)
                .unwrap_or(usize::MAX)
        };
        // A stable sort: other statuses stay in the order met.
        statuses.sort_by_key(|(s, _)| order(s));
        let solving = matches!(self.command, Command::Solve | Command::Validate).then(|| Solving {
            guesses: Distribution::of(&self.guesses),
            time_ns: Distribution::of(&self.time),
            slowest: self
                .slowest
                .into_sorted()
                .into_iter()
                .map(|(_, s)| s)
                .collect(),
        });
        let grading = (self.command == Command::Grade).then(|| {
            let bands = |c: &Counts<TENTHS>| {
                let mut bands = vec![0; ER_BANDS];
                for (t, &n) in c.counts().iter().enumerate() {
                    bands[er_band(t as u16)] += n;
                }
                bands
            };
            let mut by_technique: Vec<(String, Vec<u64>)> = self
                .techniques
                .iter()
                .map(|(name, c)| (name.clone(), bands(c)))
                .collect();
            // Most frequent first; of equal counts, the easier (lower mean band) first.
            by_technique.sort_by_key(|(_, b)| std::cmp::Reverse(b.iter().sum::<u64>()));
            Grading {
                rated: self.er.total(),
                unrated: self.unrated,
                bands: (0..ER_BANDS).map(er_band_label).collect(),
                by_technique,
                er_bands: bands(&self.er),
                ep_bands: bands(&self.ep),
                ed_bands: bands(&self.ed),
                er: RatingPercentiles::of(&self.er),
                ep: RatingPercentiles::of(&self.ep),
                ed: RatingPercentiles::of(&self.ed),
                time_ns: self.time.summary(),
                hardest: self
                    .hardest
                    .into_sorted()
                    .into_iter()
                    .map(|(_, h)| h)
                    .collect(),
            }
        });
        InputReport {
            path,
            command: self.command,
            records: self.records,
            statuses,
            failures: self.failures,
            failed: self.failed,
            clues: self.clues.range(),
            solving,
            grading,
        }
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
