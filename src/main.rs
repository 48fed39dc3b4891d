//! The `sudoku-batch` binary: parse the arguments, run the command, exit with its code.

use std::process::ExitCode;

fn main() -> ExitCode {
    sudoku_batch::cmd::run(sudoku_batch::cli::Cli::parse_args())
}

/// The C library's `pow`, defined in the binary so that it never loads libm.
///
/// indicatif's rate estimate (`f64::powf`) is the one thing in this program that libm provides,
/// and loading a shared library is paid by every run: 0.17-0.22 ms of each start on the KVM
/// guest of BENCHMARKS.md, about what solving a hundred 17-clue puzzles takes. A definition in
/// the binary takes precedence over libm's when the binary is linked, and the linker
/// (`--as-needed`) then leaves libm out. `libm` is rust-lang's port of musl's, within an ulp.
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
