//! Throughput measurement of the strategies on puzzle files: the logic of the
//! `sudoku-batch bench` command.
//!
//! Each file is read into memory first, through the same reader as `solve` (text, CSV or grid
//! blocks, gzip decompressed; see [`crate::pipeline::read`]), with the records that are not
//! puzzles counted and skipped, so that only solving is timed. Every strategy then solves
//! the whole file `runs` times, on `threads` workers with one solver each; the report gives the
//! median, minimum and maximum rate over the runs, because on a shared machine single runs are
//! noisy. The search statistics (share solved without guessing, guesses per puzzle) do not
//! depend on the run, so they come from the first.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use crate::grid::Grid;
use crate::pipeline::read::{ReadError, ReadOptions, Reader, RecordInput, Source};
use crate::solver::{Limits, Strategy};

/// The most records of one input `bench` loads: 10 million, 810 MB of puzzles. Each input is
/// held whole while it is timed, so a longer one (or an endless stream on stdin) is refused
/// with an error rather than left to exhaust memory.
pub const MAX_RECORDS: usize = 10_000_000;

/// The puzzles of one file, loaded.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The file name, as shown in reports.
    pub name: String,
    /// The puzzles that parsed, in file order.
    pub puzzles: Vec<Grid>,
    /// Records that were not puzzles (lines of text that were neither comments, blank, nor
    /// puzzles; CSV rows whose puzzle field is not one).
    pub invalid: usize,
}

impl Corpus {
    /// Reads `path` (`-`: stdin) as `solve` does by default: CSV when the name ends in `.csv`
    /// (or `.csv.gz`), with the puzzle column found by its name; text otherwise (one puzzle per
    /// line, `#` lines and blank lines skipped). Gzip is decompressed. Records that are not
    /// puzzles are counted in `invalid`.
    pub fn load(path: &Path) -> Result<Corpus, ReadError> {
        Corpus::load_with(path, &ReadOptions::default())
    }

    /// Reads `path` (`-`: stdin) with `options` (format, CSV column, header), like `solve`'s
    /// input. The corpus is named after the file name, without its directory.
    pub fn load_with(path: &Path, options: &ReadOptions) -> Result<Corpus, ReadError> {
        let source = Source::from_arg(Some(path));
        let name = match &source {
            Source::Stdin => source.display_name(),
            Source::Path(p) => p
                .file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
        };
        Corpus::read(name, Reader::open(&source, options)?)
    }

    /// Collects the puzzles of an opened input; records that are not puzzles are counted in
    /// `invalid`. Fails when the input cannot be read (e.g. truncated gzip data), when it holds
    /// more than [`MAX_RECORDS`] records, and when memory for its puzzles cannot be had.
    pub fn read(name: String, reader: Reader) -> Result<Corpus, ReadError> {
        Corpus::read_at_most(name, reader, MAX_RECORDS)
    }

    /// [`Corpus::read`] with a limit of `max` records.
    fn read_at_most(name: String, reader: Reader, max: usize) -> Result<Corpus, ReadError> {
        let mut puzzles = Vec::new();
        let mut invalid = 0;
        let refuse = |message: String| ReadError::Usage {
            path: name.clone(),
            message,
        };
        for record in reader {
            if puzzles.len() + invalid == max {
                return Err(refuse(format!(
                    "more than {} records: bench holds an input in memory while it times it, and \
                     takes at most that many; bench a part of it (such as `head -n {max}`)",
                    crate::words::thousands(max as u64)
                )));
            }
            match record?.input {
                RecordInput::Puzzle(g) => {
                    puzzles.try_reserve(1).map_err(|_| {
                        refuse(format!(
                            "out of memory after {} puzzles: bench holds an input in memory \
                             while it times it; bench a part of it",
                            crate::words::thousands(puzzles.len() as u64)
                        ))
                    })?;
                    puzzles.push(g);
                }
                RecordInput::Invalid { .. } => invalid += 1,
            }
        }
        Ok(Corpus {
            name,
            puzzles,
            invalid,
        })
    }

    /// Reads a corpus held in memory as text (gzip detected); see [`Corpus::load`].
    pub fn parse(name: String, bytes: &[u8]) -> Result<Corpus, ReadError> {
        let input = std::io::Cursor::new(bytes.to_vec());
        let reader = Reader::from_reader(&name, input, &ReadOptions::default())?;
        Corpus::read(name, reader)
    }
}

/// What to measure.
#[derive(Debug, Clone)]
pub struct BenchConfig {
    /// The puzzle files (`-` for stdin).
    pub paths: Vec<PathBuf>,
    /// How to read them (format, CSV column, header), as for `solve`.
    pub read: ReadOptions,
    /// The strategies to compare, in report order.
    pub strategies: Vec<Strategy>,
    /// The limits of every search (usually count to 2).
    pub limits: Limits,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Timed runs per file and strategy (at least 1); the report gives their median.
    pub runs: usize,
}

