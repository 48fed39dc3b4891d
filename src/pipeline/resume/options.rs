//! The record of the options that shape a run's rows (`OUTPUT.resume.json`, [`RunOptions`]):
//! what it holds, writing and reading it beside the output, and comparing two runs' options in
//! words.

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ResumeError;
use crate::pipeline::output::write_err;
use crate::pipeline::{Config, RunError};

/// The options of a run that shape its rows. A resumed run must have the same as the run that
/// began its output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOptions {
    /// `--solver`.
    pub solver: String,
    /// `--limit`.
    pub limit: u64,
    /// `--max-guesses`.
    pub max_guesses: Option<u64>,
    /// Whether `--emit-solutions` was given.
    pub emit_solutions: bool,
    /// `--format`, `--column`, `--header`, and `--delimiter` and `--field` when given.
    pub read: String,
    /// How puzzles are rated (`grade`), if they are.
    #[serde(default)]
    pub grade: Option<String>,
    /// `--shard K/N`, if given.
    #[serde(default)]
    pub shard: Option<String>,
}

/// How the input is read, as the options that say it (`--format auto, --column auto, --header
/// auto`): the words kept in the sidecar and shown when two runs differ.
fn read_words(read: &crate::pipeline::read::ReadOptions) -> String {
    use crate::pipeline::read::{Column, Format, Header};
    let format = match read.format {
        Format::Auto => "auto",
        Format::Text => "text",
        Format::Csv => "csv",
        Format::Grid => "grid",
        Format::Parquet => "parquet",
    };
    let column = match &read.column {
        Column::Auto => "auto".to_string(),
        Column::Index(i) => i.to_string(),
        Column::Name(name) => format!("\"{name}\""),
    };
    let header = match read.header {
        Header::Auto => "auto",
        Header::Yes => "yes",
        Header::No => "no",
    };
    let mut words = format!("--format {format}, --column {column}, --header {header}");
    if let Some(d) = read.delimiter {
        let d = match d {
            b'\t' => "tab".to_string(),
            b' ' => "space".to_string(),
            d => format!("'{}'", d as char),
        };
        words += &format!(", --delimiter {d}");
    }
    if let Some(f) = read.field {
        words += &format!(", --field {f}");
    }
    words
}

/// How puzzles are rated, as the options that say it (`--ruleset sukaku, no --max-time-ms`).
fn grade_words(grade: &crate::pipeline::grade::GradeOptions) -> String {
    let ruleset = match grade.ruleset {
        crate::logic::Ruleset::Sukaku => "sukaku",
        crate::logic::Ruleset::Classic => "classic",
    };
    let time = grade.max_time.map_or("no --max-time-ms".to_string(), |t| {
        format!("--max-time-ms {}", t.as_millis())
    });
    let band = grade.band.words();
    if band.is_empty() {
        format!("--ruleset {ruleset}, {time}")
    } else {
        format!("--ruleset {ruleset}, {time}, {band}")
    }
}

impl RunOptions {
    /// The options of `config`.
    pub fn of(config: &Config) -> RunOptions {
        let read = &config.read;
        RunOptions {
            solver: config.solve.strategy.name().to_string(),
            limit: config.solve.limits.solutions,
            max_guesses: config.solve.limits.guesses,
            emit_solutions: config.emit_solutions.is_some(),
            read: read_words(read),
            grade: config.solve.grade.map(|g| grade_words(&g)),
            shard: read.shard.map(|s| s.to_string()),
        }
    }

    /// Where the options of the output at `output` are kept.
    pub fn path(output: &Path) -> PathBuf {
        let mut name = output.as_os_str().to_owned();
        name.push(".resume.json");
        PathBuf::from(name)
    }

    /// Writes these options beside the output at `output`, as a run does before it writes the
    /// output; returns the file's path.
    pub fn record(&self, output: &Path) -> io::Result<PathBuf> {
        let path = RunOptions::path(output);
        self.write_to(&path)?;
        Ok(path)
    }

    /// Writes these options to the file at `path` (the record's own path).
    pub fn write_to(&self, path: &Path) -> io::Result<()> {
        let json = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        std::fs::write(path, json + "\n")
    }

