//! `report`: the results files of `solve`, `validate` and `grade` turned into one
//! self-contained HTML page of tables and charts (and the same numbers as JSON).
//!
//! Each file is read once, row by row, in any output format (`read`, `parquet`), into
//! counters of fixed size ([`stats`]: histograms on a log scale, exact counts of small values,
//! bounded lists of the slowest and hardest puzzles), so memory stays flat however many rows
//! it has. [`input`] turns the counters of one file into its [`InputReport`]; this module puts
//! the files side by side ([`Report::differences`]); [`charts`] draws with `plotters` and
//! [`html`] writes the page, which needs no network to open.
//!
//! ```no_run
//! use sudoku_batch::report::{Limits, Report};
//!
//! let report = Report::read(&["results.csv".into()], Limits::default()).unwrap();
//! let page = report.html();
//! println!("{} rows, {} bytes of HTML", report.inputs[0].records, page.len());
//! ```

pub mod charts;
pub mod html;
pub mod input;
#[cfg(feature = "parquet")]
mod parquet;
mod read;
pub mod stats;
#[cfg(test)]
mod tests;

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

pub use input::{Command, InputReport, Limits};

use crate::pipeline::output::{Outputs, Plan, Read, write_err};
use crate::pipeline::read::Source;
use crate::pipeline::{Output, RunError};

/// What the report reads and where it goes.
#[derive(Debug, Clone)]
pub struct ReportConfig {
    /// The results files, in the order they are shown.
    pub inputs: Vec<PathBuf>,
    /// Where the page goes.
    pub output: Output,
    /// Where the numbers go as JSON, if anywhere.
    pub json: Option<PathBuf>,
    /// How many puzzles and failures are listed.
    pub limits: Limits,
}

/// One measure of the table of differences: its value for each input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// What is measured.
    pub measure: String,
    /// How its values are written: `count`, `percent`, `ns` or `rating`.
    pub unit: &'static str,
    /// Its value for each input, in order (`None` where it does not apply).
    pub values: Vec<Option<f64>>,
}

/// The report of one or more results files.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The version of sudoku-batch that made it.
    pub version: &'static str,
    /// How exact the percentiles of guesses and time are.
    pub precision: &'static str,
    /// Each results file, in order.
    pub inputs: Vec<InputReport>,
    /// With two or more inputs, the measures side by side.
    pub differences: Vec<Difference>,
}

impl Report {
    /// Reads the results files at `paths`. Every file is opened and its columns checked before
    /// any is read, so that a file that is no output of `solve`, `validate` or `grade` stops the
    /// report at once, with a usage error that names it.
    pub fn read(paths: &[PathBuf], limits: Limits) -> Result<Report, RunError> {
        if paths.is_empty() {
            return Err(RunError::Usage {
                path: "RESULTS".into(),
                message: "no results file given".into(),
            });
        }
        let opened = paths
            .iter()
            .map(|p| input::open(p))
            .collect::<Result<Vec<_>, _>>()?;
        let inputs = paths
            .iter()
            .zip(opened)
            .map(|(path, (results, command))| input::summarise(path, results, command, limits))
            .collect::<Result<Vec<_>, _>>()?;
        let differences = if inputs.len() > 1 {
            differences(&inputs)
        } else {
            Vec::new()
        };
        Ok(Report {
            version: env!("CARGO_PKG_VERSION"),
            precision: stats::PRECISION,
            inputs,
            differences,
        })
    }

    /// The page.
    pub fn html(&self) -> String {
        html::page(self)
    }

    /// The numbers as JSON (pretty-printed).
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serializes")
    }
}

/// `part` as a percentage of `whole`.
fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| 100.0 * part as f64 / whole as f64)
}

/// A rating as written (`7.2`) as a number.
fn rating(r: &Option<String>) -> Option<f64> {
    r.as_deref().and_then(|r| r.parse().ok())
}