/// The guess budget `backtrack` gets in a benchmark when none is given: plain backtracking
/// can need billions of guesses on one hard puzzle, which would hang a comparison.
pub const BACKTRACK_DEFAULT_BUDGET: u64 = 100_000;

impl BenchConfig {
    /// The limits for `strategy`: the configured ones, with [`BACKTRACK_DEFAULT_BUDGET`] for
    /// `backtrack` when no guess budget is set.
    pub fn limits_for(&self, strategy: Strategy) -> Limits {
        match (strategy, self.limits.guesses) {
            (Strategy::Backtrack, None) => Limits {
                guesses: Some(BACKTRACK_DEFAULT_BUDGET),
                ..self.limits
            },
            _ => self.limits,
        }
    }
}

/// The measurements of one strategy on one file.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchRow {
    /// The file name.
    pub file: String,
    /// The strategy.
    pub strategy: Strategy,
    /// Puzzles solved per run.
    pub puzzles: usize,
    /// Lines of the file that were not puzzles.
    pub invalid: usize,
    /// Puzzles per second, median over the runs.
    pub median_rate: f64,
    /// Puzzles per second, slowest run.
    pub min_rate: f64,
    /// Puzzles per second, fastest run.
    pub max_rate: f64,
    /// Percentage of puzzles solved (or refuted) without a guess.
    pub no_guess_percent: f64,
    /// Guesses per puzzle, on average.
    pub guesses_per_puzzle: f64,
    /// Searches stopped by the guess budget (their time counts, their result is incomplete).
    pub aborted: u64,
}

impl BenchRow {
    /// Microseconds per puzzle at the median rate: wall time divided by puzzles, so with
    /// several threads it measures throughput, not the latency of one puzzle.
    pub fn micros_per_puzzle(&self) -> f64 {
        if self.median_rate > 0.0 {
            1e6 / self.median_rate
        } else {
            f64::INFINITY
        }
    }
}

/// Search statistics of one pass over a corpus.
#[derive(Debug, Default, Clone, Copy)]
struct Stats {
    guesses: u64,
    no_guess: u64,
    aborted: u64,
}

impl std::ops::Add for Stats {
    type Output = Stats;
    fn add(self, o: Stats) -> Stats {
        Stats {
            guesses: self.guesses + o.guesses,
            no_guess: self.no_guess + o.no_guess,
            aborted: self.aborted + o.aborted,
        }
    }
}

/// Solves `puzzles` once with one solver.
fn solve_all(strategy: Strategy, puzzles: &[Grid], limits: Limits) -> Stats {
    let mut solver = strategy.solver();
    let mut stats = Stats::default();
    for p in puzzles {
        let out = solver.solve(p, limits);
        stats.guesses += out.guesses;
        stats.no_guess += u64::from(out.guesses == 0);
        stats.aborted += u64::from(out.aborted);
    }
    stats
}

/// One timed pass of `strategy` over `puzzles`: seconds and search statistics.
fn timed_pass(
    pool: &rayon::ThreadPool,
    threads: usize,
    strategy: Strategy,
    puzzles: &[Grid],
    limits: Limits,
) -> (f64, Stats) {
    // Chunks big enough that the per-chunk solver (one small allocation) is noise, small
    // enough to balance hard puzzles over the workers.
    let chunk = (puzzles.len() / (threads * 16)).clamp(1, 4096);
    let start = Instant::now();
    let stats = if threads == 1 {
        solve_all(strategy, puzzles, limits)
    } else {
        pool.install(|| {
            puzzles
                .par_chunks(chunk)
                .map(|c| solve_all(strategy, c, limits))
                .reduce(Stats::default, |a, b| a + b)
        })
    };
    (start.elapsed().as_secs_f64(), stats)
}

/// Measures `strategies` on one loaded corpus. The runs are interleaved (every strategy once,
/// then every strategy again, ...), so that on a shared machine a burst of load falls on all of
/// them alike and their ratios stay fair. `limits_for` gives each strategy its limits.
pub fn bench_strategies(
    corpus: &Corpus,
    strategies: &[Strategy],
    limits_for: impl Fn(Strategy) -> Limits,
    threads: usize,
    runs: usize,
) -> Result<Vec<BenchRow>, rayon::ThreadPoolBuildError> {
    let threads = threads.clamp(1, crate::pipeline::max_threads());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let n = corpus.puzzles.len();
    let mut rates = vec![Vec::with_capacity(runs.max(1)); strategies.len()];
    let mut stats = vec![Stats::default(); strategies.len()];
    for run in 0..runs.max(1) {
        for (i, &strategy) in strategies.iter().enumerate() {
            let (secs, s) = timed_pass(
                &pool,
                threads,
                strategy,
                &corpus.puzzles,
                limits_for(strategy),
            );
            if run == 0 {
                stats[i] = s;
            }
            rates[i].push(if secs > 0.0 { n as f64 / secs } else { 0.0 });
        }
    }
    let per = |x: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    Ok(strategies
        .iter()
        .zip(rates.iter_mut().zip(&stats))
        .map(|(&strategy, (rates, stats))| {
            rates.sort_by(f64::total_cmp);
            BenchRow {
                file: corpus.name.clone(),
                strategy,
                puzzles: n,
                invalid: corpus.invalid,
                median_rate: median(rates),
                min_rate: rates[0],
                max_rate: rates[rates.len() - 1],
                no_guess_percent: 100.0 * per(stats.no_guess),
                guesses_per_puzzle: per(stats.guesses),
                aborted: stats.aborted,
            }
        })
        .collect())
}

