//! [`RunError`]: what stops a run (an input that cannot be read, an output that cannot be
//! written, options that do not fit, another run on the same file), in words a user can act on.

use std::io;

use super::read::ReadError;

/// An error that stops a run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The input could not be read or does not fit the options.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// An output could not be written.
    #[error("{path}: {source}")]
    Write {
        /// The output's name.
        path: String,
        /// The OS error.
        source: io::Error,
    },
    /// The threads could not be started, or one of them failed.
    #[error("cannot run the worker threads: {0}")]
    Threads(String),
    /// The output to resume does not fit the input or the command.
    #[error("{path}: cannot resume: {message}")]
    Resume {
        /// The output's name.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// An option does not fit the output (a format it cannot be written in).
    #[error("{path}: {message}")]
    Usage {
        /// The output's name.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Another process holds the lock on an output: another run is writing it.
    #[error("{path}: another run is writing this file{}; wait for it to end or choose another file", .holder.map(|p| format!(" (process {p})")).unwrap_or_default())]
    Locked {
        /// The output's name.
        path: String,
        /// The process that holds the lock, when known.
        holder: Option<u32>,
    },
    /// Two of the run's files are one: writing would destroy what is read, or two outputs
    /// would overwrite each other.
    #[error("{path}: {what}; choose another file")]
    SameFile {
        /// The file's name.
        path: String,
        /// Which two roles it plays.
        what: String,
    },
}

impl RunError {
    /// True when the output is a pipe whose reader has gone (`| head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}
