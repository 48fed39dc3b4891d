//! `sudoku-batch merge`: the CSV outputs of the parts of a run (`--shard K/N`) joined into the
//! output of the whole, after checking that they fit together: the same header, and lines
//! that keep increasing from one part to the next (with several inputs, per input, the inputs
//! in order). With `--input`, every record of the input must have its row. Nothing is written
//! when a check fails.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

use sudoku_batch::pipeline::read::{Reader, Source};
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
    let mut seen_files: Vec<String> = Vec::new();
    let mut lines = Vec::new();
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
            match &last {
                Some((was, _)) if *was != input && seen_files.contains(&input) => {
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
            if !seen_files.contains(&input) {
                seen_files.push(input.clone());
            }
            last = Some((input, line));
            lines.push(line);
        }
    }
    if let Some(input) = &args.input {
        if seen_files.len() > 1 || seen_files.first().is_some_and(|f| !f.is_empty()) {
            return Err(usage(
                input,
                "--input checks the parts of a run with one input".into(),
            ));
        }
        let options = args.read.options();
        let reader = Reader::open(&Source::from_arg(Some(input)), &options)?;
        let mut rows = lines.iter();
        for record in reader {
            let record = record?;
            match rows.next() {
                Some(&line) if line == record.line => {}
                Some(&line) => {
                    return Err(usage(
                        input,
                        format!(
                            "the record at line {} has no row (the next row is of line {line}): a part is missing",
                            record.line
                        ),
                    ));
                }
                None => {
                    return Err(usage(
                        input,
                        format!(
                            "the record at line {} and those after it have no row: a part is missing",
                            record.line
                        ),
                    ));
                }
            }
        }
        if let Some(line) = rows.next() {
            return Err(usage(
                input,
                format!("has no record at line {line}, which a part has a row of"),
            ));
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

/// True when `a` and `b` name one file (both exist and have the same identity).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
