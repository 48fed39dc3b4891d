//! Command-line arguments: clap derive structs whose doc comments are the `--help` text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use super::shard::ShardArgs;

use sudoku_batch::generate::Symmetry;
use sudoku_batch::logic::Ruleset;
use sudoku_batch::pipeline::grade::GradeOptions;
use sudoku_batch::pipeline::read::{Column, Format, Header, ReadOptions, Source, inputs};
use sudoku_batch::pipeline::write::OutputFormat;
use sudoku_batch::pipeline::{DEFAULT_BATCH, RunError};
use sudoku_batch::solver::{Limits, Strategy};

/// The solutions counted when `--limit` is not given: two, which proves a puzzle unique.
pub const DEFAULT_LIMIT: u64 = 2;

/// Exit codes, shown at the end of `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0    every record was a puzzle (solvable or not)
  1    the run completed, but some records were invalid (validate: some records failed)
  2    usage or I/O error (unreadable input, unwritable output)
  130  interrupted (Ctrl-C or SIGTERM); the rows written so far are complete";

/// Exit codes of `grade`.
pub const GRADE_EXIT_CODES: &str = "\
Exit codes:
  0    every record was a puzzle, and every puzzle with one solution was rated
  1    the run completed, but some records were invalid or some puzzles were not rated
  2    usage or I/O error (unreadable input, unwritable output)
  130  interrupted (Ctrl-C or SIGTERM); the rows written so far are complete";

/// Exit codes of `bench`.
pub const BENCH_EXIT_CODES: &str = "\
Exit codes:
  0  the table was printed (records that are not puzzles are skipped and counted, not an error)
  2  usage or I/O error (unreadable input)
Interrupted (Ctrl-C), it stops at once and prints nothing.";

/// Exit codes of `generate`.
pub const GENERATE_EXIT_CODES: &str = "\
Exit codes:
  0    every puzzle was written
  2    usage or I/O error, or no draw met --min-clues/--max-clues within --attempts
  130  interrupted (Ctrl-C or SIGTERM); every line written so far is a whole puzzle";

/// Exit codes of `merge`.
pub const MERGE_EXIT_CODES: &str = "\
Exit codes:
  0  the parts fit together and OUTPUT was written
  2  the parts do not fit (header, overlap, order, a gap), or an I/O error; nothing is written";

/// Exit codes of `explain`.
pub const EXPLAIN_EXIT_CODES: &str = "\
Exit codes:
  0  the puzzle was explained (solvable or not)
  1  the record is not a puzzle (with --logic: or has no logical solution)
  2  usage or I/O error (no record at --line, unreadable input)";

