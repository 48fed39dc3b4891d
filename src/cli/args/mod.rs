//! Command-line arguments: clap derive structs whose doc comments are the `--help` text. This
//! module holds the command and the exit codes; `groups` the argument groups the verbs share,
//! `rating` those of rating and ER bands, `verbs` and `isomorphs` each verb's own arguments.

use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use super::shard::ShardArgs;

use sudoku_batch::generate::Symmetry;
use sudoku_batch::logic::Ruleset;
use sudoku_batch::pipeline::grade::{ErBand, GradeOptions, tenths};
use sudoku_batch::pipeline::read::{Column, Format, Header, ReadOptions, Source, inputs};
use sudoku_batch::pipeline::write::OutputFormat;
use sudoku_batch::pipeline::{DEFAULT_BATCH, RunError};
use sudoku_batch::solver::{Limits, Strategy};

mod groups;
mod isomorphs;
mod rating;
mod verbs;
pub use groups::*;
pub use isomorphs::*;
pub use rating::*;
pub use verbs::*;

/// The solutions counted when `--limit` is not given: two, which proves a puzzle unique.
pub const DEFAULT_LIMIT: u64 = 2;

/// Exit codes, shown at the end of `--help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0    every record was a puzzle (solvable or not)
  1    the run completed, but some records were invalid
  2    usage or I/O error (unreadable input, unwritable output)
  130  interrupted (Ctrl-C or SIGTERM); the rows written so far are complete";

/// Exit codes of `validate`.
pub const VALIDATE_EXIT_CODES: &str = "\
Exit codes:
  0    every record passes (an empty report, or one of passing rows with --all)
  1    the run completed, but some records failed; the report lists each with its problem
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
  2    usage or I/O error, or no draw met --min-clues/--max-clues (or no puzzle rated in the
       --min-er/--max-er band) within --attempts
  130  interrupted (Ctrl-C or SIGTERM); every line written so far is a whole puzzle";

/// Exit codes of `augment`.
pub const AUGMENT_EXIT_CODES: &str = "\
Exit codes:
  0    every record was a puzzle with exactly one solution, and its copies were written
  1    the run completed, but some records were not augmented (not a puzzle, no solution, or
       more than one): each has one row with the reason
  2    usage or I/O error (unreadable input, unwritable output)
  130  interrupted (Ctrl-C or SIGTERM); the rows written so far are complete";

/// Exit codes of `merge`.
pub const MERGE_EXIT_CODES: &str = "\
Exit codes:
  0  the parts fit together and OUTPUT was written
  2  the parts do not fit (header, overlap, order, a gap), or an I/O error; nothing is written";

/// Exit codes of `report`.
#[cfg(feature = "report")]
pub const REPORT_EXIT_CODES: &str = "\
Exit codes:
  0  the page (and the JSON) was written
  2  a RESULTS file is missing or no output of solve, validate or grade, an output is one of
     RESULTS, or an I/O error; no output is written";

/// Exit codes of `explain`.
pub const EXPLAIN_EXIT_CODES: &str = "\
Exit codes:
  0  the puzzle was explained (solvable or not)
  1  the record is not a puzzle (with --logic: or has no logical solution)
  2  usage or I/O error (no record at --line, unreadable input)";

