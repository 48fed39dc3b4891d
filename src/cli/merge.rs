//! `sudoku-batch merge`: the CSV outputs of the parts of a run (`--shard K/N`) joined into the
//! output of the whole, after checking that they fit together: the same header, and lines
//! that keep increasing from one part to the next (with several inputs, per input, the inputs
//! in order). With `--input`, every record of each input must have its row. Nothing is
//! written when a check fails.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

use sudoku_batch::pipeline::read::{ReadOptions, Reader, Source, inputs};
use sudoku_batch::pipeline::{Output, RunError};

use super::Exit;
use super::args::MergeArgs;

/// Runs `merge`.
pub fn run(args: MergeArgs) -> Result<Exit, RunError> {
    let output = Output::from_arg(Some(&args.output));
    let usage = |path: &Path, message: String| RunError::Usage {
        path: path.display().to_string(),
        message,
    };
    for part in &args.parts {
        let name = part.to_string_lossy().to_ascii_lowercase();
        if [".jsonl", ".ndjson", ".parquet", ".gz", ".zst", ".xz"]
            .iter()
            .any(|s| name.ends_with(s))
        {
            return Err(usage(part, "merge reads CSV outputs only".into()));
        }
        if same_file(part, &args.output) {
            return Err(usage(part, "is both a part and the output".into()));
        }
    }
    // The lines in order, checked part by part, with the byte where each part's rows start.
    let mut header: Option<csv::StringRecord> = None;
    let mut last: Option<(String, u64)> = None;
    // The rows' lines, input by input in the order met (one input, named "", without a `file`
    // column).
    let mut by_input: Vec<(String, Vec<u64>)> = Vec::new();
    let mut starts = Vec::new();
    for part in &args.parts {
        let file = File::open(part).map_err(|e| usage(part, e.to_string()))?;
        let mut reader = csv::Reader::from_reader(BufReader::new(file));
        let this = reader
            .headers()
            .map_err(|e| usage(part, e.to_string()))?
            .clone();
        starts.push(reader.position().byte());
        match &header {
            None if this.is_empty() => return Err(usage(part, "has no header".into())),
            None => header = Some(this.clone()),
            Some(first) if *first != this => {
                return Err(usage(
                    part,
                    format!(
                        "its header `{}` is not the first part's `{}`",
                        this.iter().collect::<Vec<_>>().join(","),
                        first.iter().collect::<Vec<_>>().join(",")
                    ),
                ));
            }
            Some(_) => {}
        }
        let line_at = this.iter().position(|f| f == "line").ok_or_else(|| {
            usage(
                part,
                "has no `line` column: it is no output of solve, validate or grade".into(),
            )
        })?;
        let file_at = this.iter().position(|f| f == "file");
        for row in reader.records() {
            let row = row.map_err(|e| usage(part, e.to_string()))?;
            let at = row.position().map_or(0, |p| p.line());
            let line: u64 = row
                .get(line_at)
                .and_then(|l| l.parse().ok())
                .ok_or_else(|| usage(part, format!("line {at}: no line number")))?;
            let input = file_at.and_then(|i| row.get(i)).unwrap_or("").to_string();
            let seen = |name: &str| by_input.iter().any(|(n, _)| n == name);
            match &last {
                Some((was, _)) if *was != input && seen(&input) => {
                    return Err(usage(
                        part,
                        format!(
                            "line {at}: rows of input {input} after those of {was}: the parts overlap or are out of order"
                        ),
                    ));
                }
                Some((was, before)) if *was == input && line <= *before => {
                    return Err(usage(
                        part,
                        format!(
                            "line {at}: input line {line} comes after line {before}: the parts overlap or are out of order"
                        ),
                    ));
                }
                _ => {}
            }
            match by_input.last_mut() {
                Some((name, lines)) if *name == input => lines.push(line),
                _ => by_input.push((input.clone(), vec![line])),
            }
            last = Some((input, line));
        }
    }
    if !args.input.is_empty() {
        let sources = inputs::expand(&args.input, args.glob.as_deref(), &mut super::warn)?;
        let options = args.read.options();
        for (source, lines) in rows_of_inputs(&sources, by_input)? {
            check_input(&source, &lines, &options)?;
        }
    }
    // Every check passed: the first header, then each part's rows as they are.
    let name = output.display_name();
    let err = sudoku_batch::pipeline::output::write_err(&name);
    let mut out = io::BufWriter::new(output.create()?);
    let copy = |out: &mut dyn Write| -> io::Result<()> {
        for (i, (part, &start)) in args.parts.iter().zip(&starts).enumerate() {
            let mut bytes = Vec::new();
            File::open(part)?.read_to_end(&mut bytes)?;
            let from = if i == 0 { 0 } else { start as usize };
            let body = &bytes[from.min(bytes.len())..];
            out.write_all(body)?;
            if !body.is_empty() && !body.ends_with(b"\n") {
                out.write_all(b"\n")?;
            }
        }
        out.flush()
    };
    copy(&mut out).map_err(err)?;
    Ok(Exit::Ok)
}