/// Measures one strategy on one loaded corpus.
pub fn bench_corpus(
    corpus: &Corpus,
    strategy: Strategy,
    limits: Limits,
    threads: usize,
    runs: usize,
) -> Result<BenchRow, rayon::ThreadPoolBuildError> {
    let mut rows = bench_strategies(corpus, &[strategy], |_| limits, threads, runs)?;
    Ok(rows.remove(0))
}

/// The median of sorted, non-empty `xs`.
fn median(xs: &[f64]) -> f64 {
    let m = xs.len() / 2;
    if xs.len() % 2 == 1 {
        xs[m]
    } else {
        (xs[m - 1] + xs[m]) / 2.0
    }
}

/// Why a benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A corpus file could not be read, or the options do not fit it (a CSV column that is
    /// not in the header).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The worker threads could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// Runs the whole benchmark: every file with every strategy, files in order.
pub fn run(config: &BenchConfig) -> Result<Vec<BenchRow>, BenchError> {
    let mut rows = Vec::new();
    for path in &config.paths {
        let corpus = Corpus::load_with(path, &config.read)?;
        rows.extend(bench_strategies(
            &corpus,
            &config.strategies,
            |s| config.limits_for(s),
            config.threads,
            config.runs,
        )?);
    }
    Ok(rows)
}

const HEADERS: [&str; 11] = [
    "file",
    "solver",
    "puzzles",
    "invalid",
    "puzzles/s",
    "min/s",
    "max/s",
    "us/puzzle",
    "no guess %",
    "guesses/puzzle",
    "aborted",
];

/// The fields of a row, for the table (`csv` false: rounded for reading, `-` where a corpus
/// with no puzzle has no figure) or for CSV (more decimals, an empty field there).
fn fields(row: &BenchRow, csv: bool) -> [String; 11] {
    let (decimals, none) = if csv {
        ([1, 1, 1, 3, 2, 3], "")
    } else {
        ([0, 0, 0, 2, 1, 2], "-")
    };
    // Rates and means over the corpus's puzzles.
    let figures = [
        row.median_rate,
        row.min_rate,
        row.max_rate,
        row.micros_per_puzzle(),
        row.no_guess_percent,
        row.guesses_per_puzzle,
    ];
    let figure = |i: usize| {
        if row.puzzles == 0 {
            none.to_string()
        } else {
            format!("{:.*}", decimals[i], figures[i])
        }
    };
    [
        row.file.clone(),
        row.strategy.name().to_string(),
        row.puzzles.to_string(),
        row.invalid.to_string(),
        figure(0),
        figure(1),
        figure(2),
        figure(3),
        figure(4),
        figure(5),
        row.aborted.to_string(),
    ]
}

/// The rows as an aligned text table: names left-aligned, numbers right-aligned.
pub fn render_table(rows: &[BenchRow]) -> String {
    let body: Vec<[String; 11]> = rows.iter().map(|r| fields(r, false)).collect();
    let mut widths = HEADERS.map(str::len);
    for r in &body {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let mut out = String::new();
    let mut line = |fields: &[String]| {
        let mut s = String::new();
        for (i, (f, w)) in fields.iter().zip(widths).enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            // Text columns left, numeric columns right, so the digits line up.
            let _ = if i < 2 {
                write!(s, "{f:<w$}")
            } else {
                write!(s, "{f:>w$}")
            };
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(&HEADERS.map(String::from));
    for r in &body {
        line(r);
    }
    out
}

/// The rows as CSV with a header line; rates unrounded, as a spreadsheet wants them.
pub fn render_csv(rows: &[BenchRow]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    // Writing to a Vec cannot fail.
    let _ = w.write_record([
        "file",
        "solver",
        "puzzles",
        "invalid",
        "puzzles_per_s",
        "min_per_s",
        "max_per_s",
        "us_per_puzzle",
        "no_guess_percent",
        "guesses_per_puzzle",
        "aborted",
    ]);
    for r in rows {
        let _ = w.write_record(fields(r, true));
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

#[cfg(test)]
mod tests;