/// Solve, validate, grade, generate, explain and benchmark large Sudoku corpora.
///
/// Words used in the help and the output:
///   ER, EP, ED  difficulty for a person on the Sudoku Explainer scale (1.0 to about 11.5):
///               ER rates the hardest step of a logical solution, EP the hardest step before
///               the first digit is placed, ED the first step (see `grade --help`)
///   serate      Sukaku Explainer's batch rater, whose ratings `grade` reproduces
///   technique   a rule a person applies (Hidden Single, X-Wing, Forcing Chain...), each
///               with its rating; `explain --logic` shows them step by step
///   guesses     digits a solver tried where its rules forced none (see `solve --solver`)
///   settled without guessing
///               solved, or proved to have no solution, by the solver's rules alone
///   band        three boxes side by side (rows 1-3, 4-6 or 7-9); a band bitboard holds
///               where one digit may go in one band, 27 cells as bits
///   minirow     the three cells where a row crosses a box (minicolumn: a column and a box)
///   r3c4        the cell in row 3, column 4 (rows and columns are numbered 1 to 9)
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, after_help = EXIT_CODES, verbatim_doc_comment)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands. The first paragraph of a variant's doc comment is its line in the list of
/// commands; the whole comment is its `--help`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of a corpus and write one row per record (CSV, JSON lines or
    /// Parquet).
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
    /// Files are read like the input of `solve` (text, CSV, Parquet or grid blocks; gzip, xz
    /// and zstd are decompressed; --format, --column, --header) and loaded into memory first,
    /// so only solving is timed: at most 10,000,000 records a file (more, or an endless stdin,
    /// is refused with exit 2). Records that are not puzzles are skipped and counted (the `invalid`
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
    ///
    /// With --min-er/--max-er the puzzles spread over the band: each puzzle draws a target ER
    /// uniformly from the band's tenths (from --min-er to 1.0 above it without --max-er) and
    /// must rate from the target to 0.4 above it. A search starts from a random minimal
    /// puzzle and moves to a neighbour (a few clues changed, made minimal again) whenever that
    /// is no farther from the target, starting afresh after 40 steps without such a move.
    /// Ratings the search cannot reach within --attempts (ER values minimal puzzles seldom
    /// take) give the puzzle rated closest to the target within the band. Above ER 9 the
    /// search is slow; --around searches next to known hard puzzles instead.
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
    /// cannot be rated with `not rated: WHY` (in `problem`; `error` holds, as in `solve`, only
    /// why a record is not a puzzle or which clues conflict).
    #[command(after_help = VALIDATE_EXIT_CODES)]
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
    /// Write every puzzle's canonical form: the one representative of its isomorph class.
    ///
    /// Puzzles that differ only by relabelling the digits, permuting the bands, the rows within
    /// a band, the stacks or the columns within a stack, or transposing, are the same puzzle
    /// (isomorphs); they have one canonical form, the minlex form the Sudoku community uses
    /// (Mladen Dobrichev's minlexing tool gives the same): of all the isomorphs, the one with
    /// the smallest clue pattern read row by row, blanks first, then the smallest digits,
    /// relabelled in order of first appearance. Solved grids have one too.
    ///
    /// Columns: line,puzzle,status,canonical,automorphisms,error (after `file` with several
    /// inputs). Status is ok, or invalid (not a puzzle; error says why, canonical is empty).
    /// `automorphisms` counts the distinct ways the puzzle maps onto its form, told apart by
    /// where its clues go: 1 for an asymmetric puzzle. Puzzles are not solved: clues that
    /// conflict still have a form. The summary counts the distinct forms among the rows
    /// written, the essentially different puzzles. Rows come in input order whatever the
    /// thread count, as CSV, JSON lines or Parquet (--output-format).
    #[command(after_help = EXIT_CODES)]
    Canon(CanonArgs),
    /// Write random isomorphs of every puzzle, each with its solution transformed alike.
    ///
    /// An isomorph is the puzzle with its digits relabelled, its bands, stacks, rows within a
    /// band and columns within a stack permuted, and possibly transposed: the same puzzle for
    /// a solver or a person (same solution count, same difficulty), a new one for a model
    /// that learns from it. Each puzzle is solved once (the `fast` solver, counting to 2);
    /// one with exactly one solution gets --copies rows, each with a transformation drawn
    /// uniformly from all 1,218,998,108,160 and applied to the puzzle and the solution alike.
    ///
    /// Columns: line,copy,puzzle,solution,status,error (after `file` with several inputs;
    /// --with-transform adds `transform` before status). `copy` counts from 0; copy 0 is a
    /// random isomorph like the others, not the original. A record that is not augmented (not
    /// a puzzle, no solution, more than one) gets one row with its status (invalid,
    /// unsolvable, multiple), an empty `copy` and `solution`, and the reason in `error`.
    ///
    /// The copies of a record depend only on --seed, its input and its line: the same whatever
    /// --threads or --shard, and the first K copies are the same whatever --copies.
    #[command(after_help = AUGMENT_EXIT_CODES)]
    Augment(AugmentArgs),
    /// Join the CSV outputs of the parts of a run (--shard K/N) into the output of the whole.
    ///
    /// Checks that every part has the first part's header and that the `line`s keep
    /// increasing from part to part (per input, the inputs in order, when there is a `file`
    /// column): no overlap, nothing out of order. The options each part was made with are
    /// kept beside it in PART.resume.json: they must all be the same but --shard (a part
    /// without one beside parts with one is refused; parts of validate have none). With
    /// --input (each input of the run), also that every record of every input has its row,
    /// with the record's puzzle (no gap, no other input; for the outputs of solve, grade and
    /// validate --all). Then writes the first header and every part's rows, in plain CSV, and
    /// the parts' options beside OUTPUT. OUTPUT may be no part and no --input file (by any
    /// name or link), must be named .csv (or be stdout), and another run writing it stops
    /// this one. On a problem, nothing is written.
    #[command(after_help = MERGE_EXIT_CODES)]
    Merge(MergeArgs),
    /// Write one HTML page of charts and tables from the results of solve, validate or grade.
    ///
    /// Reads each RESULTS file (CSV, JSON lines or Parquet, as those commands write them;
    /// gzip, xz and zstd are decompressed) once, in flat memory, and shows per file its
    /// records, statuses, failed records with their reasons and clue counts; for solve and
    /// validate, guesses and time per puzzle on log scales (histogram, cumulative share,
    /// p50/p90/p99/max) and the slowest puzzles with the `explain` command of each; for grade,
    /// ER per band stacked by hardest technique, EP and ED, and the hardest puzzles. Several
    /// files share the axes and get a table of differences. The page needs no network: its
    /// charts are inline SVG, light or dark as the reader's system is.
    #[cfg(feature = "report")]
    #[command(after_help = REPORT_EXIT_CODES)]
    Report(ReportArgs),
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

    /// The long help of `sudoku-batch [COMMAND]`, as `--help` prints it.
    fn help(command: Option<&str>) -> String {
        let mut cli = Cli::command();
        cli.build();
        let mut c = match command {
            Some(name) => cli.find_subcommand(name).unwrap().clone(),
            None => cli,
        };
        c.render_long_help().to_string()
    }

    #[test]
    fn the_top_level_help_names_every_command_and_explains_the_words() {
        let top = help(None);
        let about = top.lines().next().unwrap().to_lowercase();
        for verb in [
            "solve",
            "validate",
            "grade",
            "generate",
            "explain",
            "benchmark",
        ] {
            assert!(about.contains(verb), "{about}");
        }
        for word in [
            "ER, EP, ED",
            "serate",
            "guesses",
            "settled without guessing",
        ] {
            assert!(top.contains(word), "{word}: {top}");
        }
    }

    #[test]
    fn each_command_help_says_what_it_does() {
        let solve = help(Some("solve"));
        assert!(!solve.contains("one CSV row"), "{solve}");
        let first = solve.split("\n\n").next().unwrap();
        assert!(
            first.contains("JSON lines") && first.contains("Parquet"),
            "{first}"
        );
        // validate's exit codes are its own, not solve's.
        let validate = help(Some("validate"));
        assert!(validate.contains(VALIDATE_EXIT_CODES), "{validate}");
        assert!(!validate.contains(EXIT_CODES), "{validate}");
        assert!(help(Some("bench")).contains("Parquet"));
        // explain reads --format like every other command, and writes --output-format.
        let explain = help(Some("explain"));
        assert!(explain.contains("--format <FORMAT>"), "{explain}");
        assert!(explain.contains("--output-format <FORMAT>"), "{explain}");
        assert!(!explain.contains("--input-format"), "{explain}");
        assert!(explain.contains("cells of its pattern"), "{explain}");
    }
}
