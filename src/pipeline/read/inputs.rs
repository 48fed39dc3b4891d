//! The inputs a run reads ([`Source`]), as the command line names them: files, `-` for stdin,
//! and directories, which stand for the files in them in name order (not those in their
//! subdirectories, nor hidden ones), optionally only those whose name matches a glob pattern.
//! What a directory holds that is not read although its name would be (a subdirectory, a
//! symbolic link to nothing, a pipe or socket) is named to the caller, never dropped unsaid.

use std::path::{Path, PathBuf};

use super::{Format, ReadError, compressed};

/// Where records come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file.
    Path(PathBuf),
}

impl Source {
    /// `-` or nothing is stdin, anything else a path.
    pub fn from_arg(arg: Option<&Path>) -> Source {
        match arg {
            None => Source::Stdin,
            Some(p) if p.as_os_str() == "-" => Source::Stdin,
            Some(p) => Source::Path(p.to_path_buf()),
        }
    }

    /// The name shown in messages and in the `file` column.
    pub fn display_name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_string(),
            Source::Path(p) => p.display().to_string(),
        }
    }

    /// True for an input that can be read only once: stdin, or a path that is no regular file
    /// (a named pipe, a `<(command)`, a device).
    pub fn reads_once(&self) -> bool {
        match self {
            Source::Stdin => true,
            Source::Path(p) => std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir()),
        }
    }

    /// The format [`Format::Auto`] picks for this input: by its name.
    pub(super) fn guess_format(&self) -> Format {
        let Source::Path(p) = self else {
            return Format::Text;
        };
        let name = p.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".parquet") {
            return Format::Parquet;
        }
        let name = compressed::strip_suffix(&name);
        if name.ends_with(".csv") || name.ends_with(".tsv") {
            Format::Csv
        } else {
            Format::Text
        }
    }

    /// True for a name ending in `.tsv` (before a compression suffix): tab-separated.
    pub(super) fn is_tsv(&self) -> bool {
        let Source::Path(p) = self else {
            return false;
        };
        let name = p.to_string_lossy().to_ascii_lowercase();
        compressed::strip_suffix(&name).ends_with(".tsv")
    }
}

/// The inputs `args` name, in order: a directory's files in name order, those whose name
/// matches `glob` when given; no argument is stdin. Fails on a directory that cannot be
/// listed, when the arguments name no file at all, and on a `glob` with no directory to
/// apply to (it would be ignored). Each entry of a directory that is skipped although its
/// name is neither hidden nor excluded by `glob` (a subdirectory, a dangling symbolic link,
/// anything else that is no file) is handed to `skipped` with the reason, for a warning.
pub fn expand(
    args: &[PathBuf],
    glob: Option<&str>,
    skipped: &mut dyn FnMut(String),
) -> Result<Vec<Source>, ReadError> {
    let is_dir = |arg: &PathBuf| std::fs::metadata(arg).is_ok_and(|m| m.is_dir());
    if glob.is_some() && !args.iter().any(is_dir) {
        let path = args
            .first()
            .map_or("<stdin>".into(), |a| a.display().to_string());
        return Err(ReadError::Usage {
            path,
            message: "--glob needs a directory among the inputs: it picks files in directories"
                .into(),
        });
    }
    if args.is_empty() {
        return Ok(vec![Source::Stdin]);
    }
    let mut sources = Vec::new();
    for arg in args {
        if !is_dir(arg) {
            sources.push(Source::from_arg(Some(arg)));
            continue;
        }
        let listed = files_in(arg, glob, skipped).map_err(|source| ReadError::Io {
            path: arg.display().to_string(),
            source,
        })?;
        sources.extend(listed.into_iter().map(Source::Path));
    }
    if sources.is_empty() {
        let what = glob.map_or(String::new(), |g| format!(" whose name matches {g:?}"));
        let message = match args {
            [_] => format!("is a directory with no file{what} in it (subdirectories are not read)"),
            _ => format!("no file{what} to read in the directories given"),
        };
        return Err(ReadError::Usage {
            path: args[0].display().to_string(),
            message,
        });
    }
    Ok(sources)
}

