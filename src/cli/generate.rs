//! `sudoku-batch generate`: minimal puzzles with exactly one solution (or complete grids),
//! reproducible per seed, written chunk by chunk in order with a progress bar and a summary.
//! Ctrl-C / SIGTERM stop it between puzzles: the lines written are a prefix of the full output,
//! each one whole.

use std::collections::VecDeque;
use std::io::{BufWriter, Write};
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use rayon::prelude::*;

use super::progress::{self, Bar};
use super::{Exit, stop_on_signal, to_stderr};
use crate::cli::args::GenerateArgs;
use sudoku_batch::generate::around::{self, Neighbours, Offered};
use sudoku_batch::generate::{
    MIN_UNIQUE_CLUES, Spec, puzzle, puzzle_rng, random_solution, rated_around, rated_puzzle,
};
use sudoku_batch::grid::{CELLS, Grid};
use sudoku_batch::logic::{Budget, Grader};
use sudoku_batch::pipeline::grade::{GradeOptions, tenths};
use sudoku_batch::pipeline::output::{Opened, Outputs, Plan, Read, write_err};
use sudoku_batch::pipeline::read::Source;
use sudoku_batch::pipeline::{Output, Progress, RunError, thread_pool};
use sudoku_batch::solver::{Stop, Strategy};

/// The puzzle spec the arguments ask for, or why it cannot be met.
fn spec(args: &GenerateArgs) -> Result<Spec, String> {
    let spec = Spec {
        symmetry: args.symmetry,
        min_clues: args.min_clues.unwrap_or(0),
        max_clues: args.max_clues.unwrap_or(CELLS),
        attempts: if args.min_clues.is_some() || args.max_clues.is_some() || args.er.any() {
            args.attempts
        } else {
            1
        },
    };
    if spec.max_clues < MIN_UNIQUE_CLUES {
        return Err(format!(
            "--max-clues {}: no puzzle with fewer than {MIN_UNIQUE_CLUES} clues has exactly one \
             solution",
            spec.max_clues
        ));
    }
    if spec.min_clues > spec.max_clues.min(CELLS) {
        return Err(format!(
            "--min-clues {} is more than --max-clues {}",
            spec.min_clues,
            spec.max_clues.min(CELLS)
        ));
    }
    if let (Some(min), Some(max)) = (args.er.min_er, args.er.max_er)
        && min > max
    {
        return Err(format!(
            "--min-er {} is more than --max-er {}",
            tenths(min),
            tenths(max)
        ));
    }
    Ok(spec)
}

/// Puzzles made in the first parallel chunk; output is written chunk by chunk, in order.
const CHUNK: u64 = 256;

/// The most puzzles made per parallel chunk: chunks grow up to this while each takes less
/// than [`QUICK_CHUNK`], quick puzzles being made in fewer, larger chunks.
const MAX_CHUNK: u64 = 4096;

/// A chunk made in less time than this is followed by one twice as large (up to
/// [`MAX_CHUNK`]); one that takes longer, by one half as large (down to [`CHUNK`]): output and
/// progress come at least about this often.
const QUICK_CHUNK: std::time::Duration = std::time::Duration::from_millis(100);

/// The seed puzzles of `--around FILE`: one a line, blank lines and `#` lines skipped, each
/// with exactly one solution; anything else stops the run with the line and the reason.
fn seeds(path: &std::path::Path) -> Result<Vec<Grid>, RunError> {
    let usage = |message: String| RunError::Usage {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| usage(e.to_string()))?;
    let mut solver = Strategy::default().solver();
    let mut seeds = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: String| usage(format!("line {}: {what}", n + 1));
        let grid: Grid = line.parse().map_err(|e| at(format!("not a puzzle: {e}")))?;
        if let Some(problem) = around::seed_problem(&grid, &mut *solver) {
            return Err(at(problem.into()));
        }
        seeds.push(grid);
    }
    if seeds.is_empty() {
        return Err(usage("holds no puzzle to search around".into()));
    }
    Ok(seeds)
}

/// What a worker made for one puzzle index.
enum Made {
    /// The puzzle (or grid).
    Puzzle(Grid),
    /// No draw met the clue bounds within the attempts.
    NoFit,
    /// A stop was asked for before this index was started.
    Stopped,
}

