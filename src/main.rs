//! The `sudoku-batch` binary: parse the arguments, run the command, exit with its code.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run(clap::Parser::parse()).into()
}
