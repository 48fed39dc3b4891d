//! The `sudoku-batch` binary: parse the arguments, run the command, exit with its code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    sudoku_batch::cmd::run(sudoku_batch::cli::Cli::parse())
}