/// Solve, validate and benchmark large Sudoku corpora.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. The first paragraph of a variant's doc comment is its line in the list of
/// commands; the whole comment is its `--help`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of a corpus and write one CSV row per record.
    ///
    /// Columns: line,puzzle,status,solutions,solution,guesses,time_ns,error (after `file` with
    /// several inputs). Status is unique, multiple, solved (limit 1), unsolvable, aborted (guess
    /// budget spent) or invalid (not a puzzle; error says why). Rows come in input order
    /// whatever the thread count, as CSV, JSON lines or Parquet (--output-format).
    #[command(after_help = EXIT_CODES)]
    Solve(SolveArgs),
    /// Measure solver throughput on puzzle files: puzzles/s (median of --runs, with min and
    /// max), µs/puzzle, share solved without guessing, guesses/puzzle.
    ///
    /// Files are read like the input of `solve` (text, CSV or grid blocks; `.gz` is
    /// decompressed; --format, --column, --header) and loaded into memory first, so only
    /// solving is timed. Records that are not puzzles are skipped and counted (the `invalid`
    /// column of --csv); a file with no puzzle shows `-` for its rates and means (empty fields
    /// in --csv). With several solvers the runs are interleaved, so that their ratios come from
    /// the same moments of a shared machine.
    #[command(after_help = BENCH_EXIT_CODES)]
    Bench(BenchArgs),
    /// Show step by step how one puzzle is solved: candidates, forced placements, guesses, dead
    /// ends, the solution and totals; with --logic, the steps a person would take.
    #[command(after_help = EXPLAIN_EXIT_CODES)]
    Explain(ExplainArgs),
    /// Write minimal puzzles with exactly one solution, one 81-character line each.
    ///
    /// The same --seed gives the same output whatever --threads. Options can ask for a
    /// symmetric clue pattern, a clue count within bounds, or complete grids (--solved). The
    /// summary on stderr gives the count written and the rate. Ctrl-C or SIGTERM stops between
    /// puzzles: the lines written are whole and a prefix of the full output, then exit 130.
    #[command(after_help = GENERATE_EXIT_CODES)]
    Generate(GenerateArgs),
    /// Prove a corpus sound: every record a puzzle with exactly one solution.
    ///
    /// Writes a report with the columns of `solve` plus a last column, `problem`, listing
    /// only the records that fail (all of them with --all). Problems: invalid (not a puzzle),
    /// unsolvable, multiple, `aborted after N guesses`, and those the options add; several on
    /// one record are joined with `; `. Exits 0 when every record passes, 1 when any fails.
    ///
    /// With --min-er/--max-er every puzzle is also rated (see `grade --help`; this costs far
    /// more than solving): one outside the band fails with `ER 7.2, above 4.5`, one that
    /// cannot be rated with `not rated: WHY`.
    #[command(after_help = EXIT_CODES)]
    Validate(ValidateArgs),
    /// Rate how hard every puzzle is for a person, on the Sudoku Explainer scale.
    ///
    /// Each puzzle is solved the way a person would, always with the easiest technique that
    /// works (singles, intersections, subsets, fish, wings, uniqueness, chains), as Sudoku
    /// Explainer's `serate` does. Columns: line,puzzle,status,er,ep,ed,hardest,steps,
    /// techniques,time_ns,error. `er` is the rating of the hardest step (1.0 to about 11.5),
    /// `ep` of the hardest step up to the first digit placed, `ed` of the first step;
    /// `hardest` names the hardest technique, `steps` counts the steps and `techniques` lists
    /// `name:count` of each technique used, easiest first, joined by `;`. Only puzzles with
    /// exactly one solution are rated: the others keep their status (multiple, unsolvable,
    /// aborted, invalid) with empty ratings, and a puzzle over --max-time-ms keeps `unique`
    /// with `not rated: ...` in `error`. The summary counts puzzles per band of ER.
    #[command(after_help = GRADE_EXIT_CODES)]
    Grade(GradeArgs),
    /// Join the CSV outputs of the parts of a run (--shard K/N) into the output of the whole.
    ///
    /// Checks that every part has the first part's header and that the `line`s keep
    /// increasing from part to part (per input, the inputs in order, when there is a `file`
    /// column): no overlap, nothing out of order. With --input (each input of the run), also
    /// that every record of every input has its row (no gap; for the outputs of solve, grade
    /// and validate --all). Then writes the first header and every part's rows. On a problem,
    /// nothing is written.
    #[command(after_help = MERGE_EXIT_CODES)]
    Merge(MergeArgs),
}

/// Where puzzles come from and how to read them.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input files (text, CSV, grid blocks or Parquet; gzip, xz and zstd are decompressed),
    /// read in turn in one run; a directory stands for its files in name order. With more than
    /// one input, every output row starts with a `file` column. `-` or nothing reads stdin.
    pub inputs: Vec<PathBuf>,

    /// Only the files of the directories given whose name matches PATTERN (`*`, `?`,
    /// `[a-z]`), such as `*.csv`.
    #[arg(long, value_name = "PATTERN")]
    pub glob: Option<String>,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub shard: ShardArgs,
}

impl InputArgs {
    /// The inputs these arguments name and how to read them, the shard included; a usage
    /// error for a shard that cannot be had, before any file is created.
    pub fn open(&self) -> Result<(Vec<Source>, ReadOptions), RunError> {
        let inputs = inputs::expand(&self.inputs, self.glob.as_deref())?;
        let shard = self.shard.shard()?;
        if shard.is_some() && inputs.iter().any(Source::reads_once) {
            // A shard copies stdin or a pipe to a temporary file, made once the outputs are:
            // if none can be made, say so before an output is.
            tempfile::tempfile().map_err(|e| {
                super::shard::usage(format!(
                    "it copies stdin (or a pipe) to a temporary file to count its records, and \
                     none could be made ({e}); set TMPDIR to a writable directory"
                ))
            })?;
        }
        let read = ReadOptions {
            shard,
            ..self.read.options()
        };
        Ok((inputs, read))
    }
}

