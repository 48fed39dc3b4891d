//! Where a run's rows go, and the checks that keep a run from destroying data.
//!
//! Before anything is created or emptied, `Outputs::open` makes sure that no output is one of
//! the inputs and that the two outputs are not one file, by every route: paths, links, `/dev/fd/N`,
//! and stdin or stdout redirected to a file (compared by device and inode, not by name). It then
//! opens the output files without emptying them and takes an exclusive advisory lock on each,
//! so that a second run writing the same file stops at once. Only when the input has been
//! opened too are the files emptied (or, for `--resume`, cut after the rows kept).

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

    /// Opens the output for writing, unbuffered: stdout, or a file created or emptied, with
    /// none of the checks of a run's outputs (for `generate`, which reads no input).
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

/// One output, open and locked but not yet emptied.
#[derive(Debug)]
pub(crate) struct Opened {
    /// The name shown in messages.
    pub(crate) name: String,
    /// The file; `None` for stdout.
    file: Option<File>,
    /// The path of a file this run created, removed again if the run fails before it starts.
    created: Option<PathBuf>,
}

impl Opened {
    /// The output emptied, or cut to its first `keep` bytes and positioned at its end.
    pub(crate) fn start(&mut self, keep: u64) -> Result<Box<dyn Write + Send>, RunError> {
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

/// The outputs of a run: the results and the `--emit-solutions` file.
#[derive(Debug)]
pub(crate) struct Outputs {
    pub(crate) results: Opened,
    pub(crate) solutions: Option<Opened>,
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
    /// Checks that no output is an input (or another file the run reads,
    /// [`Config::also_read`]) and that the outputs are distinct, then opens and
    /// locks the output files without emptying them. Nothing is created or changed when a
    /// check fails.
    pub(crate) fn open(config: &Config) -> Result<Outputs, RunError> {
        let inputs: Vec<Role> = config
            .inputs
            .iter()
            .chain(&config.also_read)
            .map(|source| match source {
                Source::Path(p) => Role::of_path(p),
                Source::Stdin => Role::of_fd(io::stdin()),
            })
            .filter(|role| role.regular)
            .collect();
        let is_input = |role: &Role| inputs.iter().any(|input| input.same(role));
        let role = |output: &Output| match output {
            Output::Path(p) => Role::of_path(p),
            Output::Stdout => Role::of_fd(io::stdout()),
        };
        let results = role(&config.output);
        let solutions_output = config.emit_solutions.as_deref().map(solutions_output);
        let solutions = solutions_output.as_ref().map(role);
        let refuse = |output: &Output, what: &'static str| RunError::SameFile {
            path: output.display_name(),
            what,
        };
        if is_input(&results) {
            return Err(refuse(&config.output, "the output is the input"));
        }
        if let (Some(out), Some(role)) = (&solutions_output, &solutions) {
            if is_input(role) {
                return Err(refuse(out, "the --emit-solutions file is the input"));
            }
            let both_stdout = *out == Output::Stdout && config.output == Output::Stdout;
            if both_stdout || results.same(role) {
                return Err(refuse(out, "the --emit-solutions file is the output"));
            }
        }
        let results = open_one(&config.output)?;
        let solutions = solutions_output.as_ref().map(open_one).transpose()?;
        // The files as opened, once more: a name may have changed what it points to.
        let opened = [Some(&results), solutions.as_ref()];
        for out in opened.into_iter().flatten() {
            if let Some(file) = &out.file
                && is_input(&Role::of_fd(file))
            {
                return Err(RunError::SameFile {
                    path: out.name.clone(),
                    what: "the output is the input",
                });
            }
        }
        Ok(Outputs { results, solutions })
    }
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
mod tests {
    use super::*;

    #[test]
    fn a_file_not_yet_made_is_known_by_its_resolved_path() {
        let dir = tempfile::tempdir().unwrap();
        let a = Role::of_path(&dir.path().join("out.csv"));
        let b = Role::of_path(&dir.path().join(".").join("out.csv"));
        assert!(a.same(&b));
        std::os::unix::fs::symlink("out.csv", dir.path().join("link.csv")).unwrap();
        assert!(a.same(&Role::of_path(&dir.path().join("link.csv"))));
        assert!(!a.same(&Role::of_path(&dir.path().join("other.csv"))));
        std::fs::write(dir.path().join("out.csv"), "x").unwrap();
        let hard = dir.path().join("hard.csv");
        std::fs::hard_link(dir.path().join("out.csv"), &hard).unwrap();
        assert!(Role::of_path(&dir.path().join("out.csv")).same(&Role::of_path(&hard)));
    }

    #[test]
    fn dev_null_may_serve_twice() {
        let null = Role::of_path(Path::new("/dev/null"));
        assert!(null.null && !null.same(&null.clone()));
    }

    #[test]
    fn a_second_lock_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let first = open_one(&Output::Path(path.clone())).unwrap();
        let Err(RunError::Locked { holder, .. }) = open_one(&Output::Path(path.clone())) else {
            panic!("the second open must fail")
        };
        if std::path::Path::new("/proc/locks").exists() {
            assert_eq!(holder, Some(std::process::id()));
        }
        drop(first);
        assert!(open_one(&Output::Path(path)).is_ok());
    }

    #[test]
    fn a_file_the_run_made_goes_again_if_the_run_never_starts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.csv");
        drop(open_one(&Output::Path(path.clone())).unwrap());
        assert!(!path.exists());
        let mut kept = open_one(&Output::Path(path.clone())).unwrap();
        kept.start(0).unwrap();
        drop(kept);
        assert!(path.exists());
    }
}
