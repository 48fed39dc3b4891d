//! Where a run's rows go: stdout or a file, and the checks that keep a run from writing over
//! its own input.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

use super::read::Source;
use super::{Config, RunError};

/// Where results go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Standard output.
    Stdout,
    /// A file, created or replaced.
    Path(PathBuf),
}

impl Output {
    /// `-` or nothing is stdout, anything else a path.
    pub fn from_arg(arg: Option<&Path>) -> Output {
        match arg {
            None => Output::Stdout,
            Some(p) if p.as_os_str() == "-" => Output::Stdout,
            Some(p) => Output::Path(p.to_path_buf()),
        }
    }

    /// The name shown in messages.
    pub fn display_name(&self) -> String {
        match self {
            Output::Stdout => "<stdout>".to_string(),
            Output::Path(p) => p.display().to_string(),
        }
    }

    /// Opens the output for writing, unbuffered (the CSV writer buffers): stdout, or a file
    /// created or emptied.
    pub fn create(&self) -> Result<Box<dyn Write + Send>, RunError> {
        Ok(match self {
            Output::Stdout => Box::new(io::stdout()),
            Output::Path(p) => Box::new(File::create(p).map_err(write_err(&self.display_name()))?),
        })
    }
}

/// Turns an error writing `path` into a [`RunError`] ([`RunError::is_broken_pipe`] later tells
/// a closed pipe, a quiet exit, from a real error).
pub fn write_err(path: &str) -> impl FnOnce(io::Error) -> RunError + '_ {
    move |e| RunError::Write {
        path: path.to_string(),
        source: e,
    }
}

/// Opens the file at `path` for writing, cuts it to `len` bytes and moves to its end
/// (`--resume`).
pub(crate) fn cut_for_append(path: &Path, len: u64) -> io::Result<File> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.set_len(len)?;
    file.seek(io::SeekFrom::End(0))?;
    Ok(file)
}

/// Refuses a run whose output or `--emit-solutions` file is its input, or whose two outputs are
/// one file: emptying the output would destroy the puzzles before they are read, and two
/// writers would interleave.
pub(crate) fn check_distinct(config: &Config) -> Result<(), RunError> {
    let input = match &config.source {
        Source::Path(p) => Some(p.as_path()),
        Source::Stdin => None,
    };
    let output = match &config.output {
        Output::Path(p) => Some(p.as_path()),
        Output::Stdout => None,
    };
    let solutions = config.emit_solutions.as_deref();
    let pairs = [
        (input, output, "the output is the input"),
        (input, solutions, "the --emit-solutions file is the input"),
        (output, solutions, "the --emit-solutions file is the output"),
    ];
    for (a, b, what) in pairs {
        if let (Some(a), Some(b)) = (a, b) {
            if same_file(a, b) {
                return Err(RunError::SameFile {
                    path: b.display().to_string(),
                    what,
                });
            }
        }
    }
    Ok(())
}

/// Whether `a` and `b` name one regular file: the same device and inode on Unix (whatever the
/// spelling of the paths), the same canonical path elsewhere; or, for a file that does not
/// exist yet, the same path. Devices such as `/dev/null` may serve twice.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => {
            if !(x.is_file() && y.is_file()) {
                return false;
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                x.dev() == y.dev() && x.ino() == y.ino()
            }
            #[cfg(not(unix))]
            {
                matches!((a.canonicalize(), b.canonicalize()), (Ok(p), Ok(q)) if p == q)
            }
        }
        (Err(_), Err(_)) => a == b,
        _ => false,
    }
}
