//! The `sudoku-batch` binary: parse the arguments, run the command, exit with its code.
//!
//! On linux-gnu it starts at its own C `main` ([`start`]) rather than at Rust's.

#![cfg_attr(all(target_os = "linux", target_env = "gnu", not(test)), no_main)]

use sudoku_batch::cli::Cli;
use sudoku_batch::cmd;

#[cfg(not(all(target_os = "linux", target_env = "gnu", not(test))))]
fn main() -> std::process::ExitCode {
    cmd::run(Cli::parse_args()).into()
}

/// The program's entry point on linux-gnu, called by the C library.
///
/// A Rust `main` is called by the standard library's start-up code, which on Linux also finds
/// the main thread's stack (glibc reads and parses `/proc/self/maps` for it), installs handlers
/// and an alternate signal stack that report a stack overflow, names the thread, and at the end
/// takes them down again. That cost every run about 0.17 ms on the KVM guest of BENCHMARKS.md,
/// 15% of a run over an empty file. What of it this program relies on is done here: the
/// standard descriptors are made valid, SIGPIPE is ignored (a closed stdout is an error the
/// commands handle, not a kill), a panic gives exit code 101, and stdout is flushed at the
/// end. Lost: the message that names a stack overflow, now a plain SIGSEGV (the solvers'
/// recursion is at most 81 deep), and the name `main` in a panic message from this thread.
#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    start::open_standard_fds();
    // SAFETY: `signal` with a valid signal number and `SIG_IGN` only changes that signal's
    // disposition; no Rust code has installed a handler for SIGPIPE that this would replace.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    // A panic must not unwind out of this `extern "C"` function (that aborts the process):
    // it ends the run with 101, as a panic in a Rust `main` does, after the hook printed it.
    let exit = std::panic::catch_unwind(|| cmd::run(Cli::parse_args()) as libc::c_int);
    let _ = std::io::Write::flush(&mut std::io::stdout());
    exit.unwrap_or(101)
}

/// What the standard library's start-up does that [`main`] keeps.
#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
mod start {
    /// Opens `/dev/null` on any of descriptors 0, 1 and 2 that is closed, as the standard
    /// library does before a Rust `main`. Otherwise the first file this program opens would get
    /// the number, and writes meant for stdout or stderr (a message, a summary) could go into
    /// it, say into the results.
    pub fn open_standard_fds() {
        for fd in 0..3 {
            // SAFETY: F_GETFD reads a descriptor's flags and changes nothing, whatever `fd` is.
            let closed = unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
            if closed {
                // SAFETY: `open` gets a NUL-terminated path; the lowest free descriptor is
                // `fd`, as the ones below it are open.
                let got = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
                if got != fd {
                    // As the standard library does: better no run than output in the wrong file.
                    std::process::abort();
                }
            }
        }
    }
}

/// The C library's `pow`, defined in the binary so that it never loads libm.
///
/// indicatif's rate estimate (`f64::powf`) is the one thing in this program that libm provides,
/// and loading a shared library is paid by every run: 0.17-0.22 ms of each start on the KVM
/// guest of BENCHMARKS.md, about what solving a hundred 17-clue puzzles takes. A definition in
/// the binary takes precedence over libm's when the binary is linked, and the linker
/// (`--as-needed`) then leaves libm out. `libm` is rust-lang's port of musl's, within an ulp.
/// (Where `build.rs` links the binary statically, no shared library is loaded anyway; this
/// and `libgcc_eh` below keep the usual dynamic link lean.)
// SAFETY: this is the C standard's `double pow(double, double)`, with its exact signature and
// meaning, and it touches no global state, so every caller gets what it expects. libm is a shared
// library: no other definition of `pow` is linked into the binary, so the symbol is not defined
// twice.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[unsafe(no_mangle)]
extern "C" fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

// The unwinder, linked into the binary from GCC's static `libgcc_eh` instead of loaded from
// the shared `libgcc_s`, as `gcc -static-libgcc` links C++ programs.
//
// Loading `libgcc_s` cost every run 0.12-0.13 ms on the KVM guest of BENCHMARKS.md: opening
// and mapping one more library, and its start-up code, which asks the processor what it
// supports with `cpuid` (trapped by that hypervisor, 8 µs each). Nothing in this program uses
// `libgcc_s` but the unwinder (panics, backtraces); with the archive named first, the linker
// takes the unwinder from it, and `--as-needed` then leaves `libgcc_s` out. The archive comes
// with GCC wherever the C compiler links Rust programs on linux-gnu.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[link(name = "gcc_eh", kind = "static")]
unsafe extern "C" {}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::pow;

    #[test]
    fn panics_unwind_with_the_static_unwinder() {
        // A broken unwinder aborts the process here instead of returning the panic.
        let caught = std::panic::catch_unwind(|| panic!("caught"));
        assert!(caught.is_err());
        let joined = std::thread::spawn(|| panic!("in a thread")).join();
        assert!(joined.is_err());
        let trace = std::backtrace::Backtrace::force_capture();
        assert_eq!(trace.status(), std::backtrace::BacktraceStatus::Captured);
    }

    #[test]
    fn pow_gives_the_c_library_values() {
        // Exact cases, then the progress bar's own use: 0.1 raised to an age in seconds.
        assert_eq!(pow(2.0, 10.0), 1024.0);
        assert_eq!(pow(9.0, 0.5), 3.0);
        assert_eq!(pow(0.1, 0.0), 1.0);
        assert_eq!(pow(0.0, 2.0), 0.0);
        assert!(pow(-1.0, 0.5).is_nan());
        let got = pow(0.1, 1.0 / 15.0);
        assert!((got - 0.857_695_898_590_894).abs() < 1e-15, "{got}");
    }
}
