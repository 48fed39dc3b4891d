//! `sudoku-batch merge`: the CSV outputs of the parts of a run (`--shard K/N`) joined into the
//! output of the whole, after checking that they fit together: the same header, lines that
//! keep increasing from one part to the next (with several inputs, per input, the inputs in
//! order), and the same options, as the records beside the parts (`PART.resume.json`) say.
//! With `--input`, every record of each input must have its row, with its puzzle. The output
//! is opened as every command's is ([`Outputs::open`]): it may be no part and no input, and
//! another run writing it stops this one. Nothing is written when a check fails.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;

use sudoku_batch::pipeline::output::{Outputs, Plan, Read as Reads};
use sudoku_batch::pipeline::read::{ReadOptions, Reader, RecordInput, Source, inputs};
use sudoku_batch::pipeline::resume::RunOptions;
use sudoku_batch::pipeline::write::Encoding;
use sudoku_batch::pipeline::{Output, RunError};

use super::Exit;
use super::args::MergeArgs;

/// The `line` and `puzzle` of the rows of one input, in order.
type Rows = Vec<(u64, String)>;

/// Runs `merge`.
pub fn run(args: MergeArgs) -> Result<Exit, RunError> {
    let output = Output::from_arg(Some(&args.output));
    let usage = |path: &Path, message: String| RunError::Usage {
        path: path.display().to_string(),
        message,
    };
    if !output.is_stream() {
        let encoding =
            Encoding::of(Some(&args.output), None).map_err(|m| usage(&args.output, m))?;
        if encoding != Encoding::default() {
            return Err(usage(
                &args.output,
                format!(
                    "merge writes plain CSV (the parts' rows as they are), and this name says {}; \
                     name the output .csv, or convert the merged CSV afterwards",
                    encoding.describe()
                ),
            ));
        }
    }
    for part in &args.parts {
        let name = part.to_string_lossy().to_ascii_lowercase();
        if [".jsonl", ".ndjson", ".parquet", ".gz", ".zst", ".xz"]
            .iter()
            .any(|s| name.ends_with(s))
        {
            return Err(usage(part, "merge reads CSV outputs only".into()));
        }
    }
    let sources = if args.input.is_empty() {
        Vec::new()
    } else {
        inputs::expand(&args.input, args.glob.as_deref(), &mut super::warn)?
    };
    let parts: Vec<Source> = args.parts.iter().cloned().map(Source::Path).collect();
    let reads = parts.iter().map(|source| Reads {
        source,
        what: "one of the parts",
    });
    let plan = Plan {
        reads: reads
            .chain(sources.iter().map(|source| Reads {
                source,
                what: "an --input file",
            }))
            .collect(),
        results: output.clone(),
        solutions: None,
        record: true,
    };
    let mut outputs = Outputs::open(&plan)?;
    // The lines in order, checked part by part, with the byte where each part's rows start.
    let mut header: Option<csv::StringRecord> = None;
    let mut last: Option<(String, u64)> = None;
    // The rows' lines and puzzles, input by input in the order met (one input, named "",
    // without a `file` column).
    let mut by_input: Vec<(String, Rows)> = Vec::new();
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
        let puzzle_at = this.iter().position(|f| f == "puzzle");
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
            // The puzzles are kept only to be compared with the inputs.
            let puzzle = match puzzle_at.and_then(|i| row.get(i)) {
                Some(puzzle) if !sources.is_empty() => puzzle.to_string(),
                _ => String::new(),
            };
            match by_input.last_mut() {
                Some((name, lines)) if *name == input => lines.push((line, puzzle)),
                _ => by_input.push((input.clone(), vec![(line, puzzle)])),
            }
            last = Some((input, line));
        }
    }
    let options = same_options(&args.parts)?;
    if !sources.is_empty() {
        let has_puzzle = header
            .as_ref()
            .is_some_and(|h| h.iter().any(|f| f == "puzzle"));
        let options = args.read.options();
        for (source, lines) in rows_of_inputs(&sources, by_input)? {
            check_input(&source, &lines, has_puzzle, &options)?;
        }
    }
    // Every check passed: the record of the options of the whole, then the first header and
    // each part's rows as they are.
    if let Some(record) = &outputs.record {
        let _ = std::fs::remove_file(record);
        if let Some(mut whole) = options {
            whole.shard = None;
            let _ = whole.write_to(record);
        }
    }
    let name = output.display_name();
    let err = sudoku_batch::pipeline::output::write_err(&name);
    let mut out = io::BufWriter::new(outputs.results.start(0)?);
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
    by_input: Vec<(String, Rows)>,
) -> Result<Vec<(Source, Rows)>, RunError> {
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
    let mut lines: Vec<Rows> = vec![Vec::new(); sources.len()];
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

/// Checks that every record of `source` has a row, given the lines and puzzles of its rows
/// in order; the puzzles too when `puzzles` (the parts have a `puzzle` column).
fn check_input(
    source: &Source,
    rows: &[(u64, String)],
    puzzles: bool,
    options: &ReadOptions,
) -> Result<(), RunError> {
    let name = source.display_name();
    let usage = |message: String| RunError::Usage {
        path: name.clone(),
        message,
    };
    let reader = Reader::open(source, options)?;
    let mut rows = rows.iter();
    for record in reader {
        let record = record?;
        match rows.next() {
            Some((line, puzzle)) if *line == record.line => {
                let text = match &record.input {
                    RecordInput::Puzzle(g) => g.to_string(),
                    RecordInput::Invalid { text, .. } => text.clone(),
                };
                if puzzles && *puzzle != text {
                    return Err(usage(format!(
                        "the record at line {line} is {text}, but its row in the parts has \
                         puzzle {puzzle}: the parts were made from another input (or another \
                         version of it)"
                    )));
                }
            }
            Some((line, _)) => {
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
    if let Some((line, _)) = rows.next() {
        return Err(usage(format!(
            "has no record at line {line}, which a part has a row of"
        )));
    }
    Ok(())
}

/// The options the parts were made with, as the records beside them say
/// ([`RunOptions::path`]), when every part has one; refused when two differ in more than
/// their `--shard`, or when some parts have a record and others not. `None` when no part
/// has one (parts of `validate`, or of an older version): then nothing can be compared.
fn same_options(parts: &[std::path::PathBuf]) -> Result<Option<RunOptions>, RunError> {
    let mut first: Option<(&Path, RunOptions)> = None;
    let mut without: Option<&Path> = None;
    for part in parts {
        let recorded = RunOptions::recorded(part).map_err(|e| RunError::Usage {
            path: part.display().to_string(),
            message: e.to_string(),
        })?;
        let Some(mut options) = recorded else {
            without.get_or_insert(part);
            continue;
        };
        if let Some(missing) = without {
            return Err(unknown(missing, part));
        }
        match &first {
            None => first = Some((part, options)),
            Some((first_part, was)) => {
                options.shard.clone_from(&was.shard);
                if let Some(difference) = was.compare(
                    &options,
                    &format!("{} was made with", first_part.display()),
                    "this part with",
                ) {
                    return Err(RunError::Usage {
                        path: part.display().to_string(),
                        message: format!(
                            "the parts were made with other options: {difference}; make every \
                             part with the same options"
                        ),
                    });
                }
            }
        }
    }
    match (first, without) {
        (Some((part, _)), Some(missing)) => Err(unknown(missing, part)),
        (first, _) => Ok(first.map(|(_, options)| options)),
    }
}

/// The error for a part whose options are not recorded, beside `known` whose are.
fn unknown(missing: &Path, known: &Path) -> RunError {
    RunError::Usage {
        path: missing.display().to_string(),
        message: format!(
            "the options this part was made with are unknown ({} is missing), while {} has \
             its record: they cannot be known to fit together",
            RunOptions::path(missing).display(),
            known.display()
        ),
    }
}
