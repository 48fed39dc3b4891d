//! Where a command's output goes, and the one way every command opens it: the checks that
//! keep a run from destroying data.
//!
//! Every command that writes a file (`solve`, `validate`, `grade`, `generate`, `merge`, the
//! `--emit-solutions` file and the record of a run's options beside its output) opens it with
//! [`Outputs::open`], given a [`Plan`] of what the command reads and writes. Before anything is
//! created or emptied it makes sure that no output is a file the command reads (an input, a
//! part of `merge`, an `--input` file) and that no two outputs are one file, by every route:
//! paths, symbolic and hard links, `/dev/fd/N`, and stdin or stdout redirected to a file
//! (compared by device and inode, not by name); it opens every file read, so that one that
//! cannot be read stops the command before an output is touched. It then opens the output
//! files without emptying them and takes an exclusive advisory lock on each, so that a second
//! run writing the same file stops at once. The caller empties a file ([`Opened::start`]) only
//! when it has something to write (or, for `--resume`, cuts it after the rows kept).
//!
//! The record of a run's options (`OUTPUT.resume.json`, see [`super::resume::RunOptions`]) is
//! an output too: it is only written (or replaced, or removed) where no file read or written
//! by the run lies, and an existing file of that name is replaced only when it is such a
//! record; it is kept for regular output files only, never for `/dev/null`, a pipe or stdout
//! (nor `/dev/stdout` redirected to a file).

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

