//! The subcommands: each turns parsed arguments into a library call and an exit code.

mod bench;
mod explain;
mod generate;
mod solve;
mod validate;

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cli::{Cli, Command};

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

/// Runs the command `cli` asks for and returns the process exit code. Errors are printed once on
/// stderr as `sudoku-batch: error: ...`; a closed stdout ends the run quietly.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Validate(args) => validate::run(args),
    };
    match result {
        Ok(exit) => exit.into(),
        Err(e) if e.is_broken_pipe() => Exit::Ok.into(),
        Err(e) => {
            eprintln!("sudoku-batch: error: {e}");
            Exit::Error.into()
        }
    }
}

/// Installs the Ctrl-C / SIGTERM handler and returns the flag it sets. The first signal asks the
/// pipeline to stop at the next batch boundary (rows already solved are written and flushed);
/// a second one exits at once with code 130, possibly leaving a partial last row that
/// `--resume` redoes. `None` when a handler cannot be installed (one already is).
pub fn stop_on_signal() -> Option<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(Exit::Interrupted as i32);
        }
    })
    .ok()?;
    Some(stop)
}

/// Prints the end-of-run summary on stderr.
fn print_summary(summary: &crate::pipeline::Summary) {
    let mut err = std::io::stderr().lock();
    let _ = crate::progress::write_summary(&mut err, summary);
}