/// How to read an input: format, CSV column and header (`solve`, `validate` and `bench`).
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// Input format. `auto`: by the name, CSV for .csv, tab-separated CSV for .tsv, Parquet
    /// for .parquet, text otherwise. `text`: one puzzle per line, 81 cells (1-9, and `.` `0`
    /// `_` for blanks), optionally followed by a space, tab, `,` or `;` and a comment, or one
    /// field of 81 cells anywhere in the line; `#` lines and empty lines are skipped. `grid`:
    /// blocks of 9 rows of 9 cells.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// CSV or Parquet column holding the puzzle, by name or 0-based index. Default: the first
    /// column named puzzle, puzzles, quizzes, quiz, sudoku, grid or board (any case), else the
    /// first whose values in the first rows are puzzles, else column 0.
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<Column>,

    /// Whether the CSV input starts with a header row. `auto`: yes unless a field of the first
    /// row is a puzzle.
    #[arg(long, value_enum, default_value_t = Header::Auto)]
    pub header: Header,

    /// CSV field delimiter: one character such as `;` or `|`, or `tab`, `\t`, `space`.
    /// Default: a tab for .tsv files, else the one of `,` tab `;` `|` space that the first
    /// line holds most of.
    #[arg(long, value_name = "CHAR", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,

    /// Text input: take the puzzle from field N (0-based) of every line, fields being
    /// separated by spaces, tabs, `,`, `;` or `|`. Default: the start of the line, or the one
    /// field of 81 cells in it.
    #[arg(long, value_name = "N")]
    pub field: Option<usize>,
}

/// A `--delimiter` value: one ASCII character other than a quote or a line break, or a name.
fn parse_delimiter(s: &str) -> Result<u8, String> {
    match s {
        "tab" | "\\t" | "\t" => Ok(b'\t'),
        "space" => Ok(b' '),
        _ => match s.as_bytes() {
            [b] if b.is_ascii() && !matches!(b, b'"' | b'\n' | b'\r') => Ok(*b),
            _ => Err("a delimiter is one character, such as ; or |, or tab or space".into()),
        },
    }
}

impl ReadArgs {
    /// The reading options these arguments ask for (no stated-solution column).
    pub fn options(&self) -> ReadOptions {
        ReadOptions {
            format: self.format,
            column: self.column.clone().unwrap_or(Column::Auto),
            header: self.header,
            expect_column: None,
            delimiter: self.delimiter,
            field: self.field,
            shard: None,
        }
    }
}

/// Which solver, how far to search, how many threads.
#[derive(Debug, Args)]
pub struct SolverArgs {
    /// Solver strategy.
    #[arg(long, value_enum, default_value_t = Strategy::default())]
    pub solver: Strategy,

    /// Count solutions up to N. 2 proves uniqueness; 1 only finds a solution.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    /// Stop the search of one puzzle after N guesses and report it as `aborted`.
    #[arg(long, value_name = "N")]
    pub max_guesses: Option<u64>,

    /// Solver threads. Default: one per CPU this process may use (also what 0 asks for).
    #[arg(long, short = 'j', value_name = "N", default_value_t)]
    #[arg(hide_default_value = true)]
    pub threads: usize,
}

impl SolverArgs {
    /// The search limits these arguments ask for.
    pub fn limits(&self) -> Limits {
        Limits {
            solutions: self.limit,
            guesses: self.max_guesses,
            stop: None,
        }
    }
}

/// Where results go and what is shown on stderr.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output file, created if need be; an existing file is replaced, unless it is the input
    /// (refused). `-` or nothing writes stdout.
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