    /// True when `text` is a record of a run's options as this tool writes them (of this
    /// version or another): a JSON object naming a solver and how the input was read.
    pub(crate) fn is_record(text: &[u8]) -> bool {
        serde_json::from_slice::<serde_json::Value>(text)
            .is_ok_and(|v| v.get("solver").is_some() && v.get("read").is_some())
    }

    /// The options kept beside the output at `output`, if any.
    pub fn recorded(output: &Path) -> Result<Option<RunOptions>, ResumeError> {
        let path = RunOptions::path(output);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            // None there, or a name too long to be had.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::InvalidFilename
                ) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| ResumeError::Mismatch(format!("{} is damaged: {e}", path.display())))
    }

    /// What differs between the options `self` of the run that began the output and those of
    /// this run, `now`, in words; `None` when they are the same.
    pub(super) fn difference(&self, now: &RunOptions) -> Option<String> {
        self.compare(now, "OUTPUT was written with", "this run has")
    }

    /// What differs between `self` and `other`, in words: the first difference, as
    /// "`this` --limit 2, `that` --limit 3"; `None` when they are the same.
    pub fn compare(&self, now: &RunOptions, this: &str, that: &str) -> Option<String> {
        let was = |what: &str, a: String, b: String| {
            (a != b).then(|| format!("{this} {what} {a}, {that} {what} {b}"))
        };
        let guesses = |g: Option<u64>| g.map_or("none".into(), |g| g.to_string());
        let emits = |e: bool| if e { "a file" } else { "none" }.to_string();
        was("--solver", self.solver.clone(), now.solver.clone())
            .or_else(|| was("--limit", self.limit.to_string(), now.limit.to_string()))
            .or_else(|| {
                was(
                    "--max-guesses",
                    guesses(self.max_guesses),
                    guesses(now.max_guesses),
                )
            })
            .or_else(|| {
                was(
                    "--emit-solutions",
                    emits(self.emit_solutions),
                    emits(now.emit_solutions),
                )
            })
            .or_else(|| was("the input read with", self.read.clone(), now.read.clone()))
            .or_else(|| {
                let rating = |g: &Option<String>| g.clone().unwrap_or_else(|| "none".into());
                was("rating by", rating(&self.grade), rating(&now.grade))
            })
            .or_else(|| {
                let shard = |s: &Option<String>| s.clone().unwrap_or_else(|| "none".into());
                was("--shard", shard(&self.shard), shard(&now.shard))
            })
    }
}

/// Writes `options` at `path`, beside the results file. A record that cannot be written is
/// no error, unless the run is resumed: the output then simply cannot be resumed later.
pub(crate) fn record_options(
    options: &RunOptions,
    path: &Path,
    resume: bool,
) -> Result<(), RunError> {
    // A resumed run has the options recorded (it was refused otherwise): nothing to write.
    let recorded = std::fs::read(path).ok();
    let recorded = recorded.and_then(|text| serde_json::from_slice(&text).ok());
    if resume && recorded.as_ref() == Some(options) {
        return Ok(());
    }
    let Err(e) = options.write_to(path) else {
        return Ok(());
    };
    // Half a record is no record: it would keep later runs from replacing it. An earlier
    // run's record that can be neither replaced nor removed would tell of other rows.
    if let Err(gone) = std::fs::remove_file(path)
        && gone.kind() != io::ErrorKind::NotFound
        && std::fs::symlink_metadata(path).is_ok()
    {
        return Err(write_err(&path.display().to_string())(e));
    }
    if resume {
        return Err(RunError::Resume {
            path: path.display().to_string(),
            message: format!(
                "the record of the run's options cannot be written ({e}), so the output could \
                 not be resumed again; run without --resume, or write the output where its \
                 directory is writable"
            ),
        });
    }
    Ok(())
}

/// Removes the record of the options of an earlier run that wrote the results file, which
/// this run replaces with rows of other options (or of another command).
pub(crate) fn remove_record(path: &Path) -> Result<(), RunError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            Err(write_err(&path.display().to_string())(e))
        }
        _ => Ok(()),
    }
}