/// Runs `generate`.
pub fn run(args: GenerateArgs) -> Result<Exit, RunError> {
    let spec = match spec(&args) {
        Ok(spec) => spec,
        Err(message) => {
            eprintln!("sudoku-batch: error: {message}");
            return Ok(Exit::Error);
        }
    };
    let seed = args.seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("sudoku-batch: seed {s}");
        s
    });
    let shard = super::shard::ShardArgs {
        shard: args.shard,
        shards: args.shards,
    }
    .shard()?;
    // This process makes the puzzles of these indices: all of them, or its shard's part.
    let indices = shard.map_or(0..args.count, |s| s.range(args.count));
    let solved = args.solved;
    let output = Output::from_arg(args.output.output.as_deref());
    let name = output.display_name();
    refuse_other_formats(&output)?;
    let around = args.around.as_ref().map(|p| Source::Path(p.clone()));
    let seeds = args.around.as_deref().map(seeds).transpose()?;
    let plan = Plan {
        reads: around
            .iter()
            .map(|source| Read {
                source,
                what: "the --around file",
            })
            .collect(),
        results: output,
        solutions: None,
        record: false,
    };
    let mut out = Deferred {
        opened: Outputs::open(&plan)?.results,
        file: None,
    };
    let pool = thread_pool(super::threads(args.threads))?;
    let started = Instant::now();
    let bar = Bar::new(args.output.progress());
    // Ctrl-C / SIGTERM, as for `solve`: the first signal stops between puzzles, so that only
    // whole lines are written; the second exits at once.
    let stop = stop_on_signal(args.output.output.as_deref());
    let stopped = || stop.is_some_and(Stop::is_set);
    // The puzzles written. With --around an index may give a repeat, which is not written:
    // indices go on until the count is written.
    let wanted = indices.end - indices.start;
    let mut written = 0;
    let mut neighbours = seeds.as_deref().map(Neighbours::new);
    let make = Make {
        seed,
        solved,
        spec: &spec,
        band: args
            .er
            .any()
            .then(|| args.er.min_er.unwrap_or(0)..=args.er.max_er.unwrap_or(u16::MAX)),
        rating: args.rating.options(),
        stop,
        seeds: seeds.as_deref(),
        ended: AtomicBool::new(false),
    };
    // The next chunk is made while this one is written, so that the threads do not all wait
    // at each chunk's end for its slowest puzzle and for the writing. Not with --around, whose
    // indices go on only as far as the puzzles written need.
    let ahead = if seeds.is_some() { 1 } else { 2 };
    let ended = pool.in_place_scope(|scope| {
        // However this ends, the chunks still being made are not needed: their puzzles not
        // started are skipped, and when it ends early (an error), those started stop too.
        let mut end = EndGuard {
            ended: &make.ended,
            stop,
            early: true,
        };
        let mut chunk = CHUNK;
        // The chunks being made, in order: each one's first index and where it will come.
        let mut making = VecDeque::new();
        // The first index not yet handed to the pool.
        let mut queued = indices.start;
        let mut since = Instant::now();
        let ended = 'chunks: loop {
            while making.len() < ahead && written < wanted && !stopped() {
                let end = match seeds {
                    Some(_) => queued + (around::ROUND as u64).min(wanted - written),
                    None => (queued + chunk).min(indices.end),
                };
                if end <= queued {
                    break;
                }
                let (tx, rx) = mpsc::sync_channel(1);
                let make = &make;
                let pool = &pool;
                scope.spawn(move |_| {
                    // The receiver is gone only when the run ended early.
                    let _ = tx.send(make_chunk(pool, queued..end, make));
                });
                making.push_back((queued, rx));
                queued = end;
            }
            let Some((first, made)) = making.pop_front() else {
                break Ok(None);
            };
            let Ok(made) = made.recv() else {
                break Err(RunError::Threads("a generating thread panicked".into()));
            };
            chunk = if since.elapsed() < QUICK_CHUNK {
                (2 * chunk).min(MAX_CHUNK)
            } else {
                (chunk / 2).max(CHUNK)
            };
            since = Instant::now();
            for (i, made) in (first..).zip(made) {
                let puzzle = match made {
                    Made::Puzzle(puzzle) => puzzle,
                    // Indices after a stop may be made, but only the whole prefix is written.
                    Made::Stopped => break 'chunks Ok(None),
                    Made::NoFit => {
                        if let Some(file) = &mut out.file {
                            file.flush().map_err(write_err(&name))?;
                        }
                        bar.finish();
                        // With --around, puzzles are counted as written; else by index.
                        let n = if seeds.is_some() { written } else { i } + 1;
                        let why = no_fit(&args, &spec, seeds.is_some());
                        eprintln!("sudoku-batch: error: puzzle {n}: {why}");
                        break 'chunks Ok(Some(Exit::Error));
                    }
                };
                match neighbours.as_mut().map(|n| n.offer(puzzle)) {
                    None | Some(Offered::New) => {}
                    Some(Offered::Repeat) => continue,
                    Some(Offered::Spent) => {
                        out.get()?.flush().map_err(write_err(&name))?;
                        bar.finish();
                        eprintln!(
                            "sudoku-batch: error: after {written} new puzzles, the last {} \
                             neighbours found were all seeds or puzzles written before; add seeds \
                             or widen --min-er/--max-er",
                            around::REPEATS
                        );
                        break 'chunks Ok(Some(Exit::Error));
                    }
                }
                writeln!(out.get()?, "{puzzle}").map_err(write_err(&name))?;
                written += 1;
                if written == wanted {
                    break;
                }
            }
            out.get()?.flush().map_err(write_err(&name))?;
            bar.update(&Progress {
                records: written,
                bytes_read: written,
                bytes_total: Some(indices.end - indices.start),
                elapsed: started.elapsed(),
            });
        };
        end.early = !matches!(ended, Ok(None));
        ended
    });
    if let Some(exit) = ended? {
        return Ok(exit);
    }
    out.get()?.flush().map_err(write_err(&name))?;
    bar.finish();
    let interrupted = written < wanted;
    if args.output.summary() {
        let noun = if solved {
            ("grid", "grids")
        } else {
            ("puzzle", "puzzles")
        };
        let wall = started.elapsed();
        to_stderr(|out| progress::write_generated(out, written, noun, wall, interrupted));
    }
    Ok(if interrupted {
        Exit::Interrupted
    } else {
        Exit::Ok
    })
}