/// The arguments of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub solver: SolverArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Results format. Default: by the name of OUTPUT (.csv, .jsonl or .ndjson, .parquet; CSV
    /// otherwise and on stdout). A name ending in .gz or .zst is compressed (not Parquet).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormat>,

    /// Also write every solution found (up to --limit) to FILE as `line,index,solution` rows,
    /// in the format its name says, else in the results' format (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub emit_solutions: Option<PathBuf>,

    /// Resume an interrupted run: keep the complete rows already in OUTPUT (needs -o), skip as
    /// many input records (checking that the last one matches), and append the rest. A damaged
    /// last row is redone; a missing or empty OUTPUT starts afresh. With --emit-solutions, a row
    /// is kept only if its solutions are all in that file, which is cut and appended to alike.
    #[arg(long, requires = "output")]
    pub resume: bool,

    /// Records per batch handed to the worker threads.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH, hide = true)]
    pub batch_size: usize,
}

/// The arguments of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, short = 'n', value_name = "N")]
    pub count: u64,

    /// Random seed; the same seed gives the same puzzles whatever --threads. Default: a random
    /// seed, printed on stderr.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Threads. Default: one per core (also what 0 asks for).
    #[arg(long, short = 'j', value_name = "N", default_value_t)]
    #[arg(hide_default_value = true)]
    pub threads: usize,

    /// Symmetry of the clue pattern. Clues are removed orbit by orbit (a cell and its images),
    /// so with a symmetry other than `none` a puzzle is minimal per orbit: no orbit of clues can
    /// be removed, but a single clue sometimes can. `rotational` is the half turn,
    /// `quarter-turn` the 90-degree turn, `mirror` left-right, `flip` top-bottom.
    #[arg(long, value_enum, default_value_t = Symmetry::None)]
    pub symmetry: Symmetry,

    /// Only puzzles with at least N clues. A minimal puzzle's clue count is settled by its
    /// grid and removal order (typically 22 to 28 without symmetry), so a puzzle outside the
    /// bounds is drawn again from a new grid, up to --attempts times.
    #[arg(long, value_name = "N")]
    pub min_clues: Option<usize>,

    /// Only puzzles with at most N clues (17 or more); drawn again like --min-clues.
    #[arg(long, value_name = "N")]
    pub max_clues: Option<usize>,

    /// Draws per puzzle for --min-clues/--max-clues and --min-er/--max-er. When no draw fits,
    /// the puzzles made so far are written and the run stops with an error (exit 2). Most
    /// minimal puzzles rate below 4.5 and few above 7, so a hard band needs many draws. With
    /// --max-time-ms the puzzles of a band can depend on the machine's speed; without it a
    /// seed gives the same puzzles everywhere.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub attempts: u64,

    /// Write complete, valid solution grids instead of puzzles.
    #[arg(long, conflicts_with_all = ["symmetry", "min_clues", "max_clues", "min_er", "max_er"])]
    pub solved: bool,

    #[command(flatten)]
    pub er: ErBandArgs,

    #[command(flatten)]
    pub rating: RatingArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Write only part K of N of the puzzles (0 <= K < N; needs --seed): a contiguous range of
    /// the --count, so that parts 0 to N-1 concatenated are the output of one run. `auto`:
    /// from the environment, as for `solve --shard`.
    #[arg(long, value_name = "K/N|auto", requires = "seed")]
    pub shard: Option<super::shard::ShardArg>,

    /// With --shard auto: the number of parts N (a Kubernetes Indexed Job's completions).
    #[arg(long, value_name = "N", requires = "shard", value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: Option<u64>,
}

/// Which solver and how many threads, for `validate` (which always counts solutions to 2).
#[derive(Debug, Args)]
pub struct ValidateSolverArgs {
    /// Solver strategy.
    #[arg(long, value_enum, default_value_t = Strategy::default())]
    pub solver: Strategy,

    /// Stop the search of one puzzle after N guesses; the record fails with `aborted after N
    /// guesses`.
    #[arg(long, value_name = "N")]
    pub max_guesses: Option<u64>,

    /// Solver threads. Default: one per CPU this process may use (also what 0 asks for).
    #[arg(long, short = 'j', value_name = "N", default_value_t)]
    #[arg(hide_default_value = true)]
    pub threads: usize,
}