/// The lines of the rows of each of `sources`, from the rows' lines `by_input` (input by
/// input, named by their `file` column, "" for a run of one input); a usage error when the
/// rows and the inputs do not fit: rows of an input not given, inputs out of order.
fn rows_of_inputs(
    sources: &[Source],
    by_input: Vec<(String, Vec<u64>)>,
) -> Result<Vec<(Source, Vec<u64>)>, RunError> {
    let names: Vec<String> = sources.iter().map(Source::display_name).collect();
    let usage = |message: String| RunError::Usage {
        path: "--input".into(),
        message,
    };
    let many = by_input.iter().any(|(name, _)| !name.is_empty());
    if let [source] = sources {
        if many {
            return Err(usage(
                "the parts come from a run of several inputs (their rows have a `file` column): \
                 give each with --input"
                    .into(),
            ));
        }
        let lines = by_input.into_iter().flat_map(|(_, lines)| lines).collect();
        return Ok(vec![(source.clone(), lines)]);
    }
    if !by_input.is_empty() && !many {
        return Err(usage(
            "the parts come from a run of one input (their rows have no `file` column): give \
             only that one with --input"
                .into(),
        ));
    }
    let mut lines: Vec<Vec<u64>> = vec![Vec::new(); sources.len()];
    let mut after = None;
    for (name, rows) in by_input {
        let Some(i) = names.iter().position(|n| *n == name) else {
            return Err(usage(format!(
                "the parts have rows of input {name}, which --input does not name"
            )));
        };
        if let Some(before) = after.filter(|&before| before > i) {
            return Err(usage(format!(
                "the rows of input {name} come after those of {}, which --input names later: \
                 the parts are out of order",
                names[before]
            )));
        }
        after = Some(i);
        lines[i] = rows;
    }
    Ok(sources.iter().cloned().zip(lines).collect())
}

/// Checks that every record of `source` has a row, given the lines of its rows in order.
fn check_input(source: &Source, lines: &[u64], options: &ReadOptions) -> Result<(), RunError> {
    let name = source.display_name();
    let usage = |message: String| RunError::Usage {
        path: name.clone(),
        message,
    };
    let reader = Reader::open(source, options)?;
    let mut rows = lines.iter();
    for record in reader {
        let record = record?;
        match rows.next() {
            Some(&line) if line == record.line => {}
            Some(&line) => {
                return Err(usage(format!(
                    "the record at line {} has no row (the next row is of line {line}): a part is missing",
                    record.line
                )));
            }
            None => {
                return Err(usage(format!(
                    "the record at line {} and those after it have no row: a part is missing",
                    record.line
                )));
            }
        }
    }
    if let Some(line) = rows.next() {
        return Err(usage(format!(
            "has no record at line {line}, which a part has a row of"
        )));
    }
    Ok(())
}

/// True when `a` and `b` name one file (both exist and have the same identity).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