/// The files directly in `dir` that are not hidden and match `glob`, in name order; what else
/// is there under such a name goes to `skipped`, in name order.
fn files_in(
    dir: &Path,
    glob: Option<&str>,
    skipped: &mut dyn FnMut(String),
) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut others = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || glob.is_some_and(|g| !matches(g, &name)) {
            continue;
        }
        // Links are followed: a link to a file is a file. The directory listing tells the
        // other kinds without a call per file.
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_file() {
            files.push(path);
            continue;
        }
        let target = if kind.is_symlink() {
            std::fs::metadata(&path).map(|m| m.file_type())
        } else {
            Ok(kind)
        };
        match target {
            Ok(t) if t.is_file() => files.push(path),
            Ok(t) => {
                let what = if t.is_dir() {
                    "a directory (subdirectories are not read: name it to read its files)"
                } else {
                    "not a regular file (a pipe, socket or device in a directory is not read)"
                };
                let link = if kind.is_symlink() { "a link to " } else { "" };
                others.push((path, format!("{link}{what}")));
            }
            Err(e) => {
                let to = std::fs::read_link(&path)
                    .map_or(String::new(), |t| format!(" to {}", t.display()));
                let why = if e.kind() == std::io::ErrorKind::NotFound {
                    "which does not exist".to_string()
                } else {
                    format!("which cannot be read ({e})")
                };
                others.push((path, format!("a symbolic link{to}, {why}")));
            }
        }
    }
    files.sort();
    others.sort();
    for (path, why) in others {
        skipped(format!("skipped {}: {why}", path.display()));
    }
    Ok(files)
}

/// Whether `name` matches the glob `pattern`: `*` is any run of characters, `?` any one,
/// `[abc]`, `[a-z]` and `[!abc]` one of a set or not of it; anything else stands for itself.
pub fn matches(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni) = (0, 0);
    // Where to go on from when what follows the last `*` fails: the pattern after it, and the
    // name one character further than last time.
    let mut retry: Option<(usize, usize)> = None;
    while ni < n.len() {
        let step = match p.get(pi) {
            Some('*') => {
                retry = Some((pi + 1, ni));
                pi += 1;
                continue;
            }
            Some('?') => Some(pi + 1),
            Some('[') => class(&p[pi..], n[ni]).map(|len| pi + len),
            Some(&c) if c == n[ni] => Some(pi + 1),
            _ => None,
        };
        match (step, retry) {
            (Some(next), _) => {
                pi = next;
                ni += 1;
            }
            (None, Some((after_star, from))) => {
                retry = Some((after_star, from + 1));
                pi = after_star;
                ni = from + 1;
            }
            (None, None) => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// The length of the class `[...]` at the start of `p` when it matches `c`; `None` when it
/// does not. A `[` with no closing `]` stands for itself.
fn class(p: &[char], c: char) -> Option<usize> {
    let Some(close) = p.iter().skip(2).position(|&x| x == ']').map(|i| i + 2) else {
        return (c == '[').then_some(1);
    };
    let (negated, body) = match p[1] {
        '!' | '^' => (true, &p[2..close]),
        _ => (false, &p[1..close]),
    };
    let mut hit = false;
    let mut i = 0;
    while i < body.len() {
        if i + 2 < body.len() && body[i + 1] == '-' {
            hit |= (body[i]..=body[i + 2]).contains(&c);
            i += 3;
        } else {
            hit |= body[i] == c;
            i += 1;
        }
    }
    (hit != negated).then_some(close + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_patterns() {
        for (pattern, name, want) in [
            ("*.txt", "a.txt", true),
            ("*.txt", "a.txt.gz", false),
            ("*.txt*", "a.txt.gz", true),
            ("part-?.csv", "part-1.csv", true),
            ("part-?.csv", "part-12.csv", false),
            ("part-[0-4]*", "part-3.csv", true),
            ("part-[!0-4]*", "part-3.csv", false),
            ("*a*b*c", "xaybzc", true),
            ("*a*b*c", "xaybz", false),
            ("*", "", true),
            ("[", "[", true),
            ("a**", "abc", true),
        ] {
            assert_eq!(matches(pattern, name), want, "{pattern} {name}");
        }
    }

    #[test]
    fn a_directory_is_its_files_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.txt", "a.txt", "c.csv", ".hidden.txt"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("sub.txt")).unwrap();
        let names = |sources: Vec<Source>| -> Vec<String> {
            sources
                .iter()
                .map(|s| match s {
                    Source::Path(p) => p.file_name().unwrap().to_string_lossy().into_owned(),
                    Source::Stdin => "-".into(),
                })
                .collect()
        };
        let arg = [dir.path().to_path_buf()];
        let mut skipped = Vec::new();
        let mut note = |s: String| skipped.push(s);
        assert_eq!(
            names(expand(&arg, None, &mut note).unwrap()),
            ["a.txt", "b.txt", "c.csv"]
        );
        assert_eq!(
            names(expand(&arg, Some("*.txt"), &mut note).unwrap()),
            ["a.txt", "b.txt"]
        );
        let both = [dir.path().join("c.csv"), PathBuf::from("-")];
        assert_eq!(
            names(expand(&both, None, &mut note).unwrap()),
            ["c.csv", "-"]
        );
        assert!(expand(&arg, Some("*.parquet"), &mut note).is_err());
        assert_eq!(expand(&[], None, &mut note).unwrap(), [Source::Stdin]);
        // The subdirectory, named each time its name was not excluded.
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(skipped[0].contains("sub.txt: a directory"), "{skipped:?}");
    }
}
