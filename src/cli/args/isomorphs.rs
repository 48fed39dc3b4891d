//! The arguments of the isomorph verbs, `canon` (with its split) and `augment`.

use clap::Args;
use sudoku_batch::pipeline::canon::Split;

use super::*;

/// The arguments of `canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Results format, as `solve`'s --output-format: by the name of OUTPUT by default.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormat>,

    /// Worker threads. Default: one per CPU this process may use (also what 0 asks for).
    #[arg(long, short = 'j', value_name = "N", default_value_t)]
    #[arg(hide_default_value = true)]
    pub threads: usize,

    /// Resume an interrupted run: keep the complete rows already in OUTPUT (needs -o), skip as
    /// many input records (checking each), and append the rest.
    #[arg(long, requires = "output", conflicts_with = "split")]
    pub resume: bool,

    /// Deal the isomorph classes into named parts with these shares, e.g. `train=8,test=2`
    /// (80% and 20% of the classes): adds a `part` column, after `automorphisms`, naming the
    /// part of each puzzle. Every isomorph of a puzzle, and so every repeat, lands in the same
    /// part, so that no test puzzle is an isomorph of a training one; the shares are of
    /// classes, not of records. The same corpus and --split-seed always give the same parts.
    #[arg(long, value_name = "NAME=SHARE,...", value_parser = parse_split)]
    pub split: Option<SplitShares>,

    /// The seed that deals the classes into --split's parts: another seed, another split.
    #[arg(long, value_name = "S", default_value_t = 0, requires = "split")]
    pub split_seed: u64,

    /// Records per batch handed to the worker threads.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH, hide = true)]
    pub batch_size: usize,
}

/// The parts of `canon --split`: each name with its share, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitShares(pub Vec<(String, u32)>);

/// Reads `train=8,test=2`: NAME=SHARE items, whole shares, with [`Split::new`]'s rules.
fn parse_split(text: &str) -> Result<SplitShares, String> {
    let mut parts: Vec<(String, u32)> = Vec::new();
    for item in text.split(',') {
        let (name, share) = item
            .split_once('=')
            .ok_or_else(|| format!("`{item}` is not NAME=SHARE (as in train=8,test=2)"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("`{item}` has no name before `=`"));
        }
        let share = share
            .trim()
            .parse::<u32>()
            .map_err(|_| format!("`{item}`: the share must be a whole number"))?;
        parts.push((name.to_string(), share));
    }
    Split::new(parts.clone(), 0)?;
    Ok(SplitShares(parts))
}

/// The arguments of `augment`.
#[derive(Debug, Args)]
pub struct AugmentArgs {
    #[command(flatten)]
    pub input: InputArgs,

    /// Random isomorphs written for each puzzle with exactly one solution.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub copies: u64,

    /// Random seed: the same seed gives the same copies of a record whatever --threads.
    /// Default: a random seed, printed on stderr.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Add a `transform` column: the transformation applied, such as
    /// `TR312456987C123789456D912345678`: `T` when the original is transposed first, then
    /// after `R` the row of the (transposed) original that each row of the copy is, after `C`
    /// the same for columns, and after `D` what each digit 1 to 9 becomes.
    #[arg(long)]
    pub with_transform: bool,

    /// Solver threads. Default: one per CPU this process may use (also what 0 asks for).
    #[arg(long, short = 'j', value_name = "N", default_value_t)]
    #[arg(hide_default_value = true)]
    pub threads: usize,

    #[command(flatten)]
    pub output: OutputArgs,

    /// Output format, as `solve`'s --output-format: by the name of OUTPUT by default.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<OutputFormat>,

    /// Records per batch handed to the worker threads.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH, hide = true)]
    pub batch_size: usize,
}