/// Why no puzzle was made: no draw (no neighbour, `around`) in the attempts fitted the bounds,
/// and which options would help.
fn no_fit(args: &GenerateArgs, spec: &Spec, around: bool) -> String {
    if around {
        return format!(
            "none of {} neighbours tried was rated in the band; widen --min-er/--max-er or \
             raise --attempts",
            spec.attempts
        );
    }
    let bounds = match (args.min_clues, args.max_clues) {
        (Some(min), Some(max)) => format!("{min} to {max}"),
        (Some(min), None) => format!("at least {min}"),
        (None, _) => format!("at most {}", spec.max_clues),
    };
    let er = |r: Option<u16>, or: &str| r.map_or(or.into(), tenths);
    let band = args.er.any().then(|| {
        format!(
            "an ER from {} to {}",
            er(args.er.min_er, "1.0"),
            er(args.er.max_er, "the top")
        )
    });
    let (wanted, options) = match (band, args.min_clues.or(args.max_clues)) {
        (None, _) => (format!("{bounds} clues"), "--min-clues/--max-clues"),
        (Some(band), None) => (band, "--min-er/--max-er"),
        (Some(band), Some(_)) => (
            format!("{bounds} clues and {band}"),
            "the clue or ER bounds",
        ),
    };
    format!(
        "no draw in {} attempts had {wanted}; widen {options} or raise --attempts",
        spec.attempts
    )
}

/// The output, emptied only once there is a line to write: a run that fails before (no draw
/// fits the bounds) leaves an existing file as it was.
struct Deferred {
    opened: Opened,
    file: Option<BufWriter<Box<dyn Write + Send>>>,
}

