//! The argument groups the verbs share: inputs and how to read them, the solver, the output,
//! and the solver choices of `solve` and `explain`.

use clap::Args;

use super::*;

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
    /// error for a shard that cannot be had, before any file is created, and for an `output`
    /// that an input directory lists (an earlier run's output, most likely).
    pub fn open(&self, output: Option<&Path>) -> Result<(Vec<Source>, ReadOptions), RunError> {
        let inputs = inputs::expand(&self.inputs, self.glob.as_deref(), &mut crate::cli::warn)?;
        self.refuse_listed_output(&inputs, output)?;
        let shard = self.shard.shard()?;
        if shard.is_some() && inputs.iter().any(Source::reads_once) {
            // A shard copies stdin or a pipe to a temporary file, made once the outputs are:
            // if none can be made, say so before an output is.
            tempfile::tempfile().map_err(|e| {
                crate::cli::shard::usage(format!(
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

impl InputArgs {
    /// Refuses an `output` that is one of the files listed from an input directory: the
    /// output of an earlier run written into that directory is read as an input.
    fn refuse_listed_output(
        &self,
        inputs: &[Source],
        output: Option<&Path>,
    ) -> Result<(), RunError> {
        use std::os::unix::fs::MetadataExt;
        let Some((path, output)) = output.and_then(|o| Some((o, std::fs::metadata(o).ok()?)))
        else {
            return Ok(());
        };
        let dirs = self
            .inputs
            .iter()
            .filter(|arg| std::fs::metadata(arg).is_ok_and(|m| m.is_dir()));
        for dir in dirs {
            let listed = inputs.iter().any(|source| match source {
                Source::Path(p) => {
                    p.parent() == Some(dir.as_path())
                        && std::fs::metadata(p)
                            .is_ok_and(|m| (m.dev(), m.ino()) == (output.dev(), output.ino()))
                }
                Source::Stdin => false,
            });
            if listed {
                return Err(RunError::SameFile {
                    path: path.display().to_string(),
                    what: format!(
                        "the output is the input: it lies in the input directory {}, whose \
                         files are all read (it is likely the output of an earlier run); write \
                         the output elsewhere, move it out, or pick the inputs with --glob",
                        dir.display()
                    ),
                });
            }
        }
        Ok(())
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