/// The measures compared across `inputs`.
fn differences(inputs: &[InputReport]) -> Vec<Difference> {
    let mut rows = Vec::new();
    let mut add = |measure: &str, unit: &'static str, f: &dyn Fn(&InputReport) -> Option<f64>| {
        let values: Vec<Option<f64>> = inputs.iter().map(f).collect();
        if values.iter().any(Option::is_some) {
            rows.push(Difference {
                measure: measure.to_string(),
                unit,
                values,
            });
        }
    };
    add("records", "count", &|i| Some(i.records as f64));
    add("failed records", "percent", &|i| {
        share(i.failures, i.records)
    });
    add("mean clues", "count", &|i| {
        let (n, sum) = i
            .clues
            .iter()
            .fold((0, 0), |(n, s), &(c, k)| (n + k, s + c as u64 * k));
        (n > 0).then(|| sum as f64 / n as f64)
    });
    let solving = |f: fn(&input::Solving) -> Option<f64>| {
        move |i: &InputReport| i.solving.as_ref().and_then(f)
    };
    add(
        "solved without a guess",
        "percent",
        &solving(|s| share(s.guesses.zeros, s.guesses.percentiles.count)),
    );
    add(
        "guesses, mean",
        "count",
        &solving(|s| s.guesses.percentiles.mean),
    );
    add(
        "guesses, p50",
        "count",
        &solving(|s| s.guesses.percentiles.p50.map(|v| v as f64)),
    );
    add(
        "guesses, p90",
        "count",
        &solving(|s| s.guesses.percentiles.p90.map(|v| v as f64)),
    );
    add(
        "guesses, p99",
        "count",
        &solving(|s| s.guesses.percentiles.p99.map(|v| v as f64)),
    );
    add(
        "guesses, max",
        "count",
        &solving(|s| s.guesses.percentiles.max.map(|v| v as f64)),
    );
    add("time, mean", "ns", &solving(|s| s.time_ns.percentiles.mean));
    add(
        "time, p50",
        "ns",
        &solving(|s| s.time_ns.percentiles.p50.map(|v| v as f64)),
    );
    add(
        "time, p90",
        "ns",
        &solving(|s| s.time_ns.percentiles.p90.map(|v| v as f64)),
    );
    add(
        "time, p99",
        "ns",
        &solving(|s| s.time_ns.percentiles.p99.map(|v| v as f64)),
    );
    add(
        "time, max",
        "ns",
        &solving(|s| s.time_ns.percentiles.max.map(|v| v as f64)),
    );
    let grading = |f: fn(&input::Grading) -> Option<f64>| {
        move |i: &InputReport| i.grading.as_ref().and_then(f)
    };
    add("rated", "count", &grading(|g| Some(g.rated as f64)));
    add(
        "stopped at a band",
        "count",
        &grading(|g| (!g.by_band.is_empty()).then_some(g.stopped as f64)),
    );
    add("ER, mean", "rating", &grading(|g| g.er.mean));
    add("ER, p50", "rating", &grading(|g| rating(&g.er.p50)));
    add("ER, p90", "rating", &grading(|g| rating(&g.er.p90)));
    add("ER, p99", "rating", &grading(|g| rating(&g.er.p99)));
    add("ER, max", "rating", &grading(|g| rating(&g.er.max)));
    add("EP, p50", "rating", &grading(|g| rating(&g.ep.p50)));
    add("ED, p50", "rating", &grading(|g| rating(&g.ed.p50)));
    add(
        "rated 7.0 or more",
        "percent",
        &grading(|g| {
            let hard: u64 = g.er_bands.iter().skip(6).sum();
            (g.rated > 0).then(|| 100.0 * hard as f64 / g.rated as f64)
        }),
    );
    rows
}

/// Writes the report of `config.inputs` to `config.output` (and the JSON to `config.json`).
///
/// The outputs are opened the one guarded way the pipeline opens its outputs: none may be one
/// of the inputs, the page and the JSON may not be one file, and another run writing them
/// stops this one; a check that fails leaves every file as it was. The inputs are then read
/// whole, and only when every one of them is a readable results file are the outputs written.
pub fn run(config: &ReportConfig) -> Result<Report, RunError> {
    let sources: Vec<Source> = config.inputs.iter().cloned().map(Source::Path).collect();
    let plan = Plan {
        reads: sources
            .iter()
            .map(|source| Read {
                source,
                what: "one of the RESULTS",
            })
            .collect(),
        results: config.output.clone(),
        solutions: config.json.clone().map(Output::Path),
        record: false,
    };
    let mut outputs = Outputs::open(&plan).map_err(|e| match e {
        // The guard calls the second output as `solve` calls it.
        RunError::SameFile { path, what } => RunError::SameFile {
            path,
            what: what
                .replace(
                    "the --emit-solutions file is the output",
                    "the --json file is the page's file",
                )
                .replace("the --emit-solutions file", "the --json file"),
        },
        e => e,
    })?;
    let report = Report::read(&config.inputs, config.limits)?;
    let write = |opened: &mut crate::pipeline::output::Opened, text: String| {
        let mut out = opened.start(0)?;
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(write_err(&opened.name))
    };
    write(&mut outputs.results, report.html())?;
    if let Some(json) = &mut outputs.solutions {
        write(json, report.json() + "\n")?;
    }
    Ok(report)
}
