//! A quick read of the common `solve` command lines, before clap.
//!
//! clap builds the whole `solve` command (every argument with its help text and value parser)
//! before it reads one argument, then checks and converts what it matched: about 160,000
//! instructions, and with the page faults of its code and allocations about 0.2 ms of every
//! run on the machine of BENCHMARKS.md, as long as solving a hundred 17-clue puzzles takes
//! there. [`solve`] reads a `solve` command line written in the plain forms (each option and
//! its value as two arguments, flags alone, `-qq`) straight into [`SolveArgs`], and gives up on
//! anything else: another subcommand, help, a value given with `=` or attached to its flag, an
//! option given twice, an empty value or one that starts with `-`, a value that does not
//! parse, `--resume` without `--output`. clap then reads the line from the start, so every
//! error message and every help text is clap's own.
//!
//! The defaults below are the ones the clap attributes in `cli.rs` declare. The tests check,
//! over thousands of generated command lines, that whatever this accepts clap reads into the
//! same arguments, defaults included.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::ValueEnum;

use super::{Cli, Command, DEFAULT_LIMIT, InputArgs, OutputArgs, ReadArgs, SolveArgs, SolverArgs};
use crate::pipeline::DEFAULT_BATCH;
use crate::pipeline::read::{Column, Format, Header};
use crate::solver::Strategy;

/// The arguments of a plain `solve` command line (`args` includes the program name), or `None`
/// when clap must read it.
pub(super) fn solve(args: &[OsString]) -> Option<Cli> {
    let mut args = args.iter().skip(1).map(|a| a.to_str());
    if args.next()?? != "solve" {
        return None;
    }
    let mut input = None;
    let mut format = None;
    let mut column = None;
    let mut header = None;
    let mut solver = None;
    let mut limit = None;
    let mut max_guesses = None;
    let mut threads = None;
    let mut output = None;
    let mut quiet = None;
    let mut no_summary = None;
    let mut emit_solutions = None;
    let mut resume = None;
    let mut batch_size = None;
    while let Some(arg) = args.next() {
        let arg = arg?;
        match arg {
            "--format" => once(
                &mut format,
                Format::from_str(value(&mut args)?, false).ok()?,
            )?,
            "--column" => once(&mut column, value(&mut args)?.parse::<Column>().ok()?)?,
            "--header" => once(
                &mut header,
                Header::from_str(value(&mut args)?, false).ok()?,
            )?,
            "--solver" => once(
                &mut solver,
                Strategy::from_str(value(&mut args)?, false).ok()?,
            )?,
            "--limit" => once(
                &mut limit,
                value(&mut args)?.parse::<u64>().ok().filter(|&n| n >= 1)?,
            )?,
            "--max-guesses" => once(&mut max_guesses, value(&mut args)?.parse::<u64>().ok()?)?,
            "-j" | "--threads" => once(&mut threads, value(&mut args)?.parse::<usize>().ok()?)?,
            "--batch-size" => once(&mut batch_size, value(&mut args)?.parse::<usize>().ok()?)?,
            "-o" | "--output" => once(&mut output, PathBuf::from(value(&mut args)?))?,
            "--emit-solutions" => once(&mut emit_solutions, PathBuf::from(value(&mut args)?))?,
            "-q" | "--quiet" => once(&mut quiet, 1)?,
            "-qq" => once(&mut quiet, 2)?,
            "--no-summary" => once(&mut no_summary, true)?,
            "--resume" => once(&mut resume, true)?,
            _ if plain(arg) => once(&mut input, PathBuf::from(arg))?,
            _ => return None,
        }
    }
    let resume = resume.unwrap_or(false);
    if resume && output.is_none() {
        return None;
    }
    Some(Cli {
        command: Command::Solve(SolveArgs {
            input: InputArgs {
                input,
                read: ReadArgs {
                    format: format.unwrap_or(Format::Auto),
                    column,
                    header: header.unwrap_or(Header::Auto),
                },
            },
            solver: SolverArgs {
                solver: solver.unwrap_or_default(),
                limit: limit.unwrap_or(DEFAULT_LIMIT),
                max_guesses,
                threads: threads.unwrap_or(0),
            },
            output: OutputArgs {
                output,
                quiet: quiet.unwrap_or(0),
                no_summary: no_summary.unwrap_or(false),
            },
            emit_solutions,
            resume,
            batch_size: batch_size.unwrap_or(DEFAULT_BATCH),
        }),
    })
}