use super::read::{ReadError, Source};
use super::resume::RunOptions;
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

    /// True for stdout, and for a path that is no regular file (`/dev/null`, `/dev/stdout`, a
    /// named pipe): an output whose name says nothing of its format.
    pub fn is_stream(&self) -> bool {
        match self {
            Output::Stdout => true,
            Output::Path(p) => std::fs::metadata(p).is_ok_and(|m| !m.is_file()),
        }
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

/// One output, open and locked but not yet emptied.
#[derive(Debug)]
pub struct Opened {
    /// The name shown in messages.
    pub name: String,
    /// The file; `None` for stdout.
    file: Option<File>,
    /// The path of a file this run created, removed again if the run fails before it starts.
    created: Option<PathBuf>,
}

impl Opened {
    /// The output emptied, or cut to its first `keep` bytes and positioned at its end.
    pub fn start(&mut self, keep: u64) -> Result<Box<dyn Write + Send>, RunError> {
        self.created = None;
        let Some(file) = &self.file else {
            return Ok(Box::new(io::stdout()));
        };
        let cut = |mut file: &File| -> io::Result<File> {
            file.set_len(keep)?;
            file.seek(io::SeekFrom::End(0))?;
            file.try_clone()
        };
        // A file that is not a regular one (a FIFO, /dev/null) cannot be cut, and need not be.
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        let file = if regular { cut(file) } else { file.try_clone() };
        Ok(Box::new(file.map_err(write_err(&self.name))?))
    }
}

impl Drop for Opened {
    fn drop(&mut self) {
        if let Some(path) = self.created.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A file a command reads, as [`Outputs::open`] checks it: it must be readable, and no
/// output may be it.
#[derive(Debug, Clone, Copy)]
pub struct Read<'a> {
    /// The file (stdin is compared by what it is redirected from).
    pub source: &'a Source,
    /// What it is, in the message refusing an output that is it: "the input", "a part".
    pub what: &'static str,
}

/// What a command reads and writes, for [`Outputs::open`].
#[derive(Debug, Clone)]
pub struct Plan<'a> {
    /// The files read.
    pub reads: Vec<Read<'a>>,
    /// The results.
    pub results: Output,
    /// The `--emit-solutions` file, if any.
    pub solutions: Option<Output>,
    /// Whether the results file has a record of the run's options beside it
    /// ([`RunOptions::path`]): to be written, replaced or removed. Only for a regular file.
    pub record: bool,
}

impl<'a> Plan<'a> {
    /// The plan of a run of the pipeline: its inputs, results and `--emit-solutions` file.
    pub fn of_run(config: &'a Config) -> Plan<'a> {
        Plan {
            reads: config
                .inputs
                .iter()
                .map(|source| Read {
                    source,
                    what: "the input",
                })
                .chain(config.also_read.iter().map(|source| Read {
                    source,
                    what: "an --against file",
                }))
                .collect(),
            results: config.output.clone(),
            solutions: config.emit_solutions.as_deref().map(solutions_output),
            record: true,
        }
    }
}

/// The outputs of a command: the results, the `--emit-solutions` file, and where the record
/// of the run's options goes.
#[derive(Debug)]
pub struct Outputs {
    /// The results.
    pub results: Opened,
    /// The `--emit-solutions` file.
    pub solutions: Option<Opened>,
    /// Where the record of the run's options may be written or removed: checked to be no file
    /// the run reads or writes, and, if it exists, to be such a record. `None` when the
    /// results go to no regular file.
    pub record: Option<PathBuf>,
}

/// A file's identity: device and inode. `None` where it cannot be known.
type Identity = Option<(u64, u64)>;

/// What a run reads or writes, for telling whether two of them are one file.
#[derive(Debug, Clone)]
struct Role {
    /// The identity of the file, when it exists.
    id: Identity,
    /// For a file that does not exist yet: the path it will be created at, with links and the
    /// directory resolved.
    future: Option<PathBuf>,
    /// A regular file (where writing destroys what is there).
    regular: bool,
    /// `/dev/null`, which any number of roles may share.
    null: bool,
}

impl Role {
    /// The role of the file at `path`.
    fn of_path(path: &Path) -> Role {
        match std::fs::metadata(path) {
            Ok(m) => Role::of_metadata(&m),
            Err(_) => Role {
                id: None,
                future: resolve_future(path),
                regular: true,
                null: false,
            },
        }
    }

    /// The role of an open descriptor (stdin, stdout).
    fn of_fd(fd: impl std::os::fd::AsFd) -> Role {
        let meta = fd
            .as_fd()
            .try_clone_to_owned()
            .and_then(|fd| File::from(fd).metadata());
        match meta {
            Ok(m) => Role::of_metadata(&m),
            Err(_) => Role {
                id: None,
                future: None,
                regular: false,
                null: false,
            },
        }
    }

    fn of_metadata(m: &std::fs::Metadata) -> Role {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        let null = m.file_type().is_char_device()
            && std::fs::metadata("/dev/null").is_ok_and(|n| n.rdev() == m.rdev());
        Role {
            id: Some((m.dev(), m.ino())),
            future: None,
            regular: m.is_file(),
            null,
        }
    }

    /// Whether `self` and `other` are one file.
    fn same(&self, other: &Role) -> bool {
        if self.null || other.null {
            return false;
        }
        match (self.id, other.id, &self.future, &other.future) {
            (Some(a), Some(b), _, _) => a == b,
            (None, None, Some(a), Some(b)) => a == b,
            _ => false,
        }
    }
}

/// Where a file that does not exist yet at `path` will be created: a dangling link is
/// followed, and the directory is made canonical.
fn resolve_future(path: &Path) -> Option<PathBuf> {
    let mut path = path.to_path_buf();
    // A dangling link (or a chain of them) creates its target.
    for _ in 0..40 {
        match std::fs::read_link(&path) {
            Ok(target) => {
                path = match path.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                }
            }
            Err(_) => break,
        }
    }
    let name = path.file_name()?.to_owned();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Some(dir.canonicalize().ok()?.join(name))
}

impl Outputs {
    /// Checks that no output is a file read and that the outputs are distinct, that every
    /// file read can be opened, and that the place of the record of options is free; then
    /// opens and locks the output files without emptying them. Nothing is created or changed
    /// when a check fails.
    pub fn open(plan: &Plan) -> Result<Outputs, RunError> {
        let reads: Vec<(Role, &Read)> = plan
            .reads
            .iter()
            .map(|read| {
                let role = match read.source {
                    Source::Path(p) => Role::of_path(p),
                    Source::Stdin => Role::of_fd(io::stdin()),
                };
                (role, read)
            })
            .filter(|(role, _)| role.regular)
            .collect();
        let read_as = |role: &Role| {
            reads
                .iter()
                .find(|(read, _)| read.same(role))
                .map(|(_, read)| read.what)
        };
        let role = |output: &Output| match output {
            Output::Path(p) => Role::of_path(p),
            Output::Stdout => Role::of_fd(io::stdout()),
        };
        let refuse = |output: &Output, what: String| RunError::SameFile {
            path: output.display_name(),
            what,
        };
        let results = role(&plan.results);
        if let Some(what) = read_as(&results) {
            return Err(refuse(&plan.results, format!("the output is {what}")));
        }
        let solutions = plan.solutions.as_ref().map(|out| (out, role(out)));
        if let Some((out, role)) = &solutions {
            if let Some(what) = read_as(role) {
                return Err(refuse(out, format!("the --emit-solutions file is {what}")));
            }
            let both_stdout = **out == Output::Stdout && plan.results == Output::Stdout;
            if both_stdout || results.same(role) {
                return Err(refuse(
                    out,
                    "the --emit-solutions file is the output".into(),
                ));
            }
        }
        let record = match &plan.results {
            Output::Path(path) if plan.record && results.regular && !names_a_descriptor(path) => {
                let record = RunOptions::path(path);
                let role = Role::of_path(&record);
                let taken = read_as(&role).or_else(|| {
                    let solutions = solutions.as_ref().map(|(_, s)| s);
                    if results.same(&role) {
                        Some("the output")
                    } else {
                        solutions
                            .is_some_and(|s| s.same(&role))
                            .then_some("the --emit-solutions file")
                    }
                });
                let refuse = |what: String| RunError::Usage {
                    path: record.display().to_string(),
                    message: format!(
                        "{what}, and the record of the options of a run writing {} goes there; \
                         it is left as it is: give the output another name",
                        path.display()
                    ),
                };
                if let Some(what) = taken {
                    return Err(refuse(format!("this file is {what}")));
                }
                if !is_record_or_absent(&record) {
                    return Err(refuse("this file is no record of a run's options".into()));
                }
                Some(record)
            }
            _ => None,
        };
        check_readable(&plan.reads)?;
        let opened_results = open_one(&plan.results)?;
        let opened_solutions = solutions.map(|(out, _)| open_one(out)).transpose()?;
        // The files as opened, once more: a name may have changed what it points to.
        let opened = [Some(&opened_results), opened_solutions.as_ref()];
        for out in opened.into_iter().flatten() {
            if let Some(file) = &out.file
                && let Some(what) = read_as(&Role::of_fd(file))
            {
                return Err(RunError::SameFile {
                    path: out.name.clone(),
                    what: format!("the output is {what}"),
                });
            }
        }
        Ok(Outputs {
            results: opened_results,
            solutions: opened_solutions,
            record,
        })
    }
}

/// True for `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N` and the like: names of whatever a
/// descriptor is open on, even a regular file, beside which no record of options belongs.
fn names_a_descriptor(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

/// True when nothing is (or can be) at `path`, or a record of a run's options that this tool
/// wrote.
fn is_record_or_absent(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        // Nothing there, or a name no file can have: nothing to replace.
        Err(_) => true,
        Ok(m) if m.is_file() => std::fs::read(path).is_ok_and(|text| RunOptions::is_record(&text)),
        Ok(_) => false,
    }
}

/// Opens every file of `reads` that can be opened without waiting (not a named pipe, which
/// would wait for its writer) and closes it again: one that cannot be read stops the command
/// before an output is touched.
fn check_readable(reads: &[Read]) -> Result<(), RunError> {
    use std::os::unix::fs::FileTypeExt;
    for read in reads {
        let Source::Path(path) = read.source else {
            continue;
        };
        let fail = |source: io::Error| {
            RunError::Read(ReadError::Io {
                path: path.display().to_string(),
                source,
            })
        };
        let meta = std::fs::metadata(path).map_err(fail)?;
        if meta.file_type().is_fifo() || meta.is_dir() {
            continue;
        }
        File::open(path).map_err(fail)?;
    }
    Ok(())
}

/// The output that `--emit-solutions FILE` names: `-` is stdout.
pub(crate) fn solutions_output(path: &Path) -> Output {
    Output::from_arg(Some(path))
}

/// Opens `output` for writing without emptying it, and locks it.
fn open_one(output: &Output) -> Result<Opened, RunError> {
    let name = output.display_name();
    let Output::Path(path) = output else {
        return Ok(Opened {
            name,
            file: None,
            created: None,
        });
    };
    let existed = std::fs::symlink_metadata(path).is_ok();
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(write_err(&name))?;
    let created = (!existed).then(|| path.clone());
    // Only a regular file is locked: devices such as /dev/null may serve many runs at once.
    let regular = file.metadata().is_ok_and(|m| m.is_file());
    let locked = if regular { file.try_lock() } else { Ok(()) };
    // Dropped on an error: a file this run made goes again.
    let opened = Opened {
        name,
        file: Some(file),
        created,
    };
    match locked {
        Ok(()) => Ok(opened),
        Err(std::fs::TryLockError::WouldBlock) => Err(RunError::Locked {
            path: opened.name.clone(),
            holder: opened.file.as_ref().and_then(lock_holder),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(write_err(&opened.name)(e)),
    }
}

/// The process holding a lock on `file`, when `/proc/locks` says.
fn lock_holder(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let inode = file.metadata().ok()?.ino();
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    locks.lines().find_map(|line| {
        // "1: FLOCK  ADVISORY  WRITE 1234 fe:00:5678 0 EOF": the pid, then device:inode.
        let fields: Vec<&str> = line.split_whitespace().collect();
        let id = fields.get(5)?;
        let lock_inode: u64 = id.rsplit(':').next()?.parse().ok()?;
        (lock_inode == inode).then(|| fields.get(4)?.parse().ok())?
    })
}

#[cfg(test)]
mod tests;