/// The arguments of `validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub solver: ValidateSolverArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Report format, as `solve`'s --output-format: by the name of REPORT by default.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormat>,

    /// Write every record to the report, those that pass with an empty `problem`.
    #[arg(long)]
    pub all: bool,

    /// CSV or Parquet column holding each puzzle's stated solution, by name or 0-based index
    /// (given alone: the column named solution or solutions, else the first other column of
    /// solved grids): it must be the puzzle's unique solution. A record fails with `stated
    /// solution differs at rXcY (stated A, solution B)` naming the first differing cell,
    /// `stated solution malformed: WHY` or `stated solution missing`.
    #[arg(long, value_name = "NAME|INDEX", num_args = 0..=1, default_missing_value = "")]
    pub expect_column: Option<Column>,

    /// Every clue must be needed: a puzzle that keeps exactly one solution when some clue is
    /// removed (each clue tested alone) fails with `redundant clues: r3c4 r7c1`. Costs one more
    /// search per clue.
    #[arg(long)]
    pub minimal: bool,

    /// A puzzle equal to an earlier one (same clues; blanks may be written differently) fails
    /// with `duplicate of line N`. Memory grows with the corpus: every distinct puzzle is
    /// kept, about 150 bytes each. With --shard, only duplicates within the part are found.
    #[arg(long)]
    pub duplicates: bool,

    /// A puzzle with fewer than N clues fails with `C clues, fewer than N`.
    #[arg(long, value_name = "N")]
    pub min_clues: Option<usize>,

    #[command(flatten)]
    pub er: ErBandArgs,

    #[command(flatten)]
    pub rating: RatingArgs,

    /// Records per batch handed to the worker threads.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH, hide = true)]
    pub batch_size: usize,
}

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

/// The arguments of `grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub solver: ValidateSolverArgs,

    #[command(flatten)]
    pub rating: RatingArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Results format, as `solve`'s --output-format: by the name of OUTPUT by default.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormat>,

    /// Resume an interrupted run: keep the complete rows already in OUTPUT (needs -o), skip as
    /// many input records (checking each), and append the rest.
    #[arg(long)]
    pub resume: bool,

    /// Records per batch handed to the worker threads.
    #[arg(long, value_name = "N", default_value_t = 256, hide = true)]
    pub batch_size: usize,
}

/// The arguments of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Where the whole goes (`-`: stdout).
    pub output: PathBuf,

    /// The parts' CSV outputs, in order: part 0 first.
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,

    /// An input the parts were made from: every record must have its row. Give each input of
    /// the run, in its order (`--input a.txt --input b.csv`); a directory stands for its files,
    /// as in the run.
    #[arg(long, value_name = "FILE")]
    pub input: Vec<PathBuf>,

    /// With --input DIRECTORY: only its files whose name matches PATTERN, as the run's --glob.
    #[arg(long, value_name = "PATTERN", requires = "input")]
    pub glob: Option<String>,

    #[command(flatten)]
    pub read: ReadArgs,
}

/// The arguments of `explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The puzzle: 81 cells, `1`-`9` and `.` `0` `_` for blanks. Omit it to take the record at
    /// --line of --input.
    #[arg(required_unless_present = "input", conflicts_with = "input")]
    pub puzzle: Option<String>,

    /// Read the puzzle from this file (any format `solve` reads; `-` for stdin).
    #[arg(long, requires = "line", value_name = "FILE")]
    pub input: Option<PathBuf>,

    /// The line of --input where the record starts (the `line` column of `solve`).
    #[arg(long, requires = "input", value_name = "N")]
    pub line: Option<u64>,

    /// Input format of --input (as for `solve`).
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub input_format: Format,

    /// CSV column of --input holding the puzzle (as for `solve`).
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<Column>,

    /// Show the steps a person would take instead of a solver's search: each technique with
    /// its rating on the Sudoku Explainer scale, the digits it places (`r1c3=4`), the
    /// candidates it removes (`r2c5<>7`) and the cells of its pattern, then ER, EP and ED
    /// (see `grade --help`). The puzzle must have exactly one solution.
    #[arg(long, conflicts_with_all = ["solver", "max_steps", "max_guesses"])]
    pub logic: bool,

    /// With --logic: give up after MS milliseconds.
    #[arg(long, value_name = "MS", requires = "logic")]
    pub max_time_ms: Option<u64>,

    /// Whose steps to show (`fast` and `singles` keep no step trace).
    #[arg(long, value_enum, default_value_t = TracedStrategy::Bitmask)]
    pub solver: TracedStrategy,

    /// Output format: readable text, or one JSON object per step (JSON lines).
    #[arg(long, value_enum, default_value_t = sudoku_batch::explain::ExplainFormat::Text)]
    pub format: sudoku_batch::explain::ExplainFormat,

    /// Print at most N steps; the totals still count every step.
    #[arg(long, value_name = "N", default_value_t = sudoku_batch::explain::ExplainOptions::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,

    /// Give up after N guesses.
    #[arg(long, value_name = "N")]
    pub max_guesses: Option<u64>,
}

