//! The command line: the arguments ([`args`]), one module per subcommand, each turning parsed
//! arguments into a library call and an exit code, and what is shown on stderr ([`progress`]).

mod args;
mod augment;
mod bench;
mod canon;
mod explain;
mod generate;
mod grade;
mod merge;
mod progress;
#[cfg(feature = "report")]
mod report;
mod shard;
mod solve;
#[cfg(unix)]
mod stalled;
mod validate;

use std::process::ExitCode;
use std::sync::OnceLock;
use std::sync::atomic::Ordering;

use signal_hook::consts::{SIGINT, SIGTERM};
use sudoku_batch::Stop;

pub use args::Cli;
use args::Command;
use sudoku_batch::pipeline::max_threads;

/// How a command ended, as the exit codes documented in `--help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Every record was a puzzle (or, for `validate`, passed).
    Ok = 0,
    /// Some records were invalid (or failed validation).
    Failed = 1,
    /// Usage or I/O error.
    Error = 2,
    /// Interrupted by a signal.
    Interrupted = 130,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// Runs the command `cli` asks for and returns how it ended, the process exit code. Errors are
/// printed once on stderr as `sudoku-batch: error: ...`; a closed stdout ends the run quietly.
pub fn run(cli: Cli) -> Exit {
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Canon(args) => canon::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Augment(args) => augment::run(args),
        #[cfg(feature = "report")]
        Command::Report(args) => report::run(args),
    };
    match result {
        Ok(exit) => exit,
        Err(e) if e.is_broken_pipe() => Exit::Ok,
        Err(e) => {
            eprintln!("sudoku-batch: error: {e}");
            Exit::Error
        }
    }
}

/// Installs the Ctrl-C / SIGTERM / SIGHUP handler and returns the flag it sets. The first signal
/// stops the run: the searches in flight end within milliseconds, every row before them is
/// written and flushed, and the exit code is 130. A second signal exits at once with code 130,
/// possibly leaving a partial last row that `--resume` redoes. `None` when a handler cannot be
/// installed.
///
/// The handler runs inside the signal itself and only touches the flag (or exits). It is
/// installed once per process; each call clears the flag for the run that asks for it. On
/// Unix a thread also ends a run whose output is stuck (`stalled`): `output` is where the run
/// writes, `None` for stdout.
pub fn stop_on_signal(output: Option<&std::path::Path>) -> Option<Stop> {
    #[cfg(unix)]
    stalled::note_output(output);
    #[cfg(not(unix))]
    let _ = output;
    static STOP: OnceLock<Option<Stop>> = OnceLock::new();
    let stop = STOP.get_or_init(|| {
        let stop = Stop::new();
        let flag = stop.flag();
        #[cfg(unix)]
        let signals = [SIGINT, SIGTERM, signal_hook::consts::SIGHUP];
        #[cfg(not(unix))]
        let signals = [SIGINT, SIGTERM];
        for signal in signals {
            let handler = move || {
                if flag.swap(true, Ordering::SeqCst) {
                    signal_hook::low_level::exit(Exit::Interrupted as i32);
                }
            };
            // SAFETY: the handler only swaps an atomic flag and, on the second signal, calls
            // `_exit`; both are async-signal-safe.
            unsafe { signal_hook::low_level::register(signal, handler) }.ok()?;
        }
        #[cfg(unix)]
        stalled::watch(&signals);
        Some(stop)
    });
    let stop = (*stop)?;
    stop.clear();
    Some(stop)
}

/// Prints `message` on stderr as a warning: something the run goes on without.
fn warn(message: String) {
    eprintln!("sudoku-batch: warning: {message}");
}

/// The worker threads to start for `-j requested`: at most [`max_threads`], with a warning
/// when more were asked for.
fn threads(requested: usize) -> usize {
    let max = max_threads();
    if requested > max {
        eprintln!(
            "sudoku-batch: warning: -j {requested} is more than 4 threads per CPU; using {max}"
        );
        return max;
    }
    requested
}

/// Prints the end-of-run summary on stderr.
/// Runs the pipeline on `config` with a progress bar (when `progress`), after a hint when the
/// input is a terminal: the common part of `solve` and `grade`.
fn run_with_bar(
    config: &sudoku_batch::pipeline::Config,
    progress: bool,
) -> Result<sudoku_batch::pipeline::Summary, sudoku_batch::pipeline::RunError> {
    hint_if_reading_a_terminal(&config.inputs);
    let bar = progress::Bar::new(progress);
    let summary = sudoku_batch::pipeline::run(config, &mut |p| bar.update(p));
    bar.finish();
    summary
}

fn print_summary(summary: &sudoku_batch::pipeline::Summary) {
    to_stderr(|out| progress::write_summary(out, summary));
}

/// After an interrupted run into `output`: the command that finishes it, when it can be
/// resumed (the run left the record of its options beside it). Shown even with `-qq`, as an
/// error would be: it says what to do next.
fn hint_resume(summary: &sudoku_batch::pipeline::Summary, output: Option<&std::path::Path>) {
    let Some(output) = output.filter(|_| summary.interrupted) else {
        return;
    };
    let sidecar = sudoku_batch::pipeline::resume::RunOptions::path(output);
    if sidecar.is_file() {
        to_stderr(|out| progress::write_resume_hint(out, output, &sidecar));
    }
}

/// Writes what `write` produces to stderr in one piece, so that another process writing to the
/// same terminal or log cannot cut into it. Errors are ignored: a summary that cannot be shown
/// must not fail a run whose results are written.
fn to_stderr(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) {
    use std::io::Write;
    let mut text = Vec::with_capacity(256);
    if write(&mut text).is_ok() {
        let _ = std::io::stderr().lock().write_all(&text);
    }
}

/// Tells someone at a terminal that a command with no INPUT is waiting for puzzles typed on
/// standard input, which would otherwise look like a hang. Only when both stdin and stderr are
/// terminals: piped input, and logs, see nothing.
fn hint_if_reading_a_terminal(inputs: &[sudoku_batch::pipeline::read::Source]) {
    use std::io::IsTerminal;
    if inputs.contains(&sudoku_batch::pipeline::read::Source::Stdin)
        && std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal()
    {
        eprintln!(
            "sudoku-batch: reading puzzles from the terminal, one per line; end with Ctrl-D \
             (or give an INPUT file)"
        );
    }
}
