//! The arguments of each verb: clap derive structs whose doc comments are the verb's `--help`,
//! built from the argument groups of the parent module.

use std::path::PathBuf;

use clap::Args;

use super::*;

/// The arguments of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub solver: SolverArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Results format. Default: by the name of OUTPUT (.csv, .tsv, .jsonl or .ndjson,
    /// .parquet; CSV for a name without extension, a pipe and stdout); any other extension is
    /// refused unless this is given. A name ending in .gz, .zst or .xz is compressed (not
    /// Parquet).
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
    /// The options must be those recorded in OUTPUT.resume.json by the run that wrote OUTPUT,
    /// complete or not; an OUTPUT with rows and no such record is refused.
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

    /// Draws per puzzle for --min-clues/--max-clues, rated puzzles per puzzle for
    /// --min-er/--max-er, neighbours per puzzle for --around. When none fits, the puzzles made
    /// so far are written and the run stops with an error (exit 2). With --max-time-ms the
    /// puzzles of a band can depend on the machine's speed; without it a seed gives the same
    /// puzzles everywhere.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub attempts: u64,

    /// Find new puzzles next to the puzzles in FILE (hard ones, say) instead of drawing fresh
    /// ones: each puzzle written is a close neighbour of a seed drawn at random (one clue, now
    /// and then two, taken away; then, of the solutions left, a digit only one or a few of them
    /// have put in another blank cell, up to three times, until the solution is unique; then
    /// made minimal), so that most of the seed's clues stay, rated within --min-er/--max-er, up to --attempts neighbours tried
    /// per puzzle. Every puzzle written is minimal, has one solution, and is neither a seed nor
    /// written before. FILE holds one puzzle a line (81 characters, `.` or `0` for a blank);
    /// blank lines and lines starting with `#` are skipped; each puzzle must have exactly one
    /// solution. Needs --min-er. A neighbour is rated only as far as the band needs, as
    /// `grade --min-er` does: without --max-er only until it is known to rate at least
    /// --min-er. A whole rating of ER 10 and up takes seconds: with --max-er give
    /// --max-time-ms (a neighbour not rated within it is passed over).
    #[arg(long, value_name = "FILE", requires = "min_er")]
    #[arg(conflicts_with_all = ["solved", "symmetry", "min_clues", "max_clues", "shard"])]
    pub around: Option<std::path::PathBuf>,

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
    pub shard: Option<crate::cli::shard::ShardArg>,

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
    /// with `duplicate of line N` (`of FILE line N` with several inputs); with --isomorphs,
    /// an isomorph of an earlier one fails with `isomorph of line N`. Memory grows with the
    /// corpus: every distinct puzzle is kept as a hash of its clues with its line, as
    /// --isomorphs keeps classes (20 to 25 bytes each, see there; two different puzzles agree
    /// on the hash with a probability below 2^-102). With --shard, only duplicates within the
    /// part are found.
    #[arg(long)]
    pub duplicates: bool,

    /// Another corpus (e.g. a training set; give the option again for several) that no record
    /// may repeat: a record whose puzzle is in FILE fails with `duplicate of FILE line N`
    /// (with --isomorphs, one with an isomorph in FILE: `isomorph of FILE line N`). FILE is
    /// read whole first, in the format its name says, its puzzle column found by name as for
    /// an input without --column; its records that are not puzzles are skipped. Each distinct
    /// puzzle of FILE is kept as a hash with its line, as --isomorphs keeps classes (20 to 25
    /// bytes each).
    #[arg(long, value_name = "FILE")]
    pub against: Vec<PathBuf>,

    /// --duplicates and --against compare puzzles up to isomorphism: the same puzzle up to
    /// relabelling the digits, permuting bands, stacks, rows within a band, columns within a
    /// stack, and transposing (the same canonical form, see `canon --help`); the summary
    /// counts the essentially different puzzles. With --duplicates, a later isomorph of a
    /// puzzle found unique, multiple or unsolvable is not searched (isomorphs have the same
    /// solutions count): its row gives that status, with the solution, guesses and time_ns
    /// empty, whatever --threads (unless --minimal, --expect-column or an ER band need its own
    /// search; a class whose first search was aborted, or whose clues conflict, is searched
    /// puzzle by puzzle). Each class is kept as 104 bits of a hash of its canonical form with
    /// its status and the line where it was first seen, in a 16-byte entry: 20 to 25 bytes a
    /// class with the table's room to grow, at any size and while it grows (about 27 bytes a
    /// class of peak memory measured), plus up to 200 KB. Two different forms agree on those
    /// bits with a probability below 2^-102, so a false `isomorph of` is about as likely as
    /// 10^-13 even among a billion classes.
    #[arg(long)]
    pub isomorphs: bool,

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
    pub band: GradeBandArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Results format, as `solve`'s --output-format: by the name of OUTPUT by default.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormat>,

    /// Resume an interrupted run: keep the complete rows already in OUTPUT (needs -o), skip as
    /// many input records (checking each), and append the rest; the options (--ruleset
    /// included) must be those recorded in OUTPUT.resume.json, as for `solve --resume`.
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

    /// Input format of --input (as for `solve`: by the name by default).
    #[arg(long, alias = "input-format", value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// CSV column of --input holding the puzzle (as for `solve`).
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<Column>,

    /// Show the steps a person would take instead of a solver's search: each technique with
    /// its rating on the Sudoku Explainer scale, the digits it places (`r1c3=4`: 4 goes in row
    /// 1, column 3), the candidates it removes (`r2c5<>7`: 7 is no longer possible in row 2,
    /// column 5), then in brackets the cells of its pattern (the cells it reasons from: the
    /// corners of an X-Wing, the cells of a chain); at the end ER, EP and ED (see `grade
    /// --help`). The puzzle must have exactly one solution.
    #[arg(long, conflicts_with_all = ["solver", "max_steps", "max_guesses"])]
    pub logic: bool,

    /// With --logic: give up after MS milliseconds.
    #[arg(long, value_name = "MS", requires = "logic")]
    pub max_time_ms: Option<u64>,

    /// Whose steps to show (`fast` and `singles` keep no step trace).
    #[arg(long, value_enum, default_value_t = TracedStrategy::Bitmask)]
    pub solver: TracedStrategy,

    /// Output format: readable text, or one JSON object per step (JSON lines).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = sudoku_batch::explain::ExplainFormat::Text)]
    pub output_format: sudoku_batch::explain::ExplainFormat,

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
    /// Puzzle files (text, CSV, Parquet or grid blocks; gzip, xz and zstd are decompressed).
    /// `-` or nothing reads stdin. Each is held in memory while it is timed: one of more than
    /// 10,000,000 records (or an endless stdin) is refused with exit 2.
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

/// The arguments of `report`.
#[cfg(feature = "report")]
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Results files of solve, validate or grade, shown side by side in this order.
    #[arg(required = true, value_name = "RESULTS")]
    pub results: Vec<PathBuf>,

    /// Where the page goes (`-`: stdout); replaced if it exists. It may not be one of RESULTS.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: PathBuf,

    /// Also write the page's numbers as JSON to FILE, for scripts.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// How many of the slowest (solve, validate) and hardest (grade) puzzles to list per file.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,

    /// How many failed records to list per file (the first ones); all are counted.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub failures: usize,
}