/// The arguments of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files (text, CSV or grid blocks; `.gz` is decompressed). `-` or nothing reads
    /// stdin.
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub read: ReadArgs,

    /// Solvers to measure: names separated by commas, or `all`. `backtrack` gets a budget of
    /// 100,000 guesses per puzzle unless --max-guesses is given.
    #[arg(long, value_name = "NAME,...|all", value_delimiter = ',', default_values_t = [SolverChoice::Fast])]
    pub solver: Vec<SolverChoice>,

    /// Count solutions up to N (2 proves uniqueness).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    /// Stop the search of one puzzle after N guesses.
    #[arg(long, value_name = "N")]
    pub max_guesses: Option<u64>,

    /// Solver threads.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1)]
    pub threads: usize,

    /// Timed runs per file and solver; the table gives their median.
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    pub runs: u64,

    /// Print CSV instead of an aligned table.
    #[arg(long)]
    pub csv: bool,
}

/// A `--solver` value of `explain`: the strategies that keep a step trace, so that `--help`
/// lists only those and any other is refused as the argument is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TracedStrategy {
    /// Bitmask candidates, naked singles, branching on the cell with the fewest candidates
    Bitmask,
    /// Candidate lists with an undo log, naked-single propagation, branching on the cell with
    /// the fewest candidates
    Candidates,
    /// Plain cell-by-cell backtracking, digits 1 to 9 in turn
    Backtrack,
}

impl From<TracedStrategy> for Strategy {
    fn from(s: TracedStrategy) -> Strategy {
        match s {
            TracedStrategy::Bitmask => Strategy::Bitmask,
            TracedStrategy::Candidates => Strategy::Candidates,
            TracedStrategy::Backtrack => Strategy::Backtrack,
        }
    }
}

/// A `--solver` value of `bench`: one strategy, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverChoice {
    /// Every strategy.
    All,
    /// `fast`.
    Fast,
    /// `singles`.
    Singles,
    /// `backtrack`.
    Backtrack,
    /// `candidates`.
    Candidates,
    /// `bitmask`.
    Bitmask,
}

impl std::fmt::Display for SolverChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use clap::ValueEnum;
        match self.to_possible_value() {
            Some(v) => f.write_str(v.get_name()),
            None => Ok(()),
        }
    }
}

impl SolverChoice {
    /// The strategies a list of choices names, in order, without repeats.
    pub fn strategies(choices: &[SolverChoice]) -> Vec<Strategy> {
        let mut out: Vec<Strategy> = Vec::new();
        for c in choices {
            let add: &[Strategy] = match c {
                SolverChoice::All => Strategy::ALL,
                SolverChoice::Fast => &[Strategy::Fast],
                SolverChoice::Singles => &[Strategy::Singles],
                SolverChoice::Backtrack => &[Strategy::Backtrack],
                SolverChoice::Candidates => &[Strategy::Candidates],
                SolverChoice::Bitmask => &[Strategy::Bitmask],
            };
            for s in add {
                if !out.contains(s) {
                    out.push(*s);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn every_subcommand_passes_clap_checks() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_subcommand_help_is_the_doc_of_its_arguments() {
        let mut cli = Cli::command();
        cli.build();
        let solve = cli.find_subcommand("solve").unwrap();
        let long = solve.get_long_about().unwrap().to_string();
        assert!(long.starts_with("Solve every puzzle of a corpus"), "{long}");
        assert!(long.contains("Columns: line,puzzle,status"), "{long}");
        let list = cli.find_subcommand("bench").unwrap().get_about().unwrap();
        assert!(list.to_string().starts_with("Measure solver throughput"));
    }
}