impl Deferred {
    /// The output, emptied the first time.
    fn get(&mut self) -> Result<&mut BufWriter<Box<dyn Write + Send>>, RunError> {
        if self.file.is_none() {
            self.file = Some(BufWriter::new(self.opened.start(0)?));
        }
        Ok(self.file.as_mut().expect("made above"))
    }
}

/// Refuses an output whose name says a format other than the plain lines `generate` writes
/// (a compressed stream, JSON lines, Parquet, CSV with a header).
fn refuse_other_formats(output: &Output) -> Result<(), RunError> {
    let Output::Path(path) = output else {
        return Ok(());
    };
    let name = path.to_string_lossy().to_ascii_lowercase();
    let other = [
        ".gz", ".zst", ".xz", ".bz2", ".jsonl", ".ndjson", ".json", ".parquet",
    ];
    match other.iter().find(|s| name.ends_with(*s)) {
        Some(suffix) if !output.is_stream() => Err(RunError::Usage {
            path: output.display_name(),
            message: format!(
                "generate writes plain text, one puzzle a line, not what the name's {suffix} \
                 says; name the file .txt (or pipe it: `generate ... | gzip > FILE.gz`)"
            ),
        }),
        _ => Ok(()),
    }
}

/// Ends the chunks still being made when the writing ends: sets `ended` when dropped, and
/// `stop` too (as Ctrl-C would) when `early`, so that a puzzle being rated stops at once.
struct EndGuard<'a> {
    ended: &'a AtomicBool,
    stop: Option<Stop>,
    early: bool,
}

impl Drop for EndGuard<'_> {
    fn drop(&mut self) {
        self.ended.store(true, Ordering::Relaxed);
        if let (true, Some(stop)) = (self.early, self.stop) {
            stop.set();
        }
    }
}

/// What every puzzle of a run is made to.
struct Make<'a> {
    seed: u64,
    solved: bool,
    spec: &'a Spec,
    /// The band of ER (tenths) puzzles must be rated in, if any.
    band: Option<RangeInclusive<u16>>,
    rating: GradeOptions,
    stop: Option<Stop>,
    /// The puzzles to search around (--around), if any.
    seeds: Option<&'a [Grid]>,
    /// Set when the run ends before the chunks being made are written: their puzzles not yet
    /// started are skipped as [`Made::Stopped`].
    ended: AtomicBool,
}

/// Makes the puzzles of `indices` in parallel, in order. Once `stop` is set, indices not yet
/// started are skipped as [`Made::Stopped`].
fn make_chunk(pool: &rayon::ThreadPool, indices: std::ops::Range<u64>, make: &Make) -> Vec<Made> {
    let stopped = || make.stop.is_some_and(Stop::is_set) || make.ended.load(Ordering::Relaxed);
    pool.install(|| {
        indices
            .into_par_iter()
            .map_init(
                // Minimising only asks about solutions, so any strategy gives the same puzzle.
                || {
                    let grader = make
                        .band
                        .is_some()
                        .then(|| Grader::with_ruleset(make.rating.ruleset));
                    (Strategy::default().solver(), grader)
                },
                |(counter, grader), i| {
                    if stopped() {
                        return Made::Stopped;
                    }
                    let mut rng = puzzle_rng(make.seed, i);
                    if make.solved {
                        return Made::Puzzle(random_solution(&mut rng));
                    }
                    let budget = || Budget {
                        deadline: make.rating.max_time.map(|t| Instant::now() + t),
                        stop: make.stop.map(Stop::flag),
                    };
                    let made = match (&make.band, grader) {
                        (Some(band), Some(grader)) if make.seeds.is_some() => rated_around(
                            &mut rng,
                            make.seeds.unwrap_or_default(),
                            band.clone(),
                            make.spec.attempts,
                            &mut **counter,
                            grader,
                            &budget,
                        ),
                        (Some(band), Some(grader)) => rated_puzzle(
                            &mut rng,
                            make.spec,
                            band.clone(),
                            &mut **counter,
                            grader,
                            &budget,
                        )
                        .map(|(p, _)| p),
                        _ => puzzle(&mut rng, make.spec, &mut **counter),
                    };
                    match made {
                        Some(p) => Made::Puzzle(p),
                        None if stopped() => Made::Stopped,
                        None => Made::NoFit,
                    }
                },
            )
            .collect()
    })
}
