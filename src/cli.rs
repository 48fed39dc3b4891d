//! Command-line arguments: clap derive structs whose doc comments are the `--help` text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::pipeline::read::{Column, Format, Header};
use crate::solver::{Limits, Strategy};

/// Exit codes, shown at the end of `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0    every record was a puzzle (solvable or not)
  1    the run completed, but some records were invalid (validate: some records failed)
  2    usage or I/O error (unreadable input, unwritable output)
  130  interrupted (Ctrl-C or SIGTERM); the rows written so far are complete";

/// Solve, validate and benchmark large Sudoku corpora.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of a corpus and write one CSV row per record.
    ///
    /// Columns: line,puzzle,status,solutions,solution,guesses,time_ns,error. Status is unique,
    /// multiple, solved (limit 1), unsolvable, aborted (guess budget spent) or invalid (not a
    /// puzzle; error says why). Rows come in input order whatever the thread count.
    #[command(after_help = EXIT_CODES)]
    Solve(SolveArgs),
    /// Write minimal puzzles with exactly one solution, one 81-character line each.
    #[command(after_help = EXIT_CODES)]
    Generate(GenerateArgs),
}

/// Where puzzles come from and how to read them.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input file (text, CSV or grid blocks; `.gz` is decompressed). `-` or nothing reads stdin.
    pub input: Option<PathBuf>,

    /// Input format. `auto`: CSV if the name ends in .csv (or .csv.gz), text otherwise.
    /// `text`: one puzzle per line, 81 cells (1-9, and `.` `0` `_` for blanks), optionally
    /// followed by a space, tab, `,` or `;` and a comment; `#` lines and empty lines are skipped.
    /// `grid`: blocks of 9 rows of 9 cells.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// CSV column holding the puzzle, by name or 0-based index. Default: the first column named
    /// puzzle, puzzles, quizzes, quiz, sudoku, grid or board (any case), else column 0.
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<Column>,

    /// Whether the CSV input starts with a header row. `auto`: yes unless a field of the first
    /// row is a puzzle.
    #[arg(long, value_enum, default_value_t = Header::Auto)]
    pub header: Header,
}

/// Which solver, how far to search, how many threads.
#[derive(Debug, Args)]
pub struct SolverArgs {
    /// Solver strategy.
    #[arg(long, value_enum, default_value_t = Strategy::default())]
    pub solver: Strategy,

    /// Count solutions up to N. 2 proves uniqueness; 1 only finds a solution.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    /// Stop the search of one puzzle after N guesses and report it as `aborted`.
    #[arg(long, value_name = "N")]
    pub max_guesses: Option<u64>,

    /// Solver threads. Default: one per core.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

impl SolverArgs {
    /// The search limits these arguments ask for.
    pub fn limits(&self) -> Limits {
        Limits {
            solutions: self.limit,
            guesses: self.max_guesses,
        }
    }
}

/// Where results go and what is shown on stderr.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output file. `-` or nothing writes stdout.
    #[arg(long, short = 'o', value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// Hide the progress bar; given twice, also the summary.
    #[arg(long, short = 'q', action = clap::ArgAction::Count)]
    pub quiet: u8,

    /// Do not print the summary at the end.
    #[arg(long)]
    pub no_summary: bool,
}

impl OutputArgs {
    /// True when the progress bar may be shown.
    pub fn progress(&self) -> bool {
        self.quiet == 0
    }

    /// True when the summary is printed.
    pub fn summary(&self) -> bool {
        self.quiet < 2 && !self.no_summary
    }
}

/// Arguments of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub input: InputArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub solver: SolverArgs,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,

    /// Also write every solution found (up to --limit) to FILE as `line,index,solution` rows.
    #[arg(long, value_name = "FILE")]
    pub emit_solutions: Option<PathBuf>,

    /// Resume an interrupted run: keep the complete rows already in OUTPUT (needs -o), skip as
    /// many input records (checking that the last one matches), and append the rest. A damaged
    /// last row is redone; a missing or empty OUTPUT starts afresh.
    #[arg(long, requires = "output", conflicts_with = "emit_solutions")]
    pub resume: bool,

    /// Records per batch handed to the solver threads.
    #[arg(long, value_name = "N", default_value_t = 4096, hide = true)]
    pub batch_size: usize,
}

/// Arguments of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, short = 'n', value_name = "N")]
    pub count: u64,

    /// Random seed; the same seed gives the same puzzles whatever --threads. Default: a random
    /// seed, printed on stderr.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Threads. Default: one per core.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    pub threads: usize,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub output: OutputArgs,
}