/// True for an argument that is a value and nothing else: not empty, not starting with `-`
/// (clap reads some of those as flags, `-` as stdin, and `--` ends the options).
fn plain(arg: &str) -> bool {
    !arg.is_empty() && !arg.starts_with('-')
}

/// The next argument, as an option's value: `None` unless it is [`plain`].
fn value<'a>(args: &mut impl Iterator<Item = Option<&'a str>>) -> Option<&'a str> {
    args.next()?.filter(|v| plain(v))
}

/// Fills `slot` with `value`; `None` if it was filled already (clap refuses most repeated
/// options, and reads the others its own way).
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    match slot {
        Some(_) => None,
        None => {
            *slot = Some(value);
            Some(())
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::generate::Rng;

    fn args(line: &[&str]) -> Vec<OsString> {
        std::iter::once("sudoku-batch")
            .chain(line.iter().copied())
            .map(OsString::from)
            .collect()
    }

    /// What clap reads from `args`, or its error's kind.
    fn by_clap(args: &[OsString]) -> Result<String, clap::error::ErrorKind> {
        Cli::try_parse_from(args)
            .map(|cli| format!("{cli:?}"))
            .map_err(|e| e.kind())
    }

    /// Asserts that clap reads `args` as the quick path does, when the quick path reads it.
    /// Returns whether it did.
    fn agrees(args: &[OsString]) -> bool {
        let Some(quick) = solve(args) else {
            return false;
        };
        assert_eq!(Ok(format!("{quick:?}")), by_clap(args), "{args:?}");
        true
    }

    #[test]
    fn the_usual_command_lines_are_read_without_clap() {
        for line in [
            &["solve"][..],
            &["solve", "data/sample.txt"],
            &["solve", "data/sample.txt", "-o", "results.csv"],
            &[
                "solve",
                "in.txt",
                "-j",
                "1",
                "--limit",
                "2",
                "-qq",
                "-o",
                "/dev/null",
            ],
            &[
                "solve",
                "-q",
                "--threads",
                "2",
                "--solver",
                "backtrack",
                "in.txt",
            ],
            &[
                "solve", "in.csv", "--format", "csv", "--column", "quizzes", "--header", "yes",
            ],
            &[
                "solve",
                "in.txt",
                "--max-guesses",
                "1000",
                "--emit-solutions",
                "all.csv",
            ],
            &[
                "solve",
                "in.txt",
                "-o",
                "out.csv",
                "--resume",
                "--no-summary",
            ],
            &[
                "solve",
                "--batch-size",
                "64",
                "--quiet",
                "in.txt",
                "--limit",
                "1",
            ],
        ] {
            assert!(agrees(&args(line)), "{line:?}");
        }
    }

    #[test]
    fn the_rest_is_left_to_clap() {
        for line in [
            &[][..],
            &["bench", "in.txt"],
            &["help", "solve"],
            &["solve", "--help"],
            &["solve", "-h"],
            &["--version"],
            &["solve", "--limit=2"],
            &["solve", "-j2"],
            &["solve", "--limit", "0"],
            &["solve", "--limit"],
            &["solve", "--solver", "nope"],
            &["solve", "-o", "-"],
            &["solve", "-"],
            &["solve", "--", "in.txt"],
            &["solve", "a.txt", "b.txt"],
            &["solve", "-q", "-q"],
            &["solve", "--resume"],
            &["solve", "--output", ""],
            &["solve", "--bogus"],
        ] {
            assert!(solve(&args(line)).is_none(), "{line:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_argument_that_is_not_utf8_is_left_to_clap() {
        use std::os::unix::ffi::OsStringExt;
        let mut line = args(&["solve"]);
        line.push(OsString::from_vec(b"in\xff.txt".to_vec()));
        assert!(solve(&line).is_none());
    }

    /// Random command lines from pieces of real ones, valid or not: whatever the quick path
    /// reads, clap must read the same way.
    #[test]
    fn clap_agrees_on_every_line_the_quick_path_reads() {
        const PIECES: [&str; 58] = [
            "solve",
            "solve",
            "solve",
            "bench",
            "--format",
            "text",
            "csv",
            "grid",
            "auto",
            "Text",
            "--column",
            "puzzle",
            "3",
            "--header",
            "yes",
            "no",
            "--solver",
            "fast",
            "backtrack",
            "singles",
            "FAST",
            "--limit",
            "0",
            "1",
            "2",
            "+3",
            "-1",
            "18446744073709551616",
            "--max-guesses",
            "--threads",
            "-j",
            "-o",
            "--output",
            "out.csv",
            "-",
            "-q",
            "-qq",
            "-qqq",
            "--quiet",
            "--no-summary",
            "--emit-solutions",
            "--resume",
            "--batch-size",
            "in.txt",
            "x y",
            "",
            "--",
            "--help",
            "-h",
            "--version",
            "--limit=2",
            "-j2",
            "--bogus",
            "é",
            "-oout.csv",
            "--quiet=1",
            "solve",
            "in.csv",
        ];
        let mut rng = Rng::new(4);
        let mut read = 0;
        for _ in 0..20_000 {
            let n = rng.below(10);
            let mut line = vec!["solve"];
            line.extend((0..n).map(|_| PIECES[rng.below(PIECES.len())]));
            if rng.below(10) == 0 {
                line.remove(0);
            }
            if agrees(&args(&line)) {
                read += 1;
            }
        }
        assert!(read > 100, "read {read} of 20,000 lines");
    }

    /// Random valid command lines: options in any order and any spelling, each at most once,
    /// with values of every kind each takes.
    #[test]
    fn clap_agrees_on_valid_lines_in_any_order() {
        const OPTIONS: [(&[&str], &[&str]); 14] = [
            (&["in.txt", "x y.csv"], &[]),
            (&["--format"], &["auto", "text", "csv", "grid"]),
            (&["--column"], &["2", "quizzes", "x y", "é"]),
            (&["--header"], &["auto", "yes", "no"]),
            (
                &["--solver"],
                &["fast", "singles", "backtrack", "candidates", "bitmask"],
            ),
            (
                &["--limit"],
                &["1", "2", "10", "+7", "18446744073709551615"],
            ),
            (&["--max-guesses"], &["0", "100", "18446744073709551615"]),
            (&["-j", "--threads"], &["0", "1", "2", "64"]),
            (&["-o", "--output"], &["out.csv", "/dev/null"]),
            (&["-q", "--quiet", "-qq"], &[]),
            (&["--no-summary"], &[]),
            (&["--emit-solutions"], &["sol.csv"]),
            (&["--resume"], &[]),
            (&["--batch-size"], &["0", "1", "4096"]),
        ];
        let mut rng = Rng::new(5);
        for _ in 0..5_000 {
            let mut order: Vec<usize> = (0..OPTIONS.len()).collect();
            rng.shuffle(&mut order);
            let mut line = vec!["solve"];
            for &i in &order[..rng.below(OPTIONS.len() + 1)] {
                let (flags, values) = OPTIONS[i];
                line.push(flags[rng.below(flags.len())]);
                if !values.is_empty() {
                    line.push(values[rng.below(values.len())]);
                }
            }
            let output = line.contains(&"-o") || line.contains(&"--output");
            let resume_alone = line.contains(&"--resume") && !output;
            assert_eq!(agrees(&args(&line)), !resume_alone, "{line:?}");
        }
    }
}
