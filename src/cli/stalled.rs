//! The stop that must come even when the output is stuck: after the first Ctrl-C or SIGTERM a
//! run writes and flushes its rows and ends within milliseconds, unless its writer is blocked
//! in a write to a pipe, socket or terminal that nobody reads (`| less` paused, a stalled
//! consumer). A write to such an output can wait for ever, and the signal does not end it (the
//! write is restarted). So a thread waits for the signal and, when the run has not ended
//! [`GRACE`] after it and its output is one that can block, exits the process with code 130,
//! as a second Ctrl-C does: a supervisor's single SIGTERM (`timeout`, systemd, Kubernetes) is
//! honoured. A regular file never blocks for long: its run is left to end as usual, so that a
//! Parquet or compressed file gets its trailer.

use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use signal_hook::iterator::Signals;

/// How long a stopped run may take to write and flush its rows before the process exits.
pub const GRACE: Duration = Duration::from_millis(50);

/// Whether the run's output can block for ever (anything but a regular file, a directory or
/// `/dev/null`); set by [`note_output`].
static MAY_BLOCK: AtomicBool = AtomicBool::new(false);

/// Says where the run writes: `path`, or stdout when `None`.
pub fn note_output(path: Option<&Path>) {
    let metadata = match path {
        Some(p) if p.as_os_str() != "-" => std::fs::metadata(p),
        _ => stdout_metadata(),
    };
    // A file that does not exist yet is made as a regular file.
    let may_block = metadata.is_ok_and(|m| !m.is_file() && !m.is_dir() && !is_dev_null(&m));
    MAY_BLOCK.store(may_block, Ordering::SeqCst);
}

/// The metadata of what stdout is.
fn stdout_metadata() -> std::io::Result<std::fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = std::io::stdout().as_fd().try_clone_to_owned()?;
    std::fs::File::from(fd).metadata()
}

/// Whether `m` is the metadata of `/dev/null`, which takes every write at once.
fn is_dev_null(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/dev/null")
        .is_ok_and(|null| null.rdev() == m.rdev() && null.ino() == m.ino())
}

/// Starts the thread that ends the process [`GRACE`] after a stop signal when the output may
/// be blocked. Quietly does nothing when the thread cannot be had: the first signal still sets
/// the stop flag, and a second exits.
pub fn watch(signals: &[i32]) {
    let Ok(mut signals) = Signals::new(signals) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("stop-watch".into())
        .spawn(move || {
            if signals.forever().next().is_none() {
                return;
            }
            std::thread::sleep(GRACE);
            if MAY_BLOCK.load(Ordering::SeqCst) {
                let stderr_may_block = stderr_metadata().is_ok_and(|m| {
                    use std::os::unix::fs::FileTypeExt;
                    m.file_type().is_fifo() || m.file_type().is_socket()
                });
                // Stderr may be the very pipe that is stuck (`2>&1 |`): no word then.
                if !stderr_may_block {
                    let _ = std::io::stderr().write_all(
                        b"sudoku-batch: stopped: the output is not being read, so the rows \
                          still buffered were not written (the last row written may be cut)\n",
                    );
                }
                signal_hook::low_level::exit(super::Exit::Interrupted as i32);
            }
        });
}

/// The metadata of what stderr is.
fn stderr_metadata() -> std::io::Result<std::fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = std::io::stderr().as_fd().try_clone_to_owned()?;
    std::fs::File::from(fd).metadata()
}
